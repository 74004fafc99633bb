/* Pickling (and copy.copy): a tensor is saved as the bytes of its whole storage
   plus dtype, sizes, strides and offset, as torch saves a storage and a view of
   it, so a loaded tensor has the same layout. Read-only or not, it loads as a
   fresh writable storage. */
#include <string.h>

#include "ctensor_py.h"

#define SELF(o) (((TensorObject *)(o))->t)

static PyObject *int64_tuple(int64_t n, const int64_t *values) {
  PyObject *tuple = PyTuple_New(n);
  for (int64_t i = 0; tuple && i < n; i++) {
    PyObject *v = PyLong_FromLongLong(values[i]);
    if (!v) {
      Py_CLEAR(tuple);
      break;
    }
    PyTuple_SET_ITEM(tuple, i, v);
  }
  return tuple;
}

PyObject *ct_tensor_reduce(PyObject *self, PyObject *noargs) {
  (void)noargs;
  const tensor_t *t = SELF(self);
  if (ct_check_cpu(t, "pickle") < 0) return NULL;
  const tensor_storage_t *s = tensor_storage(t);
  PyObject *module = PyImport_ImportModule("ctensor");
  PyObject *rebuild = module ? PyObject_GetAttrString(module, "_rebuild_tensor") : NULL;
  Py_XDECREF(module);
  if (!rebuild) return NULL;
  const int64_t ndim = tensor_ndim(t);
  return Py_BuildValue("(N(y#ONNL))", rebuild, (const char *)tensor_storage_data(s),
                       (Py_ssize_t)tensor_storage_nbytes(s), ct_dtype_object(tensor_dtype(t)),
                       int64_tuple(ndim, tensor_sizes(t)), int64_tuple(ndim, tensor_strides(t)),
                       (long long)tensor_storage_offset(t));
}

/* _rebuild_tensor(data, dtype, sizes, strides, offset): the inverse of __reduce__. */
PyObject *ct_rebuild_tensor(PyObject *module, PyObject *args) {
  (void)module;
  Py_buffer data;
  tensor_dtype_t dtype;
  PyObject *sizes_obj, *strides_obj;
  long long offset;
  if (!PyArg_ParseTuple(args, "y*O&OOL:_rebuild_tensor", &data, ct_dtype_converter, &dtype, &sizes_obj,
                        &strides_obj, &offset))
    return NULL;
  int64_t sizes[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
  PyObject *one = PyTuple_Pack(1, sizes_obj);
  int64_t ndim = one ? ct_parse_sizes(one, sizes, "_rebuild_tensor") : -1;
  Py_XDECREF(one);
  one = ndim >= 0 ? PyTuple_Pack(1, strides_obj) : NULL;
  const int64_t nstrides = one ? ct_parse_sizes(one, strides, "_rebuild_tensor") : -1;
  Py_XDECREF(one);
  tensor_storage_t *storage = NULL;
  tensor_t *t = NULL;
  tensor_status_t st = TENSOR_OK;
  if (ndim >= 0 && nstrides == ndim && dtype >= 0) {
    st = tensor_storage_new(&storage, (size_t)data.len);
    if (st == TENSOR_OK) {
      memcpy(tensor_storage_data(storage), data.buf, (size_t)data.len);
      st = tensor_from_storage(&t, storage, dtype, ndim, sizes, strides, offset);
    }
    tensor_storage_release(storage);
  } else if (!PyErr_Occurred()) {
    PyErr_SetString(PyExc_ValueError, "_rebuild_tensor(): malformed tensor description");
  }
  PyBuffer_Release(&data);
  if (PyErr_Occurred()) return NULL;
  return st == TENSOR_OK ? ct_tensor_wrap(t) : ct_raise(st);
}
