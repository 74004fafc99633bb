/* A host runtime's view of ctensor's per-thread caches.
     embedder_host exit : the five-line host (create and release 100 tensors, then
                          exit; one failing call first); run under valgrind with every leak kind an error,
                          it must leave nothing behind, "still reachable" included.
     embedder_host call : tensor_thread_release_caches() gives the calling thread's
                          cached blocks back to the heap (the heap's in-use bytes
                          fall), and the thread may go on using the library. */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "ctensor.h"

static int make_and_release(int n) {
  const int64_t sizes[1] = {4};
  for (int i = 0; i < n; ++i) {
    tensor_t *t = NULL;
    if (tensor_zeros(&t, 1, sizes, TENSOR_FLOAT32) != TENSOR_OK) {
      fprintf(stderr, "zeros: %s\n", tensor_last_error());
      return 1;
    }
    tensor_release(t);
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc != 2) return 2;
  if (strcmp(argv[1], "exit") == 0) {
    const int64_t sizes[1] = {-1};
    tensor_t *t = NULL;
    /* A failing call: the main thread's message buffer must go too. */
    if (tensor_zeros(&t, 1, sizes, TENSOR_FLOAT32) != TENSOR_E_INVALID) return 1;
    return make_and_release(100);
  }
  if (strcmp(argv[1], "call") == 0) {
    if (make_and_release(100)) return 1;
    size_t before = mallinfo2().uordblks;
    tensor_thread_release_caches();
    size_t after = mallinfo2().uordblks;
    if (after >= before) {
      fprintf(stderr, "in-use heap bytes %zu before tensor_thread_release_caches, %zu after\n", before, after);
      return 1;
    }
    tensor_thread_release_caches(); /* nothing left: harmless */
    return make_and_release(100);   /* the caches fill again */
  }
  return 2;
}
