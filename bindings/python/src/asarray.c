/* Python data to tensors: torch.asarray's share-or-copy rules and the copying
   path of torch.tensor for scalars and nested sequences (dtype inference as
   torch: bool, int64 for ints, float32 for floats, complex64 for complex, the
   own dtype of NumPy scalars and 0-dim tensors, promoted together). */
#include <math.h>
#include <string.h>

#include "ctensor_py.h"

/* ---- dtype inference ---------------------------------------------------- */

/* dtype of a NumPy scalar from its dtype's array-interface string ("<f8"). */
static tensor_dtype_t numpy_scalar_dtype(PyObject *obj) {
  PyObject *dtype = PyObject_GetAttrString(obj, "dtype");
  PyObject *str = dtype ? PyObject_GetAttrString(dtype, "str") : NULL;
  Py_XDECREF(dtype);
  const char *s = str ? PyUnicode_AsUTF8(str) : NULL;
  tensor_dtype_t d = -1;
  for (tensor_dtype_t code = 0; s && d < 0 && code < CT_DTYPE_LIMIT; code++)
    if (ct_dtype_typestr(code) && strcmp(s, ct_dtype_typestr(code)) == 0) d = code;
  Py_XDECREF(str);
  if (d < 0 && !PyErr_Occurred())
    PyErr_Format(PyExc_TypeError, "can't convert NumPy scalar of type %.200s", Py_TYPE(obj)->tp_name);
  return d;
}

/* The dtype a scalar leaf asks for, or -1 with an exception (`given`: the
   caller named a dtype, so a leaf that is no number is a TypeError). */
static tensor_dtype_t leaf_dtype(PyObject *obj, int64_t depth, int given) {
  /* exact Python numbers first: the common case, and cheaper than the NumPy check */
  if (PyBool_Check(obj)) return TENSOR_BOOL;
  if (PyLong_CheckExact(obj)) return TENSOR_INT64;
  if (PyFloat_CheckExact(obj)) return TENSOR_FLOAT32;
  if (PyComplex_CheckExact(obj)) return TENSOR_COMPLEX64;
  if (Ct_Tensor_Check(obj)) return tensor_dtype(CT_SELF(obj));
  const int kind = ct_scalar_kind(obj);
  if (kind < 0) return -1;
  if (kind > 0 && PyObject_HasAttrString(obj, "dtype")) /* NumPy scalars and 0-dim arrays */
    return numpy_scalar_dtype(obj);
  if (PyLong_Check(obj)) return TENSOR_INT64;
  if (PyFloat_Check(obj)) return TENSOR_FLOAT32;
  if (PyComplex_Check(obj)) return TENSOR_COMPLEX64;
  if (PyUnicode_Check(obj) && depth > 0) /* torch sees a string in a list as one more dim */
    PyErr_Format(PyExc_ValueError, "too many dimensions '%.200s'", Py_TYPE(obj)->tp_name);
  else if (PyUnicode_Check(obj) || PyBytes_Check(obj) || PyByteArray_Check(obj))
    PyErr_Format(PyExc_TypeError, "new(): invalid data type '%.200s'", Py_TYPE(obj)->tp_name);
  else if (given) /* torch converts the leaf to the dtype asked for: a TypeError */
    PyErr_Format(PyExc_TypeError, "must be real number, not %.200s", Py_TYPE(obj)->tp_name);
  else
    PyErr_Format(PyExc_RuntimeError, "Could not infer dtype of %.200s", Py_TYPE(obj)->tp_name);
  return -1;
}

/* 1 if obj is one more level of nesting, 0 if a leaf, -1 on error. */
static int is_nested(PyObject *obj) {
  if (PyUnicode_Check(obj) || PyBytes_Check(obj)) return 0; /* a bytearray is a sequence of ints to torch */
  if (Ct_Tensor_Check(obj)) return 0; /* torch: a tensor in a list is one number (if it holds one) */
  const int kind = ct_scalar_kind(obj);
  return kind < 0 ? -1 : kind == 0 && PySequence_Check(obj);
}

/* ---- nested sequences --------------------------------------------------- */

typedef struct {
  int64_t ndim;
  int64_t sizes[TENSOR_MAX_DIMS];
  tensor_dtype_t dtype; /* promoted over the leaves */
  int dtype_given;      /* the caller named the result's dtype */
} Layout;

static int measure(PyObject *data, Layout *layout) {
  PyObject *cur = Py_NewRef(data);
  layout->ndim = 0;
  int nested;
  while ((nested = is_nested(cur)) > 0) {
    if (layout->ndim == TENSOR_MAX_DIMS) {
      PyErr_Format(PyExc_ValueError, "too many dimensions (more than %d)", TENSOR_MAX_DIMS);
      break;
    }
    const Py_ssize_t n = PySequence_Size(cur);
    if (n < 0) break;
    layout->sizes[layout->ndim++] = n;
    if (n == 0) break;
    Py_SETREF(cur, PySequence_GetItem(cur, 0));
    if (!cur) return -1;
    char kind;
    int itemsize;
    if (ct_numpy_zero_dim(cur, &kind, &itemsize)) { /* torch measures it as a sequence: len() fails */
      PyErr_SetString(PyExc_TypeError, "len() of unsized object");
      break;
    }
  }
  Py_DECREF(cur);
  return nested < 0 || PyErr_Occurred() ? -1 : 0;
}

/* Checks the nesting against layout->sizes and promotes the leaves' dtypes. */
static int check(PyObject *obj, int64_t depth, Layout *layout) {
  const int nested = is_nested(obj);
  if (nested < 0) return -1;
  if (depth == layout->ndim) {
    if (nested)
      return PyErr_Format(PyExc_TypeError, "expected a number at dim %lld, got a sequence of type %.200s",
                   (long long)depth, Py_TYPE(obj)->tp_name), -1;
    const tensor_dtype_t d = leaf_dtype(obj, depth, layout->dtype_given);
    if (d < 0) return -1;
    /* a named dtype makes the leaves' promotion moot (and uint64 with int64 fine) */
    if (layout->dtype_given || layout->dtype < 0) {
      layout->dtype = d;
      return 0;
    }
    const tensor_status_t st = tensor_promote_types(&layout->dtype, layout->dtype, d);
    return st == TENSOR_OK ? 0 : (ct_raise(st), -1);
  }
  if (!nested)
    return PyErr_Format(PyExc_TypeError, "expected a sequence at dim %lld, got %.200s", (long long)depth,
                 Py_TYPE(obj)->tp_name), -1;
  PyObject *fast = PySequence_Fast(obj, "not a sequence");
  if (!fast) return -1;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  int rc = n == layout->sizes[depth] ? 0 : -1;
  if (rc) PyErr_Format(PyExc_ValueError, "expected sequence of length %lld at dim %lld (got %zd)",
                       (long long)layout->sizes[depth], (long long)depth, n);
  for (Py_ssize_t i = 0; rc == 0 && i < n; i++) rc = check(PySequence_Fast_GET_ITEM(fast, i), depth + 1, layout);
  Py_DECREF(fast);
  return rc;
}

/* Widest dtype of a category: the buffer is filled in it, then converted once. */
static tensor_dtype_t wide(tensor_dtype_t d) {
  static const tensor_dtype_t by_category[] = {
      [TENSOR_KIND_BOOL] = TENSOR_BOOL, [TENSOR_KIND_INT] = TENSOR_INT64,
      [TENSOR_KIND_FLOAT] = TENSOR_FLOAT64, [TENSOR_KIND_COMPLEX] = TENSOR_COMPLEX128};
  return by_category[tensor_dtype_kind(d)];
}

/* Stores one leaf into the buffer of the final dtype's category as torch's
   store_scalar does: bool takes the value's truth (floats and complex by value,
   anything else through __index__), integer dtypes take floats range-checked and
   truncated and anything else through __index__, range-checked (a float32 NumPy
   scalar is a TypeError there, as in torch); floating dtypes take __float__ and
   complex ones __complex__, unchecked (a huge int is an OverflowError). Leaves
   that are tensors convert through their number methods, as torch's do. */
static int store(PyObject *obj, tensor_dtype_t dtype, char *dst) {
  switch (wide(dtype)) {
    case TENSOR_BOOL: {
      int b;
      if (PyFloat_Check(obj)) {
        b = PyFloat_AS_DOUBLE(obj) != 0.0;
      } else if (PyComplex_Check(obj)) {
        const Py_complex c = PyComplex_AsCComplex(obj);
        b = c.real != 0.0 || c.imag != 0.0;
      } else {
        PyObject *index = PyNumber_Index(obj);
        b = index ? PyObject_IsTrue(index) : -1;
        Py_XDECREF(index);
      }
      if (b < 0) return -1;
      *(uint8_t *)dst = (uint8_t)b;
      return 0;
    }
    case TENSOR_INT64: {
      int64_t v;
      if (PyFloat_Check(obj)) {
        const double d = PyFloat_AS_DOUBLE(obj);
        double checked[2]; /* the library's range check; the value is stored below */
        const tensor_status_t st = tensor_scalar_convert_float64(checked, dtype, d);
        if (st != TENSOR_OK) return ct_raise(st), -1;
        const double t = trunc(d);
        v = t >= 9223372036854775807.0 ? INT64_MAX : (int64_t)t;
      } else {
        PyObject *index = PyNumber_Index(obj);
        int overflow = 0;
        const long long x = index ? PyLong_AsLongLongAndOverflow(index, &overflow) : -1;
        Py_XDECREF(index);
        if (x == -1 && PyErr_Occurred()) return -1;
        if (overflow) return PyErr_SetString(PyExc_RuntimeError, "Overflow when unpacking long"), -1;
        double checked[2];
        const tensor_status_t st = tensor_scalar_convert_int64(checked, dtype, x);
        if (st != TENSOR_OK) return ct_raise(st), -1;
        v = x;
      }
      memcpy(dst, &v, sizeof v);
      return 0;
    }
    case TENSOR_FLOAT64: {
      const double v = PyFloat_AsDouble(obj);
      if (v == -1.0 && PyErr_Occurred()) return -1;
      memcpy(dst, &v, sizeof v);
      return 0;
    }
    default: {
      const Py_complex c = PyComplex_AsCComplex(obj);
      if (c.real == -1.0 && PyErr_Occurred()) return -1;
      memcpy(dst, &c.real, sizeof(double));
      memcpy(dst + sizeof(double), &c.imag, sizeof(double));
      return 0;
    }
  }
}

static int fill(PyObject *obj, int64_t depth, const Layout *layout, tensor_dtype_t dtype, char **dst) {
  if (depth == layout->ndim) {
    if (store(obj, dtype, *dst) < 0) return -1;
    *dst += tensor_dtype_size(wide(dtype));
    return 0;
  }
  PyObject *fast = PySequence_Fast(obj, "not a sequence");
  if (!fast) return -1;
  int rc = 0;
  for (Py_ssize_t i = 0; rc == 0 && i < PySequence_Fast_GET_SIZE(fast); i++)
    rc = fill(PySequence_Fast_GET_ITEM(fast, i), depth + 1, layout, dtype, dst);
  Py_DECREF(fast);
  return rc;
}

tensor_t *ct_tensor_from_data(PyObject *data, tensor_dtype_t dtype) {
  Layout layout;
  layout.dtype = -1;
  layout.dtype_given = dtype >= 0;
  if (measure(data, &layout) < 0 || check(data, 0, &layout) < 0) return NULL;
  if (layout.dtype < 0) layout.dtype = TENSOR_FLOAT32; /* no leaves: torch.tensor([]) */
  if (dtype < 0) dtype = layout.dtype;
  const tensor_dtype_t wide_dtype = wide(dtype);
  tensor_t *buffer = NULL, *out = NULL;
  tensor_status_t st = tensor_empty(&buffer, layout.ndim, layout.sizes, wide_dtype);
  if (st != TENSOR_OK) return (tensor_t *)ct_raise(st);
  char *dst = tensor_data(buffer);
  if (fill(data, 0, &layout, dtype, &dst) < 0) return tensor_release(buffer), NULL;
  st = ct_to(&out, buffer, dtype);
  tensor_release(buffer);
  return st == TENSOR_OK ? out : (tensor_t *)ct_raise(st);
}

/* Values given to assignments (index.c's t[...] = v, advanced.c's index_put)
   as torch takes them: without leading size-1 dims beyond the destination's. */
tensor_t *ct_drop_leading_ones(tensor_t *src, int64_t ndim) {
  if (!src) return NULL;
  int64_t lead = 0;
  const int64_t n = tensor_ndim(src);
  while (lead < n && tensor_sizes(src)[lead] == 1 && n - lead > ndim) lead++;
  if (lead == 0) return src;
  tensor_t *stripped = NULL;
  const tensor_status_t st = tensor_as_strided(&stripped, src, n - lead, tensor_sizes(src) + lead,
                                               tensor_strides(src) + lead, tensor_storage_offset(src));
  tensor_release(src);
  return st == TENSOR_OK ? stripped : (tensor_t *)ct_raise(st);
}

/* ---- asarray and tensor ------------------------------------------------- */

/* A copy of a shared tensor in dtype (-1: its own), consuming `shared`. */
static tensor_t *copy_of(tensor_t *shared, tensor_dtype_t dtype) {
  if (!shared) return NULL;
  tensor_t *out = ct_copy_like(shared, dtype >= 0 ? dtype : tensor_dtype(shared));
  tensor_release(shared);
  return out;
}

static PyObject *asarray(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *kwlist[] = {"obj", "dtype", "device", "copy", "requires_grad", NULL};
  PyObject *obj, *device = Py_None, *copy_obj = Py_None;
  tensor_dtype_t dtype = -1;
  int requires_grad = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$O&OOp:asarray", kwlist, &obj, ct_dtype_converter,
                                   &dtype, &device, &copy_obj, &requires_grad))
    return NULL;
  if (ct_check_options(device, requires_grad, "asarray") < 0) return NULL;
  int copy = -1; /* None: share when possible */
  if (copy_obj != Py_None && (copy = PyObject_IsTrue(copy_obj)) < 0) return NULL;

  tensor_t *shared = NULL;
  if (Ct_Tensor_Check(obj)) {
    shared = tensor_retain(CT_SELF(obj));
  } else if (ct_is_numpy_array(obj) > 0) {
    shared = ct_tensor_from_strided_buffer(obj);
    if (!shared) return NULL;
  } else if (!PyErr_Occurred() && ct_is_numpy_scalar(obj) > 0) {
    /* NumPy scalars are immutable values: always a 0-dim copy in their own dtype. */
    if (copy == 0)
      return PyErr_Format(PyExc_ValueError, "can't alias NumPy scalars: they own no shareable memory");
    return ct_tensor_wrap(copy_of(ct_tensor_from_strided_buffer(obj), dtype));
  } else if (!PyErr_Occurred() && (PyCapsule_CheckExact(obj) || PyObject_HasAttrString(obj, "__dlpack__"))) {
    shared = ct_tensor_from_dlpack_object(obj);
    if (!shared) return NULL;
  } else if (!PyErr_Occurred() && PyObject_CheckBuffer(obj)) {
    /* torch: raw bytes grouped by the requested dtype (default float32) */
    PyObject *fb_args = PyTuple_Pack(1, obj);
    PyObject *fb_kwargs = fb_args ? Py_BuildValue("{s:O}", "dtype", ct_dtype_object(dtype >= 0 ? dtype : TENSOR_FLOAT32))
                                  : NULL;
    PyObject *t = fb_kwargs ? ct_frombuffer(NULL, fb_args, fb_kwargs) : NULL;
    Py_XDECREF(fb_args);
    Py_XDECREF(fb_kwargs);
    if (!t) return NULL;
    shared = tensor_retain(CT_SELF(t));
    Py_DECREF(t);
  }
  if (PyErr_Occurred()) return NULL;

  if (!shared) { /* scalars and nested sequences: always a new tensor */
    if (copy == 0) return PyErr_Format(PyExc_ValueError, "can't alias arbitrary sequence into a tensor.");
    return ct_tensor_wrap(ct_tensor_from_data(obj, dtype));
  }
  const int wrong_dtype = dtype >= 0 && dtype != tensor_dtype(shared);
  if (copy == 1 || (copy < 0 && wrong_dtype)) return ct_tensor_wrap(copy_of(shared, dtype));
  if (wrong_dtype) { /* copy=False: the library's refusal, with its message */
    tensor_t *out = NULL;
    tensor_status_t st = tensor_to(&out, shared, dtype, TENSOR_COPY_NEVER);
    tensor_release(shared);
    tensor_release(out);
    return ct_raise(st);
  }
  if (Ct_Tensor_Check(obj)) return tensor_release(shared), Py_NewRef(obj); /* torch.asarray(t) is t */
  return ct_tensor_wrap(shared);
}

static PyObject *tensor_factory(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *kwlist[] = {"data", "dtype", "device", "requires_grad", "pin_memory", NULL};
  PyObject *data, *device = Py_None;
  tensor_dtype_t dtype = -1;
  int requires_grad = 0, pin_memory = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$O&Opp:tensor", kwlist, &data, ct_dtype_converter,
                                   &dtype, &device, &requires_grad, &pin_memory))
    return NULL;
  if (ct_check_options(device, requires_grad, "tensor") < 0) return NULL;
  if (Ct_Tensor_Check(data)) return ct_tensor_wrap(copy_of(tensor_retain(CT_SELF(data)), dtype));
  const int is_numpy = ct_is_numpy_array(data) > 0 || (!PyErr_Occurred() && ct_is_numpy_scalar(data) > 0);
  if (PyErr_Occurred()) return NULL;
  if (is_numpy) return ct_tensor_wrap(copy_of(ct_tensor_from_strided_buffer(data), dtype));
  if (PyObject_HasAttrString(data, "__dlpack__")) /* e.g. a torch.Tensor */
    return ct_tensor_wrap(copy_of(ct_tensor_from_dlpack_object(data), dtype));
  return ct_tensor_wrap(ct_tensor_from_data(data, dtype));
}

static PyMethodDef asarray_functions[] = {
    CT_KWARGS("asarray", asarray, "asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False): "
                                  "torch.asarray's share-or-copy rules."),
    CT_KWARGS("tensor", tensor_factory, "tensor(data, *, dtype=None): always a copy."),
    {NULL, NULL, 0, NULL},
};

int ct_asarray_register(PyObject *module) { return ct_add_functions(module, asarray_functions); }
