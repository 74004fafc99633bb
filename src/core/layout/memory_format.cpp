#include "layout/memory_format.hpp"

#include <algorithm>
#include <utility>

#include "error.hpp"
#include "layout/shape.hpp"

namespace ctensor::core {

bool is_non_overlapping_and_dense(int64_t ndim, const int64_t* sizes, const int64_t* strides) noexcept {
  int64_t dims[kMaxDims];
  int64_t n = 0;
  for (int64_t d = 0; d < ndim; ++d) {
    if (sizes[d] == 0) return true;  // no elements: contiguous, as PyTorch's flag has it
    if (sizes[d] >= 2) dims[n++] = d;
  }
  std::sort(dims, dims + n, [&](int64_t a, int64_t b) { return strides[a] < strides[b]; });
  uint64_t expected = 1;
  for (int64_t i = 0; i < n; ++i) {
    if (strides[dims[i]] != static_cast<int64_t>(expected)) return false;
    expected *= static_cast<uint64_t>(sizes[dims[i]]);  // within numel: no wrap
  }
  return true;
}

namespace {

// infer_dense_strides' order of two dims: > 0 when `a` belongs outside `b`
// (a larger stride magnitude, or an equal one and a larger size), < 0 when
// inside, 0 when a stride is 0 or they tie: undecided, `a` is passed over.
int dim_order(int64_t a, int64_t b, const int64_t* sizes, const int64_t* strides) noexcept {
  const uint64_t sa = strides[a] < 0 ? 0 - static_cast<uint64_t>(strides[a]) : static_cast<uint64_t>(strides[a]);
  const uint64_t sb = strides[b] < 0 ? 0 - static_cast<uint64_t>(strides[b]) : static_cast<uint64_t>(strides[b]);
  if (sa == 0 || sb == 0) return 0;
  if (sa != sb) return sa < sb ? -1 : 1;
  return sizes[a] > sizes[b] ? 1 : 0;
}

}  // namespace

void preserve_format_strides(int64_t ndim, const int64_t* sizes, const int64_t* strides, int64_t* out) noexcept {
  if (is_non_overlapping_and_dense(ndim, sizes, strides)) {
    std::copy(strides, strides + ndim, out);
    return;
  }
  // order[0] is the innermost dim. Starting from C order, each dim sinks inward
  // past the dims it belongs inside; an undecided pair does not stop it, an
  // ordered one does (so stride-0 dims stay where they are).
  int64_t order[kMaxDims];
  for (int64_t i = 0; i < ndim; ++i) order[i] = ndim - 1 - i;
  for (int64_t i = 1; i < ndim; ++i) {
    int64_t moving = i;
    for (int64_t j = i - 1; j >= 0; --j) {
      const int cmp = dim_order(order[j], order[moving], sizes, strides);
      if (cmp < 0) break;
      if (cmp > 0) {
        std::swap(order[j], order[moving]);
        moving = j;
      }
    }
  }
  // Size-0 dims count as 1 (nothing is addressed); the product wraps only for
  // a tensor with no elements, as PyTorch's int64 does.
  uint64_t stride = 1;
  for (int64_t i = 0; i < ndim; ++i) {
    out[order[i]] = static_cast<int64_t>(stride);
    if (sizes[order[i]] > 1) stride *= static_cast<uint64_t>(sizes[order[i]]);
  }
}

Ref<Tensor> empty_like(const char* op, const Tensor& t, DType dtype, MemoryFormat format, bool zeroed) {
  if (format == MemoryFormat::Contiguous) return Tensor::allocate(op, dtype, t.ndim(), t.sizes(), zeroed);
  int64_t strides[kMaxDims];
  preserve_format_strides(t.ndim(), t.sizes(), t.strides(), strides);
  return Tensor::allocate(op, dtype, t.ndim(), t.sizes(), zeroed, strides);
}

}  // namespace ctensor::core
