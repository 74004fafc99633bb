/* Storages as Python objects: Tensor.untyped_storage() gives a
   ctensor.UntypedStorage (bytes), Tensor.storage() a ctensor.TypedStorage (the
   same bytes read as the tensor's dtype), as in PyTorch 1.13. Both compare equal
   when they are the same storage, so views of one storage are recognisable. */
#include <stddef.h>

#include "ctensor_py.h"

static PyTypeObject Ct_StorageType, Ct_TypedStorageType;

typedef struct {
  PyObject_HEAD
  tensor_storage_t *s;
  tensor_dtype_t dtype; /* TENSOR_UINT8 for untyped storages */
  PyObject *weakreflist;
} StorageObject;

#define STORAGE(o) (((StorageObject *)(o))->s)
#define DTYPE(o) (((StorageObject *)(o))->dtype)
#define IS_STORAGE(o) (PyObject_TypeCheck((o), &Ct_StorageType) || PyObject_TypeCheck((o), &Ct_TypedStorageType))

static PyObject *wrap(tensor_storage_t *s, PyTypeObject *type, tensor_dtype_t dtype) {
  StorageObject *obj = PyObject_New(StorageObject, type);
  if (!obj) {
    tensor_storage_release(s);
    return NULL;
  }
  obj->s = s;
  obj->dtype = dtype;
  obj->weakreflist = NULL;
  return (PyObject *)obj;
}

PyObject *ct_storage_wrap(tensor_storage_t *s) {
  return wrap(s, &Ct_StorageType, TENSOR_UINT8);
}

tensor_storage_t *ct_storage_of(PyObject *obj) {
  return IS_STORAGE(obj) ? STORAGE(obj) : NULL;
}

PyObject *ct_typed_storage_wrap(tensor_storage_t *s, tensor_dtype_t dtype) {
  return wrap(s, &Ct_TypedStorageType, dtype);
}

static void storage_dealloc(PyObject *self) {
  if (((StorageObject *)self)->weakreflist) PyObject_ClearWeakRefs(self);
  tensor_storage_release(STORAGE(self));
  PyObject_Free(self);
}

static Py_ssize_t storage_len(PyObject *self) {
  return (Py_ssize_t)(tensor_storage_nbytes(STORAGE(self)) / tensor_dtype_size(DTYPE(self)));
}

static PyObject *storage_data_ptr(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyLong_FromVoidPtr(tensor_storage_data(STORAGE(self)));
}

static PyObject *storage_nbytes(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyLong_FromSize_t(tensor_storage_nbytes(STORAGE(self)));
}

static PyObject *storage_size(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyLong_FromSsize_t(storage_len(self));
}

static PyObject *storage_element_size(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyLong_FromSize_t(tensor_dtype_size(DTYPE(self)));
}

static PyObject *storage_is_readonly(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyBool_FromLong(tensor_storage_is_readonly(STORAGE(self)));
}

static PyObject *storage_untyped(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return ct_storage_wrap(tensor_storage_retain(STORAGE(self)));
}

static PyObject *storage_get_dtype(PyObject *self, void *closure) {
  (void)closure;
  return Py_NewRef(ct_dtype_object(DTYPE(self)));
}

/* Reading elements needs CPU memory; a 1-D tensor over the whole storage does it. */
static tensor_t *as_tensor(PyObject *self) {
  tensor_t *t = NULL;
  const int64_t n = storage_len(self);
  tensor_status_t st = tensor_from_storage(&t, STORAGE(self), DTYPE(self), 1, &n, NULL, 0);
  if (st != TENSOR_OK) return (tensor_t *)ct_raise(st);
  if (ct_check_cpu(t, "storage") < 0) {
    tensor_release(t);
    return NULL;
  }
  return t;
}

static PyObject *storage_item(PyObject *self, Py_ssize_t i) {
  if (i < 0 || i >= storage_len(self)) {
    PyErr_Format(PyExc_IndexError, "index %zd out of range for storage of size %zd", i, storage_len(self));
    return NULL;
  }
  tensor_t *t = as_tensor(self);
  if (!t) return NULL;
  PyObject *v = ct_scalar_read(DTYPE(self), (const char *)tensor_data(t) + i * (Py_ssize_t)tensor_dtype_size(DTYPE(self)));
  tensor_release(t);
  return v;
}

static PyObject *storage_tolist(PyObject *self, PyObject *noargs) {
  (void)noargs;
  const Py_ssize_t n = storage_len(self);
  PyObject *list = PyList_New(n);
  for (Py_ssize_t i = 0; list && i < n; i++) {
    PyObject *v = storage_item(self, i);
    if (!v) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, i, v);
  }
  return list;
}

/* torch's Storage.__str__: one element per line, then a summary line naming the
   class as torch.typename does ("torch.storage.TypedStorage"). */
static PyObject *storage_repr(PyObject *self) {
  PyObject *info = Py_TYPE(self) == &Ct_TypedStorageType
                       ? PyUnicode_FromFormat("[ctensor.storage.TypedStorage(dtype=ctensor.%s, device=cpu) of size %zd]",
                                              tensor_dtype_name(DTYPE(self)), storage_len(self))
                       : PyUnicode_FromFormat("[ctensor.storage.UntypedStorage(device=cpu) of size %zd]", storage_len(self));
  PyObject *values = info ? storage_tolist(self, NULL) : NULL;
  PyObject *sep = values ? PyUnicode_FromString("\n ") : NULL;
  PyObject *strs = sep ? PyList_New(PyList_GET_SIZE(values)) : NULL;
  for (Py_ssize_t i = 0; strs && i < PyList_GET_SIZE(values); i++) {
    PyObject *s = PyObject_Str(PyList_GET_ITEM(values, i));
    if (!s) {
      Py_CLEAR(strs);
      break;
    }
    PyList_SET_ITEM(strs, i, s);
  }
  PyObject *body = strs ? PyUnicode_Join(sep, strs) : NULL;
  PyObject *r = body ? PyUnicode_FromFormat(" %U\n%U", body, info) : NULL;
  Py_XDECREF(body);
  Py_XDECREF(strs);
  Py_XDECREF(sep);
  Py_XDECREF(values);
  Py_XDECREF(info);
  return r;
}

static PyObject *storage_richcompare(PyObject *self, PyObject *other, int op) {
  if ((op != Py_EQ && op != Py_NE) || !IS_STORAGE(other) || Py_TYPE(other) != Py_TYPE(self))
    Py_RETURN_NOTIMPLEMENTED;
  const int same = STORAGE(self) == STORAGE(other) && DTYPE(self) == DTYPE(other);
  return PyBool_FromLong(op == Py_EQ ? same : !same);
}

/* Equal storages hash alike: by the handle's address. */
static Py_hash_t storage_hash(PyObject *self) {
  const Py_hash_t h = (Py_hash_t)((uintptr_t)STORAGE(self) >> 4);
  return h == -1 ? -2 : h;
}

#define NOARGS(name, fn, doc) {name, (PyCFunction)(void (*)(void))(fn), METH_NOARGS, doc}

static PyMethodDef untyped_methods[] = {
    NOARGS("data_ptr", storage_data_ptr, "Address of the first byte."),
    NOARGS("nbytes", storage_nbytes, "Size in bytes."),
    NOARGS("size", storage_size, "Size in bytes."),
    NOARGS("element_size", storage_element_size, "1."),
    NOARGS("tolist", storage_tolist, "The bytes as ints."),
    NOARGS("is_readonly", storage_is_readonly, "True if every view of it is read-only."),
    NOARGS("untyped", storage_untyped, "The storage itself, untyped."),
    {"__reduce_ex__", ct_storage_reduce_ex, METH_O, "Pickles the bytes (protocol 5: a PickleBuffer, zero-copy)."},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef typed_methods[] = {
    NOARGS("data_ptr", storage_data_ptr, "Address of the first byte."),
    NOARGS("nbytes", storage_nbytes, "Size in bytes."),
    NOARGS("size", storage_size, "Size in elements of dtype."),
    NOARGS("element_size", storage_element_size, "Bytes per element."),
    NOARGS("tolist", storage_tolist, "The elements as Python numbers."),
    NOARGS("is_readonly", storage_is_readonly, "True if every view of it is read-only."),
    NOARGS("untyped", storage_untyped, "The same storage as a ctensor.UntypedStorage."),
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef typed_getset[] = {
    {"dtype", storage_get_dtype, NULL, "Element type.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PySequenceMethods storage_as_sequence = {
    .sq_length = storage_len,
    .sq_item = storage_item,
};

static PyTypeObject Ct_StorageType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ctensor.UntypedStorage",
    .tp_basicsize = sizeof(StorageObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The refcounted bytes that tensors view.",
    .tp_dealloc = storage_dealloc,
    .tp_repr = storage_repr,
    .tp_hash = storage_hash,
    .tp_richcompare = storage_richcompare,
    .tp_as_sequence = &storage_as_sequence,
    .tp_methods = untyped_methods,
    .tp_weaklistoffset = offsetof(StorageObject, weakreflist),
};

static PyTypeObject Ct_TypedStorageType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ctensor.TypedStorage",
    .tp_basicsize = sizeof(StorageObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A storage read as elements of one dtype (Tensor.storage()).",
    .tp_dealloc = storage_dealloc,
    .tp_repr = storage_repr,
    .tp_hash = storage_hash,
    .tp_richcompare = storage_richcompare,
    .tp_as_sequence = &storage_as_sequence,
    .tp_methods = typed_methods,
    .tp_getset = typed_getset,
    .tp_weaklistoffset = offsetof(StorageObject, weakreflist),
};

int ct_storage_init(PyObject *module) {
  if (PyType_Ready(&Ct_StorageType) < 0 || PyType_Ready(&Ct_TypedStorageType) < 0) return -1;
  if (PyModule_AddObjectRef(module, "UntypedStorage", (PyObject *)&Ct_StorageType) < 0) return -1;
  return PyModule_AddObjectRef(module, "TypedStorage", (PyObject *)&Ct_TypedStorageType);
}
