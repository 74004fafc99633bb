/* The `ctensor` module: PyTorch's tensor-creation vocabulary on libctensor.
   Each concern lives in its own file (see ctensor_py.h); this one assembles them. */
#include "ctensor_py.h"

/* torch.reshape(t, ...) and friends: module functions that call the method of
   the same name on their first argument. Each gets its name as `self`. */
static PyObject *forward(PyObject *name, PyObject *args, PyObject *kwargs) {
  if (PyTuple_GET_SIZE(args) < 1 || !Ct_Tensor_Check(PyTuple_GET_ITEM(args, 0))) {
    PyErr_Format(PyExc_TypeError, "%U(): argument 'input' must be Tensor", name);
    return NULL;
  }
  PyObject *method = PyObject_GetAttr(PyTuple_GET_ITEM(args, 0), name);
  if (!method) return NULL;
  PyObject *rest = PyTuple_GetSlice(args, 1, PyTuple_GET_SIZE(args));
  PyObject *r = rest ? PyObject_Call(method, rest, kwargs) : NULL;
  Py_XDECREF(rest);
  Py_DECREF(method);
  return r;
}

#define FORWARD(name) {name, (PyCFunction)(void (*)(void))forward, METH_VARARGS | METH_KEYWORDS, "Tensor." name "(...) as a function."}

static PyMethodDef forwarded[] = {
    FORWARD("as_strided"), FORWARD("reshape"), FORWARD("transpose"),    FORWARD("permute"),
    FORWARD("t"),          FORWARD("squeeze"), FORWARD("unsqueeze"),    FORWARD("flatten"),
    FORWARD("narrow"),     FORWARD("select"),  FORWARD("clone"),        FORWARD("numel"),
    FORWARD("broadcast_to"), FORWARD("is_floating_point"), FORWARD("is_complex"), FORWARD("split"),
    FORWARD("chunk"),      FORWARD("unbind"),  FORWARD("swapaxes"),     FORWARD("swapdims"),
    FORWARD("movedim"),    FORWARD("moveaxis"), FORWARD("tensor_split"), FORWARD("diagonal"),
    FORWARD("unflatten"),
    {NULL, NULL, 0, NULL},
};

/* torch.no_grad & co. as context managers and decorators that do nothing:
   ctensor has no autograd, so code written with them runs unchanged. */
static PyObject *grad_mode_enter(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  Py_RETURN_NONE;
}

static PyObject *grad_mode_exit(PyObject *self, PyObject *args) {
  (void)self, (void)args;
  Py_RETURN_NONE; /* exceptions propagate */
}

static PyObject *grad_mode_call(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  PyObject *fn;
  if (kwargs || !PyArg_ParseTuple(args, "O:no_grad", &fn)) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "no_grad() decorates one function");
    return NULL;
  }
  return Py_NewRef(fn);
}

static PyObject *grad_mode_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  (void)args, (void)kwargs; /* set_grad_enabled(mode) and inference_mode(mode) take a flag */
  return type->tp_alloc(type, 0);
}

static PyMethodDef grad_mode_methods[] = {
    {"__enter__", grad_mode_enter, METH_NOARGS, NULL},
    {"__exit__", grad_mode_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GradModeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ctensor.no_grad",
    .tp_basicsize = sizeof(PyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A no-op stand-in for torch.no_grad/enable_grad/inference_mode/set_grad_enabled.",
    .tp_new = grad_mode_new,
    .tp_call = grad_mode_call,
    .tp_methods = grad_mode_methods,
};

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
  return Py_NewRef(ct_dtype_object(ct_promote_types(a, b)));
}

static PyObject *is_tensor(PyObject *module, PyObject *obj) {
  (void)module;
  return PyBool_FromLong(Ct_Tensor_Check(obj));
}

#define KW(fn) (PyCFunction)(void (*)(void))(fn), METH_VARARGS | METH_KEYWORDS

static PyMethodDef module_methods[] = {
    {"frombuffer", KW(ct_frombuffer),
     "frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False): a 1-D tensor sharing a "
     "buffer-protocol object's memory; read-only exporters give read-only tensors."},
    {"asarray", KW(ct_asarray),
     "asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False): torch.asarray's "
     "share-or-copy rules."},
    {"tensor", KW(ct_tensor_factory), "tensor(data, *, dtype=None): always a copy."},
    {"as_tensor", KW(ct_as_tensor), "as_tensor(data, dtype=None, device=None): shares tensors and NumPy arrays "
     "when dtype allows, else tensor(data)."},
    {"from_numpy", ct_from_numpy, METH_O, "from_numpy(ndarray): a tensor sharing the array's memory."},
    {"hsplit", ct_hsplit, METH_VARARGS, "hsplit(t, indices_or_sections): tensor_split along dim 1 (0 for 1-d)."},
    {"vsplit", ct_vsplit, METH_VARARGS, "vsplit(t, indices_or_sections): tensor_split along dim 0."},
    {"dsplit", ct_dsplit, METH_VARARGS, "dsplit(t, indices_or_sections): tensor_split along dim 2."},
    {"atleast_1d", ct_atleast_1d, METH_VARARGS, "atleast_1d(*tensors): views with at least 1 dim."},
    {"atleast_2d", ct_atleast_2d, METH_VARARGS, "atleast_2d(*tensors): views with at least 2 dims."},
    {"atleast_3d", ct_atleast_3d, METH_VARARGS, "atleast_3d(*tensors): views with at least 3 dims."},
    {"from_dlpack", ct_from_dlpack, METH_O, "from_dlpack(obj): a tensor sharing a DLPack producer's memory."},
    {"promote_types", promote_types, METH_VARARGS, "promote_types(a, b): torch's dtype promotion."},
    {"is_tensor", is_tensor, METH_O, "is_tensor(obj): isinstance(obj, ctensor.Tensor)."},
    {"get_default_dtype", get_default_dtype, METH_NOARGS, "ctensor.float32, as torch's default."},
    {"set_printoptions", KW(ct_set_printoptions),
     "set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None, profile=None, "
     "sci_mode=None), as torch.set_printoptions."},
    {"_rebuild_tensor", ct_rebuild_tensor, METH_VARARGS, "Unpickles a tensor (see Tensor.__reduce__)."},
    {"_release_in_native_thread", ct_release_in_native_thread, METH_VARARGS,
     "Test hook: a non-Python thread drops a reference to the tensor once it reads a byte from fd."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef ctensor_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ctensor",
    .m_doc = "PyTorch's storage and strided-view memory model on libctensor: frombuffer, asarray, "
             "from_numpy, from_dlpack, views, printing.",
    .m_size = -1,
    .m_methods = module_methods,
};

static int add_functions(PyObject *module, PyMethodDef *defs, PyObject *(*self_of)(PyMethodDef *)) {
  PyObject *modname = PyUnicode_FromString("ctensor");
  if (!modname) return -1;
  for (PyMethodDef *def = defs; def->ml_name; def++) {
    PyObject *self = self_of ? self_of(def) : NULL;
    if (self_of && !self) break;
    PyObject *fn = PyCFunction_NewEx(def, self, modname);
    Py_XDECREF(self);
    if (!fn || PyModule_AddObject(module, def->ml_name, fn) < 0) {
      Py_XDECREF(fn);
      break;
    }
  }
  Py_DECREF(modname);
  return PyErr_Occurred() ? -1 : 0;
}

static PyObject *name_of(PyMethodDef *def) {
  return PyUnicode_InternFromString(def->ml_name);
}

static int add_grad_modes(PyObject *module) {
  if (PyType_Ready(&GradModeType) < 0) return -1;
  static const char *names[] = {"no_grad", "enable_grad", "inference_mode", "set_grad_enabled"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (PyModule_AddObjectRef(module, names[i], (PyObject *)&GradModeType) < 0) return -1;
  return 0;
}

PyMODINIT_FUNC PyInit_ctensor(void) {
  if (tensor_version_number() < CTENSOR_VERSION_NUMBER) {
    PyErr_Format(PyExc_ImportError, "ctensor: libctensor %s is older than the headers this module was built with",
                 tensor_version_string());
    return NULL;
  }
  PyObject *module = PyModule_Create(&ctensor_module);
  if (!module) return NULL;
  if (ct_dtype_init(module) < 0 || ct_tensor_init(module) < 0 || ct_storage_init(module) < 0 || ct_device_init(module) < 0 || ct_dlpack_init(module) < 0 ||
      add_functions(module, ct_factory_methods, NULL) < 0 || add_functions(module, ct_math_functions, NULL) < 0 || add_functions(module, forwarded, name_of) < 0 ||
      PyModule_AddStringConstant(module, "__version__", tensor_version_string()) < 0 || add_grad_modes(module) < 0) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
