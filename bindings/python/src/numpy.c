/* NumPy interop through public interfaces only: no NumPy header, no struct of
   NumPy's. In: an ndarray (or a subclass keeping its buffer export and strides)
   that is writable, aligned, native and of a supported dtype is read from its
   __array_struct__ (the array interface's C struct); the storage holds a strong
   reference to the array (as torch.from_numpy does), so arr.resize() is refused
   while a tensor shares it. Anything else goes through the buffer protocol
   (shape, strides, format; the export is held by the storage), which also gives
   every error message. Out: through the tensor's own buffer export or
   __array_interface__, whose consumers keep the tensor object alive. NumPy is
   looked up only when it is already imported: an object cannot be an ndarray
   otherwise. */
#include "ctensor_py.h"

/* numpy.ndarray and numpy.generic, looked up once NumPy has been imported (a type
   check is then one pointer walk: indexing asks it for every item). */
enum { NUMPY_NDARRAY, NUMPY_GENERIC };
static PyTypeObject *numpy_types[2];

/* isinstance(obj, numpy.<kind>) if NumPy is loaded; -1 on error. */
static int numpy_isinstance(PyObject *obj, int kind) {
  if (!numpy_types[kind]) {
    static const char *const names[2] = {"ndarray", "generic"};
    PyObject *modname = PyUnicode_FromString("numpy");
    if (!modname) return -1;
    PyObject *numpy = PyImport_GetModule(modname);
    Py_DECREF(modname);
    if (!numpy) return PyErr_Occurred() ? -1 : 0; /* not imported: obj cannot be one */
    PyObject *type = PyObject_GetAttrString(numpy, names[kind]);
    Py_DECREF(numpy);
    if (!type) return -1;
    if (!PyType_Check(type)) {
      Py_DECREF(type);
      PyErr_Format(PyExc_TypeError, "numpy.%s is not a type", names[kind]);
      return -1;
    }
    numpy_types[kind] = (PyTypeObject *)type; /* kept for the life of the process */
  }
  return PyObject_TypeCheck(obj, numpy_types[kind]);
}

int ct_is_numpy_array(PyObject *obj) {
  return numpy_isinstance(obj, NUMPY_NDARRAY);
}

int ct_is_numpy_scalar(PyObject *obj) {
  return numpy_isinstance(obj, NUMPY_GENERIC);
}

/* NumPy's buffer export recomputes the strides of size-1 and empty dims of a
   contiguous array; torch.from_numpy keeps the array's own (np.zeros((2, 0, 3))
   has strides (0, 0, 0)), so an ndarray's are read from arr.strides. They differ
   from the export's only where they address no other bytes. Other objects: unchanged. */
static int numpy_own_strides(PyObject *obj, int ndim, Py_ssize_t itemsize, int64_t *strides) {
  const int is_array = ct_is_numpy_array(obj);
  if (is_array <= 0) return is_array;
  PyObject *own = PyObject_GetAttrString(obj, "strides");
  if (!own) return -1;
  int rc = 0;
  if (!PyTuple_Check(own) || PyTuple_GET_SIZE(own) != ndim) {
    PyErr_SetString(PyExc_TypeError, "ndarray.strides does not match its buffer export");
    rc = -1;
  }
  for (int i = 0; rc == 0 && i < ndim; i++) {
    const long long byte_stride = PyLong_AsLongLong(PyTuple_GET_ITEM(own, i));
    if (byte_stride == -1 && PyErr_Occurred()) rc = -1;
    else if (byte_stride % itemsize == 0) strides[i] = byte_stride / itemsize;
    else {
      PyErr_SetString(PyExc_ValueError, "given numpy array strides not a multiple of the element byte size. "
                                        "Copy the numpy array to reallocate the memory.");
      rc = -1;
    }
  }
  Py_DECREF(own);
  return rc;
}

/* A strided export, writable if the exporter allows it (*readonly says). */
static int get_records(PyObject *obj, Py_buffer *view, int *readonly) {
  *readonly = 0;
  if (PyObject_GetBuffer(obj, view, PyBUF_RECORDS) == 0) return 0;
  PyErr_Clear();
  *readonly = 1;
  return PyObject_GetBuffer(obj, view, PyBUF_RECORDS_RO);
}

/* ---- plain arrays through the array interface's C struct ----------------- */

/* PyArrayInterface, the C-struct form of NumPy's array interface protocol
   (__array_struct__, version 2: NumPy 1.x and 2.x, and any other exporter). */
typedef struct {
  int two; /* 2 */
  int nd;
  char typekind;
  int itemsize;
  int flags;
  Py_intptr_t *shape, *strides;
  void *data;
  PyObject *descr;
} ArrayStruct;

enum { AI_ALIGNED = 0x100, AI_NOTSWAPPED = 0x200, AI_WRITEABLE = 0x400 };

/* ctensor's dtype of a typekind and itemsize ('f', 4: float32), -1 if none. */
static tensor_dtype_t struct_dtype(char kind, int itemsize) {
  static const tensor_dtype_t ints[2][4] = {{TENSOR_INT8, TENSOR_INT16, TENSOR_INT32, TENSOR_INT64},
                                            {TENSOR_UINT8, TENSOR_UINT16, TENSOR_UINT32, TENSOR_UINT64}};
  const int log2 = itemsize == 1 ? 0 : itemsize == 2 ? 1 : itemsize == 4 ? 2 : itemsize == 8 ? 3 : 4;
  switch (kind) {
    case 'b': return itemsize == 1 ? TENSOR_BOOL : -1;
    case 'i': case 'u': return log2 < 4 ? ints[kind == 'u'][log2] : -1;
    case 'f': return log2 == 1 ? TENSOR_FLOAT16 : log2 == 2 ? TENSOR_FLOAT32 : log2 == 3 ? TENSOR_FLOAT64 : -1;
    case 'c': return log2 == 3 ? TENSOR_COMPLEX64 : itemsize == 16 ? TENSOR_COMPLEX128 : -1;
    default: return -1;
  }
}

/* Whether arrays may take the array-struct path (the test hook turns it off). */
static int struct_path = 1;
/* ndarray's __array_struct__ and strides descriptors (kept): a subclass that
   overrides strides or the buffer export takes the buffer path, as before. */
static PyObject *array_struct, *ndarray_strides;

int ct_numpy_direct_read(int enable) {
  if (enable >= 0) struct_path = enable;
  if (ct_is_numpy_array(Py_None) < 0) return -1; /* finds numpy.ndarray */
  return numpy_types[NUMPY_NDARRAY] && struct_path;
}

/* An ndarray, or a subclass keeping ndarray's buffer export and strides. */
static int plain_array_type(PyObject *obj) {
  PyTypeObject *ndarray = numpy_types[NUMPY_NDARRAY], *type = Py_TYPE(obj);
  if (type == ndarray) return 1;
  if (!ndarray || !PyType_IsSubtype(type, ndarray) || !type->tp_as_buffer ||
      type->tp_as_buffer->bf_getbuffer != ndarray->tp_as_buffer->bf_getbuffer)
    return 0;
  if (!ndarray_strides && !(ndarray_strides = PyObject_GetAttrString((PyObject *)ndarray, "strides"))) return -1;
  PyObject *strides = PyObject_GetAttrString((PyObject *)type, "strides");
  Py_XDECREF(strides);
  return strides ? strides == ndarray_strides : -1;
}

int ct_numpy_zero_dim(PyObject *obj, char *kind, int *itemsize) {
  if (ct_is_numpy_array(obj) <= 0) return PyErr_Clear(), 0;
  PyObject *capsule = PyObject_GetAttrString(obj, "__array_struct__");
  const ArrayStruct *a = capsule ? PyCapsule_GetPointer(capsule, NULL) : NULL;
  const int zero = a && a->two == 2 && a->nd == 0;
  if (zero) *kind = a->typekind, *itemsize = a->itemsize;
  Py_XDECREF(capsule);
  PyErr_Clear();
  return zero;
}

/* 1: *out is the tensor sharing a plain, writable, aligned, native array of a
   supported dtype (holding a strong reference to it: NumPy's resize refcheck
   then refuses, as with torch), or NULL with an exception; 0: the buffer path
   decides (and gives every error message). */
static int from_array_struct(PyObject *obj, tensor_t **out) {
  if (!struct_path) return 0;
  const int plain = plain_array_type(obj);
  if (plain <= 0) return plain;
  PyTypeObject *ndarray = numpy_types[NUMPY_NDARRAY];
  if (!array_struct && !(array_struct = PyObject_GetAttrString((PyObject *)ndarray, "__array_struct__"))) return -1;
  /* ndarray's own getter called directly; a subclass may override it */
  descrgetfunc get = Py_TYPE(array_struct)->tp_descr_get;
  PyObject *capsule = Py_IS_TYPE(obj, ndarray) && get ? get(array_struct, obj, (PyObject *)ndarray)
                                                     : PyObject_GetAttrString(obj, "__array_struct__");
  if (!capsule) return -1;
  const ArrayStruct *a = PyCapsule_IsValid(capsule, NULL) ? PyCapsule_GetPointer(capsule, NULL) : NULL;
  const int flags = AI_ALIGNED | AI_NOTSWAPPED | AI_WRITEABLE;
  const tensor_dtype_t dtype = a && a->two == 2 && (a->flags & flags) == flags ? struct_dtype(a->typekind, a->itemsize) : -1;
  int64_t sizes[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
  int ok = dtype >= 0 && a->nd <= TENSOR_MAX_DIMS;
  int shift = 0; /* the itemsizes of ctensor's dtypes are powers of 2 */
  while (ok && (1 << shift) < a->itemsize) shift++;
  for (int i = 0; ok && i < a->nd; i++) {
    sizes[i] = a->shape[i];
    strides[i] = a->strides[i] >> shift; /* arithmetic shift: exact for whole items */
    ok = (a->strides[i] & (a->itemsize - 1)) == 0;
  }
  const tensor_status_t st = ok ? tensor_from_blob(out, a->data, dtype, a->nd, sizes, strides, 0, ct_object_release,
                                                   Py_NewRef(obj))
                                : TENSOR_OK;
  Py_DECREF(capsule);
  if (st != TENSOR_OK) { /* the callback was not taken */
    Py_DECREF(obj);
    ct_raise(st);
  }
  return ok;
}

/* ---- the buffer path ----------------------------------------------------- */

tensor_t *ct_tensor_from_strided_buffer(PyObject *obj) {
  tensor_t *plain = NULL;
  const int direct = from_array_struct(obj, &plain);
  if (direct) return direct < 0 ? NULL : plain;
  Py_buffer view;
  int readonly;
  if (get_records(obj, &view, &readonly) < 0) {
    /* NumPy cannot export datetime64 & co.: torch's TypeError for their dtype */
    if (PyErr_ExceptionMatches(PyExc_ValueError) && (ct_is_numpy_array(obj) > 0 || ct_is_numpy_scalar(obj) > 0)) {
      PyErr_Clear();
      PyObject *dtype = PyObject_GetAttrString(obj, "dtype");
      if (dtype)
        PyErr_Format(PyExc_TypeError, "can't convert np.ndarray of type %R. The only supported types are: "
                     "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, "
                     "uint32, uint16, uint8, and bool.", dtype);
      Py_XDECREF(dtype);
    }
    return NULL;
  }
  const char *format = view.format ? view.format : "B";
  const tensor_dtype_t dtype = ct_dtype_from_format(format, view.itemsize);
  const char *problem = NULL;
  PyObject *exc = PyExc_TypeError;
  if (dtype < 0 && (format[0] == '>' || format[0] == '!')) {
    problem = "given numpy array has byte order different from the native byte order. "
              "Conversion between byte orders is currently not supported.";
    exc = PyExc_ValueError;
  } else if (dtype < 0) {
    PyErr_Format(PyExc_TypeError,
                 "can't convert np.ndarray of type '%s' (itemsize %zd). The only supported types "
                 "are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
                 "uint64, uint32, uint16, uint8, and bool.",
                 format, view.itemsize);
    PyBuffer_Release(&view);
    return NULL;
  }
  if (!problem && view.ndim > TENSOR_MAX_DIMS) { /* an exporter may claim any ndim */
    problem = "the buffer has more than 64 dimensions";
    exc = PyExc_ValueError;
  }
  /* The library's storage spans exactly the bytes the view addresses. */
  int64_t sizes[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
  Py_ssize_t c_order[TENSOR_MAX_DIMS];
  if (!problem && !view.strides) /* PEP 3118: no strides means C order */
    PyBuffer_FillContiguousStrides(view.ndim, view.shape, c_order, (int)view.itemsize, 'C');
  for (int i = 0; !problem && i < view.ndim; i++) {
    const Py_ssize_t byte_stride = view.strides ? view.strides[i] : c_order[i];
    if (byte_stride % view.itemsize != 0) {
      problem = "given numpy array strides not a multiple of the element byte size. "
                "Copy the numpy array to reallocate the memory.";
      exc = PyExc_ValueError;
    }
    sizes[i] = view.shape[i];
    strides[i] = byte_stride / view.itemsize;
  }
  if (problem) {
    PyErr_SetString(exc, problem);
    PyBuffer_Release(&view);
    return NULL;
  }
  int degenerate = 0; /* only size-1 and empty dims can have other strides in the export */
  for (int i = 0; i < view.ndim; i++) degenerate |= view.shape[i] <= 1;
  if (degenerate && numpy_own_strides(obj, view.ndim, view.itemsize, strides) < 0) {
    PyBuffer_Release(&view);
    return NULL;
  }
  Py_buffer *held = ct_buffer_hold(&view);
  if (!held) return NULL;
  tensor_t *t = NULL;
  const tensor_status_t st = tensor_from_blob(&t, held->buf, dtype, held->ndim, sizes, strides,
                                              readonly ? TENSOR_READONLY : 0, ct_buffer_release, held);
  if (st != TENSOR_OK) { /* the callback was not taken: give the export back now */
    PyBuffer_Release(held);
    PyMem_RawFree(held);
    return (tensor_t *)ct_raise(st);
  }
  return t;
}

static PyObject *from_numpy(PyObject *module, PyObject *arr) {
  (void)module;
  const int is_array = ct_is_numpy_array(arr);
  if (is_array < 0) return NULL;
  if (!is_array) {
    PyErr_Format(PyExc_TypeError, "expected np.ndarray (got %.200s)", Py_TYPE(arr)->tp_name);
    return NULL;
  }
  return ct_tensor_wrap(ct_tensor_from_strided_buffer(arr));
}

static PyObject *tensor_numpy(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"force", NULL};
  int force = 0; /* torch's force=True copies off devices; ctensor's memory never moves */
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$p:numpy", kwlist, &force)) return NULL;
  if (tensor_dtype(CT_SELF(self)) == TENSOR_BFLOAT16) { /* NumPy has no bfloat16 */
    PyErr_SetString(PyExc_TypeError, "Got unsupported ScalarType BFloat16");
    return NULL;
  }
  if (ct_check_cpu(CT_SELF(self), "numpy") < 0) { /* torch: "can't convert cuda:0 device type tensor" */
    PyErr_Clear();
    PyErr_SetString(PyExc_TypeError, "can't convert a tensor whose memory is not on the CPU to numpy");
    return NULL;
  }
  if (tensor_is_conj(CT_SELF(self))) { /* torch refuses its conjugate views; conj() stands for one */
    PyErr_SetString(PyExc_RuntimeError,
                    "Can't call numpy() on Tensor that has conjugate bit set. Use tensor.resolve_conj().numpy() instead.");
    return NULL;
  }
  PyObject *numpy = PyImport_ImportModule("numpy");
  if (!numpy) return NULL;
  /* Through our buffer export: the array's base chain ends at this tensor. */
  PyObject *arr = PyObject_CallMethod(numpy, "asarray", "O", self);
  Py_DECREF(numpy);
  return arr;
}

static PyObject *array_interface(PyObject *self, void *closure) {
  (void)closure;
  const tensor_t *t = CT_SELF(self);
  const char *ts = ct_dtype_typestr(tensor_dtype(t));
  if (!ts) {
    PyErr_SetString(PyExc_TypeError, "Got unsupported ScalarType BFloat16");
    return NULL;
  }
  if (ct_check_cpu(t, "__array_interface__") < 0) return NULL;
  const int64_t ndim = tensor_ndim(t);
  const int64_t itemsize = (int64_t)tensor_dtype_size(tensor_dtype(t));
  PyObject *shape = PyTuple_New(ndim), *strides = PyTuple_New(ndim);
  for (int64_t i = 0; shape && strides && i < ndim; i++) {
    PyTuple_SET_ITEM(shape, i, PyLong_FromLongLong(tensor_sizes(t)[i]));
    PyTuple_SET_ITEM(strides, i, PyLong_FromLongLong(tensor_strides(t)[i] * itemsize));
  }
  if (!shape || !strides || PyErr_Occurred()) {
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    return NULL;
  }
  return Py_BuildValue("{s:N,s:s,s:(N,O),s:N,s:i}", "shape", shape, "typestr", ts, "data",
                       PyLong_FromVoidPtr(tensor_data(t)), tensor_is_readonly(t) ? Py_True : Py_False,
                       "strides", strides, "version", 3);
}

static PyMethodDef numpy_functions[] = {
    {"from_numpy", from_numpy, METH_O, "from_numpy(ndarray): a tensor sharing the array's memory."},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef numpy_methods[] = {
    {"numpy", (PyCFunction)(void (*)(void))tensor_numpy, METH_VARARGS | METH_KEYWORDS,
     "numpy(force=False): a NumPy array sharing this tensor's memory."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef numpy_getset[] = {
    {"__array_interface__", array_interface, NULL, "NumPy's array interface (zero-copy).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

int ct_numpy_register(PyObject *module) {
  if (ct_tensor_add_methods(numpy_methods) < 0 || ct_tensor_add_getset(numpy_getset) < 0) return -1;
  return ct_add_functions(module, numpy_functions);
}
