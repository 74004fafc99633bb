// tensor_device and DLPack exchange; the work and the checks are the core's (interop/dlpack).
#include "interop/dlpack.hpp"
#include "decode.hpp"
#include "guard.hpp"

using namespace ctensor;

extern "C" {

void tensor_device(const tensor_t* t, int32_t* device_type, int32_t* device_id) {
  const core::Device d = t ? capi::from_handle(t)->storage()->device() : core::Device{0, -1};
  if (device_type) *device_type = d.type;
  if (device_id) *device_id = d.id;
}

tensor_status_t tensor_to_dlpack(DLManagedTensorVersioned** out, tensor_t* t, uint32_t flags) {
  return capi::produce(out, "to_dlpack", [&](const char* op) {
    core::Tensor& tensor = capi::arg(t, op);
    capi::reserved_arg(flags, op);
    return core::export_dlpack(tensor);
  });
}

tensor_status_t tensor_to_dlpack_legacy(DLManagedTensor** out, tensor_t* t) {
  return capi::produce(out, "to_dlpack_legacy", [&](const char* op) {
    return core::export_dlpack_legacy(op, capi::arg(t, op));
  });
}

tensor_status_t tensor_from_dlpack(tensor_t** out, DLManagedTensorVersioned* m) {
  return capi::produce(out, "from_dlpack", [&](const char* op) { return core::import_dlpack(op, m); });
}

tensor_status_t tensor_from_dlpack_legacy(tensor_t** out, DLManagedTensor* m) {
  return capi::produce(out, "from_dlpack_legacy",
                       [&](const char* op) { return core::import_dlpack_legacy(op, m); });
}

}  // extern "C"
