/* Test hook: lets a thread that has never run Python drop a tensor reference,
   so tests can check that a held buffer export is released correctly when the
   last reference goes away on a foreign thread without the GIL. */
#include <pthread.h>
#include <time.h>

#include "ctensor_py.h"

typedef struct {
  tensor_t *t;
  long delay_ms;
} Job;

static void *release_later(void *arg) {
  Job *job = arg;
  const struct timespec delay = {job->delay_ms / 1000, (job->delay_ms % 1000) * 1000000L};
  nanosleep(&delay, NULL);
  tensor_release(job->t);
  free(job);
  return NULL;
}

/* _release_in_native_thread(t, delay_ms): a detached pthread holds one more
   reference to t's handle and releases it after delay_ms. */
PyObject *ct_release_in_native_thread(PyObject *module, PyObject *args) {
  (void)module;
  PyObject *obj;
  long delay_ms;
  if (!PyArg_ParseTuple(args, "O!l:_release_in_native_thread", &Ct_TensorType, &obj, &delay_ms)) return NULL;
  Job *job = malloc(sizeof *job);
  if (!job) return PyErr_NoMemory();
  job->t = tensor_retain(((TensorObject *)obj)->t);
  job->delay_ms = delay_ms < 0 ? 0 : delay_ms;
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  const int rc = pthread_create(&thread, &attr, release_later, job);
  pthread_attr_destroy(&attr);
  if (rc != 0) {
    tensor_release(job->t);
    free(job);
    PyErr_SetString(PyExc_RuntimeError, "_release_in_native_thread: pthread_create failed");
    return NULL;
  }
  Py_RETURN_NONE;
}
