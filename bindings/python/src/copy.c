/* Copies as PyTorch makes them, through the C API: its x86 conversion results
   (TENSOR_CONVERT_TORCH_X86) and its preserve_format layouts (tensor_to_with),
   letting other Python threads run while a large copy works. */
#include "ctensor_py.h"

tensor_status_t ct_copy(tensor_t *dst, const tensor_t *src) {
  if (tensor_numel(dst) < CT_NOGIL_ELEMENTS) return tensor_copy_with(dst, src, TENSOR_CONVERT_TORCH_X86);
  tensor_status_t st;
  Py_BEGIN_ALLOW_THREADS /* the copy engine touches no Python object */
  st = tensor_copy_with(dst, src, TENSOR_CONVERT_TORCH_X86);
  Py_END_ALLOW_THREADS
  return st;
}

tensor_status_t ct_to(tensor_t **out, tensor_t *src, tensor_dtype_t dtype) {
  return tensor_to_with(out, src, dtype, TENSOR_COPY_IF_NEEDED, TENSOR_CONTIGUOUS_FORMAT, TENSOR_CONVERT_TORCH_X86);
}

tensor_t *ct_copy_like(tensor_t *t, tensor_dtype_t dtype) {
  tensor_t *out = NULL;
  tensor_status_t st;
  if (tensor_numel(t) < CT_NOGIL_ELEMENTS) {
    st = tensor_to_with(&out, t, dtype, TENSOR_COPY_ALWAYS, TENSOR_PRESERVE_FORMAT, TENSOR_CONVERT_TORCH_X86);
  } else {
    Py_BEGIN_ALLOW_THREADS
    st = tensor_to_with(&out, t, dtype, TENSOR_COPY_ALWAYS, TENSOR_PRESERVE_FORMAT, TENSOR_CONVERT_TORCH_X86);
    Py_END_ALLOW_THREADS
  }
  return st == TENSOR_OK ? out : (tensor_t *)ct_raise(st);
}
