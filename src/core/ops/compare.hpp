// Whole-tensor comparisons: torch.equal and torch.allclose.
#pragma once

#include "layout/tensor.hpp"

namespace ctensor::core {

// Same sizes and every element pair equal in the result type.
bool equal(const Tensor& a, const Tensor& b);

// Every broadcast pair close: a == b, both NaN (with equal_nan), or
// |a - b| finite and <= atol + rtol * |b|, evaluated in float64/complex128.
bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan);

}  // namespace ctensor::core
