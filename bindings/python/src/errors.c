/* Status codes to Python exceptions: the exception PyTorch raises for the same
   mistake, carrying ctensor's message (tensor_last_error). */
#include "ctensor_py.h"

static PyObject *exception_for(tensor_status_t status) {
  switch (status) {
    case TENSOR_E_NOMEM: return PyExc_MemoryError;
    case TENSOR_E_BOUNDS: return PyExc_IndexError;      /* t[5]: "index 5 is out of bounds" */
    case TENSOR_E_READONLY: return PyExc_ValueError;    /* as NumPy: "destination is read-only" */
    case TENSOR_E_COPY: return PyExc_ValueError;        /* torch.asarray(copy=False) */
    case TENSOR_E_FORMAT: return PyExc_ValueError;
    case TENSOR_E_IO: return PyExc_OSError;
    case TENSOR_E_UNSUPPORTED: return PyExc_NotImplementedError;
    /* INVALID, SHAPE, STRIDE, DTYPE, OVERFLOW, OVERLAP, DEVICE, INTERNAL: TORCH_CHECK's RuntimeError */
    default: return PyExc_RuntimeError;
  }
}

PyObject *ct_raise(tensor_status_t status) {
  if (status == TENSOR_E_NOMEM) return PyErr_NoMemory();
  const char *msg = tensor_last_error();
  PyErr_SetString(exception_for(status), msg && *msg ? msg : tensor_status_name(status));
  return NULL;
}

PyObject *ct_raise_as(tensor_status_t status, tensor_status_t which, PyObject *exc) {
  if (status != which) return ct_raise(status);
  PyErr_SetString(exc, tensor_last_error());
  return NULL;
}

int ct_check_options(PyObject *device, int requires_grad, const char *what) {
  if (requires_grad) {
    PyErr_Format(PyExc_NotImplementedError, "%s(): requires_grad=True is not supported: ctensor has no autograd",
                 what);
    return -1;
  }
  if (device == Py_None) return 0;
  PyObject *str = PyObject_Str(device); /* "cpu" or torch.device("cpu") */
  if (!str) return -1;
  const int cpu = PyUnicode_CompareWithASCIIString(str, "cpu") == 0;
  Py_DECREF(str);
  if (cpu) return 0;
  PyErr_Format(PyExc_RuntimeError, "%s(): ctensor only creates CPU tensors (device %R requested)", what, device);
  return -1;
}
