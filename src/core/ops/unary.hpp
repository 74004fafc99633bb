// Element-wise unary math (torch.exp, torch.floor, torch.isnan, ...): one table
// (ops/unary_list.hpp) gives each op its name, result dtype rule and the dtypes
// it refuses; ops/unary_kernels.hpp its element function, ops/unary_vec.hpp the
// vector forms (SLEEF) chosen at run time. Inputs may have any strides and be
// read-only; the result is laid out as binary ops lay theirs out.
#pragma once

#include <cstdint>

#include "layout/tensor.hpp"
#include "ops/unary_list.hpp"

namespace ctensor::core {

const char* unary_op_name(UnaryOp op) noexcept;

// op(a) in a new tensor (DType for a dtype the op refuses).
Ref<Tensor> unary(UnaryOp op, const Tensor& a);

// dst = op(a) with PyTorch's out= rules, as binary_into: dst has a's shape, the
// result dtype can be cast to dst's, dst is writable without internal overlap;
// dst may be a itself (in place); any other overlap reads a snapshot of a.
void unary_into(UnaryOp op, const Tensor& dst, const Tensor& a);

}  // namespace ctensor::core
