/* Read-only is carried by the storage: every view of a read-only storage is
   read-only, every write path refuses it, every copy is writable. */
#include "common.h"

#define SENTINEL ((tensor_t *)(uintptr_t)0x1)

static const float original[6] = {1, 2, 3, 4, 5, 6};

/* A read-only [2, 3] float32 tensor over a copy of `original` in *buf. */
static tensor_t *readonly_matrix(float *buf) {
  memcpy(buf, original, sizeof original);
  tensor_t *flat = NULL, *m = NULL;
  const int64_t sizes[2] = {2, 3};
  ck_ok(tensor_from_buffer(&flat, buf, sizeof original, TENSOR_FLOAT32, -1, 0, TENSOR_READONLY, NULL, NULL));
  ck_ok(tensor_view(&m, flat, 2, sizes));
  tensor_release(flat);
  return m;
}

static void assert_untouched(const float *buf) {
  ck_assert_int_eq(memcmp(buf, original, sizeof original), 0);
}

START_TEST(flag_reported_everywhere) {
  float buf[6];
  tensor_t *m = readonly_matrix(buf);
  ck_assert_int_eq(tensor_is_readonly(m), 1);
  ck_assert_int_eq(tensor_storage_is_readonly(tensor_storage(m)), 1);
  /* A tensor made directly on the storage is read-only too. */
  tensor_t *t = NULL;
  const int64_t three[1] = {3};
  ck_ok(tensor_from_storage(&t, tensor_storage(m), TENSOR_FLOAT32, 1, three, NULL, 3));
  ck_assert_int_eq(tensor_is_readonly(t), 1);
  tensor_release(t);
  tensor_release(m);
}
END_TEST

START_TEST(wrapped_readonly_storage) {
  const int32_t data[4] = {1, 2, 3, 4};
  tensor_storage_t *s = NULL;
  tensor_t *t = NULL;
  const int64_t sizes[1] = {4};
  ck_ok(tensor_storage_wrap(&s, (void *)data, sizeof data, TENSOR_READONLY, NULL, NULL));
  ck_ok(tensor_from_storage(&t, s, TENSOR_INT32, 1, sizes, NULL, 0));
  ck_assert_int_eq(tensor_is_readonly(t), 1);
  ck_status(tensor_fill(t, 9), TENSOR_E_READONLY);
  const int32_t nine = 9;
  ck_status(tensor_fill_element(t, &nine), TENSOR_E_READONLY);
  ck_assert_int_eq(data[0], 1);
  tensor_release(t);
  tensor_storage_release(s);
}
END_TEST

START_TEST(every_view_is_readonly) {
  float buf[6];
  tensor_t *m = readonly_matrix(buf);
  tensor_t *views[12] = {0};
  const int64_t s32[2] = {3, 2}, st32[2] = {1, 3}, six[1] = {6}, perm[2] = {1, 0}, s423[3] = {4, 2, 3};
  int n = 0;
  ck_ok(tensor_as_strided(&views[n], m, 2, s32, st32, 0));
  ++n;
  ck_ok(tensor_view(&views[n], m, 1, six));
  ++n;
  ck_ok(tensor_reshape(&views[n], m, 2, s32));
  ++n;
  ck_ok(tensor_transpose(&views[n], m, 0, 1));
  ++n;
  ck_ok(tensor_permute(&views[n], m, 2, perm));
  ++n;
  ck_ok(tensor_slice(&views[n], m, 1, TENSOR_SLICE_END, INT64_MIN, -1));
  ++n;
  ck_ok(tensor_select(&views[n], m, 0, 1));
  ++n;
  ck_ok(tensor_narrow(&views[n], m, 1, 1, 2));
  ++n;
  const int expanded = n; /* also overlapping: which of the two errors wins is not specified */
  ck_ok(tensor_expand(&views[n], m, 3, s423));
  ++n;
  ck_ok(tensor_unsqueeze(&views[n], m, 0));
  ++n;
  ck_ok(tensor_flatten(&views[n], m, 0, -1));
  ++n;
  ck_ok(tensor_view_dtype(&views[n], m, TENSOR_INT32));
  ++n;
  for (int i = 0; i < n; ++i) {
    ck_assert_msg(tensor_is_readonly(views[i]) == 1, "view %d is writable", i);
    ck_assert_ptr_eq(tensor_storage(views[i]), tensor_storage(m));
    if (i == expanded)
      ck_assert_int_ne(tensor_fill(views[i], -1), TENSOR_OK);
    else
      ck_status(tensor_fill(views[i], -1), TENSOR_E_READONLY);
  }
  assert_untouched(buf);
  for (int i = 0; i < n; ++i) tensor_release(views[i]);
  tensor_release(m);
}
END_TEST

START_TEST(copy_into_readonly_refused) {
  float buf[6];
  tensor_t *m = readonly_matrix(buf);
  tensor_t *src = NULL, *row = NULL, *other = NULL;
  const int64_t sizes[2] = {2, 3}, three[1] = {3};
  ck_ok(tensor_zeros(&src, 2, sizes, TENSOR_FLOAT32));
  ck_ok(tensor_zeros(&row, 1, three, TENSOR_FLOAT64));
  ck_status(tensor_copy(m, src), TENSOR_E_READONLY);
  ck_status(tensor_copy(m, row), TENSOR_E_READONLY); /* with broadcast and conversion */
  ck_status(tensor_copy(m, m), TENSOR_E_READONLY);   /* even onto itself */
  ck_status(tensor_fill(m, 0), TENSOR_E_READONLY);
  assert_untouched(buf);
  /* Reading from a read-only source is fine. */
  ck_ok(tensor_zeros(&other, 2, sizes, TENSOR_FLOAT64));
  ck_ok(tensor_copy(other, m));
  ck_assert(((double *)tensor_data(other))[5] == 6.0);
  tensor_release(other);
  tensor_release(row);
  tensor_release(src);
  tensor_release(m);
}
END_TEST

START_TEST(copies_are_writable) {
  float buf[6];
  tensor_t *m = readonly_matrix(buf);
  tensor_t *c = NULL;
  ck_ok(tensor_clone(&c, m));
  ck_assert_int_eq(tensor_is_readonly(c), 0);
  ck_assert_int_eq(memcmp(tensor_data(c), original, sizeof original), 0);
  ck_ok(tensor_fill(c, 7));
  ck_assert(((float *)tensor_data(c))[0] == 7.0f);
  tensor_release(c);

  ck_ok(tensor_to(&c, m, TENSOR_FLOAT32, TENSOR_COPY_ALWAYS));
  ck_assert_int_eq(tensor_is_readonly(c), 0);
  tensor_release(c);
  ck_ok(tensor_to(&c, m, TENSOR_INT64, TENSOR_COPY_IF_NEEDED));
  ck_assert_int_eq(tensor_is_readonly(c), 0);
  ck_assert_int_eq(((int64_t *)tensor_data(c))[4], 5);
  tensor_release(c);

  /* A non-contiguous read-only view materialises into a writable tensor. */
  tensor_t *tr = NULL;
  ck_ok(tensor_transpose(&tr, m, 0, 1));
  ck_ok(tensor_contiguous(&c, tr));
  ck_assert_int_eq(tensor_is_readonly(c), 0);
  ck_assert(((float *)tensor_data(c))[1] == 4.0f);
  tensor_release(c);
  tensor_release(tr);
  assert_untouched(buf);
  tensor_release(m);
}
END_TEST

START_TEST(shared_results_stay_readonly) {
  float buf[6];
  tensor_t *m = readonly_matrix(buf);
  tensor_t *c = NULL;
  /* Already contiguous: the same tensor with one more reference, still read-only. */
  ck_ok(tensor_contiguous(&c, m));
  ck_assert_ptr_eq(tensor_storage(c), tensor_storage(m));
  ck_assert_int_eq(tensor_is_readonly(c), 1);
  tensor_release(c);
  ck_ok(tensor_to(&c, m, TENSOR_FLOAT32, TENSOR_COPY_NEVER));
  ck_assert_ptr_eq(tensor_storage(c), tensor_storage(m));
  ck_assert_int_eq(tensor_is_readonly(c), 1);
  tensor_release(c);
  tensor_release(m);
}
END_TEST

START_TEST(writable_buffer_accepts_writes) {
  float buf[6] = {0};
  tensor_t *t = NULL, *src = NULL;
  ck_ok(tensor_from_buffer(&t, buf, sizeof buf, TENSOR_FLOAT32, -1, 0, 0, NULL, NULL));
  ck_assert_int_eq(tensor_is_readonly(t), 0);
  ck_ok(tensor_fill(t, 2.5));
  ck_assert(buf[5] == 2.5f);
  const int64_t six[1] = {6};
  ck_ok(tensor_from_data(&src, original, 1, six, TENSOR_FLOAT32));
  ck_ok(tensor_copy(t, src));
  ck_assert_int_eq(memcmp(buf, original, sizeof original), 0);
  tensor_release(src);
  tensor_release(t);
}
END_TEST

START_TEST(dlpack_keeps_readonly) {
  float buf[6];
  tensor_t *m = readonly_matrix(buf);
  DLManagedTensorVersioned *dl = NULL;
  DLManagedTensor *legacy = (DLManagedTensor *)(uintptr_t)0x1;
  ck_ok(tensor_to_dlpack(&dl, m, 0));
  ck_assert_uint_eq(dl->flags & DLPACK_FLAG_BITMASK_READ_ONLY, DLPACK_FLAG_BITMASK_READ_ONLY);
  /* The legacy format cannot say read-only, so it is refused. */
  ck_status(tensor_to_dlpack_legacy(&legacy, m), TENSOR_E_READONLY);
  ck_assert_ptr_null(legacy);
  /* Importing the read-only export gives a read-only tensor. */
  tensor_t *back = NULL;
  ck_ok(tensor_from_dlpack(&back, dl));
  ck_assert_int_eq(tensor_is_readonly(back), 1);
  ck_status(tensor_fill(back, 0), TENSOR_E_READONLY);
  assert_untouched(buf);
  tensor_release(back); /* runs dl's deleter, which drops its reference to m */
  tensor_release(m);
}
END_TEST

static Suite *readonly_suite(void) {
  Suite *s = suite_create("readonly");
  TCase *tc = tcase_create("readonly");
  tcase_add_test(tc, flag_reported_everywhere);
  tcase_add_test(tc, wrapped_readonly_storage);
  tcase_add_test(tc, every_view_is_readonly);
  tcase_add_test(tc, copy_into_readonly_refused);
  tcase_add_test(tc, copies_are_writable);
  tcase_add_test(tc, shared_results_stay_readonly);
  tcase_add_test(tc, writable_buffer_accepts_writes);
  tcase_add_test(tc, dlpack_keeps_readonly);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(readonly_suite()); }
