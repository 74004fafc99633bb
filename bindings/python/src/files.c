/* Files and shared memory, spelled as NumPy, the safetensors package and torch
   spell them: ctensor.load/save (.npy), load_file/save_file/safe_open
   (safetensors), from_file (torch.from_file), Tensor.share_memory_/is_shared,
   and a multiprocessing reducer that sends a shared tensor's descriptor, as
   torch.multiprocessing does, so tensors put on a multiprocessing.Queue arrive
   sharing memory with the sender. */
#include "ctensor_py.h" /* Python.h first: it sets the POSIX feature macros */

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SELF(o) (((TensorObject *)(o))->t)

/* An IO failure as the exception Python raises for it (FileNotFoundError for a
   missing file), else ct_raise. */
static PyObject *raise_for_path(tensor_status_t status, const char *path) {
  if (status == TENSOR_E_IO && access(path, F_OK) != 0 && errno == ENOENT) {
    PyErr_SetString(PyExc_FileNotFoundError, tensor_last_error());
    return NULL;
  }
  return ct_raise(status);
}

/* ---- .npy ------------------------------------------------------------------ */

static PyObject *load_npy(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *kwlist[] = {"file", "mmap_mode", NULL};
  PyObject *path = NULL;
  const char *mode = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|z:load", kwlist, PyUnicode_FSConverter, &path, &mode))
    return NULL;
  uint32_t flags;
  if (!mode) {
    flags = TENSOR_LOAD_COPY;
  } else if (strcmp(mode, "r") == 0) {
    flags = 0;
  } else if (strcmp(mode, "c") == 0) {
    flags = TENSOR_LOAD_WRITABLE;
  } else {
    Py_DECREF(path);
    PyErr_Format(PyExc_ValueError, "load(): mmap_mode must be None, 'r' or 'c', not '%s'", mode);
    return NULL;
  }
  tensor_t *t = NULL;
  tensor_status_t st;
  Py_BEGIN_ALLOW_THREADS
  st = tensor_load_npy(&t, PyBytes_AS_STRING(path), flags);
  Py_END_ALLOW_THREADS
  PyObject *result = st == TENSOR_OK ? ct_tensor_wrap(t) : raise_for_path(st, PyBytes_AS_STRING(path));
  Py_DECREF(path);
  return result;
}

static PyObject *save_npy(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *kwlist[] = {"tensor", "file", NULL};
  PyObject *tensor, *path = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O&:save", kwlist, &Ct_TensorType, &tensor,
                                   PyUnicode_FSConverter, &path))
    return NULL;
  tensor_status_t st;
  Py_BEGIN_ALLOW_THREADS
  st = tensor_save_npy(SELF(tensor), PyBytes_AS_STRING(path));
  Py_END_ALLOW_THREADS
  PyObject *result = st == TENSOR_OK ? Py_NewRef(Py_None) : raise_for_path(st, PyBytes_AS_STRING(path));
  Py_DECREF(path);
  return result;
}

/* ---- safetensors ----------------------------------------------------------- */

typedef struct {
  PyObject_HEAD
  tensor_safetensors_t *st;
  int numpy;          /* framework "numpy": get_tensor returns NumPy arrays */
  PyObject *metadata; /* dict, None without "__metadata__" pairs, or NULL until asked */
} SafeOpenObject;

static PyTypeObject SafeOpenType;

/* framework: "pt"/"torch"/"ctensor" give tensors, "numpy"/"np" NumPy arrays. */
static int parse_framework(PyObject *framework, int *numpy) {
  static const char *tensors[] = {"pt", "torch", "pytorch", "ctensor"};
  static const char *arrays[] = {"np", "numpy"};
  if (PyUnicode_Check(framework)) {
    for (size_t i = 0; i < sizeof tensors / sizeof *tensors; i++)
      if (PyUnicode_CompareWithASCIIString(framework, tensors[i]) == 0) return *numpy = 0, 0;
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
      if (PyUnicode_CompareWithASCIIString(framework, arrays[i]) == 0) return *numpy = 1, 0;
  }
  PyErr_Format(PyExc_ValueError, "framework %R is not supported: use \"pt\" (ctensor tensors) or \"numpy\"",
               framework);
  return -1;
}

/* Opens copy-on-write, as safetensors.torch does: zero-copy, writable, private. */
static SafeOpenObject *open_file(PyTypeObject *type, PyObject *path, int numpy) {
  tensor_safetensors_t *st = NULL;
  tensor_status_t status;
  Py_BEGIN_ALLOW_THREADS
  status = tensor_safetensors_open(&st, PyBytes_AS_STRING(path), TENSOR_LOAD_WRITABLE);
  Py_END_ALLOW_THREADS
  if (status != TENSOR_OK) return (SafeOpenObject *)raise_for_path(status, PyBytes_AS_STRING(path));
  SafeOpenObject *self = (SafeOpenObject *)type->tp_alloc(type, 0);
  if (!self) {
    tensor_safetensors_release(st);
    return NULL;
  }
  self->st = st;
  self->numpy = numpy;
  return self;
}

static PyObject *safe_open_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"filename", "framework", "device", NULL};
  PyObject *path = NULL, *framework, *device = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&O|O:safe_open", kwlist, PyUnicode_FSConverter, &path,
                                   &framework, &device))
    return NULL;
  int numpy;
  SafeOpenObject *self = NULL;
  if (parse_framework(framework, &numpy) == 0 && ct_check_options(device, 0, "safe_open") == 0)
    self = open_file(type, path, numpy);
  Py_DECREF(path);
  return (PyObject *)self;
}

static void safe_open_dealloc(PyObject *obj) {
  SafeOpenObject *self = (SafeOpenObject *)obj;
  tensor_safetensors_release(self->st);
  Py_XDECREF(self->metadata);
  Py_TYPE(obj)->tp_free(obj);
}

static int check_open(SafeOpenObject *self) {
  if (self->st) return 0;
  PyErr_SetString(PyExc_ValueError, "safe_open: the file is closed");
  return -1;
}

/* The names in the order of the file's header, or sorted. */
static PyObject *names_list(SafeOpenObject *self, int sorted) {
  if (check_open(self) < 0) return NULL;
  const int64_t n = tensor_safetensors_count(self->st);
  PyObject *keys = PyList_New((Py_ssize_t)n);
  for (int64_t i = 0; keys && i < n; i++) {
    PyObject *name = PyUnicode_FromString(tensor_safetensors_name(self->st, i));
    if (!name) {
      Py_CLEAR(keys);
      break;
    }
    PyList_SET_ITEM(keys, (Py_ssize_t)i, name);
  }
  if (keys && sorted && PyList_Sort(keys) < 0) Py_CLEAR(keys);
  return keys;
}

/* Sorted, as the safetensors package's keys() gives them. */
static PyObject *safe_open_keys(PyObject *obj, PyObject *noargs) {
  (void)noargs;
  return names_list((SafeOpenObject *)obj, 1);
}

static PyObject *safe_open_offset_keys(PyObject *obj, PyObject *noargs) {
  (void)noargs;
  return names_list((SafeOpenObject *)obj, 0);
}

static PyObject *safe_open_get_tensor(PyObject *obj, PyObject *name) {
  SafeOpenObject *self = (SafeOpenObject *)obj;
  if (check_open(self) < 0) return NULL;
  const char *key = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
  if (!key) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "get_tensor(): name must be a str");
    return NULL;
  }
  tensor_t *t = NULL;
  const tensor_status_t st = tensor_safetensors_get(&t, self->st, key);
  if (st != TENSOR_OK) return ct_raise(st);
  PyObject *tensor = ct_tensor_wrap(t);
  if (!tensor || !self->numpy) return tensor;
  PyObject *array = PyObject_CallMethod(tensor, "numpy", NULL);
  Py_DECREF(tensor);
  return array;
}

/* The "__metadata__" pairs as a dict; None when there are none. */
static PyObject *metadata_dict(const tensor_safetensors_t *st) {
  const int64_t n = tensor_safetensors_metadata_count(st);
  if (n == 0) return Py_NewRef(Py_None);
  PyObject *dict = PyDict_New();
  for (int64_t i = 0; dict && i < n; i++) {
    const char *key = tensor_safetensors_metadata_key(st, i);
    PyObject *value = PyUnicode_FromString(tensor_safetensors_metadata(st, key));
    if (!value || PyDict_SetItemString(dict, key, value) < 0) Py_CLEAR(dict);
    Py_XDECREF(value);
  }
  return dict;
}

static PyObject *safe_open_metadata(PyObject *obj, PyObject *noargs) {
  (void)noargs;
  SafeOpenObject *self = (SafeOpenObject *)obj;
  if (check_open(self) < 0) return NULL;
  /* From the header the handle read at open (never the file again, which may
     have been replaced since); made on first use. */
  if (!self->metadata && !(self->metadata = metadata_dict(self->st))) return NULL;
  return PyDict_Check(self->metadata) ? PyDict_Copy(self->metadata) : Py_NewRef(self->metadata);
}

static PyObject *safe_open_enter(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return Py_NewRef(self);
}

static PyObject *safe_open_exit(PyObject *obj, PyObject *args) {
  (void)args;
  SafeOpenObject *self = (SafeOpenObject *)obj;
  tensor_safetensors_release(self->st); /* tensors got from it stay valid */
  self->st = NULL;
  Py_RETURN_NONE;
}

static PyMethodDef safe_open_methods[] = {
    {"keys", safe_open_keys, METH_NOARGS, "The tensors' names, sorted."},
    {"offset_keys", safe_open_offset_keys, METH_NOARGS, "The tensors' names in the order of the file."},
    {"get_tensor", safe_open_get_tensor, METH_O,
     "get_tensor(name): a zero-copy, copy-on-write view of one tensor (a NumPy array for framework=\"numpy\")."},
    {"metadata", safe_open_metadata, METH_NOARGS, "The \"__metadata__\" dict, or None."},
    {"__enter__", safe_open_enter, METH_NOARGS, NULL},
    {"__exit__", safe_open_exit, METH_VARARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SafeOpenType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "ctensor.safe_open",
    .tp_basicsize = sizeof(SafeOpenObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "safe_open(filename, framework, device=\"cpu\"): an open safetensors file, as the safetensors "
              "package's (a context manager with keys(), get_tensor(name) and metadata()).",
    .tp_new = safe_open_new,
    .tp_dealloc = safe_open_dealloc,
    .tp_methods = safe_open_methods,
};

static PyObject *load_file(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *kwlist[] = {"filename", "device", NULL};
  PyObject *path = NULL, *device = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&|O:load_file", kwlist, PyUnicode_FSConverter, &path, &device))
    return NULL;
  SafeOpenObject *f = ct_check_options(device, 0, "load_file") == 0 ? open_file(&SafeOpenType, path, 0) : NULL;
  Py_DECREF(path);
  if (!f) return NULL;
  PyObject *result = PyDict_New();
  PyObject *keys = result ? safe_open_keys((PyObject *)f, NULL) : NULL;
  for (Py_ssize_t i = 0; keys && i < PyList_GET_SIZE(keys); i++) {
    PyObject *t = safe_open_get_tensor((PyObject *)f, PyList_GET_ITEM(keys, i));
    if (!t || PyDict_SetItem(result, PyList_GET_ITEM(keys, i), t) < 0) {
      Py_XDECREF(t);
      Py_CLEAR(result);
      break;
    }
    Py_DECREF(t);
  }
  if (!keys) Py_CLEAR(result);
  Py_XDECREF(keys);
  Py_DECREF(f);
  return result;
}

/* Borrowed UTF-8 of a str, or NULL with TypeError naming `what`. */
static const char *utf8_of(PyObject *s, const char *what) {
  if (!PyUnicode_Check(s)) {
    PyErr_Format(PyExc_TypeError, "save_file(): %s must be str, not %.100s", what, Py_TYPE(s)->tp_name);
    return NULL;
  }
  return PyUnicode_AsUTF8(s);
}

static PyObject *save_file(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *kwlist[] = {"tensors", "filename", "metadata", NULL};
  PyObject *tensors, *path = NULL, *metadata = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O!O&|O:save_file", kwlist, &PyDict_Type, &tensors,
                                   PyUnicode_FSConverter, &path, &metadata))
    return NULL;
  if (metadata != Py_None && !PyDict_Check(metadata)) {
    Py_DECREF(path);
    PyErr_SetString(PyExc_TypeError, "save_file(): metadata must be a dict of str to str or None");
    return NULL;
  }
  const Py_ssize_t n = PyDict_GET_SIZE(tensors), m = metadata == Py_None ? 0 : PyDict_GET_SIZE(metadata);
  const char **names = PyMem_Calloc((size_t)n + 1, sizeof *names);
  const tensor_t **handles = PyMem_Calloc((size_t)n + 1, sizeof *handles);
  const char **keys = PyMem_Calloc((size_t)m + 1, sizeof *keys);
  const char **values = PyMem_Calloc((size_t)m + 1, sizeof *values);
  PyObject *result = NULL;
  if (!names || !handles || !keys || !values) {
    PyErr_NoMemory();
    goto done;
  }
  Py_ssize_t pos = 0, i = 0;
  PyObject *key, *value;
  while (PyDict_Next(tensors, &pos, &key, &value)) {
    if (!(names[i] = utf8_of(key, "tensor names"))) goto done;
    if (!Ct_Tensor_Check(value)) {
      PyErr_Format(PyExc_TypeError, "save_file(): '%s' is a %.100s, not a ctensor.Tensor", names[i],
                   Py_TYPE(value)->tp_name);
      goto done;
    }
    handles[i++] = SELF(value);
  }
  for (pos = 0, i = 0; m && PyDict_Next(metadata, &pos, &key, &value); i++)
    if (!(keys[i] = utf8_of(key, "metadata keys")) || !(values[i] = utf8_of(value, "metadata values"))) goto done;
  tensor_status_t st;
  Py_BEGIN_ALLOW_THREADS
  st = tensor_safetensors_save(PyBytes_AS_STRING(path), n, names, handles, m, keys, values);
  Py_END_ALLOW_THREADS
  result = st == TENSOR_OK ? Py_NewRef(Py_None) : raise_for_path(st, PyBytes_AS_STRING(path));
done:
  PyMem_Free(names);
  PyMem_Free(handles);
  PyMem_Free(keys);
  PyMem_Free(values);
  Py_DECREF(path);
  return result;
}

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

PyObject *ct_tensor_is_shared(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return PyBool_FromLong(tensor_storage_fd(tensor_storage(SELF(self))) >= 0);
}

/* Moves the tensor's storage into shared memory in place (C
   tensor_storage_move_to_shared), as torch's share_memory_: every tensor viewing
   that storage sees the shared memory. An exported storage (buffer, NumPy array,
   DLPack) is refused with BufferError, as resizing an exported bytearray is. */
PyObject *ct_tensor_share_memory_(PyObject *self, PyObject *noargs) {
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
  PyObject *moved = ct_tensor_share_memory_(tensor, NULL);
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

PyMethodDef ct_files_methods[] = {
    {"load", KW(load_npy),
     "load(file, mmap_mode=None): a .npy file as a tensor, as np.load: read into memory (None), mapped "
     "read-only ('r') or copy-on-write ('c')."},
    {"save", KW(save_npy), "save(tensor, file): a .npy file NumPy reads (written atomically; no suffix added)."},
    {"load_file", KW(load_file), "load_file(filename, device=\"cpu\"): every tensor of a safetensors file, by name."},
    {"save_file", KW(save_file), "save_file(tensors, filename, metadata=None): a dict of tensors as a safetensors file."},
    {"from_file", KW(from_file),
     "from_file(filename, shared=None, size=0, *, dtype=None): torch.from_file: `size` elements of a file, "
     "mapped (shared: writes reach the file)."},
    {"_reduce_shared", reduce_shared, METH_O, "multiprocessing reducer: sends the shared storage's descriptor."},
    {"_rebuild_shared", rebuild_shared, METH_VARARGS, "Rebuilds a tensor sent by _reduce_shared."},
    {NULL, NULL, 0, NULL},
};

/* Registers safe_open and the ForkingPickler reducer (module functions are
   added from ct_files_methods). */
int ct_files_init(PyObject *module) {
  if (PyType_Ready(&SafeOpenType) < 0 || PyModule_AddObjectRef(module, "safe_open", (PyObject *)&SafeOpenType) < 0)
    return -1;
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
