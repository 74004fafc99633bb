/* Math on the C API: the arithmetic and comparison operators with PyTorch's
   Python-number promotion (numbers become wrapped-number scalars), in-place
   operators, -t and abs(t), ctensor.cat/stack/equal/allclose/result_type, and
   the entries behind the binary and unary families' methods and functions
   (_binary, _unary: ctensor/_tensor_methods.py, ctensor/_unary.py). Large
   operations let other Python threads run. */
#include "ctensor_py.h"

typedef tensor_status_t (*BinaryFn)(tensor_t **, const tensor_t *, const tensor_t *);

#define SELF(o) (((TensorObject *)(o))->t)

/* A tensor for an operand: a ctensor tensor (a new reference to its handle), or a
   Python (or NumPy) number as a wrapped number. Returns 1, 0 when obj is neither
   (operators then return NotImplemented), -1 on error. */
static int operand(PyObject *obj, tensor_t **out) {
  *out = NULL;
  if (Ct_Tensor_Check(obj)) {
    *out = tensor_retain(SELF(obj));
    return 1;
  }
  const int kind = ct_scalar_kind(obj);
  if (kind <= 0) return kind;
  tensor_status_t st;
  switch (kind) {
    case CT_KIND_BOOL: {
      const int truth = PyObject_IsTrue(obj);
      if (truth < 0) return -1;
      st = tensor_scalar_bool(out, truth);
      break;
    }
    case CT_KIND_INT: {
      PyObject *index = PyNumber_Index(obj);
      if (!index) return -1;
      const long long v = PyLong_AsLongLong(index);
      Py_DECREF(index);
      if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_RuntimeError, "Overflow when unpacking long");
        return -1;
      }
      st = tensor_scalar_int64(out, v);
      break;
    }
    case CT_KIND_FLOAT: {
      const double v = PyFloat_AsDouble(obj);
      if (v == -1.0 && PyErr_Occurred()) return -1;
      st = tensor_scalar_float64(out, v);
      break;
    }
    default: {
      const Py_complex c = PyComplex_AsCComplex(obj);
      if (c.real == -1.0 && PyErr_Occurred()) return -1;
      st = tensor_scalar_complex128(out, c.real, c.imag);
    }
  }
  if (st != TENSOR_OK) {
    ct_raise(st);
    return -1;
  }
  return 1;
}

static int large(const tensor_t *a, const tensor_t *b) {
  return tensor_numel(a) >= CT_NOGIL_ELEMENTS || (b && tensor_numel(b) >= CT_NOGIL_ELEMENTS);
}

/* st = call, letting other Python threads run when the operands are large. */
#define CALL_NOGIL(cond, st, call) \
  if (cond) {                       \
    Py_BEGIN_ALLOW_THREADS          \
    st = call;                      \
    Py_END_ALLOW_THREADS            \
  } else {                          \
    st = call;                      \
  }

/* Both operands as tensors: 1, 0 (one is neither a tensor nor a number: none held) or -1. */
static int operands(PyObject *a, PyObject *b, tensor_t **ta, tensor_t **tb) {
  *tb = NULL;
  int r = operand(a, ta);
  if (r > 0) r = operand(b, tb);
  if (r <= 0) tensor_release(*ta);
  return r;
}

/* a op b: fn(a, b) in a new tensor, or into out by op (PyTorch's out= rules, out may
   be a: in place), returning out. NotImplemented when an operand is no tensor or number. */
static PyObject *binary_to(PyObject *a, PyObject *b, BinaryFn fn, tensor_op_t op, PyObject *out) {
  tensor_t *ta, *tb, *result = NULL;
  const int r = operands(a, b, &ta, &tb);
  if (r <= 0) {
    if (r < 0) return NULL;
    Py_RETURN_NOTIMPLEMENTED;
  }
  tensor_status_t st;
  CALL_NOGIL(large(ta, tb), st, out ? tensor_binary_into(SELF(out), op, ta, tb) : fn(&result, ta, tb))
  tensor_release(ta);
  tensor_release(tb);
  if (st != TENSOR_OK) return ct_raise(st);
  return out ? Py_NewRef(out) : ct_tensor_wrap(result);
}

static PyObject *binary(PyObject *a, PyObject *b, BinaryFn fn) { return binary_to(a, b, fn, 0, NULL); }

/* self op= other: computed into self (PyTorch's out= rules), returns self. */
static PyObject *in_place(PyObject *self, PyObject *other, tensor_op_t op) {
  if (!Ct_Tensor_Check(self)) Py_RETURN_NOTIMPLEMENTED;
  return binary_to(self, other, NULL, op, self);
}

static PyObject *nb_add(PyObject *a, PyObject *b) { return binary(a, b, tensor_add); }
static PyObject *nb_sub(PyObject *a, PyObject *b) { return binary(a, b, tensor_sub); }
static PyObject *nb_mul(PyObject *a, PyObject *b) { return binary(a, b, tensor_mul); }
static PyObject *nb_div(PyObject *a, PyObject *b) { return binary(a, b, tensor_div); }
static PyObject *nb_pow(PyObject *a, PyObject *b, PyObject *mod) {
  if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED;
  return binary(a, b, tensor_pow);
}
static PyObject *nb_iadd(PyObject *a, PyObject *b) { return in_place(a, b, TENSOR_OP_ADD); }
static PyObject *nb_isub(PyObject *a, PyObject *b) { return in_place(a, b, TENSOR_OP_SUB); }
static PyObject *nb_imul(PyObject *a, PyObject *b) { return in_place(a, b, TENSOR_OP_MUL); }
static PyObject *nb_idiv(PyObject *a, PyObject *b) { return in_place(a, b, TENSOR_OP_DIV); }

static PyObject *unary(PyObject *self, tensor_status_t (*fn)(tensor_t **, const tensor_t *)) {
  tensor_t *out = NULL;
  tensor_status_t st;
  CALL_NOGIL(large(SELF(self), NULL), st, fn(&out, SELF(self)))
  return st == TENSOR_OK ? ct_tensor_wrap(out) : ct_raise(st);
}

static PyObject *nb_neg(PyObject *self) { return unary(self, tensor_neg); }
static PyObject *nb_abs(PyObject *self) { return unary(self, tensor_abs); }
static PyObject *nb_pos(PyObject *self) {
  if (tensor_dtype(SELF(self)) == TENSOR_BOOL) {
    PyErr_SetString(PyExc_RuntimeError, "The `+` operator, on a bool tensor is not supported.");
    return NULL;
  }
  return Py_NewRef(self);
}

/* ==, !=, <, ... element-wise (NotImplemented for non-operands). */
static PyObject *richcompare(PyObject *self, PyObject *other, int op) {
  static const BinaryFn fns[] = {[Py_LT] = tensor_lt, [Py_LE] = tensor_le, [Py_EQ] = tensor_eq,
                                 [Py_NE] = tensor_ne, [Py_GT] = tensor_gt, [Py_GE] = tensor_ge};
  return binary(self, other, fns[op]);
}

void ct_math_slots(PyTypeObject *type) {
  PyNumberMethods *nb = type->tp_as_number;
  type->tp_richcompare = richcompare;
  nb->nb_add = nb_add;
  nb->nb_subtract = nb_sub;
  nb->nb_multiply = nb_mul;
  nb->nb_true_divide = nb_div;
  nb->nb_power = nb_pow;
  nb->nb_inplace_add = nb_iadd;
  nb->nb_inplace_subtract = nb_isub;
  nb->nb_inplace_multiply = nb_imul;
  nb->nb_inplace_true_divide = nb_idiv;
  nb->nb_negative = nb_neg;
  nb->nb_absolute = nb_abs;
  nb->nb_positive = nb_pos;
}

/* ---- module functions ---------------------------------------------------- */

static PyObject *fn_result_type(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *a, *b;
  if (!PyArg_ParseTuple(args, "OO:result_type", &a, &b)) return NULL;
  tensor_t *ta, *tb;
  const int r = operands(a, b, &ta, &tb);
  if (r <= 0) {
    if (r == 0) PyErr_SetString(PyExc_TypeError, "result_type(): arguments must be Tensors or Numbers");
    return NULL;
  }
  tensor_dtype_t d;
  const tensor_status_t st = tensor_result_type(&d, ta, tb);
  tensor_release(ta);
  tensor_release(tb);
  return st == TENSOR_OK ? Py_NewRef(ct_dtype_object(d)) : ct_raise(st);
}

/* _binary(op, a, b, out): a op b by TENSOR_OP_* code, for the package's methods
   and functions (ctensor/_tensor_methods.py): a new tensor when out is None, else
   computed into out by PyTorch's out= rules (tensor_binary_into; out may be a:
   in place). NotImplemented when an operand is neither a tensor nor a number. */
static PyObject *fn_binary(PyObject *module, PyObject *args) {
  (void)module;
  static const BinaryFn fns[] = {tensor_add, tensor_sub, tensor_mul, tensor_div, tensor_pow, tensor_maximum,
                                 tensor_minimum, tensor_eq, tensor_ne, tensor_lt, tensor_le, tensor_gt, tensor_ge};
  int op;
  PyObject *a, *b, *out;
  if (!PyArg_ParseTuple(args, "iOOO:_binary", &op, &a, &b, &out)) return NULL;
  if (op < 0 || op >= (int)(sizeof fns / sizeof *fns)) return PyErr_Format(PyExc_ValueError, "_binary(): no op %d", op);
  if (out != Py_None && !Ct_Tensor_Check(out))
    return PyErr_Format(PyExc_TypeError, "out must be a Tensor, not %.200s", Py_TYPE(out)->tp_name);
  return binary_to(a, b, fns[op], op, out == Py_None ? NULL : out);
}

static tensor_status_t unary_by_code(int op, const tensor_t *input, tensor_t *out, tensor_t **result) {
  return out ? tensor_unary_into(out, op, input) : tensor_unary(result, op, input);
}

/* _unary(op, input, out): the unary family by TENSOR_UOP_* code, for the
   package's generated methods and functions (ctensor/_unary.py): op(input) in
   a new tensor when out is None, else into out (out may be input: in place). */
static PyObject *fn_unary(PyObject *module, PyObject *args) {
  (void)module;
  int op;
  PyObject *input, *out;
  if (!PyArg_ParseTuple(args, "iO!O:_unary", &op, &Ct_TensorType, &input, &out)) return NULL;
  if (out != Py_None && !Ct_Tensor_Check(out)) {
    PyErr_Format(PyExc_TypeError, "out must be a Tensor or None, not %s", Py_TYPE(out)->tp_name);
    return NULL;
  }
  tensor_t *result = NULL;
  tensor_status_t st;
  CALL_NOGIL(large(SELF(input), NULL), st, unary_by_code(op, SELF(input), out == Py_None ? NULL : SELF(out), &result))
  if (st != TENSOR_OK) return ct_raise(st);
  return out == Py_None ? ct_tensor_wrap(result) : Py_NewRef(out);
}

/* _set_tensor_methods(dict): Python functions that join Tensor's methods (the
   package's generated ones; a name Tensor already has is refused). */
static PyObject *fn_set_tensor_methods(PyObject *module, PyObject *methods) {
  (void)module;
  if (!PyDict_Check(methods)) {
    PyErr_SetString(PyExc_TypeError, "_set_tensor_methods(): expected a dict");
    return NULL;
  }
  PyObject *name, *function;
  Py_ssize_t pos = 0;
  while (PyDict_Next(methods, &pos, &name, &function)) {
    if (PyDict_Contains(Ct_TensorType.tp_dict, name)) {
      PyErr_Format(PyExc_ValueError, "_set_tensor_methods(): Tensor.%S exists", name);
      return NULL;
    }
    if (PyDict_SetItem(Ct_TensorType.tp_dict, name, function) < 0) return NULL;
  }
  PyType_Modified(&Ct_TensorType);
  Py_RETURN_NONE;
}

static PyMethodDef math_functions[] = {
    {"_unary", fn_unary, METH_VARARGS, "_unary(op, input, out): the unary op of code op (TENSOR_UOP_*)."},
    {"_binary", fn_binary, METH_VARARGS, "_binary(op, a, b, out): the binary op of code op (TENSOR_OP_*)."},
    {"_set_tensor_methods", fn_set_tensor_methods, METH_O,
     "_set_tensor_methods(dict): adds Python functions to Tensor's methods (the package does, on import)."},
    {"result_type", fn_result_type, METH_VARARGS, "result_type(a, b): torch's promotion of tensors and numbers."},
    {NULL, NULL, 0, NULL},
};

int ct_math_register(PyObject *module) {
  return ct_add_functions(module, math_functions);
}
