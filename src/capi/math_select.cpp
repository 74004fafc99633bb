// Math, continued: clamp, where, argmax/argmin, cumsum/cumprod,
// softmax/log_softmax, and their _into forms (the Math section of ctensor.h).
#include "decode.hpp"
#include "guard.hpp"
#include "ops/along_dim.hpp"
#include "ops/clamp_where.hpp"

using namespace ctensor;

namespace {

// An optional tensor argument: NULL stands for "absent".
const core::Tensor* optional_arg(const tensor_t* t, const char* op, const char* name) {
  return t ? &capi::arg(t, op, name) : nullptr;
}

core::Ref<core::Tensor> clamp(const char* op, const tensor_t* a, const tensor_t* min, const tensor_t* max) {
  return core::clamp(capi::arg(a, op, "a"), optional_arg(min, op, "min"), optional_arg(max, op, "max"));
}

core::Ref<core::Tensor> where(const char* op, const tensor_t* cond, const tensor_t* a, const tensor_t* b) {
  return core::where(capi::arg(cond, op, "cond"), capi::arg(a, op, "a"), capi::arg(b, op, "b"));
}

core::Ref<core::Tensor> arg_extreme(const char* op, core::ArgOp which, const tensor_t* t, int64_t dim,
                                    int32_t keepdim) {
  const core::Tensor& input = capi::arg(t, op);
  return core::arg_extreme(which, input, capi::dim_arg(dim), capi::bool_arg(keepdim, op));
}

// Runs `make` and stores its result into dst with assign_result's rules.
template <class Make>
tensor_status_t into(const char* name, tensor_t* dst, bool exact, Make&& make) {
  return capi::guarded(name, [&](const char* op) {
    const core::Tensor& target = capi::arg(dst, op, "dst");
    core::assign_result(op, target, *make(op), exact);
  });
}

}  // namespace

extern "C" {

tensor_status_t tensor_clamp(tensor_t** out, const tensor_t* a, const tensor_t* min, const tensor_t* max) {
  return capi::produce(out, "clamp", [&](const char* op) { return clamp(op, a, min, max); });
}

tensor_status_t tensor_clamp_into(tensor_t* dst, const tensor_t* a, const tensor_t* min, const tensor_t* max) {
  return capi::guarded("clamp_into", [&](const char* op) {
    const core::Tensor& target = capi::arg(dst, op, "dst");
    const core::Tensor& input = capi::arg(a, op, "a");
    const core::Tensor* lo = optional_arg(min, op, "min");
    core::clamp_into(op, target, input, lo, optional_arg(max, op, "max"));
  });
}

tensor_status_t tensor_where(tensor_t** out, const tensor_t* cond, const tensor_t* a, const tensor_t* b) {
  return capi::produce(out, "where", [&](const char* op) { return where(op, cond, a, b); });
}

tensor_status_t tensor_where_into(tensor_t* dst, const tensor_t* cond, const tensor_t* a, const tensor_t* b) {
  return into("where_into", dst, false, [&](const char* op) { return where(op, cond, a, b); });
}

tensor_status_t tensor_argmax(tensor_t** out, const tensor_t* t, int64_t dim, int32_t keepdim) {
  return capi::produce(out, "argmax", [&](const char* op) { return arg_extreme(op, core::ArgOp::Max, t, dim, keepdim); });
}

tensor_status_t tensor_argmin(tensor_t** out, const tensor_t* t, int64_t dim, int32_t keepdim) {
  return capi::produce(out, "argmin", [&](const char* op) { return arg_extreme(op, core::ArgOp::Min, t, dim, keepdim); });
}

tensor_status_t tensor_argmax_into(tensor_t* dst, const tensor_t* t, int64_t dim, int32_t keepdim) {
  return into("argmax_into", dst, true,
              [&](const char* op) { return arg_extreme(op, core::ArgOp::Max, t, dim, keepdim); });
}

tensor_status_t tensor_argmin_into(tensor_t* dst, const tensor_t* t, int64_t dim, int32_t keepdim) {
  return into("argmin_into", dst, true,
              [&](const char* op) { return arg_extreme(op, core::ArgOp::Min, t, dim, keepdim); });
}

tensor_status_t tensor_cumsum(tensor_t** out, const tensor_t* t, int64_t dim) {
  return capi::produce(out, "cumsum",
                       [&](const char* op) { return core::cumulative(core::ScanOp::Sum, capi::arg(t, op), dim); });
}

tensor_status_t tensor_cumprod(tensor_t** out, const tensor_t* t, int64_t dim) {
  return capi::produce(out, "cumprod",
                       [&](const char* op) { return core::cumulative(core::ScanOp::Prod, capi::arg(t, op), dim); });
}

tensor_status_t tensor_cumsum_into(tensor_t* dst, const tensor_t* t, int64_t dim) {
  return into("cumsum_into", dst, false,
              [&](const char* op) { return core::cumulative(core::ScanOp::Sum, capi::arg(t, op), dim); });
}

tensor_status_t tensor_cumprod_into(tensor_t* dst, const tensor_t* t, int64_t dim) {
  return into("cumprod_into", dst, false,
              [&](const char* op) { return core::cumulative(core::ScanOp::Prod, capi::arg(t, op), dim); });
}

tensor_status_t tensor_softmax(tensor_t** out, const tensor_t* t, int64_t dim) {
  return capi::produce(out, "softmax", [&](const char* op) { return core::softmax(capi::arg(t, op), dim, false); });
}

tensor_status_t tensor_log_softmax(tensor_t** out, const tensor_t* t, int64_t dim) {
  return capi::produce(out, "log_softmax",
                       [&](const char* op) { return core::softmax(capi::arg(t, op), dim, true); });
}

tensor_status_t tensor_softmax_into(tensor_t* dst, const tensor_t* t, int64_t dim) {
  return into("softmax_into", dst, true, [&](const char* op) { return core::softmax(capi::arg(t, op), dim, false); });
}

tensor_status_t tensor_log_softmax_into(tensor_t* dst, const tensor_t* t, int64_t dim) {
  return into("log_softmax_into", dst, true,
              [&](const char* op) { return core::softmax(capi::arg(t, op), dim, true); });
}

}  // extern "C"
