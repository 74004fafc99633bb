/* ctensor.dtype: one immortal object per element type (ctensor.float32, ...),
   compared by identity as torch.dtype is. Which dtypes exist, their names, sizes,
   kinds and signedness come from the library (tensor_dtype_*). */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "ctensor_py.h"

static PyObject *dtypes[CT_DTYPE_LIMIT];

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

/* The integer dtype of `size` bytes and that signedness, or -1. */
static tensor_dtype_t int_of_size(Py_ssize_t size, int is_unsigned) {
  for (size_t i = 0; i < NAMES; i++)
    if (tensor_dtype_kind(names[i].code) == TENSOR_KIND_INT && (Py_ssize_t)tensor_dtype_size(names[i].code) == size &&
        !tensor_dtype_is_signed(names[i].code) == !!is_unsigned)
      return names[i].code;
  return -1;
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

static int dtype_from_object(PyObject *obj, tensor_dtype_t *out) {
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
  return dtype_from_object(obj, out) == 0;
}

static PyObject *dtype_repr(PyObject *self) {
  return PyUnicode_FromFormat("ctensor.%s", tensor_dtype_name(((DtypeObject *)self)->code));
}

/* _set_dtype_attributes(dict): ctensor/_values.py's attributes of the dtype
   objects (itemsize, is_floating_point, ..., pickling by name, __module__). */
static PyObject *set_dtype_attributes(PyObject *module, PyObject *attributes) {
  (void)module;
  if (!PyDict_Check(attributes))
    return PyErr_Format(PyExc_TypeError, "_set_dtype_attributes(): expected a dict");
  if (PyDict_Update(Ct_DtypeType.tp_dict, attributes) < 0) return NULL;
  PyType_Modified(&Ct_DtypeType);
  Py_RETURN_NONE;
}

static PyMethodDef dtype_functions[] = {
    CT_ONEARG("_set_dtype_attributes", set_dtype_attributes, "Adds attributes to the dtype objects (on import)."),
    {NULL, NULL, 0, NULL},
};

PyTypeObject Ct_DtypeType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ctensor.dtype",
    .tp_basicsize = sizeof(DtypeObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Element type of a tensor (values equal PyTorch's ScalarType).",
    .tp_repr = dtype_repr,
};

int ct_dtype_init(PyObject *module) {
  if (PyType_Ready(&Ct_DtypeType) < 0 || PyModule_AddFunctions(module, dtype_functions) < 0) return -1;
  if (PyModule_AddObjectRef(module, "dtype", (PyObject *)&Ct_DtypeType) < 0) return -1;
  for (tensor_dtype_t code = 0; code < CT_DTYPE_LIMIT; code++) {
    if (!tensor_dtype_name(code)) continue; /* not a dtype */
    DtypeObject *d = PyObject_New(DtypeObject, &Ct_DtypeType);
    if (!d) return -1;
    d->code = code;
    dtypes[d->code] = (PyObject *)d; /* this reference is never dropped: dtypes are immortal */
    if (PyModule_AddObjectRef(module, tensor_dtype_name(d->code), (PyObject *)d) < 0) return -1;
  }
  return 0;
}
