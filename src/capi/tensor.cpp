// Tensor creation (from storages, foreign buffers, fresh memory) and inspection.
#include "decode.hpp"
#include "guard.hpp"

using namespace ctensor;

extern "C" {

tensor_status_t tensor_from_storage(tensor_t** out, tensor_storage_t* s, tensor_dtype_t dtype,
                                    int64_t ndim, const int64_t* sizes, const int64_t* strides,
                                    int64_t storage_offset) {
  return capi::produce(out, "from_storage", [&](const char* op) {
    return core::Tensor::make_checked(op, capi::arg(s, op), dtype, ndim, sizes, strides, storage_offset);
  });
}

tensor_status_t tensor_from_buffer(tensor_t** out, void* buffer, size_t nbytes,
                                   tensor_dtype_t dtype, int64_t count, int64_t offset,
                                   uint32_t flags, tensor_release_fn release, void* ctx) {
  return capi::produce(out, "from_buffer", [&](const char* op) {
    const bool readonly = capi::readonly_arg(flags, op);
    return core::Tensor::from_buffer(op, buffer, nbytes, dtype, count, offset, readonly, release, ctx);
  });
}

tensor_status_t tensor_from_blob(tensor_t** out, void* data, tensor_dtype_t dtype, int64_t ndim,
                                 const int64_t* sizes, const int64_t* strides, uint32_t flags,
                                 tensor_release_fn release, void* ctx) {
  return capi::produce(out, "from_blob", [&](const char* op) {
    const bool readonly = capi::readonly_arg(flags, op);
    return core::Tensor::from_blob(op, data, 0, dtype, ndim, sizes, strides, readonly, release, ctx);
  });
}

tensor_status_t tensor_empty(tensor_t** out, int64_t ndim, const int64_t* sizes, tensor_dtype_t dtype) {
  return capi::produce(out, "empty",
                       [&](const char* op) { return core::Tensor::allocate(op, dtype, ndim, sizes, false); });
}

tensor_status_t tensor_zeros(tensor_t** out, int64_t ndim, const int64_t* sizes, tensor_dtype_t dtype) {
  return capi::produce(out, "zeros",
                       [&](const char* op) { return core::Tensor::allocate(op, dtype, ndim, sizes, true); });
}

tensor_status_t tensor_from_data(tensor_t** out, const void* data, int64_t ndim, const int64_t* sizes,
                                 tensor_dtype_t dtype) {
  return capi::produce(out, "from_data",
                       [&](const char* op) { return core::Tensor::from_data(op, data, ndim, sizes, dtype); });
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
