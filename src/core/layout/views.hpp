// View operations: new tensors sharing the input's storage with new sizes,
// strides and storage offset, computed as PyTorch 1.13 does. The input is never
// changed. `op` names the public operation in error messages.
#pragma once

#include <cstdint>

#include "layout/tensor.hpp"

namespace ctensor::core {

// squeeze's dim meaning "every size-1 dim" (TENSOR_ALL_DIMS).
constexpr int64_t kAllDims = INT64_MIN;

// torch.as_strided onto t's storage (strides nullptr: contiguous). Throws
// Invalid (bad ndim/sizes), Bounds (addresses outside the storage), Overflow.
Ref<Tensor> as_strided(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes,
                       const int64_t* strides, int64_t storage_offset);

// Tensor.view(sizes), one size may be -1. Throws Invalid (size < -1, bad ndim),
// Shape (numel mismatch, bad -1 use), Stride (computeStride finds no view).
Ref<Tensor> view(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes);

// Tensor.reshape(sizes): view() where possible, else a contiguous copy viewed.
Ref<Tensor> reshape(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes);

// torch.flatten(t, start_dim, end_dim) through reshape; 0-dim gives [1].
Ref<Tensor> flatten(const char* op, const Tensor& t, int64_t start_dim, int64_t end_dim);

// t itself if contiguous, else a contiguous copy.
Ref<Tensor> contiguous(const char* op, Tensor& t);

// tensor_to: t converted to `dtype` under a public TENSOR_COPY_* mode; t itself
// when no copy is needed or wanted. Throws Invalid (unknown dtype or mode), Copy.
Ref<Tensor> to(const char* op, Tensor& t, DType dtype, int32_t copy_mode);

Ref<Tensor> transpose(const char* op, const Tensor& t, int64_t dim0, int64_t dim1);

// Result dim i is t's dim dims[i]; ndim must equal t's, dims distinct.
Ref<Tensor> permute(const char* op, const Tensor& t, int64_t ndim, const int64_t* dims);

// t[start:stop:step] along dim with CPython's PySlice_AdjustIndices clamping.
Ref<Tensor> slice(const char* op, const Tensor& t, int64_t dim, int64_t start, int64_t stop,
                  int64_t step);

Ref<Tensor> select(const char* op, const Tensor& t, int64_t dim, int64_t index);

Ref<Tensor> narrow(const char* op, const Tensor& t, int64_t dim, int64_t start, int64_t length);

// Tensor.expand(sizes) with PyTorch's inferExpandGeometry.
Ref<Tensor> expand(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes);

// Removes dim if its size is 1; kAllDims removes every size-1 dim.
Ref<Tensor> squeeze(const char* op, const Tensor& t, int64_t dim);

Ref<Tensor> unsqueeze(const char* op, const Tensor& t, int64_t dim);

// Tensor.view(dtype) with PyTorch 1.13's rules.
Ref<Tensor> view_dtype(const char* op, const Tensor& t, DType dtype);

}  // namespace ctensor::core
