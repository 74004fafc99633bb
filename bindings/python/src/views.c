/* Tensor methods that map onto the C view and copy functions. Views share the
   storage (so they keep a held buffer export alive); copies are new storages. */
#include "ctensor_py.h"

/* A new tensor with self's exact metadata (torch's alias, e.g. t() of 1-D). */
static PyObject *alias(PyObject *self) {
  const tensor_t *t = CT_SELF(self);
  tensor_t *out = NULL;
  tensor_status_t st = tensor_as_strided(&out, t, tensor_ndim(t), tensor_sizes(t), tensor_strides(t),
                                         tensor_storage_offset(t));
  return ct_result(st, out, 0, NULL);
}

static int parse_int64(PyObject *obj, int64_t *out) {
  *out = PyLong_AsLongLong(obj);
  return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* One sequence of ints (as_strided's size and stride): its length, or -1. */
static int64_t one_sizes(PyObject *obj, int64_t *sizes, const char *what) {
  PyObject *one = PyTuple_Pack(1, obj);
  const int64_t n = one ? ct_parse_sizes(one, sizes, what) : -1;
  Py_XDECREF(one);
  return n;
}

/* size(dim=None) and stride(dim=None): one entry of the sizes or strides, or all of them
   (hot in user loops, so in C). */
static PyObject *dim_entry(PyObject *self, PyObject *args, PyObject *kwargs, int strides) {
  static char *kwlist[] = {"dim", NULL};
  PyObject *dim_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, strides ? "|O:stride" : "|O:size", kwlist, &dim_obj)) return NULL;
  const int64_t ndim = tensor_ndim(CT_SELF(self)), *v = strides ? tensor_strides(CT_SELF(self)) : tensor_sizes(CT_SELF(self));
  if (dim_obj == Py_None) { /* the sizes as a Size, the strides as a plain tuple */
    PyObject *size = ct_size_new(ndim, v);
    if (!strides || !size) return size;
    Py_SETREF(size, PySequence_Tuple(size));
    return size;
  }
  if (PyUnicode_Check(dim_obj)) /* torch reads a str as a dim name; ctensor's dims have none */
    return PyErr_Format(PyExc_RuntimeError, "Name '%U' not found in Tensor (its dims are unnamed).", dim_obj);
  int64_t dim;
  if (parse_int64(dim_obj, &dim) < 0) return NULL;
  if (ndim == 0)
    return PyErr_Format(PyExc_IndexError, "dimension specified as %lld but tensor has no dimensions", (long long)dim);
  return ct_wrap_dim(&dim, ndim) < 0 ? NULL : PyLong_FromLongLong(v[dim]);
}

static PyObject *tensor_size(PyObject *self, PyObject *args, PyObject *kwargs) { return dim_entry(self, args, kwargs, 0); }

static PyObject *tensor_stride(PyObject *self, PyObject *args, PyObject *kwargs) { return dim_entry(self, args, kwargs, 1); }

static PyObject *ct_tensor_as_strided(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"size", "stride", "storage_offset", NULL};
  PyObject *size_obj, *stride_obj, *offset_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO|O:as_strided", kwlist, &size_obj, &stride_obj,
                                   &offset_obj))
    return NULL;
  int64_t sizes[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
  const int64_t ndim = one_sizes(size_obj, sizes, "as_strided");
  if (ndim < 0) return NULL;
  const int64_t nstrides = one_sizes(stride_obj, strides, "as_strided");
  if (nstrides < 0) return NULL;
  if (nstrides != ndim) return PyErr_Format(PyExc_RuntimeError, "mismatch in length of strides and shape");
  int64_t offset = tensor_storage_offset(CT_SELF(self));
  if (offset_obj != Py_None && parse_int64(offset_obj, &offset) < 0) return NULL;
  tensor_t *out = NULL;
  tensor_status_t st = tensor_as_strided(&out, CT_SELF(self), ndim, sizes, strides, offset);
  return ct_result(st, out, TENSOR_E_BOUNDS, PyExc_RuntimeError); /* torch: "out of bounds for storage" */
}

/* f(*sizes) also called as f(name=sizes) (view(size=...), reshape(shape=...)) or
   view(dtype=...): the keyword's value as the one positional argument. */
static PyObject *keyword_args(PyObject *args, PyObject *kwargs, const char *const *names, const char *what) {
  if (!kwargs || PyDict_GET_SIZE(kwargs) == 0) return Py_NewRef(args);
  PyObject *value = NULL;
  for (const char *const *n = names; *n && !value; n++) value = PyDict_GetItemString(kwargs, *n);
  if (!value || PyDict_GET_SIZE(kwargs) != 1 || PyTuple_GET_SIZE(args) != 0)
    return PyErr_Format(PyExc_TypeError, "%s() received an invalid combination of arguments", what);
  return PyTuple_Pack(1, value);
}

/* f(*sizes) also called as f(name=sizes): the sizes' count, or -1. */
static int64_t sizes_of(PyObject *args, PyObject *kwargs, const char *const *names, const char *what, int64_t *sizes) {
  PyObject *packed = keyword_args(args, kwargs, names, what);
  if (!packed) return -1;
  const int64_t n = ct_parse_sizes(packed, sizes, what);
  Py_DECREF(packed);
  return n;
}

static PyObject *ct_tensor_view(PyObject *self, PyObject *args_in, PyObject *kwargs) {
  static const char *const names[] = {"dtype", "size", NULL};
  PyObject *args = keyword_args(args_in, kwargs, names, "view");
  if (!args) return NULL;
  int64_t sizes[TENSOR_MAX_DIMS], ndim = 0;
  tensor_t *out = NULL;
  tensor_status_t st = TENSOR_OK;
  if (PyTuple_GET_SIZE(args) == 1 && PyObject_TypeCheck(PyTuple_GET_ITEM(args, 0), &Ct_DtypeType))
    st = tensor_view_dtype(&out, CT_SELF(self), ((DtypeObject *)PyTuple_GET_ITEM(args, 0))->code);
  else if ((ndim = ct_parse_sizes(args, sizes, "view")) >= 0)
    st = tensor_view(&out, CT_SELF(self), ndim, sizes);
  Py_DECREF(args);
  return ndim < 0 ? NULL : ct_result(st, out, 0, NULL);
}

/* reshape(*shape) and expand(*sizes), the sizes also given by keyword. */
static PyObject *sized(PyObject *self, PyObject *args, PyObject *kwargs, const char *const *names, const char *what,
                       tensor_status_t (*fn)(tensor_t **, const tensor_t *, int64_t, const int64_t *)) {
  int64_t sizes[TENSOR_MAX_DIMS];
  const int64_t ndim = sizes_of(args, kwargs, names, what, sizes);
  if (ndim < 0) return NULL;
  tensor_t *out = NULL;
  const tensor_status_t st = fn(&out, CT_SELF(self), ndim, sizes);
  return ct_result(st, out, 0, NULL);
}

static PyObject *ct_tensor_reshape(PyObject *self, PyObject *args, PyObject *kwargs) {
  static const char *const names[] = {"shape", NULL};
  return sized(self, args, kwargs, names, "reshape", tensor_reshape);
}

static PyObject *ct_tensor_t(PyObject *self, PyObject *noargs) {
  (void)noargs;
  const int64_t ndim = tensor_ndim(CT_SELF(self));
  if (ndim > 2)
    return PyErr_Format(PyExc_RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is %lldD",
                 (long long)ndim);
  if (ndim < 2) return alias(self);
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_transpose(&out, CT_SELF(self), 0, 1);
  return ct_result(st, out, 0, NULL);
}

static PyObject *ct_tensor_get_T(PyObject *self, void *closure) {
  (void)closure;
  const int64_t ndim = tensor_ndim(CT_SELF(self));
  int64_t dims[TENSOR_MAX_DIMS];
  for (int64_t i = 0; i < ndim; i++) dims[i] = ndim - 1 - i;
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_permute(&out, CT_SELF(self), ndim, dims);
  return ct_result(st, out, 0, NULL);
}

static PyObject *ct_tensor_get_mT(PyObject *self, void *closure) {
  (void)closure;
  const int64_t ndim = tensor_ndim(CT_SELF(self));
  if (ndim == 0) return alias(self); /* torch: a 0-dim tensor is its own mT */
  if (ndim < 2)
    return PyErr_Format(PyExc_RuntimeError,
                 "tensor.mT is only supported on matrices or batches of matrices. Got %lld-D tensor.",
                 (long long)ndim);
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_transpose(&out, CT_SELF(self), -2, -1);
  return ct_result(st, out, 0, NULL);
}

static PyObject *ct_tensor_transpose(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim0", "dim1", NULL};
  long long dim0, dim1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LL:transpose", kwlist, &dim0, &dim1)) return NULL;
  tensor_t *out = NULL;
  tensor_status_t st = tensor_transpose(&out, CT_SELF(self), dim0, dim1);
  return ct_result(st, out, TENSOR_E_INVALID, PyExc_IndexError);
}

static PyObject *ct_tensor_permute(PyObject *self, PyObject *args, PyObject *kwargs) {
  static const char *const names[] = {"dims", NULL};
  int64_t dims[TENSOR_MAX_DIMS];
  const int64_t n = sizes_of(args, kwargs, names, "permute", dims);
  if (n < 0) return NULL;
  const int64_t ndim = tensor_ndim(CT_SELF(self));
  if (n != ndim)
    return PyErr_Format(PyExc_RuntimeError,
                 "permute(): number of dimensions in the tensor input does not match the length of "
                 "the desired ordering of dimensions i.e. input.dim() = %lld is not equal to len(dims) = %lld",
                 (long long)ndim, (long long)n);
  for (int64_t i = 0; i < n; i++)
    if (ct_wrap_dim(&dims[i], ndim) < 0) return NULL;
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_permute(&out, CT_SELF(self), n, dims);
  return ct_result(st, out, 0, NULL);
}

static PyObject *ct_tensor_expand(PyObject *self, PyObject *args, PyObject *kwargs) {
  static const char *const names[] = {"size", NULL};
  return sized(self, args, kwargs, names, "expand", tensor_expand);
}

static PyObject *ct_tensor_squeeze(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim", NULL};
  PyObject *dim_obj = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:squeeze", kwlist, &dim_obj)) return NULL;
  int64_t dim = TENSOR_ALL_DIMS;
  if (dim_obj != Py_None && parse_int64(dim_obj, &dim) < 0) return NULL;
  tensor_t *out = NULL;
  tensor_status_t st = tensor_squeeze(&out, CT_SELF(self), dim);
  return ct_result(st, out, TENSOR_E_INVALID, PyExc_IndexError);
}

static PyObject *ct_tensor_unsqueeze(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim", NULL};
  long long dim;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "L:unsqueeze", kwlist, &dim)) return NULL;
  tensor_t *out = NULL;
  tensor_status_t st = tensor_unsqueeze(&out, CT_SELF(self), dim);
  return ct_result(st, out, TENSOR_E_INVALID, PyExc_IndexError);
}

static PyObject *ct_tensor_flatten(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"start_dim", "end_dim", NULL};
  long long start = 0, end = -1;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|LL:flatten", kwlist, &start, &end)) return NULL;
  int64_t s = start, e = end;
  const int64_t ndim = tensor_ndim(CT_SELF(self));
  if (ct_wrap_dim(&s, ndim) < 0 || ct_wrap_dim(&e, ndim) < 0) return NULL;
  tensor_t *out = NULL;
  const tensor_status_t st = tensor_flatten(&out, CT_SELF(self), s, e);
  return ct_result(st, out, 0, NULL);
}

static PyObject *ct_tensor_narrow(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim", "start", "length", NULL};
  long long dim, length;
  PyObject *start_obj;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LOL:narrow", kwlist, &dim, &start_obj, &length))
    return NULL;
  /* torch's narrow(dim, Tensor start, length) takes only a 0-dim integer tensor */
  if (Ct_Tensor_Check(start_obj)) {
    const tensor_t *s = CT_SELF(start_obj);
    if (tensor_ndim(s) != 0 || ct_dtype_is_floating(tensor_dtype(s)) || ct_dtype_is_complex(tensor_dtype(s)))
      return PyErr_Format(PyExc_RuntimeError, "start must be an 0-dim integral Tensor.");
  }
  const long long start = PyLong_AsLongLong(start_obj);
  if (start == -1 && PyErr_Occurred()) return NULL;
  if (tensor_ndim(CT_SELF(self)) == 0)
    return PyErr_Format(PyExc_RuntimeError, "narrow() cannot be applied to a 0-dim tensor.");
  int64_t d = dim;
  if (ct_wrap_dim(&d, tensor_ndim(CT_SELF(self))) < 0) return NULL;
  /* torch wraps start as a dim index (start == size stays allowed): out of that
     range is an IndexError; start + length past the end a RuntimeError (below) */
  const int64_t size = tensor_sizes(CT_SELF(self))[d], range = size > 0 ? size : 1;
  if (start != size && (start < -range || start >= range))
    return PyErr_Format(PyExc_IndexError, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
                 (long long)-range, (long long)(range - 1), start);
  tensor_t *out = NULL;
  tensor_status_t st = tensor_narrow(&out, CT_SELF(self), d, start, length);
  return ct_result(st, out, TENSOR_E_BOUNDS, PyExc_RuntimeError); /* torch: "exceeds dimension size" */
}

static PyObject *ct_tensor_select(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim", "index", NULL};
  long long dim, index;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "LL:select", kwlist, &dim, &index)) return NULL;
  tensor_t *out = NULL;
  tensor_status_t st = tensor_select(&out, CT_SELF(self), dim, index);
  return ct_result(st, out, TENSOR_E_INVALID, PyExc_IndexError);
}

/* memory_format=: 0 contiguous_format (C order), 1 preserve_format, `fallback`
   when absent or None; -1 (NotImplementedError) for the channels-last formats. */
static int memory_format(PyObject *args, PyObject *kwargs, const char *what, int fallback) {
  static char *kwlist[] = {"memory_format", NULL};
  PyObject *format = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|$O", kwlist, &format)) return -1;
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

static PyObject *ct_tensor_contiguous(PyObject *self, PyObject *args, PyObject *kwargs) {
  if (memory_format(args, kwargs, "contiguous", 0) < 0) return NULL;
  tensor_t *out = NULL;
  tensor_status_t st = tensor_contiguous(&out, CT_SELF(self));
  if (st != TENSOR_OK) return ct_raise(st);
  if (out == CT_SELF(self)) return tensor_release(out), Py_NewRef(self); /* torch returns self itself then */
  return ct_tensor_wrap(out);
}

static PyObject *ct_tensor_clone(PyObject *self, PyObject *args, PyObject *kwargs) {
  const int preserve = args ? memory_format(args, kwargs, "clone", 1) : 1;
  if (preserve < 0) return NULL;
  if (!preserve) { /* contiguous_format: a C-order copy */
    tensor_t *out = NULL;
    const tensor_status_t st = tensor_clone(&out, CT_SELF(self));
    return st == TENSOR_OK ? ct_tensor_wrap(out) : ct_raise(st);
  }
  return ct_tensor_wrap(ct_copy_like(CT_SELF(self), tensor_dtype(CT_SELF(self))));
}

static PyObject *ct_tensor_copy_(PyObject *self, PyObject *src) {
  if (!Ct_Tensor_Check(src))
    return PyErr_Format(PyExc_TypeError, "copy_(): argument 'src' must be Tensor, not %.200s",
                 Py_TYPE(src)->tp_name);
  tensor_status_t st = ct_copy(CT_SELF(self), CT_SELF(src));
  return st == TENSOR_OK ? Py_NewRef(self) : ct_raise(st);
}

static PyObject *ct_tensor_fill_(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"value", NULL};
  PyObject *value;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:fill_", kwlist, &value)) return NULL;
  if (Ct_Tensor_Check(value) && tensor_ndim(CT_SELF(value)) != 0)
    return PyErr_Format(PyExc_RuntimeError,
                 "fill_ only supports 0-dimension value tensor but got tensor with %lld dimensions.",
                 (long long)tensor_ndim(CT_SELF(value)));
  return ct_fill(CT_SELF(self), value) < 0 ? NULL : Py_NewRef(self);
}

/* ---- in-place view ops ------------------------------------------------------ */

/* _become(self, view): torch's t_(), squeeze_() & co. change the tensor's own
   metadata; a ctensor tensor_t is immutable, so the Python object takes the new
   view instead (other Python objects viewing the same storage are unaffected, as
   in torch). The methods are ctensor/_tensor_methods.py's. */
static PyObject *fn_become(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *self, *view;
  if (!PyArg_ParseTuple(args, "O!O!:_become", &Ct_TensorType, &self, &Ct_TensorType, &view)) return NULL;
  tensor_t *old = CT_SELF(self);
  CT_SELF(self) = CT_SELF(view);
  CT_SELF(view) = old;
  return Py_NewRef(self);
}

/* ---- registration ------------------------------------------------------------ */

static PyGetSetDef views_getset[] = {
    {"T", ct_tensor_get_T, NULL, "The dims reversed (a view).", NULL},
    {"mT", ct_tensor_get_mT, NULL, "The last two dims swapped (a view).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef views_methods[] = {
    CT_KWARGS("size", tensor_size, "size(dim=None): the shape, or one size."),
    CT_KWARGS("stride", tensor_stride, "stride(dim=None): strides in elements."),
    CT_KWARGS("as_strided", ct_tensor_as_strided, "as_strided(size, stride, storage_offset=None)"),
    CT_KWARGS("view", ct_tensor_view, "view(*shape) or view(dtype)"),
    CT_KWARGS("reshape", ct_tensor_reshape, "reshape(*shape)"),
    CT_NOARGS("t", ct_tensor_t, "Transpose of a <= 2-D tensor."),
    CT_KWARGS("transpose", ct_tensor_transpose, "transpose(dim0, dim1)"),
    CT_KWARGS("swapdims", ct_tensor_transpose, "swapdims(dim0, dim1): transpose."),
    CT_KWARGS("permute", ct_tensor_permute, "permute(*dims)"),
    CT_KWARGS("expand", ct_tensor_expand, "expand(*sizes)"),
    CT_VARARGS("broadcast_to", ct_tensor_expand, "broadcast_to(shape)"),
    CT_KWARGS("squeeze", ct_tensor_squeeze, "squeeze(dim=None)"),
    CT_KWARGS("unsqueeze", ct_tensor_unsqueeze, "unsqueeze(dim)"),
    CT_KWARGS("flatten", ct_tensor_flatten, "flatten(start_dim=0, end_dim=-1)"),
    CT_KWARGS("narrow", ct_tensor_narrow, "narrow(dim, start, length)"),
    CT_KWARGS("select", ct_tensor_select, "select(dim, index)"),
    CT_KWARGS("contiguous", ct_tensor_contiguous, "contiguous(memory_format=contiguous_format): self if contiguous, else a contiguous copy."),
    CT_KWARGS("clone", ct_tensor_clone, "clone(memory_format=preserve_format): a copy (torch's preserve_format layout)."),
    CT_ONEARG("copy_", ct_tensor_copy_, "copy_(src): self[...] = src, returns self."),
    CT_KWARGS("fill_", ct_tensor_fill_, "fill_(value): every element = value, returns self."),
    {NULL, NULL, 0, NULL},
};

static PyMethodDef views_functions[] = {
    {"_become", fn_become, METH_VARARGS, "_become(self, view): self takes view's metadata (the in-place view ops)."},
    {NULL, NULL, 0, NULL},
};

int ct_views_register(PyObject *module) {
  if (ct_tensor_add_methods(views_methods) < 0 || ct_tensor_add_getset(views_getset) < 0) return -1;
  return ct_add_functions(module, views_functions);
}
