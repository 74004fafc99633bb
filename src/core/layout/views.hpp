// View operations: new tensors sharing the input's storage with new sizes,
// strides and storage offset, computed as PyTorch 1.13 does. The input is never
// changed. `op` names the public operation in error messages.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "layout/tensor.hpp"

namespace ctensor::core {

// torch.as_strided onto t's storage (strides nullptr: contiguous). Throws
// Invalid (bad ndim/sizes), Bounds (addresses outside the storage), Overflow.
Ref<Tensor> as_strided(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes,
                       const int64_t* strides, int64_t storage_offset);

// Tensor.view(sizes), one size may be -1. Throws Invalid (size < -1, bad ndim),
// Shape (numel mismatch, bad -1 use), Stride (computeStride finds no view).
Ref<Tensor> view(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes);

// Tensor.reshape's view half: the view of t with `sizes` (one may be -1; checked
// as view() checks them) when PyTorch's computeStride finds one, else a null
// reference; either way the inferred sizes go to `inferred` (ndim of them). The
// copy half is the engine's (engine/copies.hpp).
Ref<Tensor> view_if_possible(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes, int64_t* inferred);

// torch.flatten(t, start_dim, end_dim)'s shape: its sizes go to `sizes` and their
// ndim is returned (0-dim gives [1]); -1 when start_dim and end_dim name the same
// dim (flatten is then t itself, a view). Throws Invalid (dims out of range or
// out of order), Overflow.
int64_t flatten_shape(const char* op, const Tensor& t, int64_t start_dim, int64_t end_dim, int64_t* sizes);

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

// Removes dim if its size is 1; no dim removes every size-1 dim.
Ref<Tensor> squeeze(const char* op, const Tensor& t, std::optional<int64_t> dim);

Ref<Tensor> unsqueeze(const char* op, const Tensor& t, int64_t dim);

// The kinds of basic index items (the public TENSOR_INDEX_*, decoded by the C facade).
enum class IndexKind { Int, Slice, NewAxis, Ellipsis, Bool };

// t[items] with NumPy/PyTorch basic indexing in one pass: item i is kinds[i] with
// values[3i .. 3i+2] (the index; start, stop, step; or a bool's 0/1). The result
// equals the chain of select/slice/unsqueeze calls; an ellipsis skips the dims no
// integer or slice names (each one, as PyTorch). Throws Invalid (a bool item
// not 0 or 1, too many indices), Bounds (an integer out of range), Overflow.
Ref<Tensor> index(const char* op, const Tensor& t, int64_t n, const IndexKind* kinds, const int64_t* values);

// Tensor.diagonal(offset, dim1, dim2): the diagonal as a new last dim.
Ref<Tensor> diagonal(const char* op, const Tensor& t, int64_t offset, int64_t dim1, int64_t dim2);

// Tensor.unfold(dim, size, step): windows of `size` along dim as a new last dim.
Ref<Tensor> unfold(const char* op, const Tensor& t, int64_t dim, int64_t size, int64_t step);

// torch.movedim(t, source, destination) with `count` dims each.
Ref<Tensor> movedim(const char* op, const Tensor& t, int64_t count, const int64_t* source,
                    const int64_t* destination);

// Tensor.unflatten(dim, sizes): dim split into `count` dims (one may be -1), a view.
Ref<Tensor> unflatten(const char* op, const Tensor& t, int64_t dim, int64_t count, const int64_t* sizes);

// torch.atleast_1d / 2d / 3d for min_dims 1, 2, 3.
Ref<Tensor> atleast(const char* op, const Tensor& t, int64_t min_dims);

// The splits: views of consecutive pieces of one dim, as PyTorch's split (pieces of
// split_size, the last shorter), split_with_sizes, chunk and tensor_split (by a
// number of sections, or at indices: count + 1 pieces).
std::vector<Ref<Tensor>> split(const char* op, const Tensor& t, int64_t split_size, int64_t dim);
std::vector<Ref<Tensor>> split_with_sizes(const char* op, const Tensor& t, int64_t count, const int64_t* sizes,
                                          int64_t dim);
std::vector<Ref<Tensor>> chunk(const char* op, const Tensor& t, int64_t chunks, int64_t dim);
std::vector<Ref<Tensor>> tensor_split(const char* op, const Tensor& t, int64_t sections, int64_t dim);
std::vector<Ref<Tensor>> tensor_split_indices(const char* op, const Tensor& t, int64_t count, const int64_t* indices,
                                              int64_t dim);

// torch.broadcast_tensors: every tensor expanded to the shape they broadcast to
// (Shape when they do not).
std::vector<Ref<Tensor>> broadcast_tensors(const char* op, int64_t count, const Tensor* const* tensors);

// Tensor.view(dtype) with PyTorch 1.13's rules.
Ref<Tensor> view_dtype(const char* op, const Tensor& t, DType dtype);

}  // namespace ctensor::core
