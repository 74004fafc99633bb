// Advanced indexing: gathering and writing the elements that integer index
// tensors name (NumPy's and PyTorch's t[..., idx0, ..., idx1, ...]), and
// nonzero, which turns boolean masks into such index tensors.
#pragma once

#include <cstdint>

#include "layout/tensor.hpp"

namespace ctensor::core {

// Invalid unless 1 <= n <= t's ndim: callers check it before reading n index tensors.
void check_index_count(const char* op, const Tensor& t, int64_t n);

// t indexed on dims[k] by indices[k] (k < n; dims ascending after wrapping,
// any integer dtype, negative indices wrap), as a new contiguous tensor. The
// index tensors broadcast together; their dims replace the indexed ones in
// place when those are adjacent, else lead the result. Throws Invalid (n, dims,
// result rank), DType (an index tensor that is not integer), Shape (no
// broadcast), Bounds (an index outside its dim), Device, Overflow.
Ref<Tensor> index_gather(const char* op, const Tensor& t, int64_t n, const int64_t* dims,
                         const Tensor* const* indices);

// t[same index] = values: values broadcast to index_gather's result shape and
// converted to t's dtype as copy_into converts; repeated indices are written in
// C order of the broadcast index shape (the last wins). Throws what index_gather
// throws, Shape (values do not broadcast), ReadOnly, Overlap (t has internal
// overlap). Nothing is written unless every check passes; values and index
// tensors sharing t's memory are read as they were before the call.
void index_put(const char* op, const Tensor& t, int64_t n, const int64_t* dims, const Tensor* const* indices,
               const Tensor& values);

// torch.nonzero: the C-order coordinates of t's elements that convert to true,
// as an int64 [count, ndim] tensor. Throws Device.
Ref<Tensor> nonzero(const char* op, const Tensor& t);

}  // namespace ctensor::core
