/* The Arrow PyCapsule interface: Tensor.__arrow_c_schema__/__arrow_c_array__/
   __arrow_c_device_array__ (capsules "arrow_schema", "arrow_array",
   "arrow_device_array" whose destructors release what was not moved out), and
   the capsule consumers behind ctensor.from_arrow (ctensor/_arrow.py), which
   also reads a one-chunk __arrow_c_stream__. */
#include "ctensor_py.h"
#include "ctensor_arrow.h"

/* The C Stream Interface struct, as the specification defines it. */
#ifndef ARROW_C_STREAM_INTERFACE
#define ARROW_C_STREAM_INTERFACE
struct ArrowArrayStream {
  int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
  int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
  const char *(*get_last_error)(struct ArrowArrayStream *);
  void (*release)(struct ArrowArrayStream *);
  void *private_data;
};
#endif

static void schema_capsule_free(PyObject *capsule) {
  struct ArrowSchema *s = PyCapsule_GetPointer(capsule, "arrow_schema");
  if (!s) return;
  if (s->release) s->release(s);
  PyMem_Free(s);
}

static void array_capsule_free(PyObject *capsule) {
  struct ArrowArray *a = PyCapsule_GetPointer(capsule, "arrow_array");
  if (!a) return;
  if (a->release) a->release(a);
  PyMem_Free(a);
}

static void device_capsule_free(PyObject *capsule) {
  struct ArrowDeviceArray *a = PyCapsule_GetPointer(capsule, "arrow_device_array");
  if (!a) return;
  if (a->array.release) a->array.release(&a->array);
  PyMem_Free(a);
}

/* The producer ignores requested_schema (the Arrow PyCapsule interface lets a
   producer that cannot cast give its own type); only None or a schema capsule are accepted. */
static int check_requested(PyObject *requested) {
  if (requested == NULL || requested == Py_None || PyCapsule_IsValid(requested, "arrow_schema")) return 0;
  PyErr_SetString(PyExc_TypeError, "requested_schema must be None or an 'arrow_schema' PyCapsule");
  return -1;
}

/* Exports self into fresh structs wrapped in capsules; `device` picks the device struct. */
static PyObject *export_pair(PyObject *self, int device, int want_array) {
  tensor_t *t = ((TensorObject *)self)->t;
  struct ArrowSchema *s = PyMem_Calloc(1, sizeof *s);
  void *a = device ? PyMem_Calloc(1, sizeof(struct ArrowDeviceArray)) : PyMem_Calloc(1, sizeof(struct ArrowArray));
  if (!s || !a) {
    PyMem_Free(s);
    PyMem_Free(a);
    return PyErr_NoMemory();
  }
  tensor_status_t st;
  Py_BEGIN_ALLOW_THREADS
  st = device ? tensor_to_arrow_device(s, a, t, 0) : tensor_to_arrow(s, a, t, 0);
  Py_END_ALLOW_THREADS
  if (st != TENSOR_OK) {
    PyMem_Free(s);
    PyMem_Free(a);
    return ct_raise(st);
  }
  PyObject *schema = PyCapsule_New(s, "arrow_schema", schema_capsule_free);
  if (!schema) {
    s->release(s);
    PyMem_Free(s);
  }
  PyObject *array = NULL;
  if (device) {
    array = PyCapsule_New(a, "arrow_device_array", device_capsule_free);
    if (!array) ((struct ArrowDeviceArray *)a)->array.release(&((struct ArrowDeviceArray *)a)->array);
  } else {
    array = PyCapsule_New(a, "arrow_array", array_capsule_free);
    if (!array) ((struct ArrowArray *)a)->release(a);
  }
  if (!array) PyMem_Free(a);
  if (!schema || !array) {
    Py_XDECREF(schema);
    Py_XDECREF(array);
    return NULL;
  }
  if (!want_array) {
    Py_DECREF(array); /* releases the array */
    return schema;
  }
  PyObject *pair = PyTuple_Pack(2, schema, array);
  Py_DECREF(schema);
  Py_DECREF(array);
  return pair;
}

static PyObject *tensor_arrow_c_schema(PyObject *self, PyObject *noargs) {
  (void)noargs;
  return export_pair(self, 0, 0);
}

static PyObject *tensor_arrow_c_array(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"requested_schema", NULL};
  PyObject *requested = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:__arrow_c_array__", kwlist, &requested)) return NULL;
  if (check_requested(requested) < 0) return NULL;
  return export_pair(self, 0, 1);
}

static PyObject *tensor_arrow_c_device_array(PyObject *self, PyObject *args, PyObject *kwargs) {
  PyObject *requested = Py_None;
  if (!PyArg_ParseTuple(args, "|O:__arrow_c_device_array__", &requested)) return NULL;
  if (kwargs) {
    PyObject *key, *value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(kwargs, &pos, &key, &value)) {
      if (PyUnicode_Check(key) && PyUnicode_CompareWithASCIIString(key, "requested_schema") == 0) {
        requested = value;
      } else if (value != Py_None) {
        PyErr_Format(PyExc_NotImplementedError, "__arrow_c_device_array__: keyword %R is not supported", key);
        return NULL;
      }
    }
  }
  if (check_requested(requested) < 0) return NULL;
  return export_pair(self, 1, 1);
}

static PyMethodDef arrow_tensor_methods[] = {
    {"__arrow_c_schema__", tensor_arrow_c_schema, METH_NOARGS,
     "The tensor's Arrow type as an 'arrow_schema' PyCapsule (Arrow PyCapsule interface)."},
    {"__arrow_c_array__", (PyCFunction)(void (*)(void))tensor_arrow_c_array, METH_VARARGS | METH_KEYWORDS,
     "(schema, array) PyCapsules of the tensor as an Arrow array: arrow.fixed_shape_tensor for ndim >= 2, "
     "a primitive array for 1-d. requested_schema is accepted and ignored (the tensor's own type is given)."},
    {"__arrow_c_device_array__", (PyCFunction)(void (*)(void))tensor_arrow_c_device_array,
     METH_VARARGS | METH_KEYWORDS, "(schema, device array) PyCapsules, as __arrow_c_array__ with the tensor's device."},
    {NULL, NULL, 0, NULL},
};

/* ---- import ------------------------------------------------------------- */

static PyObject *consume_pair(PyObject *schema_capsule, PyObject *array_capsule, int variable) {
  struct ArrowSchema *s = PyCapsule_GetPointer(schema_capsule, "arrow_schema");
  if (!s) return NULL;
  int device = PyCapsule_IsValid(array_capsule, "arrow_device_array");
  void *a = PyCapsule_GetPointer(array_capsule, device ? "arrow_device_array" : "arrow_array");
  if (!a) return NULL;
  if (variable) {
    if (device) {
      PyErr_SetString(PyExc_TypeError, "from_arrow_variable_shape: device arrays are not supported");
      return NULL;
    }
    tensor_t **rows = NULL;
    int64_t count = 0;
    tensor_status_t st = tensor_from_arrow_variable_shape(&rows, &count, s, a);
    if (st != TENSOR_OK) return ct_raise(st);
    PyObject *list = PyList_New(0);
    for (int64_t i = 0; i < count; i++) {
      PyObject *item = ct_tensor_wrap(tensor_retain(rows[i]));
      if (!item || !list || PyList_Append(list, item) < 0) {
        Py_XDECREF(item);
        Py_CLEAR(list);
        break;
      }
      Py_DECREF(item);
    }
    tensor_arrow_list_release(rows, count);
    return list;
  }
  tensor_t *t = NULL;
  tensor_status_t st = device ? tensor_from_arrow_device(&t, s, a) : tensor_from_arrow(&t, s, a);
  if (st != TENSOR_OK) return ct_raise(st);
  return ct_tensor_wrap(t);
}

static PyObject *arrow_from_capsules(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *schema, *array;
  int variable = 0;
  if (!PyArg_ParseTuple(args, "OO|p:_from_arrow_capsules", &schema, &array, &variable)) return NULL;
  return consume_pair(schema, array, variable);
}

/* The arrays of an 'arrow_array_stream' capsule: exactly one chunk is taken. */
static PyObject *arrow_from_stream(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *capsule;
  int variable = 0;
  if (!PyArg_ParseTuple(args, "O|p:_from_arrow_stream", &capsule, &variable)) return NULL;
  struct ArrowArrayStream *stream = PyCapsule_GetPointer(capsule, "arrow_array_stream");
  if (!stream) return NULL;
  if (!stream->release) {
    PyErr_SetString(PyExc_ValueError, "from_arrow: the stream was already consumed");
    return NULL;
  }
  struct ArrowSchema *s = PyMem_Calloc(1, sizeof *s);
  struct ArrowArray *first = PyMem_Calloc(1, sizeof *first);
  struct ArrowArray second;
  memset(&second, 0, sizeof second);
  PyObject *result = NULL, *sc = NULL, *ac = NULL;
  if (!s || !first) {
    PyErr_NoMemory();
    goto done;
  }
  int rc = stream->get_schema(stream, s);
  if (rc == 0) rc = stream->get_next(stream, first);
  if (rc == 0 && first->release) rc = stream->get_next(stream, &second);
  if (rc != 0) {
    const char *why = stream->get_last_error ? stream->get_last_error(stream) : NULL;
    PyErr_Format(PyExc_ValueError, "from_arrow: the stream failed (errno %d): %s", rc, why ? why : "no message");
    goto done;
  }
  if (!first->release) {
    PyErr_SetString(PyExc_ValueError, "from_arrow: the stream has no chunks");
    goto done;
  }
  if (second.release) {
    PyErr_SetString(PyExc_ValueError,
                    "from_arrow: the stream has more than one chunk; combine the chunks first (e.g. combine_chunks())");
    goto done;
  }
  sc = PyCapsule_New(s, "arrow_schema", schema_capsule_free);
  if (!sc) goto done;
  s = NULL;
  ac = PyCapsule_New(first, "arrow_array", array_capsule_free);
  if (!ac) goto done;
  first = NULL;
  result = consume_pair(sc, ac, variable);
done:
  if (second.release) second.release(&second);
  if (first && first->release) first->release(first);
  if (s && s->release) s->release(s);
  PyMem_Free(first);
  PyMem_Free(s);
  Py_XDECREF(sc);
  Py_XDECREF(ac);
  return result;
}

PyMethodDef ct_arrow_methods[] = {
    {"_from_arrow_capsules", arrow_from_capsules, METH_VARARGS,
     "_from_arrow_capsules(schema, array, variable_shape=False): a tensor (or a list of tensors) from Arrow PyCapsules."},
    {"_from_arrow_stream", arrow_from_stream, METH_VARARGS,
     "_from_arrow_stream(stream, variable_shape=False): as _from_arrow_capsules for a one-chunk stream capsule."},
    {NULL, NULL, 0, NULL},
};

int ct_arrow_init(PyObject *module) {
  (void)module;
  return ct_tensor_add_methods(arrow_tensor_methods);
}
