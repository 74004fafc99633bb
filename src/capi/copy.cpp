// Copies: contiguous, clone, copy, to, fill, the copy engine's thread setting,
// and the experimental memory-format and conversion-policy variants.
#include "engine/copies.hpp"
#include "engine/copy.hpp"
#include "engine/parallel.hpp"
#include "decode.hpp"
#include "guard.hpp"

using namespace ctensor;

namespace {

// tensor_to_with's numbers decoded, then the core's to.
core::Ref<core::Tensor> to(const char* op, tensor_t* t, tensor_dtype_t dtype, int32_t copy, int32_t memory_format,
                           uint32_t conversion) {
  core::Tensor& input = capi::arg(t, op);
  const core::CopyMode mode = capi::copy_mode_arg(copy, op);
  const core::MemoryFormat format = capi::memory_format_arg(memory_format, op);
  const core::Conversion how = capi::conversion_arg(conversion, op);
  return core::to(op, input, dtype, mode, format, how);
}

}  // namespace

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
  return capi::produce(out, "to", [&](const char* op) {
    return to(op, t, dtype, copy, TENSOR_CONTIGUOUS_FORMAT, TENSOR_CONVERT_LIBRARY);
  });
}

tensor_status_t tensor_fill(tensor_t* dst, double value) {
  return capi::guarded("fill", [&](const char* op) { core::fill(op, capi::arg(dst, op, "dst"), value); });
}

tensor_status_t tensor_fill_element(tensor_t* dst, const void* element) {
  return capi::guarded("fill_element",
                       [&](const char* op) { core::fill_element(op, capi::arg(dst, op, "dst"), element); });
}

tensor_status_t tensor_set_num_threads(int32_t n) {
  return capi::guarded("set_num_threads", [&](const char* op) { core::set_num_threads(op, n); });
}

int32_t tensor_get_num_threads(void) { return core::num_threads(); }

tensor_status_t tensor_empty_like(tensor_t** out, const tensor_t* t, tensor_dtype_t dtype, int32_t memory_format) {
  return capi::produce(out, "empty_like", [&](const char* op) {
    return core::empty_like(op, capi::arg(t, op), dtype, capi::memory_format_arg(memory_format, op), false);
  });
}

tensor_status_t tensor_zeros_like(tensor_t** out, const tensor_t* t, tensor_dtype_t dtype, int32_t memory_format) {
  return capi::produce(out, "zeros_like", [&](const char* op) {
    return core::empty_like(op, capi::arg(t, op), dtype, capi::memory_format_arg(memory_format, op), true);
  });
}

tensor_status_t tensor_copy_with(tensor_t* dst, const tensor_t* src, uint32_t conversion) {
  return capi::guarded("copy_with", [&](const char* op) {
    const core::Conversion how = capi::conversion_arg(conversion, op);
    core::copy_into(op, capi::arg(dst, op, "dst"), capi::arg(src, op, "src"), how);
  });
}

tensor_status_t tensor_to_with(tensor_t** out, tensor_t* t, tensor_dtype_t dtype, int32_t copy,
                               int32_t memory_format, uint32_t conversion) {
  return capi::produce(out, "to_with", [&](const char* op) {
    return to(op, t, dtype, copy, memory_format, conversion);
  });
}

}  // extern "C"
