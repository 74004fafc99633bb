// The rest of PyTorch's view family: diagonal, unfold, movedim, unflatten,
// atleast_nd, and the splits that give many views (split, split_with_sizes,
// chunk, tensor_split). Sizes, strides and offsets as PyTorch 1.13 gives them.
#include <algorithm>
#include <vector>

#include "layout/view_layout.hpp"
#include "layout/views.hpp"

namespace ctensor::core {

using detail::Layout;

Ref<Tensor> diagonal(const char* op, const Tensor& t, int64_t offset, int64_t dim1, int64_t dim2) {
  const int64_t n = t.ndim();
  if (n < 2) fail(Status::Invalid, op, ": a tensor with ", n, " dims has no diagonal (it needs at least 2)");
  const int64_t d1 = detail::view_dim(op, dim1, n), d2 = detail::view_dim(op, dim2, n);
  if (d1 == d2) fail(Status::Invalid, op, ": diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  const int64_t s1 = t.size(d1), s2 = t.size(d2);
  int64_t length;
  if (offset >= 0)
    length = offset >= s2 ? 0 : std::max<int64_t>(std::min(s1, s2 - offset), 0);
  else
    length = offset <= -s1 ? 0 : std::max<int64_t>(std::min(s1 + offset, s2), 0);
  Layout l;
  l.offset = t.storage_offset();
  if (length > 0)  // as PyTorch: an empty diagonal keeps the offset
    l.offset = checked_add(l.offset, offset >= 0 ? checked_mul(offset, t.stride(d2), op)
                                                 : checked_mul(-offset, t.stride(d1), op), op);
  for (int64_t i = 0; i < n; ++i) {
    if (i == d1 || i == d2) continue;
    l.sizes[l.ndim] = t.size(i);
    l.strides[l.ndim++] = t.stride(i);
  }
  l.sizes[l.ndim] = length;
  // Fits whenever the diagonal has two elements or more; else never addressed.
  l.strides[l.ndim++] = static_cast<int64_t>(static_cast<uint64_t>(t.stride(d1)) + static_cast<uint64_t>(t.stride(d2)));
  return detail::alias(t, l);
}

Ref<Tensor> unfold(const char* op, const Tensor& t, int64_t dim, int64_t size, int64_t step) {
  const int64_t n = t.ndim();
  if (n >= kMaxDims) fail(Status::Invalid, op, ": the tensor already has the maximum of ", kMaxDims, " dims");
  const int64_t d = detail::view_dim(op, dim, n);
  const int64_t length = n == 0 ? 1 : t.size(d);
  if (size < 0) fail(Status::Invalid, op, ": size ", size, " is negative");
  if (size > length)
    fail(Status::Shape, op, ": maximum size for tensor at dimension ", d, " is ", length, " but size is ", size);
  if (step <= 0) fail(Status::Invalid, op, ": step is ", step, " but must be > 0");
  Layout l = detail::layout_of(t);
  if (n > 0) {
    l.sizes[d] = (length - size) / step + 1;
    l.strides[d] = detail::wrapping_mul(step, t.stride(d));  // overflows only where never addressed
  }
  l.sizes[n] = size;
  l.strides[n] = n == 0 ? 1 : t.stride(d);
  l.ndim = n + 1;
  return detail::alias(t, l);
}

Ref<Tensor> movedim(const char* op, const Tensor& t, int64_t count, const int64_t* source,
                    const int64_t* destination) {
  const int64_t n = t.ndim();
  if (count < 0 || count > std::max<int64_t>(n, 1))
    fail(Status::Invalid, op, ": ", count, " dims to move in a tensor with ", n, " dims");
  if (count > 0 && (source == nullptr || destination == nullptr))
    fail(Status::Invalid, op, ": source or destination is NULL with ", count, " dims");
  int64_t src[kMaxDims], dst[kMaxDims];
  bool src_seen[kMaxDims] = {}, dst_seen[kMaxDims] = {};
  for (int64_t i = 0; i < count; ++i) {
    src[i] = detail::view_dim(op, source[i], n);
    dst[i] = detail::view_dim(op, destination[i], n);
    if (src_seen[src[i]]) fail(Status::Invalid, op, ": repeated dim in source ", DimList{source, count});
    if (dst_seen[dst[i]]) fail(Status::Invalid, op, ": repeated dim in destination ", DimList{destination, count});
    src_seen[src[i]] = dst_seen[dst[i]] = true;
  }
  if (n == 0) return detail::alias(t, detail::layout_of(t));
  // As torch.movedim: the moved dims go to their destinations, the others keep
  // their order in the places left free.
  int64_t order[kMaxDims];
  std::fill(order, order + n, -1);
  for (int64_t i = 0; i < count; ++i) order[dst[i]] = src[i];
  for (int64_t i = 0, next = 0; i < n; ++i) {
    if (order[i] >= 0) continue;
    while (src_seen[next]) ++next;
    order[i] = next++;
  }
  return permute(op, t, n, order);
}

Ref<Tensor> unflatten(const char* op, const Tensor& t, int64_t dim, int64_t count, const int64_t* sizes) {
  const int64_t n = t.ndim();
  if (count <= 0) fail(Status::Invalid, op, ": sizes must be non-empty");
  check_sizes(op, count, sizes, true);
  if (n == 0) fail(Status::Invalid, op, ": cannot unflatten a 0-dim tensor");
  const int64_t d = detail::view_dim(op, dim, n);
  if (n - 1 + count > kMaxDims)
    fail(Status::Invalid, op, ": the result would have ", n - 1 + count, " dims (at most ", kMaxDims, ")");
  // The product must equal the dim's size; a -1 is inferred from it.
  int64_t known = 1, inferred = -1;
  bool overflow = false;
  for (int64_t i = 0; i < count; ++i) {
    if (sizes[i] == -1) {
      if (inferred >= 0) fail(Status::Shape, op, ": only one dimension can be inferred in ", DimList{sizes, count});
      inferred = i;
    } else {
      overflow |= __builtin_mul_overflow(known, sizes[i], &known);
    }
  }
  const int64_t length = t.size(d);
  int64_t shape[kMaxDims];
  std::copy(t.sizes(), t.sizes() + d, shape);
  std::copy(sizes, sizes + count, shape + d);
  std::copy(t.sizes() + d + 1, t.sizes() + n, shape + d + count);
  const bool fits = !overflow && (inferred >= 0 ? known != 0 && length % known == 0 : known == length);
  if (!fits)
    fail(Status::Shape, op, ": provided sizes ", DimList{sizes, count}, " don't multiply up to the size of dim ", d,
         " (", length, ") in the input tensor");
  if (inferred >= 0) shape[d + inferred] = length / known;
  return view(op, t, n - 1 + count, shape);
}

Ref<Tensor> atleast(const char* op, const Tensor& t, int64_t min_dims) {
  if (min_dims < 1 || min_dims > 3) fail(Status::Invalid, op, ": min_dims ", min_dims, " is not 1, 2 or 3");
  const int64_t n = t.ndim();
  if (n >= min_dims) return detail::alias(t, detail::layout_of(t));
  if (n == 0) {  // as PyTorch: a reshape to [1], [1, 1] or [1, 1, 1]
    const int64_t ones[3] = {1, 1, 1};
    return view(op, t, min_dims, ones);
  }
  Layout l = detail::layout_of(t);
  // atleast_2d puts a new dim in front; atleast_3d makes (n,) (1, n, 1) and (m, n) (m, n, 1).
  if (n == 1) detail::insert_dim(op, l, 0);
  if (min_dims == 3) detail::insert_dim(op, l, l.ndim);
  return detail::alias(t, l);
}

namespace {

// Views of consecutive pieces of dim d with the given lengths (which sum to the size).
std::vector<Ref<Tensor>> pieces(const char* op, const Tensor& t, int64_t d, const std::vector<int64_t>& lengths) {
  std::vector<Ref<Tensor>> out;
  out.reserve(lengths.size());
  int64_t start = 0;
  for (int64_t length : lengths) {
    out.push_back(narrow(op, t, d, start, length));
    start += length;
  }
  return out;
}

void require_dims(const char* op, const Tensor& t) {
  if (t.ndim() == 0) fail(Status::Invalid, op, ": expects at least a 1-dimensional tensor");
}

int64_t split_dim(const char* op, const Tensor& t, int64_t dim) {
  require_dims(op, t);
  return detail::view_dim(op, dim, t.ndim());
}

}  // namespace

std::vector<Ref<Tensor>> split(const char* op, const Tensor& t, int64_t split_size, int64_t dim) {
  require_dims(op, t);  // PyTorch's order: dims, split_size, then the dim
  if (split_size < 0) fail(Status::Invalid, op, ": split_size ", split_size, " is negative");
  const int64_t d = detail::view_dim(op, dim, t.ndim());
  const int64_t length = t.size(d);
  if (split_size == 0 && length != 0)
    fail(Status::Invalid, op, ": split_size can only be 0 if the dim's size is 0, but it is ", length);
  std::vector<int64_t> lengths;
  if (split_size == 0) {
    lengths.push_back(0);
  } else {
    for (int64_t start = 0; start < length; start += std::min(split_size, length - start))
      lengths.push_back(std::min(split_size, length - start));
    if (lengths.empty()) lengths.push_back(0);  // a dim of size 0 gives one empty piece
  }
  return pieces(op, t, d, lengths);
}

std::vector<Ref<Tensor>> split_with_sizes(const char* op, const Tensor& t, int64_t count, const int64_t* sizes,
                                          int64_t dim) {
  const int64_t d = split_dim(op, t, dim);
  if (count < 0) fail(Status::Invalid, op, ": negative number of pieces ", count);
  if (count > 0 && sizes == nullptr) fail(Status::Invalid, op, ": split_sizes is NULL with ", count, " pieces");
  int64_t total = 0;
  bool overflow = false;
  for (int64_t i = 0; i < count; ++i) {
    if (sizes[i] < 0)
      fail(Status::Invalid, op, ": split_sizes must be non-negative, but got ", DimList{sizes, count});
    overflow |= __builtin_add_overflow(total, sizes[i], &total);
  }
  if (overflow || total != t.size(d))
    fail(Status::Shape, op, ": split_sizes ", DimList{sizes, count}, " must sum exactly to ", t.size(d),
         " (the size of dim ", d, ")");
  return pieces(op, t, d, std::vector<int64_t>(sizes, sizes + count));
}

std::vector<Ref<Tensor>> chunk(const char* op, const Tensor& t, int64_t chunks, int64_t dim) {
  require_dims(op, t);  // PyTorch's order: dims, chunks, then the dim
  if (chunks <= 0) fail(Status::Invalid, op, ": chunks must be greater than 0, got ", chunks);
  const int64_t d = detail::view_dim(op, dim, t.ndim());
  const int64_t length = t.size(d);
  // PyTorch: pieces of ceil(length / chunks) elements, so there may be fewer than
  // `chunks` of them; a dim of size 0 gives `chunks` empty pieces.
  const int64_t piece = length / chunks + (length % chunks != 0);
  if (piece == 0) return pieces(op, t, d, std::vector<int64_t>(static_cast<size_t>(chunks), 0));
  return split(op, t, piece, d);
}

std::vector<Ref<Tensor>> tensor_split(const char* op, const Tensor& t, int64_t sections, int64_t dim) {
  require_dims(op, t);
  if (sections <= 0) fail(Status::Invalid, op, ": number of sections must be larger than 0, got ", sections);
  const int64_t d = detail::view_dim(op, dim, t.ndim());
  const int64_t length = t.size(d), base = length / sections, extra = length % sections;
  std::vector<Ref<Tensor>> out;
  out.reserve(static_cast<size_t>(sections));
  for (int64_t i = 0, start = 0; i < sections; ++i) {
    const int64_t end = start + base + (i < extra);
    out.push_back(slice(op, t, d, start, end, 1));
    start = end;
  }
  return out;
}

std::vector<Ref<Tensor>> tensor_split_indices(const char* op, const Tensor& t, int64_t count, const int64_t* indices,
                                              int64_t dim) {
  const int64_t d = split_dim(op, t, dim);
  if (count < 0) fail(Status::Invalid, op, ": negative number of indices ", count);
  if (count > 0 && indices == nullptr) fail(Status::Invalid, op, ": indices is NULL with ", count, " indices");
  std::vector<Ref<Tensor>> out;
  out.reserve(static_cast<size_t>(count) + 1);
  int64_t start = 0;
  for (int64_t i = 0; i < count; ++i) {  // slice's clamping, as PyTorch's at::slice
    out.push_back(slice(op, t, d, start, indices[i], 1));
    start = indices[i];
  }
  out.push_back(slice(op, t, d, start, INT64_MAX, 1));
  return out;
}

std::vector<Ref<Tensor>> broadcast_tensors(const char* op, int64_t count, const Tensor* const* tensors) {
  if (count < 0) fail(Status::Invalid, op, ": negative number of tensors ", count);
  std::vector<ShapeRef> shapes(static_cast<size_t>(count));
  for (int64_t k = 0; k < count; ++k) shapes[static_cast<size_t>(k)] = {tensors[k]->ndim(), tensors[k]->sizes()};
  int64_t shape[kMaxDims];
  const int64_t ndim = broadcast_shapes(op, shapes.data(), count, shape);
  std::vector<Ref<Tensor>> out;
  out.reserve(static_cast<size_t>(count));
  for (int64_t k = 0; k < count; ++k) out.push_back(expand(op, *tensors[k], ndim, shape));
  return out;
}

}  // namespace ctensor::core
