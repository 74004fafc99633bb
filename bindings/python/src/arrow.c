/* Arrow PyCapsules of a tensor's export ("arrow_schema", "arrow_array",
   "arrow_device_array"), whose destructors release what a consumer did not move
   out. The Arrow PyCapsule interface around them, and the import behind
   ctensor.from_arrow, are ctensor/_arrow.py. */
#include "ctensor_py.h"
#include "ctensor_arrow.h"

static void schema_capsule_free(PyObject *capsule) {
  struct ArrowSchema *s = PyCapsule_GetPointer(capsule, "arrow_schema");
  if (s && s->release) s->release(s);
  PyMem_Free(s);
}

static void array_capsule_free(PyObject *capsule) {
  struct ArrowArray *a = PyCapsule_GetPointer(capsule, "arrow_array");
  if (a && a->release) a->release(a);
  PyMem_Free(a);
}

static void device_capsule_free(PyObject *capsule) {
  struct ArrowDeviceArray *a = PyCapsule_GetPointer(capsule, "arrow_device_array");
  if (a && a->array.release) a->array.release(&a->array);
  PyMem_Free(a);
}

/* _arrow_export(tensor, device): (schema, array) capsules of tensor_to_arrow, or
   of tensor_to_arrow_device (an "arrow_device_array") when device is true. */
static PyObject *arrow_export(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *self;
  int device;
  if (!PyArg_ParseTuple(args, "O!p:_arrow_export", &Ct_TensorType, &self, &device)) return NULL;
  tensor_t *t = ((TensorObject *)self)->t;
  struct ArrowSchema *s = PyMem_Calloc(1, sizeof *s);
  struct ArrowDeviceArray *d = device ? PyMem_Calloc(1, sizeof *d) : NULL;
  struct ArrowArray *a = device ? (d ? &d->array : NULL) : PyMem_Calloc(1, sizeof *a);
  if (!s || !a) {
    PyMem_Free(s);
    PyMem_Free(device ? (void *)d : (void *)a);
    return PyErr_NoMemory();
  }
  tensor_status_t st;
  Py_BEGIN_ALLOW_THREADS
  st = device ? tensor_to_arrow_device(s, d, t, 0) : tensor_to_arrow(s, a, t, 0);
  Py_END_ALLOW_THREADS
  if (st != TENSOR_OK) {
    PyMem_Free(s);
    PyMem_Free(device ? (void *)d : (void *)a);
    return ct_raise(st);
  }
  PyObject *schema = PyCapsule_New(s, "arrow_schema", schema_capsule_free);
  if (!schema) {
    s->release(s);
    PyMem_Free(s);
  }
  PyObject *array = device ? PyCapsule_New(d, "arrow_device_array", device_capsule_free)
                           : PyCapsule_New(a, "arrow_array", array_capsule_free);
  if (!array) {
    a->release(a);
    PyMem_Free(device ? (void *)d : (void *)a);
  }
  PyObject *pair = schema && array ? PyTuple_Pack(2, schema, array) : NULL;
  Py_XDECREF(schema);
  Py_XDECREF(array);
  return pair;
}

static PyMethodDef arrow_functions[] = {
    {"_arrow_export", arrow_export, METH_VARARGS,
     "_arrow_export(tensor, device): (schema, array) Arrow PyCapsules of the tensor."},
    {NULL, NULL, 0, NULL},
};

int ct_arrow_register(PyObject *module) {
  return PyModule_AddFunctions(module, arrow_functions);
}
