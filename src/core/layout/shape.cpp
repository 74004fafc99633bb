#include "layout/shape.hpp"

#include <cstddef>
#include <cstdint>

namespace ctensor::core {

void check_sizes(const char* op, int64_t ndim, const int64_t* sizes) {
  if (ndim < 0 || ndim > kMaxDims)
    fail(Status::Invalid, op, ": ndim ", ndim, " is outside [0, ", kMaxDims, "]");
  if (ndim > 0 && sizes == nullptr) fail(Status::Invalid, op, ": sizes is NULL with ndim ", ndim);
  for (int64_t i = 0; i < ndim; ++i)
    if (sizes[i] < 0)
      fail(Status::Invalid, op, ": negative size ", sizes[i], " at dim ", i, " in ", DimList{sizes, ndim});
}

int64_t checked_numel(const char* op, int64_t ndim, const int64_t* sizes) {
  // As PyTorch's safe_multiplies_u64: the running product is unsigned 64-bit, so
  // [1, 2**62, 2, 0] (2**63 before the 0) has no elements rather than overflowing;
  // a numel that does not fit int64 is refused.
  uint64_t n = 1;
  bool overflow = false;
  for (int64_t i = 0; i < ndim; ++i) overflow |= __builtin_mul_overflow(n, static_cast<uint64_t>(sizes[i]), &n);
  if (overflow || n > static_cast<uint64_t>(INT64_MAX))
    fail(Status::Overflow, op, ": the number of elements of sizes ", DimList{sizes, ndim}, " overflows int64");
  return static_cast<int64_t>(n);
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

bool is_contiguous(int64_t ndim, const int64_t* sizes, const int64_t* strides) {
  int64_t expected = 1;
  for (int64_t i = ndim - 1; i >= 0; --i) {
    if (sizes[i] == 0) return true;
  }
  for (int64_t i = ndim - 1; i >= 0; --i) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= sizes[i];
  }
  return true;
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
  // One pass with overflow flags instead of throws: this runs on every
  // as_strided, and a view with no elements must pass even if its extent overflows.
  // The element count is PyTorch's unsigned running product over every dim, a 0
  // included: [2**62, 4, 0] overflows (torch: "numel: integer multiplication
  // overflow") although it has no elements.
  bool overflow = false, empty = false, numel_overflow = false;
  uint64_t numel = 1;
  int64_t lo = 0, hi = 0;
  for (int64_t i = 0; i < ndim; ++i) {
    empty |= sizes[i] == 0;
    numel_overflow |= __builtin_mul_overflow(numel, static_cast<uint64_t>(sizes[i]), &numel);
    int64_t span;
    overflow |= __builtin_mul_overflow(sizes[i] - 1, strides[i], &span);
    overflow |= __builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi);
  }
  if (numel_overflow || numel > static_cast<uint64_t>(INT64_MAX)) checked_numel(op, ndim, sizes);  // throws
  if (empty) return;  // addresses nothing
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

}  // namespace ctensor::core
