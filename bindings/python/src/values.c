/* Element values of a tensor as Python objects: tolist/item, the number slots
   (bool, int, float, index; the arithmetic ones are in
   math.c), len/iteration and `in`; shape and device. Tensor(...) calls the
   legacy constructor of ctensor/_legacy.py. */
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
  if (tensor_numel(t) != 1)
    return PyErr_Format(PyExc_ValueError, "only one element tensors can be converted to Python scalars");
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
  const int r = v ? PyObject_IsTrue(v) : -1;
  Py_XDECREF(v);
  return r;
}

/* int(t), float(t): the value converted; a complex one's real part, unless it has an
   imaginary one (the library's message: "value cannot be converted to type double ..."). */
static PyObject *real_number(PyObject *self, const char *what, tensor_dtype_t target, PyObject *(*convert)(PyObject *)) {
  PyObject *v = single_value(self, what);
  if (v && PyComplex_Check(v)) {
    double re = PyComplex_RealAsDouble(v), im = PyComplex_ImagAsDouble(v), scratch[2];
    Py_SETREF(v, im != 0.0 ? ct_raise(tensor_scalar_convert_complex128(scratch, target, re, im)) : PyFloat_FromDouble(re));
  }
  PyObject *r = v ? convert(v) : NULL;
  Py_XDECREF(v);
  return r;
}

static PyObject *tensor_int(PyObject *self) { return real_number(self, "int", TENSOR_INT64, PyNumber_Long); }

static PyObject *tensor_float(PyObject *self) { return real_number(self, "float", TENSOR_FLOAT64, PyNumber_Float); }

static PyObject *tensor_nb_index(PyObject *self) {
  const tensor_dtype_t d = tensor_dtype(SELF(self));
  if (tensor_numel(SELF(self)) != 1 || ct_dtype_is_floating(d) || ct_dtype_is_complex(d))
    return PyErr_Format(PyExc_TypeError, "only integer tensors of a single element can be converted to an index");
  PyObject *v = single_value(self, "index");
  PyObject *r = v ? PyNumber_Index(v) : NULL; /* bool tensors give 0 or 1 */
  Py_XDECREF(v);
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
  if (tensor_ndim(SELF(self)) == 0)
    return PyErr_Format(PyExc_TypeError, "iteration over a 0-d tensor");
  return PySeqIter_New(self); /* self[0], self[1], ... until IndexError */
}

/* `x in t`: ctensor/_values.py's Tensor._contains. */
static int ct_tensor_contains(PyObject *self, PyObject *value) {
  PyObject *r = PyObject_CallMethod(self, "_contains", "O", value);
  const int found = r ? PyObject_IsTrue(r) : -1;
  Py_XDECREF(r);
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

/* torch.Tensor's legacy constructor (Tensor(2, 3), Tensor(data), Tensor(t)):
   ctensor/_legacy.py's, set on import by _set_legacy_new. */
static PyObject *legacy_new;

static PyObject *tensor_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  (void)type;
  if (!legacy_new)
    return PyErr_Format(PyExc_TypeError, "Tensor(): import ctensor first");
  return PyObject_Call(legacy_new, args, kwargs);
}

static PyObject *set_legacy_new(PyObject *module, PyObject *fn) {
  (void)module;
  Py_XSETREF(legacy_new, Py_NewRef(fn));
  Py_RETURN_NONE;
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
    {NULL, NULL, 0, NULL},
};

static PyMethodDef values_functions[] = {
    CT_ONEARG("_set_legacy_new", set_legacy_new, "Sets the function Tensor(...) calls (ctensor/_legacy.py's)."),
    {NULL, NULL, 0, NULL},
};

int ct_values_register(PyObject *module) {
  if (ct_tensor_add_methods(values_methods) < 0 || ct_tensor_add_getset(values_getset) < 0 ||
      ct_add_functions(module, values_functions) < 0)
    return -1;
  return add_legacy_types(module);
}
