// Dtype queries, from the core's dtype table, raw element conversion and the
// checked conversion of one number.
#include "dtype/checked.hpp"
#include "dtype/convert.hpp"
#include "guard.hpp"

using namespace ctensor;

namespace {

// A public dtype value is the core's DType itself; a kind is encoded by value.
#define CTENSOR_DTYPE_MATCHES(Name, value, macro, ...) \
  static_assert(core::dtype::Name == (macro), #macro " differs between dtype/dtype_list.hpp and ctensor.h");
CTENSOR_FORALL_DTYPES(CTENSOR_DTYPE_MATCHES)
#undef CTENSOR_DTYPE_MATCHES
static_assert(static_cast<int32_t>(core::DTypeKind::Bool) == TENSOR_KIND_BOOL &&
                  static_cast<int32_t>(core::DTypeKind::Int) == TENSOR_KIND_INT &&
                  static_cast<int32_t>(core::DTypeKind::Float) == TENSOR_KIND_FLOAT &&
                  static_cast<int32_t>(core::DTypeKind::Complex) == TENSOR_KIND_COMPLEX,
              "DTypeKind differs from ctensor.h's TENSOR_KIND_*");

void require_out(const void* out, const char* op) {
  if (!out) core::fail(core::Status::Invalid, op, ": out is NULL");
}

}  // namespace

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

tensor_status_t tensor_scalar_convert_int64(void* out, tensor_dtype_t dtype, int64_t value) {
  return capi::guarded("scalar_convert_int64", [&](const char* op) {
    require_out(out, op);
    core::convert_int64_checked(op, value, dtype, out);
  });
}

tensor_status_t tensor_scalar_convert_float64(void* out, tensor_dtype_t dtype, double value) {
  return capi::guarded("scalar_convert_float64", [&](const char* op) {
    require_out(out, op);
    core::convert_float64_checked(op, value, dtype, out);
  });
}

tensor_status_t tensor_scalar_convert_complex128(void* out, tensor_dtype_t dtype, double re, double im) {
  return capi::guarded("scalar_convert_complex128", [&](const char* op) {
    require_out(out, op);
    core::convert_complex128_checked(op, re, im, dtype, out);
  });
}

}  // extern "C"
