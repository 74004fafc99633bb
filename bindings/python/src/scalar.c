/* Single elements: reading them as Python numbers and classifying Python
   numbers. Conversions between dtypes are left to the library (tensor_to,
   tensor_copy), so its rounding rules hold everywhere. */
#include <math.h>
#include <string.h>

#include "ctensor_py.h"

static double half_to_double(uint16_t h) {
  const int sign = h >> 15, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  double v;
  if (exp == 0) v = ldexp(mant, -24); /* subnormal */
  else if (exp == 31) v = mant ? NAN : INFINITY;
  else v = ldexp(mant + 1024, exp - 25);
  return sign ? -v : v;
}

static double bfloat16_to_double(uint16_t b) {
  const uint32_t bits = (uint32_t)b << 16;
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

#define LOAD(type) (*(const type *)p)

double ct_scalar_as_double(tensor_dtype_t dtype, const char *p) {
  switch (dtype) {
    case TENSOR_UINT8: return LOAD(uint8_t);
    case TENSOR_INT8: return LOAD(int8_t);
    case TENSOR_INT16: return LOAD(int16_t);
    case TENSOR_INT32: return LOAD(int32_t);
    case TENSOR_INT64: return (double)LOAD(int64_t);
    case TENSOR_UINT16: return LOAD(uint16_t);
    case TENSOR_UINT32: return LOAD(uint32_t);
    case TENSOR_UINT64: return (double)LOAD(uint64_t);
    case TENSOR_BOOL: return LOAD(uint8_t) != 0;
    case TENSOR_FLOAT16: return half_to_double(LOAD(uint16_t));
    case TENSOR_BFLOAT16: return bfloat16_to_double(LOAD(uint16_t));
    case TENSOR_FLOAT32: case TENSOR_COMPLEX64: return LOAD(float);
    case TENSOR_FLOAT64: case TENSOR_COMPLEX128: return LOAD(double);
    default: return NAN;
  }
}

double ct_scalar_imag(tensor_dtype_t dtype, const char *p) {
  if (dtype == TENSOR_COMPLEX64) return ((const float *)p)[1];
  if (dtype == TENSOR_COMPLEX128) return ((const double *)p)[1];
  return 0.0;
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
    case TENSOR_COMPLEX64: case TENSOR_COMPLEX128:
      return PyComplex_FromDoubles(ct_scalar_as_double(dtype, p), ct_scalar_imag(dtype, p));
    default: return PyFloat_FromDouble(ct_scalar_as_double(dtype, p));
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

tensor_t *ct_scalar_tensor(PyObject *obj) {
  union {
    uint8_t b;
    int64_t i;
    double f;
    double c[2];
  } v;
  tensor_dtype_t dtype;
  PyObject *value = obj;
  if (Ct_Tensor_Check(obj)) { /* a 0-dim tensor: read its element as a Python number */
    const tensor_t *t = ((TensorObject *)obj)->t;
    if (ct_check_cpu(t, "read") < 0) return NULL;
    value = ct_scalar_read(tensor_dtype(t), tensor_data(t));
    if (!value) return NULL;
  } else {
    Py_INCREF(value);
  }
  const int kind = ct_scalar_kind(value);
  switch (kind) {
    case CT_KIND_BOOL:
      dtype = TENSOR_BOOL;
      v.b = (uint8_t)PyObject_IsTrue(value);
      break;
    case CT_KIND_INT: {
      dtype = TENSOR_INT64;
      PyObject *index = PyNumber_Index(value);
      v.i = index ? PyLong_AsLongLong(index) : -1;
      Py_XDECREF(index);
      if (v.i == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
          PyErr_Clear();
          PyErr_SetString(PyExc_RuntimeError, "Overflow when unpacking long");
        }
        Py_DECREF(value);
        return NULL;
      }
      break;
    }
    case CT_KIND_FLOAT:
      dtype = TENSOR_FLOAT64;
      v.f = PyFloat_AsDouble(value);
      break;
    case CT_KIND_COMPLEX: {
      dtype = TENSOR_COMPLEX128;
      Py_complex c = PyComplex_AsCComplex(value);
      v.c[0] = c.real;
      v.c[1] = c.imag;
      break;
    }
    default:
      if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "expected a number, got %.200s", Py_TYPE(value)->tp_name);
      Py_DECREF(value);
      return NULL;
  }
  Py_DECREF(value);
  if (PyErr_Occurred()) return NULL;
  tensor_t *t = NULL;
  tensor_status_t st = tensor_from_data(&t, &v, 0, NULL, dtype);
  if (st != TENSOR_OK) return (tensor_t *)ct_raise(st);
  return t;
}
