/* Factories with torch's signatures: zeros, ones, empty, full, arange. */
#include <math.h>

#include "ctensor_py.h"

typedef struct {
  tensor_dtype_t dtype;
  PyObject *device;
  int requires_grad;
} Options;

/* Keyword options shared by the factories; `size` may come as a keyword too. */
static int parse_options(PyObject *kwargs, Options *o, PyObject **size_kw, const char *what) {
  static char *kwlist[] = {"dtype", "device", "requires_grad", "size", "pin_memory", NULL};
  o->dtype = -1;
  o->device = Py_None;
  o->requires_grad = 0;
  *size_kw = NULL;
  int pin_memory = 0;
  PyObject *empty = PyTuple_New(0);
  if (!empty) return -1;
  const int ok = PyArg_ParseTupleAndKeywords(empty, kwargs, "|$O&OpOp", kwlist, ct_dtype_converter, &o->dtype,
                                             &o->device, &o->requires_grad, size_kw, &pin_memory);
  Py_DECREF(empty);
  if (!ok) return -1;
  return ct_check_options(o->device, o->requires_grad, what);
}

/* Sizes from positional args or size=. */
static int64_t parse_shape(PyObject *args, PyObject *size_kw, int64_t *sizes, const char *what) {
  if (size_kw) {
    if (PyTuple_GET_SIZE(args) > 0) {
      PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument 'size'", what);
      return -1;
    }
    PyObject *one = PyTuple_Pack(1, size_kw);
    if (!one) return -1;
    const int64_t n = ct_parse_sizes(one, sizes, what);
    Py_DECREF(one);
    return n;
  }
  return ct_parse_sizes(args, sizes, what);
}

static PyObject *make(PyObject *args, PyObject *kwargs, const char *what, int zero, double fill) {
  Options o;
  PyObject *size_kw;
  int64_t sizes[TENSOR_MAX_DIMS];
  if (parse_options(kwargs, &o, &size_kw, what) < 0) return NULL;
  if (PyTuple_GET_SIZE(args) == 0 && !size_kw) { /* torch.zeros() has no default size */
    PyErr_Format(PyExc_TypeError, "%s() missing 1 required positional arguments: \"size\"", what);
    return NULL;
  }
  const int64_t ndim = parse_shape(args, size_kw, sizes, what);
  if (ndim < 0) return NULL;
  const tensor_dtype_t dtype = o.dtype >= 0 ? o.dtype : TENSOR_FLOAT32;
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

static PyObject *full_of(PyObject *size_obj, PyObject *value, const Options *opts);

static PyObject *full(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  PyObject *size_obj = NULL, *value = NULL;
  /* full(size, fill_value, *, dtype=None, ...): the two leading arguments, also as keywords */
  if (!PyArg_ParseTuple(args, "|OO:full", &size_obj, &value)) return NULL;
  PyObject *rest = kwargs ? PyDict_Copy(kwargs) : NULL;
  if (kwargs && !rest) return NULL;
  if (rest && !value && (value = PyDict_GetItemString(rest, "fill_value"))) {
    Py_INCREF(value);
    PyDict_DelItemString(rest, "fill_value");
  } else {
    Py_XINCREF(value);
  }
  Options o;
  PyObject *size_kw = NULL;
  const int parsed = parse_options(rest, &o, &size_kw, "full");
  Py_XDECREF(rest);
  if (parsed < 0 || (!size_obj && !size_kw) || !value || (size_obj && size_kw)) {
    if (parsed == 0)
      PyErr_SetString(PyExc_TypeError, "full() takes size and fill_value: full(size, fill_value, *, dtype=None)");
    Py_XDECREF(value);
    return NULL;
  }
  if (!size_obj) size_obj = size_kw;
  PyObject *result = full_of(size_obj, value, &o);
  Py_DECREF(value);
  return result;
}

static PyObject *full_of(PyObject *size_obj, PyObject *value, const Options *opts) {
  const Options o = *opts;
  int64_t sizes[TENSOR_MAX_DIMS];
  if (!PySequence_Check(size_obj)) { /* torch.full(2, 1) is refused: size is a sequence */
    PyErr_Format(PyExc_TypeError, "full(): argument 'size' must be tuple of ints, not %.200s",
                 Py_TYPE(size_obj)->tp_name);
    return NULL;
  }
  PyObject *one = PyTuple_Pack(1, size_obj);
  if (!one) return NULL;
  const int64_t ndim = ct_parse_sizes(one, sizes, "full");
  Py_DECREF(one);
  if (ndim < 0) return NULL;
  tensor_dtype_t dtype = o.dtype;
  if (dtype < 0) { /* torch infers from the fill value: bool, int64, float32, complex64 */
    static const tensor_dtype_t by_kind[] = {-1, TENSOR_BOOL, TENSOR_INT64, TENSOR_FLOAT32, TENSOR_COMPLEX64};
    const int kind = ct_scalar_arg_kind(value);
    if (kind <= 0) {
      if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "full(): argument 'fill_value' must be Number, not %.200s",
                     Py_TYPE(value)->tp_name);
      return NULL;
    }
    dtype = by_kind[kind];
  }
  tensor_t *t = NULL;
  tensor_status_t st = tensor_empty(&t, ndim, sizes, dtype);
  if (st != TENSOR_OK) return ct_raise(st);
  if (ct_fill(t, value) < 0) {
    tensor_release(t);
    return NULL;
  }
  return ct_tensor_wrap(t);
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

/* zeros_like & co.: input's shape and (by default) dtype, torch's preserve_format
   strides unless memory_format= asks for contiguous_format. */
static PyObject *make_like(PyObject *args, PyObject *kwargs, const char *what, int fill_kind) {
  PyObject *input, *value = NULL;
  if (fill_kind == 3 ? !PyArg_ParseTuple(args, "O!O", &Ct_TensorType, &input, &value)
                     : !PyArg_ParseTuple(args, "O!", &Ct_TensorType, &input))
    return NULL;
  /* memory_format= is the *_like factories' own keyword; the rest are parse_options' */
  PyObject *format = kwargs ? PyDict_GetItemString(kwargs, "memory_format") : NULL;
  PyObject *rest = format ? PyDict_Copy(kwargs) : Py_XNewRef(kwargs);
  if (format && (!rest || PyDict_DelItemString(rest, "memory_format") < 0)) {
    Py_XDECREF(rest);
    return NULL;
  }
  Options o;
  PyObject *size_kw;
  const int parsed = parse_options(rest, &o, &size_kw, what);
  Py_XDECREF(rest);
  const int preserve = parsed < 0 ? -1 : ct_memory_format(format, what, 1);
  if (preserve < 0) return NULL;
  const tensor_t *t = ((TensorObject *)input)->t;
  const tensor_dtype_t dtype = o.dtype >= 0 ? o.dtype : tensor_dtype(t);
  const int32_t layout = preserve ? TENSOR_PRESERVE_FORMAT : TENSOR_CONTIGUOUS_FORMAT;
  tensor_t *out = NULL;
  tensor_status_t st = fill_kind == 0 ? tensor_zeros_like(&out, t, dtype, layout)
                                      : tensor_empty_like(&out, t, dtype, layout);
  if (st != TENSOR_OK) return ct_raise(st);
  if (fill_kind == 1) st = tensor_fill(out, 1.0);
  if (st != TENSOR_OK || (value && ct_fill(out, value) < 0)) {
    tensor_release(out);
    return st != TENSOR_OK ? ct_raise(st) : NULL;
  }
  return ct_tensor_wrap(out);
}

static PyObject *zeros_like(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  return make_like(args, kwargs, "zeros_like", 0);
}

static PyObject *ones_like(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  return make_like(args, kwargs, "ones_like", 1);
}

static PyObject *empty_like(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  return make_like(args, kwargs, "empty_like", 2);
}

static PyObject *full_like(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  return make_like(args, kwargs, "full_like", 3);
}

#define KW(name, fn, doc) {name, (PyCFunction)(void (*)(void))(fn), METH_VARARGS | METH_KEYWORDS, doc}

static PyMethodDef factory_functions[] = {
    KW("zeros", zeros, "zeros(*size, dtype=None): a new tensor of zeros (float32 by default)."),
    KW("ones", ones, "ones(*size, dtype=None): a new tensor of ones."),
    KW("empty", empty, "empty(*size, dtype=None): a new tensor, contents unspecified."),
    KW("full", full, "full(size, fill_value, dtype=None): dtype inferred from fill_value."),
    KW("arange", arange, "arange(start=0, end, step=1, dtype=None)."),
    KW("zeros_like", zeros_like, "zeros_like(input, dtype=None, memory_format=preserve_format): zeros shaped (and laid out) as input." CT_EXPERIMENTAL_NOTE),
    KW("ones_like", ones_like, "ones_like(input, dtype=None, memory_format=preserve_format)." CT_EXPERIMENTAL_NOTE),
    KW("empty_like", empty_like, "empty_like(input, dtype=None, memory_format=preserve_format)." CT_EXPERIMENTAL_NOTE),
    KW("full_like", full_like, "full_like(input, fill_value, dtype=None, memory_format=preserve_format)." CT_EXPERIMENTAL_NOTE),
    {NULL, NULL, 0, NULL},
};

int ct_factories_register(PyObject *module) {
  return ct_add_functions(module, factory_functions);
}
