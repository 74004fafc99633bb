/* Basic indexing: ints, slices (negative steps too), None, ... and bools, each
   mapped onto select/slice/unsqueeze views. Assignment writes through such a
   view with tensor_copy, converting and broadcasting the value. */
#include "ctensor_py.h"

#define SELF(o) (((TensorObject *)(o))->t)

/* Replaces *cur by the result of a view call (consuming the old reference). */
static int step(tensor_t **cur, tensor_status_t st, tensor_t **next) {
  if (st != TENSOR_OK) {
    ct_raise_as(st, TENSOR_E_INVALID, PyExc_IndexError);
    return -1;
  }
  tensor_release(*cur);
  *cur = *next;
  *next = NULL;
  return 0;
}

static int is_bool_index(PyObject *item) {
  return PyBool_Check(item);
}

static int consumes_dim(PyObject *item) {
  return PySlice_Check(item) || (!is_bool_index(item) && item != Py_None && item != Py_Ellipsis &&
                                 PyIndex_Check(item));
}

/* The view t[index] as a new reference, or NULL with an exception. */
static tensor_t *index_view(tensor_t *t, PyObject *index) {
  PyObject *items = PyTuple_Check(index) ? Py_NewRef(index) : PyTuple_Pack(1, index);
  if (!items) return NULL;
  const Py_ssize_t n = PyTuple_GET_SIZE(items);
  int64_t consumed = 0, ellipses = 0;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *item = PyTuple_GET_ITEM(items, i);
    if (item == Py_Ellipsis) ellipses++;
    else if (consumes_dim(item)) consumed++;
    else if (item != Py_None && !is_bool_index(item)) {
      PyErr_Format(PyExc_TypeError, /* as torch, which tries to make an index tensor of it */
                   "only integers, slices (`:`), ellipsis (`...`), None and booleans are valid "
                   "indices (got %.200s)",
                   Py_TYPE(item)->tp_name);
      Py_DECREF(items);
      return NULL;
    }
  }
  const int64_t ndim = tensor_ndim(t);
  if (ellipses > 1) {
    PyErr_SetString(PyExc_IndexError, "an index can only have a single ellipsis ('...')");
    Py_DECREF(items);
    return NULL;
  }
  if (consumed > ndim) {
    PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %lld", (long long)ndim);
    Py_DECREF(items);
    return NULL;
  }
  tensor_t *cur = tensor_retain(t), *next = NULL;
  int64_t dim = 0;
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *item = PyTuple_GET_ITEM(items, i);
    int rc = 0;
    if (item == Py_Ellipsis) {
      dim += ndim - consumed;
    } else if (item == Py_None || is_bool_index(item)) {
      rc = step(&cur, tensor_unsqueeze(&next, cur, dim), &next);
      if (rc == 0 && item == Py_False) /* t[False] selects nothing along a new dim */
        rc = step(&cur, tensor_slice(&next, cur, dim, 0, 0, 1), &next);
      dim++;
    } else if (PySlice_Check(item)) {
      Py_ssize_t start, stop, stride;
      rc = PySlice_Unpack(item, &start, &stop, &stride); /* open ends become PY_SSIZE_T_MIN/MAX */
      if (rc == 0) rc = step(&cur, tensor_slice(&next, cur, dim, start, stop, stride), &next);
      dim++;
    } else {
      PyObject *number = PyNumber_Index(item);
      long long k = number ? PyLong_AsLongLong(number) : -1;
      Py_XDECREF(number);
      if (k == -1 && PyErr_Occurred()) rc = -1;
      else rc = step(&cur, tensor_select(&next, cur, dim, k), &next);
    }
    if (rc < 0) {
      tensor_release(cur);
      Py_DECREF(items);
      return NULL;
    }
  }
  Py_DECREF(items);
  return cur;
}

PyObject *ct_tensor_getitem(PyObject *self, PyObject *index) {
  return ct_tensor_wrap(index_view(SELF(self), index));
}

PyObject *ct_tensor_item_at(PyObject *self, Py_ssize_t i) {
  tensor_t *out = NULL;
  tensor_status_t st = tensor_select(&out, SELF(self), 0, i);
  if (st != TENSOR_OK) return ct_raise_as(st, TENSOR_E_INVALID, PyExc_IndexError);
  return ct_tensor_wrap(out);
}

int ct_assign(tensor_t *dst, PyObject *value) {
  tensor_t *src;
  if (Ct_Tensor_Check(value)) {
    src = tensor_retain(SELF(value));
  } else {
    const int kind = ct_scalar_kind(value);
    if (kind < 0) return -1;
    if (kind > 0) src = ct_scalar_tensor(value);
    else if (ct_is_numpy_array(value) > 0) src = ct_tensor_from_strided_buffer(value);
    else if (PyErr_Occurred()) return -1;
    else if (PyObject_HasAttrString(value, "__dlpack__")) src = ct_tensor_from_dlpack_object(value);
    else src = ct_tensor_from_data(value, tensor_dtype(dst));
  }
  if (!src) return -1;
  tensor_status_t st = tensor_copy(dst, src);
  tensor_release(src);
  if (st != TENSOR_OK) {
    ct_raise(st);
    return -1;
  }
  return 0;
}

int ct_tensor_setitem(PyObject *self, PyObject *index, PyObject *value) {
  if (!value) {
    PyErr_SetString(PyExc_TypeError, "Tensor does not support item deletion");
    return -1;
  }
  tensor_t *view = index_view(SELF(self), index);
  if (!view) return -1;
  const int rc = ct_assign(view, value);
  tensor_release(view);
  return rc;
}
