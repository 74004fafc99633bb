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

inline Layout layout_of(const Tensor& t) {
  Layout l;
  l.ndim = t.ndim();
  l.offset = t.storage_offset();
  std::copy(t.sizes(), t.sizes() + l.ndim, l.sizes);
  std::copy(t.strides(), t.strides() + l.ndim, l.strides);
  return l;
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

// Validates a requested shape in which -1 may appear: ndim in [0, 64], sizes
// non-NULL when ndim > 0, every size >= -1. Error(Invalid) otherwise.
inline void check_shape_arg(const char* op, int64_t ndim, const int64_t* sizes) {
  if (ndim < 0 || ndim > kMaxDims)
    fail(Status::Invalid, op, ": ndim ", ndim, " is outside [0, ", kMaxDims, "]");
  if (ndim > 0 && sizes == nullptr) fail(Status::Invalid, op, ": sizes is NULL with ndim ", ndim);
  for (int64_t i = 0; i < ndim; ++i)
    if (sizes[i] < -1)
      fail(Status::Invalid, op, ": invalid size ", sizes[i], " at dim ", i, " in ", DimList{sizes, ndim});
}

}  // namespace ctensor::core::detail
