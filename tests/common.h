/* Shared helpers for the Check suites: only the public header is used. */
#ifndef CTENSOR_TESTS_COMMON_H
#define CTENSOR_TESTS_COMMON_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ctensor.h"

/* Asserts a call returned TENSOR_OK, printing the library's message if not.
   The allocation-failure loop (fault/fault_loop.h) evaluates `call` once per
   run: its arguments must have no side effects. */
#define ck_ok(call)                                                                   \
  do {                                                                                \
    tensor_status_t ck_ok_status_ = (call);                                           \
    ck_assert_msg(ck_ok_status_ == TENSOR_OK, "%s returned %s: %s", #call,            \
                  tensor_status_name(ck_ok_status_), tensor_last_error());            \
  } while (0)

/* Asserts a call failed with `expected` and left a non-empty message. */
#define ck_status(call, expected)                                                     \
  do {                                                                                \
    tensor_status_t ck_st_ = (call);                                                  \
    ck_assert_msg(ck_st_ == (expected), "%s returned %s, expected %s (%s)", #call,    \
                  tensor_status_name(ck_st_), tensor_status_name(expected),           \
                  tensor_last_error());                                               \
    ck_assert_msg(tensor_last_error()[0] != '\0', "%s left no message", #call);       \
  } while (0)

/* Asserts the tensor's sizes and strides equal the given arrays. */
#define ck_layout(t, nd, expected_sizes, expected_strides)                            \
  do {                                                                                \
    ck_assert_int_eq(tensor_ndim(t), (nd));                                           \
    for (int64_t ck_i_ = 0; ck_i_ < (nd); ++ck_i_) {                                  \
      ck_assert_int_eq(tensor_sizes(t)[ck_i_], (expected_sizes)[ck_i_]);              \
      ck_assert_int_eq(tensor_strides(t)[ck_i_], (expected_strides)[ck_i_]);          \
    }                                                                                 \
  } while (0)

/* A reproducible pseudo-random sequence (xorshift64*) for property tests. */
static inline uint64_t *test_rng_state(void) {
  static uint64_t state = 1;
  return &state;
}
static inline void test_rng_seed(uint64_t seed) { *test_rng_state() = seed ? seed : 1; }
static inline uint64_t test_rng(void) {
  uint64_t *s = test_rng_state();
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ULL;
}

/* A legacy DLPack tensor of 1-d float32 `shape` on a CUDA device: its data
   address is never dereferenced, so element access must refuse it. */
static inline void fake_device_tensor(DLManagedTensor *m, int64_t *shape, void (*deleter)(DLManagedTensor *)) {
  memset(m, 0, sizeof *m);
  m->dl_tensor.data = (void *)(uintptr_t)0x1000;
  m->dl_tensor.device.device_type = kDLCUDA;
  m->dl_tensor.ndim = 1;
  m->dl_tensor.dtype.code = kDLFloat;
  m->dl_tensor.dtype.bits = 32;
  m->dl_tensor.dtype.lanes = 1;
  m->dl_tensor.shape = shape;
  m->deleter = deleter;
}

/* Runs one suite and returns the process exit status. */
static inline int run_suite(Suite *s) {
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#ifdef CTENSOR_FAULT_LOOP
#include "fault/fault_loop.h"
#endif

#endif
