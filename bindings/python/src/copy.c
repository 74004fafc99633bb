/* Copies with PyTorch's preserve_format layout (clone, to, asarray/tensor copies):
   a non-overlapping and dense source keeps its exact strides; any other keeps its
   dims' stride order with dense strides (at::infer_dense_strides). The library's
   own copies are C-ordered, as C callers expect. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "ctensor_py.h"

static int64_t magnitude(int64_t v) { return v < 0 ? -v : v; }

/* c10's compute_non_overlapping_and_dense. */
static int is_non_overlapping_and_dense(int64_t ndim, const int64_t *sizes, const int64_t *strides) {
  if (ndim == 1) return sizes[0] < 2 || strides[0] == 1;
  int64_t perm[TENSOR_MAX_DIMS];
  for (int64_t i = 0; i < ndim; i++) perm[i] = i;
  /* by stride, size-0/1 dims last (insertion sort: ndim is small) */
  for (int64_t i = 1; i < ndim; i++) {
    for (int64_t j = i; j > 0; j--) {
      const int64_t a = perm[j - 1], b = perm[j];
      const int b_first = sizes[a] >= 2 && (sizes[b] < 2 ? 0 : strides[b] < strides[a]);
      const int a_small = sizes[a] < 2 && sizes[b] >= 2;
      if (!(b_first || a_small)) break;
      perm[j - 1] = b;
      perm[j] = a;
    }
  }
  int64_t required = 1;
  for (int64_t i = 0; i < ndim; i++) {
    const int64_t size = sizes[perm[i]];
    if (size < 2) return 1;
    if (strides[perm[i]] != required) return 0;
    required *= size;
  }
  return 1;
}

/* at::infer_dense_strides; negative strides are ordered by magnitude. */
static void infer_dense_strides(int64_t ndim, const int64_t *sizes, const int64_t *strides, int64_t *out) {
  int64_t perm[TENSOR_MAX_DIMS];
  for (int64_t i = 0; i < ndim; i++) perm[i] = ndim - 1 - i;
  for (int64_t i = 1; i < ndim; i++) {
    int64_t dim1 = i;
    for (int64_t j = 1; j <= i; j++) {
      const int64_t dim0 = i - j;
      const int64_t s0 = magnitude(strides[perm[dim0]]), s1 = magnitude(strides[perm[dim1]]);
      int cmp = 0; /* 1: dim0 goes after dim1, -1: before, 0: ambiguous (zero strides stay) */
      if (s0 != 0 && s1 != 0) cmp = s0 < s1 ? -1 : s0 > s1 ? 1 : sizes[perm[dim0]] > sizes[perm[dim1]] ? 1 : 0;
      if (cmp > 0) {
        const int64_t tmp = perm[dim0];
        perm[dim0] = perm[dim1];
        perm[dim1] = tmp;
        dim1 = dim0;
      } else if (cmp < 0) {
        break;
      }
    }
  }
  int64_t stride = 1;
  for (int64_t i = 0; i < ndim; i++) {
    out[perm[i]] = stride;
    if (sizes[perm[i]] > 1) stride *= sizes[perm[i]];
  }
}

tensor_t *ct_empty_like(const tensor_t *t, tensor_dtype_t dtype, int zero) {
  const int64_t ndim = tensor_ndim(t);
  const int64_t *sizes = tensor_sizes(t), *strides = tensor_strides(t);
  int64_t out_strides[TENSOR_MAX_DIMS];
  if (is_non_overlapping_and_dense(ndim, sizes, strides)) {
    for (int64_t i = 0; i < ndim; i++) out_strides[i] = strides[i];
  } else {
    infer_dense_strides(ndim, sizes, strides, out_strides);
  }
  tensor_t *flat = NULL, *out = NULL;
  const int64_t numel = tensor_numel(t);
  tensor_status_t st = zero ? tensor_zeros(&flat, 1, &numel, dtype) : tensor_empty(&flat, 1, &numel, dtype);
  if (st == TENSOR_OK) st = tensor_as_strided(&out, flat, ndim, sizes, out_strides, 0);
  tensor_release(flat);
  return st == TENSOR_OK ? out : (tensor_t *)ct_raise(st);
}

static int torch_float_to_int(tensor_dtype_t src, tensor_dtype_t dst);
static tensor_status_t float_to_int_values(tensor_t **out, const tensor_t *src, tensor_dtype_t dst_dtype);

/* PyTorch converts float64 to float16/bfloat16 through float32 (c10::Half and
   c10::BFloat16 are built from a float), rounding twice; the library rounds once.
   1 when src -> dst needs that detour. */
static int via_float32(tensor_dtype_t src, tensor_dtype_t dst) {
  return src == TENSOR_FLOAT64 && (dst == TENSOR_FLOAT16 || dst == TENSOR_BFLOAT16);
}

tensor_status_t ct_to(tensor_t **out, tensor_t *src, tensor_dtype_t dtype) {
  if (torch_float_to_int(tensor_dtype(src), dtype) && tensor_numel(src) > 0 && ct_check_cpu(src, "to") == 0) {
    tensor_t *ints = NULL;
    tensor_status_t st = float_to_int_values(&ints, src, dtype);
    if (st == TENSOR_OK) st = tensor_to(out, ints, dtype, TENSOR_COPY_IF_NEEDED);
    tensor_release(ints);
    return st;
  }
  PyErr_Clear();
  if (!via_float32(tensor_dtype(src), dtype)) return tensor_to(out, src, dtype, TENSOR_COPY_IF_NEEDED);
  tensor_t *mid = NULL;
  tensor_status_t st = tensor_to(&mid, src, TENSOR_FLOAT32, TENSOR_COPY_IF_NEEDED);
  if (st == TENSOR_OK) st = tensor_to(out, mid, dtype, TENSOR_COPY_IF_NEEDED);
  tensor_release(mid);
  return st;
}

/* PyTorch (x86) converts floats to int8/int16/int32 through a 32-bit truncation
   whose out-of-range and NaN result is INT32_MIN, keeping the low bits, and to
   uint8 and int64 through a 64-bit one (INT64_MIN): -3.7 -> uint8 253, 300.0 ->
   44, 1e10 -> int16 0. The library saturates instead. 1 when src -> dst takes torch's way here. */
static int torch_float_to_int(tensor_dtype_t src, tensor_dtype_t dst) {
  return (ct_dtype_is_floating(src) || ct_dtype_is_complex(src)) &&
         (dst == TENSOR_INT8 || dst == TENSOR_UINT8 || dst == TENSOR_INT16 || dst == TENSOR_INT32 || dst == TENSOR_INT64);
}

/* src's values (real parts) as torch's float-to-int cast gives them, in a new int64 tensor. */
static tensor_status_t float_to_int_values(tensor_t **out, const tensor_t *src, tensor_dtype_t dst_dtype) {
  const int64_t ndim = tensor_ndim(src), *sizes = tensor_sizes(src), n = tensor_numel(src);
  tensor_t *wide = NULL, *ints = NULL;
  tensor_status_t st = tensor_empty(&wide, ndim, sizes, ct_dtype_is_complex(tensor_dtype(src)) ? TENSOR_COMPLEX128 : TENSOR_FLOAT64);
  if (st == TENSOR_OK) st = tensor_copy(wide, src);
  if (st == TENSOR_OK) st = tensor_empty(&ints, ndim, sizes, TENSOR_INT64);
  if (st == TENSOR_OK) {
    const double *v = tensor_data(wide);
    const int64_t step = ct_dtype_is_complex(tensor_dtype(src)) ? 2 : 1;
    int64_t *r = tensor_data(ints);
    for (int64_t i = 0; i < n; i++) {
      const double x = v[i * step];
      if (dst_dtype == TENSOR_INT64 || dst_dtype == TENSOR_UINT8) { /* unsigned targets go through int64 too */
        r[i] = isnan(x) || x >= 9223372036854775808.0 || x < -9223372036854775808.0 ? INT64_MIN : (int64_t)x;
      } else {
        r[i] = isnan(x) || x >= 2147483648.0 || x <= -2147483649.0 ? INT32_MIN : (int32_t)x;
      }
    }
  }
  tensor_release(wide);
  if (st != TENSOR_OK) {
    tensor_release(ints);
    return st;
  }
  *out = ints;
  return TENSOR_OK;
}

static tensor_status_t copy_once(tensor_t *dst, const tensor_t *src) {
  if (torch_float_to_int(tensor_dtype(src), tensor_dtype(dst)) && tensor_numel(src) > 0) {
    if (tensor_is_readonly(dst)) return tensor_copy(dst, src); /* the library's refusal, unchanged */
    tensor_t *ints = NULL;
    tensor_status_t st = float_to_int_values(&ints, src, tensor_dtype(dst));
    if (st == TENSOR_OK) st = tensor_copy(dst, ints); /* int64 -> narrower ints keeps the low bits */
    tensor_release(ints);
    return st;
  }
  if (!via_float32(tensor_dtype(src), tensor_dtype(dst))) return tensor_copy(dst, src);
  tensor_t *mid = NULL;
  tensor_status_t st = tensor_empty(&mid, tensor_ndim(src), tensor_sizes(src), TENSOR_FLOAT32);
  if (st == TENSOR_OK) st = tensor_copy(mid, src);
  if (st == TENSOR_OK) st = tensor_copy(dst, mid);
  tensor_release(mid);
  return st;
}

tensor_status_t ct_copy(tensor_t *dst, const tensor_t *src) {
  if (tensor_numel(dst) < CT_NOGIL_ELEMENTS) return copy_once(dst, src);
  tensor_status_t st;
  Py_BEGIN_ALLOW_THREADS /* the copy engine touches no Python object */
  st = copy_once(dst, src);
  Py_END_ALLOW_THREADS
  return st;
}

tensor_t *ct_copy_like(const tensor_t *t, tensor_dtype_t dtype) {
  tensor_t *out = ct_empty_like(t, dtype, 0);
  if (!out) return NULL;
  const tensor_status_t st = ct_copy(out, t);
  if (st != TENSOR_OK) {
    tensor_release(out);
    return (tensor_t *)ct_raise(st);
  }
  return out;
}
