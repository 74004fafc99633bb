/* ctensor.Tensor: a Python object owning one reference to a tensor_t. The type,
   inspection and dtype conversions live here; element values (values.c), views,
   indexing, buffers, NumPy, DLPack and printing have their own files. */
#include <string.h>

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

static PyObject *tensor_get_shape(PyObject *self, void *closure) {
  (void)closure;
  return ct_size_new(tensor_ndim(SELF(self)), tensor_sizes(SELF(self)));
}

static PyObject *tensor_size(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim", NULL};
  PyObject *dim_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:size", kwlist, &dim_obj)) return NULL;
  if (PyUnicode_Check(dim_obj)) { /* torch reads a str as a dim name; ctensor's dims have none */
    PyErr_Format(PyExc_RuntimeError, "Name '%U' not found in Tensor (its dims are unnamed).", dim_obj);
    return NULL;
  }
  if (dim_obj == Py_None) return tensor_get_shape(self, NULL);
  int64_t dim = PyLong_AsLongLong(dim_obj);
  if (dim == -1 && PyErr_Occurred()) return NULL;
  if (tensor_ndim(SELF(self)) == 0) {
    PyErr_Format(PyExc_IndexError, "dimension specified as %lld but tensor has no dimensions",
                 (long long)dim);
    return NULL;
  }
  if (ct_wrap_dim(&dim, tensor_ndim(SELF(self))) < 0) return NULL;
  return PyLong_FromLongLong(tensor_sizes(SELF(self))[dim]);
}

static PyObject *tensor_stride(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim", NULL};
  PyObject *dim_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:stride", kwlist, &dim_obj)) return NULL;
  if (PyUnicode_Check(dim_obj)) { /* torch reads a str as a dim name; ctensor's dims have none */
    PyErr_Format(PyExc_RuntimeError, "Name '%U' not found in Tensor (its dims are unnamed).", dim_obj);
    return NULL;
  }
  const int64_t ndim = tensor_ndim(SELF(self));
  const int64_t *strides = tensor_strides(SELF(self));
  if (dim_obj == Py_None) {
    PyObject *tuple = PyTuple_New(ndim);
    for (int64_t i = 0; tuple && i < ndim; i++) {
      PyObject *v = PyLong_FromLongLong(strides[i]);
      if (!v) {
        Py_CLEAR(tuple);
        break;
      }
      PyTuple_SET_ITEM(tuple, i, v);
    }
    return tuple;
  }
  int64_t dim = PyLong_AsLongLong(dim_obj);
  if (dim == -1 && PyErr_Occurred()) return NULL;
  if (ndim == 0) {
    PyErr_Format(PyExc_IndexError, "dimension specified as %lld but tensor has no dimensions",
                 (long long)dim);
    return NULL;
  }
  if (ct_wrap_dim(&dim, ndim) < 0) return NULL;
  return PyLong_FromLongLong(strides[dim]);
}

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

static PyObject *tensor_element_size(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyLong_FromSize_t(tensor_dtype_size(tensor_dtype(SELF(self))));
}

static PyObject *tensor_get_itemsize(PyObject *self, void *closure) {
  return tensor_element_size(self, closure);
}

static PyObject *tensor_get_nbytes(PyObject *self, void *closure) {
  (void)closure;
  return PyLong_FromLongLong(tensor_numel(SELF(self)) *
                             (long long)tensor_dtype_size(tensor_dtype(SELF(self))));
}

static PyObject *tensor_is_contiguous_m(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyBool_FromLong(tensor_is_contiguous(SELF(self)));
}

static PyObject *tensor_is_floating_point(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyBool_FromLong(ct_dtype_is_floating(tensor_dtype(SELF(self))));
}

static PyObject *tensor_is_complex(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyBool_FromLong(ct_dtype_is_complex(tensor_dtype(SELF(self))));
}

static PyObject *tensor_data_ptr(PyObject *self, PyObject *noargs) {
  (void)noargs;
  if (tensor_numel(SELF(self)) == 0) return PyLong_FromLong(0); /* torch: empty tensors have no data */
  return PyLong_FromVoidPtr(tensor_data(SELF(self)));
}

static PyObject *tensor_untyped_storage(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return ct_storage_wrap(tensor_storage_retain(tensor_storage(SELF(self))));
}

static PyObject *tensor_storage_m(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return ct_typed_storage_wrap(tensor_storage_retain(tensor_storage(SELF(self))), tensor_dtype(SELF(self)));
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

static PyObject *tensor_self(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return Py_NewRef(self);
}

static PyObject *tensor_requires_grad_(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"requires_grad", NULL};
  int requires_grad = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|p:requires_grad_", kwlist, &requires_grad)) return NULL;
  return ct_check_options(Py_None, requires_grad, "requires_grad_") < 0 ? NULL : Py_NewRef(self);
}

/* copy.deepcopy(t) is a clone, as in torch. */
/* copy.deepcopy(t) as torch's: the storage is copied whole (once per deepcopy:
   views of one storage stay views of one new storage) and the copy keeps t's
   sizes, strides and offset. */
static PyObject *tensor_deepcopy(PyObject *self, PyObject *memo) {
  const tensor_t *t = SELF(self);
  if (ct_check_cpu(t, "deepcopy") < 0) return NULL;
  tensor_storage_t *old = tensor_storage(t);
  PyObject *key = PyLong_FromVoidPtr(old);
  if (!key) return NULL;
  PyObject *copied = PyDict_Check(memo) ? PyDict_GetItemWithError(memo, key) : NULL;
  tensor_storage_t *s = copied ? ct_storage_of(copied) : NULL;
  if (!s) {
    if (PyErr_Occurred()) {
      Py_DECREF(key);
      return NULL;
    }
    tensor_status_t st = tensor_storage_new(&s, tensor_storage_nbytes(old));
    if (st != TENSOR_OK) {
      Py_DECREF(key);
      return ct_raise(st);
    }
    if (tensor_storage_nbytes(old)) memcpy(tensor_storage_data(s), tensor_storage_data(old), tensor_storage_nbytes(old));
    PyObject *holder = ct_storage_wrap(s); /* takes s's reference; the memo keeps it alive */
    if (!holder || (PyDict_Check(memo) && PyDict_SetItem(memo, key, holder) < 0)) {
      Py_XDECREF(holder);
      Py_DECREF(key);
      return NULL;
    }
    tensor_t *out = NULL;
    st = tensor_from_storage(&out, s, tensor_dtype(t), tensor_ndim(t), tensor_sizes(t), tensor_strides(t),
                             tensor_storage_offset(t));
    Py_DECREF(holder);
    Py_DECREF(key);
    return st == TENSOR_OK ? ct_tensor_wrap(out) : ct_raise(st);
  }
  Py_DECREF(key);
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_from_storage(&out, s, tensor_dtype(t), tensor_ndim(t), tensor_sizes(t),
                                                 tensor_strides(t), tensor_storage_offset(t));
  return st == TENSOR_OK ? ct_tensor_wrap(out) : ct_raise(st);
}

static PyObject *tensor_get_none(PyObject *self, void *closure) {
  (void)self, (void)closure;
  Py_RETURN_NONE;
}

static PyObject *tensor_get_true(PyObject *self, void *closure) {
  (void)self, (void)closure;
  Py_RETURN_TRUE;
}

static PyObject *tensor_false(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  Py_RETURN_FALSE;
}

static PyObject *tensor_get_device(PyObject *self, void *closure) {
  (void)closure;
  return ct_device_of(SELF(self));
}

static PyObject *convert_to(PyObject *self, tensor_dtype_t dtype);

/* t.data: a new tensor sharing t's storage and layout, as torch's. */
static PyObject *tensor_get_data(PyObject *self, void *closure) {
  (void)closure;
  return tensor_detach(self, NULL);
}

static PyObject *tensor_zero_(PyObject *self, PyObject *noargs) {
  (void)noargs;
  PyObject *zero = PyLong_FromLong(0);
  if (!zero) return NULL;
  const int rc = ct_fill(SELF(self), zero);
  Py_DECREF(zero);
  return rc < 0 ? NULL : Py_NewRef(self);
}

static PyObject *tensor_is_signed(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyBool_FromLong(tensor_dtype_is_signed(tensor_dtype(SELF(self))));
}

static PyObject *tensor_type_as(PyObject *self, PyObject *other) {
  if (!Ct_Tensor_Check(other)) {
    PyErr_Format(PyExc_TypeError, "type_as(): argument 'other' must be Tensor, not %.200s", Py_TYPE(other)->tp_name);
    return NULL;
  }
  return convert_to(self, tensor_dtype(SELF(other)));
}

/* dims given as an int or a sequence of ints, wrapped (IndexError as torch); count or -1. */
static int64_t dims_of(PyObject *obj, int64_t ndim, int64_t *out) {
  PyObject *seq = PyLong_Check(obj) || PyIndex_Check(obj) ? PyTuple_Pack(1, obj) : PySequence_Tuple(obj);
  if (!seq) return -1;
  const Py_ssize_t n = PyTuple_GET_SIZE(seq);
  for (Py_ssize_t i = 0; i < n && i < TENSOR_MAX_DIMS; i++) {
    long long d = PyLong_AsLongLong(PyTuple_GET_ITEM(seq, i));
    int64_t dim = d;
    if ((d == -1 && PyErr_Occurred()) || ct_wrap_dim(&dim, ndim) < 0) {
      Py_DECREF(seq);
      return -1;
    }
    out[i] = dim;
  }
  Py_DECREF(seq);
  return n;
}

/* torch.movedim(t, source, destination): the C API's movedim (a permute view). */
static PyObject *tensor_movedim_m(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"source", "destination", NULL};
  PyObject *src_obj, *dst_obj;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:movedim", kwlist, &src_obj, &dst_obj)) return NULL;
  const int64_t ndim = tensor_ndim(SELF(self));
  int64_t src[TENSOR_MAX_DIMS], dst[TENSOR_MAX_DIMS];
  const int64_t n = dims_of(src_obj, ndim, src), m = n < 0 ? -1 : dims_of(dst_obj, ndim, dst);
  if (n < 0 || m < 0) return NULL;
  if (n != m) {
    PyErr_Format(PyExc_RuntimeError,
                 "movedim: Invalid source or destination dims: source (%lld dims) should contain the same number of "
                 "dims as destination (%lld dims)", (long long)n, (long long)m);
    return NULL;
  }
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_movedim(&out, SELF(self), n, src, dst);
  return st == TENSOR_OK ? ct_tensor_wrap(out) : ct_raise(st);
}

static PyObject *tensor_get_false(PyObject *self, void *closure) {
  (void)self, (void)closure;
  Py_RETURN_FALSE; /* no autograd in ctensor */
}

static PyObject *tensor_get_is_readonly(PyObject *self, void *closure) {
  (void)closure;
  return PyBool_FromLong(tensor_is_readonly(SELF(self)));
}

/* ---- conversions --------------------------------------------------------- */

/* self itself when nothing changes (as torch), else a copy in dtype. */
static PyObject *convert_to(PyObject *self, tensor_dtype_t dtype) {
  if (dtype == tensor_dtype(SELF(self))) return Py_NewRef(self);
  return ct_tensor_wrap(ct_copy_like(SELF(self), dtype));
}

/* t.to(dtype), t.to(device), t.to(device, dtype), t.to(other_tensor), with
   dtype=, device=, copy=, non_blocking=, memory_format= keywords as torch. */
static PyObject *tensor_to_m(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dtype", "device", "copy", "non_blocking", "memory_format", NULL};
  PyObject *dtype_kw = Py_None, *device_kw = Py_None, *memory_format = Py_None;
  int copy = 0, non_blocking = 0;
  PyObject *empty = PyTuple_New(0);
  if (!empty) return NULL;
  const int ok = PyArg_ParseTupleAndKeywords(empty, kwargs, "|$OOppO:to", kwlist, &dtype_kw, &device_kw, &copy,
                                             &non_blocking, &memory_format);
  Py_DECREF(empty);
  if (!ok) return NULL;
  tensor_dtype_t dtype = tensor_dtype(SELF(self));
  const Py_ssize_t n = PyTuple_GET_SIZE(args);
  if (n > 2) {
    PyErr_SetString(PyExc_TypeError, "to() received an invalid combination of arguments");
    return NULL;
  }
  PyObject *items[4] = {n > 0 ? PyTuple_GET_ITEM(args, 0) : Py_None, n > 1 ? PyTuple_GET_ITEM(args, 1) : Py_None,
                        dtype_kw, device_kw};
  for (int i = 0; i < 4; i++) {
    PyObject *item = items[i];
    if (item == Py_None) continue;
    if (Ct_Tensor_Check(item) && i == 0) {
      dtype = tensor_dtype(SELF(item));
    } else if (i != 3 && (PyObject_TypeCheck(item, &Ct_DtypeType) || PyType_Check(item))) {
      if (ct_dtype_from_object(item, &dtype) < 0) return NULL;
    } else if (i != 2 && (PyUnicode_Check(item) || PyLong_Check(item) || ct_is_device(item))) {
      if (ct_check_options(PyLong_Check(item) ? Py_None : item, 0, "to") < 0) return NULL;
      if (PyLong_Check(item)) { /* t.to(0): CUDA device 0 */
        PyErr_SetString(PyExc_RuntimeError, "to(): ctensor only has CPU memory");
        return NULL;
      }
    } else {
      PyErr_Format(PyExc_TypeError, "to() received an invalid combination of arguments - got (%.200s)",
                   Py_TYPE(item)->tp_name);
      return NULL;
    }
  }
  const int preserve = ct_memory_format(memory_format, "to", 1);
  if (preserve < 0) return NULL;
  PyObject *converted = copy ? ct_tensor_wrap(ct_copy_like(SELF(self), dtype)) : convert_to(self, dtype);
  /* contiguous_format lays out a copy in C order; without a copy self is kept, as
     torch keeps it for tensors whose suggested format is contiguous (all of ctensor's) */
  if (!converted || preserve || converted == self) return converted;
  PyObject *noargs = PyTuple_New(0);
  PyObject *r = noargs ? ct_tensor_contiguous(converted, noargs, NULL) : NULL;
  Py_XDECREF(noargs);
  Py_DECREF(converted);
  return r;
}

/* torch's legacy types (FloatTensor & co.) are made in Python (ctensor/_legacy.py)
   from _C._LEGACY_TYPES, named by ct_dtype_legacy_name. */

/* t.type() is "ctensor.FloatTensor"; t.type(dtype or "torch.IntTensor") converts. */
static PyObject *tensor_type_m(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dtype", "non_blocking", NULL};
  PyObject *target = Py_None;
  int non_blocking = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|Op:type", kwlist, &target, &non_blocking)) return NULL;
  const tensor_dtype_t own = tensor_dtype(SELF(self));
  if (target == Py_None) {
    const char *legacy = ct_dtype_legacy_name(own);
    return PyUnicode_FromFormat("ctensor.%s", legacy ? legacy : "Tensor");
  }
  tensor_dtype_t dtype;
  if (PyUnicode_Check(target)) {
    const char *name = PyUnicode_AsUTF8(target);
    if (!name) return NULL;
    const char *dot = strrchr(name, '.');
    const char *base = dot ? dot + 1 : name;
    for (dtype = 0; dtype < CT_DTYPE_LIMIT; dtype++)
      if (ct_dtype_legacy_name(dtype) && strcmp(ct_dtype_legacy_name(dtype), base) == 0) break;
    if (dtype == CT_DTYPE_LIMIT) {
      PyErr_Format(PyExc_ValueError, "invalid type: '%s'", name);
      return NULL;
    }
  } else if (PyType_Check(target) && PyObject_HasAttrString(target, "dtype")) { /* FloatTensor & co. */
    PyObject *d = PyObject_GetAttrString(target, "dtype");
    const int rc = d ? ct_dtype_from_object(d, &dtype) : -1;
    Py_XDECREF(d);
    if (rc < 0) return NULL;
  } else if (ct_dtype_from_object(target, &dtype) < 0) {
    return NULL;
  }
  return convert_to(self, dtype);
}

/* t.new_zeros(...) & co.: the module's factory with t's dtype unless given. */
static PyObject *new_factory(PyObject *self, PyObject *args, PyObject *kwargs, const char *name) {
  PyObject *module = PyImport_ImportModule("ctensor");
  PyObject *fn = module ? PyObject_GetAttrString(module, name) : NULL;
  Py_XDECREF(module);
  if (!fn) return NULL;
  PyObject *kw = kwargs ? PyDict_Copy(kwargs) : PyDict_New();
  PyObject *r = NULL;
  if (kw && (PyDict_GetItemString(kw, "dtype") || PyDict_SetItemString(kw, "dtype", ct_dtype_object(tensor_dtype(SELF(self)))) == 0))
    r = PyObject_Call(fn, args, kw);
  Py_XDECREF(kw);
  Py_DECREF(fn);
  return r;
}

#define NEW_FACTORY(name)                                                                  \
  static PyObject *tensor_##name(PyObject *self, PyObject *args, PyObject *kwargs) {       \
    return new_factory(self, args, kwargs, #name + 4);                                     \
  }
NEW_FACTORY(new_zeros)
NEW_FACTORY(new_ones)
NEW_FACTORY(new_empty)
NEW_FACTORY(new_full)
NEW_FACTORY(new_tensor)

#define CONVERTER(name, code)                                     \
  static PyObject *tensor_##name(PyObject *self, PyObject *noargs) { \
    (void)noargs;                                                 \
    return convert_to(self, code);                                \
  }
CONVERTER(float_m, TENSOR_FLOAT32)
CONVERTER(double_m, TENSOR_FLOAT64)
CONVERTER(half_m, TENSOR_FLOAT16)
CONVERTER(bfloat16_m, TENSOR_BFLOAT16)
CONVERTER(long_m, TENSOR_INT64)
CONVERTER(int_m, TENSOR_INT32)
CONVERTER(short_m, TENSOR_INT16)
CONVERTER(byte_m, TENSOR_UINT8)
CONVERTER(char_m, TENSOR_INT8)
CONVERTER(bool_m, TENSOR_BOOL)
CONVERTER(cfloat_m, TENSOR_COMPLEX64)
CONVERTER(cdouble_m, TENSOR_COMPLEX128)

/* torch.Tensor's legacy constructor: Tensor() is empty, Tensor(2, 3) and
   Tensor(Size) are uninitialised float32 of that shape, Tensor(sequence) copies
   the data as float32. */
/* The legacy constructors: `typed` for FloatTensor & co., which refuse a tensor
   of another dtype; Tensor(t) aliases t whatever its dtype. */
static PyObject *legacy_new(PyObject *args, PyObject *kwargs, tensor_dtype_t dtype, int typed, const char *name) {
  if (kwargs && PyDict_GET_SIZE(kwargs)) {
    PyErr_Format(PyExc_TypeError, "%s(): takes no keyword arguments; use ctensor.tensor(data, dtype=...)", name);
    return NULL;
  }
  const Py_ssize_t n = PyTuple_GET_SIZE(args);
  PyObject *first = n ? PyTuple_GET_ITEM(args, 0) : NULL;
  if (n == 1 && Ct_Tensor_Check(first)) { /* an alias sharing the storage, as torch */
    if (typed && tensor_dtype(SELF(first)) != dtype) {
      PyErr_Format(PyExc_TypeError, "expected %R (got %R)", ct_dtype_object(dtype), ct_dtype_object(tensor_dtype(SELF(first))));
      return NULL;
    }
    return tensor_detach(first, NULL);
  }
  const int sizes_given = n == 0 || ct_is_size(first) ||
                          (PyIndex_Check(first) && !PySequence_Check(first)); /* arrays have __index__ too */
  if (!sizes_given) {
    if (n == 1 && PySequence_Check(first)) return ct_tensor_wrap(ct_tensor_from_data(first, dtype));
    PyErr_Format(PyExc_TypeError, "new(): data must be a sequence (got %.200s)", Py_TYPE(first)->tp_name);
    return NULL;
  }
  int64_t sizes[TENSOR_MAX_DIMS], ndim = 1;
  sizes[0] = 0;
  if (n && (ndim = ct_parse_sizes(args, sizes, name)) < 0) return NULL;
  tensor_t *t = NULL;
  const tensor_status_t st = tensor_empty(&t, ndim, sizes, dtype);
  return st == TENSOR_OK ? ct_tensor_wrap(t) : ct_raise(st);
}

/* torch.Tensor's legacy constructor: Tensor() is empty, Tensor(2, 3) and
   Tensor(Size) are uninitialised float32 of that shape, Tensor(sequence) copies
   the data as float32, Tensor(tensor) aliases it. */
static PyObject *tensor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  (void)type;
  return legacy_new(args, kwargs, TENSOR_FLOAT32, 0, "Tensor");
}

/* ---- torch.FloatTensor & co. --------------------------------------------- */

/* _legacy_new(dtype, name, *args): FloatTensor(*args) & co. (ctensor/_legacy.py),
   the legacy constructor in their dtype, refusing a tensor of another dtype. */
PyObject *ct_legacy_new(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  tensor_dtype_t dtype;
  const char *name;
  PyObject *head = PyTuple_GetSlice(args, 0, 2);
  const int ok = head && PyArg_ParseTuple(head, "O&s:_legacy_new", ct_dtype_converter, &dtype, &name);
  Py_XDECREF(head);
  if (!ok) return NULL;
  PyObject *rest = PyTuple_GetSlice(args, 2, PyTuple_GET_SIZE(args));
  PyObject *r = rest ? legacy_new(rest, kwargs, dtype, 1, name) : NULL;
  Py_XDECREF(rest);
  return r;
}

static int add_legacy_types(PyObject *module) {
  PyObject *types = PyDict_New();
  for (tensor_dtype_t d = 0; types && d < CT_DTYPE_LIMIT; d++) {
    const char *name = ct_dtype_legacy_name(d);
    if (name && PyDict_SetItemString(types, name, ct_dtype_object(d)) < 0) Py_CLEAR(types);
  }
  return types ? PyModule_AddObject(module, "_LEGACY_TYPES", types) : -1;
}

/* ---- the type ------------------------------------------------------------ */

static PyGetSetDef tensor_getset[] = {
    {"shape", tensor_get_shape, NULL, "The sizes, as a ctensor.Size.", NULL},
    {"dtype", tensor_get_dtype, NULL, "Element type.", NULL},
    {"ndim", tensor_get_ndim, NULL, "Number of dims.", NULL},
    {"itemsize", tensor_get_itemsize, NULL, "Bytes per element.", NULL},
    {"nbytes", tensor_get_nbytes, NULL, "numel() * itemsize.", NULL},
    {"device", tensor_get_device, NULL, "Where the memory lives ('cpu', or a DLPack device).", NULL},
    {"requires_grad", tensor_get_false, NULL, "Always False: ctensor has no autograd.", NULL},
    {"grad", tensor_get_none, NULL, "Always None: ctensor has no autograd.", NULL},
    {"is_leaf", tensor_get_true, NULL, "Always True: ctensor has no autograd.", NULL},
    {"is_cuda", tensor_get_false, NULL, "False: element access is on the CPU.", NULL},
    {"is_sparse", tensor_get_false, NULL, "False: ctensor tensors are strided.", NULL},
    {"is_quantized", tensor_get_false, NULL, "False.", NULL},
    {"is_meta", tensor_get_false, NULL, "False.", NULL},
    {"data", tensor_get_data, NULL, "A new tensor sharing this one's storage and layout.", NULL},
    {"is_readonly", tensor_get_is_readonly, NULL, "True if writes through this tensor are refused.", NULL},
    {"T", ct_tensor_get_T, NULL, "The dims reversed (a view).", NULL},
    {"mT", ct_tensor_get_mT, NULL, "The last two dims swapped (a view).", NULL},
    {"H", ct_tensor_get_H, NULL, "Conjugate transpose of a matrix (complex: read-only conjugated values).", NULL},
    {"mH", ct_tensor_get_mH, NULL, "Conjugate transpose of the last two dims (complex: read-only conjugated values).", NULL},
    {"__array_interface__", ct_tensor_array_interface, NULL, "NumPy's array interface (zero-copy).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

#define NOARGS(name, fn, doc) {name, (PyCFunction)(void (*)(void))(fn), METH_NOARGS, doc}
#define VARARGS(name, fn, doc) {name, (PyCFunction)(void (*)(void))(fn), METH_VARARGS, doc}
#define KWARGS(name, fn, doc) {name, (PyCFunction)(void (*)(void))(fn), METH_VARARGS | METH_KEYWORDS, doc}
#define ONEARG(name, fn, doc) {name, (PyCFunction)(void (*)(void))(fn), METH_O, doc}

static PyMethodDef tensor_methods[] = {
    KWARGS("size", tensor_size, "size(dim=None): the shape, or one size."),
    KWARGS("stride", tensor_stride, "stride(dim=None): strides in elements."),
    NOARGS("storage_offset", tensor_storage_offset_m, "Offset of element 0 in the storage, in elements."),
    NOARGS("dim", tensor_dim, "Number of dims."),
    NOARGS("ndimension", tensor_dim, "Number of dims."),
    NOARGS("numel", tensor_numel_m, "Number of elements."),
    NOARGS("nelement", tensor_numel_m, "Number of elements."),
    NOARGS("element_size", tensor_element_size, "Bytes per element."),
    NOARGS("is_contiguous", tensor_is_contiguous_m, "PyTorch's contiguity rule."),
    NOARGS("is_floating_point", tensor_is_floating_point, NULL),
    NOARGS("is_complex", tensor_is_complex, NULL),
    NOARGS("data_ptr", tensor_data_ptr, "Address of element 0."),
    NOARGS("untyped_storage", tensor_untyped_storage, "The storage this tensor views."),
    NOARGS("storage", tensor_storage_m, "The storage this tensor views, read as its dtype."),
    NOARGS("zero_", tensor_zero_, "fill_(0)."),
    NOARGS("is_signed", tensor_is_signed, "Whether the dtype is signed."),
    ONEARG("type_as", tensor_type_as, "to(other.dtype)."),
    KWARGS("movedim", tensor_movedim_m, "movedim(source, destination): a permuted view." CT_EXPERIMENTAL_NOTE),
    KWARGS("moveaxis", tensor_movedim_m, "moveaxis(source, destination): movedim." CT_EXPERIMENTAL_NOTE),
    NOARGS("detach", tensor_detach, "A view with the same metadata (no autograd to detach from)."),
    NOARGS("detach_", tensor_self, "self."),
    ONEARG("__deepcopy__", tensor_deepcopy, NULL),
    NOARGS("__copy__", tensor_detach, "copy.copy(t): a new tensor sharing t's storage, as torch's."),
    NOARGS("__reduce__", ct_tensor_reduce, NULL),
    ONEARG("__reduce_ex__", ct_tensor_reduce_ex, "Pickles the storage once, then the view (protocol 5: out of band)."),
    NOARGS("cpu", tensor_self, "self: the memory already is CPU memory or cannot move."),
    KWARGS("requires_grad_", tensor_requires_grad_, "requires_grad_(False) is self; True raises (no autograd)."),
    NOARGS("is_shared", ct_tensor_is_shared, "True if the storage is in shared memory (fd-backed)."),
    NOARGS("share_memory_", ct_tensor_share_memory_, "Moves the tensor to shared memory (no-op if there); returns self."),
    NOARGS("is_pinned", tensor_false, "False."),
    NOARGS("item", ct_tensor_item, "The value of a one-element tensor."),
    NOARGS("tolist", ct_tensor_tolist, "Nested lists of Python numbers."),
    NOARGS("__complex__", ct_tensor_complex, NULL),
    ONEARG("__format__", ct_tensor_format, NULL),
    KWARGS("numpy", ct_tensor_numpy, "numpy(force=False): a NumPy array sharing this tensor's memory."),
    KWARGS("__dlpack__", ct_tensor_dlpack, "__dlpack__(stream=None, max_version=None, dl_device=None, copy=None)"),
    NOARGS("__dlpack_device__", ct_tensor_dlpack_device, "(device_type, device_id) as DLPack numbers."),
    KWARGS("to", tensor_to_m, "to(dtype or device or tensor, *, copy=False): converted (self if nothing changes)."),
    KWARGS("type", tensor_type_m, "type(dtype=None): 'ctensor.FloatTensor', or converted to dtype."),
    KWARGS("new_zeros", tensor_new_zeros, "new_zeros(*size, dtype=self.dtype)."),
    KWARGS("new_ones", tensor_new_ones, "new_ones(*size, dtype=self.dtype)."),
    KWARGS("new_empty", tensor_new_empty, "new_empty(*size, dtype=self.dtype)."),
    KWARGS("new_full", tensor_new_full, "new_full(size, fill_value, dtype=self.dtype)."),
    KWARGS("new_tensor", tensor_new_tensor, "new_tensor(data, dtype=self.dtype): a copy."),
    NOARGS("float", tensor_float_m, NULL),
    NOARGS("double", tensor_double_m, NULL),
    NOARGS("half", tensor_half_m, NULL),
    NOARGS("bfloat16", tensor_bfloat16_m, NULL),
    NOARGS("long", tensor_long_m, NULL),
    NOARGS("int", tensor_int_m, NULL),
    NOARGS("short", tensor_short_m, NULL),
    NOARGS("byte", tensor_byte_m, NULL),
    NOARGS("char", tensor_char_m, NULL),
    NOARGS("bool", tensor_bool_m, NULL),
    NOARGS("cfloat", tensor_cfloat_m, NULL),
    NOARGS("cdouble", tensor_cdouble_m, NULL),
    KWARGS("as_strided", ct_tensor_as_strided, "as_strided(size, stride, storage_offset=None)"),
    KWARGS("view", ct_tensor_view, "view(*shape) or view(dtype)"),
    KWARGS("reshape", ct_tensor_reshape, "reshape(*shape)"),
    NOARGS("t", ct_tensor_t, "Transpose of a <= 2-D tensor."),
    KWARGS("transpose", ct_tensor_transpose, "transpose(dim0, dim1)"),
    KWARGS("swapaxes", ct_tensor_swapaxes, "swapaxes(axis0, axis1): transpose."),
    KWARGS("swapdims", ct_tensor_transpose, "swapdims(dim0, dim1): transpose."),
    NOARGS("t_", ct_tensor_t_, "t() in place: this object takes the new view."),
    KWARGS("transpose_", ct_tensor_transpose_, "transpose_(dim0, dim1): in place (this object takes the view)."),
    KWARGS("swapdims_", ct_tensor_transpose_, "swapdims_(dim0, dim1): transpose_."),
    KWARGS("squeeze_", ct_tensor_squeeze_, "squeeze_(dim=None): in place (this object takes the view)."),
    KWARGS("unsqueeze_", ct_tensor_unsqueeze_, "unsqueeze_(dim): in place (this object takes the view)."),
    KWARGS("as_strided_", ct_tensor_as_strided_, "as_strided_(size, stride, storage_offset=None): in place."),
    NOARGS("ravel", ct_tensor_ravel, "contiguous().view(-1): a view of a contiguous tensor, else a contiguous copy."),
    NOARGS("adjoint", ct_tensor_adjoint, "adjoint(): mH."),
    NOARGS("conj", ct_tensor_conj, "conj(): self for real dtypes; complex: the conjugates, read-only (no lazy conjugate view)." CT_EXPERIMENTAL_NOTE),
    NOARGS("conj_physical", ct_tensor_conj_physical, "conj_physical(): self for real dtypes; complex: the conjugates in a new tensor." CT_EXPERIMENTAL_NOTE),
    NOARGS("resolve_conj", ct_tensor_resolve_conj, "resolve_conj(): self, or a writable copy of conj()'s values (numpy() refuses those, as torch's conjugate views)."),
    NOARGS("is_conj", ct_tensor_is_conj, "is_conj(): False (ctensor's conjugates are never lazy)."),
    KWARGS("repeat", ct_tensor_repeat, "repeat(*repeats): a tiled copy."),
    KWARGS("__array__", ct_tensor_array, "__array__(dtype=None, copy=None): a NumPy array (shared unless converted or copy=True)."),
    KWARGS("__array_wrap__", ct_tensor_array_wrap, "NumPy ufunc results as tensors (torch's __array_wrap__)."),
    KWARGS("permute", ct_tensor_permute, "permute(*dims)"),
    KWARGS("expand", ct_tensor_expand, "expand(*sizes)"),
    ONEARG("expand_as", ct_tensor_expand_as, "expand_as(other)"),
    VARARGS("broadcast_to", ct_tensor_expand, "broadcast_to(shape)"),
    KWARGS("squeeze", ct_tensor_squeeze, "squeeze(dim=None)"),
    KWARGS("unsqueeze", ct_tensor_unsqueeze, "unsqueeze(dim)"),
    KWARGS("flatten", ct_tensor_flatten, "flatten(start_dim=0, end_dim=-1)"),
    KWARGS("narrow", ct_tensor_narrow, "narrow(dim, start, length)"),
    KWARGS("select", ct_tensor_select, "select(dim, index)"),
    KWARGS("unfold", ct_tensor_unfold, "unfold(dimension, size, step): sliding windows (a view)." CT_EXPERIMENTAL_NOTE),
    ONEARG("view_as", ct_tensor_view_as, "view_as(other)"),
    ONEARG("reshape_as", ct_tensor_reshape_as, "reshape_as(other)"),
    KWARGS("split", ct_tensor_split, "split(split_size_or_sections, dim=0): a tuple of views." CT_EXPERIMENTAL_NOTE),
    KWARGS("chunk", ct_tensor_chunk, "chunk(chunks, dim=0): a tuple of views." CT_EXPERIMENTAL_NOTE),
    KWARGS("tensor_split", ct_tensor_tensor_split, "tensor_split(indices_or_sections, dim=0): a tuple of views." CT_EXPERIMENTAL_NOTE),
    KWARGS("diagonal", ct_tensor_diagonal, "diagonal(offset=0, dim1=0, dim2=1): a view of the diagonal." CT_EXPERIMENTAL_NOTE),
    KWARGS("unflatten", ct_tensor_unflatten, "unflatten(dim, sizes): dim split into sizes (a view)." CT_EXPERIMENTAL_NOTE),
    KWARGS("unbind", ct_tensor_unbind, "unbind(dim=0): a tuple of views."),
    KWARGS("contiguous", ct_tensor_contiguous, "contiguous(memory_format=contiguous_format): self if contiguous, else a contiguous copy."),
    KWARGS("clone", ct_tensor_clone, "clone(memory_format=preserve_format): a copy (torch's preserve_format layout)."),
    ONEARG("copy_", ct_tensor_copy_, "copy_(src): self[...] = src, returns self."),
    KWARGS("fill_", ct_tensor_fill_, "fill_(value): every element = value, returns self."),
    {NULL, NULL, 0, NULL},
};

static PySequenceMethods tensor_as_sequence = {
    .sq_length = ct_tensor_len,
    .sq_item = ct_tensor_item_at,
    .sq_contains = ct_tensor_contains,
};

static PyMappingMethods tensor_as_mapping = {
    .mp_length = ct_tensor_len,
    .mp_subscript = ct_tensor_getitem,
    .mp_ass_subscript = ct_tensor_setitem,
};

PyTypeObject Ct_TensorType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ctensor.Tensor",
    .tp_basicsize = sizeof(TensorObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A strided view onto a refcounted storage (PyTorch's memory model).",
    .tp_dealloc = tensor_dealloc,
    .tp_repr = ct_tensor_repr,
    .tp_as_number = &ct_tensor_as_number,
    .tp_as_sequence = &tensor_as_sequence,
    .tp_as_mapping = &tensor_as_mapping,
    .tp_as_buffer = &ct_tensor_as_buffer,
    .tp_richcompare = ct_tensor_richcompare,
    .tp_iter = ct_tensor_iter,
    .tp_weaklistoffset = offsetof(TensorObject, weakreflist),
    .tp_methods = tensor_methods,
    .tp_getset = tensor_getset,
    .tp_new = tensor_new,
};

/* Methods defined in other files (math.c's, select_ops.c's, arrow.c's) join the type's own. */
int ct_tensor_add_methods(PyMethodDef *defs) {
  for (PyMethodDef *def = defs; def->ml_name; def++) {
    PyObject *descr = PyDescr_NewMethod(&Ct_TensorType, def);
    if (!descr || PyDict_SetItemString(Ct_TensorType.tp_dict, def->ml_name, descr) < 0) {
      Py_XDECREF(descr);
      return -1;
    }
    Py_DECREF(descr);
  }
  PyType_Modified(&Ct_TensorType);
  return 0;
}

int ct_tensor_init(PyObject *module) {
  /* == is element-wise, yet tensors stay hashable by identity, as in torch. */
  Ct_TensorType.tp_hash = PyBaseObject_Type.tp_hash;
  ct_math_number_slots(&ct_tensor_as_number);
  if (PyType_Ready(&Ct_TensorType) < 0 || ct_tensor_add_methods(ct_math_methods) < 0 ||
      ct_tensor_add_methods(ct_select_methods) < 0 || add_legacy_types(module) < 0)
    return -1;
  return PyModule_AddObjectRef(module, "Tensor", (PyObject *)&Ct_TensorType);
}
