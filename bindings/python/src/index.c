/* Indexing: ints, slices (negative steps too), None, ... and bools map onto
   select/slice/unsqueeze views; integer and boolean index tensors or lists make
   it advanced indexing (advanced.c: tensor_index_gather / tensor_index_put),
   which copies. Assignment writes through the view with tensor_copy, converting
   and broadcasting the value. */
#include <string.h>

#include "ctensor_py.h"

/* Python bools and 0-dim bool or uint8 tensors (and arrays, as torch: uint8 is
   its legacy mask dtype) add a dim of size 1 (true / non-zero) or 0. */
static int is_bool_index(PyObject *item) {
  if (PyBool_Check(item)) return 1;
  if (Ct_Tensor_Check(item)) {
    const tensor_dtype_t d = tensor_dtype(CT_SELF(item));
    return tensor_ndim(CT_SELF(item)) == 0 && (d == TENSOR_BOOL || d == TENSOR_UINT8);
  }
  char kind = 0;
  int itemsize = 0;
  return ct_numpy_zero_dim(item, &kind, &itemsize) && (kind == 'b' || (kind == 'u' && itemsize == 1));
}

/* Lists, arrays and tensors other than 0-dim integers index with their values
   (a 0-dim integer tensor or array selects, as torch). */
static int is_advanced(PyObject *item) {
  if (Ct_Tensor_Check(item)) {
    const tensor_dtype_t d = tensor_dtype(CT_SELF(item));
    return tensor_ndim(CT_SELF(item)) > 0 || ct_dtype_is_floating(d) || ct_dtype_is_complex(d);
  }
  if (PyList_Check(item) || PyTuple_Check(item)) return 1;
  if (PyLong_Check(item)) return 0;
  const int array = ct_is_numpy_array(item);
  if (array < 0) return -1;
  char kind = 0;
  int itemsize;
  if (array) return !ct_numpy_zero_dim(item, &kind, &itemsize) || (kind != 'i' && kind != 'u');
  return PyObject_HasAttrString(item, "__dlpack__");
}

/* Bool and (as torch) uint8 index tensors are masks. */
static int is_mask(const tensor_t *t) { return tensor_dtype(t) == TENSOR_BOOL || tensor_dtype(t) == TENSOR_UINT8; }

/* A new handle to the tensor a function of the package (ctensor/) makes of obj
   (and dtype, if not NULL): from_dlpack, or torch.tensor's copy of Python data. */
static tensor_t *package_tensor(const char *module, const char *function, PyObject *obj, PyObject *dtype) {
  PyObject *package = PyImport_ImportModule(module);
  PyObject *made = package ? PyObject_CallMethod(package, function, dtype ? "OO" : "O", obj, dtype) : NULL;
  Py_XDECREF(package);
  tensor_t *t = made ? tensor_retain(CT_SELF(made)) : NULL;
  Py_XDECREF(made);
  return t;
}

/* An advanced index as an integer tensor of any integer dtype, or a mask. */
static tensor_t *index_tensor(PyObject *item) {
  tensor_t *t;
  if (Ct_Tensor_Check(item)) t = tensor_retain(CT_SELF(item));
  else if (ct_is_numpy_array(item) > 0) t = ct_tensor_from_strided_buffer(item);
  else if (PyErr_Occurred()) return NULL;
  else if (PyObject_HasAttrString(item, "__dlpack__")) t = package_tensor("ctensor._dlpack", "from_dlpack", item, NULL);
  else {
    t = package_tensor("ctensor._asarray", "_from_data", item, NULL);
    /* torch makes lists of numbers int64 index tensors (1.5 truncates), unless all bools */
    if (t && (ct_dtype_is_floating(tensor_dtype(t)) || ct_dtype_is_complex(tensor_dtype(t))) && tensor_numel(t) > 0) {
      tensor_release(t);
      t = package_tensor("ctensor._asarray", "_from_data", item, ct_dtype_object(TENSOR_INT64));
    }
  }
  if (!t) return NULL;
  const tensor_dtype_t d = tensor_dtype(t);
  /* torch takes long, byte and bool index tensors only (NumPy arrays of any int type index) */
  if (Ct_Tensor_Check(item) && d != TENSOR_INT64 && d != TENSOR_UINT8 && d != TENSOR_BOOL)
    return tensor_release(t),
           PyErr_SetString(PyExc_IndexError, "tensors used as indices must be long, byte or bool tensors"), NULL;
  if (d == TENSOR_UINT8 &&
      PyErr_WarnEx(PyExc_UserWarning,
                   "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.", 1) < 0)
    return tensor_release(t), NULL;
  if (d == TENSOR_FLOAT32 && tensor_numel(t) == 0) { /* t[[]]: no values to type */
    tensor_t *out = NULL;
    const tensor_status_t st = tensor_to(&out, t, TENSOR_INT64, TENSOR_COPY_IF_NEEDED);
    tensor_release(t);
    return st == TENSOR_OK ? out : (tensor_t *)ct_raise(st);
  }
  if (ct_dtype_is_floating(d) || ct_dtype_is_complex(d))
    return tensor_release(t),
           PyErr_SetString(PyExc_IndexError, "tensors used as indices must be long, int, byte or bool tensors"), NULL;
  return t;
}

/* The index tensors of an advanced index (any integer dtype) and the view dims they index. */
typedef struct {
  int64_t m;
  int64_t dims[TENSOR_MAX_DIMS];
  tensor_t *idx[TENSOR_MAX_DIMS];
} Advanced;

static void advanced_release(Advanced *adv) {
  for (int64_t k = 0; k < adv->m; k++) tensor_release(adv->idx[k]);
  adv->m = 0;
}

/* torch's treatSequenceAsTuple: a list (or other non-tensor sequence) holding a
   tensor, a sequence, a slice, ... or None indexes as the tuple of its items
   (x[[[0, 1], [1, 0]]] is x[[0, 1], [1, 0]]). 1, 0, or -1 on error. */
static int sequence_as_tuple(PyObject *index) {
  if (PyTuple_Check(index)) return 1;
  if (Ct_Tensor_Check(index) || PyUnicode_Check(index) || PyBytes_Check(index) || !PySequence_Check(index)) return 0;
  const int array = ct_is_numpy_array(index);
  if (array) return array < 0 ? -1 : 0;
  const Py_ssize_t n = PySequence_Size(index);
  if (n < 0 || n >= 32) {
    PyErr_Clear();
    return 0;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *obj = PySequence_GetItem(index, i);
    if (!obj) {
      PyErr_Clear();
      return 0;
    }
    const int yes = Ct_Tensor_Check(obj) || PySequence_Check(obj) || PySlice_Check(obj) || obj == Py_Ellipsis ||
                    obj == Py_None;
    Py_DECREF(obj);
    if (yes) return 1;
  }
  return 0;
}

/* An exact int or a slice, the common items, as a tensor_index kind and values:
   1, 0 for any other item, -1 with an exception. */
static inline int int_or_slice(PyObject *item, int32_t *kind, int64_t *v) {
  if (PyLong_CheckExact(item)) {
    *kind = TENSOR_INDEX_INT;
    v[0] = PyLong_AsLongLong(item);
    return v[0] == -1 && PyErr_Occurred() ? -1 : 1;
  }
  if (!PySlice_Check(item)) return 0;
  Py_ssize_t start, stop, step;
  if (PySlice_Unpack(item, &start, &stop, &step) < 0) return -1; /* open ends: PY_SSIZE_T_MIN/MAX */
  *kind = TENSOR_INDEX_SLICE;
  v[0] = start, v[1] = stop, v[2] = step;
  return 1;
}

/* One basic index item as a tensor_index kind and values: exact types first (the
   common case costs a few compares), then bools and integers in other clothes
   (NumPy scalars and 0-dim arrays, 0-dim tensors). 1 if it was basic, 0 if it is
   an advanced index, -1 with an exception. */
static int basic_item(PyObject *item, int32_t *kind, int64_t *v) {
  v[0] = v[1] = v[2] = 0;
  const int plain = int_or_slice(item, kind, v);
  if (plain) return plain;
  if (item == Py_None || item == Py_Ellipsis) {
    *kind = item == Py_None ? TENSOR_INDEX_NEWAXIS : TENSOR_INDEX_ELLIPSIS;
    return 1;
  }
  if (is_bool_index(item)) { /* t[True] / t[False]: a new dim of size 1 / 0 */
    const int truth = PyObject_IsTrue(item);
    *kind = TENSOR_INDEX_BOOL;
    v[0] = truth;
    return truth < 0 ? -1 : 1;
  }
  const int advanced = is_advanced(item);
  if (advanced) return advanced < 0 ? -1 : 0;
  if (PyIndex_Check(item)) {
    PyObject *number = PyNumber_Index(item);
    *kind = TENSOR_INDEX_INT;
    v[0] = number ? PyLong_AsLongLong(number) : -1;
    Py_XDECREF(number);
    return v[0] == -1 && PyErr_Occurred() ? -1 : 1;
  }
  const int scalar = ct_scalar_kind(item);
  PyErr_Clear();
  PyErr_Format(scalar == CT_KIND_FLOAT || scalar == CT_KIND_COMPLEX ? PyExc_IndexError : PyExc_TypeError, /* as torch, which tries to make an index tensor of it */
               "only integers, slices (`:`), ellipsis (`...`), None, booleans and integer or boolean "
               "tensors are valid indices (got %.200s)",
               Py_TYPE(item)->tp_name);
  return -1;
}

/* The view t[basic part of index] in one tensor_index call, as a new reference, or
   NULL with an exception. Advanced items keep their dims in place (as full slices)
   and are collected into `adv`, masks already turned into one int64 index tensor
   per masked dim. */
static tensor_t *index_view(tensor_t *t, PyObject *index, Advanced *adv) {
  adv->m = 0;
  PyObject *seq = NULL; /* a tuple, or a sequence indexing as one, or NULL for one item */
  if (PyTuple_Check(index)) {
    seq = Py_NewRef(index);
  } else if (!PyLong_CheckExact(index) && !PySlice_Check(index) && index != Py_None && index != Py_Ellipsis) {
    const int as_tuple = sequence_as_tuple(index);
    if (as_tuple < 0) return NULL;
    if (as_tuple && !(seq = PySequence_Tuple(index))) return NULL;
  }
  PyObject *const *items = seq ? PySequence_Fast_ITEMS(seq) : &index;
  const Py_ssize_t n = seq ? PyTuple_GET_SIZE(seq) : 1;
  if (n > TENSOR_MAX_DIMS) return Py_XDECREF(seq), PyErr_SetString(PyExc_IndexError, "too many indices"), NULL;
  /* at most 64 items, and masks expand to at most 64 named dims in all */
  int32_t kinds[2 * TENSOR_MAX_DIMS];
  int64_t values[6 * TENSOR_MAX_DIMS];
  tensor_t *given[TENSOR_MAX_DIMS] = {NULL}; /* advanced items as tensors, by position */
  int64_t first_kind[TENSOR_MAX_DIMS];
  const int64_t ndim = tensor_ndim(t);
  int64_t nk = 0, named = 0;
  int failed = 0;
  for (Py_ssize_t i = 0; !failed && i < n; i++) {
    first_kind[i] = nk;
    const int basic = basic_item(items[i], &kinds[nk], &values[3 * nk]);
    if (basic < 0) {
      failed = 1;
    } else if (basic) {
      named += kinds[nk] == TENSOR_INDEX_INT || kinds[nk] == TENSOR_INDEX_SLICE;
      nk++;
    } else if (!(given[i] = index_tensor(items[i]))) {
      failed = 1;
    } else {
      const int64_t k = is_mask(given[i]) ? tensor_ndim(given[i]) : 1;
      for (int64_t j = 0; j < k && named + k <= ndim; j++, nk++) { /* past ndim only the count matters */
        kinds[nk] = TENSOR_INDEX_SLICE;
        values[3 * nk] = 0, values[3 * nk + 1] = TENSOR_SLICE_END, values[3 * nk + 2] = 1;
      }
      named += k;
    }
  }
  if (!failed && named > ndim) {
    PyErr_Format(PyExc_IndexError, "too many indices for tensor of dimension %lld", (long long)ndim);
    failed = 1;
  }
  tensor_t *view = NULL;
  if (!failed) {
    const tensor_status_t st = tensor_index(&view, t, nk, kinds, values);
    if (st != TENSOR_OK) ct_raise_as(st, TENSOR_E_INVALID, PyExc_IndexError);
  }
  /* Each advanced item's dims in the view: the dim counter of tensor_index at its
     full slices (dims before the counter never move). */
  int64_t dim = 0, k = 0;
  for (Py_ssize_t i = 0; view && i < n; i++) {
    for (; k < first_kind[i]; k++)
      dim += kinds[k] == TENSOR_INDEX_INT ? 0 : kinds[k] == TENSOR_INDEX_ELLIPSIS ? ndim - named : 1;
    if (!given[i]) continue;
    const int64_t masked = is_mask(given[i]) ? tensor_ndim(given[i]) : 0;
    if (masked && ct_mask_to_indices(given[i], view, dim, adv->idx + adv->m) < 0) {
      tensor_release(view);
      view = NULL;
      break;
    }
    if (!masked) adv->idx[adv->m] = tensor_retain(given[i]);
    for (int64_t j = 0; j < (masked ? masked : 1); j++) adv->dims[adv->m++] = dim++;
    k += masked ? masked : 1;
  }
  for (Py_ssize_t i = 0; i < n; i++) tensor_release(given[i]);
  Py_XDECREF(seq);
  if (!view) advanced_release(adv);
  return view;
}

/* t[2, 1:5]: a tuple of exact ints and slices, at most ndim of them, in one
   tensor_index call; 0 when the general path must look (nothing done). */
static int fast_index(const tensor_t *t, PyObject *index, tensor_t **out) {
  const Py_ssize_t n = PyTuple_GET_SIZE(index);
  PyObject *const *items = PySequence_Fast_ITEMS(index);
  if (n > tensor_ndim(t)) return 0;
  int32_t kinds[TENSOR_MAX_DIMS];
  int64_t values[3 * TENSOR_MAX_DIMS];
  for (Py_ssize_t i = 0; i < n; i++) {
    const int plain = int_or_slice(items[i], &kinds[i], &values[3 * i]);
    if (plain <= 0) return plain;
  }
  const tensor_status_t st = tensor_index(out, t, n, kinds, values);
  if (st != TENSOR_OK) ct_raise_as(st, TENSOR_E_INVALID, PyExc_IndexError);
  return st == TENSOR_OK ? 1 : -1;
}

static PyObject *tensor_getitem(PyObject *self, PyObject *index) {
  tensor_t *view = NULL;
  tensor_status_t st = TENSOR_OK;
  if (PyLong_CheckExact(index)) { /* t[i], the common case: one select */
    const long long i = PyLong_AsLongLong(index);
    if (i == -1 && PyErr_Occurred()) return NULL;
    st = tensor_select(&view, CT_SELF(self), 0, i);
  } else if (PySlice_Check(index)) { /* t[a:b:c]: one slice of dim 0 */
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(index, &start, &stop, &step) < 0) return NULL;
    st = tensor_slice(&view, CT_SELF(self), 0, start, stop, step);
  } else if (PyTuple_CheckExact(index)) {
    const int fast = fast_index(CT_SELF(self), index, &view);
    if (fast) return fast < 0 ? NULL : ct_tensor_wrap(view);
  }
  if (view || st != TENSOR_OK) return st == TENSOR_OK ? ct_tensor_wrap(view) : ct_raise_as(st, TENSOR_E_INVALID, PyExc_IndexError);
  Advanced adv;
  view = index_view(CT_SELF(self), index, &adv);
  if (!view || adv.m == 0) return ct_tensor_wrap(view);
  PyObject *r = ct_advanced_get(view, adv.m, adv.dims, adv.idx);
  advanced_release(&adv);
  tensor_release(view);
  return r;
}

static PyObject *tensor_item_at(PyObject *self, Py_ssize_t i) {
  tensor_t *out = NULL;
  tensor_status_t st = tensor_select(&out, CT_SELF(self), 0, i);
  if (st != TENSOR_OK) return ct_raise_as(st, TENSOR_E_INVALID, PyExc_IndexError);
  return ct_tensor_wrap(out);
}

/* The numbers torch's __setitem__ takes (valueToTensor): Python bool, int, float
   and complex (NumPy's float64/complex128 are subclasses) and NumPy integers.
   1 if value is one, 0 if not, -1 on error. */
static int settable_number(PyObject *value) {
  if (PyBool_Check(value) || PyLong_Check(value) || PyFloat_Check(value) || PyComplex_Check(value)) return 1;
  const int scalar = ct_is_numpy_scalar(value);
  if (scalar <= 0) return scalar;
  const int kind = ct_scalar_kind(value);
  return kind < 0 ? -1 : kind == CT_KIND_INT;
}

/* An assigned value as a tensor: ctensor tensors and DLPack producers (e.g. a
   torch.Tensor); anything else is torch's TypeError. */
static tensor_t *value_tensor(PyObject *value, tensor_dtype_t dst_dtype) {
  if (Ct_Tensor_Check(value)) return tensor_retain(CT_SELF(value));
  if (ct_is_numpy_array(value) == 0 && !PyErr_Occurred() && PyObject_HasAttrString(value, "__dlpack__"))
    return package_tensor("ctensor._dlpack", "from_dlpack", value, NULL);
  if (!PyErr_Occurred())
    PyErr_Format(PyExc_TypeError, "can't assign a %.200s to a ctensor.%s", Py_TYPE(value)->tp_name,
                 ct_dtype_legacy_name(dst_dtype));
  return NULL;
}

int ct_fill(tensor_t *dst, PyObject *value) {
  int ok = Ct_Tensor_Check(value) ? tensor_ndim(CT_SELF(value)) == 0 : ct_scalar_kind(value) > 0;
  if (ok && !Ct_Tensor_Check(value) && ct_is_numpy_array(value) != 0) ok = 0; /* 0-dim arrays: TypeError */
  if (PyErr_Occurred()) return -1;
  if (!ok)
    return PyErr_Format(PyExc_TypeError, "fill_() received an invalid combination of arguments - got (%.200s)",
                 Py_TYPE(value)->tp_name), -1;
  tensor_t *one = ct_scalar_checked(value, tensor_dtype(dst));
  if (!one) return -1;
  /* torch's fill_ allows what copy_ refuses: dst with internal overlap */
  /* a large fill lets other threads run: it touches no Python object */
  PyThreadState *saved = tensor_numel(dst) < CT_NOGIL_ELEMENTS ? NULL : PyEval_SaveThread();
  const tensor_status_t st = tensor_fill_element(dst, tensor_data(one));
  if (saved) PyEval_RestoreThread(saved);
  tensor_release(one);
  return st == TENSOR_OK ? 0 : (ct_raise(st), -1);
}

static int assign(tensor_t *dst, PyObject *value) {
  const int number = settable_number(value);
  if (number < 0) return -1;
  /* numbers, and 0-dim tensors into a tensor with dims, fill (checked) */
  if (number || (Ct_Tensor_Check(value) && tensor_ndim(CT_SELF(value)) == 0 && tensor_ndim(dst) != 0))
    return ct_fill(dst, value);
  tensor_t *src = ct_drop_leading_ones(value_tensor(value, tensor_dtype(dst)), tensor_ndim(dst));
  if (!src) return -1;
  const tensor_status_t st = ct_copy(dst, src);
  tensor_release(src);
  return st == TENSOR_OK ? 0 : (ct_raise(st), -1);
}

/* The value of an advanced assignment: a number in dst's dtype (checked), or a
   tensor of dst's dtype (torch's index_put_ converts nothing). */
static tensor_t *advanced_value(PyObject *value, tensor_dtype_t dtype) {
  const int number = settable_number(value);
  if (number < 0) return NULL;
  if (number) return ct_scalar_checked(value, dtype);
  tensor_t *src = value_tensor(value, dtype);
  if (src && tensor_dtype(src) != dtype) {
    PyErr_Format(PyExc_RuntimeError,
                 "Index put requires the source and destination dtypes match, got %R for the destination "
                 "and %R for the source.",
                 ct_dtype_object(dtype), ct_dtype_object(tensor_dtype(src)));
    tensor_release(src);
    return NULL;
  }
  return src;
}

static int tensor_setitem(PyObject *self, PyObject *index, PyObject *value) {
  if (!value) return PyErr_SetString(PyExc_TypeError, "Tensor does not support item deletion"), -1;
  Advanced adv;
  tensor_t *view = index_view(CT_SELF(self), index, &adv);
  if (!view) return -1;
  int rc;
  if (adv.m == 0) {
    rc = assign(view, value);
  } else {
    tensor_t *src = advanced_value(value, tensor_dtype(view));
    rc = src ? ct_advanced_set(view, adv.m, adv.dims, adv.idx, src) : -1;
    tensor_release(src);
    advanced_release(&adv);
  }
  tensor_release(view);
  return rc;
}

void ct_index_slots(PyTypeObject *type) {
  type->tp_as_sequence->sq_item = tensor_item_at;
  type->tp_as_mapping->mp_subscript = tensor_getitem;
  type->tp_as_mapping->mp_ass_subscript = tensor_setitem;
}
