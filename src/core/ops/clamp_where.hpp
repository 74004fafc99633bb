// torch.clamp with tensor bounds and torch.where: element-wise over three
// broadcast inputs, promoted as PyTorch 1.13 promotes them, with outputs laid
// out as the binary ops' (engine/output_layout.hpp). Inputs may have any
// strides and be read-only.
#pragma once

#include "layout/tensor.hpp"

namespace ctensor::core {

// min(max(a, lo), hi) in the result type of a, lo and hi (either bound may be
// nullptr, not both: Invalid). A NaN input stays NaN; a NaN bound gives NaN,
// except a NaN wrapped number as the only bound, which PyTorch passes over;
// lo > hi gives hi. Complex result types, and bool with both bounds: DType
// (with one bound, bool is logical or/and, as PyTorch's clamp_min/clamp_max).
Ref<Tensor> clamp(const Tensor& a, const Tensor* lo, const Tensor* hi);
// dst = clamp(a, lo, hi) with assign_result's rules (op names the call); written
// straight into dst where it has the result's dtype and shape, is writable
// without internal overlap and overlaps no input other than exactly.
void clamp_into(const char* op, const Tensor& dst, const Tensor& a, const Tensor* lo, const Tensor* hi);

// cond ? a : b in the result type of a and b; cond is bool (or uint8, which
// PyTorch 1.13 still takes: non-zero is true), else DType.
Ref<Tensor> where(const Tensor& cond, const Tensor& a, const Tensor& b);

// dst = result with the out= rules of binary_into: dst has result's shape
// (Shape), result's dtype can be cast to dst's (can_cast; with `exact`, it
// must be dst's dtype, as PyTorch's out= of argmax and softmax), then the
// values are copied (dst may overlap the op's inputs: result is a new tensor).
void assign_result(const char* op, const Tensor& dst, const Tensor& result, bool exact);

}  // namespace ctensor::core
