// Copies: contiguous, clone, copy, to, fill, and the copy engine's thread setting.
#include "engine/copy.hpp"
#include "engine/parallel.hpp"
#include "layout/views.hpp"
#include "guard.hpp"

using namespace ctensor;

extern "C" {

tensor_status_t tensor_contiguous(tensor_t** out, tensor_t* t) {
  return capi::produce(out, "contiguous", [&](const char* op) { return core::contiguous(op, capi::arg(t, op)); });
}

tensor_status_t tensor_clone(tensor_t** out, const tensor_t* t) {
  return capi::produce(out, "clone", [&](const char* op) {
    const core::Tensor& src = capi::arg(t, op);
    return core::contiguous_copy(op, src, src.dtype());
  });
}

tensor_status_t tensor_copy(tensor_t* dst, const tensor_t* src) {
  return capi::guarded("copy", [&](const char* op) {
    core::copy_into(op, capi::arg(dst, op, "dst"), capi::arg(src, op, "src"));
  });
}

tensor_status_t tensor_to(tensor_t** out, tensor_t* t, tensor_dtype_t dtype, int32_t copy) {
  return capi::produce(out, "to", [&](const char* op) { return core::to(op, capi::arg(t, op), dtype, copy); });
}

tensor_status_t tensor_fill(tensor_t* dst, double value) {
  return capi::guarded("fill", [&](const char* op) { core::fill(op, capi::arg(dst, op, "dst"), value); });
}

// The thread count's check stays here until the engine's set_num_threads takes an op.
tensor_status_t tensor_set_num_threads(int32_t n) {
  return capi::guarded("set_num_threads", [&](const char* op) {
    if (n < 1) core::fail(core::Status::Invalid, op, ": n is ", n, ", expected at least 1");
    core::set_num_threads(n);
  });
}

int32_t tensor_get_num_threads(void) { return core::num_threads(); }

}  // extern "C"
