/* Element values of a tensor as Python objects: tolist/item, the number slots
   (bool, int, float, index, complex, format; the arithmetic ones are in
   math.c), len/iteration and `in`; shape, storage, device and dtype conversions
   (to, type, float() ...), the legacy constructors (Tensor(2, 3), FloatTensor). */
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

static PyObject *ct_tensor_tolist(PyObject *self, PyObject *noargs) {
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

static PyObject *ct_tensor_item(PyObject *self, PyObject *noargs) {
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
  if (im != 0.0) { /* the library's message for a complex number into a real dtype */
    double scratch[2];
    return ct_raise(tensor_scalar_convert_complex128(scratch, target, re, im));
  }
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

static PyObject *ct_tensor_complex(PyObject *self, PyObject *noargs) {
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
static PyObject *ct_tensor_format(PyObject *self, PyObject *spec) {
  if (tensor_ndim(SELF(self)) != 0) return PyObject_CallMethod((PyObject *)&PyBaseObject_Type, "__format__", "OO", self, spec);
  PyObject *v = single_value(self, "format");
  if (!v) return NULL;
  PyObject *r = PyObject_Format(v, spec);
  Py_DECREF(v);
  return r;
}

/* ---- len, iteration, `in` ------------------------------------------------- */

static Py_ssize_t ct_tensor_len(PyObject *self) {
  if (tensor_ndim(SELF(self)) == 0) {
    PyErr_SetString(PyExc_TypeError, "len() of a 0-d tensor");
    return -1;
  }
  return (Py_ssize_t)tensor_sizes(SELF(self))[0];
}

static PyObject *ct_tensor_iter(PyObject *self) {
  if (tensor_ndim(SELF(self)) == 0) {
    PyErr_SetString(PyExc_TypeError, "iteration over a 0-d tensor");
    return NULL;
  }
  return PySeqIter_New(self); /* self[0], self[1], ... until IndexError */
}

/* `x in t`: some element equals x (torch: (t == x).any()). */
static int ct_tensor_contains(PyObject *self, PyObject *value) {
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

/* ---- inspection ------------------------------------------------------------ */

static PyObject *tensor_get_shape(PyObject *self, void *closure) {
  (void)closure;
  return ct_size_new(tensor_ndim(SELF(self)), tensor_sizes(SELF(self)));
}

static PyObject *tensor_get_device(PyObject *self, void *closure) {
  (void)closure;
  return ct_device_of(SELF(self));
}

/* ---- the legacy constructors ----------------------------------------------- */

/* The legacy constructors: `typed` for FloatTensor & co., which refuse a tensor
   of another dtype; Tensor(t) aliases t whatever its dtype. */
static PyObject *legacy_new(PyObject *args, PyObject *kwargs, tensor_dtype_t dtype, int typed, const char *name) {
  if (kwargs && PyDict_GET_SIZE(kwargs)) {
    PyErr_Format(PyExc_TypeError, "%s(): takes no keyword arguments; use ctensor.tensor(data, dtype=...)", name);
    return NULL;
  }
  const Py_ssize_t n = PyTuple_GET_SIZE(args);
  PyObject *first = n ? PyTuple_GET_ITEM(args, 0) : NULL;
  if (n == 1 && Ct_Tensor_Check(first)) { /* an alias sharing the storage, as torch */
    if (typed && tensor_dtype(SELF(first)) != dtype) {
      PyErr_Format(PyExc_TypeError, "expected %R (got %R)", ct_dtype_object(dtype), ct_dtype_object(tensor_dtype(SELF(first))));
      return NULL;
    }
    return PyObject_CallMethod(first, "detach", NULL);
  }
  const int sizes_given = n == 0 || ct_is_size(first) ||
                          (PyIndex_Check(first) && !PySequence_Check(first)); /* arrays have __index__ too */
  if (!sizes_given) {
    if (n == 1 && PySequence_Check(first)) return ct_tensor_wrap(ct_tensor_from_data(first, dtype));
    PyErr_Format(PyExc_TypeError, "new(): data must be a sequence (got %.200s)", Py_TYPE(first)->tp_name);
    return NULL;
  }
  int64_t sizes[TENSOR_MAX_DIMS], ndim = 1;
  sizes[0] = 0;
  if (n && (ndim = ct_parse_sizes(args, sizes, name)) < 0) return NULL;
  tensor_t *t = NULL;
  const tensor_status_t st = tensor_empty(&t, ndim, sizes, dtype);
  return st == TENSOR_OK ? ct_tensor_wrap(t) : ct_raise(st);
}

/* torch.Tensor's legacy constructor: Tensor() is empty, Tensor(2, 3) and
   Tensor(Size) are uninitialised float32 of that shape, Tensor(sequence) copies
   the data as float32, Tensor(tensor) aliases it. */
static PyObject *tensor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  (void)type;
  return legacy_new(args, kwargs, TENSOR_FLOAT32, 0, "Tensor");
}

/* ---- torch.FloatTensor & co. --------------------------------------------- */

/* _legacy_new(dtype, name, *args): FloatTensor(*args) & co. (ctensor/_legacy.py),
   the legacy constructor in their dtype, refusing a tensor of another dtype. */
static PyObject *ct_legacy_new(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  tensor_dtype_t dtype;
  const char *name;
  PyObject *head = PyTuple_GetSlice(args, 0, 2);
  const int ok = head && PyArg_ParseTuple(head, "O&s:_legacy_new", ct_dtype_converter, &dtype, &name);
  Py_XDECREF(head);
  if (!ok) return NULL;
  PyObject *rest = PyTuple_GetSlice(args, 2, PyTuple_GET_SIZE(args));
  PyObject *r = rest ? legacy_new(rest, kwargs, dtype, 1, name) : NULL;
  Py_XDECREF(rest);
  return r;
}

static int add_legacy_types(PyObject *module) {
  PyObject *types = PyDict_New();
  for (tensor_dtype_t d = 0; types && d < CT_DTYPE_LIMIT; d++) {
    const char *name = ct_dtype_legacy_name(d);
    if (name && PyDict_SetItemString(types, name, ct_dtype_object(d)) < 0) Py_CLEAR(types);
  }
  return types ? PyModule_AddObject(module, "_LEGACY_TYPES", types) : -1;
}

/* ---- registration ------------------------------------------------------------ */

void ct_values_slots(PyTypeObject *type) {
  type->tp_as_number->nb_bool = tensor_bool;
  type->tp_as_number->nb_int = tensor_int;
  type->tp_as_number->nb_float = tensor_float;
  type->tp_as_number->nb_index = tensor_nb_index;
  type->tp_as_sequence->sq_length = ct_tensor_len;
  type->tp_as_sequence->sq_contains = ct_tensor_contains;
  type->tp_as_mapping->mp_length = ct_tensor_len;
  type->tp_iter = ct_tensor_iter;
  type->tp_new = tensor_new;
}

static PyGetSetDef values_getset[] = {
    {"shape", tensor_get_shape, NULL, "The sizes, as a ctensor.Size.", NULL},
    {"device", tensor_get_device, NULL, "Where the memory lives ('cpu', or a DLPack device).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef values_methods[] = {
    CT_NOARGS("item", ct_tensor_item, "The value of a one-element tensor."),
    CT_NOARGS("tolist", ct_tensor_tolist, "Nested lists of Python numbers."),
    CT_NOARGS("__complex__", ct_tensor_complex, NULL),
    CT_ONEARG("__format__", ct_tensor_format, NULL),
    {NULL, NULL, 0, NULL},
};

static PyMethodDef values_functions[] = {
    CT_KWARGS("_legacy_new", ct_legacy_new, "FloatTensor(...) & co.: _legacy_new(dtype, name, *args)."),
    {NULL, NULL, 0, NULL},
};

int ct_values_register(PyObject *module) {
  if (ct_tensor_add_methods(values_methods) < 0 || ct_tensor_add_getset(values_getset) < 0 ||
      ct_add_functions(module, values_functions) < 0)
    return -1;
  return add_legacy_types(module);
}
