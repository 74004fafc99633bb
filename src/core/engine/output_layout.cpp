#include "engine/output_layout.hpp"

#include <algorithm>

#include "engine/tensor_iterator.hpp"
#include "layout/memory_format.hpp"
#include "layout/shape.hpp"

namespace ctensor::core {

namespace {

// |stride|; a size-1 dim may carry INT64_MIN, whose magnitude is not an int64.
int64_t magnitude(int64_t s) noexcept { return s >= 0 ? s : s == INT64_MIN ? INT64_MAX : -s; }

// PyTorch's is_contiguous on explicit strides (no elements: contiguous).
bool contiguous_rule(int64_t ndim, const int64_t* sizes, const int64_t* strides) noexcept {
  uint64_t expected = 1;
  bool contiguous = true;
  for (int64_t i = ndim - 1; i >= 0; --i) {
    if (sizes[i] == 0) return true;
    if (sizes[i] == 1) continue;
    contiguous &= strides[i] == static_cast<int64_t>(expected);
    expected *= static_cast<uint64_t>(sizes[i]);
  }
  return contiguous;
}

// PyTorch's is_contiguous(memory_format=torch.channels_last): a 4-d tensor
// dense in the order C, W, H, N (size-1 dims skipped).
bool channels_last_rule(int64_t ndim, const int64_t* sizes, const int64_t* strides) noexcept {
  if (ndim != 4) return false;
  uint64_t expected = 1;
  for (const int d : {1, 3, 2, 0}) {
    if (sizes[d] == 1) continue;
    if (strides[d] != static_cast<int64_t>(expected)) return false;
    expected *= static_cast<uint64_t>(sizes[d]);
  }
  return true;
}

}  // namespace

void output_strides(int64_t ndim, const int64_t* shape, int n, const Tensor* const* inputs, int64_t* strides,
                    const DType* compute) {
  int64_t own[kMaxOperands][kMaxDims];  // each input's stride magnitudes, in its own dims
  for (int k = 0; k < n; ++k) {
    const Tensor& t = *inputs[k];
    for (int64_t d = 0; d < t.ndim(); ++d) own[k][d] = magnitude(t.stride(d));
    if (compute && compute[k] != t.dtype()) {
      int64_t copied[kMaxDims];
      preserve_format_strides(t.ndim(), t.sizes(), own[k], copied);
      std::copy(copied, copied + t.ndim(), own[k]);
    }
  }

  // The fast set-up: inputs of the full shape, all contiguous, all channels-last
  // contiguous, or all dense with the same strides.
  bool same_shape = true, contiguous = true, channels_last = true, dense_alike = true;
  for (int k = 0; k < n && same_shape; ++k) {
    const Tensor& t = *inputs[k];
    same_shape = t.ndim() == ndim && std::equal(shape, shape + ndim, t.sizes());
    if (!same_shape) break;
    contiguous &= contiguous_rule(ndim, shape, own[k]);
    channels_last &= channels_last_rule(ndim, shape, own[k]);
    dense_alike &= is_non_overlapping_and_dense(ndim, shape, own[k]) && std::equal(own[k], own[k] + ndim, own[0]);
  }
  if (same_shape && contiguous) return contiguous_strides(ndim, shape, strides);
  if (same_shape && channels_last) {  // get_channels_last_strides_2d: raw products, as PyTorch's
    strides[1] = 1;
    strides[3] = shape[1];
    strides[2] = static_cast<int64_t>(static_cast<uint64_t>(strides[3]) * static_cast<uint64_t>(shape[3]));
    strides[0] = static_cast<int64_t>(static_cast<uint64_t>(strides[2]) * static_cast<uint64_t>(shape[2]));
    return;
  }
  if (same_shape && dense_alike) {
    std::copy(own[0], own[0] + ndim, strides);
    return;
  }

  // reorder_dimensions: perm[0] is the fastest dim; an insertion sort where the
  // first input whose (non-zero) strides differ decides, equal strides put the
  // smaller size inside. Size-1 dims keep their strides (compute_strides).
  int64_t broadcast[kMaxOperands][kMaxDims];
  for (int k = 0; k < n; ++k)
    broadcast_strides(inputs[k]->ndim(), inputs[k]->sizes(), own[k], ndim, shape, broadcast[k]);
  const auto should_swap = [&](int64_t d0, int64_t d1) {
    for (int k = 0; k < n; ++k) {
      const int64_t s0 = broadcast[k][d0], s1 = broadcast[k][d1];
      if (s0 == 0 || s1 == 0) continue;
      if (s0 != s1) return s0 < s1 ? -1 : 1;
      if (shape[d0] > shape[d1]) return 1;
    }
    return 0;
  };
  int64_t perm[kMaxDims];
  for (int64_t i = 0; i < ndim; ++i) perm[i] = ndim - 1 - i;
  for (int64_t i = 1; i < ndim; ++i) {
    int64_t dim1 = i;
    for (int64_t dim0 = i - 1; dim0 >= 0; --dim0) {
      const int c = should_swap(perm[dim0], perm[dim1]);
      if (c > 0) {
        std::swap(perm[dim0], perm[dim1]);
        dim1 = dim0;
      } else if (c < 0) {
        break;
      }
    }
  }
  bool inverted = true;
  for (int64_t i = 0; i < ndim; ++i) inverted &= perm[i] == ndim - 1 - i;
  if (inverted) return contiguous_strides(ndim, shape, strides);
  uint64_t next = 1;  // as compatible_stride: raw products (0 after a size-0 dim), in the permuted order
  for (int64_t i = 0; i < ndim; ++i) {
    strides[perm[i]] = static_cast<int64_t>(next);
    next *= static_cast<uint64_t>(shape[perm[i]]);
  }
}

Ref<Tensor> empty_like_inputs(const char* op, DType dtype, int64_t ndim, const int64_t* shape, int n,
                              const Tensor* const* inputs, const DType* compute) {
  const int64_t numel = checked_numel(op, ndim, shape);
  const int64_t nbytes = checked_mul(numel, static_cast<int64_t>(dtype_size(dtype)), op);
  int64_t strides[kMaxDims];
  output_strides(ndim, shape, n, inputs, strides, compute);
  return Tensor::make(Storage::allocate(static_cast<size_t>(nbytes), false), dtype, ndim, shape, strides, 0);
}

}  // namespace ctensor::core
