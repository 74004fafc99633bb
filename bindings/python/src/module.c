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

#define KW(fn) (PyCFunction)(void (*)(void))(fn), METH_VARARGS | METH_KEYWORDS

static PyMethodDef module_methods[] = {
    {"promote_types", promote_types, METH_VARARGS, "promote_types(a, b): torch's dtype promotion."},
    {"is_tensor", is_tensor, METH_O, "is_tensor(obj): isinstance(obj, ctensor.Tensor)."},
    {"get_default_dtype", get_default_dtype, METH_NOARGS, "ctensor.float32, as torch's default."},
    {NULL, NULL, 0, NULL},
};

/* Until their files register their own (ct_X_register): the functions and
   tensor methods of buffer.c, asarray.c, factories.c, numpy.c,
   pickle.c, registered.c, testing.c and files.c. */
static PyMethodDef unregistered_functions[] = {
    {"frombuffer", KW(ct_frombuffer),
     "frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False): a 1-D tensor sharing a "
     "buffer-protocol object's memory; read-only exporters give read-only tensors."},
    {"_rebuild_tensor", ct_rebuild_tensor, METH_VARARGS, "Unpickles a tensor (see Tensor.__reduce_ex__)."},
    {"_set_size_type", ct_set_size_type, METH_O, "Registers ctensor.Size (the package does, on import)."},
    {"_set_device_type", ct_set_device_type, METH_O, "Registers ctensor.device (the package does, on import)."},
    {"_set_repr", ct_set_repr, METH_O, "Registers the function behind repr(t) (the package does, on import)."},
    {"_rebuild_storage", ct_rebuild_storage, METH_O, "Unpickles a storage (see UntypedStorage.__reduce_ex__)."},
    {"_release_in_native_thread", ct_release_in_native_thread, METH_VARARGS,
     "Test hook: a non-Python thread drops a reference to the tensor once it reads a byte from fd."},
    {"_numpy_direct_read", ct_numpy_direct_read_hook, METH_VARARGS,
     "Test hook: whether from_numpy reads plain ndarrays directly; False: buffer path only, True: check again."},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef unregistered_methods[] = {
    {"__reduce__", ct_tensor_reduce, METH_NOARGS, NULL},
    {"__reduce_ex__", ct_tensor_reduce_ex, METH_O, "Pickles the storage once, then the view (protocol 5: out of band)."},
    {"is_shared", ct_tensor_is_shared, METH_NOARGS, "True if the storage is in shared memory (fd-backed)."},
    {"share_memory_", ct_tensor_share_memory_, METH_NOARGS, "Moves the tensor to shared memory (no-op if there); returns self."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef unregistered_getset[] = {
    {NULL, NULL, NULL, NULL, NULL},
};

static void unregistered_slots(PyTypeObject *type) {
  type->tp_repr = ct_tensor_repr;
  type->tp_as_buffer = &ct_tensor_as_buffer;
}

static struct PyModuleDef ctensor_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ctensor._C",
    .m_doc = "PyTorch's storage and strided-view memory model on libctensor: frombuffer, asarray, "
             "from_numpy, from_dlpack, views.",
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
  unregistered_slots(&Ct_TensorType);
  if (ct_dtype_init(module) < 0 || ct_tensor_init(module) < 0 || ct_add_functions(module, module_methods) < 0 ||
      ct_values_register(module) < 0 || ct_views_register(module) < 0 || ct_math_register(module) < 0 ||
      ct_select_ops_register(module) < 0 || ct_split_register(module) < 0 || ct_numpy_register(module) < 0 ||
      ct_asarray_register(module) < 0 ||
      ct_add_functions(module, unregistered_functions) < 0 || ct_tensor_add_methods(unregistered_methods) < 0 ||
      ct_tensor_add_getset(unregistered_getset) < 0 || ct_storage_init(module) < 0 || ct_dlpack_register(module) < 0 || ct_capi_register(module) < 0 ||
      ct_buffer_init(module) < 0 || ct_add_functions(module, ct_factory_methods) < 0 ||
      ct_add_functions(module, ct_files_methods) < 0 || ct_files_init(module) < 0 ||
      ct_arrow_register(module) < 0 ||
      PyModule_AddStringConstant(module, "__version__", tensor_version_string()) < 0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
