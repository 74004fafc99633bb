/* clamp/clip, where, argmax/argmin, cumsum/cumprod and softmax/log_softmax
   over the C API (tensor_clamp, tensor_where, ...): Tensor methods and the
   ctensor.* functions, with PyTorch's signatures; out= computes into a given
   tensor with the C API's _into rules. Bounds and branches may be tensors or
   Python numbers (wrapped numbers). */
#include "ctensor_py.h"

#define SELF(o) (((TensorObject *)(o))->t)

/* out=None or a Tensor: its handle (borrowed) or NULL in *dst. Returns -1 with
   a TypeError for anything else. */
static int parse_out(PyObject *out, tensor_t **dst, const char *name) {
  *dst = NULL;
  if (!out || out == Py_None) return 0;
  if (!Ct_Tensor_Check(out)) {
    PyErr_Format(PyExc_TypeError, "%s(): argument 'out' must be Tensor, not %.200s", name, Py_TYPE(out)->tp_name);
    return -1;
  }
  *dst = SELF(out);
  return 0;
}

/* A tensor or number argument as a new handle (NULL for None when `optional`). */
static int parse_operand(PyObject *obj, tensor_t **t, const char *name, const char *arg, int optional) {
  *t = NULL;
  if (optional && (!obj || obj == Py_None)) return 0;
  const int r = ct_operand(obj, t);
  if (r == 0)
    PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be Tensor or Number, not %.200s", name, arg,
                 Py_TYPE(obj)->tp_name);
  return r > 0 ? 0 : -1;
}

/* The Python result: out itself, or the new tensor. */
static PyObject *result(tensor_status_t st, tensor_t *made, PyObject *out) {
  if (st != TENSOR_OK) return ct_raise(st);
  return out && out != Py_None ? Py_NewRef(out) : ct_tensor_wrap(made);
}

static int large(const tensor_t *t) { return tensor_numel(t) >= CT_NOGIL_ELEMENTS; }

/* ---- clamp ---------------------------------------------------------------- */

static PyObject *clamp_impl(PyObject *self, PyObject *min, PyObject *max, PyObject *out, const char *name) {
  tensor_t *lo = NULL, *hi = NULL, *dst = NULL, *made = NULL;
  if (parse_out(out, &dst, name) < 0 || parse_operand(min, &lo, name, "min", 1) < 0 ||
      parse_operand(max, &hi, name, "max", 1) < 0) {
    tensor_release(lo);
    return NULL;
  }
  tensor_status_t st;
  const tensor_t *a = SELF(self);
  if (large(a)) {
    Py_BEGIN_ALLOW_THREADS
    st = dst ? tensor_clamp_into(dst, a, lo, hi) : tensor_clamp(&made, a, lo, hi);
    Py_END_ALLOW_THREADS
  } else {
    st = dst ? tensor_clamp_into(dst, a, lo, hi) : tensor_clamp(&made, a, lo, hi);
  }
  tensor_release(lo);
  tensor_release(hi);
  return result(st, made, out);
}

static PyObject *method_clamp(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"min", "max", "out", NULL};
  PyObject *min = Py_None, *max = Py_None, *out = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO$O:clamp", kwlist, &min, &max, &out)) return NULL;
  return clamp_impl(self, min, max, out, "clamp");
}

static PyObject *method_clamp_(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"min", "max", NULL};
  PyObject *min = Py_None, *max = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:clamp_", kwlist, &min, &max)) return NULL;
  return clamp_impl(self, min, max, self, "clamp_");
}

/* ---- where ---------------------------------------------------------------- */

static PyObject *where_impl(PyObject *condition, PyObject *input, PyObject *other, PyObject *out) {
  if (!Ct_Tensor_Check(condition))
    return PyErr_Format(PyExc_TypeError, "where(): argument 'condition' must be Tensor, not %.200s",
                        Py_TYPE(condition)->tp_name);
  tensor_t *a = NULL, *b = NULL, *dst = NULL, *made = NULL;
  if (parse_out(out, &dst, "where") < 0 || parse_operand(input, &a, "where", "input", 0) < 0 ||
      parse_operand(other, &b, "where", "other", 0) < 0) {
    tensor_release(a);
    return NULL;
  }
  const tensor_t *cond = SELF(condition);
  tensor_status_t st;
  if (large(cond) || large(a) || large(b)) {
    Py_BEGIN_ALLOW_THREADS
    st = dst ? tensor_where_into(dst, cond, a, b) : tensor_where(&made, cond, a, b);
    Py_END_ALLOW_THREADS
  } else {
    st = dst ? tensor_where_into(dst, cond, a, b) : tensor_where(&made, cond, a, b);
  }
  tensor_release(a);
  tensor_release(b);
  return result(st, made, out);
}

static PyObject *fn_where(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *kwlist[] = {"condition", "input", "other", "out", NULL};
  PyObject *condition, *input, *other, *out = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|$O:where", kwlist, &condition, &input, &other, &out))
    return NULL;
  return where_impl(condition, input, other, out);
}

/* ---- along a dim ---------------------------------------------------------- */

typedef tensor_status_t (*ArgFn)(tensor_t **, const tensor_t *, int64_t, int32_t);
typedef tensor_status_t (*ArgIntoFn)(tensor_t *, const tensor_t *, int64_t, int32_t);
typedef tensor_status_t (*DimFn)(tensor_t **, const tensor_t *, int64_t);
typedef tensor_status_t (*DimIntoFn)(tensor_t *, const tensor_t *, int64_t);

static PyObject *arg_extreme(PyObject *self, PyObject *args, PyObject *kwargs, ArgFn fn, ArgIntoFn into,
                             const char *name) {
  static char *kwlist[] = {"dim", "keepdim", "out", NULL};
  PyObject *dim_obj = Py_None, *out = Py_None;
  int keepdim = 0;
  char format[32];
  PyOS_snprintf(format, sizeof format, "|Op$O:%s", name);
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, kwlist, &dim_obj, &keepdim, &out)) return NULL;
  int64_t dim = TENSOR_ALL_DIMS;
  if (dim_obj != Py_None) {
    dim = PyLong_AsLongLong(dim_obj);
    if (dim == -1 && PyErr_Occurred()) return NULL;
  }
  tensor_t *dst = NULL, *made = NULL;
  if (parse_out(out, &dst, name) < 0) return NULL;
  const tensor_t *t = SELF(self);
  tensor_status_t st;
  if (large(t)) {
    Py_BEGIN_ALLOW_THREADS
    st = dst ? into(dst, t, dim, keepdim) : fn(&made, t, dim, keepdim);
    Py_END_ALLOW_THREADS
  } else {
    st = dst ? into(dst, t, dim, keepdim) : fn(&made, t, dim, keepdim);
  }
  return result(st, made, out);
}

static PyObject *method_argmax(PyObject *s, PyObject *a, PyObject *k) {
  return arg_extreme(s, a, k, tensor_argmax, tensor_argmax_into, "argmax");
}
static PyObject *method_argmin(PyObject *s, PyObject *a, PyObject *k) {
  return arg_extreme(s, a, k, tensor_argmin, tensor_argmin_into, "argmin");
}

/* cumsum(dim, *, dtype=None, out=None) and softmax(dim, dtype=None, *, out=None):
   dtype= converts the input first, as PyTorch. */
static PyObject *along_dim(PyObject *self, PyObject *args, PyObject *kwargs, DimFn fn, DimIntoFn into,
                           const char *name, int dtype_positional) {
  static char *kwlist[] = {"dim", "dtype", "out", NULL};
  long long dim;
  tensor_dtype_t dtype = -1;
  PyObject *out = Py_None;
  char format[32];
  PyOS_snprintf(format, sizeof format, dtype_positional ? "L|O&$O:%s" : "L|$O&O:%s", name);
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, kwlist, &dim, ct_dtype_converter, &dtype, &out))
    return NULL;
  tensor_t *dst = NULL, *made = NULL, *input = tensor_retain(SELF(self));
  if (parse_out(out, &dst, name) < 0) {
    tensor_release(input);
    return NULL;
  }
  tensor_status_t st = TENSOR_OK;
  if (dtype >= 0 && dtype != tensor_dtype(input)) {
    tensor_t *converted = NULL;
    st = ct_to(&converted, input, dtype);
    tensor_release(input);
    input = converted;
  }
  if (st == TENSOR_OK) {
    if (large(input)) {
      Py_BEGIN_ALLOW_THREADS
      st = dst ? into(dst, input, dim) : fn(&made, input, dim);
      Py_END_ALLOW_THREADS
    } else {
      st = dst ? into(dst, input, dim) : fn(&made, input, dim);
    }
  }
  tensor_release(input);
  return result(st, made, out);
}

static PyObject *method_cumsum(PyObject *s, PyObject *a, PyObject *k) {
  return along_dim(s, a, k, tensor_cumsum, tensor_cumsum_into, "cumsum", 0);
}
static PyObject *method_cumprod(PyObject *s, PyObject *a, PyObject *k) {
  return along_dim(s, a, k, tensor_cumprod, tensor_cumprod_into, "cumprod", 0);
}
static PyObject *method_softmax(PyObject *s, PyObject *a, PyObject *k) {
  return along_dim(s, a, k, tensor_softmax, tensor_softmax_into, "softmax", 1);
}
static PyObject *method_log_softmax(PyObject *s, PyObject *a, PyObject *k) {
  return along_dim(s, a, k, tensor_log_softmax, tensor_log_softmax_into, "log_softmax", 1);
}

#define M_KW(name, fn, doc) {name, (PyCFunction)(void (*)(void))(fn), METH_VARARGS | METH_KEYWORDS, doc}

static PyMethodDef select_methods[] = {
    M_KW("clamp", method_clamp, "clamp(min=None, max=None, *, out=None): bounds are tensors or numbers."),
    M_KW("clip", method_clamp, "clip(min=None, max=None, *, out=None): clamp."),
    M_KW("clamp_", method_clamp_, "clamp_(min=None, max=None): clamp in place, returns self."),
    M_KW("clip_", method_clamp_, "clip_(min=None, max=None): clamp_."),
    M_KW("argmax", method_argmax, "argmax(dim=None, keepdim=False, *, out=None): int64 index of the first maximum."),
    M_KW("argmin", method_argmin, "argmin(dim=None, keepdim=False, *, out=None): int64 index of the first minimum."),
    M_KW("cumsum", method_cumsum, "cumsum(dim, *, dtype=None, out=None): bool/integers give int64."),
    M_KW("cumprod", method_cumprod, "cumprod(dim, *, dtype=None, out=None): bool/integers give int64."),
    M_KW("softmax", method_softmax, "softmax(dim, dtype=None, *, out=None): floating dtypes only."),
    M_KW("log_softmax", method_log_softmax, "log_softmax(dim, dtype=None, *, out=None): floating dtypes only."),
    {NULL, NULL, 0, NULL},
};

static PyMethodDef select_functions[] = {
    M_KW("where", fn_where, "where(condition, input, other, *, out=None): input where condition, else other."),
    {NULL, NULL, 0, NULL},
};

int ct_select_ops_register(PyObject *module) {
  return ct_tensor_add_methods(select_methods) < 0 ? -1 : ct_add_functions(module, select_functions);
}
