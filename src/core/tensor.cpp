#include "tensor.hpp"

#include <algorithm>

#include "error.hpp"
#include "shape.hpp"

namespace ctensor::core {

Tensor::Tensor(Ref<Storage> storage, DType dtype, int64_t ndim, int64_t offset) noexcept
    : storage_(std::move(storage)),
      dtype_(dtype),
      ndim_(ndim),
      offset_(offset),
      itemsize_(dtype_size(dtype)),
      dims_(inline_dims_) {}

Ref<Tensor> Tensor::make(Ref<Storage> storage, DType dtype, int64_t ndim, const int64_t* sizes,
                         const int64_t* strides, int64_t storage_offset) {
  auto t = std::unique_ptr<Tensor>(new Tensor(std::move(storage), dtype, ndim, storage_offset));
  if (ndim > kInlineDims) {
    t->heap_dims_ = std::make_unique<int64_t[]>(static_cast<size_t>(2 * ndim));
    t->dims_ = t->heap_dims_.get();
  }
  std::copy(sizes, sizes + ndim, t->dims_);
  int64_t* out_strides = t->dims_ + ndim;
  if (strides)
    std::copy(strides, strides + ndim, out_strides);
  else
    contiguous_strides(ndim, sizes, out_strides);
  int64_t n = 1;
  for (int64_t i = 0; i < ndim; ++i) n *= sizes[i];  // callers have checked overflow
  t->numel_ = n;
  t->contiguous_ = core::is_contiguous(ndim, t->dims_, out_strides);
  return Ref<Tensor>::adopt(std::move(t));
}

Ref<Tensor> Tensor::make_checked(const char* op, Ref<Storage> storage, DType dtype, int64_t ndim,
                                 const int64_t* sizes, const int64_t* strides,
                                 int64_t storage_offset) {
  require_known_dtype(dtype, op);
  check_sizes(op, ndim, sizes);
  int64_t contiguous[kMaxDims];
  if (!strides) {
    checked_numel(op, ndim, sizes);
    contiguous_strides(ndim, sizes, contiguous);
    strides = contiguous;
  }
  check_view_bounds(op, ndim, sizes, strides, storage_offset, dtype_size(dtype), storage->nbytes());
  return make(std::move(storage), dtype, ndim, sizes, strides, storage_offset);
}

Ref<Tensor> Tensor::allocate(const char* op, DType dtype, int64_t ndim, const int64_t* sizes,
                             bool zeroed) {
  require_known_dtype(dtype, op);
  check_sizes(op, ndim, sizes);
  const int64_t numel = checked_numel(op, ndim, sizes);
  const int64_t nbytes = checked_mul(numel, static_cast<int64_t>(dtype_size(dtype)), op);
  return make(Storage::allocate(static_cast<size_t>(nbytes), zeroed), dtype, ndim, sizes, nullptr, 0);
}

void Tensor::require_readable(const char* op) const {
  if (!storage_->cpu_accessible())
    fail(Status::Device, op, ": tensor memory is on device type ", storage_->device().type, " id ",
         storage_->device().id, ", not CPU-accessible; element access is refused");
}

void Tensor::require_writable(const char* op) const {
  require_readable(op);
  if (storage_->readonly()) fail(Status::ReadOnly, op, ": destination tensor is read-only");
}

}  // namespace ctensor::core
