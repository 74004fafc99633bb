#include "engine/copies.hpp"

#include "engine/copy.hpp"
#include "error.hpp"
#include "layout/shape.hpp"
#include "layout/views.hpp"

namespace ctensor::core {

Ref<Tensor> reshape(const char* op, const Tensor& t, int64_t ndim, const int64_t* sizes) {
  int64_t inferred[kMaxDims];
  if (Ref<Tensor> view = view_if_possible(op, t, ndim, sizes, inferred)) return view;
  const Ref<Tensor> copy = contiguous_copy(op, t, t.dtype());
  return Tensor::make(copy->storage_ref(), copy->dtype(), ndim, inferred, nullptr, copy->storage_offset());
}

Ref<Tensor> flatten(const char* op, const Tensor& t, int64_t start_dim, int64_t end_dim) {
  int64_t sizes[kMaxDims];
  const int64_t ndim = flatten_shape(op, t, start_dim, end_dim, sizes);
  if (ndim < 0) return as_strided(op, t, t.ndim(), t.sizes(), t.strides(), t.storage_offset());
  return reshape(op, t, ndim, sizes);
}

Ref<Tensor> contiguous(const char* op, Tensor& t) {
  if (t.is_contiguous()) return Ref<Tensor>::share(&t);
  return contiguous_copy(op, t, t.dtype());
}

Ref<Tensor> to(const char* op, Tensor& t, DType dtype, CopyMode mode, MemoryFormat format, Conversion conversion) {
  require_known_dtype(dtype, op);
  if (mode != CopyMode::Always && dtype == t.dtype()) return Ref<Tensor>::share(&t);
  if (mode == CopyMode::Never)
    fail(Status::Copy, op, ": converting ", dtype_info(t.dtype())->name, " to ", dtype_info(dtype)->name,
         " needs a copy but the copy mode is TENSOR_COPY_NEVER");
  return copy_as(op, t, dtype, format, conversion);
}

void item(const char* op, const Tensor& t, DType dtype, void* out) {
  if (t.numel() != 1)
    fail(Status::Shape, op, ": a tensor with ", t.numel(), " elements cannot be converted to a scalar");
  t.require_readable(op);
  cast_kernel(t.dtype(), dtype)(t.data(), 0, static_cast<char*>(out), 0, 1);
}

}  // namespace ctensor::core
