/* ctensor.device: torch.device's twin (repr device(type='cpu'), str 'cpu'),
   what Tensor.device returns. */
#include "ctensor_py.h"

typedef struct {
  PyObject_HEAD
  PyObject *type; /* str */
  int index;      /* -1: none */
} DeviceObject;

static PyTypeObject DeviceType;

static PyObject *device_make(PyObject *type, int index) {
  DeviceObject *d = PyObject_New(DeviceObject, &DeviceType);
  if (!d) return NULL;
  d->type = Py_NewRef(type);
  d->index = index;
  return (PyObject *)d;
}

/* device("cpu"), device("cuda:1"), device("cuda", 1), device(other_device) */
static PyObject *device_new(PyTypeObject *cls, PyObject *args, PyObject *kwargs) {
  (void)cls;
  static char *kwlist[] = {"type", "index", NULL};
  PyObject *spec, *index_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:device", kwlist, &spec, &index_obj)) return NULL;
  if (Py_IS_TYPE(spec, &DeviceType)) return Py_NewRef(spec);
  if (!PyUnicode_Check(spec)) {
    PyErr_Format(PyExc_TypeError, "device(): argument 'type' must be str, not %.200s", Py_TYPE(spec)->tp_name);
    return NULL;
  }
  int index = -1;
  PyObject *type = NULL;
  const Py_ssize_t colon = PyUnicode_FindChar(spec, ':', 0, PyUnicode_GET_LENGTH(spec), 1);
  if (colon == -2) return NULL;
  if (colon >= 0) {
    type = PyUnicode_Substring(spec, 0, colon);
    PyObject *rest = PyUnicode_Substring(spec, colon + 1, PyUnicode_GET_LENGTH(spec));
    PyObject *n = rest ? PyLong_FromUnicodeObject(rest, 10) : NULL;
    Py_XDECREF(rest);
    if (!n) {
      Py_XDECREF(type);
      PyErr_Clear();
      PyErr_Format(PyExc_RuntimeError, "Invalid device string: '%U'", spec);
      return NULL;
    }
    index = (int)PyLong_AsLong(n);
    Py_DECREF(n);
  } else {
    type = Py_NewRef(spec);
  }
  if (!type) return NULL;
  if (index_obj != Py_None) {
    index = (int)PyLong_AsLong(index_obj);
    if (index == -1 && PyErr_Occurred()) {
      Py_DECREF(type);
      return NULL;
    }
  }
  static const char *known[] = {"cpu", "cuda", "mps", "xpu", "meta", "hip", "xla", "vulkan", "ipu", "hpu", "ort", "mkldnn", "opengl", "opencl", "ideep", "ve", "lazy", "fpga", "msnpu"};
  int ok = 0;
  for (size_t i = 0; i < sizeof known / sizeof *known; i++) ok |= PyUnicode_CompareWithASCIIString(type, known[i]) == 0;
  if (!ok) {
    PyErr_Format(PyExc_RuntimeError, "Expected one of cpu, cuda, ... device type at start of device string: %U", spec);
    Py_DECREF(type);
    return NULL;
  }
  PyObject *d = device_make(type, index);
  Py_DECREF(type);
  return d;
}

static void device_dealloc(PyObject *self) {
  Py_DECREF(((DeviceObject *)self)->type);
  PyObject_Free(self);
}

static PyObject *device_repr(PyObject *self) {
  DeviceObject *d = (DeviceObject *)self;
  if (d->index < 0) return PyUnicode_FromFormat("device(type='%U')", d->type);
  return PyUnicode_FromFormat("device(type='%U', index=%d)", d->type, d->index);
}

static PyObject *device_str(PyObject *self) {
  DeviceObject *d = (DeviceObject *)self;
  if (d->index < 0) return Py_NewRef(d->type);
  return PyUnicode_FromFormat("%U:%d", d->type, d->index);
}

static PyObject *device_richcompare(PyObject *a, PyObject *b, int op) {
  if ((op != Py_EQ && op != Py_NE) || !Py_IS_TYPE(b, &DeviceType)) Py_RETURN_NOTIMPLEMENTED;
  const DeviceObject *x = (DeviceObject *)a, *y = (DeviceObject *)b;
  const int eq = x->index == y->index && PyUnicode_Compare(x->type, y->type) == 0;
  return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static Py_hash_t device_hash(PyObject *self) {
  const DeviceObject *d = (DeviceObject *)self;
  Py_hash_t h = PyObject_Hash(d->type);
  return h == -1 ? -1 : (h * 31 + d->index) == -1 ? -2 : h * 31 + d->index;
}

static PyObject *device_get_type(PyObject *self, void *closure) {
  (void)closure;
  return Py_NewRef(((DeviceObject *)self)->type);
}

static PyObject *device_get_index(PyObject *self, void *closure) {
  (void)closure;
  const int index = ((DeviceObject *)self)->index;
  if (index < 0) Py_RETURN_NONE;
  return PyLong_FromLong(index);
}

static PyGetSetDef device_getset[] = {
    {"type", device_get_type, NULL, "'cpu', 'cuda', ...", NULL},
    {"index", device_get_index, NULL, "The device index, or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject DeviceType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ctensor.device",
    .tp_basicsize = sizeof(DeviceObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "device(type, index=None): where a tensor's memory lives, as torch.device.",
    .tp_new = device_new,
    .tp_dealloc = device_dealloc,
    .tp_repr = device_repr,
    .tp_str = device_str,
    .tp_richcompare = device_richcompare,
    .tp_hash = device_hash,
    .tp_getset = device_getset,
};

PyObject *ct_device_object(const tensor_t *t) {
  int32_t type, id;
  tensor_device(t, &type, &id);
  const int on_cpu = type == kDLCPU || type == kDLCUDAHost || type == kDLCUDAManaged;
  PyObject *s = on_cpu ? PyUnicode_InternFromString("cpu")
                : type == kDLCUDA ? PyUnicode_InternFromString("cuda")
                                  : PyUnicode_FromFormat("dlpack%d", (int)type);
  if (!s) return NULL;
  PyObject *d = device_make(s, on_cpu ? -1 : (int)id);
  Py_DECREF(s);
  return d;
}

/* torch.contiguous_format & co.: named constants for memory_format= arguments. */
static PyObject *memory_format_repr(PyObject *self) {
  return Py_NewRef(((DeviceObject *)self)->type);
}

static PyTypeObject MemoryFormatType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ctensor.memory_format",
    .tp_basicsize = sizeof(DeviceObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A memory_format constant (ctensor.contiguous_format, ctensor.preserve_format, ...).",
    .tp_dealloc = device_dealloc,
    .tp_repr = memory_format_repr,
};

int ct_device_init(PyObject *module) {
  if (PyType_Ready(&DeviceType) < 0 || PyType_Ready(&MemoryFormatType) < 0) return -1;
  static const char *formats[] = {"contiguous_format", "preserve_format", "channels_last", "channels_last_3d"};
  for (size_t i = 0; i < sizeof formats / sizeof *formats; i++) {
    DeviceObject *f = PyObject_New(DeviceObject, &MemoryFormatType);
    if (!f) return -1;
    f->type = PyUnicode_FromFormat("ctensor.%s", formats[i]);
    f->index = -1;
    if (!f->type || PyModule_AddObject(module, formats[i], (PyObject *)f) < 0) {
      Py_DECREF(f);
      return -1;
    }
  }
  return PyModule_AddObjectRef(module, "device", (PyObject *)&DeviceType);
}
