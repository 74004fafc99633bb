/* The allocation-failure loop (SQLite's method) for the Check suites, compiled
   in with -DCTENSOR_FAULT_LOOP by the fault_injection build: every ck_ok and
   ck_status call runs again and again, the nth allocation it makes failing on
   the nth run (malloc family, operator new, mmap, thread set-up: failalloc.c),
   until a run makes no more allocations than that. A run that fails must
   return TENSOR_E_NOMEM with a message about memory, or the status the test
   expects (with its own message, or the library's out-of-memory fallback);
   a NOMEM run must leave nothing allocated (warm mode). A run that survives
   its failure (a fallback, e.g. a copy without its optional scratch ring)
   must give the real result and leave the thread's message as it was. Retrying makes the rest
   of the scenario a check that failures left earlier objects intact.
   CTENSOR_FAULT_THREAD=warm runs each scenario on the test's thread after a
   warm-up; =fresh runs it on a new thread, so each thread's first use of the
   library (its thread-local set-up) fails too, and checks for leaks when that
   thread has ended. */
#ifndef CTENSOR_TESTS_FAULT_LOOP_H
#define CTENSOR_TESTS_FAULT_LOOP_H

#include <pthread.h>
#include <stdio.h>

#include "fault/failalloc.h"

static int fault_fresh_mode(void) {
  const char *mode = getenv("CTENSOR_FAULT_THREAD");
  return mode && strcmp(mode, "fresh") == 0;
}

/* The library's fallbacks when memory runs out around a message (ctensor.h,
   tensor_last_error): "op: out of memory while formatting the message", or the
   message's first 60 bytes and "..." when no buffer can be had to keep it. */
static int fault_is_fixed_text(const char *m) {
  static const char formatting[] = ": out of memory while formatting the message";
  const size_t n = strlen(m), k = sizeof formatting - 1;
  return (n > k && strcmp(m + n - k, formatting) == 0) || (n == 63 && strcmp(m + 60, "...") == 0);
}

static int fault_mentions_memory(const char *m) {
  /* the library's own words, or the system's (strerror(ENOMEM), e.g. a failed mmap) */
  return strstr(m, "out of memory") != NULL || strstr(m, "cannot allocate") != NULL ||
         strstr(m, "Cannot allocate memory") != NULL;
}

/* Allocations that failed runs are allowed to leave: none, except that fresh
   mode cannot tell a thread's lasting state from a leak until the thread ends. */
static void fault_check_nomem(const char *call, long n) {
  const char *m = tensor_last_error();
  ck_assert_msg(fault_mentions_memory(m) || fault_is_fixed_text(m),
                "%s with allocation %ld failing: TENSOR_E_NOMEM with message \"%s\"", call, n, m);
  if (!fault_fresh_mode()) {
    ck_assert_msg(failalloc_live_blocks() == 0 && failalloc_live_mapped_bytes() == 0,
                  "%s with allocation %ld failing: %ld blocks and %ld mapped bytes left behind", call, n,
                  failalloc_live_blocks(), failalloc_live_mapped_bytes());
  }
}

/* Warm mode, between runs: a long message no test call produces, so that a run
   that leaves the message stale is caught (and the thread's message buffer is
   already large enough not to grow inside a measured run). */
#define FAULT_STALE_MARK "-9223372036854775801"
static void fault_set_stale_message(void) {
  int64_t sizes[64];
  for (int i = 0; i < 64; ++i) sizes[i] = INT64_MIN + 7;
  tensor_t *t = NULL;
  if (tensor_empty(&t, 64, sizes, TENSOR_UINT8) != TENSOR_E_INVALID || !strstr(tensor_last_error(), FAULT_STALE_MARK))
    abort();
}

/* Measured calls and the runs with an injected failure (CTENSOR_FAULT_STATS=1 prints them). */
static long fault_calls, fault_failed_runs;

/* After run n of `call` (expected: TENSOR_OK, or the status ck_status wants;
   `before`: the thread's message before the run): 1 to run again with the next
   allocation failing, 0 when done. */
static int fault_next(tensor_status_t st, tensor_status_t expected, long n, const char *call, const char *before,
                      char *seen_message, size_t seen_size) {
  if (!failalloc_fired()) {
    ++fault_calls;
    return 0; /* a run with no failure: the real result */
  }
  ++fault_failed_runs;
  if (st == TENSOR_OK && expected == TENSOR_OK) {
    /* survived through a fallback; only failing calls set the message */
    ck_assert_msg(strcmp(before, tensor_last_error()) == 0,
                  "%s with allocation %ld failing: TENSOR_OK, but the message changed to \"%s\"", call, n,
                  tensor_last_error());
    ++fault_calls;
    return 0;
  }
  ck_assert_msg(!strstr(tensor_last_error(), FAULT_STALE_MARK),
                "%s with allocation %ld failing: %s with the previous call's message", call, n, tensor_status_name(st));
  if (st == TENSOR_E_NOMEM) {
    fault_check_nomem(call, n);
    return 1;
  }
  ck_assert_msg(st == expected, "%s with allocation %ld failing: %s, expected %s or TENSOR_E_NOMEM", call, n,
                tensor_status_name(st), tensor_status_name(expected));
  const char *m = tensor_last_error();
  ck_assert_msg(m[0] != '\0', "%s with allocation %ld failing: no message", call, n);
  if (!fault_is_fixed_text(m)) {
    if (seen_message[0] == '\0')
      snprintf(seen_message, seen_size, "%s", m);
    else
      ck_assert_msg(strcmp(seen_message, m) == 0, "%s with allocation %ld failing: message \"%s\", else \"%s\"",
                    call, n, m, seen_message);
  }
  return 1;
}

#define FAULT_LOOP(call, expected, status_var)                                              \
  char fault_seen_[4096] = "", fault_before_[4096];                                         \
  for (long fault_n_ = 1;; ++fault_n_) {                                                    \
    ck_assert_msg(fault_n_ < 100000, "%s never stops allocating", #call);                  \
    if (!fault_fresh_mode() && fault_n_ > 1) fault_set_stale_message();                     \
    snprintf(fault_before_, sizeof fault_before_, "%s", tensor_last_error());               \
    if (fault_fresh_mode())                                                                 \
      failalloc_arm_more(fault_n_);                                                         \
    else                                                                                    \
      failalloc_arm(fault_n_);                                                              \
    status_var = (call);                                                                    \
    failalloc_disarm();                                                                     \
    if (!fault_next(status_var, (expected), fault_n_, #call, fault_before_, fault_seen_, sizeof fault_seen_)) \
      break;                                                                                \
  }                                                                                         \
  if (fault_seen_[0] != '\0' && status_var != TENSOR_OK)                                    \
    ck_assert_msg(strcmp(fault_seen_, tensor_last_error()) == 0,                            \
                  "%s: message \"%s\" under allocation failure, \"%s\" without", #call,   \
                  fault_seen_, tensor_last_error())

#undef ck_ok
#define ck_ok(call)                                                                        \
  do {                                                                                     \
    tensor_status_t ck_ok_status_;                                                         \
    FAULT_LOOP(call, TENSOR_OK, ck_ok_status_);                                            \
    ck_assert_msg(ck_ok_status_ == TENSOR_OK, "%s returned %s: %s", #call,                 \
                  tensor_status_name(ck_ok_status_), tensor_last_error());                 \
  } while (0)

#undef ck_status
#define ck_status(call, expected)                                                          \
  do {                                                                                     \
    tensor_status_t ck_st_;                                                                \
    FAULT_LOOP(call, expected, ck_st_);                                                    \
    ck_assert_msg(ck_st_ == (expected), "%s returned %s, expected %s (%s)", #call,         \
                  tensor_status_name(ck_st_), tensor_status_name(expected),                \
                  tensor_last_error());                                                    \
    ck_assert_msg(tensor_last_error()[0] != '\0', "%s left no message", #call);            \
  } while (0)

/* Lasting state the library makes once per process (the allocator's block
   cache, the thread pool and its workers: as many as the default thread count
   or the 3 threads the suites ask for, whichever is more, so that no measured
   call starts a thread), and a long message so this thread's message buffer
   does not grow inside a measured call. */
static void fault_warm_up(void) {
  const int32_t threads = tensor_get_num_threads();
  const int32_t pool = threads > 3 ? threads : 3;
  const int64_t big[1] = {(int64_t)pool << 19}; /* 2 MiB of float32 per thread: a copy uses them all */
  tensor_t *a = NULL, *b = NULL;
  if (tensor_empty(&a, 1, big, TENSOR_FLOAT32) != TENSOR_OK) abort();
  tensor_set_num_threads(pool);
  if (tensor_clone(&b, a) != TENSOR_OK) abort();
  tensor_set_num_threads(threads);
  tensor_release(b);
  tensor_release(a);
  fault_set_stale_message();
}

struct fault_scenario_args {
  void (*body)(int);
  int i;
};

static void *fault_run_body(void *arg) {
  struct fault_scenario_args *a = arg;
  a->body(a->i);
  return NULL;
}

static void fault_report(void) {
  if (getenv("CTENSOR_FAULT_STATS"))
    fprintf(stderr, "fault loop: %ld calls, %ld runs with a failing allocation\n", fault_calls, fault_failed_runs);
}

static void fault_scenario(void (*body)(int), int i) {
  fault_warm_up();
  if (!fault_fresh_mode()) {
    body(i);
    fault_report();
    return;
  }
  failalloc_forget();
  struct fault_scenario_args args = {body, i};
  pthread_t th;
  /* No Check call between create and join: each one allocates (Check records
     the line it passed), and the scenario thread may already be armed, so
     Check's own allocation could be the one that fails. */
  const int created = pthread_create(&th, NULL, fault_run_body, &args);
  const int joined = created == 0 ? pthread_join(th, NULL) : created;
  ck_assert_int_eq(created, 0);
  ck_assert_int_eq(joined, 0);
  ck_assert_msg(failalloc_live_blocks() == 0 && failalloc_live_mapped_bytes() == 0,
                "after the scenario's thread ended: %ld blocks and %ld mapped bytes made under allocation "
                "failure are still live",
                failalloc_live_blocks(), failalloc_live_mapped_bytes());
  fault_report();
}

#undef START_TEST
#define START_TEST(__testname)                                                                   \
  static void __testname##_body(int _i);                                                         \
  static void __testname##_fn(int _i) { fault_scenario(__testname##_body, _i); }                 \
  static const TTest __testname##_ttest = {"" #__testname, __testname##_fn, __FILE__, __LINE__}; \
  static const TTest *__testname = &__testname##_ttest;                                          \
  static void __testname##_body(int _i CK_ATTRIBUTE_UNUSED)

#endif
