/* Element values of a tensor as Python objects: tolist/item, the number slots
   (bool, int, float, index, complex, format), len/iteration and == with a number. */
#include "ctensor_py.h"

#define SELF(o) (((TensorObject *)(o))->t)

/* ---- element values ------------------------------------------------------ */

static PyObject *tolist_rec(tensor_dtype_t dtype, const char *p, int64_t ndim,
                            const int64_t *sizes, const int64_t *strides, size_t itemsize) {
  if (ndim == 0) return ct_scalar_read(dtype, p);
  PyObject *list = PyList_New(sizes[0]);
  for (int64_t i = 0; list && i < sizes[0]; i++) {
    PyObject *item = tolist_rec(dtype, p + i * strides[0] * (int64_t)itemsize, ndim - 1,
                                sizes + 1, strides + 1, itemsize);
    if (!item) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, i, item);
  }
  return list;
}

PyObject *ct_tensor_tolist(PyObject *self, PyObject *noargs) {
  (void)noargs;
  const tensor_t *t = SELF(self);
  if (ct_check_cpu(t, "tolist") < 0) return NULL;
  const tensor_dtype_t dtype = tensor_dtype(t);
  return tolist_rec(dtype, tensor_data(t), tensor_ndim(t), tensor_sizes(t), tensor_strides(t),
                    tensor_dtype_size(dtype));
}

/* The single element of a one-element tensor, as Python number. */
static PyObject *single_value(PyObject *self, const char *what) {
  const tensor_t *t = SELF(self);
  if (tensor_numel(t) != 1) {
    PyErr_Format(PyExc_ValueError, "only one element tensors can be converted to Python scalars");
    return NULL;
  }
  if (ct_check_cpu(t, what) < 0) return NULL;
  return ct_scalar_read(tensor_dtype(t), tensor_data(t));
}

PyObject *ct_tensor_item(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return single_value(self, "item");
}

static int tensor_bool(PyObject *self) {
  if (tensor_numel(SELF(self)) > 1) {
    PyErr_SetString(PyExc_RuntimeError, "Boolean value of Tensor with more than one value is ambiguous");
    return -1;
  }
  PyObject *v = single_value(self, "bool");
  if (!v) return -1;
  const int r = PyObject_IsTrue(v);
  Py_DECREF(v);
  return r;
}

static PyObject *tensor_int(PyObject *self) {
  PyObject *v = single_value(self, "int");
  if (!v) return NULL;
  PyObject *r = PyNumber_Long(v);
  Py_DECREF(v);
  return r;
}

static PyObject *tensor_float(PyObject *self) {
  PyObject *v = single_value(self, "float");
  if (!v) return NULL;
  PyObject *r = PyNumber_Float(v);
  Py_DECREF(v);
  return r;
}

PyObject *ct_tensor_complex(PyObject *self, PyObject *noargs) {
  (void)noargs;
  PyObject *v = single_value(self, "complex");
  if (!v) return NULL;
  PyObject *r = PyObject_CallOneArg((PyObject *)&PyComplex_Type, v);
  Py_DECREF(v);
  return r;
}

static PyObject *tensor_index(PyObject *self) {
  const tensor_dtype_t d = tensor_dtype(SELF(self));
  if (tensor_numel(SELF(self)) != 1 || ct_dtype_is_floating(d) || ct_dtype_is_complex(d) ||
      d == TENSOR_BOOL) {
    PyErr_SetString(PyExc_TypeError,
                    "only integer tensors of a single element can be converted to an index");
    return NULL;
  }
  return single_value(self, "index");
}

/* f"{t:.3f}" formats a 0-dim tensor's value, as torch does. */
PyObject *ct_tensor_format(PyObject *self, PyObject *spec) {
  if (tensor_ndim(SELF(self)) != 0) return PyObject_CallMethod((PyObject *)&PyBaseObject_Type, "__format__", "OO", self, spec);
  PyObject *v = single_value(self, "format");
  if (!v) return NULL;
  PyObject *r = PyObject_Format(v, spec);
  Py_DECREF(v);
  return r;
}

/* ---- len, iteration, == ------------------------------------------------- */

Py_ssize_t ct_tensor_len(PyObject *self) {
  if (tensor_ndim(SELF(self)) == 0) {
    PyErr_SetString(PyExc_TypeError, "len() of a 0-d tensor");
    return -1;
  }
  return (Py_ssize_t)tensor_sizes(SELF(self))[0];
}

PyObject *ct_tensor_iter(PyObject *self) {
  if (tensor_ndim(SELF(self)) == 0) {
    PyErr_SetString(PyExc_TypeError, "iteration over a 0-d tensor");
    return NULL;
  }
  return PySeqIter_New(self); /* self[0], self[1], ... until IndexError */
}

/* Element-wise == / != against a Python number: a bool tensor of self's shape. */
static PyObject *compare_scalar(PyObject *self, PyObject *other, int op) {
  const tensor_t *t = SELF(self);
  if (ct_check_cpu(t, "eq") < 0) return NULL;
  Py_complex want;
  int64_t want_int = 0;
  const int kind = ct_scalar_kind(other);
  const tensor_dtype_t dtype = tensor_dtype(t);
  const int exact_int = kind <= CT_KIND_INT && !ct_dtype_is_floating(dtype) && !ct_dtype_is_complex(dtype);
  if (exact_int) { /* compare integers exactly, not through double */
    want_int = PyLong_AsLongLong(other);
    if (want_int == -1 && PyErr_Occurred()) return NULL;
  } else {
    want = PyComplex_AsCComplex(other);
    if (want.real == -1.0 && PyErr_Occurred()) return NULL;
  }
  const int64_t ndim = tensor_ndim(t);
  tensor_t *out = NULL;
  tensor_status_t st = tensor_empty(&out, ndim, tensor_sizes(t), TENSOR_BOOL);
  if (st != TENSOR_OK) return ct_raise(st);
  uint8_t *dst = tensor_data(out);
  const int64_t numel = tensor_numel(t);
  const int64_t *sizes = tensor_sizes(t), *strides = tensor_strides(t);
  const int64_t itemsize = (int64_t)tensor_dtype_size(dtype);
  int64_t index[TENSOR_MAX_DIMS] = {0};
  const char *p = tensor_data(t);
  for (int64_t n = 0; n < numel; n++) {
    int eq;
    if (exact_int) {
      PyObject *v = ct_scalar_read(dtype, p);
      if (!v) {
        tensor_release(out);
        return NULL;
      }
      eq = PyLong_AsLongLong(v) == want_int && !PyErr_Occurred();
      PyErr_Clear(); /* a uint64 beyond int64 simply differs */
      Py_DECREF(v);
    } else {
      eq = ct_scalar_as_double(dtype, p) == want.real && ct_scalar_imag(dtype, p) == want.imag;
    }
    dst[n] = (uint8_t)(op == Py_EQ ? eq : !eq);
    for (int64_t d = ndim - 1; d >= 0; d--) { /* next index, last dim fastest */
      p += strides[d] * itemsize;
      if (++index[d] < sizes[d]) break;
      p -= strides[d] * itemsize * sizes[d];
      index[d] = 0;
    }
  }
  return ct_tensor_wrap(out);
}

PyObject *ct_tensor_richcompare(PyObject *self, PyObject *other, int op) {
  if ((op != Py_EQ && op != Py_NE) || Ct_Tensor_Check(other) || ct_scalar_kind(other) <= 0) {
    if (PyErr_Occurred()) return NULL;
    Py_RETURN_NOTIMPLEMENTED;
  }
  return compare_scalar(self, other, op);
}

PyNumberMethods ct_tensor_as_number = {
    .nb_bool = tensor_bool,
    .nb_int = tensor_int,
    .nb_float = tensor_float,
    .nb_index = tensor_index,
};
