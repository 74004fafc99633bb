/* Tensor.split / chunk / unbind: tuples of views along one dim (narrow/select). */
#include "ctensor_py.h"

#define SELF(o) (((TensorObject *)(o))->t)

/* A tuple of consecutive t.narrow(dim, start, lengths[i]); frees `lengths`. */
static PyObject *narrows(const tensor_t *t, int64_t dim, int64_t n, int64_t *lengths) {
  PyObject *tuple = PyTuple_New(n);
  int64_t start = 0;
  for (int64_t i = 0; tuple && i < n; i++) {
    tensor_t *out = NULL;
    tensor_status_t st = tensor_narrow(&out, t, dim, start, lengths[i]);
    PyObject *item = st == TENSOR_OK ? ct_tensor_wrap(out) : ct_raise(st);
    if (!item) {
      Py_CLEAR(tuple);
      break;
    }
    PyTuple_SET_ITEM(tuple, i, item);
    start += lengths[i];
  }
  PyMem_Free(lengths);
  return tuple;
}

static int64_t *new_lengths(int64_t n) {
  int64_t *lengths = PyMem_Malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  if (!lengths) PyErr_NoMemory();
  return lengths;
}

/* torch's split with an int size: equal pieces, the last one shorter. */
static PyObject *split_by_size(const tensor_t *t, int64_t dim, int64_t size) {
  const int64_t dim_size = tensor_sizes(t)[dim];
  if (size < 0) {
    PyErr_Format(PyExc_RuntimeError, "split expects split_size be non-negative, but got split_size=%lld",
                 (long long)size);
    return NULL;
  }
  if (size == 0 && dim_size != 0) {
    PyErr_Format(PyExc_RuntimeError,
                 "split_size can only be 0 if dimension size is 0, but got dimension size of %lld",
                 (long long)dim_size);
    return NULL;
  }
  const int64_t n = size && dim_size ? (dim_size + size - 1) / size : 1;
  int64_t *lengths = new_lengths(n);
  if (!lengths) return NULL;
  for (int64_t i = 0; i < n; i++) lengths[i] = size;
  lengths[n - 1] = size - (size * n - dim_size);
  return narrows(t, dim, n, lengths);
}

/* The dim argument, wrapped; 0-dim tensors have none to split. */
static int parse_dim(PyObject *obj, const tensor_t *t, int64_t *dim, const char *what) {
  *dim = 0;
  if (obj && (*dim = PyLong_AsLongLong(obj)) == -1 && PyErr_Occurred()) return -1;
  if (tensor_ndim(t) == 0) {
    PyErr_Format(PyExc_RuntimeError, "%s expects at least a 1-dimensional tensor", what);
    return -1;
  }
  return ct_wrap_dim(dim, tensor_ndim(t));
}

PyObject *ct_tensor_split(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"split_size_or_sections", "dim", NULL};
  static char *kwlist_method[] = {"split_size", "dim", NULL}; /* Tensor.split's own name */
  PyObject *how, *dim_obj = NULL;
  const int method_name = kwargs && PyDict_GetItemString(kwargs, "split_size") != NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:split", method_name ? kwlist_method : kwlist, &how, &dim_obj))
    return NULL;
  const tensor_t *t = SELF(self);
  int64_t dim;
  if (parse_dim(dim_obj, t, &dim, "split") < 0) return NULL;
  if (PyIndex_Check(how)) {
    const long long size = PyLong_AsLongLong(how);
    return size == -1 && PyErr_Occurred() ? NULL : split_by_size(t, dim, size);
  }
  PyObject *fast = PySequence_Fast(how, "split(): split_size_or_sections must be an int or a sequence of ints");
  if (!fast) return NULL;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  int64_t *lengths = new_lengths(n), sum = 0;
  for (Py_ssize_t i = 0; lengths && i < n; i++) {
    lengths[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
    sum += lengths[i];
  }
  Py_DECREF(fast);
  if (!lengths || PyErr_Occurred()) {
    PyMem_Free(lengths);
    return NULL;
  }
  if (sum != tensor_sizes(t)[dim]) {
    PyErr_Format(PyExc_RuntimeError,
                 "split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's size at "
                 "dimension %lld), but got split_sizes summing to %lld",
                 (long long)tensor_sizes(t)[dim], (long long)dim, (long long)sum);
    PyMem_Free(lengths);
    return NULL;
  }
  return narrows(t, dim, n, lengths);
}

PyObject *ct_tensor_chunk(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"chunks", "dim", NULL};
  long long chunks;
  PyObject *dim_obj = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "L|O:chunk", kwlist, &chunks, &dim_obj)) return NULL;
  const tensor_t *t = SELF(self);
  int64_t dim;
  if (parse_dim(dim_obj, t, &dim, "chunk") < 0) return NULL;
  if (chunks <= 0) {
    PyErr_Format(PyExc_RuntimeError, "chunk expects `chunks` to be greater than 0, got: %lld", chunks);
    return NULL;
  }
  const int64_t dim_size = tensor_sizes(t)[dim];
  const int64_t size = (dim_size + chunks - 1) / chunks;
  if (size == 0 && dim_size == 0) { /* torch: `chunks` empty pieces */
    int64_t *lengths = new_lengths(chunks);
    if (!lengths) return NULL;
    for (int64_t i = 0; i < chunks; i++) lengths[i] = 0;
    return narrows(t, dim, chunks, lengths);
  }
  return split_by_size(t, dim, size);
}

PyObject *ct_tensor_unbind(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim", NULL};
  PyObject *dim_obj = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:unbind", kwlist, &dim_obj)) return NULL;
  const tensor_t *t = SELF(self);
  int64_t dim;
  if (parse_dim(dim_obj, t, &dim, "unbind") < 0) return NULL;
  const int64_t n = tensor_sizes(t)[dim];
  PyObject *tuple = PyTuple_New(n);
  for (int64_t i = 0; tuple && i < n; i++) {
    tensor_t *out = NULL;
    tensor_status_t st = tensor_select(&out, t, dim, i);
    PyObject *item = st == TENSOR_OK ? ct_tensor_wrap(out) : ct_raise(st);
    if (!item) {
      Py_CLEAR(tuple);
      break;
    }
    PyTuple_SET_ITEM(tuple, i, item);
  }
  return tuple;
}
