// view, reshape and flatten: new shapes over the same elements, following
// PyTorch's infer_size and computeStride (aten/src/ATen/TensorUtils.cpp); and
// the other operations that give the input itself where they can, else a copy.
#include <algorithm>

#include "engine/copy.hpp"
#include "layout/view_layout.hpp"
#include "layout/views.hpp"
#include "ctensor.h"

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

Ref<Tensor> reshape(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes) {
  Layout l;
  infer_size(op, ndim, sizes, t.numel(), l);
  if (compute_stride(t, l)) {
    l.offset = t.storage_offset();
    return detail::alias(t, l);
  }
  const Ref<Tensor> copy = contiguous_copy(op, t, t.dtype());
  return Tensor::make(copy->storage_ref(), copy->dtype(), l.ndim, l.sizes, nullptr,
                      copy->storage_offset());
}

Ref<Tensor> flatten(const char* op, const Tensor& t, int64_t start_dim, int64_t end_dim) {
  const int64_t n = t.ndim();
  const int64_t start = wrap_dim(op, start_dim, n);
  const int64_t end = wrap_dim(op, end_dim, n);
  if (start > end)
    fail(Status::Invalid, op, ": start_dim ", start_dim, " comes after end_dim ", end_dim, " (", n,
         " dims)");
  if (n == 0) {
    const int64_t one = 1;
    return reshape(op, t, 1, &one);
  }
  if (start == end) return detail::alias(t, detail::layout_of(t));
  Layout l;
  l.ndim = n - (end - start);
  std::copy(t.sizes(), t.sizes() + start, l.sizes);
  l.sizes[start] = checked_numel(op, end - start + 1, t.sizes() + start);
  std::copy(t.sizes() + end + 1, t.sizes() + n, l.sizes + start + 1);
  return reshape(op, t, l.ndim, l.sizes);
}

Ref<Tensor> contiguous(const char* op, Tensor& t) {
  if (t.is_contiguous()) return Ref<Tensor>::share(&t);
  return contiguous_copy(op, t, t.dtype());
}

Ref<Tensor> to(const char* op, Tensor& t, DType dtype, int32_t copy_mode, int32_t memory_format,
               uint32_t conversion) {
  require_known_dtype(dtype, op);
  if (copy_mode != TENSOR_COPY_IF_NEEDED && copy_mode != TENSOR_COPY_ALWAYS && copy_mode != TENSOR_COPY_NEVER)
    fail(Status::Invalid, op, ": unknown copy mode ", copy_mode,
         " (expected TENSOR_COPY_IF_NEEDED 0, TENSOR_COPY_ALWAYS 1 or TENSOR_COPY_NEVER 2)");
  const MemoryFormat format = memory_format_from(op, memory_format);
  const Conversion how = conversion_from(op, conversion);
  if (copy_mode != TENSOR_COPY_ALWAYS && dtype == t.dtype()) return Ref<Tensor>::share(&t);
  if (copy_mode == TENSOR_COPY_NEVER)
    fail(Status::Copy, op, ": converting ", dtype_info(t.dtype())->name, " to ", dtype_info(dtype)->name,
         " needs a copy but the copy mode is TENSOR_COPY_NEVER");
  return copy_as(op, t, dtype, format, how);
}

}  // namespace ctensor::core
