// Element-wise math: binary ops with broadcasting and type promotion, and the
// unary conj (the unary math family is ops/unary.hpp). Inputs may have any strides (negative, zero, overlapping) and
// may be read-only; non-CPU memory is refused (Device).
#pragma once

#include <cstdint>

#include "layout/tensor.hpp"

namespace ctensor::core {

// Values equal the public TENSOR_OP_* constants.
enum class BinaryOp : int32_t { Add, Sub, Mul, Div, Pow, Maximum, Minimum, Eq, Ne, Lt, Le, Gt, Ge };
constexpr int32_t kNumBinaryOps = 13;

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

// Output strides as PyTorch's TensorIterator allocates them for a result of
// `shape` computed from `inputs` (same-shaped dense inputs give their strides,
// otherwise the inputs' stride order decides the dims' order).
void output_strides(int64_t ndim, const int64_t* shape, int n, const Tensor* const* inputs, int64_t* strides);

// A new tensor of `shape` with output_strides(...).
Ref<Tensor> empty_like_inputs(const char* op, DType dtype, int64_t ndim, const int64_t* shape, int n,
                              const Tensor* const* inputs);

}  // namespace ctensor::core
