// view, and the view halves of reshape and flatten: new shapes over the same
// elements, following PyTorch's infer_size and computeStride
// (aten/src/ATen/TensorUtils.cpp). The copies they fall back to are the
// engine's (engine/copies.cpp).
#include <algorithm>

#include "layout/view_layout.hpp"
#include "layout/views.hpp"

namespace ctensor::core {

using detail::Layout;

namespace {

// Copies `sizes` into l, resolving one -1 against numel, in PyTorch's order:
// several -1 (Shape); the product of the other sizes, wrapping as PyTorch's int64
// does, against numel (Shape on mismatch, or a -1 ambiguous with 0 elements);
// then the element count rule (Overflow): sizes with a 0 have no elements in any
// order ([2**62, 4, 0] included), others must multiply within int64.
void infer_size(const char* op, int64_t ndim, const int64_t* sizes, int64_t numel, Layout& l) {
  check_sizes(op, ndim, sizes, /*inferable=*/true);
  l.ndim = ndim;
  int64_t inferred = -1;
  uint64_t uproduct = 1;
  bool overflow = false, has_zero = false;
  for (int64_t i = 0; i < ndim; ++i) {
    l.sizes[i] = sizes[i];
    if (sizes[i] != -1) {
      has_zero |= sizes[i] == 0;
      overflow |= __builtin_mul_overflow(uproduct, static_cast<uint64_t>(sizes[i]), &uproduct);
    } else if (inferred >= 0) {
      fail(Status::Shape, op, ": only one dimension can be inferred in ", DimList{sizes, ndim});
    } else {
      inferred = i;
    }
  }
  const auto product = static_cast<int64_t>(uproduct);  // wrapped, as PyTorch's
  if (numel == product || (inferred >= 0 && product > 0 && numel % product == 0)) {
    if (inferred >= 0) {
      if (product == 0)
        fail(Status::Shape, op, ": cannot reshape a tensor of 0 elements into shape ", DimList{sizes, ndim},
             " because the -1 could be any value");
      l.sizes[inferred] = numel / product;
    }
    if (!has_zero && (overflow || uproduct > static_cast<uint64_t>(INT64_MAX)))
      fail(Status::Overflow, op, ": the number of elements of sizes ", DimList{sizes, ndim}, " overflows int64");
    return;
  }
  fail(Status::Shape, op, ": shape ", DimList{sizes, ndim}, " is invalid for input of size ", numel);
}

// a*b == expected without overflow.
bool product_equals(int64_t a, int64_t b, int64_t expected) {
  int64_t r;
  return !__builtin_mul_overflow(a, b, &r) && r == expected;
}

// PyTorch's computeStride: strides for viewing t with l's sizes, written into l,
// or false when some new dim would span two non-contiguous chunks of t.
bool compute_stride(const Tensor& t, Layout& l) {
  const int64_t old_ndim = t.ndim();
  if (old_ndim == 0) {
    std::fill(l.strides, l.strides + l.ndim, 1);
    return true;
  }
  if (t.numel() == 0) {
    // Strides are arbitrary with no elements: keep them for an unchanged shape
    // (as NumPy does), else use contiguous ones.
    if (l.ndim == old_ndim && std::equal(l.sizes, l.sizes + l.ndim, t.sizes())) {
      std::copy(t.strides(), t.strides() + l.ndim, l.strides);
      return true;
    }
    int64_t stride = 1;
    for (int64_t d = l.ndim - 1; d >= 0; --d) {
      l.strides[d] = stride;
      stride = detail::wrapping_mul(stride, std::max<int64_t>(l.sizes[d], 1));
    }
    return true;
  }
  // Walk t's dims from the last, grouping them into chunks that are contiguous
  // among themselves; the new dims must split each chunk exactly.
  int64_t view_d = l.ndim - 1;
  int64_t chunk_base_stride = t.stride(old_ndim - 1);
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t d = old_ndim - 1; d >= 0; --d) {
    tensor_numel *= t.size(d);  // a partial product of numel > 0: no overflow
    const bool chunk_ends =
        d == 0 || (t.size(d - 1) != 1 && !product_equals(tensor_numel, chunk_base_stride, t.stride(d - 1)));
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < tensor_numel || l.sizes[view_d] == 1)) {
      // fits unless view_numel == tensor_numel, which leaves a size-1 dim
      l.strides[view_d] = detail::wrapping_mul(view_numel, chunk_base_stride);
      view_numel *= l.sizes[view_d];  // at most numel
      --view_d;
    }
    if (view_numel != tensor_numel) return false;
    if (d > 0) {
      chunk_base_stride = t.stride(d - 1);
      tensor_numel = 1;
      view_numel = 1;
    }
  }
  return view_d == -1;
}

}  // namespace

Ref<Tensor> view(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes) {
  Layout l;
  infer_size(op, ndim, sizes, t.numel(), l);
  if (!compute_stride(t, l))
    fail(Status::Stride, op, ": shape ", DimList{l.sizes, l.ndim}, " is not compatible with sizes ",
         DimList{t.sizes(), t.ndim()}, " and strides ", DimList{t.strides(), t.ndim()},
         " (a new dim spans two non-contiguous subspaces); reshape copies instead");
  l.offset = t.storage_offset();
  return detail::alias(t, l);
}

Ref<Tensor> view_if_possible(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes, int64_t* inferred) {
  Layout l;
  infer_size(op, ndim, sizes, t.numel(), l);
  std::copy(l.sizes, l.sizes + l.ndim, inferred);
  if (!compute_stride(t, l)) return {};
  l.offset = t.storage_offset();
  return detail::alias(t, l);
}

int64_t flatten_shape(const char* op, const Tensor& t, int64_t start_dim, int64_t end_dim, int64_t* sizes) {
  const int64_t n = t.ndim();
  const int64_t start = wrap_dim(op, start_dim, n);
  const int64_t end = wrap_dim(op, end_dim, n);
  if (start > end)
    fail(Status::Invalid, op, ": start_dim ", start_dim, " comes after end_dim ", end_dim, " (", n,
         " dims)");
  if (n == 0) {
    sizes[0] = 1;
    return 1;
  }
  if (start == end) return -1;
  std::copy(t.sizes(), t.sizes() + start, sizes);
  sizes[start] = checked_numel(op, end - start + 1, t.sizes() + start);
  std::copy(t.sizes() + end + 1, t.sizes() + n, sizes + start + 1);
  return n - (end - start);
}

}  // namespace ctensor::core
