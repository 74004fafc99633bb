// The copy engine: materialises strided views, converting dtypes on the way.
#pragma once

#include "layout/tensor.hpp"

namespace ctensor::core {

// dst[...] = src: broadcasts src to dst's shape and converts dtype; correct when
// src and dst share memory. Throws Shape (cannot broadcast), ReadOnly, Overlap
// (dst has internal overlap), Device (non-CPU memory). An empty dst does nothing.
void copy_into(const char* op, const Tensor& dst, const Tensor& src);

// A new contiguous, writable tensor holding t's elements converted to `dtype`.
Ref<Tensor> contiguous_copy(const char* op, const Tensor& t, DType dtype);

// Sets every element of dst to `value`, converted as from a float64 scalar.
void fill(const char* op, const Tensor& dst, double value);

}  // namespace ctensor::core
