// The operations that give a tensor itself, or a view of it, where they can and
// a copy otherwise (reshape, flatten, contiguous, to), and item: the engine's,
// so that layout/ only computes views and never calls the copy engine.
#pragma once

#include <cstdint>

#include "dtype/convert.hpp"
#include "layout/memory_format.hpp"
#include "layout/tensor.hpp"

namespace ctensor::core {

// Tensor.reshape(sizes): view() where possible, else a contiguous copy viewed.
Ref<Tensor> reshape(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes);

// torch.flatten(t, start_dim, end_dim) through reshape; 0-dim gives [1].
Ref<Tensor> flatten(const char* op, const Tensor& t, int64_t start_dim, int64_t end_dim);

// t itself if contiguous, else a contiguous copy.
Ref<Tensor> contiguous(const char* op, Tensor& t);

// The public TENSOR_COPY_* modes (decoded by the C facade).
enum class CopyMode { IfNeeded, Always, Never };

// tensor_to_with: t converted to `dtype` by `conversion` under `mode`, copies
// laid out as `format` asks; t itself when no copy is needed or wanted. Throws
// Invalid (unknown dtype), Copy.
Ref<Tensor> to(const char* op, Tensor& t, DType dtype, CopyMode mode, MemoryFormat format, Conversion conversion);

// The single element of t (numel 1, any ndim) converted to `dtype` into `out`
// as a copy converts. Throws Shape (numel != 1), Device.
void item(const char* op, const Tensor& t, DType dtype, void* out);

}  // namespace ctensor::core
