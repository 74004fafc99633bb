// Reductions over a set of dims: sum, mean, prod, amax, amin.
#pragma once

#include <cstdint>

#include "layout/tensor.hpp"

namespace ctensor::core {

enum class ReduceOp { Sum, Mean, Prod, Amax, Amin };

const char* reduce_op_name(ReduceOp op) noexcept;

// op over `dims` (ndims of them, any sign, each once; ndims 0: every dim) of t,
// in a new contiguous tensor (reduced dims kept as size 1 when `keepdim`).
// Floating sums are pairwise (the bound is in ctensor.h's tensor_sum).
Ref<Tensor> reduce(ReduceOp op, const Tensor& t, int64_t ndims, const int64_t* dims, bool keepdim);

}  // namespace ctensor::core
