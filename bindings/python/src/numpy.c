/* NumPy interop without NumPy's C API or headers.
   In: an ndarray of the plain kind (ndarray or a subclass that keeps its buffer
   export and strides, aligned, native byte order, a supported dtype, strides in
   whole elements) is read directly from the leading fields of NumPy's array and
   dtype structs, which NumPy 1.x and 2.x lay out alike (mirrored below). The
   mirror is trusted only after a check at first use: probe arrays made by the
   running NumPy must read the same through the mirror as through their PEP 3118
   export and their Python attributes; otherwise, or for a NumPy major version
   the check does not know, every array takes the buffer path for good. The
   storage holds a strong reference to the array (as torch.from_numpy does),
   so arr.resize() is refused while a tensor shares it (NumPy's refcheck).
   Anything else (other dtypes, byte orders, odd strides, other exporters) goes
   through the buffer protocol (shape, strides, format; the export is held by
   the storage), which also gives every error message.
   Out: through the tensor's own buffer export or __array_interface__, whose
   consumers keep the tensor object alive. NumPy is looked up only when it is
   already imported: an object cannot be an ndarray otherwise. */
#include <string.h>

#include "ctensor_py.h"

#define SELF(o) (((TensorObject *)(o))->t)

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

/* ---- the direct read of plain arrays ------------------------------------- */

/* The leading fields of NumPy's PyArrayObject_fields and PyArray_Descr, at the
   same offsets in NumPy 1.x and 2.x (2.x moved the descr's elsize and flags
   after type_num: neither is read here). */
typedef struct {
  PyObject_HEAD
  char *data;
  int nd;
  Py_ssize_t *dimensions;
  Py_ssize_t *strides;
  PyObject *base;
  PyObject *descr;
  int flags;
} NumpyArrayHead;

typedef struct {
  PyObject_HEAD
  PyTypeObject *typeobj;
  char kind, type, byteorder, former_flags;
  int type_num;
} NumpyDescrHead;

enum { /* NumPy's array flags */
  NPY_ARRAY_ALIGNED = 0x0100,
  NPY_ARRAY_WRITEABLE = 0x0400,
};
/* Bits 26-31 are NumPy's internal flags (WARN_ON_WRITE: a writable export warns
   and the array becomes plainly writable; the buffer path keeps that). */
static const unsigned numpy_internal_flags = 0xFC000000u;

/* ctensor's dtype, and log2 of its size, of each NumPy type number (NPY_BOOL ...
   NPY_HALF, stable since NumPy 1.0); -1 for the types ctensor has not. */
typedef struct {
  tensor_dtype_t dtype;
  int log2_size;
} NumpyType;

#define C_LONG_TYPE(is_signed) {sizeof(long) == 8 ? (is_signed ? TENSOR_INT64 : TENSOR_UINT64) \
                                                   : (is_signed ? TENSOR_INT32 : TENSOR_UINT32), \
                                sizeof(long) == 8 ? 3 : 2}
static const NumpyType numpy_type_table[] = {
    {TENSOR_BOOL, 0},       /* NPY_BOOL */
    {TENSOR_INT8, 0},       /* NPY_BYTE */
    {TENSOR_UINT8, 0},      /* NPY_UBYTE */
    {TENSOR_INT16, 1},      /* NPY_SHORT */
    {TENSOR_UINT16, 1},     /* NPY_USHORT */
    {TENSOR_INT32, 2},      /* NPY_INT */
    {TENSOR_UINT32, 2},     /* NPY_UINT */
    C_LONG_TYPE(1),         /* NPY_LONG: C's long follows the platform */
    C_LONG_TYPE(0),         /* NPY_ULONG */
    {TENSOR_INT64, 3},      /* NPY_LONGLONG */
    {TENSOR_UINT64, 3},     /* NPY_ULONGLONG */
    {TENSOR_FLOAT32, 2},    /* NPY_FLOAT */
    {TENSOR_FLOAT64, 3},    /* NPY_DOUBLE */
    {-1, 0},                /* NPY_LONGDOUBLE */
    {TENSOR_COMPLEX64, 3},  /* NPY_CFLOAT */
    {TENSOR_COMPLEX128, 4}, /* NPY_CDOUBLE */
    {-1, 0},                /* NPY_CLONGDOUBLE */
    {-1, 0},                /* NPY_OBJECT */
    {-1, 0},                /* NPY_STRING */
    {-1, 0},                /* NPY_UNICODE */
    {-1, 0},                /* NPY_VOID */
    {-1, 0},                /* NPY_DATETIME */
    {-1, 0},                /* NPY_TIMEDELTA */
    {TENSOR_FLOAT16, 1},    /* NPY_HALF */
};
#undef C_LONG_TYPE

/* The type the direct read gives an array, NULL where the buffer path must
   decide: unaligned, non-native byte order, other dtypes, internal flags. */
static const NumpyType *plain_type(const NumpyArrayHead *a) {
  const NumpyDescrHead *d = (const NumpyDescrHead *)a->descr;
  if (((unsigned)a->flags & (numpy_internal_flags | NPY_ARRAY_ALIGNED)) != NPY_ARRAY_ALIGNED) return NULL;
  if (d->byteorder != '=' && d->byteorder != '|') return NULL;
  const unsigned type_num = (unsigned)d->type_num;
  if (type_num >= sizeof numpy_type_table / sizeof numpy_type_table[0]) return NULL;
  return numpy_type_table[type_num].dtype >= 0 ? &numpy_type_table[type_num] : NULL;
}

/* Whether the mirror has been checked against the running NumPy: 0 not yet,
   1 yes, -1 it disagreed (or the test hook turned the direct read off). */
static int layout_state;
/* ndarray's strides attribute: a subclass that overrides it takes the buffer path. */
static PyObject *ndarray_strides;

/* Arrays the check reads both ways, with what Python says of them. Between them
   they vary every field the direct read uses. */
static const char probe_source[] =
    "import numpy as np\n"
    "frozen = np.arange(4, dtype=np.int16)\n"
    "frozen.flags.writeable = False\n"
    "arrays = [np.arange(24, dtype=np.float32).reshape(4, 6)[1:, ::2].T, frozen, np.ones(3, '>i4'),\n"
    "          np.frombuffer(bytearray(9), np.int32, 2, 1), np.zeros((2, 3), 'c16')[:, ::-1]]\n"
    "arrays += [np.ones((2, 3), code) for code in '?bBhHiIlLqQefdFD']\n"
    "probes = [(a, a.base, a.dtype, a.dtype.num, a.dtype.byteorder, a.flags.aligned, a.flags.writeable)\n"
    "          for a in arrays]\n";

/* 1 if `probe` (a tuple from probe_source) reads the same through the mirror as
   through its export and its attributes; 0 if not; -1 on error. */
static int probe_agrees(PyObject *probe, PyTypeObject *ndarray) {
  PyObject *arr, *base, *descr, *byteorder;
  int type_num, aligned, writeable;
  if (!PyArg_ParseTuple(probe, "OOOiUpp", &arr, &base, &descr, &type_num, &byteorder, &aligned, &writeable))
    return -1;
  if (!Py_IS_TYPE(arr, ndarray)) return 0;
  const NumpyArrayHead *a = (const NumpyArrayHead *)arr;
  const NumpyDescrHead *d = (const NumpyDescrHead *)a->descr;
  int same = a->base == (base == Py_None ? NULL : base) && a->descr == descr && d->type_num == type_num &&
             PyUnicode_GET_LENGTH(byteorder) == 1 && d->byteorder == (char)PyUnicode_READ_CHAR(byteorder, 0) &&
             !!(a->flags & NPY_ARRAY_ALIGNED) == aligned && !!(a->flags & NPY_ARRAY_WRITEABLE) == writeable;
  Py_buffer view;
  int readonly;
  if (!same || get_records(arr, &view, &readonly) < 0) return same ? -1 : 0;
  same = view.buf == a->data && view.ndim == a->nd && view.strides && readonly == !writeable;
  for (int i = 0; same && i < view.ndim; i++) /* no probe has a size-1 or empty dim */
    same = view.shape[i] == a->dimensions[i] && view.strides[i] == a->strides[i];
  const NumpyType *type = plain_type(a);
  if (same && aligned) /* the buffer path would give the same dtype, or refuse the array too */
    same = (type ? type->dtype : -1) == ct_dtype_from_format(view.format ? view.format : "B", view.itemsize) &&
           (!type || (view.itemsize == (Py_ssize_t)1 << type->log2_size &&
                      (size_t)view.itemsize == tensor_dtype_size(type->dtype)));
  PyBuffer_Release(&view);
  return same;
}

/* The check behind layout_state: NumPy 1.x or 2.x, and every probe agrees. */
static int numpy_layout_agrees(PyTypeObject *ndarray) {
  PyObject *numpy = PyImport_ImportModule("numpy");
  PyObject *version = numpy ? PyObject_GetAttrString(numpy, "__version__") : NULL;
  const char *v = version && PyUnicode_Check(version) ? PyUnicode_AsUTF8(version) : NULL;
  int agrees = v && (v[0] == '1' || v[0] == '2') && v[1] == '.';
  PyObject *globals = agrees ? PyDict_New() : NULL;
  PyObject *ran = globals ? PyRun_String(probe_source, Py_file_input, globals, globals) : NULL;
  PyObject *probes = ran ? PyDict_GetItemString(globals, "probes") : NULL;
  agrees = probes && PyList_Check(probes);
  for (Py_ssize_t i = 0; agrees && i < PyList_GET_SIZE(probes); i++)
    agrees = probe_agrees(PyList_GET_ITEM(probes, i), ndarray) > 0;
  Py_XDECREF(ran);
  Py_XDECREF(globals);
  Py_XDECREF(version);
  Py_XDECREF(numpy);
  if (agrees && !ndarray_strides) ndarray_strides = PyObject_GetAttrString((PyObject *)ndarray, "strides"); /* kept */
  PyErr_Clear(); /* a probe that cannot be made counts as a disagreement */
  return agrees && ndarray_strides;
}

/* Checks the mirror once; whether the direct read is on. */
static int layout_checked(PyTypeObject *ndarray) {
  if (layout_state == 0) layout_state = numpy_layout_agrees(ndarray) ? 1 : -1;
  return layout_state > 0;
}

int ct_numpy_direct_read(int enable) {
  if (enable >= 0) layout_state = enable ? 0 : -1;
  if (ct_is_numpy_array(Py_None) < 0) return -1; /* finds numpy.ndarray */
  return numpy_types[NUMPY_NDARRAY] && layout_checked(numpy_types[NUMPY_NDARRAY]);
}

/* Whether the direct read may look at obj: an ndarray, or a subclass that keeps
   ndarray's buffer export and strides, once the mirror has been checked. */
static int plain_array_type(PyObject *obj) {
  PyTypeObject *ndarray = numpy_types[NUMPY_NDARRAY], *type = Py_TYPE(obj);
  if (!ndarray || layout_state < 0) return 0;
  if (type != ndarray) {
    if (!PyType_IsSubtype(type, ndarray) || !type->tp_as_buffer ||
        type->tp_as_buffer->bf_getbuffer != ndarray->tp_as_buffer->bf_getbuffer)
      return 0;
  }
  if (!layout_checked(ndarray) || type == ndarray) return layout_state > 0;
  PyObject *strides = PyObject_GetAttrString((PyObject *)type, "strides");
  if (!strides) PyErr_Clear();
  Py_XDECREF(strides);
  return strides == ndarray_strides;
}

/* 1: *out is the tensor sharing a plain array's memory, or NULL with an
   exception; 0: obj is not a plain array (the buffer path decides). */
static int from_plain_array(PyObject *obj, tensor_t **out) {
  if (!plain_array_type(obj)) return 0;
  const NumpyArrayHead *a = (const NumpyArrayHead *)obj;
  const NumpyType *type = plain_type(a);
  if (!type || a->nd > TENSOR_MAX_DIMS) return 0;
  const Py_ssize_t item_mask = ((Py_ssize_t)1 << type->log2_size) - 1;
  int64_t sizes[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
  for (int i = 0; i < a->nd; i++) {
    if (a->strides[i] & item_mask) return 0; /* not a whole number of items */
    sizes[i] = a->dimensions[i];
    strides[i] = a->strides[i] >> type->log2_size; /* arithmetic shift: exact division by the item size */
  }
  const uint32_t flags = a->flags & NPY_ARRAY_WRITEABLE ? 0 : TENSOR_READONLY;
  const tensor_status_t st =
      tensor_from_blob(out, a->data, type->dtype, a->nd, sizes, strides, flags, ct_object_release, Py_NewRef(obj));
  if (st != TENSOR_OK) { /* the callback was not taken */
    Py_DECREF(obj);
    ct_raise(st);
  }
  return 1;
}

/* ---- the buffer path ----------------------------------------------------- */

tensor_t *ct_tensor_from_strided_buffer(PyObject *obj) {
  tensor_t *plain = NULL;
  if (from_plain_array(obj, &plain)) return plain;
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

PyObject *ct_from_numpy(PyObject *module, PyObject *arr) {
  (void)module;
  const int is_array = ct_is_numpy_array(arr);
  if (is_array < 0) return NULL;
  if (!is_array) {
    PyErr_Format(PyExc_TypeError, "expected np.ndarray (got %.200s)", Py_TYPE(arr)->tp_name);
    return NULL;
  }
  return ct_tensor_wrap(ct_tensor_from_strided_buffer(arr));
}

PyObject *ct_tensor_numpy(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"force", NULL};
  int force = 0; /* torch's force=True copies off devices; ctensor's memory never moves */
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$p:numpy", kwlist, &force)) return NULL;
  if (tensor_dtype(SELF(self)) == TENSOR_BFLOAT16) { /* NumPy has no bfloat16 */
    PyErr_SetString(PyExc_TypeError, "Got unsupported ScalarType BFloat16");
    return NULL;
  }
  if (ct_check_cpu(SELF(self), "numpy") < 0) { /* torch: "can't convert cuda:0 device type tensor" */
    PyErr_Clear();
    PyErr_SetString(PyExc_TypeError, "can't convert a tensor whose memory is not on the CPU to numpy");
    return NULL;
  }
  if (tensor_is_conj(SELF(self))) { /* torch refuses its conjugate views; conj() stands for one */
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

PyObject *ct_tensor_array_interface(PyObject *self, void *closure) {
  (void)closure;
  const tensor_t *t = SELF(self);
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

/* np.abs(t) gives a tensor back: torch 1.13's __array_wrap__, bool results
   included (torch turns them into uint8, so does this). NumPy 2 asks for a
   scalar with return_scalar=True: then the array's scalar, as NumPy's own. */
PyObject *ct_tensor_array_wrap(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *kwlist[] = {"array", "context", "return_scalar", NULL};
  PyObject *arr, *context = Py_None;
  int return_scalar = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|Op:__array_wrap__", kwlist, &arr, &context, &return_scalar))
    return NULL;
  if (return_scalar) {
    PyObject *empty = PyTuple_New(0);
    PyObject *scalar = empty ? PyObject_GetItem(arr, empty) : NULL;
    Py_XDECREF(empty);
    return scalar;
  }
  PyObject *dtype = PyObject_GetAttrString(arr, "dtype");
  if (!dtype) return NULL;
  PyObject *kind = PyObject_GetAttrString(dtype, "kind");
  Py_DECREF(dtype);
  if (!kind) return NULL;
  const int is_bool = PyUnicode_Check(kind) && PyUnicode_CompareWithASCIIString(kind, "b") == 0;
  Py_DECREF(kind);
  PyObject *converted = is_bool ? PyObject_CallMethod(arr, "astype", "s", "uint8") : Py_NewRef(arr);
  if (!converted) return NULL;
  PyObject *t = ct_from_numpy(NULL, converted);
  Py_DECREF(converted);
  return t;
}

/* torch.broadcast_tensors: every tensor expanded (a view) to the broadcast shape
   of all of them, with torch's message for sizes that do not broadcast. */
PyObject *ct_broadcast_tensors(PyObject *module, PyObject *args) {
  (void)module;
  if (PyTuple_GET_SIZE(args) == 1 && !Ct_Tensor_Check(PyTuple_GET_ITEM(args, 0))) {
    PyObject *seq = PySequence_Tuple(PyTuple_GET_ITEM(args, 0));
    if (!seq) return NULL;
    PyObject *r = ct_broadcast_tensors(module, seq);
    Py_DECREF(seq);
    return r;
  }
  const Py_ssize_t n = PyTuple_GET_SIZE(args);
  const tensor_t **inputs = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof *inputs);
  tensor_t **views = PyMem_Calloc((size_t)(n > 0 ? n : 1), sizeof *views);
  PyObject *out = inputs && views ? PyTuple_New(n) : PyErr_NoMemory();
  for (Py_ssize_t k = 0; out && k < n; k++) {
    PyObject *item = PyTuple_GET_ITEM(args, k);
    if (!Ct_Tensor_Check(item)) {
      PyErr_Format(PyExc_TypeError, "broadcast_tensors(): expected Tensor as element %zd, but got %.200s", k,
                   Py_TYPE(item)->tp_name);
      Py_CLEAR(out);
    } else {
      inputs[k] = SELF(item);
    }
  }
  const tensor_status_t st = out ? tensor_broadcast_tensors(views, n, inputs) : TENSOR_OK;
  if (st != TENSOR_OK) {
    ct_raise(st);
    Py_CLEAR(out);
  }
  for (Py_ssize_t k = 0; k < n; k++) { /* views are all set or all NULL */
    PyObject *wrapped = out && views[k] ? ct_tensor_wrap(views[k]) : NULL;
    if (!out) tensor_release(views[k]);
    else if (!wrapped) Py_CLEAR(out);
    else PyTuple_SET_ITEM(out, k, wrapped);
  }
  PyMem_Free(inputs);
  PyMem_Free(views);
  return out;
}

/* __array__(dtype=None, copy=None), NumPy 2's signature (torch 1.13's takes
   dtype only): the array sharing this tensor's memory, converted to dtype when
   given; copy=True copies, copy=False refuses a conversion that needs one. */
PyObject *ct_tensor_array(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dtype", "copy", NULL};
  PyObject *dtype = Py_None, *copy_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:__array__", kwlist, &dtype, &copy_obj)) return NULL;
  const int copy = copy_obj == Py_None ? -1 : PyObject_IsTrue(copy_obj);
  if (copy_obj != Py_None && copy < 0) return NULL;
  PyObject *noargs = PyTuple_New(0);
  PyObject *arr = noargs ? ct_tensor_numpy(self, noargs, NULL) : NULL;
  Py_XDECREF(noargs);
  if (!arr || (dtype == Py_None && copy != 1)) return arr;
  PyObject *numpy = PyImport_ImportModule("numpy");
  PyObject *want = numpy && dtype != Py_None ? PyObject_CallMethod(numpy, "dtype", "O", dtype) : NULL;
  Py_XDECREF(numpy);
  if (dtype != Py_None && !want) {
    Py_DECREF(arr);
    return NULL;
  }
  PyObject *have = want ? PyObject_GetAttrString(arr, "dtype") : NULL;
  const int same = want ? (have ? PyObject_RichCompareBool(have, want, Py_EQ) : -1) : 1;
  Py_XDECREF(have);
  PyObject *r = NULL;
  if (same < 0) {
    r = NULL;
  } else if (!same && copy == 0) {
    PyErr_Format(PyExc_ValueError, "__array__(copy=False): converting %R to %R needs a copy",
                 ct_dtype_object(tensor_dtype(SELF(self))), want);
  } else if (!same) {
    r = PyObject_CallMethod(arr, "astype", "O", want);
  } else {
    r = copy == 1 ? PyObject_CallMethod(arr, "copy", NULL) : Py_NewRef(arr);
  }
  Py_XDECREF(want);
  Py_DECREF(arr);
  return r;
}
