/* The splits' snprintf-style results (count query, capacity too small, exact
   fill, NULLs on failure) and the single views of the family on fixed cases
   (their random differential test against PyTorch is in the Python binding's
   tests/test_view_family.py). */
#include "common.h"

START_TEST(split_count_query_and_fill) {
  const int64_t sizes[2] = {7, 3};
  tensor_t *t = NULL, *out[4] = {(tensor_t *)1, (tensor_t *)1, (tensor_t *)1, (tensor_t *)1};
  ck_ok(tensor_empty(&t, 2, sizes, TENSOR_INT32));
  int64_t count = -1;
  ck_ok(tensor_split(NULL, 0, &count, t, 3, 0)); /* the count alone: 3 + 3 + 1 */
  ck_assert_int_eq(count, 3);
  ck_status(tensor_split(out, 2, &count, t, 3, 0), TENSOR_E_INVALID);
  ck_assert_int_eq(count, 3); /* still says how many are needed */
  ck_assert_ptr_null(out[0]);
  ck_assert_ptr_null(out[1]);
  ck_ok(tensor_split(out, 4, &count, t, 3, 0));
  ck_assert_int_eq(count, 3);
  ck_assert_int_eq(tensor_sizes(out[2])[0], 1);
  ck_assert_int_eq(tensor_storage_offset(out[2]), 18);
  ck_assert_ptr_null(out[3]);
  for (int i = 0; i < 3; ++i) tensor_release(out[i]);
  ck_status(tensor_split(out, 4, NULL, t, 3, 0), TENSOR_E_INVALID);
  ck_status(tensor_split(NULL, 4, &count, t, 3, 0), TENSOR_E_INVALID);
  ck_status(tensor_split(out, -1, &count, t, 3, 0), TENSOR_E_INVALID);
  ck_status(tensor_split(out, 4, &count, t, 0, 0), TENSOR_E_INVALID); /* 0 only for an empty dim */
  ck_assert_ptr_null(out[0]);
  tensor_release(t);
}
END_TEST

START_TEST(split_variants) {
  const int64_t sizes[1] = {5};
  tensor_t *t = NULL, *out[6] = {NULL};
  int64_t count = 0;
  ck_ok(tensor_empty(&t, 1, sizes, TENSOR_FLOAT64));
  const int64_t lengths[3] = {2, 0, 3};
  ck_ok(tensor_split_with_sizes(out, 6, &count, t, 3, lengths, 0));
  ck_assert_int_eq(count, 3);
  ck_assert_int_eq(tensor_storage_offset(out[2]), 2);
  for (int i = 0; i < 3; ++i) tensor_release(out[i]);
  const int64_t wrong[2] = {2, 2};
  ck_status(tensor_split_with_sizes(out, 6, &count, t, 2, wrong, 0), TENSOR_E_SHAPE);
  ck_ok(tensor_chunk(out, 6, &count, t, 4, 0)); /* ceil(5 / 4) = 2: pieces 2, 2, 1 */
  ck_assert_int_eq(count, 3);
  for (int i = 0; i < 3; ++i) tensor_release(out[i]);
  ck_ok(tensor_tensor_split(out, 6, &count, t, 4, 0)); /* 2, 1, 1, 1 */
  ck_assert_int_eq(count, 4);
  ck_assert_int_eq(tensor_sizes(out[0])[0], 2);
  ck_assert_int_eq(tensor_sizes(out[3])[0], 1);
  for (int i = 0; i < 4; ++i) tensor_release(out[i]);
  const int64_t cuts[3] = {1, -1, 9};
  ck_ok(tensor_tensor_split_indices(out, 6, &count, t, 3, cuts, 0)); /* [0,1) [1,4) [4,5) [5,5) */
  ck_assert_int_eq(count, 4);
  ck_assert_int_eq(tensor_sizes(out[1])[0], 3);
  ck_assert_int_eq(tensor_sizes(out[3])[0], 0);
  for (int i = 0; i < 4; ++i) tensor_release(out[i]);
  tensor_t *scalar = NULL;
  ck_ok(tensor_empty(&scalar, 0, NULL, TENSOR_FLOAT64));
  ck_status(tensor_chunk(out, 6, &count, scalar, 2, 0), TENSOR_E_INVALID);
  tensor_release(scalar);
  tensor_release(t);
}
END_TEST

START_TEST(single_views) {
  const int64_t sizes[3] = {2, 3, 4};
  tensor_t *t = NULL, *v = NULL;
  ck_ok(tensor_empty(&t, 3, sizes, TENSOR_FLOAT32));
  ck_ok(tensor_diagonal(&v, t, -1, 2, 1)); /* torch: (2, 3), (12, 5), offset 1 */
  ck_layout(v, 2, ((int64_t[]){2, 3}), ((int64_t[]){12, 5}));
  ck_assert_int_eq(tensor_storage_offset(v), 1);
  tensor_release(v);
  ck_status(tensor_diagonal(&v, t, 0, 1, -2), TENSOR_E_INVALID);
  ck_ok(tensor_unfold(&v, t, 2, 0, 1)); /* (2, 3, 5, 0), (12, 4, 1, 1) */
  ck_layout(v, 4, ((int64_t[]){2, 3, 5, 0}), ((int64_t[]){12, 4, 1, 1}));
  tensor_release(v);
  ck_status(tensor_unfold(&v, t, 2, 5, 1), TENSOR_E_SHAPE);
  ck_status(tensor_unfold(&v, t, 2, 2, 0), TENSOR_E_INVALID);
  ck_ok(tensor_movedim(&v, t, 2, ((int64_t[]){0, 1}), ((int64_t[]){2, 0}))); /* (3, 4, 2), (4, 1, 12) */
  ck_layout(v, 3, ((int64_t[]){3, 4, 2}), ((int64_t[]){4, 1, 12}));
  tensor_release(v);
  ck_status(tensor_movedim(&v, t, 2, ((int64_t[]){0, 0}), ((int64_t[]){2, 1})), TENSOR_E_INVALID);
  ck_ok(tensor_unflatten(&v, t, 1, 2, ((int64_t[]){3, -1}))); /* (2, 3, 1, 4), (12, 4, 4, 1) */
  ck_layout(v, 4, ((int64_t[]){2, 3, 1, 4}), ((int64_t[]){12, 4, 4, 1}));
  tensor_release(v);
  ck_status(tensor_unflatten(&v, t, 1, 2, ((int64_t[]){2, -1})), TENSOR_E_SHAPE);
  ck_status(tensor_unflatten(&v, t, 1, 0, NULL), TENSOR_E_INVALID);
  tensor_t *row = NULL;
  ck_ok(tensor_select(&row, t, 0, 1));
  ck_ok(tensor_select(&v, row, 0, 2)); /* a 1-d (4,) at offset 20 */
  tensor_release(row);
  ck_ok(tensor_atleast(&row, v, 3)); /* (1, 4, 1), (4, 1, 1) */
  ck_layout(row, 3, ((int64_t[]){1, 4, 1}), ((int64_t[]){4, 1, 1}));
  ck_assert_int_eq(tensor_storage_offset(row), 20);
  tensor_release(row);
  ck_status(tensor_atleast(&row, v, 4), TENSOR_E_INVALID);
  tensor_release(v);
  tensor_release(t);
}
END_TEST

static Suite *splits_suite(void) {
  Suite *s = suite_create("splits");
  TCase *tc = tcase_create("splits");
  tcase_add_test(tc, split_count_query_and_fill);
  tcase_add_test(tc, split_variants);
  tcase_add_test(tc, single_views);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(splits_suite()); }
