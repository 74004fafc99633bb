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

#define KWARGS(name, fn, doc) {name, (PyCFunction)(void (*)(void))(fn), METH_VARARGS | METH_KEYWORDS, doc}

static PyMethodDef split_methods[] = {
    KWARGS("split", ct_tensor_split, "split(split_size_or_sections, dim=0): a tuple of views." CT_EXPERIMENTAL_NOTE),
    KWARGS("chunk", ct_tensor_chunk, "chunk(chunks, dim=0): a tuple of views." CT_EXPERIMENTAL_NOTE),
    KWARGS("tensor_split", ct_tensor_tensor_split, "tensor_split(indices_or_sections, dim=0): a tuple of views." CT_EXPERIMENTAL_NOTE),
    {NULL, NULL, 0, NULL},
};

static PyMethodDef split_functions[] = {
    {NULL, NULL, 0, NULL},
};

int ct_split_register(PyObject *module) {
  return ct_tensor_add_methods(split_methods) < 0 ? -1 : ct_add_functions(module, split_functions);
}
