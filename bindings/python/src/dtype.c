/* ctensor.dtype: one immortal object per element type (ctensor.float32, ...),
   compared by identity as torch.dtype is. Which dtypes exist, their names, sizes,
   kinds and signedness come from the library (tensor_dtype_*). */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "ctensor_py.h"

static PyObject *dtypes[CT_DTYPE_LIMIT];

/* torch's short names for the same objects. */
static const struct {
  const char *name;
  tensor_dtype_t code;
} aliases[] = {
    {"half", TENSOR_FLOAT16},     {"float", TENSOR_FLOAT32},       {"double", TENSOR_FLOAT64},
    {"cfloat", TENSOR_COMPLEX64}, {"cdouble", TENSOR_COMPLEX128}, {"short", TENSOR_INT16},
    {"int", TENSOR_INT32},        {"long", TENSOR_INT64},
};

int ct_dtype_is_floating(tensor_dtype_t code) { return tensor_dtype_kind(code) == TENSOR_KIND_FLOAT; }

int ct_dtype_is_complex(tensor_dtype_t code) { return tensor_dtype_kind(code) == TENSOR_KIND_COMPLEX; }

/* NumPy's int64 is 'l' where long is 64-bit. */
#if LONG_MAX == INT64_MAX
#define INT64_FORMATS "l", "<i8"
#define UINT64_FORMATS "L", "<u8"
#else
#define INT64_FORMATS "q", "<i8"
#define UINT64_FORMATS "Q", "<u8"
#endif

/* What others call each dtype: its PEP 3118 format and NumPy typestr (NULL for
   bfloat16, which has neither), and torch's legacy tensor type name. */
static const struct {
  tensor_dtype_t code;
  const char *format, *typestr, *legacy;
} names[] = {
    {TENSOR_BOOL, "?", "|b1", "BoolTensor"},           {TENSOR_UINT8, "B", "|u1", "ByteTensor"},
    {TENSOR_INT8, "b", "|i1", "CharTensor"},           {TENSOR_INT16, "h", "<i2", "ShortTensor"},
    {TENSOR_INT32, "i", "<i4", "IntTensor"},           {TENSOR_INT64, INT64_FORMATS, "LongTensor"},
    {TENSOR_UINT16, "H", "<u2", "UInt16Tensor"},       {TENSOR_UINT32, "I", "<u4", "UInt32Tensor"},
    {TENSOR_UINT64, UINT64_FORMATS, "UInt64Tensor"},   {TENSOR_FLOAT16, "e", "<f2", "HalfTensor"},
    {TENSOR_BFLOAT16, NULL, NULL, "BFloat16Tensor"},   {TENSOR_FLOAT32, "f", "<f4", "FloatTensor"},
    {TENSOR_FLOAT64, "d", "<f8", "DoubleTensor"},      {TENSOR_COMPLEX64, "Zf", "<c8", "ComplexFloatTensor"},
    {TENSOR_COMPLEX128, "Zd", "<c16", "ComplexDoubleTensor"},
};
#define NAMES (sizeof names / sizeof *names)

static int find(tensor_dtype_t code) {
  for (size_t i = 0; i < NAMES; i++)
    if (names[i].code == code) return (int)i;
  return -1;
}

const char *ct_dtype_legacy_name(tensor_dtype_t code) { return find(code) < 0 ? NULL : names[find(code)].legacy; }

const char *ct_dtype_typestr(tensor_dtype_t code) { return find(code) < 0 ? NULL : names[find(code)].typestr; }

const char *ct_dtype_format(tensor_dtype_t code) { return find(code) < 0 ? NULL : names[find(code)].format; }

static tensor_dtype_t int_of_size(Py_ssize_t size, int is_unsigned) {
  switch (size) {
    case 1: return is_unsigned ? TENSOR_UINT8 : TENSOR_INT8;
    case 2: return is_unsigned ? TENSOR_UINT16 : TENSOR_INT16;
    case 4: return is_unsigned ? TENSOR_UINT32 : TENSOR_INT32;
    case 8: return is_unsigned ? TENSOR_UINT64 : TENSOR_INT64;
    default: return -1;
  }
}

tensor_dtype_t ct_dtype_from_format(const char *format, Py_ssize_t itemsize) {
  if (!format) format = "B";
  /* Native and little-endian prefixes mean the same on the hosts we build for. */
#if PY_LITTLE_ENDIAN
  if (*format == '@' || *format == '=' || *format == '<') format++;
#else
  if (*format == '@' || *format == '=' || *format == '>' || *format == '!') format++;
#endif
  if (format[0] && !format[1] && strchr("bhilqn", format[0])) return int_of_size(itemsize, 0);
  if (format[0] && !format[1] && strchr("BHILQN", format[0])) return int_of_size(itemsize, 1);
  for (size_t i = 0; i < NAMES; i++) /* bool, floating and complex: their own format and size */
    if (names[i].format && strcmp(names[i].format, format) == 0 &&
        (Py_ssize_t)tensor_dtype_size(names[i].code) == itemsize)
      return names[i].code;
  return -1;
}

PyObject *ct_dtype_object(tensor_dtype_t code) {
  return code >= 0 && code < CT_DTYPE_LIMIT ? dtypes[code] : NULL;
}

int ct_dtype_from_object(PyObject *obj, tensor_dtype_t *out) {
  if (PyObject_TypeCheck(obj, &Ct_DtypeType)) {
    *out = ((DtypeObject *)obj)->code;
    return 0;
  }
  /* torch takes Python's bool, int and float types as dtypes (not complex) */
  if (obj == (PyObject *)&PyBool_Type) *out = TENSOR_BOOL;
  else if (obj == (PyObject *)&PyLong_Type) *out = TENSOR_INT64;
  else if (obj == (PyObject *)&PyFloat_Type) *out = TENSOR_FLOAT64;
  else {
    PyErr_Format(PyExc_TypeError, "dtype must be a ctensor.dtype, not %.200s", Py_TYPE(obj)->tp_name);
    return -1;
  }
  return 0;
}

int ct_dtype_converter(PyObject *obj, void *out) {
  if (obj == Py_None) {
    *(tensor_dtype_t *)out = -1;
    return 1;
  }
  return ct_dtype_from_object(obj, out) == 0;
}

static PyObject *dtype_repr(PyObject *self) {
  return PyUnicode_FromFormat("ctensor.%s", tensor_dtype_name(((DtypeObject *)self)->code));
}

static PyObject *dtype_itemsize(PyObject *self, void *closure) {
  (void)closure;
  return PyLong_FromSize_t(tensor_dtype_size(((DtypeObject *)self)->code));
}

static PyObject *dtype_is_floating_point(PyObject *self, void *closure) {
  (void)closure;
  return PyBool_FromLong(ct_dtype_is_floating(((DtypeObject *)self)->code));
}

static PyObject *dtype_is_complex(PyObject *self, void *closure) {
  (void)closure;
  return PyBool_FromLong(ct_dtype_is_complex(((DtypeObject *)self)->code));
}

static PyObject *dtype_is_signed(PyObject *self, void *closure) {
  (void)closure;
  return PyBool_FromLong(tensor_dtype_is_signed(((DtypeObject *)self)->code));
}

/* dtypes are singletons: copying or pickling gives the same object back. */
static PyObject *dtype_reduce(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyUnicode_FromString(tensor_dtype_name(((DtypeObject *)self)->code));
}

static PyGetSetDef dtype_getset[] = {
    {"itemsize", dtype_itemsize, NULL, "Size of one element in bytes.", NULL},
    {"is_floating_point", dtype_is_floating_point, NULL, "True for float16/bfloat16/float32/float64.", NULL},
    {"is_complex", dtype_is_complex, NULL, "True for complex64/complex128.", NULL},
    {"is_signed", dtype_is_signed, NULL, "True unless unsigned integer or bool.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef dtype_methods[] = {
    {"__reduce__", dtype_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

PyTypeObject Ct_DtypeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ctensor.dtype",
    .tp_basicsize = sizeof(DtypeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Element type of a tensor (values equal PyTorch's ScalarType).",
    .tp_repr = dtype_repr,
    .tp_getset = dtype_getset,
    .tp_methods = dtype_methods,
};

int ct_dtype_init(PyObject *module) {
  if (PyType_Ready(&Ct_DtypeType) < 0) return -1;
  /* pickle finds a singleton through its instance's __module__ (as torch's dtypes say
     "torch"); without it pickle searches every loaded module for the name "bool". */
  PyObject *module_name = PyUnicode_FromString("ctensor");
  int set = module_name ? PyDict_SetItemString(Ct_DtypeType.tp_dict, "__module__", module_name) : -1;
  Py_XDECREF(module_name);
  if (set < 0) return -1;
  PyType_Modified(&Ct_DtypeType);
  if (PyModule_AddObjectRef(module, "dtype", (PyObject *)&Ct_DtypeType) < 0) return -1;
  for (tensor_dtype_t code = 0; code < CT_DTYPE_LIMIT; code++) {
    if (!tensor_dtype_name(code)) continue; /* not a dtype */
    DtypeObject *d = PyObject_New(DtypeObject, &Ct_DtypeType);
    if (!d) return -1;
    d->code = code;
    dtypes[d->code] = (PyObject *)d; /* this reference is never dropped: dtypes are immortal */
    if (PyModule_AddObjectRef(module, tensor_dtype_name(d->code), (PyObject *)d) < 0) return -1;
  }
  for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
    if (PyModule_AddObjectRef(module, aliases[i].name, dtypes[aliases[i].code]) < 0) return -1;
  return 0;
}
