/* What the Python package (../ctensor/) defines and registers here on import
   (__init__.py): the classes ctensor.Size (_size.py) and ctensor.device
   (_device.py), which Tensor.shape and Tensor.device are made of, and the
   function behind repr(t) (_tensor_str.py). */
#include "ctensor_py.h"

static PyObject *size_type;   /* the registered classes, or NULL */
static PyObject *device_type;
static PyObject *cpu_device;  /* device('cpu'), made once: Tensor.device of almost every tensor */
static PyObject *repr_function;

static PyObject *set_size_type(PyObject *module, PyObject *type) {
  (void)module;
  if (!PyType_Check(type) || !PyType_IsSubtype((PyTypeObject *)type, &PyTuple_Type)) {
    PyErr_SetString(PyExc_TypeError, "_set_size_type(): expected a tuple subclass");
    return NULL;
  }
  Py_XSETREF(size_type, Py_NewRef(type));
  Py_RETURN_NONE;
}

PyObject *ct_size_new(int64_t ndim, const int64_t *sizes) {
  PyObject *tuple = PyTuple_New(ndim);
  if (!tuple) return NULL;
  for (int64_t i = 0; i < ndim; i++) {
    PyObject *v = PyLong_FromLongLong(sizes[i]);
    if (!v) {
      Py_DECREF(tuple);
      return NULL;
    }
    PyTuple_SET_ITEM(tuple, i, v);
  }
  if (!size_type) return tuple; /* _C used on its own: a plain tuple */
  PyObject *size = PyObject_CallOneArg(size_type, tuple);
  Py_DECREF(tuple);
  return size;
}

static PyObject *set_device_type(PyObject *module, PyObject *type) {
  (void)module;
  if (!PyType_Check(type)) {
    PyErr_SetString(PyExc_TypeError, "_set_device_type(): expected a class");
    return NULL;
  }
  PyObject *cpu = PyObject_CallFunction(type, "s", "cpu");
  if (!cpu) return NULL;
  Py_XSETREF(device_type, Py_NewRef(type));
  Py_XSETREF(cpu_device, cpu);
  Py_RETURN_NONE;
}

PyObject *ct_device_of(const tensor_t *t) {
  if (!device_type) {
    PyErr_SetString(PyExc_RuntimeError, "Tensor.device: ctensor.device is not registered yet (ctensor/__init__.py does)");
    return NULL;
  }
  int32_t type, id;
  tensor_device(t, &type, &id);
  if (ct_on_cpu(type)) return Py_NewRef(cpu_device);
  return PyObject_CallMethod(device_type, "_from_dlpack", "ii", (int)type, (int)id);
}

static PyObject *set_repr(PyObject *module, PyObject *function) {
  (void)module;
  if (!PyCallable_Check(function)) {
    PyErr_SetString(PyExc_TypeError, "_set_repr(): expected a callable");
    return NULL;
  }
  Py_XSETREF(repr_function, Py_NewRef(function));
  Py_RETURN_NONE;
}

static PyObject *tensor_repr(PyObject *self) {
  if (!repr_function) return PyBaseObject_Type.tp_repr(self); /* during the package's import */
  return PyObject_CallOneArg(repr_function, self);
}

void ct_registered_slots(PyTypeObject *type) {
  type->tp_repr = tensor_repr;
}

static PyMethodDef registered_functions[] = {
    {"_set_size_type", set_size_type, METH_O, "Registers ctensor.Size (the package does, on import)."},
    {"_set_device_type", set_device_type, METH_O, "Registers ctensor.device (the package does, on import)."},
    {"_set_repr", set_repr, METH_O, "Registers the function behind repr(t) (the package does, on import)."},
    {NULL, NULL, 0, NULL},
};

int ct_registered_register(PyObject *module) {
  return ct_add_functions(module, registered_functions);
}
