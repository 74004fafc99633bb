// Views that rearrange, restrict or repeat dims (reshape.cpp has view/reshape/
// flatten). Sizes, strides and offsets follow PyTorch 1.13; where PyTorch
// refuses (negative slice steps) they follow NumPy.
#include "layout/views.hpp"

#include <algorithm>
#include <utility>

#include "layout/view_layout.hpp"

namespace ctensor::core {

using detail::Layout;

Ref<Tensor> as_strided(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes,
                       const int64_t* strides, int64_t storage_offset) {
  return Tensor::make_checked(op, t.storage_ref(), t.dtype(), ndim, sizes, strides, storage_offset);
}

Ref<Tensor> transpose(const char* op, const Tensor& t, int64_t dim0, int64_t dim1) {
  const int64_t d0 = detail::view_dim(op, dim0, t.ndim());
  const int64_t d1 = detail::view_dim(op, dim1, t.ndim());
  Layout l = detail::layout_of(t);
  if (l.ndim > 0) {  // a 0-dim tensor accepts dims 0/-1 and stays as it is
    std::swap(l.sizes[d0], l.sizes[d1]);
    std::swap(l.strides[d0], l.strides[d1]);
  }
  return detail::alias(t, l);
}

Ref<Tensor> permute(const char* op, const Tensor& t, int64_t ndim, const int64_t* dims) {
  const int64_t n = t.ndim();
  if (ndim != n) fail(Status::Invalid, op, ": ", ndim, " dims given to reorder a tensor with ", n, " dims");
  if (n > 0 && dims == nullptr) fail(Status::Invalid, op, ": dims is NULL with ndim ", ndim);
  Layout l;
  l.ndim = n;
  l.offset = t.storage_offset();
  bool seen[kMaxDims] = {};
  for (int64_t i = 0; i < n; ++i) {
    const int64_t d = detail::view_dim(op, dims[i], n);
    if (seen[d]) fail(Status::Invalid, op, ": dim ", d, " repeats in dims ", DimList{dims, ndim});
    seen[d] = true;
    l.sizes[i] = t.size(d);
    l.strides[i] = t.stride(d);
  }
  return detail::alias(t, l);
}

namespace {

// CPython's PySlice_AdjustIndices for one bound.
int64_t adjust_slice_bound(int64_t bound, int64_t length, int64_t step) {
  if (bound < 0) {
    bound += length;
    if (bound < 0) bound = step < 0 ? -1 : 0;
  } else if (bound >= length) {
    bound = step < 0 ? length - 1 : length;
  }
  return bound;
}

}  // namespace

namespace detail {

void slice_dim(const char* op, Layout& l, int64_t dim, int64_t start, int64_t stop, int64_t step) {
  if (l.ndim == 0) fail(Status::Invalid, op, ": cannot slice a 0-dim tensor");
  const int64_t d = detail::view_dim(op, dim, l.ndim);
  if (step == 0) fail(Status::Invalid, op, ": slice step cannot be zero");
  if (step == INT64_MIN) step = -INT64_MAX;  // as PySlice_Unpack, so that -step exists
  const int64_t length = l.sizes[d];
  start = adjust_slice_bound(start, length, step);
  stop = adjust_slice_bound(stop, length, step);
  int64_t count = 0;
  if (step > 0 && start < stop) count = (stop - start - 1) / step + 1;
  if (step < 0 && stop < start) count = (start - stop - 1) / -step + 1;
  l.sizes[d] = count;
  // PyTorch moves even an empty positive-step slice to `start` (within [0, length]);
  // NumPy keeps an empty reversed slice at the first element with the old stride,
  // which never points before the storage.
  if (count > 0 || step > 0) {
    l.offset = checked_add(l.offset, checked_mul(start, l.strides[d], op), op);
    // Fits whenever it matters; it wraps (as in PyTorch and NumPy) only for a
    // single-element dim or a tensor with no elements.
    l.strides[d] = wrapping_mul(l.strides[d], step);
  }
}

void select_dim(const char* op, Layout& l, int64_t dim, int64_t index) {
  const int64_t n = l.ndim;
  if (n == 0) fail(Status::Invalid, op, ": cannot select from a 0-dim tensor");
  const int64_t d = detail::view_dim(op, dim, n);
  const int64_t size = l.sizes[d];
  if (index < -size || index >= size)
    fail(Status::Bounds, op, ": index ", index, " is out of range for size ", size, " of dim ", d,
         " (sizes ", DimList{l.sizes, n}, ")");
  if (index < 0) index += size;
  l.offset = checked_add(l.offset, checked_mul(index, l.strides[d], op), op);
  std::copy(l.sizes + d + 1, l.sizes + n, l.sizes + d);
  std::copy(l.strides + d + 1, l.strides + n, l.strides + d);
  l.ndim = n - 1;
}

void insert_dim(const char* op, Layout& l, int64_t dim) {
  const int64_t n = l.ndim;
  if (n >= kMaxDims) fail(Status::Invalid, op, ": the tensor already has the maximum of ", kMaxDims, " dims");
  if (dim < -(n + 1) || dim > n)
    fail(Status::Invalid, op, ": dim ", dim, " is out of range for inserting a dim into a tensor with ", n,
         " dims (expected to be in range of [", -(n + 1), ", ", n, "])");
  const int64_t d = dim < 0 ? dim + n + 1 : dim;
  std::copy_backward(l.sizes + d, l.sizes + n, l.sizes + n + 1);
  std::copy_backward(l.strides + d, l.strides + n, l.strides + n + 1);
  l.sizes[d] = 1;
  // As PyTorch: the stride that makes the new dim contiguous with the one it precedes.
  l.strides[d] = d < n ? wrapping_mul(l.sizes[d + 1], l.strides[d + 1]) : 1;
  l.ndim = n + 1;
}

}  // namespace detail

Ref<Tensor> slice(const char* op, const Tensor& t, int64_t dim, int64_t start, int64_t stop,
                  int64_t step) {
  Layout l = detail::layout_of(t);
  detail::slice_dim(op, l, dim, start, stop, step);
  return detail::alias(t, l);
}

Ref<Tensor> select(const char* op, const Tensor& t, int64_t dim, int64_t index) {
  Layout l = detail::layout_of(t);
  detail::select_dim(op, l, dim, index);
  return detail::alias(t, l);
}

Ref<Tensor> narrow(const char* op, const Tensor& t, int64_t dim, int64_t start, int64_t length) {
  const int64_t n = t.ndim();
  if (n == 0) fail(Status::Invalid, op, ": cannot narrow a 0-dim tensor");
  const int64_t d = detail::view_dim(op, dim, n);
  const int64_t size = t.size(d);
  if (start != size) {  // start == size is a valid empty narrow
    // Wrapped like a dim index; a size-0 dim accepts -1 and 0, as in PyTorch.
    const int64_t range = size > 0 ? size : 1;
    if (start < -range || start >= range)
      fail(Status::Bounds, op, ": start ", start, " is out of range for size ", size, " of dim ", d);
    if (start < 0) start += range;
  }
  if (length < 0) fail(Status::Invalid, op, ": length ", length, " is negative");
  if (length > size - start)
    fail(Status::Bounds, op, ": start ", start, " + length ", length, " exceeds size ", size,
         " of dim ", d);
  Layout l = detail::layout_of(t);
  l.sizes[d] = length;
  l.offset = checked_add(l.offset, checked_mul(start, l.strides[d], op), op);
  return detail::alias(t, l);
}

Ref<Tensor> expand(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes) {
  check_sizes(op, ndim, sizes, /*inferable=*/true);
  const int64_t n = t.ndim();
  if (ndim < n)
    fail(Status::Shape, op, ": ", ndim, " sizes ", DimList{sizes, ndim}, " are fewer than the tensor's ",
         n, " dims");
  Layout l;
  l.ndim = ndim;
  l.offset = t.storage_offset();
  // -1 keeps the tensor's size; in a new leading dim it is refused below.
  for (int64_t i = 0; i < ndim; ++i) {
    const int64_t d = n - ndim + i;  // the matching dim of t, < 0 for new ones
    l.sizes[i] = sizes[i] == -1 && d >= 0 ? t.size(d) : sizes[i];
  }
  const int64_t bad = broadcast_strides(n, t.sizes(), t.strides(), ndim, l.sizes, l.strides);
  if (bad >= 0) {
    const int64_t i = bad + ndim - n;
    fail(Status::Shape, op, ": size ", l.sizes[i], " at dim ", i, " does not match the existing size ",
         t.size(bad), " (sizes ", DimList{sizes, ndim}, ", tensor sizes ", DimList{t.sizes(), n}, ")");
  }
  // PyTorch's inferExpandGeometry, from the last new dim: a new leading dim of
  // size 1 gets the stride that would make it contiguous with the next one (a
  // 0-dim tensor's new dims keep stride 0).
  for (int64_t i = ndim - n - 1; i >= 0; --i) {
    if (sizes[i] == -1)
      fail(Status::Shape, op, ": -1 is not allowed in new leading dim ", i, " of ", DimList{sizes, ndim});
    if (n > 0 && l.sizes[i] == 1) l.strides[i] = detail::wrapping_mul(l.sizes[i + 1], l.strides[i + 1]);
  }
  checked_numel(op, l.ndim, l.sizes);
  return detail::alias(t, l);
}

Ref<Tensor> squeeze(const char* op, const Tensor& t, std::optional<int64_t> dim) {
  const int64_t n = t.ndim();
  const int64_t only = dim ? detail::view_dim(op, *dim, n) : -1;
  Layout l;
  l.offset = t.storage_offset();
  for (int64_t i = 0; i < n; ++i) {
    if (t.size(i) == 1 && (only < 0 || only == i)) continue;
    l.sizes[l.ndim] = t.size(i);
    l.strides[l.ndim++] = t.stride(i);
  }
  return detail::alias(t, l);
}

Ref<Tensor> unsqueeze(const char* op, const Tensor& t, int64_t dim) {
  Layout l = detail::layout_of(t);
  detail::insert_dim(op, l, dim);
  return detail::alias(t, l);
}

Ref<Tensor> view_dtype(const char* op, const Tensor& t, DType dtype) {
  require_known_dtype(dtype, op);
  const int64_t old_size = static_cast<int64_t>(t.itemsize());
  const int64_t new_size = static_cast<int64_t>(dtype_size(dtype));
  Layout l = detail::layout_of(t);
  const int64_t n = l.ndim;
  if (old_size != new_size) {
    if (n == 0)
      fail(Status::Shape, op, ": a 0-dim tensor cannot be viewed as a dtype of another element size (",
           old_size, " -> ", new_size, " bytes)");
    const int64_t last = n - 1;
    if (new_size < old_size) {
      const int64_t ratio = old_size / new_size;
      if (l.strides[last] != 1)
        fail(Status::Stride, op, ": the last dim's stride must be 1 to view ", old_size, "-byte elements as ",
             new_size, "-byte ones, but it is ", l.strides[last]);
      // Strides wrap as in PyTorch: they only overflow on tensors with no elements.
      for (int64_t i = 0; i < last; ++i) l.strides[i] = detail::wrapping_mul(l.strides[i], ratio);
      l.sizes[last] = checked_mul(l.sizes[last], ratio, op);
      l.offset = checked_mul(l.offset, ratio, op);
    } else {
      const int64_t ratio = new_size / old_size;
      if (l.sizes[last] % ratio != 0)
        fail(Status::Shape, op, ": the last dim's size ", l.sizes[last], " must be divisible by ", ratio,
             " to view ", old_size, "-byte elements as ", new_size, "-byte ones");
      if (l.offset % ratio != 0)
        fail(Status::Stride, op, ": the storage offset ", l.offset, " must be divisible by ", ratio, " to view ",
             old_size, "-byte elements as ", new_size, "-byte ones");
      if (l.strides[last] != 1)
        fail(Status::Stride, op, ": the last dim's stride must be 1 to view ", old_size, "-byte elements as ",
             new_size, "-byte ones, but it is ", l.strides[last]);
      for (int64_t i = 0; i < last; ++i) {
        if (l.strides[i] % ratio != 0)
          fail(Status::Stride, op, ": stride ", l.strides[i], " of dim ", i, " must be divisible by ", ratio,
               " to view ", old_size, "-byte elements as ", new_size, "-byte ones");
        l.strides[i] /= ratio;
      }
      l.sizes[last] /= ratio;
      l.offset /= ratio;
    }
    l.strides[last] = 1;
  }
  return Tensor::make(t.storage_ref(), dtype, l.ndim, l.sizes, l.strides, l.offset);
}

}  // namespace ctensor::core
