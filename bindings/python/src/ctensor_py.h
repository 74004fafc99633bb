/*
 * ctensor_py.h - the base of the `ctensor` Python extension module: errors,
 * dtypes, the tensor object and type, and how a file registers what it defines.
 *
 * Registration: every file X.c that defines tensor methods or module functions
 * exports `int ct_X_register(PyObject *module)`, which adds its tensor methods
 * (ct_tensor_add_methods / ct_tensor_add_getset) and its module functions
 * (ct_add_functions); module.c calls each once, after ct_tensor_init made the
 * type ready. A file that fills protocol slots of the type (number, sequence,
 * mapping, buffer, repr, new) also exports `void ct_X_slots(PyTypeObject *type)`,
 * which module.c calls before ct_tensor_init (slots filled later would get no
 * __dunder__ entry in the type's dict). tensor_type.c names no function of
 * another file but errors.c's and dtype.c's; no file depends on itself through
 * others (tests/ci/test_python_extension_size.py checks both).
 */
#ifndef CTENSOR_PY_H
#define CTENSOR_PY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "ctensor.h"

/* ---- errors.c ---------------------------------------------------------- */

/* Raises the exception PyTorch raises for the same mistake, with ctensor's
   message; returns NULL so callers can `return ct_raise(st);`. */
PyObject *ct_raise(tensor_status_t status);
/* As ct_raise, but `status` becomes `exc` (call sites whose INVALID or BOUNDS
   PyTorch reports differently, e.g. dims out of range as IndexError). */
PyObject *ct_raise_as(tensor_status_t status, tensor_status_t which, PyObject *exc);
/* Factory keywords torch has and ctensor cannot honour: device must be CPU,
   requires_grad False (NotImplementedError: no autograd). 0 or -1. */
int ct_check_options(PyObject *device, int requires_grad, const char *what);

/* ---- dtype.c ----------------------------------------------------------- */

/* The docstring line of functions over ctensor.h's experimental section. */
#define CT_EXPERIMENTAL_NOTE \
  "\n\nNote: experimental: built on ctensor's experimental C API (CTENSOR_EXPERIMENTAL), which a 0.x release may change."
/* dtype codes are c10::ScalarType values, all below this. */
#define CT_DTYPE_LIMIT 64

typedef struct {
  PyObject_HEAD
  tensor_dtype_t code;
} DtypeObject;

extern PyTypeObject Ct_DtypeType;

int ct_dtype_init(PyObject *module);
/* Borrowed dtype object for a code (never NULL for a valid code). */
PyObject *ct_dtype_object(tensor_dtype_t code);
/* PyArg "O&" converter for an optional dtype argument: None gives -1; else a
   ctensor dtype, or bool/int/float as torch accepts them (else TypeError). */
int ct_dtype_converter(PyObject *obj, void *out);
int ct_dtype_is_floating(tensor_dtype_t code);
int ct_dtype_is_complex(tensor_dtype_t code);
/* torch's legacy tensor type name of a dtype ("FloatTensor"); NULL if none. */
const char *ct_dtype_legacy_name(tensor_dtype_t code);
/* NumPy's array-interface typestr of a dtype ("<f4"); NULL for bfloat16. */
const char *ct_dtype_typestr(tensor_dtype_t code);
/* PEP 3118 format of a dtype; NULL for bfloat16, which has none. */
const char *ct_dtype_format(tensor_dtype_t code);
/* dtype of a PEP 3118 format string of `itemsize` bytes; -1 if unsupported. */
tensor_dtype_t ct_dtype_from_format(const char *format, Py_ssize_t itemsize);

/* ---- tensor_type.c: the tensor object and type --------------------------- */

typedef struct {
  PyObject_HEAD
  tensor_t *t;
  PyObject *weakreflist;
} TensorObject;

extern PyTypeObject Ct_TensorType;

#define Ct_Tensor_Check(o) PyObject_TypeCheck((o), &Ct_TensorType)
#define CT_SELF(o) (((TensorObject *)(o))->t)

/* Readies the type (its slots filled by the ct_X_slots functions) and adds it
   to the module as Tensor. */
int ct_tensor_init(PyObject *module);
/* Wraps `t`, taking over its reference (released on failure too). */
PyObject *ct_tensor_wrap(tensor_t *t);
/* Wraps the result of a C call: the tensor, or the status raised (`which`
   raised as `exc` when exc is not NULL). */
PyObject *ct_result(tensor_status_t st, tensor_t *out, tensor_status_t which, PyObject *exc);
/* PyMethodDef entries for methods and functions of each calling convention. */
#define CT_FN(fn) (PyCFunction)(void (*)(void))(fn)
#define CT_NOARGS(name, fn, doc) {name, CT_FN(fn), METH_NOARGS, doc}
#define CT_ONEARG(name, fn, doc) {name, CT_FN(fn), METH_O, doc}
#define CT_VARARGS(name, fn, doc) {name, CT_FN(fn), METH_VARARGS, doc}
#define CT_KWARGS(name, fn, doc) {name, CT_FN(fn), METH_VARARGS | METH_KEYWORDS, doc}
/* Add methods and attributes to the (ready) tensor type; 0 or -1. */
int ct_tensor_add_methods(PyMethodDef *defs);
int ct_tensor_add_getset(PyGetSetDef *defs);
/* Adds module functions whose __module__ is "ctensor" (where users and pickle
   find them); 0 or -1. */
int ct_add_functions(PyObject *module, PyMethodDef *defs);
/* Whether the CPU reads memory of a DLPack device type: host, pinned and
   managed memory too (as the library rules). */
static inline int ct_on_cpu(int32_t device_type) {
  return device_type == kDLCPU || device_type == kDLCUDAHost || device_type == kDLCUDAManaged;
}
/* Fails with RuntimeError unless the tensor's memory is on the CPU. */
int ct_check_cpu(const tensor_t *t, const char *what);
/* Parses sizes given as ints or as one sequence (t.view(2, 3) or t.view((2, 3))).
   Returns ndim, or -1 with an exception. */
int64_t ct_parse_sizes(PyObject *args, int64_t *sizes, const char *what);
/* Wraps a negative dim; IndexError with PyTorch's message when out of range. */
int ct_wrap_dim(int64_t *dim, int64_t ndim);

/* ---- registration (module.c calls these) --------------------------------- */

void ct_values_slots(PyTypeObject *type);
void ct_math_slots(PyTypeObject *type);
int ct_values_register(PyObject *module);
int ct_views_register(PyObject *module);
int ct_math_register(PyObject *module);
int ct_capi_register(PyObject *module);   /* _from_handle, _raise, Tensor._handle: ctensor/_capi.py's C half */
int ct_dlpack_register(PyObject *module); /* DLPack capsules, for ctensor/_dlpack.py */
int ct_arrow_register(PyObject *module);  /* Arrow export capsules, for ctensor/_arrow.py */
void ct_buffer_slots(PyTypeObject *type);   /* the buffer protocol */
int ct_buffer_register(PyObject *module);   /* frombuffer */
int ct_factories_register(PyObject *module); /* zeros, ones, empty, arange */
void ct_registered_slots(PyTypeObject *type); /* repr through the registered function */
int ct_registered_register(PyObject *module); /* _set_size_type, _set_device_type, _set_repr */
int ct_testing_register(PyObject *module);  /* test hooks */
void ct_index_slots(PyTypeObject *type);    /* t[...], t[...] = v and the sequence protocol's item */
int ct_numpy_register(PyObject *module);    /* from_numpy, Tensor.numpy, __array_interface__ */

/* ---- helpers other files share ------------------------------------------- */
/* Every element conversion of the binding is torch's (TENSOR_CONVERT_TORCH_X86). */

/* scalar.c: the element at `p` as a Python bool/int/float/complex. */
PyObject *ct_scalar_read(tensor_dtype_t dtype, const char *p);
/* Kind of a number (Python, NumPy scalar or 0-dim array, 0-dim tensor): 0 for
   anything else, -1 on error, else one of these, ordered as torch's inference
   widens them (bool < int < float < complex). */
enum { CT_KIND_BOOL = 1, CT_KIND_INT, CT_KIND_FLOAT, CT_KIND_COMPLEX };
int ct_scalar_kind(PyObject *obj);
/* A new 0-dim tensor of `dtype` holding a number (Python, NumPy scalar or
   one-element tensor) converted as torch converts an at::Scalar (the library's
   tensor_scalar_convert_*): out of the dtype's range is a RuntimeError, complex
   with an imaginary part into a real dtype too; bool takes any value's truth. */
tensor_t *ct_scalar_checked(PyObject *value, tensor_dtype_t dtype);

/* index.c */
/* dst.fill_(value): a number or a 0-dim tensor, checked as ct_scalar_checked,
   written through overlapping views too. */
int ct_fill(tensor_t *dst, PyObject *value);

/* copy.c: tensor_copy_with, letting other Python threads run while a large copy
   works (the last error stays readable: it is per thread). */
#define CT_NOGIL_ELEMENTS (1 << 16)
tensor_status_t ct_copy(tensor_t *dst, const tensor_t *src);
/* src in dtype (src itself when it has it), a copy in C order. */
tensor_status_t ct_to(tensor_t **out, tensor_t *src, tensor_dtype_t dtype);
/* A new writable copy of t in dtype with torch's preserve_format strides. */
tensor_t *ct_copy_like(tensor_t *t, tensor_dtype_t dtype);

/* advanced.c: a mask (bool or uint8) indexing view dims [dim, dim + mask.ndim)
   as one int64 index tensor per dim; 0 or -1 with IndexError. */
int ct_mask_to_indices(const tensor_t *mask, const tensor_t *view, int64_t dim, tensor_t **out);
/* view[idx...] with integer index tensors idx[k] on dims[k] (ascending): a copy. */
PyObject *ct_advanced_get(tensor_t *view, int64_t m, const int64_t *dims, tensor_t *const *idx);
/* src (taken over; NULL passes through) without its leading size-1 dims beyond
   `ndim` dims, as torch's assignments drop them; NULL with an exception. */
tensor_t *ct_drop_leading_ones(tensor_t *src, int64_t ndim);
/* view[idx...] = value (value broadcast to the indexing result after torch
   drops its extra leading size-1 dims). */
int ct_advanced_set(tensor_t *view, int64_t m, const int64_t *dims, tensor_t *const *idx, tensor_t *value);

/* buffer.c */
/* Holds `view` (a filled Py_buffer, moved into the heap) until ctensor releases
   the storage; the returned context is passed to ct_buffer_release. */
Py_buffer *ct_buffer_hold(Py_buffer *view);
/* tensor_release_fn for held buffers: takes the GIL, from any thread. */
void ct_buffer_release(void *ctx);
/* tensor_release_fn for a strong reference to a Python object (ctx). */
void ct_object_release(void *ctx);

/* numpy.c */
/* A tensor sharing the memory of a NumPy array (NumPy's public accessors, or
   the buffer protocol) or any other PEP 3118 exporter, with its shape and strides. */
tensor_t *ct_tensor_from_strided_buffer(PyObject *obj);
int ct_is_numpy_array(PyObject *obj);
int ct_is_numpy_scalar(PyObject *obj);
/* 1 if obj is a 0-dim ndarray (its dtype's kind set, and itemsize: that of
   ctensor's dtype for it, 0 if none), else 0 (errors cleared). */
int ct_numpy_zero_dim(PyObject *obj, char *kind, int *itemsize);
/* Whether plain ndarrays are read through NumPy's public accessors (else the
   buffer protocol); enable 0 turns that off, 1 on, -1 asks only. 0 too while NumPy
   is not imported; -1 on error. */
int ct_numpy_direct_read(int enable);

/* registered.c: what ctensor/__init__.py registers on import. */
/* A ctensor.Size for a tensor's shape (or any int64 array). */
PyObject *ct_size_new(int64_t ndim, const int64_t *sizes);
/* Tensor.device: where t's memory lives. */
PyObject *ct_device_of(const tensor_t *t);

#endif /* CTENSOR_PY_H */
