// Vector kernels of the copy engine (AVX2 on x86-64), picked at run time. Each
// entry point handles the layouts it knows and reports the rest back to the
// portable kernels in copy_kernels.cpp. `stream` asks for non-temporal stores
// (the output is too large to stay in cache, so skip reading it in first);
// after streaming, call fence() before other threads read the output.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ctensor::core::simd {

// n elements dst[j*ds] = src[j*ss] (same dtype, `item` bytes). Handles
// contiguous destinations fed by a contiguous, broadcast (ss == 0) or strided
// source; false when the layout is not one of these or the CPU lacks AVX2.
bool copy_run(size_t item, char* dst, int64_t ds, const char* src, int64_t ss, int64_t n,
              bool stream) noexcept;

// The part of a transposed block that copy_tile's vector kernel did: the region
// [0, outer) x [0, inner); {0, 0} when it did nothing.
struct TileDone {
  int64_t outer, inner;
};

// The transposed block of copy_tile with d_inner == s_outer == item (2, 4 or 8
// bytes): copies whole register blocks (16 x 32 elements of 2 bytes, 8 x 16 of
// 4, 4 x 8 of 8) and reports how far it got along each dim.
TileDone copy_tile(size_t item, char* dst, int64_t d_outer, int64_t d_inner, const char* src,
                   int64_t s_outer, int64_t s_inner, int64_t n_outer, int64_t n_inner, bool stream) noexcept;

// The register blocks of 4-byte elements: 8 x 16 with 32-byte loads and
// stores (AVX2), 8 x 16 with one 64-byte store per destination line, or 16 x
// 16 with one 64-byte load per source line and store per destination line.
enum class Blocks4 { avx2, halves512, lines512 };

// copy_tile with the AVX-512 blocks of 4-byte elements given, used where the
// CPU has AVX-512 and, when streaming, the destination lines are 64-byte
// aligned (halves512 in cache blocks only, not in strips); elsewhere avx2.
// copy_tile picks them by vendor; tests try each.
TileDone copy_tile_with(Blocks4 wide_blocks, size_t item, char* dst, int64_t d_outer, int64_t d_inner,
                        const char* src, int64_t s_outer, int64_t s_inner, int64_t n_outer, int64_t n_inner,
                        bool stream) noexcept;

// Whether copy_run and copy_tile have streaming stores on this CPU (without
// them, `stream` changes nothing and staging for it only costs).
bool can_stream() noexcept;

// Orders streaming stores before later stores (sfence); a no-op elsewhere.
void fence() noexcept;

}  // namespace ctensor::core::simd
