// A view's layout built on the stack, so that making a view costs one heap
// allocation (Tensor::make's). Internal to the view operations.
#pragma once

#include <algorithm>
#include <cstdint>

#include "error.hpp"
#include "layout/shape.hpp"
#include "layout/tensor.hpp"

namespace ctensor::core::detail {

struct Layout {
  int64_t ndim = 0;
  int64_t offset = 0;
  int64_t sizes[kMaxDims];  // left uninitialised: only [0, ndim) is ever read
  int64_t strides[kMaxDims];
};

// One loop, not two std::copy calls: a view has few dims, and each memmove call
// cost about as much as the loop.
inline Layout layout_of(const Tensor& t) {
  Layout l;
  l.ndim = t.ndim();
  l.offset = t.storage_offset();
  const int64_t* sizes = t.sizes();
  const int64_t* strides = t.strides();
  for (int64_t i = 0; i < l.ndim; ++i) {
    l.sizes[i] = sizes[i];
    l.strides[i] = strides[i];
  }
  return l;
}

// wrap_dim with its common case, a dim already in [0, ndim), decided inline
// (the views call it on every call).
inline int64_t view_dim(const char* op, int64_t dim, int64_t ndim) {
  return static_cast<uint64_t>(dim) < static_cast<uint64_t>(ndim) ? dim : wrap_dim(op, dim, ndim);
}

// A tensor with layout `l` on t's storage and dtype.
inline Ref<Tensor> alias(const Tensor& t, const Layout& l) {
  return Tensor::make(t.storage_ref(), t.dtype(), l.ndim, l.sizes, l.strides, l.offset);
}

// a*b wrapping around as PyTorch's unchecked int64 products do. Only for strides
// of size-1 dims or of tensors with no elements: they never address memory, so
// PyTorch's exact value is kept rather than refusing a valid view.
inline int64_t wrapping_mul(int64_t a, int64_t b) noexcept {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

// In-place forms of slice, select and unsqueeze, shared by those views and by
// index (which applies many of them in one pass); same checks and messages.
void slice_dim(const char* op, Layout& l, int64_t dim, int64_t start, int64_t stop, int64_t step);
void select_dim(const char* op, Layout& l, int64_t dim, int64_t index);
void insert_dim(const char* op, Layout& l, int64_t dim);

}  // namespace ctensor::core::detail
