// Joining tensors: cat and stack, with type promotion.
#pragma once

#include <cstdint>

#include "layout/tensor.hpp"

namespace ctensor::core {

// torch.cat of n >= 1 tensors along `dim`, in a new contiguous tensor.
Ref<Tensor> cat(const char* op, int64_t n, const Tensor* const* tensors, int64_t dim);

// torch.stack of n >= 1 tensors of one shape along a new dim `dim`.
Ref<Tensor> stack(int64_t n, const Tensor* const* tensors, int64_t dim);

}  // namespace ctensor::core
