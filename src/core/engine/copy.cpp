// The copy engine's entry points: argument rules (broadcasting, read-only,
// internal overlap, src/dst aliasing) in front of copy_exec, which runs copies
// on the strided iterator.
#include "engine/copy.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "dtype/convert.hpp"
#include "engine/copy_exec.hpp"
#include "engine/tensor_iterator.hpp"
#include "error.hpp"
#include "layout/overlap.hpp"
#include "layout/shape.hpp"

namespace ctensor::core {

namespace {

// src's strides broadcast to dst's shape (PyTorch's expand: dims aligned from the
// right, size-1 source dims repeat with stride 0), or Error(Shape).
void broadcast_source_strides(const char* op, const Tensor& dst, const Tensor& src, int64_t* out) {
  const int64_t nd = dst.ndim(), ns = src.ndim();
  const int64_t bad = core::broadcast_strides(ns, src.sizes(), src.strides(), nd, dst.sizes(), out);
  if (bad == ns)
    fail(Status::Shape, op, ": source of shape ", DimList{src.sizes(), ns},
         " has more dims than the destination of shape ", DimList{dst.sizes(), nd});
  if (bad >= 0)
    fail(Status::Shape, op, ": source of shape ", DimList{src.sizes(), ns},
         " cannot be broadcast to the destination of shape ", DimList{dst.sizes(), nd}, " (size ",
         src.size(bad), " at source dim ", bad, " vs ", dst.size(bad + nd - ns), ")");
}

// dst[...] = src for a dst already checked (writable, no internal overlap, non-empty)
// and a src that does not overlap it; src_strides are broadcast to dst's shape.
void run_copy(const Tensor& dst, const char* src_data, const int64_t* src_strides, DType src_dtype,
              Conversion conversion) {
  const TensorIterator it = TensorIteratorConfig()
                                .add_output(dst)
                                .add_input(src_data, dst.ndim(), dst.sizes(), src_strides,
                                           dtype_size(src_dtype))
                                .build("copy");
  // Same-dtype copies move bytes, except bool: foreign buffers may hold bytes
  // other than 0/1, and a copy stores canonical bools (as PyTorch's copy_).
  if (src_dtype == dst.dtype() && src_dtype != dtype::Bool) return execute(it, nullptr, nullptr);
  execute(it, cast_kernel(src_dtype, dst.dtype(), conversion), simd_stream_cast(src_dtype, dst.dtype()));
}

}  // namespace

void copy_into(const char* op, const Tensor& dst, const Tensor& src, Conversion conversion) {
  int64_t strides[kMaxDims];
  if (dst.numel() == 0) {
    // An empty destination always succeeds (nothing is written: no read-only,
    // device or overlap check), but src must still broadcast to it, as in torch's copy_.
    broadcast_source_strides(op, dst, src, strides);
    return;
  }
  dst.require_writable(op);
  src.require_readable(op);
  broadcast_source_strides(op, dst, src, strides);
  require_no_internal_overlap(op, dst);
  if (may_overlap(dst, src)) {
    if (same_elements(dst, src, strides) && dst.dtype() == src.dtype()) return;
    // Elements could be overwritten before they are read: copy from a snapshot.
    const Ref<Tensor> snapshot = contiguous_copy(op, src, src.dtype());
    broadcast_source_strides(op, dst, *snapshot, strides);
    return run_copy(dst, snapshot->data(), strides, src.dtype(), conversion);
  }
  run_copy(dst, src.data(), strides, src.dtype(), conversion);
}

Ref<Tensor> copy_as(const char* op, const Tensor& t, DType dtype, MemoryFormat format, Conversion conversion) {
  require_known_dtype(dtype, op);
  t.require_readable(op);
  Ref<Tensor> out = empty_like(op, t, dtype, format, false);
  if (out->numel() > 0) run_copy(*out, t.data(), t.strides(), t.dtype(), conversion);
  return out;
}

void fill(const char* op, const Tensor& dst, double value) {
  if (dst.numel() == 0) return;
  dst.require_writable(op);
  require_no_internal_overlap(op, dst);
  alignas(16) char element[16];
  convert_from_double(value, dst.dtype(), element);
  const int64_t zeros[kMaxDims] = {};
  run_copy(dst, element, zeros, dst.dtype(), Conversion::Library);
}

void fill_element(const char* op, const Tensor& dst, const void* element) {
  if (!element) fail(Status::Invalid, op, ": element is NULL");
  if (dst.numel() == 0) return;
  dst.require_writable(op);
  const size_t itemsize = dst.itemsize();
  alignas(16) char value[16];
  std::memcpy(value, element, itemsize);  // before any write: element may lie inside dst
  if (dst.dtype() == dtype::Bool) value[0] = value[0] != 0;  // canonical bools, as copies store
  const int64_t zeros[kMaxDims] = {};
  if (!has_internal_overlap(dst)) return run_copy(dst, value, zeros, dst.dtype(), Conversion::Library);
  // Elements in common: the engine's threads must not write one place at once, so
  // one thread writes every place in order; dims of stride 0 only repeat places.
  int64_t sizes[kMaxDims], steps[kMaxDims], index[kMaxDims] = {}, count = 1, n = 0;
  for (int64_t d = 0; d < dst.ndim(); ++d) {
    if (dst.stride(d) == 0 || dst.size(d) == 1) continue;
    sizes[n] = dst.size(d);
    steps[n++] = dst.stride(d) * static_cast<int64_t>(itemsize);
    count *= dst.size(d);
  }
  char* p = dst.data();
  for (; count > 0; --count) {
    std::memcpy(p, value, itemsize);
    for (int64_t d = n - 1; d >= 0; --d) {
      p += steps[d];
      if (++index[d] < sizes[d]) break;
      p -= steps[d] * sizes[d];
      index[d] = 0;
    }
  }
}

}  // namespace ctensor::core
