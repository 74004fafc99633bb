/* ctensor.Size is a Python class (ctensor/_size.py); the package registers it
   here so that Tensor.shape and size() can make them. */
#include "ctensor_py.h"

static PyObject *size_type; /* the registered class (a tuple subclass), or NULL */

PyObject *ct_set_size_type(PyObject *module, PyObject *type) {
  (void)module;
  if (!PyType_Check(type) || !PyType_IsSubtype((PyTypeObject *)type, &PyTuple_Type)) {
    PyErr_SetString(PyExc_TypeError, "_set_size_type(): expected a tuple subclass");
    return NULL;
  }
  Py_XSETREF(size_type, Py_NewRef(type));
  Py_RETURN_NONE;
}

int ct_is_size(PyObject *obj) {
  return size_type && PyObject_TypeCheck(obj, (PyTypeObject *)size_type);
}

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
  if (!size_type) return tuple; /* _C used on its own: a plain tuple */
  PyObject *size = PyObject_CallOneArg(size_type, tuple);
  Py_DECREF(tuple);
  return size;
}
