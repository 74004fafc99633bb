/* The buffer protocol both ways.
   Import (frombuffer): the exporter's Py_buffer is held by the storage until its
   last view is gone, so a bytearray cannot be resized and an mmap cannot be
   closed under a live tensor. ctensor may drop that last reference on any
   thread, with or without the GIL, so the release callback takes the GIL itself.
   Export: memoryview(t) and NumPy see any strided tensor; bfloat16 has no PEP
   3118 format code, so exporting it with a format is refused (BufferError). */
#include <stdatomic.h>
#include <string.h>

#include "ctensor_py.h"

/* ---- import ------------------------------------------------------------- */

Py_buffer *ct_buffer_hold(Py_buffer *view) {
  /* Raw allocator: freed by the callback, which must not depend on the caller's state. */
  Py_buffer *held = PyMem_RawMalloc(sizeof *held);
  if (!held) {
    PyBuffer_Release(view);
    PyErr_NoMemory();
    return NULL;
  }
  *held = *view;
  return held;
}

/* Set by an atexit callback: atexit runs at the start of finalization, before
   the runtime's own flag, which only Python 3.13 makes public (Py_IsFinalizing).
   Exports released after it stay held: the process is ending anyway. */
static atomic_int interpreter_ending;

static PyObject *mark_interpreter_ending(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  atomic_store(&interpreter_ending, 1);
  Py_RETURN_NONE;
}

static PyMethodDef mark_def = {"_mark_interpreter_ending", mark_interpreter_ending, METH_NOARGS, NULL};

static int mark_at_exit(void) {
  PyObject *atexit = PyImport_ImportModule("atexit");
  PyObject *fn = atexit ? PyCFunction_New(&mark_def, NULL) : NULL;
  PyObject *r = fn ? PyObject_CallMethod(atexit, "register", "O", fn) : NULL;
  Py_XDECREF(r);
  Py_XDECREF(fn);
  Py_XDECREF(atexit);
  return r ? 0 : -1;
}

static int interpreter_is_ending(void) {
#if PY_VERSION_HEX >= 0x030D0000
  if (Py_IsFinalizing()) return 1;
#endif
  return atomic_load(&interpreter_ending);
}

/* Whether this thread holds the GIL: the running thread state is this thread's
   (PyGILState_Check, less its shortcut that answers yes for every thread once
   subinterpreters exist, and less its thread-specific-data lookup: a thread
   state's thread_id is its thread's ident once it runs). Releases from Python
   mostly are. */
static int gil_held_here(void) {
#if PY_VERSION_HEX >= 0x030D0000
  PyThreadState *running = PyThreadState_GetUnchecked();
#else
  PyThreadState *running = _PyThreadState_UncheckedGet();
#endif
  return running && running->thread_id == PyThread_get_thread_ident();
}

/* Runs release(ctx) holding the GIL, whichever thread drops the last view. */
static void release_with_gil(void (*release)(void *), void *ctx) {
  /* After finalization began there is no interpreter to hand anything back to. */
  if (interpreter_is_ending()) return;
  const int held = gil_held_here();
  const PyGILState_STATE gil = held ? PyGILState_LOCKED : PyGILState_Ensure();
  release(ctx);
  if (!held) PyGILState_Release(gil);
}

static void release_export(void *view) {
  PyBuffer_Release(view);
  PyMem_RawFree(view);
}

static void release_reference(void *obj) { Py_DECREF((PyObject *)obj); }

void ct_buffer_release(void *ctx) { release_with_gil(release_export, ctx); }

void ct_object_release(void *ctx) { release_with_gil(release_reference, ctx); }

/* Gets a contiguous export, writable if the exporter allows it. */
static int get_bytes(PyObject *obj, Py_buffer *view, int *readonly) {
  if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE) == 0) {
    *readonly = 0;
    return 0;
  }
  PyErr_Clear();
  *readonly = 1;
  return PyObject_GetBuffer(obj, view, PyBUF_SIMPLE);
}

static PyObject *frombuffer(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *kwlist[] = {"buffer", "dtype", "count", "offset", "requires_grad", NULL};
  PyObject *obj;
  tensor_dtype_t dtype = -1;
  long long count = -1, offset = 0;
  int requires_grad = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$O&LLp:frombuffer", kwlist, &obj,
                                   ct_dtype_converter, &dtype, &count, &offset, &requires_grad))
    return NULL;
  if (dtype < 0) return PyErr_Format(PyExc_TypeError, "frombuffer() missing required keyword argument 'dtype'");
  if (ct_check_options(Py_None, requires_grad, "frombuffer") < 0) return NULL;
  if (!PyObject_CheckBuffer(obj))
    return PyErr_Format(PyExc_ValueError, "object does not implement Python buffer protocol (got %.200s).",
                 Py_TYPE(obj)->tp_name);
  Py_buffer view;
  int readonly;
  if (get_bytes(obj, &view, &readonly) < 0) {
    /* e.g. a strided memoryview: torch reports it as a RuntimeError */
    if (PyErr_ExceptionMatches(PyExc_BufferError) || PyErr_ExceptionMatches(PyExc_ValueError)) {
      PyObject *type, *value, *tb;
      PyErr_Fetch(&type, &value, &tb);
      PyErr_Format(PyExc_RuntimeError, "frombuffer(): cannot read the object as contiguous bytes: %S", value);
      Py_XDECREF(type);
      Py_XDECREF(value);
      Py_XDECREF(tb);
    }
    return NULL;
  }
  Py_buffer *held = ct_buffer_hold(&view);
  if (!held) return NULL;
  tensor_t *t = NULL;
  tensor_status_t st = tensor_from_buffer(&t, held->buf, (size_t)held->len, dtype, count, offset,
                                          readonly ? TENSOR_READONLY : 0, ct_buffer_release, held);
  if (st != TENSOR_OK) { /* the callback was not taken: give the export back now */
    PyBuffer_Release(held);
    PyMem_RawFree(held);
    /* torch: ValueError; a count whose byte size overflows int64 is an OverflowError */
    if (st == TENSOR_E_OVERFLOW) return ct_raise_as(st, TENSOR_E_OVERFLOW, PyExc_OverflowError);
    return ct_raise_as(st, TENSOR_E_INVALID, PyExc_ValueError);
  }
  return ct_tensor_wrap(t);
}

/* ---- export ------------------------------------------------------------- */

static int tensor_getbuffer(PyObject *self, Py_buffer *view, int flags) {
  const tensor_t *t = CT_SELF(self);
  const tensor_dtype_t dtype = tensor_dtype(t);
  if (ct_check_cpu(t, "buffer export") < 0) {
    PyErr_Clear();
    PyErr_SetString(PyExc_BufferError, "tensor memory is not on the CPU");
    return -1;
  }
  if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && tensor_is_readonly(t))
    return PyErr_SetString(PyExc_BufferError, "tensor is read-only"), -1;
  const char *format = ct_dtype_format(dtype);
  if ((flags & PyBUF_FORMAT) == PyBUF_FORMAT && !format)
    return PyErr_Format(PyExc_BufferError,
                 "%s has no buffer-protocol format; view it as ctensor.int16 first (t.view(ctensor.int16))",
                 tensor_dtype_name(dtype)), -1;
  const int ndim = (int)tensor_ndim(t);
  /* shape then strides, owned by this export (freed in tensor_releasebuffer) */
  Py_ssize_t *arrays = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(2 * ndim + 1));
  if (!arrays) {
    PyErr_NoMemory();
    return -1;
  }
  const int64_t *sizes = tensor_sizes(t), *strides = tensor_strides(t);
  const Py_ssize_t itemsize = (Py_ssize_t)tensor_dtype_size(dtype);
  for (int i = 0; i < ndim; i++) {
    arrays[i] = (Py_ssize_t)sizes[i];
    arrays[ndim + i] = (Py_ssize_t)(strides[i] * itemsize);
  }
  view->buf = tensor_data(t);
  view->obj = Py_NewRef(self);
  view->len = (Py_ssize_t)tensor_numel(t) * itemsize;
  view->readonly = tensor_is_readonly(t);
  view->itemsize = itemsize;
  view->format = (flags & PyBUF_FORMAT) == PyBUF_FORMAT ? (char *)format : NULL;
  view->ndim = ndim;
  view->shape = arrays;
  view->strides = arrays + ndim;
  view->suboffsets = NULL;
  view->internal = arrays;
  const char *refusal = NULL;
  if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !PyBuffer_IsContiguous(view, 'C'))
    refusal = "tensor is not C-contiguous; the consumer did not ask for strides";
  else if ((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS && !PyBuffer_IsContiguous(view, 'C'))
    refusal = "tensor is not C-contiguous";
  else if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS && !PyBuffer_IsContiguous(view, 'F'))
    refusal = "tensor is not Fortran-contiguous";
  else if ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS && !PyBuffer_IsContiguous(view, 'C') &&
           !PyBuffer_IsContiguous(view, 'F'))
    refusal = "tensor is not contiguous";
  if (refusal) {
    PyErr_SetString(PyExc_BufferError, refusal);
    PyMem_Free(arrays);
    Py_CLEAR(view->obj);
    return -1;
  }
  if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES) view->strides = NULL;
  if ((flags & PyBUF_ND) != PyBUF_ND) view->shape = NULL;
  tensor_storage_pin(tensor_storage(t)); /* the consumer keeps view->buf: share_memory_ must not move it */
  return 0;
}

static void tensor_releasebuffer(PyObject *self, Py_buffer *view) {
  tensor_storage_unpin(tensor_storage(CT_SELF(self)));
  PyMem_Free(view->internal);
}

static PyBufferProcs tensor_as_buffer = {
    .bf_getbuffer = tensor_getbuffer,
    .bf_releasebuffer = tensor_releasebuffer,
};

void ct_buffer_slots(PyTypeObject *type) { type->tp_as_buffer = &tensor_as_buffer; }

static PyMethodDef buffer_functions[] = {
    CT_KWARGS("frombuffer", frombuffer, "frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False): a 1-D "
              "tensor sharing a buffer-protocol object's memory; read-only exporters give read-only tensors."),
    {NULL, NULL, 0, NULL},
};

int ct_buffer_register(PyObject *module) {
  return mark_at_exit() < 0 ? -1 : ct_add_functions(module, buffer_functions);
}
