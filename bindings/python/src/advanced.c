/* Advanced indexing (integer and boolean index tensors or lists), as PyTorch
   and NumPy define it: the basic part of the index is applied as a view first
   (index.c); here the index tensors are broadcast together and the selected
   sub-tensors are copied out (getitem) or written to (setitem). The result is a
   new tensor, never a view. */
#include "ctensor_py.h"

#define SELF(o) (((TensorObject *)(o))->t)

typedef struct {
  int64_t m;                        /* index tensors, one per indexed dim */
  int64_t dims[TENSOR_MAX_DIMS];    /* the dims of the view they index, ascending */
  tensor_t *idx[TENSOR_MAX_DIMS];   /* int64, expanded to the broadcast shape */
  int64_t nb;                       /* the broadcast shape */
  int64_t b[TENSOR_MAX_DIMS];
  int64_t first;                    /* where the broadcast dims go in the result */
} Plan;

static void plan_release(Plan *p) {
  for (int64_t k = 0; k < p->m; k++) tensor_release(p->idx[k]);
  p->m = 0;
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
  tensor_t *dense = NULL;
  tensor_status_t st = tensor_contiguous(&dense, (tensor_t *)mask);
  if (st != TENSOR_OK) {
    ct_raise(st);
    return -1;
  }
  const uint8_t *bits = tensor_data(dense);
  const int64_t n = tensor_numel(dense);
  int64_t count = 0;
  for (int64_t i = 0; i < n; i++) count += bits[i] != 0;
  for (int64_t i = 0; i < k; i++) out[i] = NULL;
  for (int64_t i = 0; st == TENSOR_OK && i < k; i++) st = tensor_empty(&out[i], 1, &count, TENSOR_INT64);
  if (st == TENSOR_OK) { /* the coordinates of the true elements, in C order */
    int64_t coord[TENSOR_MAX_DIMS] = {0}, j = 0;
    for (int64_t i = 0; i < n; i++) {
      if (bits[i])
        for (int64_t d = 0; d < k; d++) ((int64_t *)tensor_data(out[d]))[j] = coord[d];
      j += bits[i] != 0;
      for (int64_t d = k - 1; d >= 0 && ++coord[d] == ms[d]; d--) coord[d] = 0;
    }
  }
  tensor_release(dense);
  if (st != TENSOR_OK) {
    for (int64_t i = 0; i < k; i++) tensor_release(out[i]);
    ct_raise(st);
    return -1;
  }
  return 0;
}

/* Broadcasts the index tensors and decides the result's layout: the broadcast
   dims replace the indexed ones in place if those are adjacent, else lead. */
static int make_plan(Plan *p, int64_t m, const int64_t *dims, tensor_t *const *idx) {
  p->m = 0;
  p->nb = 0;
  const tensor_status_t st = tensor_broadcast_tensors(p->idx, m, (const tensor_t *const *)idx);
  if (st != TENSOR_OK) {
    ct_raise_as(st, TENSOR_E_SHAPE, PyExc_IndexError); /* torch: "shape mismatch: indexing tensors ..." */
    return -1;
  }
  p->m = m;
  p->nb = m > 0 ? tensor_ndim(p->idx[0]) : 0;
  for (int64_t k = 0; k < m; k++) p->dims[k] = dims[k];
  for (int64_t i = 0; i < p->nb; i++) p->b[i] = tensor_sizes(p->idx[0])[i];
  int adjacent = 1;
  for (int64_t k = 1; k < m; k++) adjacent &= dims[k] == dims[k - 1] + 1;
  p->first = adjacent ? dims[0] : 0;
  return 0;
}

/* The result's shape: the view's dims with the indexed ones replaced. */
static int64_t result_shape(const Plan *p, const tensor_t *view, int64_t *sizes) {
  int64_t n = 0, k = 0;
  for (int64_t d = 0; d <= tensor_ndim(view); d++) {
    if (d == p->first)
      for (int64_t i = 0; i < p->nb; i++) sizes[n++] = p->b[i];
    if (d == tensor_ndim(view)) break;
    if (k < p->m && p->dims[k] == d) k++;
    else sizes[n++] = tensor_sizes(view)[d];
  }
  return n;
}

/* view with every indexed dim fixed at the indices of broadcast position `pos`. */
static tensor_t *pick_source(const Plan *p, const tensor_t *view, int64_t pos) {
  tensor_t *cur = tensor_retain((tensor_t *)view);
  for (int64_t k = p->m - 1; k >= 0; k--) { /* from the last dim, so earlier dims keep their numbers */
    const int64_t *strides = tensor_strides(p->idx[k]);
    int64_t offset = 0, rest = pos;
    for (int64_t i = p->nb - 1; i >= 0; i--) {
      offset += (rest % p->b[i]) * strides[i];
      rest /= p->b[i];
    }
    const int64_t index = ((const int64_t *)tensor_data(p->idx[k]))[offset];
    tensor_t *next = NULL;
    tensor_status_t st = tensor_select(&next, cur, p->dims[k], index);
    tensor_release(cur);
    if (st != TENSOR_OK) return (tensor_t *)ct_raise_as(st, TENSOR_E_INVALID, PyExc_IndexError);
    cur = next;
  }
  return cur;
}

/* The result (or value) block at broadcast position `pos`. */
static tensor_t *pick_result(const Plan *p, const tensor_t *result, int64_t pos) {
  tensor_t *cur = tensor_retain((tensor_t *)result);
  int64_t rest = pos, coords[TENSOR_MAX_DIMS];
  for (int64_t i = p->nb - 1; i >= 0; i--) {
    coords[i] = rest % p->b[i];
    rest /= p->b[i];
  }
  for (int64_t i = 0; i < p->nb; i++) { /* each select removes dim `first`, the next one moves up */
    tensor_t *next = NULL;
    tensor_status_t st = tensor_select(&next, cur, p->first, coords[i]);
    tensor_release(cur);
    if (st != TENSOR_OK) return (tensor_t *)ct_raise(st);
    cur = next;
  }
  return cur;
}

static int64_t positions(const Plan *p) {
  int64_t n = 1;
  for (int64_t i = 0; i < p->nb; i++) n *= p->b[i];
  return n;
}

/* For every broadcast position, copies the view's block into the result's slot
   (getitem) or the value's slot into the view's block (setitem). */
static int transfer(const Plan *p, tensor_t *view, tensor_t *result, int to_result) {
  const int64_t n = positions(p);
  for (int64_t pos = 0; pos < n; pos++) {
    tensor_t *block = pick_source(p, view, pos);
    tensor_t *slot = block ? pick_result(p, result, pos) : NULL;
    tensor_status_t st = TENSOR_OK;
    if (slot) st = to_result ? tensor_copy(slot, block) : tensor_copy(block, slot);
    tensor_release(block);
    tensor_release(slot);
    if (!slot) return -1;
    if (st != TENSOR_OK) {
      ct_raise(st);
      return -1;
    }
  }
  return 0;
}

PyObject *ct_advanced_get(tensor_t *view, int64_t m, const int64_t *dims, tensor_t *const *idx) {
  Plan p;
  if (make_plan(&p, m, dims, idx) < 0) return NULL;
  int64_t sizes[TENSOR_MAX_DIMS];
  const int64_t n = result_shape(&p, view, sizes);
  tensor_t *out = NULL;
  tensor_status_t st = tensor_empty(&out, n, sizes, tensor_dtype(view));
  if (st != TENSOR_OK) {
    plan_release(&p);
    return ct_raise(st);
  }
  const int rc = transfer(&p, view, out, 1);
  plan_release(&p);
  if (rc < 0) {
    tensor_release(out);
    return NULL;
  }
  return ct_tensor_wrap(out);
}

int ct_advanced_set(tensor_t *view, int64_t m, const int64_t *dims, tensor_t *const *idx, tensor_t *value) {
  Plan p;
  if (make_plan(&p, m, dims, idx) < 0) return -1;
  int64_t sizes[TENSOR_MAX_DIMS];
  const int64_t n = result_shape(&p, view, sizes);
  tensor_t *expanded = NULL;
  tensor_status_t st = tensor_expand(&expanded, value, n, sizes);
  if (st != TENSOR_OK) {
    plan_release(&p);
    PyErr_Format(PyExc_RuntimeError, "shape mismatch: value tensor cannot be broadcast to the indexing result: %s",
                 tensor_last_error());
    return -1;
  }
  const int rc = transfer(&p, view, expanded, 0);
  tensor_release(expanded);
  plan_release(&p);
  return rc;
}
