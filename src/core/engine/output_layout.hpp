// How the element-wise ops lay out the outputs they allocate: PyTorch's
// TensorIterator rule (its fast set-up, else compute_strides,
// reorder_dimensions and compatible_stride), applied to the magnitudes of the
// inputs' strides. PyTorch has no negative strides; taking magnitudes makes a
// reversed input (a[::-1]) order the dims as its forward twin does, so
// reversed operands give contiguous outputs, not outputs in reversed dim order.
#pragma once

#include <cstdint>

#include "layout/tensor.hpp"

namespace ctensor::core {

// Output strides for a result of `shape` computed from `inputs` (`compute`:
// the dtype each input is computed in, or nullptr when each is computed in its
// own; an input computed in another dtype counts with the strides of its
// converted copy, which PyTorch makes with Tensor.to before it lays out the
// output: preserve_format_strides). When every
// input has the full shape and all are contiguous, C order; when all are 4-d
// and channels-last contiguous, channels-last strides; when all are
// non-overlapping and dense with the same stride magnitudes, those; otherwise
// dense strides in the inputs' stride order (the first input whose non-zero
// strides differ decides a pair of dims; equal strides put the smaller size
// inside; a dim no input orders keeps C order). Sizes of 0 take part in the
// products as PyTorch's do (an empty result may get stride 0).
void output_strides(int64_t ndim, const int64_t* shape, int n, const Tensor* const* inputs, int64_t* strides,
                    const DType* compute = nullptr);

// A new uninitialised writable tensor of `shape` in `dtype` with
// output_strides(...). Overflow, NoMem.
Ref<Tensor> empty_like_inputs(const char* op, DType dtype, int64_t ndim, const int64_t* shape, int n,
                              const Tensor* const* inputs, const DType* compute = nullptr);

}  // namespace ctensor::core
