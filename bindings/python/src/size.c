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
  if (PyType_Ready(&Ct_SizeType) < 0) return -1;
  return PyModule_AddObjectRef(module, "Size", (PyObject *)&Ct_SizeType);
}
