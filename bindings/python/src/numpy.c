/* NumPy interop through public interfaces only. In: an ndarray (or a subclass
   keeping its buffer export and strides) that is aligned, native and of a
   supported dtype is read through the inline accessors of NumPy's public C API
   headers (PyArray_DATA, PyArray_DIMS, PyArray_STRIDES, PyArray_FLAGS,
   PyArray_DESCR): they read the array object's fields, which NumPy 1.x and 2.x
   lay out alike, and need no API table (no import_array), so NumPy stays
   optional at run time and one build (NumPy 2.x headers targeting the 1.x API)
   runs under both. The storage holds a strong reference to the array (as
   torch.from_numpy does), so arr.resize() is refused while a tensor shares it.
   Anything else goes through the buffer protocol (shape, strides, format; the
   export is held by the storage), which also gives every error message. Out:
   through the tensor's own buffer export or __array_interface__, whose
   consumers keep the tensor object alive. NumPy is looked up only when it is
   already imported: an object cannot be an ndarray otherwise. */
#include "ctensor_py.h"

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define NPY_TARGET_VERSION NPY_1_21_API_VERSION /* the 1.x/2.x-compatible structs */
#include <numpy/ndarraytypes.h>

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
    if (!PyType_Check(type))
      return Py_DECREF(type), PyErr_Format(PyExc_TypeError, "numpy.%s is not a type", names[kind]), -1;
    numpy_types[kind] = (PyTypeObject *)type; /* kept for the life of the process */
  }
  return PyObject_TypeCheck(obj, numpy_types[kind]);
}

int ct_is_numpy_array(PyObject *obj) { return numpy_isinstance(obj, NUMPY_NDARRAY); }

int ct_is_numpy_scalar(PyObject *obj) { return numpy_isinstance(obj, NUMPY_GENERIC); }

/* NumPy's buffer export recomputes the strides of size-1 and empty dims of a
   contiguous array; torch.from_numpy keeps the array's own (np.zeros((2, 0, 3))
   has strides (0, 0, 0)), so an ndarray's are read from arr.strides. They differ
   from the export's only where they address no other bytes. Other objects: unchanged. */
static int numpy_own_strides(PyObject *obj, int ndim, Py_ssize_t itemsize, int64_t *strides) {
  const int is_array = ct_is_numpy_array(obj);
  if (is_array <= 0) return is_array;
  PyObject *own = PyObject_GetAttrString(obj, "strides");
  if (!own) return -1;
  int rc = PyTuple_Check(own) && PyTuple_GET_SIZE(own) == ndim
               ? 0 : (PyErr_SetString(PyExc_TypeError, "ndarray.strides does not match its buffer export"), -1);
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

/* ---- plain arrays through NumPy's public accessors ---------------------- */

/* ctensor's dtype of a NumPy type number (stable since NumPy 1.0), -1 if none. */
static tensor_dtype_t numpy_dtype(int type_num) {
  switch (type_num) {
    case NPY_BOOL: return TENSOR_BOOL;
    case NPY_BYTE: return TENSOR_INT8;
    case NPY_UBYTE: return TENSOR_UINT8;
    case NPY_SHORT: return TENSOR_INT16;
    case NPY_USHORT: return TENSOR_UINT16;
    case NPY_INT: return TENSOR_INT32;
    case NPY_UINT: return TENSOR_UINT32;
    case NPY_LONG: return NPY_SIZEOF_LONG == 8 ? TENSOR_INT64 : TENSOR_INT32; /* C's long */
    case NPY_ULONG: return NPY_SIZEOF_LONG == 8 ? TENSOR_UINT64 : TENSOR_UINT32;
    case NPY_LONGLONG: return TENSOR_INT64;
    case NPY_ULONGLONG: return TENSOR_UINT64;
    case NPY_HALF: return TENSOR_FLOAT16;
    case NPY_FLOAT: return TENSOR_FLOAT32;
    case NPY_DOUBLE: return TENSOR_FLOAT64;
    case NPY_CFLOAT: return TENSOR_COMPLEX64;
    case NPY_CDOUBLE: return TENSOR_COMPLEX128;
    default: return -1;
  }
}

/* NumPy's internal array flags start at bit 31 and work down (its public header
   says so); WARN_ON_WRITE is one: a writable export warns and the array becomes
   plainly writable, so such arrays take the buffer path. */
static const unsigned numpy_internal_flags = 0xFFFF0000u;

/* Whether arrays may take the direct path (the test hook turns it off). */
static int direct_path = 1;
/* ndarray's strides descriptor (kept): a subclass that overrides strides or the
   buffer export takes the buffer path, as before. */
static PyObject *ndarray_strides;

int ct_numpy_direct_read(int enable) {
  if (enable >= 0) direct_path = enable;
  if (ct_is_numpy_array(Py_None) < 0) return -1; /* finds numpy.ndarray */
  return numpy_types[NUMPY_NDARRAY] && direct_path;
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
  if (ct_is_numpy_array(obj) <= 0 || PyArray_NDIM((PyArrayObject *)obj) != 0) return PyErr_Clear(), 0;
  const PyArray_Descr *descr = PyArray_DESCR((PyArrayObject *)obj);
  const tensor_dtype_t dtype = numpy_dtype(descr->type_num);
  *kind = descr->kind;
  *itemsize = dtype >= 0 ? (int)tensor_dtype_size(dtype) : 0;
  return 1;
}

/* 1: *out is the tensor sharing a plain, aligned, native array of a supported
   dtype (holding a strong reference to it: NumPy's resize refcheck then
   refuses, as with torch), or NULL with an exception; 0: the buffer path
   decides (and gives every error message). */
static int from_plain_array(PyObject *obj, tensor_t **out) {
  if (!direct_path) return 0;
  const int plain = plain_array_type(obj);
  if (plain <= 0) return plain;
  PyArrayObject *a = (PyArrayObject *)obj;
  const PyArray_Descr *descr = PyArray_DESCR(a);
  const unsigned flags = (unsigned)PyArray_FLAGS(a);
  const tensor_dtype_t dtype = (flags & (numpy_internal_flags | NPY_ARRAY_ALIGNED)) == NPY_ARRAY_ALIGNED &&
                                       PyArray_ISNBO(descr->byteorder) ? numpy_dtype(descr->type_num) : -1;
  const int ndim = PyArray_NDIM(a);
  if (dtype < 0 || ndim > TENSOR_MAX_DIMS) return 0;
  const npy_intp itemsize = (npy_intp)tensor_dtype_size(dtype), *dims = PyArray_DIMS(a), *st = PyArray_STRIDES(a);
  int shift = 0; /* the itemsizes of ctensor's dtypes are powers of 2 */
  while (((npy_intp)1 << shift) < itemsize) shift++;
  int64_t sizes[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
  for (int i = 0; i < ndim; i++) {
    if (st[i] & (itemsize - 1)) return 0; /* not a whole number of items */
    sizes[i] = dims[i];
    strides[i] = st[i] >> shift; /* arithmetic shift: exact for whole items */
  }
  const tensor_status_t status = tensor_from_blob(out, PyArray_DATA(a), dtype, ndim, sizes, strides,
                                                  flags & NPY_ARRAY_WRITEABLE ? 0 : TENSOR_READONLY,
                                                  ct_object_release, Py_NewRef(obj));
  if (status != TENSOR_OK) { /* the callback was not taken */
    Py_DECREF(obj);
    ct_raise(status);
  }
  return 1;
}

/* ---- the buffer path ----------------------------------------------------- */

tensor_t *ct_tensor_from_strided_buffer(PyObject *obj) {
  tensor_t *plain = NULL;
  const int direct = from_plain_array(obj, &plain);
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
    return PyBuffer_Release(&view), NULL;
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
  if (problem) return PyErr_SetString(exc, problem), PyBuffer_Release(&view), NULL;
  int degenerate = 0; /* only size-1 and empty dims can have other strides in the export */
  for (int i = 0; i < view.ndim; i++) degenerate |= view.shape[i] <= 1;
  if (degenerate && numpy_own_strides(obj, view.ndim, view.itemsize, strides) < 0)
    return PyBuffer_Release(&view), NULL;
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
  if (!is_array)
    return PyErr_Format(PyExc_TypeError, "expected np.ndarray (got %.200s)", Py_TYPE(arr)->tp_name);
  return ct_tensor_wrap(ct_tensor_from_strided_buffer(arr));
}

static PyObject *tensor_numpy(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"force", NULL};
  int force = 0; /* torch's force=True copies off devices; ctensor's memory never moves */
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$p:numpy", kwlist, &force)) return NULL;
  if (tensor_dtype(CT_SELF(self)) == TENSOR_BFLOAT16) /* NumPy has no bfloat16 */
    return PyErr_Format(PyExc_TypeError, "Got unsupported ScalarType BFloat16");
  if (ct_check_cpu(CT_SELF(self), "numpy") < 0) /* torch: "can't convert cuda:0 device type tensor" */
    return PyErr_Clear(),
           PyErr_Format(PyExc_TypeError, "can't convert a tensor whose memory is not on the CPU to numpy");
  if (tensor_is_conj(CT_SELF(self))) /* torch refuses its conjugate views; conj() stands for one */
    return PyErr_Format(PyExc_RuntimeError,
                        "Can't call numpy() on Tensor that has conjugate bit set. Use tensor.resolve_conj().numpy() instead.");
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
  if (!ts) return PyErr_Format(PyExc_TypeError, "Got unsupported ScalarType BFloat16");
  if (ct_check_cpu(t, "__array_interface__") < 0) return NULL;
  const int64_t ndim = tensor_ndim(t);
  const int64_t itemsize = (int64_t)tensor_dtype_size(tensor_dtype(t));
  PyObject *shape = PyTuple_New(ndim), *strides = PyTuple_New(ndim);
  for (int64_t i = 0; shape && strides && i < ndim; i++) {
    PyTuple_SET_ITEM(shape, i, PyLong_FromLongLong(tensor_sizes(t)[i]));
    PyTuple_SET_ITEM(strides, i, PyLong_FromLongLong(tensor_strides(t)[i] * itemsize));
  }
  if (!shape || !strides || PyErr_Occurred()) return Py_XDECREF(shape), Py_XDECREF(strides), NULL;
  return Py_BuildValue("{s:N,s:s,s:(N,O),s:N,s:i}", "shape", shape, "typestr", ts, "data",
                       PyLong_FromVoidPtr(tensor_data(t)), tensor_is_readonly(t) ? Py_True : Py_False,
                       "strides", strides, "version", 3);
}

static PyMethodDef numpy_functions[] = {
    CT_ONEARG("from_numpy", from_numpy, "from_numpy(ndarray): a tensor sharing the array's memory."),
    {NULL, NULL, 0, NULL},
};

static PyMethodDef numpy_methods[] = {
    CT_KWARGS("numpy", tensor_numpy, "numpy(force=False): a NumPy array sharing this tensor's memory."),
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
