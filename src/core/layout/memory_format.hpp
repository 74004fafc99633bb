// Memory formats: the layout a new tensor made "like" another one gets
// (PyTorch's torch.preserve_format and torch.contiguous_format).
#pragma once

#include <cstdint>

#include "layout/tensor.hpp"

namespace ctensor::core {

// ctensor.h's TENSOR_*_FORMAT, decoded by the C facade.
enum class MemoryFormat {
  Preserve,    // TENSOR_PRESERVE_FORMAT: the source's dim order, dense
  Contiguous,  // TENSOR_CONTIGUOUS_FORMAT: C order
};

// PyTorch's is_non_overlapping_and_dense flag: no elements (then contiguous), or
// the dims of size >= 2, ordered by stride, have strides 1, size, size * size',
// ... (a size-1 dim may have any stride).
bool is_non_overlapping_and_dense(int64_t ndim, const int64_t* sizes, const int64_t* strides) noexcept;

// The strides torch.empty_like(t) gives under preserve_format: t's own when t is
// non-overlapping and dense, else dense strides in t's dims' stride order
// (at::infer_dense_strides: by stride magnitude, ties by size, stride-0 dims
// keeping their place). Writes ndim strides to `out`.
void preserve_format_strides(int64_t ndim, const int64_t* sizes, const int64_t* strides, int64_t* out) noexcept;

// A new writable tensor of t's shape in dtype, laid out as `format` asks,
// zero-filled if `zeroed`, else uninitialised. Invalid (unknown dtype), Overflow.
Ref<Tensor> empty_like(const char* op, const Tensor& t, DType dtype, MemoryFormat format, bool zeroed);

}  // namespace ctensor::core
