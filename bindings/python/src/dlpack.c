/* DLPack through Python capsules, as the array API standard describes:
   __dlpack__ gives a "dltensor" capsule (pre-1.0 consumers such as PyTorch 1.13
   and NumPy 1.24) or, when the consumer passes max_version >= (1, 0), a
   "dltensor_versioned" one. A consumer renames the capsule to "used_..." when it
   takes the managed tensor over; the capsule's destructor calls the deleter only
   if nobody did. */
#include "ctensor_py.h"

#define SELF(o) (((TensorObject *)(o))->t)

static const char LEGACY[] = "dltensor", VERSIONED[] = "dltensor_versioned";
static const char USED_LEGACY[] = "used_dltensor", USED_VERSIONED[] = "used_dltensor_versioned";

static void legacy_destructor(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, LEGACY)) return; /* consumed: the consumer owns it */
  DLManagedTensor *m = PyCapsule_GetPointer(capsule, LEGACY);
  if (m->deleter) m->deleter(m);
}

static void versioned_destructor(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, VERSIONED)) return;
  DLManagedTensorVersioned *m = PyCapsule_GetPointer(capsule, VERSIONED);
  if (m->deleter) m->deleter(m);
}

/* ---- export ------------------------------------------------------------- */

static int parse_max_version(PyObject *obj, int *versioned) {
  *versioned = 0;
  if (obj == Py_None) return 0;
  long major;
  if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 2 ||
      ((major = PyLong_AsLong(PyTuple_GET_ITEM(obj, 0))) == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    PyErr_SetString(PyExc_TypeError, "__dlpack__(): max_version must be a (major, minor) tuple of ints");
    return -1;
  }
  *versioned = major >= 1;
  return 0;
}

/* dl_device must be None or the tensor's own device: ctensor never moves memory. */
static int check_dl_device(const tensor_t *t, PyObject *dl_device) {
  if (dl_device == Py_None) return 0;
  int32_t type, id;
  tensor_device(t, &type, &id);
  int want_type, want_id;
  if (!PyArg_ParseTuple(dl_device, "ii", &want_type, &want_id)) {
    PyErr_Clear();
    PyErr_SetString(PyExc_TypeError, "__dlpack__(): dl_device must be a (device_type, device_id) tuple");
    return -1;
  }
  if (want_type == type && want_id == id) return 0;
  PyErr_Format(PyExc_BufferError, "__dlpack__(): cannot export memory of device (%d, %d) to device (%d, %d)",
               (int)type, (int)id, want_type, want_id);
  return -1;
}

/* What pre-1.0 consumers cannot take: read-only memory (the format has no flag
   for it, so they would write into it) and negative strides (PyTorch 1.13 aborts
   the process on them). DLPack 1.x consumers get both as they are. */
static int legacy_refusal(const tensor_t *t) {
  if (tensor_is_readonly(t)) {
    PyErr_SetString(PyExc_BufferError,
                    "__dlpack__(): the tensor is read-only and DLPack before 1.0 cannot mark it so; "
                    "pass max_version=(1, 0) or copy=True");
    return -1;
  }
  for (int64_t i = 0; i < tensor_ndim(t); i++) {
    if (tensor_strides(t)[i] < 0 && tensor_sizes(t)[i] > 1) {
      PyErr_Format(PyExc_BufferError,
                   "__dlpack__(): stride %lld of dim %lld is negative, which consumers of DLPack before 1.0 "
                   "(such as PyTorch 1.13) cannot take; pass max_version=(1, 0) or copy=True",
                   (long long)tensor_strides(t)[i], (long long)i);
      return -1;
    }
  }
  return 0;
}

PyObject *ct_tensor_dlpack(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"stream", "max_version", "dl_device", "copy", NULL};
  PyObject *stream = Py_None, *max_version = Py_None, *dl_device = Py_None, *copy_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O$OOO:__dlpack__", kwlist, &stream, &max_version, &dl_device,
                                   &copy_obj))
    return NULL;
  /* stream only orders device work; ctensor never queues any, so there is nothing to wait for.
     Still, as torch, it must be an integer or None. */
  if (stream != Py_None && !PyLong_CheckExact(stream)) {
    PyErr_Format(PyExc_TypeError, "__dlpack__(): stream must be an integer or None, not %.200s",
                 Py_TYPE(stream)->tp_name);
    return NULL;
  }
  int versioned, copy = 0;
  if (parse_max_version(max_version, &versioned) < 0 || check_dl_device(SELF(self), dl_device) < 0) return NULL;
  if (copy_obj != Py_None && (copy = PyObject_IsTrue(copy_obj)) < 0) return NULL;

  if (!versioned && !copy && legacy_refusal(SELF(self)) < 0) return NULL;
  tensor_t *t = tensor_retain(SELF(self));
  if (copy) {
    tensor_t *clone = NULL;
    tensor_status_t st = tensor_clone(&clone, t);
    tensor_release(t);
    if (st != TENSOR_OK) return ct_raise_as(st, TENSOR_E_DEVICE, PyExc_BufferError);
    t = clone;
  }
  PyObject *capsule = NULL;
  if (versioned) {
    DLManagedTensorVersioned *m = NULL;
    tensor_status_t st = tensor_to_dlpack(&m, t, 0);
    if (st != TENSOR_OK) {
      tensor_release(t);
      return ct_raise(st);
    }
    if (copy) m->flags |= DLPACK_FLAG_BITMASK_IS_COPIED;
    capsule = PyCapsule_New(m, VERSIONED, versioned_destructor);
    if (!capsule) m->deleter(m);
  } else {
    DLManagedTensor *m = NULL;
    tensor_status_t st = tensor_to_dlpack_legacy(&m, t);
    if (st != TENSOR_OK) {
      tensor_release(t);
      return ct_raise(st);
    }
    capsule = PyCapsule_New(m, LEGACY, legacy_destructor);
    if (!capsule) m->deleter(m);
  }
  tensor_release(t); /* the managed tensor holds its own reference */
  return capsule;
}

PyObject *ct_tensor_dlpack_device(PyObject *self, PyObject *noargs) {
  (void)noargs;
  int32_t type, id;
  tensor_device(SELF(self), &type, &id);
  /* (DLDeviceType.kDLCPU, 0) as torch's, a plain int for types its enum lacks */
  PyObject *device = ct_dlpack_device_type ? PyObject_CallFunction(ct_dlpack_device_type, "i", (int)type) : NULL;
  if (!device) {
    PyErr_Clear();
    device = PyLong_FromLong(type);
  }
  return device ? Py_BuildValue("(Ni)", device, (int)id) : NULL;
}

PyObject *ct_dlpack_device_type;

static PyObject *to_dlpack(PyObject *module, PyObject *tensor) {
  (void)module;
  if (!Ct_Tensor_Check(tensor)) {
    PyErr_Format(PyExc_TypeError, "to_dlpack(): argument 'tensor' must be Tensor, not %.200s", Py_TYPE(tensor)->tp_name);
    return NULL;
  }
  return PyObject_CallMethod(tensor, "__dlpack__", NULL);
}

static PyMethodDef dlpack_functions[] = {
    {"to_dlpack", to_dlpack, METH_O, "to_dlpack(tensor): a legacy \"dltensor\" capsule, as torch.utils.dlpack's."},
    {"from_dlpack", ct_from_dlpack, METH_O, "from_dlpack(obj): ctensor.from_dlpack."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef utils_def = {PyModuleDef_HEAD_INIT, .m_name = "ctensor.utils", .m_size = -1};
static struct PyModuleDef dlpack_def = {PyModuleDef_HEAD_INIT, .m_name = "ctensor.utils.dlpack", .m_size = -1,
                                        .m_methods = dlpack_functions};

int ct_dlpack_init(PyObject *module) {
  /* torch.utils.dlpack.DLDeviceType of PyTorch 1.13 */
  PyObject *members = Py_BuildValue("[(si)(si)(si)(si)(si)(si)(si)(si)(si)]", "kDLCPU", 1, "kDLGPU", 2, "kDLCPUPinned", 3,
                                    "kDLOpenCL", 4, "kDLVulkan", 7, "kDLMetal", 8, "kDLVPI", 9, "kDLROCM", 10,
                                    "kDLExtDev", 12);
  PyObject *enum_module = members ? PyImport_ImportModule("enum") : NULL;
  ct_dlpack_device_type = enum_module ? PyObject_CallMethod(enum_module, "IntEnum", "sO", "DLDeviceType", members) : NULL;
  Py_XDECREF(enum_module);
  Py_XDECREF(members);
  if (!ct_dlpack_device_type) return -1;
  PyObject *utils = PyModule_Create(&utils_def), *dlpack = utils ? PyModule_Create(&dlpack_def) : NULL;
  PyObject *sys_modules = PyImport_GetModuleDict(); /* borrowed */
  int rc = dlpack && PyModule_AddObjectRef(dlpack, "DLDeviceType", ct_dlpack_device_type) == 0 &&
                   PyModule_AddObjectRef(utils, "dlpack", dlpack) == 0 &&
                   PyDict_SetItemString(sys_modules, "ctensor.utils", utils) == 0 &&
                   PyDict_SetItemString(sys_modules, "ctensor.utils.dlpack", dlpack) == 0 &&
                   PyModule_AddObjectRef(module, "utils", utils) == 0
               ? 0 : -1;
  Py_XDECREF(dlpack);
  Py_XDECREF(utils);
  return rc;
}

/* ---- import ------------------------------------------------------------- */

static tensor_t *consume(PyObject *capsule) {
  tensor_t *t = NULL;
  tensor_status_t st;
  if (PyCapsule_IsValid(capsule, VERSIONED)) {
    st = tensor_from_dlpack(&t, PyCapsule_GetPointer(capsule, VERSIONED));
    if (st == TENSOR_OK && PyCapsule_SetName(capsule, USED_VERSIONED) < 0) return NULL; /* cannot fail */
  } else if (PyCapsule_IsValid(capsule, LEGACY)) {
    st = tensor_from_dlpack_legacy(&t, PyCapsule_GetPointer(capsule, LEGACY));
    if (st == TENSOR_OK && PyCapsule_SetName(capsule, USED_LEGACY) < 0) return NULL;
  } else {
    const char *name = PyCapsule_GetName(capsule); /* NULL (with an error set) for a capsule of no name */
    PyErr_Clear();
    if (name && (strcmp(name, USED_VERSIONED) == 0 || strcmp(name, USED_LEGACY) == 0))
      PyErr_SetString(PyExc_RuntimeError,
                      "from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed "
                      "only once, so you might have already constructed a tensor from it once.");
    else
      PyErr_Format(PyExc_RuntimeError,
                   "from_dlpack(): a capsule named %s%.100s%s is not a DLPack capsule (expected \"%s\" or \"%s\")",
                   name ? "\"" : "", name ? name : "(none)", name ? "\"" : "", LEGACY, VERSIONED);
    return NULL;
  }
  /* on failure the capsule keeps the managed tensor and its destructor deletes it */
  return st == TENSOR_OK ? t : (tensor_t *)ct_raise(st);
}

tensor_t *ct_tensor_from_dlpack_object(PyObject *obj) {
  if (PyCapsule_CheckExact(obj)) return consume(obj);
  PyObject *method = PyObject_GetAttrString(obj, "__dlpack__");
  if (!method) {
    PyErr_Clear();
    PyErr_Format(PyExc_RuntimeError, /* torch hands it to its capsule reader, which raises this */
                 "from_dlpack(): expected an object with __dlpack__ or a DLPack capsule, got %.200s",
                 Py_TYPE(obj)->tp_name);
    return NULL;
  }
  /* Ask for DLPack 1.x; producers that predate max_version reject the keyword. */
  PyObject *kwargs = Py_BuildValue("{s:(ii)}", "max_version", 1, 0);
  PyObject *empty = PyTuple_New(0);
  PyObject *capsule = kwargs && empty ? PyObject_Call(method, empty, kwargs) : NULL;
  if (!capsule && PyErr_ExceptionMatches(PyExc_TypeError)) {
    PyErr_Clear();
    capsule = PyObject_CallNoArgs(method);
  }
  Py_XDECREF(kwargs);
  Py_XDECREF(empty);
  Py_DECREF(method);
  if (!capsule) return NULL;
  if (!PyCapsule_CheckExact(capsule)) {
    PyErr_Format(PyExc_TypeError, "from_dlpack(): %.200s.__dlpack__() returned %.200s, not a DLPack capsule",
                 Py_TYPE(obj)->tp_name, Py_TYPE(capsule)->tp_name);
    Py_DECREF(capsule);
    return NULL;
  }
  tensor_t *t = consume(capsule);
  Py_DECREF(capsule);
  return t;
}

PyObject *ct_from_dlpack(PyObject *module, PyObject *obj) {
  (void)module;
  return ct_tensor_wrap(ct_tensor_from_dlpack_object(obj));
}
