/* Test hooks: a thread that has never run Python drops a tensor reference, so
   tests can check that a held buffer export is released correctly when the
   last reference goes away on a foreign thread without the GIL; and the switch
   between from_numpy's direct read of plain arrays and its buffer path. */
#include <pthread.h>
#include <unistd.h>

#include "ctensor_py.h"

typedef struct {
  tensor_t *t;
  int fd;
} Job;

static void *release_when_told(void *arg) {
  Job *job = arg;
  char byte;
  while (read(job->fd, &byte, 1) < 0) { /* blocks until the test writes one byte (EINTR: retry) */
  }
  tensor_release(job->t);
  free(job);
  return NULL;
}

/* _release_in_native_thread(t, fd): a detached pthread holds one more reference
   to t's handle and releases it once it has read one byte from fd. */
static PyObject *release_in_native_thread(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *obj;
  int fd;
  if (!PyArg_ParseTuple(args, "O!i:_release_in_native_thread", &Ct_TensorType, &obj, &fd)) return NULL;
  Job *job = malloc(sizeof *job);
  if (!job) return PyErr_NoMemory();
  job->t = tensor_retain(((TensorObject *)obj)->t);
  job->fd = fd;
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  const int rc = pthread_create(&thread, &attr, release_when_told, job);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    tensor_release(job->t);
    free(job);
    PyErr_SetString(PyExc_RuntimeError, "_release_in_native_thread: pthread_create failed");
    return NULL;
  }
  Py_RETURN_NONE;
}

/* _numpy_direct_read(enable=None): whether from_numpy reads plain ndarrays
   through NumPy's public accessors; False sends every array through the buffer
   path, True turns the direct read back on. */
static PyObject *numpy_direct_read(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *enable = Py_None;
  if (!PyArg_ParseTuple(args, "|O:_numpy_direct_read", &enable)) return NULL;
  const int request = enable == Py_None ? -1 : PyObject_IsTrue(enable);
  if (enable != Py_None && request < 0) return NULL;
  const int on = ct_numpy_direct_read(request);
  return on < 0 ? NULL : PyBool_FromLong(on);
}

static PyMethodDef testing_functions[] = {
    {"_release_in_native_thread", release_in_native_thread, METH_VARARGS,
     "Test hook: a non-Python thread drops a reference to the tensor once it reads a byte from fd."},
    {"_numpy_direct_read", numpy_direct_read, METH_VARARGS,
     "Test hook: whether from_numpy reads plain ndarrays directly; False: buffer path only, True: direct again."},
    {NULL, NULL, 0, NULL},
};

int ct_testing_register(PyObject *module) {
  return ct_add_functions(module, testing_functions);
}
