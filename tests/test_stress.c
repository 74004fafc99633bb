/* Eight threads share tensors (run under TSan in build-tsan, ASan in build-asan):
   views made on one thread are released on another, handles travel through
   mailboxes, copies split over two threads run concurrently, DLPack imports are
   released elsewhere, and every release callback runs exactly once. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctensor.h"

#define THREADS 8
#define ROUNDS 300
#define SLOTS 16

#define CHECK(cond)                                                          \
  do {                                                                       \
    if (!(cond)) {                                                           \
      fprintf(stderr, "%s:%d: %s failed (%s)\n", __FILE__, __LINE__, #cond, \
              tensor_last_error());                                          \
      abort();                                                               \
    }                                                                        \
  } while (0)
#define OK(call) CHECK((call) == TENSOR_OK)

/* A mailbox per thread: others post handles, the owner releases them. */
struct mailbox {
  pthread_mutex_t lock;
  tensor_t *slot[SLOTS];
  int n;
};

static struct mailbox boxes[THREADS];
static tensor_t *shared_base;  /* [64, 64] float32, never written */
static tensor_t *big_src;      /* 4 MiB: copies from it use the pool */
static int released_buffers;   /* release callbacks, atomically counted */
static int wrapped_buffers;

static void count_release(void *ctx) {
  free(ctx);
  __atomic_fetch_add(&released_buffers, 1, __ATOMIC_SEQ_CST);
}

static void post(int to, tensor_t *t) {
  struct mailbox *b = &boxes[to];
  for (;;) {
    pthread_mutex_lock(&b->lock);
    if (b->n < SLOTS) {
      b->slot[b->n++] = t;
      pthread_mutex_unlock(&b->lock);
      return;
    }
    pthread_mutex_unlock(&b->lock);
    tensor_release(t); /* full: drop it here instead */
    return;
  }
}

static void drain(int me) {
  struct mailbox *b = &boxes[me];
  pthread_mutex_lock(&b->lock);
  int n = b->n;
  tensor_t *mine[SLOTS];
  memcpy(mine, b->slot, sizeof mine);
  b->n = 0;
  pthread_mutex_unlock(&b->lock);
  for (int i = 0; i < n; ++i) {
    /* A view from another thread: its elements must still read as the base's. */
    const float first = *(const float *)tensor_data(mine[i]);
    CHECK(first >= 0 && first < 64 * 64);
    tensor_release(mine[i]);
  }
}


static void *worker(void *arg) {
  const int me = (int)(intptr_t)arg;
  unsigned seed = 12345u + (unsigned)me;
  for (int round = 0; round < ROUNDS; ++round) {
    seed = seed * 1103515245u + 12345u;
    const int other = (int)(seed >> 8) % THREADS;

    /* views of the shared base, handed to another thread */
    tensor_t *v = NULL, *w = NULL;
    OK(tensor_transpose(&v, shared_base, 0, 1));
    OK(tensor_slice(&w, v, 0, (int64_t)(seed % 8), 64, 3));
    tensor_release(v);
    post(other, w);
    post(other, tensor_retain(shared_base));

    /* a wrapped buffer whose release callback runs on whichever thread drops it */
    float *buf = malloc(16 * sizeof *buf);
    CHECK(buf != NULL);
    for (int i = 0; i < 16; ++i) buf[i] = (float)i;
    tensor_t *wrapped = NULL;
    OK(tensor_from_buffer(&wrapped, buf, 16 * sizeof *buf, TENSOR_FLOAT32, -1, 0, 0, count_release, buf));
    __atomic_fetch_add(&wrapped_buffers, 1, __ATOMIC_SEQ_CST);
    post(other, wrapped);

    /* DLPack: export here, import, and let another thread release the import */
    DLManagedTensorVersioned *m = NULL;
    OK(tensor_to_dlpack(&m, shared_base, 0));
    tensor_t *imported = NULL;
    OK(tensor_from_dlpack(&imported, m));
    post(other, imported);

    /* a small copy and, now and then, a large one that uses the pool */
    tensor_t *c = NULL;
    OK(tensor_clone(&c, shared_base));
    CHECK(((float *)tensor_data(c))[65] == ((float *)tensor_data(shared_base))[65]);
    tensor_release(c);
    if (round % 50 == me % 50) {
      tensor_t *t = NULL, *d = NULL;
      OK(tensor_transpose(&t, big_src, 0, 1));
      OK(tensor_contiguous(&d, t));
      CHECK(((float *)tensor_data(d))[1] == ((float *)tensor_data(big_src))[1024]);
      tensor_release(d);
      tensor_release(t);
    }

    /* failures set this thread's message only */
    tensor_t *bad = NULL;
    CHECK(tensor_select(&bad, shared_base, 0, 1000 + me) == TENSOR_E_BOUNDS);
    char expected[16];
    snprintf(expected, sizeof expected, "%d", 1000 + me);
    CHECK(strstr(tensor_last_error(), expected) != NULL);

    drain(me);
  }
  return NULL;
}

int main(void) {
  OK(tensor_set_num_threads(2));
  const int64_t sizes[2] = {64, 64}, big[2] = {1024, 1024};
  OK(tensor_empty(&shared_base, 2, sizes, TENSOR_FLOAT32));
  for (int i = 0; i < 64 * 64; ++i) ((float *)tensor_data(shared_base))[i] = (float)i;
  OK(tensor_empty(&big_src, 2, big, TENSOR_FLOAT32));
  for (int i = 0; i < 1024 * 1024; ++i) ((float *)tensor_data(big_src))[i] = (float)i;
  for (int i = 0; i < THREADS; ++i) pthread_mutex_init(&boxes[i].lock, NULL);

  pthread_t th[THREADS];
  for (int i = 0; i < THREADS; ++i) CHECK(pthread_create(&th[i], NULL, worker, (void *)(intptr_t)i) == 0);
  for (int i = 0; i < THREADS; ++i) CHECK(pthread_join(th[i], NULL) == 0);
  for (int i = 0; i < THREADS; ++i) drain(i);

  CHECK(tensor_refcount(shared_base) == 1);
  CHECK(tensor_storage_refcount(tensor_storage(shared_base)) == 1);
  CHECK(__atomic_load_n(&released_buffers, __ATOMIC_SEQ_CST) == THREADS * ROUNDS);
  CHECK(__atomic_load_n(&wrapped_buffers, __ATOMIC_SEQ_CST) == THREADS * ROUNDS);
  tensor_release(big_src);
  tensor_release(shared_base);
  puts("stress: ok");
  return 0;
}
