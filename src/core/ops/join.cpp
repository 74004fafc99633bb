#include "ops/join.hpp"

#include <algorithm>
#include <vector>

#include "engine/copy.hpp"
#include "layout/shape.hpp"
#include "ops/promotion.hpp"

namespace ctensor::core {

namespace {

// PyTorch's legacy rule: 1-D tensors of size 0 join anything (they are skipped).
bool skipped(const Tensor& t) noexcept { return t.ndim() == 1 && t.size(0) == 0; }

}  // namespace

Ref<Tensor> cat(const char* op, int64_t n, const Tensor* const* tensors, int64_t dim) {
  DType dtype = tensors[0]->dtype();
  const Tensor* ref = nullptr;
  for (int64_t i = 0; i < n; ++i) {
    const Tensor& t = *tensors[i];
    if (t.ndim() == 0)
      fail(Status::Invalid, op, ": zero-dimensional tensor (at position ", i, ") cannot be concatenated");
    dtype = promote_types(op, dtype, t.dtype());
    if (!ref && !skipped(t)) ref = &t;
  }
  if (!ref) {
    const int64_t empty = 0;
    return Tensor::allocate(op, dtype, 1, &empty, false);
  }
  const int64_t nd = ref->ndim();
  const int64_t d = wrap_dim(op, dim, nd);
  int64_t sizes[kMaxDims];
  std::copy(ref->sizes(), ref->sizes() + nd, sizes);
  sizes[d] = 0;
  for (int64_t i = 0; i < n; ++i) {
    const Tensor& t = *tensors[i];
    if (skipped(t)) continue;
    if (t.ndim() != nd)
      fail(Status::Shape, op, ": tensors must have the same number of dimensions: got ", nd, " and ", t.ndim(),
           " (tensor number ", i, " in the list)");
    for (int64_t k = 0; k < nd; ++k)
      if (k != d && t.size(k) != sizes[k])
        fail(Status::Shape, op, ": sizes of tensors must match except in dimension ", d, ". Expected size ", sizes[k],
             " but got size ", t.size(k), " for tensor number ", i, " in the list (dim ", k, ")");
    sizes[d] = checked_add(sizes[d], t.size(d), op);
  }
  Ref<Tensor> out = Tensor::allocate(op, dtype, nd, sizes, false);
  int64_t offset = 0;
  for (int64_t i = 0; i < n; ++i) {
    const Tensor& t = *tensors[i];
    if (skipped(t)) continue;
    const Ref<Tensor> part =
        Tensor::make(out->storage_ref(), dtype, nd, t.sizes(), out->strides(), offset * out->stride(d));
    copy_into(op, *part, t);
    offset += t.size(d);
  }
  return out;
}

Ref<Tensor> stack(int64_t n, const Tensor* const* tensors, int64_t dim) {
  const Tensor& first = *tensors[0];
  const int64_t nd = first.ndim();
  for (int64_t i = 1; i < n; ++i) {
    const Tensor& t = *tensors[i];
    if (t.ndim() != nd || !std::equal(t.sizes(), t.sizes() + nd, first.sizes()))
      fail(Status::Shape, "stack: expects each tensor to be equal size, but got ", DimList{first.sizes(), nd},
           " at entry 0 and ", DimList{t.sizes(), t.ndim()}, " at entry ", i);
  }
  if (nd + 1 > kMaxDims) fail(Status::Invalid, "stack: the result would have more than ", kMaxDims, " dims");
  const int64_t d = wrap_dim("stack", dim, nd + 1);
  // Each tensor with a size-1 dim inserted at d, then cat along it.
  std::vector<Ref<Tensor>> views;
  std::vector<const Tensor*> list;
  views.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    const Tensor& t = *tensors[i];
    int64_t sizes[kMaxDims], strides[kMaxDims];
    for (int64_t k = 0, j = 0; k <= nd; ++k) {
      if (k == d) {
        sizes[k] = 1;
        strides[k] = 1;
      } else {
        sizes[k] = t.size(j);
        strides[k] = t.stride(j);
        ++j;
      }
    }
    views.push_back(Tensor::make(t.storage_ref(), t.dtype(), nd + 1, sizes, strides, t.storage_offset()));
    list.push_back(views.back().get());
  }
  return cat("stack", n, list.data(), d);
}

}  // namespace ctensor::core
