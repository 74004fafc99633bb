/* Storage objects are ctensor/_storage.py's (ctensor.UntypedStorage and
   ctensor.TypedStorage, each holding one tensor_storage_t reference); these make
   and read them for the C files. */
#include "ctensor_py.h"

static PyObject *storage_module(void) {
  static PyObject *module; /* ctensor._storage, imported once */
  return module ? module : (module = PyImport_ImportModule("ctensor._storage"));
}

static PyObject *wrap(tensor_storage_t *s, const char *type, tensor_dtype_t dtype) {
  PyObject *module = storage_module(), *cls = module ? PyObject_GetAttrString(module, type) : NULL;
  PyObject *obj = cls ? PyObject_CallMethod(cls, "_wrap", "Ni", PyLong_FromVoidPtr(s), (int)dtype) : NULL;
  Py_XDECREF(cls);
  if (!obj) tensor_storage_release(s);
  return obj;
}

PyObject *ct_storage_wrap(tensor_storage_t *s) {
  return wrap(s, "UntypedStorage", TENSOR_UINT8);
}

PyObject *ct_typed_storage_wrap(tensor_storage_t *s, tensor_dtype_t dtype) {
  return wrap(s, "TypedStorage", dtype);
}

tensor_storage_t *ct_storage_of(PyObject *obj) {
  PyObject *module = storage_module(), *base = module ? PyObject_GetAttrString(module, "_Storage") : NULL;
  const int is = base ? PyObject_IsInstance(obj, base) : -1;
  Py_XDECREF(base);
  PyObject *handle = is > 0 ? PyObject_GetAttrString(obj, "_handle") : NULL;
  tensor_storage_t *s = handle ? PyLong_AsVoidPtr(handle) : NULL;
  Py_XDECREF(handle);
  return s;
}
