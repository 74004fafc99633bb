// Checked conversion of one number into an element (tensor_scalar_convert_*):
// PyTorch's c10::checked_convert ranges, the overflow rules written once for
// every binding, then the library's conversion.
#pragma once

#include <cstdint>

#include "dtype/dtype.hpp"

namespace ctensor::core {

// Each writes `value` converted to `to` into `out` (dtype_size(to) bytes, any
// alignment), or throws Invalid (unknown dtype) or Overflow (out of `to`'s range,
// PyTorch's message) leaving `out` alone. The ranges are ctensor.h's.
void convert_int64_checked(const char* op, int64_t value, DType to, void* out);
void convert_float64_checked(const char* op, double value, DType to, void* out);
void convert_complex128_checked(const char* op, double re, double im, DType to, void* out);

}  // namespace ctensor::core
