// Tensor creation (from storages, foreign buffers, fresh memory) and inspection.
#include <cstring>

#include "layout/shape.hpp"
#include "guard.hpp"

using namespace ctensor;
using core::Status;

extern "C" {

tensor_status_t tensor_from_storage(tensor_t** out, tensor_storage_t* s, tensor_dtype_t dtype,
                                    int64_t ndim, const int64_t* sizes, const int64_t* strides,
                                    int64_t storage_offset) {
  return capi::produce(out, "from_storage", [&] {
    if (!s) core::fail(Status::Invalid, "from_storage: storage is NULL");
    return core::Tensor::make_checked("from_storage", core::Ref<core::Storage>::share(capi::from_handle(s)),
                                      dtype, ndim, sizes, strides, storage_offset);
  });
}

tensor_status_t tensor_from_buffer(tensor_t** out, void* buffer, size_t nbytes,
                                   tensor_dtype_t dtype, int64_t count, int64_t offset,
                                   uint32_t flags, tensor_release_fn release, void* ctx) {
  return capi::produce(out, "from_buffer", [&] {
    const char* op = "from_buffer";
    core::require_known_dtype(dtype, op);
    if (flags & ~TENSOR_READONLY) core::fail(Status::Invalid, op, ": unknown flags ", flags);
    if (!buffer) core::fail(Status::Invalid, op, ": buffer is NULL");
    if (nbytes == 0) core::fail(Status::Invalid, op, ": both buffer length (0) and count (", count, ") must not be 0");
    if (offset < 0 || static_cast<uint64_t>(offset) >= nbytes)
      core::fail(Status::Invalid, op, ": offset (", offset, " bytes) must be non-negative and no greater than buffer length (",
                 nbytes, " bytes) minus 1");
    if (count == 0) core::fail(Status::Invalid, op, ": both buffer length (", nbytes, ") and count (0) must not be 0");
    const size_t itemsize = core::dtype_size(dtype);
    const size_t remaining = nbytes - static_cast<size_t>(offset);
    size_t used;
    if (count < 0) {
      if (remaining % itemsize != 0)
        core::fail(Status::Invalid, op, ": buffer length (", nbytes, " bytes) after offset (", offset,
                   " bytes) must be a multiple of element size (", itemsize, ")");
      if (remaining > static_cast<size_t>(INT64_MAX))  // size_t allows it; int64 counts do not
        core::fail(Status::Overflow, op, ": buffer length (", nbytes, " bytes) after offset (", offset,
                   " bytes) does not fit int64");
      count = static_cast<int64_t>(remaining / itemsize);
      used = remaining;
    } else {
      const int64_t bytes = core::checked_mul(count, static_cast<int64_t>(itemsize), op);
      if (static_cast<uint64_t>(bytes) > remaining)
        core::fail(Status::Invalid, op, ": requested buffer length (", count, " * ", itemsize, " bytes) after offset (",
                   offset, " bytes) must not be greater than actual buffer length (", nbytes, " bytes)");
      used = static_cast<size_t>(bytes);
    }
    auto storage = core::Storage::wrap(static_cast<char*>(buffer) + offset, used, flags & TENSOR_READONLY,
                                       release, ctx);
    try {
      return core::Tensor::make(storage, dtype, 1, &count, nullptr, 0);
    } catch (...) {
      storage->forget_release();  // on failure the caller keeps its buffer
      throw;
    }
  });
}

}  // extern "C"

extern "C" {

tensor_status_t tensor_empty(tensor_t** out, int64_t ndim, const int64_t* sizes, tensor_dtype_t dtype) {
  return capi::produce(out, "empty", [&] { return core::Tensor::allocate("empty", dtype, ndim, sizes, false); });
}

tensor_status_t tensor_zeros(tensor_t** out, int64_t ndim, const int64_t* sizes, tensor_dtype_t dtype) {
  return capi::produce(out, "zeros", [&] { return core::Tensor::allocate("zeros", dtype, ndim, sizes, true); });
}

tensor_status_t tensor_from_data(tensor_t** out, const void* data, int64_t ndim, const int64_t* sizes,
                                 tensor_dtype_t dtype) {
  return capi::produce(out, "from_data", [&] {
    auto t = core::Tensor::allocate("from_data", dtype, ndim, sizes, false);
    const size_t nbytes = t->storage()->nbytes();
    if (nbytes > 0) {
      if (!data) core::fail(Status::Invalid, "from_data: data is NULL for ", t->numel(), " elements");
      std::memcpy(t->data(), data, nbytes);
    }
    return t;
  });
}

int64_t tensor_ndim(const tensor_t* t) { return t ? capi::from_handle(t)->ndim() : 0; }

const int64_t* tensor_sizes(const tensor_t* t) { return t ? capi::from_handle(t)->sizes() : nullptr; }

const int64_t* tensor_strides(const tensor_t* t) { return t ? capi::from_handle(t)->strides() : nullptr; }

int64_t tensor_storage_offset(const tensor_t* t) { return t ? capi::from_handle(t)->storage_offset() : 0; }

tensor_dtype_t tensor_dtype(const tensor_t* t) { return t ? capi::from_handle(t)->dtype() : -1; }

int64_t tensor_numel(const tensor_t* t) { return t ? capi::from_handle(t)->numel() : 0; }

void* tensor_data(const tensor_t* t) { return t ? capi::from_handle(t)->data() : nullptr; }

tensor_storage_t* tensor_storage(const tensor_t* t) {
  return t ? capi::to_handle(capi::from_handle(t)->storage()) : nullptr;
}

int32_t tensor_is_contiguous(const tensor_t* t) { return t && capi::from_handle(t)->is_contiguous() ? 1 : 0; }

int32_t tensor_is_readonly(const tensor_t* t) { return t && capi::from_handle(t)->readonly() ? 1 : 0; }

tensor_t* tensor_retain(tensor_t* t) {
  if (t) capi::from_handle(t)->retain();
  return t;
}

void tensor_release(tensor_t* t) {
  if (t) capi::from_handle(t)->release();
}

int64_t tensor_refcount(const tensor_t* t) { return t ? capi::from_handle(t)->refcount() : 0; }

}  // extern "C"
