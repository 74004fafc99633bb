/* tensor_storage_*: allocation, wrapping, flags, refcounts and NULL-safety. */
#include "common.h"

/* Counts release callbacks; ctx points at one of these. */
typedef struct {
  int calls;
} release_count;

static void count_release(void *ctx) { ((release_count *)ctx)->calls++; }

/* A pointer no call ever returns, to see that failures write NULL into *out. */
#define SENTINEL_STORAGE ((tensor_storage_t *)(uintptr_t)0x1)

START_TEST(new_is_zero_filled_aligned_writable) {
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_new(&s, 1000));
  ck_assert_ptr_nonnull(s);
  unsigned char *p = tensor_storage_data(s);
  ck_assert_ptr_nonnull(p);
  ck_assert_uint_eq((uintptr_t)p % 64, 0);
  ck_assert_uint_eq(tensor_storage_nbytes(s), 1000);
  for (size_t i = 0; i < 1000; ++i) ck_assert_uint_eq(p[i], 0);
  ck_assert_int_eq(tensor_storage_is_readonly(s), 0);
  ck_assert_int_eq(tensor_storage_refcount(s), 1);
  memset(p, 0xab, 1000);
  ck_assert_uint_eq(p[999], 0xab);
  tensor_storage_release(s);
}
END_TEST

START_TEST(new_alignment_for_many_sizes) {
  static const size_t sizes[] = {1, 3, 63, 64, 65, 127, 4096, 4097, 100000};
  for (size_t i = 0; i < sizeof sizes / sizeof *sizes; ++i) {
    tensor_storage_t *s = NULL;
    ck_ok(tensor_storage_new(&s, sizes[i]));
    ck_assert_uint_eq((uintptr_t)tensor_storage_data(s) % 64, 0);
    ck_assert_uint_eq(tensor_storage_nbytes(s), sizes[i]);
    const unsigned char *p = tensor_storage_data(s);
    ck_assert_uint_eq(p[0], 0);
    ck_assert_uint_eq(p[sizes[i] - 1], 0);
    tensor_storage_release(s);
  }
}
END_TEST

START_TEST(new_zero_bytes) {
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_new(&s, 0));
  ck_assert_ptr_nonnull(s);
  ck_assert_uint_eq(tensor_storage_nbytes(s), 0);
  ck_assert_int_eq(tensor_storage_refcount(s), 1);
  ck_assert_int_eq(tensor_storage_is_readonly(s), 0);
  tensor_storage_release(s);
}
END_TEST

START_TEST(new_rejects_null_out) { ck_status(tensor_storage_new(NULL, 16), TENSOR_E_INVALID); }
END_TEST

START_TEST(new_too_large_is_nomem) {
  tensor_storage_t *s = SENTINEL_STORAGE;
  /* 4 EiB: no allocator can satisfy it (and valgrind does not call it fishy). */
  ck_status(tensor_storage_new(&s, (size_t)1 << 62), TENSOR_E_NOMEM);
  ck_assert_ptr_null(s);
  /* The message names the op and what was asked. */
  const char *prefix = "storage_new: out of memory: cannot allocate 4611686018427387904 bytes";
  ck_assert_msg(strncmp(tensor_last_error(), prefix, strlen(prefix)) == 0, "%s", tensor_last_error());
  /* A negative count converted to size_t says so. */
  ck_status(tensor_storage_new(&s, (size_t)-1), TENSOR_E_NOMEM);
  ck_assert_str_eq(tensor_last_error(),
                   "storage_new: out of memory: cannot allocate 18446744073709551615 (-1 as size_t) bytes");
}
END_TEST

START_TEST(wrap_borrows_memory) {
  double buf[8] = {0};
  release_count rc = {0};
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_wrap(&s, buf, sizeof buf, 0, count_release, &rc));
  ck_assert_ptr_eq(tensor_storage_data(s), buf);
  ck_assert_uint_eq(tensor_storage_nbytes(s), sizeof buf);
  ck_assert_int_eq(tensor_storage_is_readonly(s), 0);
  ck_assert_int_eq(tensor_storage_refcount(s), 1);
  ((double *)tensor_storage_data(s))[3] = 2.5;
  ck_assert(buf[3] == 2.5);
  ck_assert_int_eq(rc.calls, 0);
  tensor_storage_release(s);
  ck_assert_int_eq(rc.calls, 1);
}
END_TEST

START_TEST(wrap_readonly_flag) {
  char buf[4] = "abc";
  release_count rc = {0};
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_wrap(&s, buf, sizeof buf, TENSOR_READONLY, count_release, &rc));
  ck_assert_int_eq(tensor_storage_is_readonly(s), 1);
  ck_assert_ptr_eq(tensor_storage_data(s), buf);
  tensor_storage_release(s);
  ck_assert_int_eq(rc.calls, 1);
}
END_TEST

START_TEST(wrap_without_release_callback) {
  int buf[2] = {1, 2};
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_wrap(&s, buf, sizeof buf, 0, NULL, NULL));
  ck_assert_ptr_eq(tensor_storage_data(s), buf);
  tensor_storage_release(s);
  ck_assert_int_eq(buf[1], 2);
}
END_TEST

START_TEST(wrap_null_data_with_zero_bytes) {
  release_count rc = {0};
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_wrap(&s, NULL, 0, 0, count_release, &rc));
  ck_assert_uint_eq(tensor_storage_nbytes(s), 0);
  tensor_storage_release(s);
  ck_assert_int_eq(rc.calls, 1);
}
END_TEST

START_TEST(wrap_failures_never_call_release) {
  char buf[16];
  release_count rc = {0};
  tensor_storage_t *s = SENTINEL_STORAGE;
  ck_status(tensor_storage_wrap(&s, NULL, 16, 0, count_release, &rc), TENSOR_E_INVALID);
  ck_assert_ptr_null(s);
  s = SENTINEL_STORAGE;
  ck_status(tensor_storage_wrap(&s, buf, sizeof buf, 2, count_release, &rc), TENSOR_E_INVALID);
  ck_assert_ptr_null(s);
  s = SENTINEL_STORAGE;
  ck_status(tensor_storage_wrap(&s, buf, sizeof buf, 0x80000000u | TENSOR_READONLY, count_release, &rc),
            TENSOR_E_INVALID);
  ck_assert_ptr_null(s);
  ck_status(tensor_storage_wrap(NULL, buf, sizeof buf, 0, count_release, &rc), TENSOR_E_INVALID);
  ck_assert_int_eq(rc.calls, 0);
}
END_TEST

START_TEST(retain_release_counts) {
  release_count rc = {0};
  char buf[8];
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_wrap(&s, buf, sizeof buf, 0, count_release, &rc));
  ck_assert_ptr_eq(tensor_storage_retain(s), s);
  ck_assert_int_eq(tensor_storage_refcount(s), 2);
  ck_assert_ptr_eq(tensor_storage_retain(s), s);
  ck_assert_int_eq(tensor_storage_refcount(s), 3);
  tensor_storage_release(s);
  tensor_storage_release(s);
  ck_assert_int_eq(tensor_storage_refcount(s), 1);
  ck_assert_int_eq(rc.calls, 0);
  tensor_storage_release(s);
  ck_assert_int_eq(rc.calls, 1);
}
END_TEST

START_TEST(null_safety) {
  ck_assert_ptr_null(tensor_storage_retain(NULL));
  tensor_storage_release(NULL);
  ck_assert_int_eq(tensor_storage_refcount(NULL), 0);
  ck_assert_ptr_null(tensor_storage_data(NULL));
  ck_assert_uint_eq(tensor_storage_nbytes(NULL), 0);
  ck_assert_int_eq(tensor_storage_is_readonly(NULL), 0);
}
END_TEST

START_TEST(each_tensor_holds_one_reference) {
  release_count rc = {0};
  float buf[6] = {0};
  tensor_storage_t *s = NULL;
  tensor_t *a = NULL, *b = NULL;
  const int64_t sizes[1] = {6};
  ck_ok(tensor_storage_wrap(&s, buf, sizeof buf, 0, count_release, &rc));
  ck_ok(tensor_from_storage(&a, s, TENSOR_FLOAT32, 1, sizes, NULL, 0));
  ck_assert_int_eq(tensor_storage_refcount(s), 2);
  ck_ok(tensor_from_storage(&b, s, TENSOR_FLOAT32, 1, sizes, NULL, 0));
  ck_assert_int_eq(tensor_storage_refcount(s), 3);
  /* Retaining a tensor handle does not touch its storage's count. */
  tensor_retain(a);
  ck_assert_int_eq(tensor_storage_refcount(s), 3);
  ck_assert_int_eq(tensor_refcount(a), 2);
  tensor_release(a);
  /* tensor_storage borrows. */
  ck_assert_ptr_eq(tensor_storage(a), s);
  ck_assert_int_eq(tensor_storage_refcount(s), 3);
  tensor_release(a);
  ck_assert_int_eq(tensor_storage_refcount(s), 2);
  tensor_storage_release(s); /* b keeps the storage alive */
  ck_assert_int_eq(rc.calls, 0);
  ck_assert_int_eq(tensor_storage_refcount(tensor_storage(b)), 1);
  ck_assert_ptr_eq(tensor_data(b), buf);
  tensor_release(b);
  ck_assert_int_eq(rc.calls, 1);
}
END_TEST

START_TEST(failed_tensor_creation_keeps_storage_count) {
  tensor_storage_t *s = NULL;
  tensor_t *t = NULL;
  const int64_t sizes[1] = {5};
  ck_ok(tensor_storage_new(&s, 16));
  ck_status(tensor_from_storage(&t, s, TENSOR_FLOAT32, 1, sizes, NULL, 0), TENSOR_E_BOUNDS);
  ck_assert_ptr_null(t);
  ck_assert_int_eq(tensor_storage_refcount(s), 1);
  tensor_storage_release(s);
}
END_TEST

START_TEST(tensors_on_new_storage_see_its_bytes) {
  tensor_storage_t *s = NULL;
  tensor_t *t = NULL;
  const int64_t sizes[1] = {4};
  ck_ok(tensor_storage_new(&s, 4 * sizeof(int32_t)));
  ck_ok(tensor_from_storage(&t, s, TENSOR_INT32, 1, sizes, NULL, 0));
  ((int32_t *)tensor_storage_data(s))[2] = 42;
  ck_assert_int_eq(((int32_t *)tensor_data(t))[2], 42);
  ck_assert_int_eq(tensor_is_readonly(t), 0);
  tensor_release(t);
  tensor_storage_release(s);
}
END_TEST

static Suite *storage_suite(void) {
  Suite *s = suite_create("storage");
  TCase *tc = tcase_create("storage");
  tcase_add_test(tc, new_is_zero_filled_aligned_writable);
  tcase_add_test(tc, new_alignment_for_many_sizes);
  tcase_add_test(tc, new_zero_bytes);
  tcase_add_test(tc, new_rejects_null_out);
  tcase_add_test(tc, new_too_large_is_nomem);
  tcase_add_test(tc, wrap_borrows_memory);
  tcase_add_test(tc, wrap_readonly_flag);
  tcase_add_test(tc, wrap_without_release_callback);
  tcase_add_test(tc, wrap_null_data_with_zero_bytes);
  tcase_add_test(tc, wrap_failures_never_call_release);
  tcase_add_test(tc, retain_release_counts);
  tcase_add_test(tc, null_safety);
  tcase_add_test(tc, each_tensor_holds_one_reference);
  tcase_add_test(tc, failed_tensor_creation_keeps_storage_count);
  tcase_add_test(tc, tensors_on_new_storage_see_its_bytes);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(storage_suite()); }
