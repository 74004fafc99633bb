/* tensor_index: basic indexing in one pass equals the chain of select / slice /
   unsqueeze calls it replaces (sizes, strides, offset and status), on random
   tensors and random index lists; plus the documented rejections. */
#include "common.h"

static int64_t rnd_in(int64_t lo, int64_t hi) { return lo + (int64_t)(test_rng() % (uint64_t)(hi - lo + 1)); }

/* Replaces *cur by the result of a view call; returns its status. */
static tensor_status_t chain_step(tensor_t **cur, tensor_status_t st, tensor_t **next) {
  if (st == TENSOR_OK) {
    tensor_release(*cur);
    *cur = *next;
  }
  return st;
}

/* The reference: PyTorch's order (too many indices first), then one call per item. */
static tensor_status_t index_by_chain(tensor_t **out, tensor_t *t, int64_t n, const int32_t *kinds,
                                      const int64_t *values) {
  int64_t named = 0;
  for (int64_t i = 0; i < n; ++i) named += kinds[i] == TENSOR_INDEX_INT || kinds[i] == TENSOR_INDEX_SLICE;
  *out = NULL;
  if (named > tensor_ndim(t)) return TENSOR_E_INVALID;
  tensor_t *cur = tensor_retain(t), *next = NULL;
  tensor_status_t st = TENSOR_OK;
  int64_t dim = 0;
  for (int64_t i = 0; st == TENSOR_OK && i < n; ++i) {
    const int64_t *v = values + 3 * i;
    switch (kinds[i]) {
      case TENSOR_INDEX_INT: st = chain_step(&cur, tensor_select(&next, cur, dim, v[0]), &next); break;
      case TENSOR_INDEX_SLICE: st = chain_step(&cur, tensor_slice(&next, cur, dim++, v[0], v[1], v[2]), &next); break;
      case TENSOR_INDEX_NEWAXIS: st = chain_step(&cur, tensor_unsqueeze(&next, cur, dim++), &next); break;
      case TENSOR_INDEX_BOOL:
        st = chain_step(&cur, tensor_unsqueeze(&next, cur, dim), &next);
        if (st == TENSOR_OK && v[0] == 0) st = chain_step(&cur, tensor_slice(&next, cur, dim, 0, 0, 1), &next);
        dim++;
        break;
      default: dim += tensor_ndim(t) - named; break;
    }
  }
  if (st != TENSOR_OK) {
    tensor_release(cur);
    return st;
  }
  *out = cur;
  return TENSOR_OK;
}

static const int64_t kBounds[] = {0, 1, 2, -1, -2, 5, -7, TENSOR_SLICE_END, INT64_MIN};
static const int64_t kSteps[] = {1, 1, 2, 3, -1, -2, 0, INT64_MIN, INT64_MAX};

START_TEST(index_equals_chain) {
  test_rng_seed(0xD1B54A32D192ED03ULL + (uint64_t)_i);
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_new(&s, 4096));
  for (int round = 0; round < 3000; ++round) {
    int64_t sizes[5], strides[5];
    const int64_t nd = rnd_in(0, 5);
    for (int64_t d = 0; d < nd; ++d) {
      sizes[d] = rnd_in(0, 4);
      strides[d] = rnd_in(-6, 6);
    }
    tensor_t *t = NULL;
    if (tensor_from_storage(&t, s, TENSOR_UINT8, nd, sizes, strides, 2048) != TENSOR_OK) continue;
    int32_t kinds[8];
    int64_t values[24];
    const int64_t n = rnd_in(0, 7);
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t r = test_rng() % 16;
      kinds[i] = r < 5 ? TENSOR_INDEX_INT : r < 11 ? TENSOR_INDEX_SLICE : r < 13 ? TENSOR_INDEX_NEWAXIS
               : r < 15 ? TENSOR_INDEX_ELLIPSIS : TENSOR_INDEX_BOOL;
      values[3 * i] = kinds[i] == TENSOR_INDEX_BOOL ? (int64_t)(test_rng() % 2) : kBounds[test_rng() % 9];
      values[3 * i + 1] = kBounds[test_rng() % 9];
      values[3 * i + 2] = kSteps[test_rng() % 9];
      if (kinds[i] == TENSOR_INDEX_INT) values[3 * i] = rnd_in(-5, 4);
    }
    tensor_t *got = (tensor_t *)1, *want = NULL;
    const tensor_status_t st = tensor_index(&got, t, n, kinds, values);
    const tensor_status_t want_st = index_by_chain(&want, t, n, kinds, values);
    ck_assert_msg(st == want_st, "round %d: index gave %s, the chain %s (%s)", round, tensor_status_name(st),
                  tensor_status_name(want_st), tensor_last_error());
    if (st == TENSOR_OK) {
      ck_layout(got, tensor_ndim(want), tensor_sizes(want), tensor_strides(want));
      ck_assert_int_eq(tensor_storage_offset(got), tensor_storage_offset(want));
      ck_assert_ptr_eq(tensor_storage(got), s);
    } else {
      ck_assert_ptr_null(got);
    }
    tensor_release(got);
    tensor_release(want);
    tensor_release(t);
  }
  ck_assert_int_eq(tensor_storage_refcount(s), 1);
  tensor_storage_release(s);
}
END_TEST

START_TEST(index_examples) {
  const int64_t sizes[3] = {4, 5, 6};
  tensor_t *t = NULL, *v = NULL;
  ck_ok(tensor_empty(&t, 3, sizes, TENSOR_FLOAT32));
  /* t[1, ::-2, None, ...] -> sizes [3, 1, 6], strides [-12, 6, 1], offset 30 + 24 */
  const int32_t k1[4] = {TENSOR_INDEX_INT, TENSOR_INDEX_SLICE, TENSOR_INDEX_NEWAXIS, TENSOR_INDEX_ELLIPSIS};
  const int64_t v1[12] = {1, 0, 0, TENSOR_SLICE_END, INT64_MIN, -2, 0, 0, 0, 0, 0, 0};
  ck_ok(tensor_index(&v, t, 4, k1, v1));
  ck_layout(v, 3, ((int64_t[]){3, 1, 6}), ((int64_t[]){-12, 6, 1}));
  ck_assert_int_eq(tensor_storage_offset(v), 30 + 24);
  tensor_release(v);
  /* t[..., -1]: the ellipsis stands for two dims */
  const int32_t k2[2] = {TENSOR_INDEX_ELLIPSIS, TENSOR_INDEX_INT};
  const int64_t v2[6] = {0, 0, 0, -1, 0, 0};
  ck_ok(tensor_index(&v, t, 2, k2, v2));
  ck_layout(v, 2, ((int64_t[]){4, 5}), ((int64_t[]){30, 6}));
  ck_assert_int_eq(tensor_storage_offset(v), 5);
  tensor_release(v);
  /* n = 0: a new view of t */
  ck_ok(tensor_index(&v, t, 0, NULL, NULL));
  ck_layout(v, 3, sizes, ((int64_t[]){30, 6, 1}));
  ck_assert_ptr_ne(v, t);
  tensor_release(v);
  /* t[False] adds a dim of size 0 */
  const int32_t k3[1] = {TENSOR_INDEX_BOOL};
  const int64_t v3[3] = {0, 0, 0};
  ck_ok(tensor_index(&v, t, 1, k3, v3));
  ck_assert_int_eq(tensor_ndim(v), 4);
  ck_assert_int_eq(tensor_sizes(v)[0], 0);
  tensor_release(v);
  tensor_release(t);
}
END_TEST

START_TEST(index_rejections) {
  const int64_t sizes[2] = {2, 3};
  tensor_t *t = NULL, *v = (tensor_t *)1;
  ck_ok(tensor_empty(&t, 2, sizes, TENSOR_INT32));
  const int32_t three_ints[3] = {TENSOR_INDEX_INT, TENSOR_INDEX_INT, TENSOR_INDEX_INT};
  const int64_t zeros[9] = {0};
  ck_status(tensor_index(&v, t, 3, three_ints, zeros), TENSOR_E_INVALID); /* too many indices */
  ck_assert_ptr_null(v);
  const int64_t out_of_range[3] = {2, 0, 0};
  ck_status(tensor_index(&v, t, 1, three_ints, out_of_range), TENSOR_E_BOUNDS);
  const int32_t unknown[1] = {99}, slice[1] = {TENSOR_INDEX_SLICE}, boolean[1] = {TENSOR_INDEX_BOOL};
  ck_status(tensor_index(&v, t, 1, unknown, zeros), TENSOR_E_INVALID);
  ck_status(tensor_index(&v, t, 1, slice, zeros), TENSOR_E_INVALID); /* step 0 */
  const int64_t two[3] = {2, 0, 0};
  ck_status(tensor_index(&v, t, 1, boolean, two), TENSOR_E_INVALID);
  ck_status(tensor_index(&v, t, -1, NULL, NULL), TENSOR_E_INVALID);
  ck_status(tensor_index(&v, t, 1, NULL, zeros), TENSOR_E_INVALID);
  ck_status(tensor_index(&v, NULL, 0, NULL, NULL), TENSOR_E_INVALID);
  ck_status(tensor_index(NULL, t, 0, NULL, NULL), TENSOR_E_INVALID);
  tensor_release(t);
}
END_TEST

static Suite *index_suite(void) {
  Suite *s = suite_create("index");
  TCase *tc = tcase_create("index");
  tcase_add_test(tc, index_examples);
  tcase_add_test(tc, index_rejections);
  tcase_add_loop_test(tc, index_equals_chain, 0, 3);
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(index_suite()); }
