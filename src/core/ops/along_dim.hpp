// Ops along one dim, with PyTorch 1.13's rules: argmax/argmin, cumsum/cumprod,
// softmax/log_softmax. Inputs may have any strides and be read-only; results
// are new contiguous tensors, as PyTorch's.
#pragma once

#include <cstdint>
#include <optional>

#include "layout/tensor.hpp"

namespace ctensor::core {

// torch.argmax / torch.argmin: the int64 index of the first largest (smallest)
// element along `dim`, or of the flattened tensor when dim is empty (then
// keepdim gives every dim size 1). NaN counts as the largest and the smallest
// (the first NaN wins). bool and complex: DType; a reduced dim of size 0 (or
// the flattened tensor with no elements): Shape.
enum class ArgOp { Max, Min };
Ref<Tensor> arg_extreme(ArgOp op, const Tensor& t, std::optional<int64_t> dim, bool keepdim);

// torch.cumsum / torch.cumprod along dim: bool and integers give int64
// (wrapping), other dtypes keep theirs; float32 and complex64 accumulate in
// double precision, float16 and bfloat16 in float32 (PyTorch's CPU acc_type).
enum class ScanOp { Sum, Prod };
Ref<Tensor> cumulative(ScanOp op, const Tensor& t, int64_t dim);
// The dtype cumulative() gives for an input of dtype d.
DType cumulative_dtype(DType d) noexcept;

// torch.softmax / torch.log_softmax along dim, max-subtracted; floating dtypes
// only (else DType); float16/bfloat16 compute in float32 and round once.
Ref<Tensor> softmax(const Tensor& t, int64_t dim, bool log);

}  // namespace ctensor::core
