// Overflow-checked size/stride arithmetic and dim bookkeeping shared by every op.
#pragma once

#include <cstddef>
#include <cstdint>

#include "error.hpp"

namespace ctensor::core {

constexpr int64_t kMaxDims = 64;

// a*b, or Error(Overflow) naming `what`.
inline int64_t checked_mul(int64_t a, int64_t b, const char* what) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) fail(Status::Overflow, what, ": ", a, " * ", b, " overflows int64");
  return r;
}

// a+b, or Error(Overflow) naming `what`.
inline int64_t checked_add(int64_t a, int64_t b, const char* what) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) fail(Status::Overflow, what, ": ", a, " + ", b, " overflows int64");
  return r;
}

// Throws the Error(Invalid) that check_sizes names for sizes it refused.
[[noreturn]] void fail_sizes(const char* op, int64_t ndim, const int64_t* sizes, bool inferable);

// Validates ndim in [0, 64], sizes non-NULL when ndim > 0 and every size >= 0;
// a requested shape that is `inferable` (view, reshape, expand) may hold -1 too.
// Error(Invalid) otherwise. Inline: every view and from_blob runs it.
inline void check_sizes(const char* op, int64_t ndim, const int64_t* sizes, bool inferable = false) {
  bool refused = ndim < 0 || ndim > kMaxDims || (ndim > 0 && sizes == nullptr);
  const int64_t least = inferable ? -1 : 0;
  for (int64_t i = 0; !refused && i < ndim; ++i) refused = sizes[i] < least;
  if (refused) fail_sizes(op, ndim, sizes, inferable);
}

// The element count: 0 when a size is 0 (never an overflow), else the product of
// the sizes, which must fit in int64 (Error(Overflow) otherwise); 1 for ndim 0.
int64_t checked_numel(const char* op, int64_t ndim, const int64_t* sizes);

// Writes C-order strides for sizes (PyTorch's: size-0/1 dims count as 1).
void contiguous_strides(int64_t ndim, const int64_t* sizes, int64_t* strides);

// Wraps a possibly negative dim into [0, ndim); a 0-dim tensor accepts -1 and 0
// (as PyTorch's wrap_scalar). Error(Invalid) otherwise.
int64_t wrap_dim(const char* op, int64_t dim, int64_t ndim);

// A shape as two borrowed fields, for lists of shapes.
struct ShapeRef {
  int64_t ndim;
  const int64_t* sizes;
};

// The shape that `count` shapes broadcast to (NumPy's and PyTorch's rules:
// dims aligned from the right, sizes equal or 1, a missing dim counts as 1),
// written to `out` (up to kMaxDims sizes); returns its ndim. Throws Shape
// naming the first pair of sizes that differ with neither 1.
int64_t broadcast_shapes(const char* op, const ShapeRef* shapes, int64_t count, int64_t* out);

// Strides of a view (ndim, sizes, strides) broadcast to `target` (PyTorch's
// expand rule): dims aligned from the right; a dim whose size matches keeps its
// stride, a size-1 dim and a new leading dim get stride 0. Writes target_ndim
// strides to `out` and returns -1, or returns the first dim of the view (from
// the left) whose size does not match, or `ndim` when the view has more dims
// than the target (nothing is thrown: callers name the operands).
int64_t broadcast_strides(int64_t ndim, const int64_t* sizes, const int64_t* strides, int64_t target_ndim,
                          const int64_t* target, int64_t* out) noexcept;

// Range of element offsets [lo, hi] (relative to the storage offset) that a
// non-empty view addresses; overflow-checked.
struct Extent {
  int64_t lo;
  int64_t hi;
};
Extent element_extent(const char* op, int64_t ndim, const int64_t* sizes, const int64_t* strides);

// Throws Bounds/Overflow unless every element of the view lies within a storage of
// `storage_nbytes` bytes. Views with no elements always pass.
void check_view_bounds(const char* op, int64_t ndim, const int64_t* sizes, const int64_t* strides,
                       int64_t storage_offset, size_t itemsize, size_t storage_nbytes);

// Exactly the bytes a strided view addresses, as a storage to wrap: `base` is the
// lowest addressed byte, element [0,...,0] sits at storage_offset elements from it.
struct ByteWindow {
  uintptr_t base;
  size_t nbytes;
  int64_t storage_offset;
};

// A view's dims in one pass with overflow flags instead of throws (every
// as_strided and from_blob runs it): whether it has no elements, its extent
// [lo, hi] in elements, and whether the element count or the extent overflows.
// A view with no elements addresses nothing, whatever overflows.
struct DimScan {
  bool empty, numel_overflow, extent_overflow;
  int64_t lo, hi;
};

inline DimScan scan_dims(int64_t ndim, const int64_t* sizes, const int64_t* strides) noexcept {
  bool empty = false, numel_overflow = false, extent_overflow = false;  // (locals stay in registers)
  int64_t numel = 1, lo = 0, hi = 0;
  for (int64_t i = 0; i < ndim; ++i) {
    empty |= sizes[i] == 0;
    numel_overflow |= __builtin_mul_overflow(numel, sizes[i], &numel);
    int64_t span;
    extent_overflow |= __builtin_mul_overflow(sizes[i] - 1, strides[i], &span);
    extent_overflow |= __builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi);
  }
  return {empty, numel_overflow, extent_overflow, lo, hi};
}

// Throws the Error(Overflow) that addressed_bytes found, naming what overflows.
[[noreturn, gnu::cold]] void fail_addressed_bytes(const char* op, uintptr_t data, uint64_t byte_offset, int64_t ndim,
                                                  const int64_t* sizes, const int64_t* strides, size_t itemsize);

// The window of a view whose element [0,...,0] is at address data + byte_offset.
// A view with no elements gets an empty window there. Error(Overflow) if the
// element count, an extent or an address overflows; sizes must have been
// checked (check_sizes). Inline, overflows as flags: every from_blob runs it.
inline ByteWindow addressed_bytes(const char* op, uintptr_t data, uint64_t byte_offset, int64_t ndim,
                                  const int64_t* sizes, const int64_t* strides, size_t itemsize) {
  const DimScan d = scan_dims(ndim, sizes, strides);
  uintptr_t first;  // address of element [0,...,0]
  bool overflow = __builtin_add_overflow(data, byte_offset, &first);
  if (d.empty && !overflow) return {first, 0, 0};
  const int64_t item = static_cast<int64_t>(itemsize);
  int64_t before, count, nbytes, below;  // elements below element [0,...,0]; elements and bytes spanned
  overflow |= d.numel_overflow | d.extent_overflow;
  overflow |= __builtin_sub_overflow(int64_t{0}, d.lo, &before);
  overflow |= __builtin_add_overflow(d.hi, before, &count);
  overflow |= __builtin_add_overflow(count, 1, &count);
  overflow |= __builtin_mul_overflow(count, item, &nbytes);
  overflow |= __builtin_mul_overflow(before, item, &below);
  // The window [first - below, first - below + nbytes) must be a real address range.
  if (__builtin_expect(overflow || static_cast<uint64_t>(below) > first ||
                           static_cast<uint64_t>(nbytes) > UINTPTR_MAX - (first - static_cast<uint64_t>(below)),
                       0))
    fail_addressed_bytes(op, data, byte_offset, ndim, sizes, strides, itemsize);
  return {first - static_cast<uintptr_t>(below), static_cast<size_t>(nbytes), before};
}

}  // namespace ctensor::core
