/* The extension module ctensor._C: PyTorch's tensor-creation vocabulary on
   libctensor; the package `ctensor` (../ctensor/__init__.py) exports it. Each
   concern lives in its own file and registers what it defines (see
   ctensor_py.h); this one assembles them. Functions name `ctensor` as their
   module: that is where users (and pickle) find them. */
#include "ctensor_py.h"

static PyObject *get_default_dtype(PyObject *module, PyObject *noargs) {
  (void)module, (void)noargs;
  return Py_NewRef(ct_dtype_object(TENSOR_FLOAT32));
}

static PyObject *promote_types(PyObject *module, PyObject *args) {
  (void)module;
  tensor_dtype_t a, b;
  if (!PyArg_ParseTuple(args, "O&O&:promote_types", ct_dtype_converter, &a, ct_dtype_converter, &b)) return NULL;
  if (a < 0 || b < 0) {
    PyErr_SetString(PyExc_TypeError, "promote_types(): arguments must be dtypes");
    return NULL;
  }
  tensor_dtype_t promoted;
  const tensor_status_t st = tensor_promote_types(&promoted, a, b);
  return st == TENSOR_OK ? Py_NewRef(ct_dtype_object(promoted)) : ct_raise(st);
}

static PyObject *is_tensor(PyObject *module, PyObject *obj) {
  (void)module;
  return PyBool_FromLong(Ct_Tensor_Check(obj));
}

static PyMethodDef module_methods[] = {
    {"promote_types", promote_types, METH_VARARGS, "promote_types(a, b): torch's dtype promotion."},
    {"is_tensor", is_tensor, METH_O, "is_tensor(obj): isinstance(obj, ctensor.Tensor)."},
    {"get_default_dtype", get_default_dtype, METH_NOARGS, "ctensor.float32, as torch's default."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef ctensor_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ctensor._C",
    .m_doc = "PyTorch's storage and strided-view memory model on libctensor: frombuffer, from_numpy, "
             "views, indexing (the package ctensor adds asarray, tensor, from_dlpack).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__C(void) {
  if (tensor_version_number() < CTENSOR_VERSION_NUMBER) {
    PyErr_Format(PyExc_ImportError, "ctensor: libctensor %s is older than the headers this module was built with",
                 tensor_version_string());
    return NULL;
  }
  PyObject *module = PyModule_Create(&ctensor_module);
  if (!module) return NULL;
  ct_values_slots(&Ct_TensorType);
  ct_math_slots(&Ct_TensorType);
  ct_index_slots(&Ct_TensorType);
  ct_buffer_slots(&Ct_TensorType);
  ct_registered_slots(&Ct_TensorType);
  if (ct_dtype_init(module) < 0 || ct_tensor_init(module) < 0 || ct_add_functions(module, module_methods) < 0 ||
      ct_values_register(module) < 0 || ct_views_register(module) < 0 || ct_math_register(module) < 0 ||
      ct_numpy_register(module) < 0 || ct_dlpack_register(module) < 0 || ct_capi_register(module) < 0 ||
      ct_buffer_register(module) < 0 || ct_factories_register(module) < 0 || ct_registered_register(module) < 0 ||
      ct_testing_register(module) < 0 || ct_arrow_register(module) < 0 ||
      PyModule_AddStringConstant(module, "__version__", tensor_version_string()) < 0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
