// Inner kernels of the copy engine for same-dtype copies. Strides are in bytes;
// `item` is the element size (1, 2, 4, 8 or 16). Destination and source never
// overlap (the engine copies overlapping sources through a temporary first).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace ctensor::core {

// Outputs at least this large do not fit in cache for long: their stores
// stream past it, which saves reading every destination line first.
constexpr int64_t kStreamBytes = int64_t{8} << 20;

// n elements: dst[j*ds] = src[j*ss]. Contiguous runs become memcpy, a zero
// source stride becomes a fill, anything else a strided loop (vectorised where
// the CPU allows). `stream` asks for non-temporal stores: see copy_simd.hpp.
void copy_run(size_t item, char* dst, int64_t ds, const char* src, int64_t ss, int64_t n,
              bool stream) noexcept;

// A 2-D block of n_outer x n_inner elements, dst[o*d_outer + i*d_inner] =
// src[o*s_outer + i*s_inner], for transposed layouts (the source is dense along
// `outer`, the destination along `inner`): walked in cache-sized tiles, with
// in-register transposes where the CPU allows.
void copy_tile(size_t item, char* dst, int64_t d_outer, int64_t d_inner, const char* src,
               int64_t s_outer, int64_t s_inner, int64_t n_outer, int64_t n_inner, bool stream) noexcept;

// The L1 buffer that staged streaming stores go through.
constexpr int64_t kStageBytes = 8192;

// n elements of `item` bytes into dense dst with streaming stores, through an
// L1 buffer: produce(stage, j, m) writes elements [j, j + m) into `stage`.
// Chunks after the first start on a cache line of dst, so that the stores
// write whole lines (a line written in two halves cost 1.5x the time of normal
// stores on Zen 1). The caller fences.
template <class Produce>
void store_staged(char* dst, size_t item, int64_t n, const Produce& produce) {
  alignas(64) char stage[kStageBytes];
  const auto r = static_cast<int64_t>(item);
  const int64_t per = kStageBytes / r;
  const auto misalign = static_cast<int64_t>(reinterpret_cast<uintptr_t>(dst) % 64);
  const int64_t first = misalign && misalign % r == 0 ? (64 - misalign) / r : per;
  for (int64_t j = 0, m = 0; j < n; j += m) {
    m = std::min(j ? per : first, n - j);
    produce(stage, j, m);
    copy_run(item, dst + j * r, r, stage, r, m, true);
  }
}


}  // namespace ctensor::core
