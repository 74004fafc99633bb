/* Files and shared memory, spelled as torch spells them: from_file
   (torch.from_file), Tensor.share_memory_/is_shared, and a multiprocessing
   reducer that sends a shared tensor's descriptor, as torch.multiprocessing
   does, so tensors put on a multiprocessing.Queue arrive sharing memory with the
   sender. The .npy and safetensors functions are Python over the C API
   (ctensor/_files.py). */
#include "ctensor_py.h" /* Python.h first: it sets the POSIX feature macros */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SELF(o) (((TensorObject *)(o))->t)

/* ---- torch.from_file ------------------------------------------------------- */

/* from_file(filename, shared=None, size=0, *, dtype=None): `size` elements of the
   file mapped. shared=True maps it shared (writes reach the file; a missing or
   shorter file is created or extended, as torch does); otherwise copy-on-write,
   and a file shorter than size elements is a RuntimeError. */
static PyObject *from_file(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *kwlist[] = {"filename", "shared", "size", "dtype", "device", "requires_grad", NULL};
  PyObject *path = NULL, *shared_obj = Py_None, *device = Py_None;
  long long size = 0;
  tensor_dtype_t dtype = -1;
  int requires_grad = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|OL$O&Op:from_file", kwlist, PyUnicode_FSConverter, &path,
                                   &shared_obj, &size, ct_dtype_converter, &dtype, &device, &requires_grad))
    return NULL;
  PyObject *result = NULL;
  const int shared = PyObject_IsTrue(shared_obj);
  if (shared < 0 || ct_check_options(device, requires_grad, "from_file") < 0) goto done;
  if (dtype < 0) dtype = TENSOR_FLOAT32;
  if (size < 0) {
    PyErr_Format(PyExc_RuntimeError, "from_file(): size must be non-negative, got %lld", size);
    goto done;
  }
  const int64_t count = size;
  const size_t itemsize = tensor_dtype_size(dtype);
  if ((uint64_t)count > UINT64_MAX / itemsize) {
    PyErr_SetString(PyExc_OverflowError, "from_file(): size * itemsize overflows");
    goto done;
  }
  const uint64_t nbytes = (uint64_t)count * itemsize;
  const char *name = PyBytes_AS_STRING(path);
  tensor_t *t = NULL;
  if (nbytes == 0) {
    const tensor_status_t st = tensor_empty(&t, 1, &count, dtype);
    result = st == TENSOR_OK ? ct_tensor_wrap(t) : ct_raise(st);
    goto done;
  }
  tensor_storage_t *s = NULL;
  tensor_status_t st;
  if (shared) {
    /* torch creates or extends the file, and the storage keeps its descriptor
       (is_shared(); sent to other processes as the file itself). */
    const int fd = open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || ((uint64_t)sb.st_size < nbytes && ftruncate(fd, (off_t)nbytes) != 0)) {
      PyErr_Format(PyExc_RuntimeError, "from_file(): unable to open or extend file <%s>: %s", name, strerror(errno));
      if (fd >= 0) close(fd);
      goto done;
    }
    st = tensor_storage_from_fd(&s, fd, (size_t)nbytes, TENSOR_MAP_WRITE);
    close(fd);
  } else {
    st = tensor_storage_map_file(&s, name, 0, nbytes, TENSOR_MAP_PRIVATE);
  }
  if (st == TENSOR_OK) {
    st = tensor_from_storage(&t, s, dtype, 1, &count, NULL, 0);
    tensor_storage_release(s);
  }
  if (st == TENSOR_OK) {
    result = ct_tensor_wrap(t);
  } else if (st == TENSOR_E_IO || st == TENSOR_E_BOUNDS) {
    PyErr_SetString(PyExc_RuntimeError, tensor_last_error()); /* as torch's */
  } else {
    ct_raise(st);
  }
done:
  Py_DECREF(path);
  return result;
}

/* ---- shared memory and multiprocessing ------------------------------------ */

static PyObject *is_shared(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyBool_FromLong(tensor_storage_fd(tensor_storage(SELF(self))) >= 0);
}

/* Moves the tensor's storage into shared memory in place (C
   tensor_storage_move_to_shared), as torch's share_memory_: every tensor viewing
   that storage sees the shared memory. An exported storage (buffer, NumPy array,
   DLPack) is refused with BufferError, as resizing an exported bytearray is. */
static PyObject *share_memory_(PyObject *self, PyObject *noargs) {
  (void)noargs;
  const tensor_status_t st = tensor_storage_move_to_shared(tensor_storage(SELF(self)));
  return st == TENSOR_OK ? Py_NewRef(self) : ct_raise_as(st, TENSOR_E_INVALID, PyExc_BufferError);
}

static PyObject *int64_tuple(int64_t n, const int64_t *v) {
  PyObject *tuple = PyTuple_New((Py_ssize_t)n);
  for (int64_t i = 0; tuple && i < n; i++) {
    PyObject *x = PyLong_FromLongLong(v[i]);
    if (!x) {
      Py_CLEAR(tuple);
      break;
    }
    PyTuple_SET_ITEM(tuple, (Py_ssize_t)i, x);
  }
  return tuple;
}

/* ForkingPickler's reducer: the storage's descriptor travels (duplicated by
   multiprocessing.reduction.DupFd, through a Unix socket where needed) with
   the tensor's layout, after moving the tensor to shared memory. */
static PyObject *reduce_shared(PyObject *unused, PyObject *tensor) {
  (void)unused;
  if (!Ct_Tensor_Check(tensor)) {
    PyErr_SetString(PyExc_TypeError, "_reduce_shared(): expected a ctensor.Tensor");
    return NULL;
  }
  PyObject *moved = share_memory_(tensor, NULL);
  if (!moved) return NULL;
  Py_DECREF(moved);
  const tensor_t *t = SELF(tensor);
  const tensor_storage_t *s = tensor_storage(t);
  PyObject *reduction = PyImport_ImportModule("multiprocessing.reduction");
  PyObject *df = reduction ? PyObject_CallMethod(reduction, "DupFd", "i", (int)tensor_storage_fd(s)) : NULL;
  Py_XDECREF(reduction);
  PyObject *module = df ? PyImport_ImportModule("ctensor") : NULL;
  PyObject *rebuild = module ? PyObject_GetAttrString(module, "_rebuild_shared") : NULL;
  Py_XDECREF(module);
  if (!rebuild) {
    Py_XDECREF(df);
    return NULL;
  }
  const int64_t ndim = tensor_ndim(t);
  return Py_BuildValue("(N(NnOONNL))", rebuild, df, (Py_ssize_t)tensor_storage_nbytes(s),
                       tensor_storage_is_readonly(s) ? Py_True : Py_False, ct_dtype_object(tensor_dtype(t)),
                       int64_tuple(ndim, tensor_sizes(t)), int64_tuple(ndim, tensor_strides(t)),
                       (long long)tensor_storage_offset(t));
}

/* _rebuild_shared(dupfd, nbytes, readonly, dtype, sizes, strides, offset). */
static PyObject *rebuild_shared(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *df, *readonly, *sizes_obj, *strides_obj;
  Py_ssize_t nbytes;
  tensor_dtype_t dtype;
  long long offset;
  if (!PyArg_ParseTuple(args, "OnOO&OOL:_rebuild_shared", &df, &nbytes, &readonly, ct_dtype_converter, &dtype,
                        &sizes_obj, &strides_obj, &offset))
    return NULL;
  int64_t sizes[TENSOR_MAX_DIMS], strides[TENSOR_MAX_DIMS];
  PyObject *one = PyTuple_Pack(1, sizes_obj);
  const int64_t ndim = one ? ct_parse_sizes(one, sizes, "_rebuild_shared") : -1;
  Py_XDECREF(one);
  one = ndim >= 0 ? PyTuple_Pack(1, strides_obj) : NULL;
  const int64_t nstrides = one ? ct_parse_sizes(one, strides, "_rebuild_shared") : -1;
  Py_XDECREF(one);
  if (ndim < 0 || nstrides != ndim) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "_rebuild_shared(): sizes and strides differ in length");
    return NULL;
  }
  PyObject *fd_obj = PyObject_CallMethod(df, "detach", NULL);
  if (!fd_obj) return NULL;
  const int fd = PyLong_AsLong(fd_obj);
  Py_DECREF(fd_obj);
  if (fd < 0 && PyErr_Occurred()) return NULL;
  tensor_storage_t *s = NULL;
  tensor_t *t = NULL;
  tensor_status_t st = tensor_storage_from_fd(&s, fd, (size_t)nbytes,
                                              PyObject_IsTrue(readonly) ? TENSOR_MAP_READ : TENSOR_MAP_WRITE);
  close(fd); /* the storage holds its own duplicate */
  if (st == TENSOR_OK) {
    st = tensor_from_storage(&t, s, dtype, ndim, sizes, strides, offset);
    tensor_storage_release(s);
  }
  return st == TENSOR_OK ? ct_tensor_wrap(t) : ct_raise(st);
}

#define KW(fn) (PyCFunction)(void (*)(void))(fn), METH_VARARGS | METH_KEYWORDS

static PyMethodDef tensor_methods[] = {
    {"is_shared", is_shared, METH_NOARGS, "True if the storage is in shared memory (fd-backed)."},
    {"share_memory_", share_memory_, METH_NOARGS, "Moves the tensor to shared memory (no-op if there); returns self."},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef module_functions[] = {
    {"from_file", KW(from_file),
     "from_file(filename, shared=None, size=0, *, dtype=None): torch.from_file: `size` elements of a file, "
     "mapped (shared: writes reach the file)."},
    {"_reduce_shared", reduce_shared, METH_O, "multiprocessing reducer: sends the shared storage's descriptor."},
    {"_rebuild_shared", rebuild_shared, METH_VARARGS, "Rebuilds a tensor sent by _reduce_shared."},
    {NULL, NULL, 0, NULL},
};

/* Registers the tensor methods, the module functions and the ForkingPickler reducer. */
int ct_files_register(PyObject *module) {
  if (ct_tensor_add_methods(tensor_methods) < 0 || ct_add_functions(module, module_functions) < 0) return -1;
  PyObject *reduction = PyImport_ImportModule("multiprocessing.reduction");
  PyObject *pickler = reduction ? PyObject_GetAttrString(reduction, "ForkingPickler") : NULL;
  PyObject *reducer = pickler ? PyObject_GetAttrString(module, "_reduce_shared") : NULL;
  PyObject *r = reducer ? PyObject_CallMethod(pickler, "register", "OO", (PyObject *)&Ct_TensorType, reducer) : NULL;
  Py_XDECREF(r);
  Py_XDECREF(reducer);
  Py_XDECREF(pickler);
  Py_XDECREF(reduction);
  return r ? 0 : -1;
}
