#include "engine/copy_exec.hpp"

#include <algorithm>
#include <cstdlib>

#include "dtype/cast_simd.hpp"
#include "engine/copy_kernels.hpp"
#include "engine/copy_simd.hpp"
#include "engine/parallel.hpp"

namespace ctensor::core {

namespace {

// Below this many bytes written, waking another thread costs more than it saves.
constexpr int64_t kParallelBytes = int64_t{1} << 21;
// Chunks of a row or tile handed to threads are multiples of this many
// elements, so that threads do not write the same cache lines.
constexpr int64_t kChunkGrain = 64;
// Tile edge for converting copies of transposed layouts.
constexpr int64_t kCastBlock = 32;
// Outputs at least this large do not fit in cache for long: their stores
// stream past it, which saves reading every destination line first.
constexpr int64_t kStreamBytes = int64_t{8} << 20;
// Converted elements are staged in an L1-sized buffer and then streamed out.
constexpr int64_t kStageBytes = 8192;

struct Plan {
  bool tiled;  // the last two dims are [source-dense, destination-dense]
  bool stream;
  size_t item;
  CastKernel cast;
  StreamCastKernel stream_cast;  // cast's streaming variant, when streaming and it has one
};

// A converting row into a contiguous destination, with streaming stores: the
// cast kernel writes into a buffer that stays in L1, which is copied out.
void cast_row_streamed(const Plan& plan, char* dst, const char* src, int64_t ss, int64_t n) {
  alignas(64) char stage[kStageBytes];
  const auto item = static_cast<int64_t>(plan.item);
  const int64_t per = kStageBytes / item;
  for (int64_t j = 0; j < n; j += per) {
    const int64_t m = std::min(per, n - j);
    plan.cast(src + j * ss, ss, stage, item, m);
    copy_run(plan.item, dst + j * item, item, stage, item, m, true);
  }
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

// Runs the innermost one (row) or two (tile) dims at the current position.
void run_inner(const Plan& plan, const LoopNest& nest, char* dst, const char* src) {
  const int32_t i = nest.ndim - 1;
  if (plan.tiled) {
    const int32_t o = i - 1;
    if (plan.cast)
      cast_tile(plan.cast, dst, nest.dst_stride[o], nest.dst_stride[i], src, nest.src_stride[o],
                nest.src_stride[i], nest.size[o], nest.size[i]);
    else
      copy_tile(plan.item, dst, nest.dst_stride[o], nest.dst_stride[i], src, nest.src_stride[o],
                nest.src_stride[i], nest.size[o], nest.size[i], plan.stream);
  } else if (plan.cast && plan.stream && nest.dst_stride[i] == static_cast<int64_t>(plan.item)) {
    if (!plan.stream_cast || !plan.stream_cast(src, nest.src_stride[i], dst, nest.size[i]))
      cast_row_streamed(plan, dst, src, nest.src_stride[i], nest.size[i]);
  } else if (plan.cast) {
    plan.cast(src, nest.src_stride[i], dst, nest.dst_stride[i], nest.size[i]);
  } else {
    copy_run(plan.item, dst, nest.dst_stride[i], src, nest.src_stride[i], nest.size[i], plan.stream);
  }
}

// Walks the dims outside the kernel's with an odometer, advancing the two
// pointers incrementally.
void run_nest(const Plan& plan, const LoopNest& nest) {
  const int32_t outer = nest.ndim - (plan.tiled ? 2 : 1);
  int64_t index[kMaxDims] = {};
  char* dst = nest.dst;
  const char* src = nest.src;
  for (;;) {
    run_inner(plan, nest, dst, src);
    int32_t d = outer - 1;
    for (; d >= 0; --d) {
      dst += nest.dst_stride[d];
      src += nest.src_stride[d];
      if (++index[d] < nest.size[d]) break;
      dst -= nest.size[d] * nest.dst_stride[d];
      src -= nest.size[d] * nest.src_stride[d];
      index[d] = 0;
    }
    if (d < 0) break;
  }
  if (plan.stream) simd::fence();
}

// Tiles when the source is dense along a dim other than the destination's
// innermost one: the dim with the smallest source stride becomes the tile's outer dim.
bool choose_tiling(LoopNest& nest) {
  if (nest.ndim < 2) return false;
  const int32_t inner = nest.ndim - 1;
  int32_t best = -1;
  for (int32_t d = 0; d < inner; ++d) {
    if (nest.src_stride[d] == 0) continue;
    if (best < 0 || std::llabs(nest.src_stride[d]) < std::llabs(nest.src_stride[best])) best = d;
  }
  if (best < 0 || std::llabs(nest.src_stride[best]) >= std::llabs(nest.src_stride[inner])) return false;
  if (nest.size[best] < 4 || nest.size[inner] < 4) return false;
  nest.move_to_second_innermost(best);
  return true;
}

}  // namespace

void execute(LoopNest nest, size_t dst_item, CastKernel cast) {
  const int64_t bytes = nest.numel() * static_cast<int64_t>(dst_item);
  const bool stream = bytes >= kStreamBytes;
  const Plan plan{choose_tiling(nest), stream, dst_item, cast,
                  stream && cast ? simd_stream_cast(cast) : nullptr};
  // Threads split dim 0. When that dim belongs to the kernel (a single row or
  // tile), chunks are kept to whole groups of kChunkGrain.
  const int64_t outer = nest.size[0];
  const bool kernel_dim = nest.ndim <= (plan.tiled ? 2 : 1);
  const int64_t grain = kernel_dim ? kChunkGrain : 1;
  const int64_t threads = std::min<int64_t>({num_threads(), bytes / kParallelBytes + 1, (outer + grain - 1) / grain});
  if (threads <= 1) return run_nest(plan, nest);
  const int64_t per_thread = (outer + threads - 1) / threads;
  const int64_t chunk = (per_thread + grain - 1) / grain * grain;
  parallel_run(static_cast<int32_t>(threads), [&](int32_t part) {
    const int64_t begin = std::min(outer, part * chunk);
    const int64_t end = std::min(outer, begin + chunk);
    if (begin < end) run_nest(plan, nest.slice_outer(begin, end));
  });
}

}  // namespace ctensor::core
