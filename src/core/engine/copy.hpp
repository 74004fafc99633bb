// The copy engine: materialises strided views, converting dtypes on the way.
#pragma once

#include "dtype/convert.hpp"
#include "layout/memory_format.hpp"
#include "layout/tensor.hpp"

namespace ctensor::core {

// dst[...] = src: broadcasts src to dst's shape and converts dtype by
// `conversion`; correct when src and dst share memory. Throws Shape (cannot
// broadcast), ReadOnly, Overlap (dst has internal overlap), Device (non-CPU
// memory). An empty dst does nothing.
void copy_into(const char* op, const Tensor& dst, const Tensor& src, Conversion conversion = Conversion::Library);

// A new writable tensor laid out as `format` asks (empty_like's layouts) holding
// t's elements converted to `dtype` by `conversion`.
Ref<Tensor> copy_as(const char* op, const Tensor& t, DType dtype, MemoryFormat format, Conversion conversion);

// A new contiguous, writable tensor holding t's elements converted to `dtype`.
inline Ref<Tensor> contiguous_copy(const char* op, const Tensor& t, DType dtype) {
  return copy_as(op, t, dtype, MemoryFormat::Contiguous, Conversion::Library);
}

// Sets every element of dst to `value`, converted as from a float64 scalar.
void fill(const char* op, const Tensor& dst, double value);

// Sets every element of dst to the element at `element` (dst's dtype, any
// alignment, possibly inside dst). dst may have internal overlap. Throws
// Invalid (element NULL), ReadOnly, Device; an empty dst does nothing.
void fill_element(const char* op, const Tensor& dst, const void* element);

}  // namespace ctensor::core
