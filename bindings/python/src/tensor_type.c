/* ctensor.Tensor: a Python object owning one reference to a tensor_t, the type
   and the inspection methods that need nothing but the C API. The base of the
   extension: every other file may use it, it names no function of theirs (they
   register their methods and slots, see ctensor_py.h). */
#include "ctensor_py.h"

#define SELF(o) (((TensorObject *)(o))->t)

/* ---- helpers shared with the other files -------------------------------- */

/* Freed tensor objects kept for reuse, as CPython keeps floats (the GIL guards
   the list): views made and dropped in a loop skip the allocator both ways. */
enum { FREE_TENSORS_MAX = 64 };
static TensorObject *free_tensors[FREE_TENSORS_MAX];
static int free_tensor_count;

PyObject *ct_tensor_wrap(tensor_t *t) {
  if (!t) return NULL;
  TensorObject *obj;
  if (free_tensor_count > 0) {
    obj = free_tensors[--free_tensor_count];
    PyObject_Init((PyObject *)obj, &Ct_TensorType);
  } else if (!(obj = PyObject_New(TensorObject, &Ct_TensorType))) {
    tensor_release(t);
    return NULL;
  }
  obj->t = t;
  obj->weakreflist = NULL;
  return (PyObject *)obj;
}

int ct_check_cpu(const tensor_t *t, const char *what) {
  int32_t type, id;
  tensor_device(t, &type, &id);
  if (ct_on_cpu(type)) return 0;
  PyErr_Format(PyExc_RuntimeError,
               "%s: tensor memory is on DLPack device (%d, %d), not on the CPU", what, (int)type,
               (int)id);
  return -1;
}

int64_t ct_parse_sizes(PyObject *args, int64_t *sizes, const char *what) {
  PyObject *seq = args;
  if (PyTuple_GET_SIZE(args) == 1 && !PyIndex_Check(PyTuple_GET_ITEM(args, 0)))
    seq = PyTuple_GET_ITEM(args, 0);
  PyObject *fast = PySequence_Fast(seq, "");
  if (!fast) {
    PyErr_Format(PyExc_TypeError, "%s(): size must be a tuple of ints, not %.200s", what,
                 Py_TYPE(seq)->tp_name);
    return -1;
  }
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n > TENSOR_MAX_DIMS) {
    Py_DECREF(fast);
    PyErr_Format(PyExc_RuntimeError, "%s(): %zd dims given; at most %d are supported", what, n,
                 TENSOR_MAX_DIMS);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
    if (!PyIndex_Check(item)) {
      PyErr_Format(PyExc_TypeError, "%s(): size must be a tuple of ints, but element %zd is %.200s",
                   what, i, Py_TYPE(item)->tp_name);
      Py_DECREF(fast);
      return -1;
    }
    sizes[i] = PyLong_AsLongLong(item);
    if (sizes[i] == -1 && PyErr_Occurred()) {
      Py_DECREF(fast);
      return -1;
    }
  }
  Py_DECREF(fast);
  return n;
}

/* Wraps a dim as PyTorch does, with its IndexError message. */
int ct_wrap_dim(int64_t *dim, int64_t ndim) {
  const int64_t n = ndim > 0 ? ndim : 1; /* 0-dim tensors accept dims 0 and -1 */
  if (*dim < -n || *dim >= n) {
    PyErr_Format(PyExc_IndexError,
                 "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                 (long long)-n, (long long)(n - 1), (long long)*dim);
    return -1;
  }
  if (*dim < 0) *dim += n;
  return 0;
}

/* ---- lifetime ----------------------------------------------------------- */

/* Not GC-tracked: a tensor references no Python object itself (a held buffer
   export belongs to the storage and is released by its callback). */
static void tensor_dealloc(PyObject *self) {
  if (((TensorObject *)self)->weakreflist) PyObject_ClearWeakRefs(self);
  tensor_release(SELF(self));
  if (free_tensor_count < FREE_TENSORS_MAX) free_tensors[free_tensor_count++] = (TensorObject *)self;
  else PyObject_Free(self);
}

/* ---- inspection ---------------------------------------------------------- */

static PyObject *tensor_storage_offset_m(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyLong_FromLongLong(tensor_storage_offset(SELF(self)));
}

static PyObject *tensor_get_dtype(PyObject *self, void *closure) {
  (void)closure;
  return Py_NewRef(ct_dtype_object(tensor_dtype(SELF(self))));
}

static PyObject *tensor_get_ndim(PyObject *self, void *closure) {
  (void)closure;
  return PyLong_FromLongLong(tensor_ndim(SELF(self)));
}

static PyObject *tensor_dim(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyLong_FromLongLong(tensor_ndim(SELF(self)));
}

static PyObject *tensor_numel_m(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyLong_FromLongLong(tensor_numel(SELF(self)));
}

static PyObject *tensor_is_contiguous_m(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyBool_FromLong(tensor_is_contiguous(SELF(self)));
}

static PyObject *tensor_data_ptr(PyObject *self, PyObject *noargs) {
  (void)noargs;
  if (tensor_numel(SELF(self)) == 0) return PyLong_FromLong(0); /* torch: empty tensors have no data */
  return PyLong_FromVoidPtr(tensor_data(SELF(self)));
}

/* ---- autograd-shaped no-ops: ctensor has no autograd, so these are plain views ---- */

static PyObject *tensor_detach(PyObject *self, PyObject *noargs) {
  (void)noargs;
  const tensor_t *t = SELF(self);
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_as_strided(&out, t, tensor_ndim(t), tensor_sizes(t), tensor_strides(t),
                                               tensor_storage_offset(t));
  return st == TENSOR_OK ? ct_tensor_wrap(out) : ct_raise(st);
}

/* t.data: a new tensor sharing t's storage and layout, as torch's. */
static PyObject *tensor_get_data(PyObject *self, void *closure) {
  (void)closure;
  return tensor_detach(self, NULL);
}

static PyObject *tensor_get_is_readonly(PyObject *self, void *closure) {
  (void)closure;
  return PyBool_FromLong(tensor_is_readonly(SELF(self)));
}

/* ---- the type ------------------------------------------------------------ */

static PyGetSetDef tensor_getset[] = {
    {"dtype", tensor_get_dtype, NULL, "Element type.", NULL},
    {"ndim", tensor_get_ndim, NULL, "Number of dims.", NULL},
    {"data", tensor_get_data, NULL, "A new tensor sharing this one's storage and layout.", NULL},
    {"is_readonly", tensor_get_is_readonly, NULL, "True if writes through this tensor are refused.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef tensor_methods[] = {
    CT_NOARGS("storage_offset", tensor_storage_offset_m, "Offset of element 0 in the storage, in elements."),
    CT_NOARGS("dim", tensor_dim, "Number of dims."),
    CT_NOARGS("ndimension", tensor_dim, "Number of dims."),
    CT_NOARGS("numel", tensor_numel_m, "Number of elements."),
    CT_NOARGS("nelement", tensor_numel_m, "Number of elements."),
    CT_NOARGS("is_contiguous", tensor_is_contiguous_m, "PyTorch's contiguity rule."),
    CT_NOARGS("data_ptr", tensor_data_ptr, "Address of element 0."),
    CT_NOARGS("detach", tensor_detach, "A view with the same metadata (no autograd to detach from)."),
    CT_NOARGS("__copy__", tensor_detach, "copy.copy(t): a new tensor sharing t's storage, as torch's."),
    {NULL, NULL, 0, NULL},
};

/* The protocol tables the files' ct_X_slots functions fill. */
static PyNumberMethods tensor_as_number;
static PySequenceMethods tensor_as_sequence;
static PyMappingMethods tensor_as_mapping;

PyTypeObject Ct_TensorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ctensor.Tensor",
    .tp_basicsize = sizeof(TensorObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A strided view onto a refcounted storage (PyTorch's memory model).",
    .tp_dealloc = tensor_dealloc,
    .tp_as_number = &tensor_as_number,
    .tp_as_sequence = &tensor_as_sequence,
    .tp_as_mapping = &tensor_as_mapping,
    .tp_weaklistoffset = offsetof(TensorObject, weakreflist),
    .tp_methods = tensor_methods,
    .tp_getset = tensor_getset,
};

PyObject *ct_result(tensor_status_t st, tensor_t *out, tensor_status_t which, PyObject *exc) {
  if (st != TENSOR_OK) return exc ? ct_raise_as(st, which, exc) : ct_raise(st);
  return ct_tensor_wrap(out);
}

/* Descriptors added to the type's dict after PyType_Ready, as its own are. */
static int add_descriptor(const char *name, PyObject *descr) {
  const int rc = descr ? PyDict_SetItemString(Ct_TensorType.tp_dict, name, descr) : -1;
  Py_XDECREF(descr);
  return rc;
}

int ct_tensor_add_methods(PyMethodDef *defs) {
  for (PyMethodDef *def = defs; def->ml_name; def++)
    if (add_descriptor(def->ml_name, PyDescr_NewMethod(&Ct_TensorType, def)) < 0) return -1;
  PyType_Modified(&Ct_TensorType);
  return 0;
}

int ct_tensor_add_getset(PyGetSetDef *defs) {
  for (PyGetSetDef *def = defs; def->name; def++)
    if (add_descriptor(def->name, PyDescr_NewGetSet(&Ct_TensorType, def)) < 0) return -1;
  PyType_Modified(&Ct_TensorType);
  return 0;
}

int ct_add_functions(PyObject *module, PyMethodDef *defs) {
  PyObject *modname = PyUnicode_FromString("ctensor");
  if (!modname) return -1;
  for (PyMethodDef *def = defs; def->ml_name; def++) {
    PyObject *fn = PyCFunction_NewEx(def, NULL, modname);
    if (!fn || PyModule_AddObject(module, def->ml_name, fn) < 0) {
      Py_XDECREF(fn);
      break;
    }
  }
  Py_DECREF(modname);
  return PyErr_Occurred() ? -1 : 0;
}

int ct_tensor_init(PyObject *module) {
  /* == is element-wise, yet tensors stay hashable by identity, as in torch. */
  Ct_TensorType.tp_hash = PyBaseObject_Type.tp_hash;
  if (PyType_Ready(&Ct_TensorType) < 0) return -1;
  return PyModule_AddObjectRef(module, "Tensor", (PyObject *)&Ct_TensorType);
}
