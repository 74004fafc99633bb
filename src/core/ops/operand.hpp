// An input of an element-wise op in the op's compute dtype (PyTorch's
// promote_inputs_to_common_dtype): the tensor itself, converted through the
// iterator's buffers as the loops go when its dtype is another, or, for a
// 0-dim tensor (numbers), its converted element held inline.
#pragma once

#include "engine/copy.hpp"
#include "engine/tensor_iterator.hpp"
#include "dtype/convert.hpp"
#include "layout/overlap.hpp"
#include "layout/shape.hpp"
#include "layout/tensor.hpp"

namespace ctensor::core {

// Whether `input` would be read after `dst` is written at overlapping elements.
inline bool needs_snapshot(const Tensor& dst, const Tensor& input) {
  if (input.numel() == 0 || !may_overlap(dst, input)) return false;
  int64_t strides[kMaxDims];
  broadcast_strides(input.ndim(), input.sizes(), input.strides(), dst.ndim(), dst.sizes(), strides);
  return !same_elements(dst, input, strides);
}

// An input in the compute dtype: the tensor itself (buffered by the iterator
// when its dtype is another), or, for a 0-dim tensor (numbers), its converted
// element held here (no allocation).
class Operand {
 public:
  Operand(const Tensor& t, DType d) : dtype_(d) {
    if (t.dtype() == d || t.ndim() != 0) tensor_ = &t;
    else cast_kernel(t.dtype(), d)(t.data(), 0, element_, 0, 1);
  }
  Operand(const Operand&) = delete;
  Operand& operator=(const Operand&) = delete;

  // Reads from a snapshot (converted whole) if dst overlaps the elements other
  // than exactly; exactly is safe, as the iterator reads a buffered input's
  // elements before it writes theirs.
  void snapshot_if_overlapping(const char* op, const Tensor& dst) {
    if (!tensor_ || !needs_snapshot(dst, *tensor_)) return;
    copy_ = contiguous_copy(op, *tensor_, dtype_);
    tensor_ = copy_.get();
  }

  void add_to(TensorIteratorConfig& config) const {
    if (tensor_) config.add_input(*tensor_, dtype_);
    else config.add_input(element_, 0, nullptr, nullptr, dtype_size(dtype_));
  }

 private:
  DType dtype_;
  const Tensor* tensor_ = nullptr;
  Ref<Tensor> copy_;
  alignas(16) char element_[16];
};

}  // namespace ctensor::core
