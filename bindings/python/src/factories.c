/* Factories with torch's signatures: zeros, ones, empty, arange (full and the
   *_like factories are ctensor/_factories.py's). */
#include <math.h>

#include "ctensor_py.h"

/* zeros(*size, *, dtype=None, device=None, requires_grad=False, size=None,
   pin_memory=False) and its sisters; `fill` after zeroing or not (`zero`). */
static PyObject *make(PyObject *args, PyObject *kwargs, const char *what, int zero, double fill) {
  static char *kwlist[] = {"dtype", "device", "requires_grad", "size", "pin_memory", NULL};
  tensor_dtype_t dtype = -1;
  PyObject *device = Py_None, *size_kw = NULL, *empty = PyTuple_New(0);
  int requires_grad = 0, pin_memory = 0;
  if (!empty) return NULL;
  const int ok = PyArg_ParseTupleAndKeywords(empty, kwargs, "|$O&OpOp", kwlist, ct_dtype_converter, &dtype, &device,
                                             &requires_grad, &size_kw, &pin_memory);
  Py_DECREF(empty);
  if (!ok || ct_check_options(device, requires_grad, what) < 0) return NULL;
  if (PyTuple_GET_SIZE(args) == 0 && !size_kw) { /* torch.zeros() has no default size */
    PyErr_Format(PyExc_TypeError, "%s() missing 1 required positional arguments: \"size\"", what);
    return NULL;
  }
  if (size_kw && PyTuple_GET_SIZE(args) > 0) {
    PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument 'size'", what);
    return NULL;
  }
  PyObject *shape = size_kw ? PyTuple_Pack(1, size_kw) : Py_NewRef(args);
  int64_t sizes[TENSOR_MAX_DIMS];
  const int64_t ndim = shape ? ct_parse_sizes(shape, sizes, what) : -1;
  Py_XDECREF(shape);
  if (ndim < 0) return NULL;
  if (dtype < 0) dtype = TENSOR_FLOAT32;
  tensor_t *t = NULL;
  tensor_status_t st = zero ? tensor_zeros(&t, ndim, sizes, dtype) : tensor_empty(&t, ndim, sizes, dtype);
  if (st == TENSOR_OK && fill != 0.0) st = tensor_fill(t, fill);
  if (st != TENSOR_OK) {
    tensor_release(t);
    return ct_raise(st);
  }
  return ct_tensor_wrap(t);
}

static PyObject *zeros(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  return make(args, kwargs, "zeros", 1, 0.0);
}

static PyObject *ones(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  return make(args, kwargs, "ones", 0, 1.0);
}

static PyObject *empty(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  return make(args, kwargs, "empty", 0, 0.0);
}

/* f rounded to the nearest float16 or bfloat16 value (ties to even), as a float. */
static float round_to_16bit(float f, tensor_dtype_t dtype) {
  if (!isfinite(f) || f == 0.0f) return f;
  const int mantissa = dtype == TENSOR_FLOAT16 ? 10 : 7, min_exp = dtype == TENSOR_FLOAT16 ? -14 : -126;
  const float a = fabsf(f);
  if (dtype == TENSOR_FLOAT16 && a >= 65520.0f) return copysignf(INFINITY, f);
  int e;
  frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
  int exp = e - 1;
  if (exp < min_exp) exp = min_exp; /* subnormals: a fixed spacing */
  const float ulp = ldexpf(1.0f, exp - mantissa);
  return copysignf(nearbyintf(a / ulp) * ulp, f);
}

/* start + i*step as PyTorch 1.13's CPU kernel (AVX2 build) rounds it, so values
   match bit for bit: blocks of two vectors (4 doubles or 8 floats each) start at
   fma(idx, step, start) (rounded to float for float32) and add fma(j, step, base);
   the tail is fma(idx, step, start). Exact for one parallel chunk (up to 32768
   elements, torch's grain size). float16/bfloat16 work the same way in float with
   16 lanes, each block's base rounded to the dtype. */
static void arange_values(double *p, int64_t n, double start, double step, tensor_dtype_t dtype) {
  if (dtype == TENSOR_FLOAT16 || dtype == TENSOR_BFLOAT16) { /* in float (the accumulate type), 16 lanes */
    const float sf = (float)start, df = (float)step;
    const int64_t paired = n - n % 32;
    for (int64_t i = 0; i < paired; i += 16) {
      const float base = round_to_16bit(fmaf((float)i, df, sf), dtype);
      for (int64_t j = 0; j < 16; j++) {
        volatile float product = (float)j * df; /* rounded on its own: torch's vector lanes do not fuse */
        p[i + j] = base + product;
      }
    }
    for (int64_t i = paired; i < n; i++) p[i] = fmaf((float)i, df, sf);
    return;
  }
  if (dtype != TENSOR_FLOAT32 && dtype != TENSOR_FLOAT64) {
    for (int64_t i = 0; i < n; i++) p[i] = start + (double)i * step;
    return;
  }
  const int64_t vs = dtype == TENSOR_FLOAT64 ? 4 : 8, paired = n - n % (2 * vs);
  for (int64_t i = 0; i < paired; i += vs) {
    double base = fma((double)i, step, start);
    if (dtype == TENSOR_FLOAT32) base = (float)base;
    for (int64_t j = 0; j < vs; j++) p[i + j] = fma((double)j, step, base);
  }
  for (int64_t i = paired; i < n; i++) p[i] = fma((double)i, step, start);
}

static PyObject *arange(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *kwlist[] = {"start", "end", "step", "dtype", "device", "requires_grad", NULL};
  PyObject *a = NULL, *b = NULL, *c = NULL, *device = Py_None;
  tensor_dtype_t dtype = -1;
  int requires_grad = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOO$O&Op:arange", kwlist, &a, &b, &c, ct_dtype_converter,
                                   &dtype, &device, &requires_grad))
    return NULL;
  if (ct_check_options(device, requires_grad, "arange") < 0) return NULL;
  if (!a && !b) {
    PyErr_SetString(PyExc_TypeError, "arange() missing required argument 'end'");
    return NULL;
  }
  if (dtype == TENSOR_BOOL || (dtype >= 0 && ct_dtype_is_complex(dtype))) {
    PyErr_Format(PyExc_RuntimeError, "\"arange_cpu\" not implemented for '%s'", tensor_dtype_name(dtype));
    return NULL;
  }
  /* arange(end) / arange(start, end) / arange(start, end, step) */
  PyObject *start = b ? a : NULL, *end = b ? b : a, *stepo = c;
  PyObject *values[3] = {start, end, stepo};
  int all_int = 1;
  for (int i = 0; i < 3; i++) {
    if (!values[i]) continue;
    const int kind = ct_scalar_kind(values[i]);
    if (kind <= 0 || kind == CT_KIND_COMPLEX) {
      if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "arange(): arguments must be real numbers, not %.200s",
                     Py_TYPE(values[i])->tp_name);
      return NULL;
    }
    if (kind == CT_KIND_FLOAT) all_int = 0;
  }
  if (dtype < 0) dtype = all_int ? TENSOR_INT64 : TENSOR_FLOAT32;
  tensor_t *buffer = NULL, *out = NULL;
  tensor_status_t st;
  if (all_int) {
    long long s = start ? PyLong_AsLongLong(start) : 0, e = PyLong_AsLongLong(end),
              d = stepo ? PyLong_AsLongLong(stepo) : 1;
    if (PyErr_Occurred()) return NULL;
    if (d == 0) {
      PyErr_SetString(PyExc_RuntimeError, "step must be nonzero");
      return NULL;
    }
    if ((d > 0 && e < s) || (d < 0 && e > s)) {
      PyErr_SetString(PyExc_RuntimeError, "upper bound and larger bound inconsistent with step sign");
      return NULL;
    }
    const int64_t n = (int64_t)ceil((double)(e - s) / (double)d);
    st = tensor_empty(&buffer, 1, &n, TENSOR_INT64);
    if (st != TENSOR_OK) return ct_raise(st);
    int64_t *p = tensor_data(buffer);
    for (int64_t i = 0; i < n; i++) p[i] = s + i * d;
  } else {
    const double s = start ? PyFloat_AsDouble(start) : 0.0, e = PyFloat_AsDouble(end),
                 d = stepo ? PyFloat_AsDouble(stepo) : 1.0;
    if (PyErr_Occurred()) return NULL;
    /* torch checks start, end and step converted to the dtype's accumulate type:
       int64 (truncated) for integer dtypes, so a step of 0.5 is zero there */
    const int integral = !ct_dtype_is_floating(dtype);
    if (!isfinite(s) || !isfinite(e) || (integral && !isfinite(d))) {
      PyErr_SetString(PyExc_RuntimeError, "unsupported range: start and end must be finite");
      return NULL;
    }
    const double cs = integral ? trunc(s) : s, ce = integral ? trunc(e) : e, cd = integral ? trunc(d) : d;
    if (cd == 0.0) {
      PyErr_SetString(PyExc_RuntimeError, "step must be nonzero");
      return NULL;
    }
    if ((cd > 0 && ce < cs) || (cd < 0 && ce > cs)) {
      PyErr_SetString(PyExc_RuntimeError, "upper bound and larger bound inconsistent with step sign");
      return NULL;
    }
    /* the length in double from the original values, except for int64 (its converted ones) */
    const double size_d = dtype == TENSOR_INT64 ? ceil((ce - cs) / cd) : ceil((e - s) / d);
    if (!(size_d >= 0) || size_d > 9.2e18) {
      PyErr_SetString(PyExc_RuntimeError, "invalid size, possible overflow?");
      return NULL;
    }
    const int64_t n = (int64_t)size_d;
    if (integral) { /* torch: start and step in the integer type, then start + i*step */
      const int64_t is = (int64_t)cs, id = (int64_t)cd;
      st = tensor_empty(&buffer, 1, &n, TENSOR_INT64);
      if (st != TENSOR_OK) return ct_raise(st);
      int64_t *q = tensor_data(buffer);
      for (int64_t i = 0; i < n; i++) q[i] = is + i * id;
    } else {
      st = tensor_empty(&buffer, 1, &n, TENSOR_FLOAT64);
      if (st != TENSOR_OK) return ct_raise(st);
      double *p = tensor_data(buffer);
      arange_values(p, n, s, d, dtype);
    }
  }
  st = tensor_to(&out, buffer, dtype, TENSOR_COPY_IF_NEEDED);
  tensor_release(buffer);
  return st == TENSOR_OK ? ct_tensor_wrap(out) : ct_raise(st);
}

static PyMethodDef factory_functions[] = {
    CT_KWARGS("zeros", zeros, "zeros(*size, dtype=None): a new tensor of zeros (float32 by default)."),
    CT_KWARGS("ones", ones, "ones(*size, dtype=None): a new tensor of ones."),
    CT_KWARGS("empty", empty, "empty(*size, dtype=None): a new tensor, contents unspecified."),
    CT_KWARGS("arange", arange, "arange(start=0, end, step=1, dtype=None)."),
    {NULL, NULL, 0, NULL},
};

int ct_factories_register(PyObject *module) {
  return ct_add_functions(module, factory_functions);
}
