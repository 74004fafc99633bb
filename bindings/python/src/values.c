/* Element values of a tensor as Python objects: tolist/item, the number slots
   (bool, int, float, index, complex, format), len/iteration and ==/!= (with a
   number or a broadcastable tensor). */
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
  if (tensor_numel(SELF(self)) != 1) {
    PyErr_SetString(PyExc_RuntimeError, tensor_numel(SELF(self)) ? "Boolean value of Tensor with more than one value is ambiguous"
                                                                   : "Boolean value of Tensor with no values is ambiguous");
    return -1;
  }
  PyObject *v = single_value(self, "bool");
  if (!v) return -1;
  const int r = PyObject_IsTrue(v);
  Py_DECREF(v);
  return r;
}

/* A complex element as a real number: its real part, unless it has an imaginary
   one (torch: "value cannot be converted to type double without overflow"). */
static PyObject *real_value(PyObject *v, tensor_dtype_t target) {
  if (!v || !PyComplex_Check(v)) return v;
  const double re = PyComplex_RealAsDouble(v), im = PyComplex_ImagAsDouble(v);
  Py_DECREF(v);
  if (im != 0.0) return ct_raise_overflow(target);
  return PyFloat_FromDouble(re);
}

static PyObject *tensor_int(PyObject *self) {
  PyObject *v = real_value(single_value(self, "int"), TENSOR_INT64);
  if (!v) return NULL;
  PyObject *r = PyNumber_Long(v);
  Py_DECREF(v);
  return r;
}

static PyObject *tensor_float(PyObject *self) {
  PyObject *v = real_value(single_value(self, "float"), TENSOR_FLOAT64);
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

static PyObject *tensor_nb_index(PyObject *self) {
  const tensor_dtype_t d = tensor_dtype(SELF(self));
  if (tensor_numel(SELF(self)) != 1 || ct_dtype_is_floating(d) || ct_dtype_is_complex(d)) {
    PyErr_SetString(PyExc_TypeError,
                    "only integer tensors of a single element can be converted to an index");
    return NULL;
  }
  PyObject *v = single_value(self, "index");
  PyObject *r = v ? PyNumber_Index(v) : NULL; /* bool tensors give 0 or 1 */
  Py_XDECREF(v);
  return r;
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

/* ---- len, iteration, ==, != ----------------------------------------------- */

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

/* An element as an exact number: long double holds every int64/uint64 and double. */
typedef struct {
  long double re;
  double im;
} Exact;

static Exact exact_value(tensor_dtype_t dtype, const char *p) {
  Exact v = {0, ct_scalar_imag(dtype, p)};
  switch (dtype) {
    case TENSOR_INT64: v.re = *(const int64_t *)p; break;
    case TENSOR_UINT64: v.re = *(const uint64_t *)p; break;
    default: v.re = ct_scalar_as_double(dtype, p);
  }
  return v;
}

/* The broadcast shape of a and b, as torch's "size of tensor a must match". */
static int64_t broadcast_shape(const tensor_t *a, const tensor_t *b, int64_t *sizes) {
  const int64_t na = tensor_ndim(a), nb = tensor_ndim(b), n = na > nb ? na : nb;
  for (int64_t i = 0; i < n; i++) {
    const int64_t sa = i < n - na ? 1 : tensor_sizes(a)[i - (n - na)];
    const int64_t sb = i < n - nb ? 1 : tensor_sizes(b)[i - (n - nb)];
    if (sa != sb && sa != 1 && sb != 1) {
      PyErr_Format(PyExc_RuntimeError,
                   "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton "
                   "dimension %lld",
                   (long long)sa, (long long)sb, (long long)i);
      return -1;
    }
    sizes[i] = sa == 1 ? sb : sa;
  }
  return n;
}

/* a == b (or !=) element-wise with broadcasting: a new bool tensor. Both are read
   exactly, so int64 values beyond 2^53 compare correctly. */
static tensor_t *compare(const tensor_t *a, const tensor_t *b, int op) {
  if (ct_check_cpu(a, "eq") < 0 || ct_check_cpu(b, "eq") < 0) return NULL;
  int64_t sizes[TENSOR_MAX_DIMS];
  const int64_t ndim = broadcast_shape(a, b, sizes);
  if (ndim < 0) return NULL;
  tensor_t *ea = NULL, *eb = NULL, *out = NULL;
  tensor_status_t st = tensor_expand(&ea, a, ndim, sizes);
  if (st == TENSOR_OK) st = tensor_expand(&eb, b, ndim, sizes);
  if (st == TENSOR_OK) st = tensor_empty(&out, ndim, sizes, TENSOR_BOOL);
  if (st != TENSOR_OK) {
    tensor_release(ea);
    tensor_release(eb);
    return (tensor_t *)ct_raise(st);
  }
  const tensor_dtype_t da = tensor_dtype(ea), db = tensor_dtype(eb);
  const int64_t ia = (int64_t)tensor_dtype_size(da), ib = (int64_t)tensor_dtype_size(db);
  const int64_t *sa = tensor_strides(ea), *sb = tensor_strides(eb);
  const char *pa = tensor_data(ea), *pb = tensor_data(eb);
  uint8_t *dst = tensor_data(out);
  int64_t index[TENSOR_MAX_DIMS] = {0};
  const int64_t numel = tensor_numel(out);
  for (int64_t n = 0; n < numel; n++) {
    const Exact x = exact_value(da, pa), y = exact_value(db, pb);
    int r;
    switch (op) {
      case Py_EQ: r = x.re == y.re && x.im == y.im; break;
      case Py_NE: r = !(x.re == y.re && x.im == y.im); break;
      case Py_LT: r = x.re < y.re; break;
      case Py_LE: r = x.re <= y.re; break;
      case Py_GT: r = x.re > y.re; break;
      default: r = x.re >= y.re;
    }
    dst[n] = (uint8_t)r;
    for (int64_t d = ndim - 1; d >= 0; d--) { /* next index, last dim fastest */
      pa += sa[d] * ia;
      pb += sb[d] * ib;
      if (++index[d] < sizes[d]) break;
      pa -= sa[d] * ia * sizes[d];
      pb -= sb[d] * ib * sizes[d];
      index[d] = 0;
    }
  }
  tensor_release(ea);
  tensor_release(eb);
  return out;
}

static int category(tensor_dtype_t d) {
  if (d == TENSOR_BOOL) return CT_KIND_BOOL;
  if (ct_dtype_is_complex(d)) return CT_KIND_COMPLEX;
  return ct_dtype_is_floating(d) ? CT_KIND_FLOAT : CT_KIND_INT;
}

/* torch compares a tensor with a number in their result type: the tensor's dtype
   unless the number's kind is higher (then int64, float32, complex64 or, with
   float64, complex128), the number converted into it (wrapping, as torch's does:
   a uint8 tensor == 257 compares with 1). *converted_self gets self in that dtype
   when it differs. Returns the number as a 0-dim tensor. */
static tensor_t *compare_operand(const tensor_t *self, PyObject *number, int kind, tensor_t **converted_self) {
  const tensor_dtype_t own = tensor_dtype(self);
  tensor_dtype_t common = own;
  if (kind > category(own)) {
    static const tensor_dtype_t by_kind[] = {-1, TENSOR_BOOL, TENSOR_INT64, TENSOR_FLOAT32, TENSOR_COMPLEX64};
    common = kind == CT_KIND_COMPLEX && own == TENSOR_FLOAT64 ? TENSOR_COMPLEX128 : by_kind[kind];
  }
  tensor_t *wide = ct_scalar_tensor(number), *out = NULL;
  if (!wide) return NULL;
  tensor_status_t st = ct_to(&out, wide, common);
  tensor_release(wide);
  if (st == TENSOR_OK && common != own) st = tensor_to(converted_self, (tensor_t *)self, common, TENSOR_COPY_IF_NEEDED);
  if (st != TENSOR_OK) {
    tensor_release(out);
    return (tensor_t *)ct_raise(st);
  }
  return out;
}

/* torch's combine_categories: a lower-priority operand (0-dim tensor below
   tensors with dims) only counts when its kind is higher. */
static tensor_dtype_t combine_categories(tensor_dtype_t higher, tensor_dtype_t lower) {
  if (higher < 0) return lower;
  if (lower < 0 || ct_dtype_is_complex(higher)) return higher;
  if (ct_dtype_is_complex(lower))
    return ct_dtype_is_floating(higher) ? (higher == TENSOR_FLOAT64 ? TENSOR_COMPLEX128 : TENSOR_COMPLEX64) : lower;
  if (ct_dtype_is_floating(higher)) return higher;
  if (higher == TENSOR_BOOL || ct_dtype_is_floating(lower)) return ct_promote_types(higher, lower);
  return higher;
}

/* torch.result_type of two tensors. */
static tensor_dtype_t result_type(const tensor_t *a, const tensor_t *b) {
  tensor_dtype_t dim = -1, zero = -1;
  const tensor_t *both[2] = {a, b};
  for (int i = 0; i < 2; i++) {
    tensor_dtype_t *slot = tensor_ndim(both[i]) > 0 ? &dim : &zero;
    *slot = ct_promote_types(*slot, tensor_dtype(both[i]));
  }
  return combine_categories(dim, zero);
}

/* t converted to dtype (a new reference; t itself when it has it). */
static tensor_t *as_dtype(const tensor_t *t, tensor_dtype_t dtype) {
  tensor_t *out = NULL;
  if (tensor_dtype(t) == dtype) return tensor_retain((tensor_t *)t);
  const tensor_status_t st = tensor_to(&out, (tensor_t *)t, dtype, TENSOR_COPY_IF_NEEDED);
  return st == TENSOR_OK ? out : (tensor_t *)ct_raise(st);
}

PyObject *ct_tensor_richcompare(PyObject *self, PyObject *other, int op) {
  /* <, <=, >, >= as torch's: element-wise in the result type; complex has no order */
  const int ordering = op != Py_EQ && op != Py_NE;
  if (ordering && (ct_dtype_is_complex(tensor_dtype(SELF(self))) ||
                   (Ct_Tensor_Check(other) && ct_dtype_is_complex(tensor_dtype(SELF(other)))) ||
                   (!Ct_Tensor_Check(other) && ct_scalar_kind(other) == CT_KIND_COMPLEX))) {
    PyErr_Clear();
    PyErr_SetString(PyExc_RuntimeError, "comparison (lt/le/gt/ge) is not implemented for complex tensors");
    return NULL;
  }
  tensor_t *a = NULL, *b;
  if (Ct_Tensor_Check(other)) { /* both in their result type, as torch compares them */
    if (ct_check_cpu(SELF(self), "eq") < 0 || ct_check_cpu(SELF(other), "eq") < 0) return NULL;
    const tensor_dtype_t common = result_type(SELF(self), SELF(other));
    b = as_dtype(SELF(other), common);
    if (!b) return NULL;
    if (tensor_dtype(SELF(self)) != common && !(a = as_dtype(SELF(self), common))) {
      tensor_release(b);
      return NULL;
    }
  } else {
    const int kind = ct_scalar_kind(other);
    if (kind < 0) return NULL;
    if (kind == 0) Py_RETURN_NOTIMPLEMENTED;
    b = compare_operand(SELF(self), other, kind, &a);
    if (!b) return NULL;
  }
  tensor_t *out = compare(a ? a : SELF(self), b, op);
  tensor_release(a);
  tensor_release(b);
  return ct_tensor_wrap(out);
}

PyNumberMethods ct_tensor_as_number = {
    .nb_bool = tensor_bool,
    .nb_int = tensor_int,
    .nb_float = tensor_float,
    .nb_index = tensor_nb_index,
};

/* `x in t`: some element equals x (torch: (t == x).any()). */
int ct_tensor_contains(PyObject *self, PyObject *value) {
  PyObject *eq = ct_tensor_richcompare(self, value, Py_EQ);
  if (!eq) return -1;
  if (eq == Py_NotImplemented) {
    Py_DECREF(eq);
    PyErr_Format(PyExc_RuntimeError, "Tensor.__contains__ only supports Tensor or scalar, but you passed in a %.200s.",
                 Py_TYPE(value)->tp_name);
    return -1;
  }
  const tensor_t *t = SELF(eq);
  const uint8_t *p = tensor_data(t);
  int found = 0;
  for (int64_t i = 0; !found && i < tensor_numel(t); i++) found = p[i] != 0; /* fresh, contiguous */
  Py_DECREF(eq);
  return found;
}
