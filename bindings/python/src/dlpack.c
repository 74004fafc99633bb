/* DLPack capsules (the rest of DLPack is ctensor/_dlpack.py): "dltensor" for
   pre-1.0 consumers, "dltensor_versioned" for DLPack 1.x. A consumer renames the
   capsule to "used_..." when it takes the managed tensor over; the capsule's
   destructor calls the deleter only if nobody did. */
#include "ctensor_py.h"

static const char LEGACY[] = "dltensor", VERSIONED[] = "dltensor_versioned";
static const char USED_LEGACY[] = "used_dltensor", USED_VERSIONED[] = "used_dltensor_versioned";

static void legacy_destructor(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, LEGACY)) return; /* consumed: the consumer owns it */
  DLManagedTensor *m = PyCapsule_GetPointer(capsule, LEGACY);
  if (m->deleter) m->deleter(m);
}

static void versioned_destructor(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, VERSIONED)) return;
  DLManagedTensorVersioned *m = PyCapsule_GetPointer(capsule, VERSIONED);
  if (m->deleter) m->deleter(m);
}

/* _dlpack_capsule(address, versioned, copied): the capsule owning a managed
   tensor made by tensor_to_dlpack (versioned) or tensor_to_dlpack_legacy. */
static PyObject *dlpack_capsule(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *address;
  int versioned, copied;
  if (!PyArg_ParseTuple(args, "Opp:_dlpack_capsule", &address, &versioned, &copied)) return NULL;
  void *m = PyLong_AsVoidPtr(address);
  if (!m) return NULL;
  PyObject *capsule;
  if (versioned) {
    DLManagedTensorVersioned *v = m;
    if (copied) v->flags |= DLPACK_FLAG_BITMASK_IS_COPIED;
    if (!(capsule = PyCapsule_New(v, VERSIONED, versioned_destructor))) v->deleter(v);
  } else {
    DLManagedTensor *l = m;
    if (!(capsule = PyCapsule_New(l, LEGACY, legacy_destructor))) l->deleter(l);
  }
  return capsule;
}

/* _from_dlpack_capsule(capsule): a tensor taking the capsule's managed tensor
   over (renaming the capsule); on failure the capsule keeps it. */
static PyObject *from_dlpack_capsule(PyObject *module, PyObject *capsule) {
  (void)module;
  tensor_t *t = NULL;
  tensor_status_t st;
  if (!PyCapsule_CheckExact(capsule)) {
    return PyErr_Format(PyExc_RuntimeError, /* torch hands it to its capsule reader, which raises this */
                        "from_dlpack(): expected an object with __dlpack__ or a DLPack capsule, got %.200s",
                        Py_TYPE(capsule)->tp_name);
  } else if (PyCapsule_IsValid(capsule, VERSIONED)) {
    st = tensor_from_dlpack(&t, PyCapsule_GetPointer(capsule, VERSIONED));
    if (st == TENSOR_OK && PyCapsule_SetName(capsule, USED_VERSIONED) < 0) return NULL; /* cannot fail */
  } else if (PyCapsule_IsValid(capsule, LEGACY)) {
    st = tensor_from_dlpack_legacy(&t, PyCapsule_GetPointer(capsule, LEGACY));
    if (st == TENSOR_OK && PyCapsule_SetName(capsule, USED_LEGACY) < 0) return NULL;
  } else {
    const char *name = PyCapsule_GetName(capsule); /* NULL (with an error set) for a capsule of no name */
    PyErr_Clear();
    if (name && (strcmp(name, USED_VERSIONED) == 0 || strcmp(name, USED_LEGACY) == 0))
      return PyErr_Format(PyExc_RuntimeError,
                          "from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed "
                          "only once, so you might have already constructed a tensor from it once.");
    return PyErr_Format(PyExc_RuntimeError,
                        "from_dlpack(): a capsule named %s%.100s%s is not a DLPack capsule (expected \"%s\" or \"%s\")",
                        name ? "\"" : "", name ? name : "(none)", name ? "\"" : "", LEGACY, VERSIONED);
  }
  return st == TENSOR_OK ? ct_tensor_wrap(t) : ct_raise(st);
}

static PyMethodDef dlpack_functions[] = {
    {"_dlpack_capsule", dlpack_capsule, METH_VARARGS, "_dlpack_capsule(address, versioned, copied): a DLPack capsule."},
    {"_from_dlpack_capsule", from_dlpack_capsule, METH_O, "_from_dlpack_capsule(capsule): consumes a DLPack capsule."},
    {NULL, NULL, 0, NULL},
};

int ct_dlpack_register(PyObject *module) {
  return PyModule_AddFunctions(module, dlpack_functions);
}
