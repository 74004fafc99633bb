/* The C half of ctensor/_capi.py, the package's ctypes layer over libctensor:
   handles to Tensor objects and back, and the one status -> exception mapping
   (errors.c) for the statuses Python receives. */
#include "ctensor_py.h"

/* _from_handle(address): a Tensor taking over the reference a tensor_t* holds. */
static PyObject *from_handle(PyObject *module, PyObject *address) {
  (void)module;
  tensor_t *t = PyLong_AsVoidPtr(address);
  if (!t && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_from_handle(): the handle is NULL");
  return t ? ct_tensor_wrap(t) : NULL;
}

/* _raise(status): raises what C callers raise for the status (ct_raise). */
static PyObject *raise_status(PyObject *module, PyObject *status) {
  (void)module;
  const long st = PyLong_AsLong(status);
  return st == -1 && PyErr_Occurred() ? NULL : ct_raise((tensor_status_t)st);
}

static PyObject *get_handle(PyObject *self, void *closure) {
  (void)closure;
  return PyLong_FromVoidPtr(((TensorObject *)self)->t);
}

static PyGetSetDef handle_getset[] = {
    {"_handle", get_handle, NULL, "The tensor_t* (borrowed) as an int.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef capi_functions[] = {
    {"_from_handle", from_handle, METH_O, "_from_handle(address): a Tensor owning a tensor_t* reference."},
    {"_raise", raise_status, METH_O, "_raise(status): raises the exception of a tensor_status_t."},
    {NULL, NULL, 0, NULL},
};

int ct_capi_register(PyObject *module) {
  return ct_tensor_add_getset(handle_getset) < 0 ? -1 : PyModule_AddFunctions(module, capi_functions);
}
