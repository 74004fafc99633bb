// tensor_storage_*: creation, wrapping and inspection of byte buffers.
#include "decode.hpp"
#include "guard.hpp"

using namespace ctensor;

extern "C" {

tensor_status_t tensor_storage_new(tensor_storage_t** out, size_t nbytes) {
  return capi::produce(out, "storage_new", [&](const char*) { return core::Storage::allocate(nbytes, true); });
}

tensor_status_t tensor_storage_wrap(tensor_storage_t** out, void* data, size_t nbytes,
                                    uint32_t flags, tensor_release_fn release, void* ctx) {
  return capi::produce(out, "storage_wrap", [&](const char* op) {
    return core::Storage::wrap_checked(op, data, nbytes, capi::readonly_arg(flags, op), release, ctx);
  });
}

void* tensor_storage_data(const tensor_storage_t* s) {
  return s ? capi::from_handle(s)->data() : nullptr;
}

size_t tensor_storage_nbytes(const tensor_storage_t* s) {
  return s ? capi::from_handle(s)->nbytes() : 0;
}

int32_t tensor_storage_is_readonly(const tensor_storage_t* s) {
  return s && capi::from_handle(s)->readonly() ? 1 : 0;
}

tensor_storage_t* tensor_storage_retain(tensor_storage_t* s) {
  if (s) capi::from_handle(s)->retain();
  return s;
}

void tensor_storage_release(tensor_storage_t* s) {
  if (s) capi::from_handle(s)->release();
}

void tensor_storage_pin(tensor_storage_t* s) {
  if (s) capi::from_handle(s)->pin();
}

void tensor_storage_unpin(tensor_storage_t* s) {
  if (s) capi::from_handle(s)->unpin();
}

int64_t tensor_storage_refcount(const tensor_storage_t* s) {
  return s ? capi::from_handle(s)->refcount() : 0;
}

}  // extern "C"
