/* Tensor.split / chunk / tensor_split / unbind: tuples of views along one dim,
   made by the C API's splits (asked first for their count, then filled). */
#include "ctensor_py.h"

#define SELF(o) (((TensorObject *)(o))->t)

/* One of the C API's splits, called as split(out, capacity, count). */
typedef struct {
  enum { BY_SIZE, WITH_SIZES, CHUNK, SECTIONS, INDICES } how;
  const tensor_t *t;
  int64_t dim, number, n;
  const int64_t *list;
} Split;

static tensor_status_t run_split(const Split *s, tensor_t **out, int64_t capacity, int64_t *count) {
  switch (s->how) {
    case BY_SIZE: return tensor_split(out, capacity, count, s->t, s->number, s->dim);
    case WITH_SIZES: return tensor_split_with_sizes(out, capacity, count, s->t, s->n, s->list, s->dim);
    case CHUNK: return tensor_chunk(out, capacity, count, s->t, s->number, s->dim);
    case SECTIONS: return tensor_tensor_split(out, capacity, count, s->t, s->number, s->dim);
    default: return tensor_tensor_split_indices(out, capacity, count, s->t, s->n, s->list, s->dim);
  }
}

/* The split's views as a tuple. */
static PyObject *split_tuple(const Split *s) {
  int64_t count = 0;
  tensor_status_t st = run_split(s, NULL, 0, &count);
  if (st != TENSOR_OK) return ct_raise(st);
  tensor_t **views = PyMem_Calloc((size_t)(count > 0 ? count : 1), sizeof *views);
  if (!views) return PyErr_NoMemory();
  st = run_split(s, views, count, &count);
  PyObject *tuple = st == TENSOR_OK ? PyTuple_New(count) : ct_raise(st);
  for (int64_t i = 0; i < count; i++) {
    PyObject *item = tuple ? ct_tensor_wrap(views[i]) : NULL;
    if (!tuple) tensor_release(views[i]);
    else if (!item) Py_CLEAR(tuple);
    else PyTuple_SET_ITEM(tuple, i, item);
  }
  PyMem_Free(views);
  return tuple;
}

/* The dim argument, wrapped (IndexError as torch); 0-dim tensors have none to split. */
static int parse_dim(PyObject *obj, const tensor_t *t, int64_t *dim, const char *what) {
  *dim = 0;
  if (obj && (*dim = PyLong_AsLongLong(obj)) == -1 && PyErr_Occurred()) return -1;
  if (tensor_ndim(t) == 0) {
    PyErr_Format(PyExc_RuntimeError, "%s expects at least a 1-dimensional tensor", what);
    return -1;
  }
  return ct_wrap_dim(dim, tensor_ndim(t));
}

/* A sequence of ints as a PyMem array (freed by the caller); its length or -1. */
static Py_ssize_t int_list(PyObject *obj, const char *message, int64_t **out) {
  PyObject *fast = PySequence_Fast(obj, message);
  if (!fast) return -1;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  int64_t *values = PyMem_Malloc(sizeof(int64_t) * (size_t)(n > 0 ? n : 1));
  for (Py_ssize_t i = 0; values && i < n; i++) values[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
  Py_DECREF(fast);
  if (!values || PyErr_Occurred()) {
    PyMem_Free(values);
    if (!PyErr_Occurred()) PyErr_NoMemory();
    return -1;
  }
  *out = values;
  return n;
}

/* An int, or a sequence of ints, as Split's number or list. */
static int split_arg(PyObject *how, Split *s, int by_number, int by_list, const char *message, int64_t **list) {
  *list = NULL;
  if (PyIndex_Check(how)) {
    s->how = by_number;
    s->number = PyLong_AsLongLong(how);
    return s->number == -1 && PyErr_Occurred() ? -1 : 0;
  }
  s->how = by_list;
  s->n = int_list(how, message, list);
  s->list = *list;
  return s->n < 0 ? -1 : 0;
}

static PyObject *ct_tensor_split(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"split_size_or_sections", "dim", NULL};
  static char *kwlist_method[] = {"split_size", "dim", NULL}; /* Tensor.split's own name */
  PyObject *how, *dim_obj = NULL;
  const int method_name = kwargs && PyDict_GetItemString(kwargs, "split_size") != NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:split", method_name ? kwlist_method : kwlist, &how, &dim_obj))
    return NULL;
  Split s = {.t = SELF(self)};
  int64_t *list;
  if (split_arg(how, &s, BY_SIZE, WITH_SIZES, "split(): split_size_or_sections must be an int or a sequence of ints",
                &list) < 0)
    return NULL;
  const int negative_size = s.how == BY_SIZE && s.number < 0; /* C's RuntimeError comes before the dim's */
  if (!negative_size && parse_dim(dim_obj, s.t, &s.dim, "split") < 0) {
    PyMem_Free(list);
    return NULL;
  }
  PyObject *r = split_tuple(&s);
  PyMem_Free(list);
  return r;
}

static PyObject *ct_tensor_tensor_split(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"indices_or_sections", "dim", NULL};
  PyObject *how, *dim_obj = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:tensor_split", kwlist, &how, &dim_obj)) return NULL;
  Split s = {.t = SELF(self)};
  int64_t *list;
  if (tensor_ndim(s.t) == 0) {
    PyErr_SetString(PyExc_RuntimeError,
                    "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims");
    return NULL;
  }
  /* torch: an int64 tensor of 0 dims is a number of sections, of 1 dim the indices. */
  PyObject *values = NULL;
  if (Ct_Tensor_Check(how)) {
    const tensor_t *spec = SELF(how);
    if (tensor_dtype(spec) != TENSOR_INT64) {
      PyErr_Format(PyExc_RuntimeError, "tensor_split expected tensor_indices_or_sections to have dtype of long, but got %s",
                   tensor_dtype_name(tensor_dtype(spec)));
      return NULL;
    }
    if (tensor_ndim(spec) > 1) {
      PyErr_Format(PyExc_RuntimeError,
                   "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or one-dimensional "
                   "tensor, but got a tensor with %lld dims", (long long)tensor_ndim(spec));
      return NULL;
    }
    how = values = PyObject_CallMethod(how, tensor_ndim(spec) == 0 ? "item" : "tolist", NULL);
    if (!values) return NULL;
  }
  if (parse_dim(dim_obj, s.t, &s.dim, "tensor_split") < 0 ||
      split_arg(how, &s, SECTIONS, INDICES, "tensor_split(): indices_or_sections must be an int or a sequence of ints",
                &list) < 0) {
    Py_XDECREF(values);
    return NULL;
  }
  Py_XDECREF(values);
  PyObject *r = split_tuple(&s);
  PyMem_Free(list);
  return r;
}

static PyObject *ct_tensor_chunk(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"chunks", "dim", NULL};
  long long chunks;
  PyObject *dim_obj = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "L|O:chunk", kwlist, &chunks, &dim_obj)) return NULL;
  Split s = {.how = CHUNK, .t = SELF(self), .number = chunks};
  if (chunks > 0 && parse_dim(dim_obj, s.t, &s.dim, "chunk") < 0) return NULL; /* else C's RuntimeError first */
  return split_tuple(&s);
}

static PyObject *ct_tensor_unbind(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"dim", NULL};
  PyObject *dim_obj = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:unbind", kwlist, &dim_obj)) return NULL;
  const tensor_t *t = SELF(self);
  int64_t dim;
  if (parse_dim(dim_obj, t, &dim, "unbind") < 0) return NULL;
  const int64_t n = tensor_sizes(t)[dim];
  PyObject *tuple = PyTuple_New(n);
  for (int64_t i = 0; tuple && i < n; i++) {
    tensor_t *out = NULL;
    tensor_status_t st = tensor_select(&out, t, dim, i);
    PyObject *item = st == TENSOR_OK ? ct_tensor_wrap(out) : ct_raise(st);
    if (!item) {
      Py_CLEAR(tuple);
      break;
    }
    PyTuple_SET_ITEM(tuple, i, item);
  }
  return tuple;
}

/* torch.hsplit / vsplit / dsplit: tensor_split along dim 1 (0 for 1-d), 0 or 2,
   with torch's dim and divisibility checks. */
static PyObject *directional_split(PyObject *args, const char *name, int64_t min_dims, int64_t dim_of_1d,
                                   int64_t dim) {
  PyObject *self, *how;
  if (!PyArg_ParseTuple(args, "O!O", &Ct_TensorType, &self, &how)) return NULL;
  Split s = {.t = SELF(self)};
  const int64_t ndim = tensor_ndim(s.t);
  if (ndim < min_dims) {
    PyErr_Format(PyExc_RuntimeError,
                 "torch.%s requires a tensor with at least %lld dimension%s, but got a tensor with %lld dimensions!",
                 name, (long long)min_dims, min_dims == 1 ? "" : "s", (long long)ndim);
    return NULL;
  }
  s.dim = ndim == 1 ? dim_of_1d : dim;
  int64_t *list;
  if (split_arg(how, &s, SECTIONS, INDICES, "indices_or_sections must be an int or a sequence of ints", &list) < 0)
    return NULL;
  const int64_t length = tensor_sizes(s.t)[s.dim];
  if (s.how == SECTIONS && (s.number == 0 || length % s.number != 0)) {
    PyErr_Format(PyExc_RuntimeError,
                 "torch.%s attempted to split along dimension %lld, but the size of the dimension %lld is not "
                 "divisible by the split_size %lld!",
                 name, (long long)s.dim, (long long)length, (long long)s.number);
    return NULL;
  }
  PyObject *r = split_tuple(&s);
  PyMem_Free(list);
  return r;
}

static PyObject *ct_hsplit(PyObject *module, PyObject *args) {
  (void)module;
  return directional_split(args, "hsplit", 1, 0, 1);
}

static PyObject *ct_vsplit(PyObject *module, PyObject *args) {
  (void)module;
  return directional_split(args, "vsplit", 2, 0, 0);
}

static PyObject *ct_dsplit(PyObject *module, PyObject *args) {
  (void)module;
  return directional_split(args, "dsplit", 3, 2, 2);
}

/* torch.atleast_Nd(t) or (t1, t2, ...) / ([t1, t2]): a view, or a tuple of them. */
static PyObject *atleast(PyObject *args, int64_t min_dims) {
  PyObject *items = args;
  if (PyTuple_GET_SIZE(args) == 1 && !Ct_Tensor_Check(PyTuple_GET_ITEM(args, 0))) items = PyTuple_GET_ITEM(args, 0);
  PyObject *fast = PySequence_Fast(items, "atleast_nd() expects tensors");
  if (!fast) return NULL;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  PyObject *tuple = PyTuple_New(n);
  for (Py_ssize_t i = 0; tuple && i < n; i++) {
    PyObject *item = PySequence_Fast_GET_ITEM(fast, i);
    if (!Ct_Tensor_Check(item)) {
      PyErr_Format(PyExc_TypeError, "atleast_%lldd(): expected Tensor, not %.200s", (long long)min_dims,
                   Py_TYPE(item)->tp_name);
      Py_CLEAR(tuple);
      break;
    }
    tensor_t *out = NULL;
    const tensor_status_t st = tensor_atleast(&out, SELF(item), min_dims);
    PyObject *view = st == TENSOR_OK ? ct_tensor_wrap(out) : ct_raise(st);
    if (!view) Py_CLEAR(tuple);
    else PyTuple_SET_ITEM(tuple, i, view);
  }
  Py_DECREF(fast);
  if (tuple && PyTuple_GET_SIZE(args) == 1 && Ct_Tensor_Check(PyTuple_GET_ITEM(args, 0))) {
    PyObject *one = Py_NewRef(PyTuple_GET_ITEM(tuple, 0));
    Py_DECREF(tuple);
    return one;
  }
  return tuple;
}

static PyObject *ct_atleast_1d(PyObject *module, PyObject *args) {
  (void)module;
  return atleast(args, 1);
}

static PyObject *ct_atleast_2d(PyObject *module, PyObject *args) {
  (void)module;
  return atleast(args, 2);
}

static PyObject *ct_atleast_3d(PyObject *module, PyObject *args) {
  (void)module;
  return atleast(args, 3);
}

#define KWARGS(name, fn, doc) {name, (PyCFunction)(void (*)(void))(fn), METH_VARARGS | METH_KEYWORDS, doc}

static PyMethodDef split_methods[] = {
    KWARGS("split", ct_tensor_split, "split(split_size_or_sections, dim=0): a tuple of views." CT_EXPERIMENTAL_NOTE),
    KWARGS("chunk", ct_tensor_chunk, "chunk(chunks, dim=0): a tuple of views." CT_EXPERIMENTAL_NOTE),
    KWARGS("tensor_split", ct_tensor_tensor_split, "tensor_split(indices_or_sections, dim=0): a tuple of views." CT_EXPERIMENTAL_NOTE),
    KWARGS("unbind", ct_tensor_unbind, "unbind(dim=0): a tuple of views."),
    {NULL, NULL, 0, NULL},
};

static PyMethodDef split_functions[] = {
    {"hsplit", ct_hsplit, METH_VARARGS, "hsplit(t, indices_or_sections): tensor_split along dim 1 (0 for 1-d)." CT_EXPERIMENTAL_NOTE},
    {"vsplit", ct_vsplit, METH_VARARGS, "vsplit(t, indices_or_sections): tensor_split along dim 0." CT_EXPERIMENTAL_NOTE},
    {"dsplit", ct_dsplit, METH_VARARGS, "dsplit(t, indices_or_sections): tensor_split along dim 2." CT_EXPERIMENTAL_NOTE},
    {"atleast_1d", ct_atleast_1d, METH_VARARGS, "atleast_1d(*tensors): views with at least 1 dim." CT_EXPERIMENTAL_NOTE},
    {"atleast_2d", ct_atleast_2d, METH_VARARGS, "atleast_2d(*tensors): views with at least 2 dims." CT_EXPERIMENTAL_NOTE},
    {"atleast_3d", ct_atleast_3d, METH_VARARGS, "atleast_3d(*tensors): views with at least 3 dims." CT_EXPERIMENTAL_NOTE},
    {NULL, NULL, 0, NULL},
};

int ct_split_register(PyObject *module) {
  return ct_tensor_add_methods(split_methods) < 0 ? -1 : ct_add_functions(module, split_functions);
}
