/* Advanced indexing (integer and boolean index tensors or lists), as PyTorch
   and NumPy define it: the basic part of the index is applied as a view first
   (index.c), then the library's tensor_index_gather / tensor_index_put do the
   rest. What is left here is translation: masks become index tensors (the
   columns of tensor_nonzero), values lose torch's leading size-1 dims, statuses
   become torch's exceptions, and large work runs without the GIL. */
#include <stdio.h>

#include "ctensor_py.h"

/* Whether an index moves enough elements to let other threads run meanwhile:
   the index tensors' positions (at least the largest one's count) times the
   elements of each block (the view's elements along the other dims). */
static int large_work(const tensor_t *view, int64_t m, const int64_t *dims, tensor_t *const *idx) {
  double positions = 0, block = (double)tensor_numel(view);
  for (int64_t k = 0; k < m; k++) {
    const int64_t size = tensor_sizes(view)[dims[k]];
    positions = (double)tensor_numel(idx[k]) > positions ? (double)tensor_numel(idx[k]) : positions;
    block = size > 0 ? block / (double)size : 0;
  }
  return positions * block >= CT_NOGIL_ELEMENTS;
}

/* Values given to assignments (index.c's t[...] = v, advanced.c's index_put)
   as torch takes them: without leading size-1 dims beyond the destination's. */
tensor_t *ct_drop_leading_ones(tensor_t *src, int64_t ndim) {
  if (!src) return NULL;
  int64_t lead = 0;
  const int64_t n = tensor_ndim(src);
  while (lead < n && tensor_sizes(src)[lead] == 1 && n - lead > ndim) lead++;
  if (lead == 0) return src;
  tensor_t *stripped = NULL;
  const tensor_status_t st = tensor_as_strided(&stripped, src, n - lead, tensor_sizes(src) + lead,
                                               tensor_strides(src) + lead, tensor_storage_offset(src));
  tensor_release(src);
  return st == TENSOR_OK ? stripped : (tensor_t *)ct_raise(st);
}

int ct_mask_to_indices(const tensor_t *mask, const tensor_t *view, int64_t dim, tensor_t **out) {
  const int64_t k = tensor_ndim(mask);
  const int64_t *ms = tensor_sizes(mask), *vs = tensor_sizes(view);
  for (int64_t i = 0; i < k; i++) {
    if (dim + i >= tensor_ndim(view) || ms[i] != vs[dim + i]) {
      PyErr_Format(PyExc_IndexError,
                   "The shape of the mask [%lld] at index %lld does not match the shape of the indexed tensor "
                   "[%lld] at index %lld",
                   (long long)ms[i], (long long)i, (long long)(dim + i < tensor_ndim(view) ? vs[dim + i] : 0),
                   (long long)(dim + i));
      return -1;
    }
  }
  tensor_t *coords = NULL;
  tensor_status_t st;
  if (tensor_numel(mask) >= CT_NOGIL_ELEMENTS) {
    Py_BEGIN_ALLOW_THREADS
    st = tensor_nonzero(&coords, mask);
    Py_END_ALLOW_THREADS
  } else {
    st = tensor_nonzero(&coords, mask);
  }
  for (int64_t i = 0; i < k; i++) out[i] = NULL;
  for (int64_t i = 0; st == TENSOR_OK && i < k; i++) st = tensor_select(&out[i], coords, 1, i); /* column i */
  tensor_release(coords);
  if (st != TENSOR_OK) {
    for (int64_t i = 0; i < k; i++) tensor_release(out[i]);
    ct_raise(st);
    return -1;
  }
  return 0;
}

PyObject *ct_advanced_get(tensor_t *view, int64_t m, const int64_t *dims, tensor_t *const *idx) {
  const tensor_t *const *indices = (const tensor_t *const *)idx;
  tensor_t *out = NULL;
  tensor_status_t st;
  if (large_work(view, m, dims, idx)) {
    Py_BEGIN_ALLOW_THREADS
    st = tensor_index_gather(&out, view, m, dims, indices);
    Py_END_ALLOW_THREADS
  } else {
    st = tensor_index_gather(&out, view, m, dims, indices);
  }
  /* torch: "shape mismatch: indexing tensors could not be broadcast ..." is an IndexError */
  return st == TENSOR_OK ? ct_tensor_wrap(out) : ct_raise_as(st, TENSOR_E_SHAPE, PyExc_IndexError);
}

int ct_advanced_set(tensor_t *view, int64_t m, const int64_t *dims, tensor_t *const *idx, tensor_t *value) {
  const tensor_t *const *indices = (const tensor_t *const *)idx;
  int64_t nb = 0; /* torch drops the value's leading size-1 dims beyond the result's */
  for (int64_t k = 0; k < m; k++) nb = tensor_ndim(idx[k]) > nb ? tensor_ndim(idx[k]) : nb;
  tensor_t *src = ct_drop_leading_ones(tensor_retain(value), tensor_ndim(view) - m + nb);
  if (!src) return -1;
  tensor_status_t st;
  if (large_work(view, m, dims, idx)) {
    Py_BEGIN_ALLOW_THREADS
    st = tensor_index_put(view, m, dims, indices, src);
    Py_END_ALLOW_THREADS
  } else {
    st = tensor_index_put(view, m, dims, indices, src);
  }
  tensor_release(src);
  if (st == TENSOR_E_SHAPE) { /* the index tensors' shapes (IndexError, as torch), or the value's */
    char message[512];
    snprintf(message, sizeof message, "%s", tensor_last_error());
    tensor_t *views[TENSOR_MAX_DIMS];
    const int indices_broadcast = tensor_broadcast_tensors(views, m, indices) == TENSOR_OK;
    for (int64_t k = 0; indices_broadcast && k < m; k++) tensor_release(views[k]);
    if (indices_broadcast)
      PyErr_Format(PyExc_RuntimeError, "shape mismatch: value tensor cannot be broadcast to the indexing result: %s",
                   message);
    else
      PyErr_SetString(PyExc_IndexError, message);
    return -1;
  }
  if (st != TENSOR_OK) {
    ct_raise(st);
    return -1;
  }
  return 0;
}
