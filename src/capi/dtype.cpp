// Dtype queries, from the core's dtype table, and raw element conversion.
#include "dtype/convert.hpp"
#include "guard.hpp"

using namespace ctensor;

extern "C" {

size_t tensor_dtype_size(tensor_dtype_t dtype) { return core::dtype_size(dtype); }

const char* tensor_dtype_name(tensor_dtype_t dtype) {
  const core::DTypeInfo* info = core::dtype_info(dtype);
  return info ? info->name : nullptr;
}

int32_t tensor_dtype_kind(tensor_dtype_t dtype) {
  const core::DTypeInfo* info = core::dtype_info(dtype);
  return info ? static_cast<int32_t>(info->kind) : -1;
}

int32_t tensor_dtype_is_signed(tensor_dtype_t dtype) {
  const core::DTypeInfo* info = core::dtype_info(dtype);
  return info && info->is_signed ? 1 : 0;
}

tensor_status_t tensor_convert(void* dst, tensor_dtype_t dst_dtype, const void* src, tensor_dtype_t src_dtype,
                               int64_t count) {
  return capi::guarded("convert", [&](const char* op) {
    core::convert_elements(op, dst, dst_dtype, src, src_dtype, count);
  });
}

}  // extern "C"
