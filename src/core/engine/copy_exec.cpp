#include "engine/copy_exec.hpp"

#include <algorithm>
#include <cstdlib>

#include "engine/copy_kernels.hpp"
#include "engine/copy_simd.hpp"

namespace ctensor::core {

namespace {

// Chunks of a row or tile handed to threads are multiples of this many
// elements, so that threads do not write the same cache lines.
constexpr int64_t kChunkGrain = 64;
// Tile edge for converting copies of transposed layouts.
constexpr int64_t kCastBlock = 32;

struct Plan {
  bool tiled;  // dims 1 and 0 are [source-dense, destination-dense]
  bool stream;
  size_t item;
  CastKernel cast;
  StreamCastKernel stream_cast;  // cast's streaming variant, when streaming and it has one
};

// A converting row into a contiguous destination, with streaming stores: the
// cast kernel writes into a buffer that stays in L1, which is copied out.
void cast_row_streamed(const Plan& plan, char* dst, const char* src, int64_t ss, int64_t n) {
  const auto item = static_cast<int64_t>(plan.item);
  store_staged(dst, plan.item, n,
               [&](char* stage, int64_t j, int64_t m) { plan.cast(src + j * ss, ss, stage, item, m); });
}

void cast_tile(CastKernel cast, char* dst, int64_t d_outer, int64_t d_inner, const char* src,
               int64_t s_outer, int64_t s_inner, int64_t n_outer, int64_t n_inner) {
  for (int64_t o0 = 0; o0 < n_outer; o0 += kCastBlock) {
    const int64_t o1 = std::min(n_outer, o0 + kCastBlock);
    for (int64_t i0 = 0; i0 < n_inner; i0 += kCastBlock) {
      const int64_t len = std::min(n_inner, i0 + kCastBlock) - i0;
      for (int64_t o = o0; o < o1; ++o)
        cast(src + o * s_outer + i0 * s_inner, s_inner, dst + o * d_outer + i0 * d_inner, d_inner, len);
    }
  }
}

// One block of the iterator: size1 rows of size0 elements, or (tiled) a
// transposed size1 x size0 block whose source is dense along dim 1.
void run_block(const Plan& plan, char** data, const int64_t* strides, int64_t size0, int64_t size1) {
  char* dst = data[0];
  const char* src = data[1];
  const int64_t ds = strides[0], ss = strides[1], d_outer = strides[2], s_outer = strides[3];
  if (plan.tiled) {
    if (plan.cast)
      cast_tile(plan.cast, dst, d_outer, ds, src, s_outer, ss, size1, size0);
    else
      copy_tile(plan.item, dst, d_outer, ds, src, s_outer, ss, size1, size0, plan.stream);
    return;
  }
  for (int64_t r = 0; r < size1; ++r, dst += d_outer, src += s_outer) {
    if (plan.cast && plan.stream && ds == static_cast<int64_t>(plan.item)) {
      if (!plan.stream_cast || !plan.stream_cast(src, ss, dst, size0))
        cast_row_streamed(plan, dst, src, ss, size0);
    } else if (plan.cast) {
      plan.cast(src, ss, dst, ds, size0);
    } else {
      copy_run(plan.item, dst, ds, src, ss, size0, plan.stream);
    }
  }
}

// Tiles when the source is dense along a dim other than the destination's
// innermost one: the dim with the smallest source stride becomes dim 1, the
// tile's outer dim.
bool choose_tiling(TensorIterator& it) {
  if (it.ndim() < 2) return false;
  int best = -1;
  for (int d = 1; d < it.ndim(); ++d) {
    if (it.stride(1, d) == 0) continue;
    if (best < 0 || std::llabs(it.stride(1, d)) < std::llabs(it.stride(1, best))) best = d;
  }
  if (best < 0 || std::llabs(it.stride(1, best)) >= std::llabs(it.stride(1, 0))) return false;
  if (it.size(best) < 4 || it.size(0) < 4) return false;
  it.move_dim(best, 1);
  return true;
}

}  // namespace

void execute(TensorIterator it, CastKernel cast, StreamCastKernel stream_cast) {
  const size_t item = it.itemsize(0);
  const bool stream = simd::can_stream() && it.numel() * static_cast<int64_t>(item) >= kStreamBytes;
  const Plan plan{choose_tiling(it), stream, item, cast, stream ? stream_cast : nullptr};
  // Threads split the outermost dim. When that dim belongs to the kernel (a
  // single row or tile), chunks are kept to whole groups of kChunkGrain.
  const bool kernel_dim = it.ndim() <= (plan.tiled ? 2 : 1);
  Split split;  // the default size per thread, measured on copies
  split.grain = kernel_dim ? kChunkGrain : 1;
  it.parallel_chunks(
      [&](const TensorIterator& chunk) {
        chunk.serial_for_each([&](char** data, const int64_t* strides, int64_t size0, int64_t size1) {
          run_block(plan, data, strides, size0, size1);
        });
        if (plan.stream) simd::fence();
      },
      split);
}

}  // namespace ctensor::core
