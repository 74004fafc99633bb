// Element-wise math: binary ops with broadcasting and type promotion, and the
// unary conj (the unary math family is ops/unary.hpp). Inputs may have any strides (negative, zero, overlapping) and
// may be read-only; non-CPU memory is refused (Device).
#pragma once

#include <cstdint>

#include "engine/output_layout.hpp"  // empty_like_inputs, which the ops here allocate with
#include "layout/tensor.hpp"

namespace ctensor::core {

// The binary ops, X(Enum, name), in the order of the public TENSOR_OP_* values.
#define CTENSOR_BINARY_OPS(X)                                                                                     \
  X(Add, add) X(Sub, sub) X(Mul, mul) X(Div, div) X(Pow, pow) X(Maximum, maximum) X(Minimum, minimum) X(Eq, eq) \
  X(Ne, ne) X(Lt, lt) X(Le, le) X(Gt, gt) X(Ge, ge)

#define CTENSOR_BINARY_ENUM(Enum, name) Enum,
enum class BinaryOp : int32_t { CTENSOR_BINARY_OPS(CTENSOR_BINARY_ENUM) };
#undef CTENSOR_BINARY_ENUM
#define CTENSOR_BINARY_COUNT(Enum, name) +1
constexpr int32_t kNumBinaryOps = 0 CTENSOR_BINARY_OPS(CTENSOR_BINARY_COUNT);
#undef CTENSOR_BINARY_COUNT

const char* binary_op_name(BinaryOp op) noexcept;

// op(a, b) in a new tensor laid out as PyTorch's TensorIterator lays out outputs.
Ref<Tensor> binary(BinaryOp op, const Tensor& a, const Tensor& b);

// dst = op(a, b) with PyTorch's out= rules: dst has the broadcast shape, the
// result dtype can be cast to dst's (can_cast), dst is writable without internal
// overlap; dst may be a or b (in place); any other overlap reads a snapshot.
void binary_into(BinaryOp op, const Tensor& dst, const Tensor& a, const Tensor& b);

// torch.conj_physical: complex values conjugated into a new tensor; any other
// dtype gives `a` itself (one more reference).
Ref<Tensor> conj_physical(const Tensor& a);
// torch.conj without a conjugate bit: as conj_physical, but a complex result is
// read-only (writes through PyTorch's conjugate view would reach `a`).
Ref<Tensor> conj(const Tensor& a);

}  // namespace ctensor::core
