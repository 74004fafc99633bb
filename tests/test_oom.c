/* Allocation failure at the places a host runtime hits first: a thread's first
   release and first failing call (thread-local state set up lazily), NULL `out`
   under memory pressure, and the messages of calls that fail while memory runs
   out. tests/fault/failalloc.c makes the nth allocation of the process fail.
   Under valgrind (the check suites' setup) these also prove nothing leaks. */
#include <pthread.h>
#include <stdio.h>

#include "common.h"
#include "fault/failalloc.h"

/* What the library gives instead of `clean`, the message of op's failure, when
   memory runs out: "op: out of memory while formatting the message" when it
   cannot be built, its first 60 bytes and "..." when it cannot be stored. Both
   name the op. */
static int is_fallback_text(const char *m, const char *op, const char *clean) {
  char formatting[128];
  snprintf(formatting, sizeof formatting, "%s: out of memory while formatting the message", op);
  if (strcmp(m, formatting) == 0) return 1;
  return strlen(m) == 63 && strcmp(m + 60, "...") == 0 && strncmp(m, clean, 60) == 0;
}

static int mentions_out_of_memory(const char *m) {
  return strstr(m, "out of memory") != NULL || strstr(m, "cannot allocate") != NULL;
}

/* A long message no call below produces, so a stale one is recognised (and the
   thread's message buffer is large enough that later messages need no new one). */
static void set_stale_message(void) {
  int64_t sizes[64];
  for (int i = 0; i < 64; ++i) sizes[i] = INT64_MIN + 12345;
  tensor_t *t = NULL;
  ck_status(tensor_empty(&t, 64, sizes, TENSOR_UINT8), TENSOR_E_INVALID);
  ck_assert_ptr_nonnull(strstr(tensor_last_error(), "-9223372036854763463"));
}

/* ---- a thread's first release, with the next allocation failing -------- */

struct many_keys {
  pthread_key_t keys[48];
  int n;
};

/* Takes pthread keys so that the library's own key (made on first use) is past
   the 32 a thread holds inline, and setting it on a new thread must allocate. */
static void take_many_keys(struct many_keys *k) {
  for (k->n = 0; k->n < 48; ++k->n)
    if (pthread_key_create(&k->keys[k->n], NULL) != 0) break;
}

static void give_keys_back(struct many_keys *k) {
  while (k->n > 0) pthread_key_delete(k->keys[--k->n]);
}

static void *first_release_fails_next_allocation(void *arg) {
  int *fired = arg;
  tensor_t *t = NULL;
  if (tensor_zeros(&t, 0, NULL, TENSOR_FLOAT32) != TENSOR_OK) return (void *)1;
  failalloc_arm(1);
  tensor_release(t);
  failalloc_disarm();
  *fired = failalloc_fired();
  return NULL;
}

START_TEST(first_release_on_a_thread_survives_allocation_failure) {
  struct many_keys keys;
  take_many_keys(&keys);
  for (int round = 0; round < 3; ++round) {
    int fired = -1;
    void *ret = (void *)2;
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, first_release_fails_next_allocation, &fired), 0);
    ck_assert_int_eq(pthread_join(th, &ret), 0);
    ck_assert_ptr_null(ret);
    ck_assert_int_ge(fired, 0);
  }
  give_keys_back(&keys);
}
END_TEST

/* ---- a thread's first failing call, failing at each allocation --------- */

struct first_failure {
  long fail_at;
  tensor_status_t status;
  int fired;
  char message[512];
};

static void *first_failing_call(void *arg) {
  struct first_failure *r = arg;
  const int64_t sizes[2] = {4, -77};
  tensor_t *t = NULL;
  failalloc_arm(r->fail_at);
  r->status = tensor_empty(&t, 2, sizes, TENSOR_INT8);
  failalloc_disarm();
  r->fired = failalloc_fired();
  snprintf(r->message, sizeof r->message, "%s", tensor_last_error());
  return NULL;
}

START_TEST(first_failing_call_on_a_thread_keeps_its_status_and_a_true_message) {
  struct many_keys keys;
  take_many_keys(&keys);
  struct first_failure clean = {0, 0, 0, ""};
  pthread_t th;
  ck_assert_int_eq(pthread_create(&th, NULL, first_failing_call, &clean), 0);
  ck_assert_int_eq(pthread_join(th, NULL), 0);
  ck_assert_int_eq(clean.status, TENSOR_E_INVALID);
  ck_assert_ptr_nonnull(strstr(clean.message, "-77"));
  int fired = 1;
  for (long n = 1; fired; ++n) {
    struct first_failure r = {n, 0, 0, ""};
    ck_assert_int_eq(pthread_create(&th, NULL, first_failing_call, &r), 0);
    ck_assert_int_eq(pthread_join(th, NULL), 0);
    fired = r.fired;
    /* An invalid call stays invalid when memory runs out; never NOMEM. */
    ck_assert_msg(r.status == TENSOR_E_INVALID, "failing allocation %ld: %s (%s)", n,
                  tensor_status_name(r.status), r.message);
    ck_assert_msg(strcmp(r.message, clean.message) == 0 || is_fallback_text(r.message, "empty", clean.message),
                  "failing allocation %ld: message \"%s\"", n, r.message);
    ck_assert_msg(n < 1000, "the call never stops allocating");
  }
  give_keys_back(&keys);
}
END_TEST

/* ---- out NULL under memory pressure ------------------------------------ */

START_TEST(null_out_under_memory_pressure) {
  tensor_t *t = NULL;
  const int64_t sizes[1] = {3};
  ck_ok(tensor_zeros(&t, 1, sizes, TENSOR_FLOAT32));
  for (int which = 0; which < 4; ++which) {
    int fired = 1;
    for (long n = 1; fired; ++n) {
      set_stale_message();
      failalloc_arm(n);
      tensor_status_t st;
      const char *name;
      switch (which) {
        case 0: st = tensor_zeros(NULL, 1, sizes, TENSOR_FLOAT32), name = "zeros"; break;
        case 1: st = tensor_view(NULL, t, 1, sizes), name = "view"; break;
        case 2: st = tensor_to_dlpack(NULL, t, 0), name = "to_dlpack"; break;
        default: st = tensor_to_dlpack_legacy(NULL, t), name = "to_dlpack_legacy"; break;
      }
      failalloc_disarm();
      fired = failalloc_fired();
      ck_assert_msg(st == TENSOR_E_INVALID, "%s, allocation %ld failing: %s", name, n, tensor_status_name(st));
      const char *m = tensor_last_error();
      char clean[64];
      snprintf(clean, sizeof clean, "%s: out is NULL", name);
      ck_assert_msg((strstr(m, name) && strstr(m, "out is NULL")) || is_fallback_text(m, name, clean),
                    "%s, allocation %ld failing: message \"%s\"", name, n, m);
    }
  }
  tensor_release(t);
}
END_TEST

/* ---- messages: never cut short, never stale, NOMEM only for real ------- */

START_TEST(invalid_calls_stay_invalid_with_their_whole_message) {
  int64_t sizes[64];
  for (int i = 0; i < 64; ++i) sizes[i] = 1000000 + i;
  sizes[63] = -5;
  tensor_t *t = NULL;
  ck_status(tensor_empty(&t, 64, sizes, TENSOR_FLOAT32), TENSOR_E_INVALID);
  char clean[4096];
  snprintf(clean, sizeof clean, "%s", tensor_last_error());
  ck_assert_ptr_nonnull(strstr(clean, "-5"));
  int fired = 1;
  for (long n = 1; fired; ++n) {
    set_stale_message();
    failalloc_arm(n);
    tensor_status_t st = tensor_empty(&t, 64, sizes, TENSOR_FLOAT32);
    failalloc_disarm();
    fired = failalloc_fired();
    ck_assert_msg(st == TENSOR_E_INVALID, "allocation %ld failing: %s", n, tensor_status_name(st));
    ck_assert_ptr_null(t);
    const char *m = tensor_last_error();
    ck_assert_msg(strcmp(m, clean) == 0 || is_fallback_text(m, "empty", clean), "allocation %ld failing: \"%s\"", n,
                  m);
  }
}
END_TEST

START_TEST(out_of_memory_gives_nomem_with_its_own_message) {
  const int64_t sizes[2] = {300, 7};
  tensor_t *t = NULL;
  /* A release keeps the tensor's and the storage's blocks in this thread's caches
     (not in sanitizer and fault-injection builds): filled first, they neither
     take nor give heap blocks in the loop, so live blocks count leaks only. */
  ck_ok(tensor_zeros(&t, 2, sizes, TENSOR_FLOAT64));
  tensor_release(t);
  int fired = 1;
  long n;
  for (n = 1; fired; ++n) {
    set_stale_message();
    failalloc_arm(n);
    tensor_status_t st = tensor_zeros(&t, 2, sizes, TENSOR_FLOAT64);
    failalloc_disarm();
    fired = failalloc_fired();
    if (!fired) {
      ck_assert_int_eq(st, TENSOR_OK);
      break;
    }
    ck_assert_msg(st == TENSOR_E_NOMEM, "allocation %ld failing: %s", n, tensor_status_name(st));
    ck_assert_ptr_null(t);
    ck_assert_int_eq(failalloc_live_blocks(), 0);
    const char *m = tensor_last_error();
    ck_assert_msg(mentions_out_of_memory(m), "allocation %ld failing: \"%s\"", n, m);
    ck_assert_msg(strncmp(m, "zeros: ", 7) == 0, "allocation %ld failing: \"%s\" does not name the op", n, m);
  }
  ck_assert_int_ge(n, 2); /* at least the storage and the tensor were allocated */
  tensor_release(t);
}
END_TEST

/* Large storages are mappings: a failing mmap is NOMEM too, and nothing stays mapped. */
START_TEST(failing_mapping_is_nomem) {
  const int64_t sizes[1] = {1 << 20};
  tensor_t *t = NULL;
  ck_ok(tensor_empty(&t, 1, sizes, TENSOR_FLOAT32)); /* the allocator's lasting state is made */
  tensor_release(t);
  int fired = 1;
  for (long n = 1; fired; ++n) {
    set_stale_message();
    failalloc_arm(n);
    tensor_status_t st = tensor_empty(&t, 1, sizes, TENSOR_FLOAT32);
    failalloc_disarm();
    fired = failalloc_fired();
    if (!fired) break;
    ck_assert_msg(st == TENSOR_E_NOMEM, "allocation %ld failing: %s", n, tensor_status_name(st));
    ck_assert_int_eq(failalloc_live_mapped_bytes(), 0);
    ck_assert_int_eq(failalloc_live_blocks(), 0);
  }
  ck_assert_ptr_nonnull(t);
  tensor_release(t);
}
END_TEST

int main(void) {
  Suite *s = suite_create("oom");
  TCase *tc = tcase_create("oom");
  tcase_add_test(tc, first_release_on_a_thread_survives_allocation_failure);
  tcase_add_test(tc, first_failing_call_on_a_thread_keeps_its_status_and_a_true_message);
  tcase_add_test(tc, null_out_under_memory_pressure);
  tcase_add_test(tc, invalid_calls_stay_invalid_with_their_whole_message);
  tcase_add_test(tc, out_of_memory_gives_nomem_with_its_own_message);
  tcase_add_test(tc, failing_mapping_is_nomem);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
