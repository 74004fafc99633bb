/* ctensor.UntypedStorage: the refcounted bytes a tensor views (torch's
   Tensor.untyped_storage()). Two views of one storage give equal objects. */
#include "ctensor_py.h"

typedef struct {
  PyObject_HEAD
  tensor_storage_t *s;
} StorageObject;

#define STORAGE(o) (((StorageObject *)(o))->s)

PyObject *ct_storage_wrap(tensor_storage_t *s) {
  StorageObject *obj = PyObject_New(StorageObject, &Ct_StorageType);
  if (!obj) {
    tensor_storage_release(s);
    return NULL;
  }
  obj->s = s;
  return (PyObject *)obj;
}

static void storage_dealloc(PyObject *self) {
  tensor_storage_release(STORAGE(self));
  PyObject_Free(self);
}

static PyObject *storage_data_ptr(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyLong_FromVoidPtr(tensor_storage_data(STORAGE(self)));
}

static PyObject *storage_nbytes(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyLong_FromSize_t(tensor_storage_nbytes(STORAGE(self)));
}

static Py_ssize_t storage_len(PyObject *self) {
  return (Py_ssize_t)tensor_storage_nbytes(STORAGE(self));
}

static PyObject *storage_is_readonly(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyBool_FromLong(tensor_storage_is_readonly(STORAGE(self)));
}

static PyObject *storage_richcompare(PyObject *self, PyObject *other, int op) {
  if ((op != Py_EQ && op != Py_NE) || !PyObject_TypeCheck(other, &Ct_StorageType)) Py_RETURN_NOTIMPLEMENTED;
  const int same = STORAGE(self) == STORAGE(other);
  return PyBool_FromLong(op == Py_EQ ? same : !same);
}

/* Equal storages hash alike: by the handle's address. */
static Py_hash_t storage_hash(PyObject *self) {
  Py_hash_t h = (Py_hash_t)((uintptr_t)STORAGE(self) >> 4);
  return h == -1 ? -2 : h;
}

static PyObject *storage_repr(PyObject *self) {
  return PyUnicode_FromFormat("<ctensor.UntypedStorage of %zu bytes at %p>",
                              tensor_storage_nbytes(STORAGE(self)), tensor_storage_data(STORAGE(self)));
}

static PyMethodDef storage_methods[] = {
    {"data_ptr", storage_data_ptr, METH_NOARGS, "Address of the first byte."},
    {"nbytes", storage_nbytes, METH_NOARGS, "Size in bytes."},
    {"size", storage_nbytes, METH_NOARGS, "Size in bytes (untyped: one element is one byte)."},
    {"is_readonly", storage_is_readonly, METH_NOARGS, "True if every view of it is read-only."},
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods storage_as_sequence = {
    .sq_length = storage_len,
};

PyTypeObject Ct_StorageType = {
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
    .tp_methods = storage_methods,
};
