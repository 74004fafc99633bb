/* Lifetimes: release order never matters, the release callback runs exactly once
   on whichever thread drops the last reference, and counts are atomic. */
#include <pthread.h>

#include "common.h"

typedef struct {
  int calls;         /* updated atomically */
  pthread_t thread;  /* the thread that ran the callback */
} release_record;

static void record_release(void *ctx) {
  release_record *r = ctx;
  r->thread = pthread_self();
  __atomic_fetch_add(&r->calls, 1, __ATOMIC_SEQ_CST);
}

static int calls(release_record *r) { return __atomic_load_n(&r->calls, __ATOMIC_SEQ_CST); }

static tensor_t *wrap_floats(float *buf, size_t n, release_record *r) {
  tensor_t *t = NULL;
  ck_ok(tensor_from_buffer(&t, buf, n * sizeof *buf, TENSOR_FLOAT32, -1, 0, 0, record_release, r));
  return t;
}

START_TEST(storage_released_before_tensor) {
  float buf[4] = {0};
  release_record r = {0};
  tensor_storage_t *s = NULL;
  tensor_t *t = NULL;
  const int64_t sizes[1] = {4};
  ck_ok(tensor_storage_wrap(&s, buf, sizeof buf, 0, record_release, &r));
  ck_ok(tensor_from_storage(&t, s, TENSOR_FLOAT32, 1, sizes, NULL, 0));
  tensor_storage_release(s);
  ck_assert_int_eq(calls(&r), 0);
  ((float *)tensor_data(t))[3] = 7; /* still valid */
  ck_assert(buf[3] == 7);
  tensor_release(t);
  ck_assert_int_eq(calls(&r), 1);
}
END_TEST

START_TEST(tensor_released_before_storage) {
  float buf[4] = {0};
  release_record r = {0};
  tensor_storage_t *s = NULL;
  tensor_t *t = NULL;
  const int64_t sizes[1] = {4};
  ck_ok(tensor_storage_wrap(&s, buf, sizeof buf, 0, record_release, &r));
  ck_ok(tensor_from_storage(&t, s, TENSOR_FLOAT32, 1, sizes, NULL, 0));
  tensor_release(t);
  ck_assert_int_eq(calls(&r), 0);
  ck_assert_int_eq(tensor_storage_refcount(s), 1);
  tensor_storage_release(s);
  ck_assert_int_eq(calls(&r), 1);
}
END_TEST

START_TEST(borrowed_storage_retained_outlives_tensor) {
  float buf[4] = {1, 2, 3, 4};
  release_record r = {0};
  tensor_t *t = wrap_floats(buf, 4, &r);
  tensor_storage_t *s = tensor_storage_retain(tensor_storage(t));
  ck_assert_int_eq(tensor_storage_refcount(s), 2);
  tensor_release(t);
  ck_assert_int_eq(calls(&r), 0);
  ck_assert_ptr_eq(tensor_storage_data(s), buf);
  tensor_storage_release(s);
  ck_assert_int_eq(calls(&r), 1);
}
END_TEST

/* Many views on one storage, released in every order of a few permutations. */
START_TEST(many_views_any_order) {
  static const int orders[][4] = {{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 3, 0, 2}, {2, 0, 3, 1}};
  for (size_t o = 0; o < sizeof orders / sizeof *orders; ++o) {
    float buf[8] = {0};
    release_record r = {0};
    tensor_t *views[4];
    views[0] = wrap_floats(buf, 8, &r);
    const int64_t sizes[2] = {2, 4}, tstrides[2] = {1, 2}, tsizes[2] = {4, 2}, rev[1] = {-1},
                  eight[1] = {8};
    ck_ok(tensor_from_storage(&views[1], tensor_storage(views[0]), TENSOR_FLOAT32, 2, sizes, NULL, 0));
    ck_ok(tensor_from_storage(&views[2], tensor_storage(views[1]), TENSOR_FLOAT32, 2, tsizes, tstrides, 0));
    ck_ok(tensor_from_storage(&views[3], tensor_storage(views[2]), TENSOR_FLOAT32, 1, eight, rev, 7));
    ck_assert_int_eq(tensor_storage_refcount(tensor_storage(views[0])), 4);
    for (int k = 0; k < 4; ++k) {
      ck_assert_int_eq(calls(&r), 0);
      tensor_release(views[orders[o][k]]);
    }
    ck_assert_int_eq(calls(&r), 1);
  }
}
END_TEST

/* Views made by the view functions hold the storage, never their input tensor. */
START_TEST(view_functions_any_order) {
  static const int orders[][6] = {{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {2, 5, 0, 3, 1, 4}};
  for (size_t o = 0; o < sizeof orders / sizeof *orders; ++o) {
    float buf[12];
    for (int i = 0; i < 12; ++i) buf[i] = (float)i;
    release_record r = {0};
    tensor_t *v[6];
    const int64_t s34[2] = {3, 4}, s234[3] = {2, 3, 4};
    v[0] = wrap_floats(buf, 12, &r);
    ck_ok(tensor_view(&v[1], v[0], 2, s34));
    ck_ok(tensor_transpose(&v[2], v[1], 0, 1));
    ck_ok(tensor_slice(&v[3], v[2], 0, TENSOR_SLICE_END, INT64_MIN, -2));
    ck_ok(tensor_select(&v[4], v[1], 1, 2));
    ck_ok(tensor_expand(&v[5], v[1], 3, s234));
    for (int i = 1; i < 6; ++i) {
      ck_assert_ptr_eq(tensor_storage(v[i]), tensor_storage(v[0]));
      ck_assert_int_eq(tensor_refcount(v[i]), 1);
    }
    ck_assert_int_eq(tensor_refcount(v[0]), 1); /* views do not hold their input */
    ck_assert_int_eq(tensor_storage_refcount(tensor_storage(v[0])), 6);
    for (int k = 0; k < 6; ++k) {
      ck_assert_int_eq(calls(&r), 0);
      tensor_release(v[orders[o][k]]);
    }
    ck_assert_int_eq(calls(&r), 1);
  }
}
END_TEST

/* Copies own fresh storage: the borrowed buffer can go while the copy lives on. */
START_TEST(copies_outlive_the_source) {
  float buf[6] = {1, 2, 3, 4, 5, 6};
  release_record r = {0};
  tensor_t *t = wrap_floats(buf, 6, &r), *m = NULL, *tr = NULL, *c = NULL, *same = NULL;
  const int64_t s23[2] = {2, 3};
  ck_ok(tensor_view(&m, t, 2, s23));
  ck_ok(tensor_transpose(&tr, m, 0, 1));
  ck_ok(tensor_contiguous(&c, tr));
  ck_assert_ptr_ne(tensor_storage(c), tensor_storage(t));
  /* Contiguous input: the same tensor with one more reference. */
  ck_ok(tensor_contiguous(&same, m));
  ck_assert_ptr_eq(same, m);
  ck_assert_int_eq(tensor_refcount(m), 2);
  tensor_release(same);
  ck_assert_int_eq(tensor_refcount(m), 1);
  tensor_release(t);
  tensor_release(m);
  tensor_release(tr);
  ck_assert_int_eq(calls(&r), 1);
  ck_assert(((float *)tensor_data(c))[1] == 4.0f);
  tensor_release(c);
}
END_TEST

/* A DLPack export keeps the tensor (and its storage) alive until its deleter runs. */
static void *run_dlpack_deleter(void *arg) {
  DLManagedTensorVersioned *m = arg;
  m->deleter(m);
  return NULL;
}

START_TEST(dlpack_export_outlives_tensor) {
  float buf[4] = {0};
  release_record r = {0};
  tensor_t *t = wrap_floats(buf, 4, &r);
  DLManagedTensorVersioned *m = NULL;
  ck_ok(tensor_to_dlpack(&m, t, 0));
  tensor_release(t);
  ck_assert_int_eq(calls(&r), 0);
  ck_assert_ptr_eq(m->dl_tensor.data, buf);
  pthread_t th;
  ck_assert_int_eq(pthread_create(&th, NULL, run_dlpack_deleter, m), 0);
  ck_assert_int_eq(pthread_join(th, NULL), 0);
  ck_assert_int_eq(calls(&r), 1);
  ck_assert(pthread_equal(r.thread, th));
}
END_TEST

/* ---- another thread ----------------------------------------------------- */

static void *release_tensor_thread(void *arg) {
  tensor_release(arg);
  return NULL;
}

static void *release_storage_thread(void *arg) {
  tensor_storage_release(arg);
  return NULL;
}

START_TEST(last_view_released_on_another_thread) {
  float buf[16] = {0};
  release_record r = {0};
  tensor_t *t = wrap_floats(buf, 16, &r);
  tensor_t *view = NULL;
  const int64_t sizes[2] = {4, 4};
  ck_ok(tensor_from_storage(&view, tensor_storage(t), TENSOR_FLOAT32, 2, sizes, NULL, 0));
  tensor_release(t);
  pthread_t th;
  ck_assert_int_eq(pthread_create(&th, NULL, release_tensor_thread, view), 0);
  ck_assert_int_eq(pthread_join(th, NULL), 0);
  ck_assert_int_eq(calls(&r), 1);
  ck_assert(pthread_equal(r.thread, th));
  ck_assert(!pthread_equal(r.thread, pthread_self()));
}
END_TEST

START_TEST(last_storage_reference_released_on_another_thread) {
  char buf[8];
  release_record r = {0};
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_wrap(&s, buf, sizeof buf, TENSOR_READONLY, record_release, &r));
  pthread_t th;
  ck_assert_int_eq(pthread_create(&th, NULL, release_storage_thread, s), 0);
  ck_assert_int_eq(pthread_join(th, NULL), 0);
  ck_assert_int_eq(calls(&r), 1);
  ck_assert(pthread_equal(r.thread, th));
}
END_TEST

/* Tensors made on one thread are used and released on others. */
static void *make_tensor_thread(void *arg) {
  tensor_t **out = arg;
  const int64_t sizes[2] = {3, 3};
  if (tensor_zeros(out, 2, sizes, TENSOR_FLOAT64) != TENSOR_OK) *out = NULL;
  return NULL;
}

START_TEST(handles_cross_threads) {
  tensor_t *t = NULL;
  pthread_t th;
  ck_assert_int_eq(pthread_create(&th, NULL, make_tensor_thread, &t), 0);
  ck_assert_int_eq(pthread_join(th, NULL), 0);
  ck_assert_ptr_nonnull(t);
  ck_assert_int_eq(tensor_numel(t), 9);
  ck_assert(((double *)tensor_data(t))[8] == 0.0);
  tensor_release(t);
}
END_TEST

/* Tensor blocks are kept for reuse per thread: views made on one thread and
   released on another (more than such a cache holds), and a thread that ends
   with blocks kept (valgrind's leak check sees them returned). */
enum { N_VIEWS = 200 };

static void *make_views_thread(void *arg) {
  tensor_t **views = arg;
  for (int i = 0; i < N_VIEWS; ++i)
    if (tensor_transpose(&views[i + 1], views[0], 0, 1) != TENSOR_OK) views[i + 1] = NULL;
  return NULL;
}

static void *churn_views_thread(void *arg) {
  tensor_t *t = arg, *v[N_VIEWS];
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < N_VIEWS; ++i)
      if (tensor_slice(&v[i], t, 1, 0, 2, 1) != TENSOR_OK) return NULL;
    for (int i = 0; i < N_VIEWS; ++i) tensor_release(v[i]);
  }
  return t;
}

START_TEST(views_released_across_threads) {
  const int64_t sizes[2] = {3, 5};
  tensor_t *views[N_VIEWS + 1] = {NULL};
  ck_ok(tensor_zeros(&views[0], 2, sizes, TENSOR_FLOAT32));
  pthread_t th;
  ck_assert_int_eq(pthread_create(&th, NULL, make_views_thread, views), 0);
  ck_assert_int_eq(pthread_join(th, NULL), 0);
  for (int i = 1; i <= N_VIEWS; ++i) {
    ck_assert_ptr_nonnull(views[i]);
    ck_assert_int_eq(tensor_sizes(views[i])[0], 5);
    ck_assert_int_eq(tensor_strides(views[i])[0], 1);
  }
  ck_assert_int_eq(tensor_storage_refcount(tensor_storage(views[0])), N_VIEWS + 1);
  for (int i = 1; i <= N_VIEWS; ++i) tensor_release(views[i]);
  ck_assert_int_eq(tensor_storage_refcount(tensor_storage(views[0])), 1);
  void *done = NULL;
  ck_assert_int_eq(pthread_create(&th, NULL, churn_views_thread, views[0]), 0);
  ck_assert_int_eq(pthread_join(th, &done), 0);
  ck_assert_ptr_eq(done, views[0]);
  /* blocks released here and there are handed out again with fresh contents */
  tensor_t *v = NULL;
  ck_ok(tensor_slice(&v, views[0], 1, 1, 4, 2));
  ck_assert_int_eq(tensor_ndim(v), 2);
  ck_assert_int_eq(tensor_sizes(v)[1], 2);
  ck_assert_int_eq(tensor_strides(v)[1], 2);
  ck_assert_int_eq(tensor_refcount(v), 1);
  tensor_release(v);
  ck_assert_int_eq(tensor_refcount(views[0]), 1);
  ck_assert_int_eq(tensor_storage_refcount(tensor_storage(views[0])), 1);
  tensor_release(views[0]);
}
END_TEST

/* ---- concurrency -------------------------------------------------------- */

enum { N_THREADS = 8, N_ROUNDS = 5000 };

typedef struct {
  tensor_t *t;
  pthread_barrier_t *start;
  int ok;
} hammer_arg;

/* Retains and releases the tensor and its storage, and makes and drops views. */
static void *hammer(void *p) {
  hammer_arg *a = p;
  tensor_storage_t *s = tensor_storage(a->t);
  const int64_t sizes[1] = {4};
  a->ok = 1;
  pthread_barrier_wait(a->start);
  for (int i = 0; i < N_ROUNDS; ++i) {
    tensor_retain(a->t);
    tensor_storage_retain(s);
    tensor_t *v = NULL;
    if (i % 8 == 0) {
      if (tensor_from_storage(&v, s, TENSOR_FLOAT32, 1, sizes, NULL, 0) != TENSOR_OK) a->ok = 0;
    }
    tensor_storage_release(s);
    tensor_release(v);
    tensor_release(a->t);
  }
  return NULL;
}

START_TEST(concurrent_retain_release) {
  float buf[4] = {0};
  release_record r = {0};
  tensor_t *t = wrap_floats(buf, 4, &r);
  pthread_barrier_t start;
  pthread_barrier_init(&start, NULL, N_THREADS);
  pthread_t th[N_THREADS];
  hammer_arg args[N_THREADS];
  for (int i = 0; i < N_THREADS; ++i) {
    args[i].t = t;
    args[i].start = &start;
    ck_assert_int_eq(pthread_create(&th[i], NULL, hammer, &args[i]), 0);
  }
  for (int i = 0; i < N_THREADS; ++i) {
    ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    ck_assert(args[i].ok);
  }
  pthread_barrier_destroy(&start);
  ck_assert_int_eq(tensor_refcount(t), 1);
  ck_assert_int_eq(tensor_storage_refcount(tensor_storage(t)), 1);
  ck_assert_int_eq(calls(&r), 0);
  tensor_release(t);
  ck_assert_int_eq(calls(&r), 1);
}
END_TEST

/* Every thread holds a view; the main thread lets go first; exactly one thread's
   release runs the callback. */
typedef struct {
  tensor_t *view;
  pthread_barrier_t *start;
} drop_arg;

static void *drop_view(void *p) {
  drop_arg *a = p;
  pthread_barrier_wait(a->start);
  tensor_release(a->view);
  return NULL;
}

START_TEST(concurrent_last_release_runs_callback_once) {
  for (int round = 0; round < 50; ++round) {
    float buf[4] = {0};
    release_record r = {0};
    tensor_t *t = wrap_floats(buf, 4, &r);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, N_THREADS);
    pthread_t th[N_THREADS];
    drop_arg args[N_THREADS];
    const int64_t sizes[1] = {2};
    for (int i = 0; i < N_THREADS; ++i) {
      ck_ok(tensor_from_storage(&args[i].view, tensor_storage(t), TENSOR_FLOAT32, 1, sizes, NULL, i % 3));
      args[i].start = &start;
    }
    tensor_release(t);
    for (int i = 0; i < N_THREADS; ++i) ck_assert_int_eq(pthread_create(&th[i], NULL, drop_view, &args[i]), 0);
    int ran_on_worker = 0;
    for (int i = 0; i < N_THREADS; ++i) ck_assert_int_eq(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < N_THREADS; ++i) ran_on_worker |= pthread_equal(r.thread, th[i]) != 0;
    pthread_barrier_destroy(&start);
    ck_assert_int_eq(calls(&r), 1);
    ck_assert(ran_on_worker);
  }
}
END_TEST

static Suite *lifetimes_suite(void) {
  Suite *s = suite_create("lifetimes");
  TCase *tc = tcase_create("order");
  tcase_add_test(tc, storage_released_before_tensor);
  tcase_add_test(tc, tensor_released_before_storage);
  tcase_add_test(tc, borrowed_storage_retained_outlives_tensor);
  tcase_add_test(tc, many_views_any_order);
  tcase_add_test(tc, view_functions_any_order);
  tcase_add_test(tc, copies_outlive_the_source);
  suite_add_tcase(s, tc);
  tc = tcase_create("threads");
  tcase_set_timeout(tc, 120);
  tcase_add_test(tc, last_view_released_on_another_thread);
  tcase_add_test(tc, last_storage_reference_released_on_another_thread);
  tcase_add_test(tc, handles_cross_threads);
  tcase_add_test(tc, views_released_across_threads);
  tcase_add_test(tc, dlpack_export_outlives_tensor);
  tcase_add_test(tc, concurrent_retain_release);
  tcase_add_test(tc, concurrent_last_release_runs_callback_once);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(lifetimes_suite()); }
