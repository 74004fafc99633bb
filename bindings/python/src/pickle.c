/* Pickling, as torch pickles: a tensor is its storage plus dtype, sizes, strides
   and offset, and the storage is one object for all views of it (so pickling
   several views saves the bytes once, and loading gives views of one storage).
   Protocol 5 hands the storage's bytes over as a PickleBuffer: with a
   buffer_callback they go out of band and loads() wraps the buffers it is given
   without copying (multiprocessing, Dask, Ray); other protocols copy the bytes.
   A loaded storage is writable: read-only bytes are copied into a new one. */
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

/* The live UntypedStorage object of each storage that one is being pickled for:
   address -> weak reference (dropped when the object goes). Pickle's memo keeps
   the object alive during a dump, so every view of a storage reduces to it. */
static PyObject *storage_objects;

static PyObject *forget_storage(PyObject *key, PyObject *ref) {
  PyObject *now = PyDict_GetItemWithError(storage_objects, key);
  if (now == ref && PyDict_DelItem(storage_objects, key) < 0) return NULL;
  if (!now && PyErr_Occurred()) return NULL;
  Py_RETURN_NONE;
}

static PyMethodDef forget_storage_def = {"forget_storage", forget_storage, METH_O, NULL};

static PyObject *storage_object(tensor_storage_t *s) {
  if (!storage_objects && !(storage_objects = PyDict_New())) return NULL;
  PyObject *key = PyLong_FromVoidPtr(s);
  if (!key) return NULL;
  PyObject *ref = PyDict_GetItemWithError(storage_objects, key);
  if (ref) {
    PyObject *obj = PyWeakref_GetObject(ref);
    if (obj && obj != Py_None) {
      Py_DECREF(key);
      return Py_NewRef(obj);
    }
  }
  PyObject *obj = PyErr_Occurred() ? NULL : ct_storage_wrap(tensor_storage_retain(s));
  PyObject *callback = obj ? PyCFunction_New(&forget_storage_def, key) : NULL;
  ref = callback ? PyWeakref_NewRef(obj, callback) : NULL;
  if (!ref || PyDict_SetItem(storage_objects, key, ref) < 0) Py_CLEAR(obj);
  Py_XDECREF(ref);
  Py_XDECREF(callback);
  Py_DECREF(key);
  return obj;
}

static PyObject *module_attr(const char *name) {
  PyObject *module = PyImport_ImportModule("ctensor");
  PyObject *attr = module ? PyObject_GetAttrString(module, name) : NULL;
  Py_XDECREF(module);
  return attr;
}

PyObject *ct_tensor_reduce_ex(PyObject *self, PyObject *protocol) {
  (void)protocol; /* the storage chooses how its bytes travel */
  const tensor_t *t = SELF(self);
  if (ct_check_cpu(t, "pickle") < 0) return NULL;
  PyObject *rebuild = module_attr("_rebuild_tensor");
  PyObject *storage = rebuild ? storage_object(tensor_storage(t)) : NULL;
  if (!storage) {
    Py_XDECREF(rebuild);
    return NULL;
  }
  const int64_t ndim = tensor_ndim(t);
  return Py_BuildValue("(N(NONNL))", rebuild, storage, ct_dtype_object(tensor_dtype(t)),
                       int64_tuple(ndim, tensor_sizes(t)), int64_tuple(ndim, tensor_strides(t)),
                       (long long)tensor_storage_offset(t));
}

PyObject *ct_tensor_reduce(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return ct_tensor_reduce_ex(self, NULL);
}

/* UntypedStorage.__reduce_ex__: protocol 5 gives a PickleBuffer of the bytes
   (through a uint8 tensor over the whole storage, which holds it), older ones a
   bytes copy. */
PyObject *ct_storage_reduce_ex(PyObject *self, PyObject *protocol_obj) {
  const long protocol = PyLong_AsLong(protocol_obj);
  if (protocol == -1 && PyErr_Occurred()) return NULL;
  tensor_storage_t *s = ct_storage_of(self);
  const int64_t nbytes = (int64_t)tensor_storage_nbytes(s), one = 1;
  tensor_t *bytes = NULL;
  const tensor_status_t st = tensor_from_storage(&bytes, s, TENSOR_UINT8, 1, &nbytes, &one, 0);
  if (st != TENSOR_OK) return ct_raise(st);
  if (ct_check_cpu(bytes, "pickle") < 0) {
    tensor_release(bytes);
    return NULL;
  }
  PyObject *payload;
  if (protocol >= 5) {
    PyObject *view = ct_tensor_wrap(bytes);
    payload = view ? PyPickleBuffer_FromObject(view) : NULL;
    Py_XDECREF(view);
  } else {
    payload = PyBytes_FromStringAndSize(tensor_data(bytes), (Py_ssize_t)nbytes);
    tensor_release(bytes);
  }
  PyObject *rebuild = payload ? module_attr("_rebuild_storage") : NULL;
  if (!rebuild) {
    Py_XDECREF(payload);
    return NULL;
  }
  return Py_BuildValue("(N(N))", rebuild, payload);
}

/* A storage over the bytes of a buffer-protocol object: its own memory when it
   is writable and contiguous (the export is held until the storage goes), else
   a writable copy. NULL with an exception. */
static tensor_storage_t *storage_from_bytes(PyObject *obj) {
  Py_buffer view;
  tensor_storage_t *s = NULL;
  tensor_status_t st;
  if (PyObject_GetBuffer(obj, &view, PyBUF_CONTIG) == 0) {
    if (view.len == 0) { /* nothing to share */
      PyBuffer_Release(&view);
      st = tensor_storage_new(&s, 0);
      return st == TENSOR_OK ? s : (tensor_storage_t *)ct_raise(st);
    }
    Py_buffer *held = ct_buffer_hold(&view);
    if (!held) return NULL;
    tensor_t *t = NULL;
    st = tensor_from_buffer(&t, held->buf, (size_t)held->len, TENSOR_UINT8, -1, 0, 0, ct_buffer_release, held);
    if (st != TENSOR_OK) {
      PyBuffer_Release(held);
      PyMem_RawFree(held);
      return (tensor_storage_t *)ct_raise(st);
    }
    s = tensor_storage_retain(tensor_storage(t));
    tensor_release(t);
    return s;
  }
  PyErr_Clear();
  if (PyObject_GetBuffer(obj, &view, PyBUF_CONTIG_RO) < 0) return NULL;
  st = tensor_storage_new(&s, (size_t)view.len);
  if (st == TENSOR_OK) memcpy(tensor_storage_data(s), view.buf, (size_t)view.len);
  PyBuffer_Release(&view);
  return st == TENSOR_OK ? s : (tensor_storage_t *)ct_raise(st);
}

/* _rebuild_storage(bytes-like): the inverse of UntypedStorage.__reduce_ex__. */
PyObject *ct_rebuild_storage(PyObject *module, PyObject *obj) {
  (void)module;
  tensor_storage_t *s = storage_from_bytes(obj);
  return s ? ct_storage_wrap(s) : NULL;
}

/* _rebuild_tensor(storage or bytes-like, dtype, sizes, strides, offset): the
   inverse of Tensor.__reduce_ex__. */
PyObject *ct_rebuild_tensor(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *data;
  tensor_dtype_t dtype;
  PyObject *sizes_obj, *strides_obj;
  long long offset;
  if (!PyArg_ParseTuple(args, "OO&OOL:_rebuild_tensor", &data, ct_dtype_converter, &dtype, &sizes_obj,
                        &strides_obj, &offset))
    return NULL;
  int64_t sizes[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
  PyObject *one = PyTuple_Pack(1, sizes_obj);
  int64_t ndim = one ? ct_parse_sizes(one, sizes, "_rebuild_tensor") : -1;
  Py_XDECREF(one);
  one = ndim >= 0 ? PyTuple_Pack(1, strides_obj) : NULL;
  const int64_t nstrides = one ? ct_parse_sizes(one, strides, "_rebuild_tensor") : -1;
  Py_XDECREF(one);
  if (ndim < 0 || nstrides != ndim || dtype < 0) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_rebuild_tensor(): malformed tensor description");
    return NULL;
  }
  tensor_storage_t *storage = ct_storage_of(data);
  storage = storage ? tensor_storage_retain(storage) : storage_from_bytes(data);
  if (!storage) return NULL;
  tensor_t *t = NULL;
  const tensor_status_t st = tensor_from_storage(&t, storage, dtype, ndim, sizes, strides, offset);
  tensor_storage_release(storage);
  return st == TENSOR_OK ? ct_tensor_wrap(t) : ct_raise(st);
}
