// Math: wrapped-number scalars, type promotion, element-wise ops, reductions,
// item, cat/stack, equal/allclose.
#include <complex>

#include "engine/copies.hpp"
#include "decode.hpp"
#include "guard.hpp"
#include "ops/binary.hpp"
#include "ops/compare.hpp"
#include "ops/join.hpp"
#include "ops/promotion.hpp"
#include "ops/reduce.hpp"
#include "ops/unary.hpp"

using namespace ctensor;
using core::Status;

namespace {

tensor_status_t binary(tensor_t** out, core::BinaryOp op, const tensor_t* a, const tensor_t* b) {
  const char* name = core::binary_op_name(op);
  return capi::produce(out, name, [&](const char*) { return core::binary(op, capi::arg(a, name, "a"), capi::arg(b, name, "b")); });
}

tensor_status_t reduce(tensor_t** out, core::ReduceOp op, const tensor_t* t, int64_t ndims, const int64_t* dims,
                       int32_t keepdim) {
  const char* name = core::reduce_op_name(op);
  return capi::produce(out, name, [&](const char*) {
    const core::Tensor& input = capi::arg(t, name);
    return core::reduce(op, input, ndims, dims, capi::bool_arg(keepdim, name));
  });
}

// The op of a TENSOR_OP_* number (the table's order, checked below).
core::BinaryOp binary_op(const char* fn, tensor_op_t op) {
  if (op < 0 || op >= core::kNumBinaryOps)
    core::fail(Status::Invalid, fn, ": unknown op ", op, " (expected TENSOR_OP_ADD 0 .. TENSOR_OP_GE ",
               core::kNumBinaryOps - 1, ")");
  return static_cast<core::BinaryOp>(op);
}

static_assert(TENSOR_OP_ADD == static_cast<int32_t>(core::BinaryOp::Add) &&
                  TENSOR_OP_SUB == static_cast<int32_t>(core::BinaryOp::Sub) &&
                  TENSOR_OP_MUL == static_cast<int32_t>(core::BinaryOp::Mul) &&
                  TENSOR_OP_DIV == static_cast<int32_t>(core::BinaryOp::Div) &&
                  TENSOR_OP_POW == static_cast<int32_t>(core::BinaryOp::Pow) &&
                  TENSOR_OP_MAXIMUM == static_cast<int32_t>(core::BinaryOp::Maximum) &&
                  TENSOR_OP_MINIMUM == static_cast<int32_t>(core::BinaryOp::Minimum) &&
                  TENSOR_OP_EQ == static_cast<int32_t>(core::BinaryOp::Eq) &&
                  TENSOR_OP_NE == static_cast<int32_t>(core::BinaryOp::Ne) &&
                  TENSOR_OP_LT == static_cast<int32_t>(core::BinaryOp::Lt) &&
                  TENSOR_OP_LE == static_cast<int32_t>(core::BinaryOp::Le) &&
                  TENSOR_OP_GT == static_cast<int32_t>(core::BinaryOp::Gt) &&
                  TENSOR_OP_GE == static_cast<int32_t>(core::BinaryOp::Ge) && core::kNumBinaryOps == 13,
              "TENSOR_OP_* differ from the core's BinaryOp");

// The op of a TENSOR_UOP_* number.
core::UnaryOp unary_op(const char* fn, tensor_unary_op_t op) {
  if (op < 0 || op >= core::kNumUnaryOps)
    core::fail(Status::Invalid, fn, ": unknown op ", op, " (expected TENSOR_UOP_NEG 0 .. TENSOR_UOP_BITWISE_NOT ",
               core::kNumUnaryOps - 1, ")");
  return static_cast<core::UnaryOp>(op);
}

#define CTENSOR_UNARY_VALUE(Enum, name, NAME, rule, refused)                 \
  static_assert(TENSOR_UOP_##NAME == static_cast<int32_t>(core::UnaryOp::Enum), \
                "TENSOR_UOP_" #NAME " differs from the core's op table");
CTENSOR_UNARY_OPS(CTENSOR_UNARY_VALUE)
#undef CTENSOR_UNARY_VALUE

}  // namespace

extern "C" {

tensor_status_t tensor_scalar_bool(tensor_t** out, int32_t value) {
  return capi::produce(out, "scalar_bool", [&](const char*) {
    const uint8_t byte = value != 0;
    return core::Tensor::wrapped_number(core::dtype::Bool, &byte);
  });
}

tensor_status_t tensor_scalar_int64(tensor_t** out, int64_t value) {
  return capi::produce(out, "scalar_int64", [&](const char*) { return core::Tensor::wrapped_number(core::dtype::Int64, &value); });
}

tensor_status_t tensor_scalar_float64(tensor_t** out, double value) {
  return capi::produce(out, "scalar_float64",
                       [&](const char*) { return core::Tensor::wrapped_number(core::dtype::Float64, &value); });
}

tensor_status_t tensor_scalar_complex128(tensor_t** out, double re, double im) {
  return capi::produce(out, "scalar_complex128", [&](const char*) {
    const double value[2] = {re, im};
    return core::Tensor::wrapped_number(core::dtype::Complex128, value);
  });
}

tensor_status_t tensor_result_type(tensor_dtype_t* out, const tensor_t* a, const tensor_t* b) {
  if (!out) return capi::record_error(Status::Invalid, "result_type: out is NULL");
  *out = -1;
  return capi::guarded("result_type", [&](const char*) {
    *out = core::result_type("result_type", capi::arg(a, "result_type", "a"), capi::arg(b, "result_type", "b"));
  });
}

tensor_status_t tensor_promote_types(tensor_dtype_t* out, tensor_dtype_t a, tensor_dtype_t b) {
  if (!out) return capi::record_error(Status::Invalid, "promote_types: out is NULL");
  *out = -1;
  return capi::guarded("promote_types", [&](const char* op) {
    core::require_known_dtype(a, op);
    core::require_known_dtype(b, op);
    *out = core::promote_types(op, a, b);
  });
}

tensor_status_t tensor_add(tensor_t** out, const tensor_t* a, const tensor_t* b) {
  return binary(out, core::BinaryOp::Add, a, b);
}
tensor_status_t tensor_sub(tensor_t** out, const tensor_t* a, const tensor_t* b) {
  return binary(out, core::BinaryOp::Sub, a, b);
}
tensor_status_t tensor_mul(tensor_t** out, const tensor_t* a, const tensor_t* b) {
  return binary(out, core::BinaryOp::Mul, a, b);
}
tensor_status_t tensor_div(tensor_t** out, const tensor_t* a, const tensor_t* b) {
  return binary(out, core::BinaryOp::Div, a, b);
}
tensor_status_t tensor_pow(tensor_t** out, const tensor_t* a, const tensor_t* b) {
  return binary(out, core::BinaryOp::Pow, a, b);
}
tensor_status_t tensor_maximum(tensor_t** out, const tensor_t* a, const tensor_t* b) {
  return binary(out, core::BinaryOp::Maximum, a, b);
}
tensor_status_t tensor_minimum(tensor_t** out, const tensor_t* a, const tensor_t* b) {
  return binary(out, core::BinaryOp::Minimum, a, b);
}
tensor_status_t tensor_eq(tensor_t** out, const tensor_t* a, const tensor_t* b) {
  return binary(out, core::BinaryOp::Eq, a, b);
}
tensor_status_t tensor_ne(tensor_t** out, const tensor_t* a, const tensor_t* b) {
  return binary(out, core::BinaryOp::Ne, a, b);
}
tensor_status_t tensor_lt(tensor_t** out, const tensor_t* a, const tensor_t* b) {
  return binary(out, core::BinaryOp::Lt, a, b);
}
tensor_status_t tensor_le(tensor_t** out, const tensor_t* a, const tensor_t* b) {
  return binary(out, core::BinaryOp::Le, a, b);
}
tensor_status_t tensor_gt(tensor_t** out, const tensor_t* a, const tensor_t* b) {
  return binary(out, core::BinaryOp::Gt, a, b);
}
tensor_status_t tensor_ge(tensor_t** out, const tensor_t* a, const tensor_t* b) {
  return binary(out, core::BinaryOp::Ge, a, b);
}

tensor_status_t tensor_binary_into(tensor_t* dst, tensor_op_t op, const tensor_t* a, const tensor_t* b) {
  return capi::guarded("binary_into", [&](const char* fn) {
    const core::BinaryOp bop = binary_op(fn, op);
    // NULL handles are the entry point's fault; the op's own checks name the op
    core::binary_into(bop, capi::arg(dst, fn, "dst"), capi::arg(a, fn, "a"), capi::arg(b, fn, "b"));
  });
}

tensor_status_t tensor_unary(tensor_t** out, tensor_unary_op_t op, const tensor_t* a) {
  return capi::produce(out, "unary", [&](const char* fn) { return core::unary(unary_op(fn, op), capi::arg(a, fn, "a")); });
}

tensor_status_t tensor_unary_into(tensor_t* dst, tensor_unary_op_t op, const tensor_t* a) {
  return capi::guarded("unary_into", [&](const char* fn) {
    const core::UnaryOp uop = unary_op(fn, op);
    core::unary_into(uop, capi::arg(dst, fn, "dst"), capi::arg(a, fn, "a"));
  });
}

// tensor_neg, tensor_exp, ...: one per row of the table.
#define CTENSOR_UNARY_FUNCTION(Enum, name, NAME, rule, refused)                                      \
  tensor_status_t tensor_##name(tensor_t** out, const tensor_t* a) {                                \
    return capi::produce(out, #name, [&](const char* fn) { return core::unary(core::UnaryOp::Enum, capi::arg(a, fn)); }); \
  }
CTENSOR_UNARY_OPS(CTENSOR_UNARY_FUNCTION)
#undef CTENSOR_UNARY_FUNCTION

tensor_status_t tensor_conj(tensor_t** out, const tensor_t* a) {
  return capi::produce(out, "conj", [&](const char*) { return core::conj(capi::arg(a, "conj")); });
}

int32_t tensor_is_conj(const tensor_t* t) { return t && capi::from_handle(t)->storage()->conjugates() ? 1 : 0; }

tensor_status_t tensor_conj_physical(tensor_t** out, const tensor_t* a) {
  return capi::produce(out, "conj_physical",
                       [&](const char*) { return core::conj_physical(capi::arg(a, "conj_physical")); });
}

tensor_status_t tensor_sum(tensor_t** out, const tensor_t* t, int64_t ndims, const int64_t* dims, int32_t keepdim) {
  return reduce(out, core::ReduceOp::Sum, t, ndims, dims, keepdim);
}
tensor_status_t tensor_mean(tensor_t** out, const tensor_t* t, int64_t ndims, const int64_t* dims, int32_t keepdim) {
  return reduce(out, core::ReduceOp::Mean, t, ndims, dims, keepdim);
}
tensor_status_t tensor_prod(tensor_t** out, const tensor_t* t, int64_t ndims, const int64_t* dims, int32_t keepdim) {
  return reduce(out, core::ReduceOp::Prod, t, ndims, dims, keepdim);
}
tensor_status_t tensor_amax(tensor_t** out, const tensor_t* t, int64_t ndims, const int64_t* dims, int32_t keepdim) {
  return reduce(out, core::ReduceOp::Amax, t, ndims, dims, keepdim);
}
tensor_status_t tensor_amin(tensor_t** out, const tensor_t* t, int64_t ndims, const int64_t* dims, int32_t keepdim) {
  return reduce(out, core::ReduceOp::Amin, t, ndims, dims, keepdim);
}

tensor_status_t tensor_item_float64(double* out, const tensor_t* t) {
  if (!out) return capi::record_error(Status::Invalid, "item_float64: out is NULL");
  return capi::guarded("item_float64", [&](const char* op) { core::item(op, capi::arg(t, op), core::dtype::Float64, out); });
}

tensor_status_t tensor_item_int64(int64_t* out, const tensor_t* t) {
  if (!out) return capi::record_error(Status::Invalid, "item_int64: out is NULL");
  return capi::guarded("item_int64", [&](const char* op) { core::item(op, capi::arg(t, op), core::dtype::Int64, out); });
}

tensor_status_t tensor_cat(tensor_t** out, int64_t n, const tensor_t* const* tensors, int64_t dim) {
  return capi::produce(out, "cat", [&](const char*) {
    const auto list = capi::arg_list(tensors, n, "cat", "tensors");
    return core::cat("cat", n, list.data(), dim);
  });
}

tensor_status_t tensor_stack(tensor_t** out, int64_t n, const tensor_t* const* tensors, int64_t dim) {
  return capi::produce(out, "stack", [&](const char*) {
    const auto list = capi::arg_list(tensors, n, "stack", "tensors");
    return core::stack(n, list.data(), dim);
  });
}

tensor_status_t tensor_equal(int32_t* out, const tensor_t* a, const tensor_t* b) {
  if (!out) return capi::record_error(Status::Invalid, "equal: out is NULL");
  *out = 0;
  return capi::guarded("equal", [&](const char*) { *out = core::equal(capi::arg(a, "equal", "a"), capi::arg(b, "equal", "b")); });
}

tensor_status_t tensor_allclose(int32_t* out, const tensor_t* a, const tensor_t* b, double rtol, double atol,
                                int32_t equal_nan) {
  if (!out) return capi::record_error(Status::Invalid, "allclose: out is NULL");
  *out = 0;
  return capi::guarded("allclose", [&](const char*) {
    const bool nan_equal = capi::bool_arg(equal_nan, "allclose", "equal_nan");
    *out = core::allclose(capi::arg(a, "allclose", "a"), capi::arg(b, "allclose", "b"), rtol, atol, nan_equal);
  });
}

}  // extern "C"
