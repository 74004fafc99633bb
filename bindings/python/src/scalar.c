/* Single elements: reading them as Python numbers and classifying Python
   numbers. Conversions between dtypes are left to the library (tensor_to,
   tensor_copy), so its rounding rules hold everywhere. */
#include <math.h>
#include <string.h>

#include "ctensor_py.h"

/* Elements may be unaligned (frombuffer with an odd offset): loaded through memcpy. */
#define DEFINE_LOAD(type)                      \
  static type load_##type(const char *p) {     \
    type v;                                    \
    memcpy(&v, p, sizeof v);                   \
    return v;                                  \
  }
DEFINE_LOAD(uint8_t)
DEFINE_LOAD(int8_t)
DEFINE_LOAD(int16_t)
DEFINE_LOAD(int32_t)
DEFINE_LOAD(int64_t)
DEFINE_LOAD(uint16_t)
DEFINE_LOAD(uint32_t)
DEFINE_LOAD(uint64_t)
#define LOAD(type) load_##type(p)

/* Floating and complex values convert through the library, so that its rules
   (and its float16 and bfloat16 decoding) hold here too. */
static PyObject *float_value(tensor_dtype_t dtype, const char *p) {
  double v = NAN; /* unknown dtype */
  tensor_convert(&v, TENSOR_FLOAT64, p, dtype, 1);
  return PyFloat_FromDouble(v);
}

static PyObject *complex_value(tensor_dtype_t dtype, const char *p) {
  double v[2] = {NAN, NAN};
  tensor_convert(v, TENSOR_COMPLEX128, p, dtype, 1);
  return PyComplex_FromDoubles(v[0], v[1]);
}

PyObject *ct_scalar_read(tensor_dtype_t dtype, const char *p) {
  switch (dtype) {
    case TENSOR_BOOL: return PyBool_FromLong(LOAD(uint8_t) != 0);
    case TENSOR_UINT8: return PyLong_FromLong(LOAD(uint8_t));
    case TENSOR_INT8: return PyLong_FromLong(LOAD(int8_t));
    case TENSOR_INT16: return PyLong_FromLong(LOAD(int16_t));
    case TENSOR_INT32: return PyLong_FromLong(LOAD(int32_t));
    case TENSOR_INT64: return PyLong_FromLongLong(LOAD(int64_t));
    case TENSOR_UINT16: return PyLong_FromLong(LOAD(uint16_t));
    case TENSOR_UINT32: return PyLong_FromUnsignedLong(LOAD(uint32_t));
    case TENSOR_UINT64: return PyLong_FromUnsignedLongLong(LOAD(uint64_t));
    case TENSOR_COMPLEX64: case TENSOR_COMPLEX128: return complex_value(dtype, p);
    default: return float_value(dtype, p);
  }
}

/* NumPy scalars are classified by their dtype's kind letter. */
static int numpy_scalar_kind(PyObject *obj) {
  PyObject *dtype = PyObject_GetAttrString(obj, "dtype");
  if (!dtype) return -1;
  PyObject *kind = PyObject_GetAttrString(dtype, "kind");
  Py_DECREF(dtype);
  if (!kind) return -1;
  const char *k = PyUnicode_AsUTF8(kind);
  int result = 0;
  if (k) {
    switch (k[0]) {
      case 'b': result = CT_KIND_BOOL; break;
      case 'i': case 'u': result = CT_KIND_INT; break;
      case 'f': result = CT_KIND_FLOAT; break;
      case 'c': result = CT_KIND_COMPLEX; break;
      default: result = 0;
    }
  } else {
    result = -1;
  }
  Py_DECREF(kind);
  return result;
}

int ct_scalar_kind(PyObject *obj) {
  if (PyBool_Check(obj)) return CT_KIND_BOOL;
  if (PyLong_Check(obj)) return CT_KIND_INT;
  if (PyFloat_Check(obj)) return CT_KIND_FLOAT;
  if (PyComplex_Check(obj)) return CT_KIND_COMPLEX;
  if (Ct_Tensor_Check(obj) && tensor_ndim(((TensorObject *)obj)->t) == 0) {
    const tensor_dtype_t d = tensor_dtype(((TensorObject *)obj)->t);
    if (d == TENSOR_BOOL) return CT_KIND_BOOL;
    if (ct_dtype_is_complex(d)) return CT_KIND_COMPLEX;
    return ct_dtype_is_floating(d) ? CT_KIND_FLOAT : CT_KIND_INT;
  }
  const int numpy_scalar = ct_is_numpy_scalar(obj);
  if (numpy_scalar) return numpy_scalar < 0 ? -1 : numpy_scalar_kind(obj);
  const int numpy_array = ct_is_numpy_array(obj); /* a 0-dim array is a number too */
  if (numpy_array <= 0) return numpy_array;
  PyObject *ndim = PyObject_GetAttrString(obj, "ndim");
  if (!ndim) return -1;
  const long n = PyLong_AsLong(ndim);
  Py_DECREF(ndim);
  return n == 0 ? numpy_scalar_kind(obj) : (n == -1 && PyErr_Occurred() ? -1 : 0);
}

/* ---- torch's checked Scalar conversion ---------------------------------- */

/* A number as torch's at::Scalar holds it: bool and int kinds in `i`, float in
   `re`, complex in `re` and `im`. */
typedef struct {
  int kind;
  int64_t i;
  double re, im;
} Number;

int ct_scalar_arg_kind(PyObject *obj) {
  const int kind = ct_scalar_kind(obj);
  if (kind <= 0 || PyBool_Check(obj) || PyLong_Check(obj) || PyFloat_Check(obj) || PyComplex_Check(obj) ||
      Ct_Tensor_Check(obj))
    return kind;
  const int array = ct_is_numpy_array(obj);
  if (array) return array < 0 ? -1 : 0;
  return kind == CT_KIND_INT ? kind : CT_KIND_FLOAT;
}

static int number_of(PyObject *value, Number *n) {
  PyObject *v = value;
  if (Ct_Tensor_Check(value)) { /* a one-element tensor: its item() */
    const tensor_t *t = ((TensorObject *)value)->t;
    if (tensor_numel(t) != 1) {
      PyErr_SetString(PyExc_ValueError, "only one element tensors can be converted to Python scalars");
      return -1;
    }
    if (ct_check_cpu(t, "read") < 0) return -1;
    v = ct_scalar_read(tensor_dtype(t), tensor_data(t));
    if (!v) return -1;
  } else {
    Py_INCREF(v);
  }
  n->kind = ct_scalar_arg_kind(v);
  n->i = 0;
  n->re = n->im = 0.0;
  int rc = 0;
  switch (n->kind) {
    case CT_KIND_BOOL: {
      const int b = PyObject_IsTrue(v);
      n->i = b > 0;
      rc = b < 0 ? -1 : 0;
      break;
    }
    case CT_KIND_INT: {
      PyObject *index = PyNumber_Index(v);
      int overflow = 0;
      const long long x = index ? PyLong_AsLongLongAndOverflow(index, &overflow) : -1;
      Py_XDECREF(index);
      if (x == -1 && PyErr_Occurred()) {
        rc = -1;
      } else if (overflow) {
        PyErr_SetString(PyExc_RuntimeError, "Overflow when unpacking long");
        rc = -1;
      }
      n->i = x;
      break;
    }
    case CT_KIND_FLOAT: { /* (NumPy complex64 scalars read as their real part) */
      const Py_complex c = PyComplex_AsCComplex(v);
      n->re = c.real;
      rc = c.real == -1.0 && PyErr_Occurred() ? -1 : 0;
      break;
    }
    case CT_KIND_COMPLEX: {
      const Py_complex c = PyComplex_AsCComplex(v);
      n->re = c.real;
      n->im = c.imag;
      rc = c.real == -1.0 && PyErr_Occurred() ? -1 : 0;
      break;
    }
    default:
      if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "expected a number, got %.200s", Py_TYPE(v)->tp_name);
      rc = -1;
  }
  Py_DECREF(v);
  return rc;
}

tensor_t *ct_scalar_checked(PyObject *value, tensor_dtype_t dtype) {
  Number n;
  if (number_of(value, &n) < 0) return NULL;
  /* the library checks the range (PyTorch's checked_convert) */
  double checked[2];
  tensor_status_t st;
  if (n.kind == CT_KIND_BOOL || n.kind == CT_KIND_INT) st = tensor_scalar_convert_int64(checked, dtype, n.i);
  else if (n.kind == CT_KIND_FLOAT) st = tensor_scalar_convert_float64(checked, dtype, n.re);
  else st = tensor_scalar_convert_complex128(checked, dtype, n.re, n.im);
  if (st != TENSOR_OK) return (tensor_t *)ct_raise(st);
  /* then the value, in the widest dtype of its kind, converts with the binding's
     policy (PyTorch's x86 results: float16 and bfloat16 through float32) */
  union {
    uint8_t b;
    int64_t i;
    double f;
    double c[2];
  } v;
  tensor_dtype_t wide;
  if (dtype == TENSOR_BOOL) {
    wide = TENSOR_BOOL;
    v.b = n.kind <= CT_KIND_INT ? n.i != 0 : n.re != 0.0; /* torch: complex by its real part */
  } else if (n.kind <= CT_KIND_INT) {
    wide = TENSOR_INT64;
    v.i = n.i;
  } else if (ct_dtype_is_complex(dtype)) {
    wide = TENSOR_COMPLEX128;
    v.c[0] = n.re;
    v.c[1] = n.im;
  } else {
    wide = TENSOR_FLOAT64;
    v.f = n.re;
  }
  tensor_t *w = NULL, *out = NULL;
  st = tensor_from_data(&w, &v, 0, NULL, wide);
  if (st == TENSOR_OK) st = ct_to(&out, w, dtype);
  tensor_release(w);
  return st == TENSOR_OK ? out : (tensor_t *)ct_raise(st);
}
