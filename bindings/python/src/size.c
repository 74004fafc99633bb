/* ctensor.Size: torch.Size's twin, a tuple subclass printed as ctensor.Size([2, 3]). */
#include "ctensor_py.h"


static PyObject *size_repr(PyObject *self) {
  PyObject *list = PySequence_List(self);
  if (!list) return NULL;
  PyObject *r = PyUnicode_FromFormat("ctensor.Size(%R)", list);
  Py_DECREF(list);
  return r;
}

static PyObject *size_numel(PyObject *self, PyObject *noargs) {
  (void)noargs;
  PyObject *n = PyLong_FromLong(1);
  for (Py_ssize_t i = 0; n && i < PyTuple_GET_SIZE(self); i++) {
    PyObject *next = PyNumber_Multiply(n, PyTuple_GET_ITEM(self, i));
    Py_DECREF(n);
    n = next;
  }
  return n;
}

/* Size + tuple and Size[a:b] stay Sizes, as torch.Size's do. */
static PyObject *as_size(PyObject *tuple) {
  if (!tuple || !PyTuple_Check(tuple)) return tuple;
  PyObject *size = PyObject_CallOneArg((PyObject *)&Ct_SizeType, tuple);
  Py_DECREF(tuple);
  return size;
}

static PyObject *size_concat(PyObject *a, PyObject *b) {
  if (!PyTuple_Check(a) || !PyTuple_Check(b)) Py_RETURN_NOTIMPLEMENTED;
  return as_size(PyTuple_Type.tp_as_sequence->sq_concat(a, b));
}

static PyObject *size_repeat(PyObject *a, Py_ssize_t n) {
  return as_size(PyTuple_Type.tp_as_sequence->sq_repeat(a, n));
}

static PyObject *size_subscript(PyObject *self, PyObject *key) {
  PyObject *r = PyTuple_Type.tp_as_mapping->mp_subscript(self, key);
  return PySlice_Check(key) ? as_size(r) : r;
}

static PyMappingMethods size_as_mapping = {.mp_subscript = size_subscript};

static PyMethodDef size_methods[] = {
    {"numel", size_numel, METH_NOARGS, "Product of the sizes."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject Ct_SizeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ctensor.Size",
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A tensor's shape: a tuple of ints.",
    .tp_repr = size_repr,
    .tp_methods = size_methods,
    .tp_as_mapping = &size_as_mapping,
};

PyObject *ct_size_new(int64_t ndim, const int64_t *sizes) {
  PyObject *tuple = PyTuple_New(ndim);
  if (!tuple) return NULL;
  for (int64_t i = 0; i < ndim; i++) {
    PyObject *v = PyLong_FromLongLong(sizes[i]);
    if (!v) {
      Py_DECREF(tuple);
      return NULL;
    }
    PyTuple_SET_ITEM(tuple, i, v);
  }
  PyObject *size = PyObject_CallOneArg((PyObject *)&Ct_SizeType, tuple);
  Py_DECREF(tuple);
  return size;
}

int ct_size_init(PyObject *module) {
  Ct_SizeType.tp_base = &PyTuple_Type;
  static PySequenceMethods seq;
  seq = *PyTuple_Type.tp_as_sequence;
  seq.sq_concat = size_concat;
  seq.sq_repeat = size_repeat;
  Ct_SizeType.tp_as_sequence = &seq;
  if (PyType_Ready(&Ct_SizeType) < 0) return -1;
  return PyModule_AddObjectRef(module, "Size", (PyObject *)&Ct_SizeType);
}
