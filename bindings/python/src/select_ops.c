/* clamp/clip and where over the C API (tensor_clamp, tensor_where): Tensor
   methods and ctensor.where, with PyTorch's signatures; out= computes into a
   given tensor with the C API's _into rules. Bounds and branches may be tensors
   or Python numbers (wrapped numbers). argmax, cumsum, softmax & co. are in
   ctensor/_tensor_methods.py. */
#include "ctensor_py.h"

#define SELF(o) (((TensorObject *)(o))->t)

/* out=None or a Tensor: its handle (borrowed) or NULL in *dst. Returns -1 with
   a TypeError for anything else. */
static int parse_out(PyObject *out, tensor_t **dst, const char *name) {
  *dst = NULL;
  if (!out || out == Py_None) return 0;
  if (!Ct_Tensor_Check(out)) {
    PyErr_Format(PyExc_TypeError, "%s(): argument 'out' must be Tensor, not %.200s", name, Py_TYPE(out)->tp_name);
    return -1;
  }
  *dst = SELF(out);
  return 0;
}

/* A tensor or number argument as a new handle (NULL for None when `optional`). */
static int parse_operand(PyObject *obj, tensor_t **t, const char *name, const char *arg, int optional) {
  *t = NULL;
  if (optional && (!obj || obj == Py_None)) return 0;
  const int r = ct_operand(obj, t);
  if (r == 0)
    PyErr_Format(PyExc_TypeError, "%s(): argument '%s' must be Tensor or Number, not %.200s", name, arg,
                 Py_TYPE(obj)->tp_name);
  return r > 0 ? 0 : -1;
}

/* The Python result: out itself, or the new tensor. */
static PyObject *result(tensor_status_t st, tensor_t *made, PyObject *out) {
  if (st != TENSOR_OK) return ct_raise(st);
  return out && out != Py_None ? Py_NewRef(out) : ct_tensor_wrap(made);
}

static int large(const tensor_t *t) { return tensor_numel(t) >= CT_NOGIL_ELEMENTS; }

/* ---- clamp ---------------------------------------------------------------- */

static PyObject *clamp_impl(PyObject *self, PyObject *min, PyObject *max, PyObject *out, const char *name) {
  tensor_t *lo = NULL, *hi = NULL, *dst = NULL, *made = NULL;
  if (parse_out(out, &dst, name) < 0 || parse_operand(min, &lo, name, "min", 1) < 0 ||
      parse_operand(max, &hi, name, "max", 1) < 0) {
    tensor_release(lo);
    return NULL;
  }
  tensor_status_t st;
  const tensor_t *a = SELF(self);
  if (large(a)) {
    Py_BEGIN_ALLOW_THREADS
    st = dst ? tensor_clamp_into(dst, a, lo, hi) : tensor_clamp(&made, a, lo, hi);
    Py_END_ALLOW_THREADS
  } else {
    st = dst ? tensor_clamp_into(dst, a, lo, hi) : tensor_clamp(&made, a, lo, hi);
  }
  tensor_release(lo);
  tensor_release(hi);
  return result(st, made, out);
}

static PyObject *method_clamp(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"min", "max", "out", NULL};
  PyObject *min = Py_None, *max = Py_None, *out = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO$O:clamp", kwlist, &min, &max, &out)) return NULL;
  return clamp_impl(self, min, max, out, "clamp");
}

static PyObject *method_clamp_(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"min", "max", NULL};
  PyObject *min = Py_None, *max = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:clamp_", kwlist, &min, &max)) return NULL;
  return clamp_impl(self, min, max, self, "clamp_");
}

/* ---- where ---------------------------------------------------------------- */

static PyObject *where_impl(PyObject *condition, PyObject *input, PyObject *other, PyObject *out) {
  if (!Ct_Tensor_Check(condition))
    return PyErr_Format(PyExc_TypeError, "where(): argument 'condition' must be Tensor, not %.200s",
                        Py_TYPE(condition)->tp_name);
  tensor_t *a = NULL, *b = NULL, *dst = NULL, *made = NULL;
  if (parse_out(out, &dst, "where") < 0 || parse_operand(input, &a, "where", "input", 0) < 0 ||
      parse_operand(other, &b, "where", "other", 0) < 0) {
    tensor_release(a);
    return NULL;
  }
  const tensor_t *cond = SELF(condition);
  tensor_status_t st;
  if (large(cond) || large(a) || large(b)) {
    Py_BEGIN_ALLOW_THREADS
    st = dst ? tensor_where_into(dst, cond, a, b) : tensor_where(&made, cond, a, b);
    Py_END_ALLOW_THREADS
  } else {
    st = dst ? tensor_where_into(dst, cond, a, b) : tensor_where(&made, cond, a, b);
  }
  tensor_release(a);
  tensor_release(b);
  return result(st, made, out);
}

static PyObject *fn_where(PyObject *module, PyObject *args, PyObject *kwargs) {
  (void)module;
  static char *kwlist[] = {"condition", "input", "other", "out", NULL};
  PyObject *condition, *input, *other, *out = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO|$O:where", kwlist, &condition, &input, &other, &out))
    return NULL;
  return where_impl(condition, input, other, out);
}

static PyMethodDef select_methods[] = {
    CT_KWARGS("clamp", method_clamp, "clamp(min=None, max=None, *, out=None): bounds are tensors or numbers."),
    CT_KWARGS("clip", method_clamp, "clip(min=None, max=None, *, out=None): clamp."),
    CT_KWARGS("clamp_", method_clamp_, "clamp_(min=None, max=None): clamp in place, returns self."),
    CT_KWARGS("clip_", method_clamp_, "clip_(min=None, max=None): clamp_."),
    {NULL, NULL, 0, NULL},
};

static PyMethodDef select_functions[] = {
    CT_KWARGS("where", fn_where, "where(condition, input, other, *, out=None): input where condition, else other."),
    {NULL, NULL, 0, NULL},
};

int ct_select_ops_register(PyObject *module) {
  return ct_tensor_add_methods(select_methods) < 0 ? -1 : ct_add_functions(module, select_functions);
}
