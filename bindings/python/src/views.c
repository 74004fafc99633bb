/* Tensor methods that map onto the C view and copy functions. Views share the
   storage (so they keep a held buffer export alive); copies are new storages. */
#include "ctensor_py.h"

#define SELF(o) (((TensorObject *)(o))->t)

/* Wraps the result of a C call, or raises with `which` mapped to `exc`. */
static PyObject *result(tensor_status_t st, tensor_t *out, tensor_status_t which, PyObject *exc) {
  if (st != TENSOR_OK) return exc ? ct_raise_as(st, which, exc) : ct_raise(st);
  return ct_tensor_wrap(out);
}

/* A new tensor with self's exact metadata (torch's alias, e.g. t() of 1-D). */
static PyObject *alias(PyObject *self) {
  const tensor_t *t = SELF(self);
  tensor_t *out = NULL;
  tensor_status_t st = tensor_as_strided(&out, t, tensor_ndim(t), tensor_sizes(t), tensor_strides(t),
                                         tensor_storage_offset(t));
  return result(st, out, 0, NULL);
}

static int parse_int64(PyObject *obj, int64_t *out) {
  *out = PyLong_AsLongLong(obj);
  return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

PyObject *ct_tensor_as_strided(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"size", "stride", "storage_offset", NULL};
  PyObject *size_obj, *stride_obj, *offset_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O:as_strided", kwlist, &size_obj, &stride_obj,
                                   &offset_obj))
    return NULL;
  int64_t sizes[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
  PyObject *one = PyTuple_Pack(1, size_obj);
  if (!one) return NULL;
  const int64_t ndim = ct_parse_sizes(one, sizes, "as_strided");
  Py_DECREF(one);
  if (ndim < 0) return NULL;
  one = PyTuple_Pack(1, stride_obj);
  if (!one) return NULL;
  const int64_t nstrides = ct_parse_sizes(one, strides, "as_strided");
  Py_DECREF(one);
  if (nstrides < 0) return NULL;
  if (nstrides != ndim) {
    PyErr_Format(PyExc_RuntimeError, "mismatch in length of strides and shape");
    return NULL;
  }
  int64_t offset = tensor_storage_offset(SELF(self));
  if (offset_obj != Py_None && parse_int64(offset_obj, &offset) < 0) return NULL;
  tensor_t *out = NULL;
  tensor_status_t st = tensor_as_strided(&out, SELF(self), ndim, sizes, strides, offset);
  return result(st, out, TENSOR_E_BOUNDS, PyExc_RuntimeError); /* torch: "out of bounds for storage" */
}

static PyObject *view_of(PyObject *self, PyObject *args);

/* f(*sizes) also called as f(name=sizes) (view(size=...), reshape(shape=...)) or
   view(dtype=...): the keyword's value as the one positional argument. */
static PyObject *keyword_args(PyObject *args, PyObject *kwargs, const char *const *names, const char *what) {
  if (!kwargs || PyDict_GET_SIZE(kwargs) == 0) return Py_NewRef(args);
  PyObject *value = NULL;
  for (const char *const *n = names; *n && !value; n++) value = PyDict_GetItemString(kwargs, *n);
  if (!value || PyDict_GET_SIZE(kwargs) != 1 || PyTuple_GET_SIZE(args) != 0) {
    PyErr_Format(PyExc_TypeError, "%s() received an invalid combination of arguments", what);
    return NULL;
  }
  return PyTuple_Pack(1, value);
}

PyObject *ct_tensor_view(PyObject *self, PyObject *args_in, PyObject *kwargs) {
  static const char *const names[] = {"dtype", "size", NULL};
  PyObject *args = keyword_args(args_in, kwargs, names, "view");
  if (!args) return NULL;
  PyObject *r = view_of(self, args);
  Py_DECREF(args);
  return r;
}

static PyObject *view_of(PyObject *self, PyObject *args) {
  tensor_t *out = NULL;
  tensor_status_t st;
  if (PyTuple_GET_SIZE(args) == 1 && PyObject_TypeCheck(PyTuple_GET_ITEM(args, 0), &Ct_DtypeType)) {
    st = tensor_view_dtype(&out, SELF(self), ((DtypeObject *)PyTuple_GET_ITEM(args, 0))->code);
    return result(st, out, 0, NULL);
  }
  int64_t sizes[TENSOR_MAX_DIMS];
  const int64_t ndim = ct_parse_sizes(args, sizes, "view");
  if (ndim < 0) return NULL;
  st = tensor_view(&out, SELF(self), ndim, sizes);
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_reshape(PyObject *self, PyObject *args_in, PyObject *kwargs) {
  static const char *const names[] = {"shape", NULL};
  PyObject *args = keyword_args(args_in, kwargs, names, "reshape");
  if (!args) return NULL;
  int64_t sizes[TENSOR_MAX_DIMS];
  const int64_t ndim = ct_parse_sizes(args, sizes, "reshape");
  Py_DECREF(args);
  if (ndim < 0) return NULL;
  tensor_t *out = NULL;
  tensor_status_t st = tensor_reshape(&out, SELF(self), ndim, sizes);
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_t(PyObject *self, PyObject *noargs) {
  (void)noargs;
  const int64_t ndim = tensor_ndim(SELF(self));
  if (ndim > 2) {
    PyErr_Format(PyExc_RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is %lldD",
                 (long long)ndim);
    return NULL;
  }
  if (ndim < 2) return alias(self);
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_transpose(&out, SELF(self), 0, 1);
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_get_T(PyObject *self, void *closure) {
  (void)closure;
  const int64_t ndim = tensor_ndim(SELF(self));
  int64_t dims[TENSOR_MAX_DIMS];
  for (int64_t i = 0; i < ndim; i++) dims[i] = ndim - 1 - i;
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_permute(&out, SELF(self), ndim, dims);
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_get_mT(PyObject *self, void *closure) {
  (void)closure;
  const int64_t ndim = tensor_ndim(SELF(self));
  if (ndim == 0) return alias(self); /* torch: a 0-dim tensor is its own mT */
  if (ndim < 2) {
    PyErr_Format(PyExc_RuntimeError,
                 "tensor.mT is only supported on matrices or batches of matrices. Got %lld-D tensor.",
                 (long long)ndim);
    return NULL;
  }
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_transpose(&out, SELF(self), -2, -1);
  return result(st, out, 0, NULL);
}

static PyObject *transpose_named(PyObject *self, PyObject *args, PyObject *kwargs, char **kwlist, const char *fmt) {
  long long dim0, dim1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, fmt, kwlist, &dim0, &dim1)) return NULL;
  tensor_t *out = NULL;
  tensor_status_t st = tensor_transpose(&out, SELF(self), dim0, dim1);
  return result(st, out, TENSOR_E_INVALID, PyExc_IndexError);
}

PyObject *ct_tensor_transpose(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim0", "dim1", NULL};
  return transpose_named(self, args, kwargs, kwlist, "LL:transpose");
}

PyObject *ct_tensor_swapaxes(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"axis0", "axis1", NULL};
  return transpose_named(self, args, kwargs, kwlist, "LL:swapaxes");
}

PyObject *ct_tensor_permute(PyObject *self, PyObject *args_in, PyObject *kwargs) {
  static const char *const names[] = {"dims", NULL};
  PyObject *args = keyword_args(args_in, kwargs, names, "permute");
  if (!args) return NULL;
  int64_t dims[TENSOR_MAX_DIMS];
  const int64_t n = ct_parse_sizes(args, dims, "permute");
  Py_DECREF(args);
  if (n < 0) return NULL;
  const int64_t ndim = tensor_ndim(SELF(self));
  if (n != ndim) {
    PyErr_Format(PyExc_RuntimeError,
                 "permute(): number of dimensions in the tensor input does not match the length of "
                 "the desired ordering of dimensions i.e. input.dim() = %lld is not equal to len(dims) = %lld",
                 (long long)ndim, (long long)n);
    return NULL;
  }
  for (int64_t i = 0; i < n; i++)
    if (ct_wrap_dim(&dims[i], ndim) < 0) return NULL;
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_permute(&out, SELF(self), n, dims);
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_expand(PyObject *self, PyObject *args_in, PyObject *kwargs) {
  static const char *const names[] = {"size", NULL};
  PyObject *args = keyword_args(args_in, kwargs, names, "expand");
  if (!args) return NULL;
  int64_t sizes[TENSOR_MAX_DIMS];
  const int64_t ndim = ct_parse_sizes(args, sizes, "expand");
  Py_DECREF(args);
  if (ndim < 0) return NULL;
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_expand(&out, SELF(self), ndim, sizes);
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_expand_as(PyObject *self, PyObject *other) {
  if (!Ct_Tensor_Check(other)) {
    PyErr_Format(PyExc_TypeError, "expand_as(): argument 'other' must be Tensor, not %.200s",
                 Py_TYPE(other)->tp_name);
    return NULL;
  }
  const tensor_t *o = SELF(other);
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_expand(&out, SELF(self), tensor_ndim(o), tensor_sizes(o));
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_squeeze(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim", NULL};
  PyObject *dim_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:squeeze", kwlist, &dim_obj)) return NULL;
  int64_t dim = TENSOR_ALL_DIMS;
  if (dim_obj != Py_None && parse_int64(dim_obj, &dim) < 0) return NULL;
  tensor_t *out = NULL;
  tensor_status_t st = tensor_squeeze(&out, SELF(self), dim);
  return result(st, out, TENSOR_E_INVALID, PyExc_IndexError);
}

PyObject *ct_tensor_unsqueeze(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim", NULL};
  long long dim;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "L:unsqueeze", kwlist, &dim)) return NULL;
  tensor_t *out = NULL;
  tensor_status_t st = tensor_unsqueeze(&out, SELF(self), dim);
  return result(st, out, TENSOR_E_INVALID, PyExc_IndexError);
}

PyObject *ct_tensor_flatten(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"start_dim", "end_dim", NULL};
  long long start = 0, end = -1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|LL:flatten", kwlist, &start, &end)) return NULL;
  int64_t s = start, e = end;
  const int64_t ndim = tensor_ndim(SELF(self));
  if (ct_wrap_dim(&s, ndim) < 0 || ct_wrap_dim(&e, ndim) < 0) return NULL;
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_flatten(&out, SELF(self), s, e);
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_narrow(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim", "start", "length", NULL};
  long long dim, length;
  PyObject *start_obj;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LOL:narrow", kwlist, &dim, &start_obj, &length))
    return NULL;
  /* torch's narrow(dim, Tensor start, length) takes only a 0-dim integer tensor */
  if (Ct_Tensor_Check(start_obj)) {
    const tensor_t *s = SELF(start_obj);
    if (tensor_ndim(s) != 0 || ct_dtype_is_floating(tensor_dtype(s)) || ct_dtype_is_complex(tensor_dtype(s))) {
      PyErr_SetString(PyExc_RuntimeError, "start must be an 0-dim integral Tensor.");
      return NULL;
    }
  }
  const long long start = PyLong_AsLongLong(start_obj);
  if (start == -1 && PyErr_Occurred()) return NULL;
  if (tensor_ndim(SELF(self)) == 0) {
    PyErr_SetString(PyExc_RuntimeError, "narrow() cannot be applied to a 0-dim tensor.");
    return NULL;
  }
  int64_t d = dim;
  if (ct_wrap_dim(&d, tensor_ndim(SELF(self))) < 0) return NULL;
  /* torch wraps start as a dim index (start == size stays allowed): out of that
     range is an IndexError; start + length past the end a RuntimeError (below) */
  const int64_t size = tensor_sizes(SELF(self))[d], range = size > 0 ? size : 1;
  if (start != size && (start < -range || start >= range)) {
    PyErr_Format(PyExc_IndexError, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                 (long long)-range, (long long)(range - 1), start);
    return NULL;
  }
  tensor_t *out = NULL;
  tensor_status_t st = tensor_narrow(&out, SELF(self), d, start, length);
  return result(st, out, TENSOR_E_BOUNDS, PyExc_RuntimeError); /* torch: "exceeds dimension size" */
}

PyObject *ct_tensor_select(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim", "index", NULL};
  long long dim, index;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LL:select", kwlist, &dim, &index)) return NULL;
  tensor_t *out = NULL;
  tensor_status_t st = tensor_select(&out, SELF(self), dim, index);
  return result(st, out, TENSOR_E_INVALID, PyExc_IndexError);
}

/* memory_format=: contiguous_format and preserve_format; 0 (C order), 1
   (preserve) or -1 with an exception for the channels-last formats. */
int ct_memory_format(PyObject *format, const char *what, int fallback) {
  if (!format || format == Py_None) return fallback;
  PyObject *name = PyObject_Str(format);
  if (!name) return -1;
  const int contiguous = PyUnicode_CompareWithASCIIString(name, "ctensor.contiguous_format") == 0;
  const int preserve = PyUnicode_CompareWithASCIIString(name, "ctensor.preserve_format") == 0;
  if (!contiguous && !preserve)
    PyErr_Format(PyExc_NotImplementedError, "%s(): memory_format %U is not supported (ctensor has no channels-last layouts)",
                 what, name);
  Py_DECREF(name);
  return contiguous ? 0 : preserve ? 1 : -1;
}

static int memory_format(PyObject *args, PyObject *kwargs, const char *what, int fallback) {
  static char *kwlist[] = {"memory_format", NULL};
  PyObject *format = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$O", kwlist, &format)) return -1;
  return ct_memory_format(format, what, fallback);
}

PyObject *ct_tensor_contiguous(PyObject *self, PyObject *args, PyObject *kwargs) {
  if (memory_format(args, kwargs, "contiguous", 0) < 0) return NULL;
  tensor_t *out = NULL;
  tensor_status_t st = tensor_contiguous(&out, SELF(self));
  if (st != TENSOR_OK) return ct_raise(st);
  if (out == SELF(self)) { /* torch returns self itself when already contiguous */
    tensor_release(out);
    return Py_NewRef(self);
  }
  return ct_tensor_wrap(out);
}

PyObject *ct_tensor_clone(PyObject *self, PyObject *args, PyObject *kwargs) {
  const int preserve = args ? memory_format(args, kwargs, "clone", 1) : 1;
  if (preserve < 0) return NULL;
  if (!preserve) { /* contiguous_format: a C-order copy */
    tensor_t *out = NULL;
    const tensor_status_t st = tensor_clone(&out, SELF(self));
    return st == TENSOR_OK ? ct_tensor_wrap(out) : ct_raise(st);
  }
  return ct_tensor_wrap(ct_copy_like(SELF(self), tensor_dtype(SELF(self))));
}

PyObject *ct_tensor_copy_(PyObject *self, PyObject *src) {
  if (!Ct_Tensor_Check(src)) {
    PyErr_Format(PyExc_TypeError, "copy_(): argument 'src' must be Tensor, not %.200s",
                 Py_TYPE(src)->tp_name);
    return NULL;
  }
  tensor_status_t st = ct_copy(SELF(self), SELF(src));
  return st == TENSOR_OK ? Py_NewRef(self) : ct_raise(st);
}

PyObject *ct_tensor_fill_(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"value", NULL};
  PyObject *value;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:fill_", kwlist, &value)) return NULL;
  if (Ct_Tensor_Check(value) && tensor_ndim(SELF(value)) != 0) {
    PyErr_Format(PyExc_RuntimeError,
                 "fill_ only supports 0-dimension value tensor but got tensor with %lld dimensions.",
                 (long long)tensor_ndim(SELF(value)));
    return NULL;
  }
  return ct_fill(SELF(self), value) < 0 ? NULL : Py_NewRef(self);
}

PyObject *ct_tensor_unfold(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dimension", "size", "step", NULL};
  long long dimension, size, step;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LLL:unfold", kwlist, &dimension, &size, &step)) return NULL;
  int64_t d = dimension;
  if (ct_wrap_dim(&d, tensor_ndim(SELF(self))) < 0) return NULL; /* IndexError, as torch */
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_unfold(&out, SELF(self), d, size, step);
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_diagonal(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"offset", "dim1", "dim2", NULL};
  long long offset = 0, dim1 = 0, dim2 = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|LLL:diagonal", kwlist, &offset, &dim1, &dim2)) return NULL;
  int64_t d1 = dim1, d2 = dim2;
  const int64_t ndim = tensor_ndim(SELF(self));
  if (ct_wrap_dim(&d1, ndim) < 0 || ct_wrap_dim(&d2, ndim) < 0) return NULL; /* IndexError, as torch */
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_diagonal(&out, SELF(self), offset, d1, d2);
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_unflatten(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim", "sizes", NULL};
  long long dim;
  PyObject *sizes_obj;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LO:unflatten", kwlist, &dim, &sizes_obj)) return NULL;
  int64_t d = dim, sizes[TENSOR_MAX_DIMS];
  PyObject *wrapped = PyTuple_Pack(1, sizes_obj);
  const int64_t n = wrapped ? ct_parse_sizes(wrapped, sizes, "unflatten") : -1;
  Py_XDECREF(wrapped);
  if (n < 0) return NULL;
  if (n > 0 && tensor_ndim(SELF(self)) == 0) { /* torch does not wrap a 0-dim tensor's dim here */
    PyErr_Format(PyExc_IndexError, "Dimension specified as %lld but tensor has no dimensions", dim);
    return NULL;
  }
  if (n > 0 && ct_wrap_dim(&d, tensor_ndim(SELF(self))) < 0) return NULL; /* empty sizes: C's RuntimeError first */
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_unflatten(&out, SELF(self), d, n, sizes);
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_view_as(PyObject *self, PyObject *other) {
  if (!Ct_Tensor_Check(other)) {
    PyErr_Format(PyExc_TypeError, "view_as(): argument 'other' must be Tensor, not %.200s", Py_TYPE(other)->tp_name);
    return NULL;
  }
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_view(&out, SELF(self), tensor_ndim(SELF(other)), tensor_sizes(SELF(other)));
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_reshape_as(PyObject *self, PyObject *other) {
  if (!Ct_Tensor_Check(other)) {
    PyErr_Format(PyExc_TypeError, "reshape_as(): argument 'other' must be Tensor, not %.200s",
                 Py_TYPE(other)->tp_name);
    return NULL;
  }
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_reshape(&out, SELF(self), tensor_ndim(SELF(other)), tensor_sizes(SELF(other)));
  return result(st, out, 0, NULL);
}

/* ---- H, mH, ravel, repeat ------------------------------------------------ */

/* The conjugate transposes: the transposes, conjugated for complex dtypes by
   tensor_conj (read-only values where torch returns a lazy conjugate view). */
static PyObject *conjugated(PyObject *view) {
  if (!view || !ct_dtype_is_complex(tensor_dtype(SELF(view)))) return view;
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_conj(&out, SELF(view));
  Py_DECREF(view);
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_get_H(PyObject *self, void *closure) {
  const int64_t ndim = tensor_ndim(SELF(self));
  if (ndim == 1 || ndim > 2) {
    PyErr_Format(PyExc_RuntimeError, "tensor.H is only supported on matrices (2-D tensors). Got %lld-D tensor.%s",
                 (long long)ndim, ndim > 2 ? " For batches of matrices, consider using tensor.mH" : "");
    return NULL;
  }
  return conjugated(ct_tensor_get_T(self, closure));
}

PyObject *ct_tensor_get_mH(PyObject *self, void *closure) { return conjugated(ct_tensor_get_mT(self, closure)); }

PyObject *ct_tensor_adjoint(PyObject *self, PyObject *noargs) {
  (void)noargs;
  const int64_t ndim = tensor_ndim(SELF(self));
  if (ndim == 1) {
    PyErr_SetString(PyExc_RuntimeError,
                    "tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor.");
    return NULL;
  }
  return ct_tensor_get_mH(self, NULL);
}

/* conj(): self itself for real dtypes, as torch's. */
static PyObject *conj_with(PyObject *self, tensor_status_t (*fn)(tensor_t **, const tensor_t *)) {
  tensor_t *out = NULL;
  const tensor_status_t st = fn(&out, SELF(self));
  if (st == TENSOR_OK && out == SELF(self)) {
    tensor_release(out);
    return Py_NewRef(self);
  }
  return result(st, out, 0, NULL);
}

PyObject *ct_tensor_conj(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return conj_with(self, tensor_conj);
}

PyObject *ct_tensor_conj_physical(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return conj_with(self, tensor_conj_physical);
}

/* torch's resolve_conj: self, or for conj()'s values (C tensor_is_conj, where
   torch has a conjugate view) a writable copy that numpy() accepts. */
PyObject *ct_tensor_resolve_conj(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return tensor_is_conj(SELF(self)) ? PyObject_CallMethod(self, "clone", NULL) : Py_NewRef(self);
}

PyObject *ct_tensor_is_conj(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  Py_RETURN_FALSE;
}

/* torch's ravel is contiguous().view(-1): a view only of a contiguous tensor,
   else a contiguous copy (never a strided view, even where one would do). */
PyObject *ct_tensor_ravel(PyObject *self, PyObject *noargs) {
  (void)noargs;
  const int64_t flat = -1;
  tensor_t *dense = NULL, *out = NULL;
  tensor_status_t st = tensor_contiguous(&dense, SELF(self));
  if (st == TENSOR_OK) st = tensor_view(&out, dense, 1, &flat);
  tensor_release(dense);
  return result(st, out, 0, NULL);
}

/* torch.Tensor.repeat: a copy tiling self repeats[i] times along dim i (leading
   repeats add dims). Built as a zero-stride view of shape (r0, s0, r1, s1, ...)
   over self, copied contiguous, then viewed as (r0*s0, r1*s1, ...). */
PyObject *ct_tensor_repeat(PyObject *self, PyObject *args_in, PyObject *kwargs) {
  static const char *const names[] = {"repeats", NULL};
  PyObject *args = keyword_args(args_in, kwargs, names, "repeat");
  if (!args) return NULL;
  int64_t repeats[TENSOR_MAX_DIMS];
  const int64_t n = ct_parse_sizes(args, repeats, "repeat");
  Py_DECREF(args);
  if (n < 0) return NULL;
  const tensor_t *t = SELF(self);
  const int64_t ndim = tensor_ndim(t);
  if (n < ndim) {
    PyErr_SetString(PyExc_RuntimeError,
                    "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
    return NULL;
  }
  if (2 * n > TENSOR_MAX_DIMS) {
    PyErr_Format(PyExc_RuntimeError, "repeat(): %lld dims exceed ctensor's %d", (long long)n, TENSOR_MAX_DIMS / 2);
    return NULL;
  }
  int64_t sizes[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS], shape[TENSOR_MAX_DIMS];
  for (int64_t i = 0; i < n; i++) {
    if (repeats[i] < 0) {
      PyErr_Format(PyExc_RuntimeError, "Trying to create tensor with negative dimension %lld: [%lld]",
                   (long long)repeats[i], (long long)repeats[i]);
      return NULL;
    }
    const int64_t src = i - (n - ndim); /* leading repeats have no source dim */
    const int64_t size = src >= 0 ? tensor_sizes(t)[src] : 1;
    sizes[2 * i] = repeats[i];
    strides[2 * i] = 0;
    sizes[2 * i + 1] = size;
    strides[2 * i + 1] = src >= 0 ? tensor_strides(t)[src] : 0;
    shape[i] = repeats[i] * size;
  }
  tensor_t *tiled = NULL, *copy = NULL, *out = NULL;
  tensor_status_t st = tensor_as_strided(&tiled, t, 2 * n, sizes, strides, tensor_storage_offset(t));
  if (st == TENSOR_OK) st = tensor_clone(&copy, tiled);
  if (st == TENSOR_OK) st = tensor_view(&out, copy, n, shape);
  tensor_release(tiled);
  tensor_release(copy);
  return result(st, out, 0, NULL);
}

/* ---- in-place view ops ------------------------------------------------------ */

/* torch's t_(), squeeze_() & co. change the tensor's own metadata; a ctensor
   tensor_t is immutable, so the Python object takes the new view instead (other
   Python objects viewing the same storage are unaffected, as in torch). */
static PyObject *become(PyObject *self, PyObject *view) {
  if (!view) return NULL;
  tensor_t *old = SELF(self);
  SELF(self) = SELF(view);
  SELF(view) = old;
  Py_DECREF(view);
  return Py_NewRef(self);
}

PyObject *ct_tensor_t_(PyObject *self, PyObject *noargs) { return become(self, ct_tensor_t(self, noargs)); }
PyObject *ct_tensor_squeeze_(PyObject *self, PyObject *args, PyObject *kwargs) {
  return become(self, ct_tensor_squeeze(self, args, kwargs));
}
PyObject *ct_tensor_unsqueeze_(PyObject *self, PyObject *args, PyObject *kwargs) {
  return become(self, ct_tensor_unsqueeze(self, args, kwargs));
}
PyObject *ct_tensor_transpose_(PyObject *self, PyObject *args, PyObject *kwargs) {
  return become(self, ct_tensor_transpose(self, args, kwargs));
}
PyObject *ct_tensor_as_strided_(PyObject *self, PyObject *args, PyObject *kwargs) {
  return become(self, ct_tensor_as_strided(self, args, kwargs));
}
