#include "engine/copy_kernels.hpp"

#include <algorithm>
#include <cstring>

#include "engine/copy_simd.hpp"
#include "memory/unaligned.hpp"

namespace ctensor::core {

namespace {

struct Bytes16 {
  uint64_t lo, hi;
};

template <typename T>
void run_typed(char* dst, int64_t ds, const char* src, int64_t ss, int64_t n) noexcept {
  constexpr auto item = static_cast<int64_t>(sizeof(T));
  if (ds == item && ss == item) {
    std::memcpy(dst, src, static_cast<size_t>(n) * sizeof(T));
  } else if (ss == 0) {
    const T v = load<T>(src);
    for (int64_t j = 0; j < n; ++j, dst += ds) store(dst, v);
  } else if (ds == item) {
    for (int64_t j = 0; j < n; ++j, src += ss) store(dst + j * item, load<T>(src));
  } else {
    for (int64_t j = 0; j < n; ++j, dst += ds, src += ss) store(dst, load<T>(src));
  }
}

template <typename T>
void tile_typed(char* dst, int64_t d_outer, int64_t d_inner, const char* src, int64_t s_outer,
                int64_t s_inner, int64_t n_outer, int64_t n_inner) noexcept {
  // A block of kBlock x kBlock elements keeps both the source lines and the
  // destination lines it touches in L1.
  constexpr int64_t kBlock = sizeof(T) <= 4 ? 32 : 16;
  for (int64_t o0 = 0; o0 < n_outer; o0 += kBlock) {
    const int64_t o1 = std::min(n_outer, o0 + kBlock);
    for (int64_t i0 = 0; i0 < n_inner; i0 += kBlock) {
      const int64_t len = std::min(n_inner, i0 + kBlock) - i0;
      for (int64_t o = o0; o < o1; ++o)
        run_typed<T>(dst + o * d_outer + i0 * d_inner, d_inner, src + o * s_outer + i0 * s_inner,
                     s_inner, len);
    }
  }
}

void tile_portable(size_t item, char* dst, int64_t d_outer, int64_t d_inner, const char* src,
                   int64_t s_outer, int64_t s_inner, int64_t n_outer, int64_t n_inner) noexcept {
  switch (item) {
    case 1: return tile_typed<uint8_t>(dst, d_outer, d_inner, src, s_outer, s_inner, n_outer, n_inner);
    case 2: return tile_typed<uint16_t>(dst, d_outer, d_inner, src, s_outer, s_inner, n_outer, n_inner);
    case 4: return tile_typed<uint32_t>(dst, d_outer, d_inner, src, s_outer, s_inner, n_outer, n_inner);
    case 8: return tile_typed<uint64_t>(dst, d_outer, d_inner, src, s_outer, s_inner, n_outer, n_inner);
    default: return tile_typed<Bytes16>(dst, d_outer, d_inner, src, s_outer, s_inner, n_outer, n_inner);
  }
}

}  // namespace

void copy_run(size_t item, char* dst, int64_t ds, const char* src, int64_t ss, int64_t n,
              bool stream) noexcept {
  if (simd::copy_run(item, dst, ds, src, ss, n, stream)) return;
  switch (item) {
    case 1: return run_typed<uint8_t>(dst, ds, src, ss, n);
    case 2: return run_typed<uint16_t>(dst, ds, src, ss, n);
    case 4: return run_typed<uint32_t>(dst, ds, src, ss, n);
    case 8: return run_typed<uint64_t>(dst, ds, src, ss, n);
    default: return run_typed<Bytes16>(dst, ds, src, ss, n);
  }
}

void copy_tile(size_t item, char* dst, int64_t d_outer, int64_t d_inner, const char* src,
               int64_t s_outer, int64_t s_inner, int64_t n_outer, int64_t n_inner, bool stream) noexcept {
  const simd::TileDone done =
      simd::copy_tile(item, dst, d_outer, d_inner, src, s_outer, s_inner, n_outer, n_inner, stream);
  if (done.outer == 0 || done.inner == 0)
    return tile_portable(item, dst, d_outer, d_inner, src, s_outer, s_inner, n_outer, n_inner);
  // The vector kernel did whole register blocks; the strips left at the far
  // edges go through the portable loops.
  if (done.inner < n_inner)
    tile_portable(item, dst + done.inner * d_inner, d_outer, d_inner, src + done.inner * s_inner, s_outer,
                  s_inner, done.outer, n_inner - done.inner);
  if (done.outer < n_outer)
    tile_portable(item, dst + done.outer * d_outer, d_outer, d_inner, src + done.outer * s_outer, s_outer,
                  s_inner, n_outer - done.outer, n_inner);
}

}  // namespace ctensor::core
