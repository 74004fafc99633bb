// Vectorised conversion kernels, picked at run time by the CPU's features.
#pragma once

#include "dtype/cast_rules.hpp"

namespace ctensor::core {

// A full table for `conversion` whose contiguous paths use the best vector
// instructions this CPU has (AVX2 + F16C on x86-64); nullptr when the CPU or the
// build has none.
const CastTable* simd_cast_table(Conversion conversion) noexcept;

// The streaming variant of the table's from -> to kernel: contiguous to
// contiguous, written with non-temporal stores, for outputs too large to stay in cache:
// dst[0, n) = convert(src[0, n)), the source `src_stride` bytes apart. It
// returns false without writing when src_stride is not the source's element
// size. Call _mm_sfence (simd::fence) after the last one. nullptr when the
// conversion has no such variant (the caller stages through L1 instead). It
// serves every policy: no streamed pair is one where the policies differ.
using StreamCastKernel = bool (*)(const char* src, int64_t src_stride, char* dst, int64_t n);
StreamCastKernel simd_stream_cast(DType from, DType to) noexcept;

// Every streaming float32 -> bfloat16 kernel this CPU runs, into out[0, 3)
// (AVX2; AVX-512; AVX-512 with the BF16 instruction), the one simd_stream_cast
// picks by default last; returns how many. For tests that check each.
int simd_stream_float_to_bfloat16_kernels(StreamCastKernel* out) noexcept;

}  // namespace ctensor::core
