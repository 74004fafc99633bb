#include "layout/tensor.hpp"

#include <algorithm>
#include <cstring>
#include <new>

#include "error.hpp"
#include "layout/shape.hpp"

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
  Ref<Tensor> ref = Ref<Tensor>::adopt(new Tensor(std::move(storage), dtype, ndim, storage_offset));
  Tensor* t = ref.get();
  if (ndim > kInlineDims) {
    t->heap_dims_ = std::make_unique<int64_t[]>(static_cast<size_t>(2 * ndim));
    t->dims_ = t->heap_dims_.get();
  }
  int64_t* out_sizes = t->dims_;
  int64_t* out_strides = t->dims_ + ndim;
  if (!strides) {
    contiguous_strides(ndim, sizes, out_strides);
    strides = out_strides;
  }
  // One pass from the last dim: copies, numel and is_contiguous's rule (a
  // tensor with no elements is contiguous; size-1 dims are skipped). Products
  // wrap rather than overflow: callers have checked numel, and only a tensor
  // with no elements can overflow here, where the products no longer matter.
  uint64_t n = 1, expected = 1;
  bool contiguous = true, empty = false;
  for (int64_t i = ndim - 1; i >= 0; --i) {
    const int64_t size = sizes[i], stride = strides[i];
    out_sizes[i] = size;
    out_strides[i] = stride;
    n *= static_cast<uint64_t>(size);
    empty |= size == 0;
    if (size != 1) {
      contiguous &= stride == static_cast<int64_t>(expected);
      expected *= static_cast<uint64_t>(size);
    }
  }
  t->numel_ = static_cast<int64_t>(n);
  t->contiguous_ = contiguous || empty;
  return ref;
}

Ref<Tensor> Tensor::make_checked(const char* op, Ref<Storage> storage, DType dtype, int64_t ndim,
                                 const int64_t* sizes, const int64_t* strides,
                                 int64_t storage_offset) {
  const DTypeInfo* info = dtype_info(dtype);  // looked up once (this runs on every as_strided)
  if (!info) require_known_dtype(dtype, op);  // throws
  check_sizes(op, ndim, sizes);
  int64_t contiguous[kMaxDims];
  if (!strides) {
    checked_numel(op, ndim, sizes);
    contiguous_strides(ndim, sizes, contiguous);
    strides = contiguous;
  }
  check_view_bounds(op, ndim, sizes, strides, storage_offset, info->size, storage->nbytes());
  return make(std::move(storage), dtype, ndim, sizes, strides, storage_offset);
}

Ref<Tensor> Tensor::allocate(const char* op, DType dtype, int64_t ndim, const int64_t* sizes,
                             bool zeroed, const int64_t* strides) {
  require_known_dtype(dtype, op);
  check_sizes(op, ndim, sizes);
  const int64_t numel = checked_numel(op, ndim, sizes);
  const int64_t nbytes = checked_mul(numel, static_cast<int64_t>(dtype_size(dtype)), op);
  return make(Storage::allocate(static_cast<size_t>(nbytes), zeroed), dtype, ndim, sizes, strides, 0);
}

Ref<Tensor> Tensor::from_data(const char* op, const void* data, int64_t ndim, const int64_t* sizes,
                              DType dtype) {
  Ref<Tensor> t = allocate(op, dtype, ndim, sizes, false);
  const size_t nbytes = t->storage()->nbytes();
  if (nbytes > 0) {
    if (!data) fail(Status::Invalid, op, ": data is NULL for ", t->numel(), " elements");
    std::memcpy(t->data(), data, nbytes);
  }
  return t;
}

Ref<Tensor> Tensor::from_blob(const char* op, void* data, uint64_t byte_offset, DType dtype, int64_t ndim,
                              const int64_t* sizes, const int64_t* strides, bool readonly, ReleaseFn release,
                              void* ctx, Device device) {
  const DTypeInfo* info = dtype_info(dtype);  // looked up once (this runs on every from_numpy)
  if (!info) require_known_dtype(dtype, op);  // throws
  check_sizes(op, ndim, sizes);
  if (!data) {  // (addressed_bytes counts the elements otherwise)
    const int64_t numel = checked_numel(op, ndim, sizes);
    if (numel > 0) fail(Status::Invalid, op, ": data is NULL for ", numel, " elements");
  }
  int64_t compact[kMaxDims];
  if (!strides) {
    contiguous_strides(ndim, sizes, compact);
    strides = compact;
  }
  const ByteWindow w = addressed_bytes(op, reinterpret_cast<uintptr_t>(data), byte_offset, ndim, sizes, strides,
                                       info->size);
  Ref<Tensor> t = make(Storage::wrap(reinterpret_cast<void*>(w.base), w.nbytes, readonly, nullptr, nullptr, device),
                       dtype, ndim, sizes, strides, w.storage_offset);
  t->storage()->attach_release(release, ctx);  // nothing fails any more: the memory is handed over
  return t;
}

Ref<Tensor> Tensor::from_buffer(const char* op, void* buffer, size_t nbytes, DType dtype, int64_t count,
                                int64_t offset, bool readonly, ReleaseFn release, void* ctx) {
  require_known_dtype(dtype, op);
  if (!buffer) fail(Status::Invalid, op, ": buffer is NULL");
  if (nbytes == 0) fail(Status::Invalid, op, ": both buffer length (0) and count (", count, ") must not be 0");
  if (offset < 0 || static_cast<uint64_t>(offset) >= nbytes)
    fail(Status::Invalid, op, ": offset (", offset, " bytes) must be non-negative and no greater than buffer length (",
         ByteCount{nbytes}, " bytes) minus 1");
  if (count == 0) fail(Status::Invalid, op, ": both buffer length (", nbytes, ") and count (0) must not be 0");
  const size_t itemsize = dtype_size(dtype);
  const size_t remaining = nbytes - static_cast<size_t>(offset);
  size_t used;
  if (count < 0) {
    if (remaining % itemsize != 0)
      fail(Status::Invalid, op, ": buffer length (", remaining, " bytes) after offset (", offset,
           " bytes) must be a multiple of element size (", itemsize, ")");
    if (remaining > static_cast<size_t>(INT64_MAX))  // size_t allows it; int64 counts do not
      fail(Status::Overflow, op, ": buffer length (", remaining, " bytes) after offset (", offset,
           " bytes) does not fit int64");
    count = static_cast<int64_t>(remaining / itemsize);
    used = remaining;
  } else {
    const int64_t bytes = checked_mul(count, static_cast<int64_t>(itemsize), op);
    if (static_cast<uint64_t>(bytes) > remaining)
      fail(Status::Invalid, op, ": requested buffer length (", count, " * ", itemsize, " bytes) after offset (",
           offset, " bytes) must not be greater than actual buffer length (", ByteCount{nbytes}, " bytes)");
    used = static_cast<size_t>(bytes);
  }
  Ref<Tensor> t = make(Storage::wrap(static_cast<char*>(buffer) + offset, used, readonly, nullptr, nullptr), dtype,
                       1, &count, nullptr, 0);
  t->storage()->attach_release(release, ctx);  // nothing fails any more: the buffer is handed over
  return t;
}

Ref<Tensor> Tensor::wrapped_number(DType dtype, const void* value) {
  Ref<Tensor> t = allocate("scalar", dtype, 0, nullptr, false);
  std::memcpy(t->data(), value, t->itemsize());
  t->wrapped_number_ = true;
  return t;
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
