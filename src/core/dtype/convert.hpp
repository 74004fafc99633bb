// Element conversion between dtypes, with the rules of ctensor.h's "Conversion
// rules": wrapping integer narrowing, truncating and saturating float->int
// (NaN -> 0), x != 0 for bool, round-to-nearest-even once for float16/bfloat16,
// real part of complex; or with PyTorch's x86 results (TENSOR_CONVERT_TORCH_X86).
#pragma once

#include <cstdint>

#include "dtype/dtype.hpp"

namespace ctensor::core {

// Converts n elements read from `src` (dtype `from`, `src_stride` bytes apart)
// into `dst` (dtype `to`, `dst_stride` bytes apart). Strides may be negative or 0
// for the source. Kernels are chosen at run time by CPU features.
using CastKernel = void (*)(const char* src, int64_t src_stride, char* dst, int64_t dst_stride,
                            int64_t n);

// The conversion policies (ctensor.h's TENSOR_CONVERT_*, decoded by the C facade).
enum class Conversion {
  Library,   // the library's rules
  TorchX86,  // PyTorch 1.13's results on x86-64 where they differ
};

// The kernel for a pair of known dtypes (from == to gives a plain element copy,
// except bool -> bool, which turns any non-zero byte into 1 as PyTorch does).
CastKernel cast_kernel(DType from, DType to, Conversion conversion = Conversion::Library) noexcept;

// Writes `value` converted to `to` (as a float64 source) into the element at `dst`.
void convert_from_double(double value, DType to, void* dst) noexcept;

// tensor_convert: `count` contiguous elements of `src` converted into `dst`.
// Invalid (unknown dtype, count < 0, NULL with elements), Overflow (byte counts),
// Overlap (the two byte ranges overlap).
void convert_elements(const char* op, void* dst, DType dst_dtype, const void* src, DType src_dtype, int64_t count);

}  // namespace ctensor::core
