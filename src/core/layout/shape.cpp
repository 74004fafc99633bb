#include "layout/shape.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace ctensor::core {

void fail_sizes(const char* op, int64_t ndim, const int64_t* sizes, bool inferable) {
  if (ndim < 0 || ndim > kMaxDims)
    fail(Status::Invalid, op, ": ndim ", ndim, " is outside [0, ", kMaxDims, "]");
  if (ndim > 0 && sizes == nullptr) fail(Status::Invalid, op, ": sizes is NULL with ndim ", ndim);
  const int64_t least = inferable ? -1 : 0;
  for (int64_t i = 0; i < ndim; ++i)
    if (sizes[i] < least)
      fail(Status::Invalid, op, inferable ? ": invalid size " : ": negative size ", sizes[i], " at dim ", i, " in ",
           DimList{sizes, ndim});
  fail(Status::Internal, op, ": sizes refused without a reason");
}

int64_t checked_numel(const char* op, int64_t ndim, const int64_t* sizes) {
  // One rule, whatever the order of the sizes: a 0 among them means no elements
  // (never an overflow); otherwise the product must fit in int64.
  if (std::find(sizes, sizes + ndim, 0) != sizes + ndim) return 0;
  int64_t n = 1;
  for (int64_t i = 0; i < ndim; ++i)
    if (__builtin_mul_overflow(n, sizes[i], &n))
      fail(Status::Overflow, op, ": the number of elements of sizes ", DimList{sizes, ndim}, " overflows int64");
  return n;
}

void contiguous_strides(int64_t ndim, const int64_t* sizes, int64_t* strides) {
  int64_t s = 1;
  for (int64_t i = ndim - 1; i >= 0; --i) {
    strides[i] = s;
    // Only a tensor with no elements can overflow here; its strides address
    // nothing, and they wrap (two's complement) as PyTorch's do, so that
    // torch.empty([0, 2**40, 2**40]) and ctensor agree on (0, 2**40, 1).
    s = static_cast<int64_t>(static_cast<uint64_t>(s) * static_cast<uint64_t>(sizes[i] > 1 ? sizes[i] : 1));
  }
}

int64_t wrap_dim(const char* op, int64_t dim, int64_t ndim) {
  const int64_t range = ndim > 0 ? ndim : 1;
  if (dim < -range || dim >= range)
    fail(Status::Invalid, op, ": dim ", dim, " is out of range for a tensor with ", ndim,
         " dims (expected to be in range of [", -range, ", ", range - 1, "])");
  return dim < 0 ? dim + range : dim;
}

int64_t broadcast_shapes(const char* op, const ShapeRef* shapes, int64_t count, int64_t* out) {
  int64_t ndim = 0;
  for (int64_t k = 0; k < count; ++k) ndim = shapes[k].ndim > ndim ? shapes[k].ndim : ndim;
  for (int64_t i = 0; i < ndim; ++i) {
    int64_t size = 1, from = -1;  // from: the shape that set `size`
    for (int64_t k = 0; k < count; ++k) {
      const int64_t j = i - (ndim - shapes[k].ndim);
      if (j < 0) continue;
      const int64_t s = shapes[k].sizes[j];
      if (s == size || s == 1) continue;
      if (size != 1)
        fail(Status::Shape, op, ": the size of tensor ", from, " (", size, ") must match the size of tensor ",
             k, " (", s, ") at non-singleton dimension ", i, " (shapes ",
             DimList{shapes[from].sizes, shapes[from].ndim}, " and ", DimList{shapes[k].sizes, shapes[k].ndim},
             ")");
      size = s;
      from = k;
    }
    out[i] = size;
  }
  return ndim;
}

int64_t broadcast_strides(int64_t ndim, const int64_t* sizes, const int64_t* strides, int64_t target_ndim,
                          const int64_t* target, int64_t* out) noexcept {
  if (ndim > target_ndim) return ndim;
  for (int64_t i = 0; i < target_ndim; ++i) {
    const int64_t j = i - (target_ndim - ndim);
    if (j < 0 || (sizes[j] == 1 && target[i] != 1)) {
      out[i] = 0;
    } else if (sizes[j] == target[i]) {
      out[i] = strides[j];
    } else {
      return j;
    }
  }
  return -1;
}

Extent element_extent(const char* op, int64_t ndim, const int64_t* sizes, const int64_t* strides) {
  Extent e{0, 0};
  for (int64_t i = 0; i < ndim; ++i) {
    const int64_t span = checked_mul(sizes[i] - 1, strides[i], op);
    if (span < 0)
      e.lo = checked_add(e.lo, span, op);
    else
      e.hi = checked_add(e.hi, span, op);
  }
  return e;
}

void check_view_bounds(const char* op, int64_t ndim, const int64_t* sizes, const int64_t* strides,
                       int64_t storage_offset, size_t itemsize, size_t storage_nbytes) {
  const DimScan d = scan_dims(ndim, sizes, strides);
  if (d.empty) return;
  if (d.numel_overflow) checked_numel(op, ndim, sizes);  // throws, naming the sizes
  bool overflow = d.extent_overflow;
  const int64_t lo = d.lo, hi = d.hi;
  int64_t first, last, first_byte, end_byte;
  const int64_t item = static_cast<int64_t>(itemsize);
  overflow |= __builtin_add_overflow(storage_offset, lo, &first);
  overflow |= __builtin_mul_overflow(first, item, &first_byte);
  overflow |= __builtin_add_overflow(storage_offset, hi, &last);
  overflow |= __builtin_add_overflow(last, 1, &end_byte);
  overflow |= __builtin_mul_overflow(end_byte, item, &end_byte);
  if (overflow) {
    // Repeat with the throwing helpers so the message names the operands.
    const Extent e = element_extent(op, ndim, sizes, strides);
    checked_mul(checked_add(checked_add(storage_offset, e.hi, op), 1, op), item, op);
    checked_mul(checked_add(storage_offset, e.lo, op), item, op);
    fail(Status::Overflow, op, ": extent of sizes ", DimList{sizes, ndim}, ", strides ",
         DimList{strides, ndim}, " overflows int64");
  }
  if (first < 0 || static_cast<uint64_t>(end_byte) > storage_nbytes)
    fail(Status::Bounds, op, ": view needs storage bytes [", first_byte, ", ", end_byte,
         ") but storage has ", storage_nbytes, " bytes (sizes ", DimList{sizes, ndim}, ", strides ",
         DimList{strides, ndim}, ", storage offset ", storage_offset, ")");
}

void fail_addressed_bytes(const char* op, uintptr_t data, uint64_t byte_offset, int64_t ndim,
                          const int64_t* sizes, const int64_t* strides, size_t itemsize) {
  // addressed_bytes found an overflow: the checked steps name the first one.
  const DimScan d = scan_dims(ndim, sizes, strides);
  if (d.numel_overflow) checked_numel(op, ndim, sizes);  // throws (unless a size is 0), naming the sizes
  uintptr_t first;  // address of element [0,...,0]
  if (__builtin_add_overflow(data, byte_offset, &first))
    fail(Status::Overflow, op, ": data address + byte_offset ", byte_offset, " overflows");
  if (d.extent_overflow) element_extent(op, ndim, sizes, strides);  // throws, naming the product or sum
  const int64_t item = static_cast<int64_t>(itemsize);
  const int64_t before = checked_mul(d.lo, -1, op);
  const int64_t count = checked_add(checked_add(d.hi, 1, op), before, op);
  const int64_t nbytes = checked_mul(count, item, op);
  const int64_t below = checked_mul(before, item, op);
  fail(Status::Overflow, op, ": the view spans bytes [", -below, ", ", nbytes - below,
       ") around its first element, which leaves the address space (sizes ", DimList{sizes, ndim},
       ", strides ", DimList{strides, ndim}, ")");
}

}  // namespace ctensor::core
