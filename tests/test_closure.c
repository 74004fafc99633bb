/* Closure: every tensor the library gives out can be passed back in. Random view
   chains (extreme sizes and strides on empty tensors, size-1 dims with extreme
   strides, huge expands) and, after every step, the tensor rebuilt from its own
   metadata: as_strided / from_storage with its sizes, strides and offset, view with
   its own sizes, permute by a random permutation and back, and a DLPack round trip
   (versioned and legacy) all succeed and give back the same metadata. */
#include "common.h"

static int64_t pick(const int64_t *values, int n) { return values[test_rng() % (uint64_t)n]; }

static const int64_t kSizes[] = {0, 1, 1, 2, 3, 4, 1LL << 31, 1LL << 40, 1LL << 62, INT64_MAX - 2, INT64_MAX};
static const int64_t kStrides[] = {0, 1, 2, -1, -3, 7, 1LL << 40, INT64_MAX, INT64_MIN, -(1LL << 62)};
static const int64_t kDTypes[] = {TENSOR_UINT8, TENSOR_INT16, TENSOR_FLOAT32, TENSOR_FLOAT64,
                                         TENSOR_COMPLEX128, TENSOR_BOOL};

static void ck_same_meta(const tensor_t *a, const tensor_t *b, const char *what) {
  ck_assert_msg(tensor_ndim(a) == tensor_ndim(b), "%s: ndim %lld vs %lld", what,
                (long long)tensor_ndim(a), (long long)tensor_ndim(b));
  for (int64_t i = 0; i < tensor_ndim(a); ++i) {
    ck_assert_msg(tensor_sizes(a)[i] == tensor_sizes(b)[i], "%s: size %lld", what, (long long)i);
    ck_assert_msg(tensor_strides(a)[i] == tensor_strides(b)[i], "%s: stride %lld (%lld vs %lld)", what,
                  (long long)i, (long long)tensor_strides(a)[i], (long long)tensor_strides(b)[i]);
  }
  ck_assert_msg(tensor_storage_offset(a) == tensor_storage_offset(b), "%s: offset", what);
  ck_assert_msg(tensor_dtype(a) == tensor_dtype(b), "%s: dtype", what);
  ck_assert_msg(tensor_numel(a) == tensor_numel(b), "%s: numel", what);
  ck_assert_msg(tensor_storage(a) == tensor_storage(b), "%s: storage", what);
}

/* Checks that t can be passed back in every way the closure rule names. */
static void check_closure(const tensor_t *t) {
  const int64_t nd = tensor_ndim(t);
  tensor_t *r = NULL, *p = NULL;
  ck_ok(tensor_as_strided(&r, t, nd, tensor_sizes(t), tensor_strides(t), tensor_storage_offset(t)));
  ck_same_meta(t, r, "as_strided");
  tensor_release(r);
  ck_ok(tensor_from_storage(&r, tensor_storage(t), tensor_dtype(t), nd, tensor_sizes(t), tensor_strides(t),
                            tensor_storage_offset(t)));
  ck_same_meta(t, r, "from_storage");
  tensor_release(r);

  ck_ok(tensor_view(&r, t, nd, tensor_sizes(t)));
  ck_assert_int_eq(tensor_ndim(r), nd);
  for (int64_t i = 0; i < nd; ++i) {
    ck_assert_int_eq(tensor_sizes(r)[i], tensor_sizes(t)[i]);
    /* a view with the same shape keeps every stride that matters (size-1 dims may differ) */
    if (tensor_sizes(t)[i] != 1 && tensor_numel(t) > 0) ck_assert_int_eq(tensor_strides(r)[i], tensor_strides(t)[i]);
  }
  tensor_release(r);

  int64_t perm[64], inverse[64];
  for (int64_t i = 0; i < nd; ++i) perm[i] = i;
  for (int64_t i = nd - 1; i > 0; --i) {
    const int64_t j = (int64_t)(test_rng() % (uint64_t)(i + 1)), tmp = perm[i];
    perm[i] = perm[j];
    perm[j] = tmp;
  }
  for (int64_t i = 0; i < nd; ++i) inverse[perm[i]] = i;
  ck_ok(tensor_permute(&p, t, nd, perm));
  ck_ok(tensor_as_strided(&r, p, nd, tensor_sizes(p), tensor_strides(p), tensor_storage_offset(p)));
  tensor_release(r);
  ck_ok(tensor_view(&r, p, nd, tensor_sizes(p)));
  tensor_release(r);
  ck_ok(tensor_permute(&r, p, nd, inverse));
  ck_same_meta(t, r, "permute and back");
  tensor_release(r);
  tensor_release(p);

  DLManagedTensorVersioned *m = NULL;
  ck_ok(tensor_to_dlpack(&m, (tensor_t *)t, 0));
  ck_ok(tensor_from_dlpack(&r, m));
  ck_assert_int_eq(tensor_ndim(r), nd);
  for (int64_t i = 0; i < nd; ++i) {
    ck_assert_int_eq(tensor_sizes(r)[i], tensor_sizes(t)[i]);
    /* the export gives a size-1 dim stride 1, as PyTorch's does */
    ck_assert_int_eq(tensor_strides(r)[i], tensor_sizes(t)[i] == 1 ? 1 : tensor_strides(t)[i]);
  }
  ck_assert_int_eq(tensor_numel(r), tensor_numel(t));
  if (tensor_numel(t) > 0) ck_assert_ptr_eq(tensor_data(r), tensor_data(t));
  tensor_release(r);
  if (!tensor_is_readonly(t)) {
    DLManagedTensor *legacy = NULL;
    ck_ok(tensor_to_dlpack_legacy(&legacy, (tensor_t *)t));
    ck_ok(tensor_from_dlpack_legacy(&r, legacy));
    ck_assert_int_eq(tensor_numel(r), tensor_numel(t));
    for (int64_t i = 0; i < nd; ++i)
      ck_assert_int_eq(tensor_strides(r)[i], tensor_sizes(t)[i] == 1 ? 1 : tensor_strides(t)[i]);
    tensor_release(r);
  }
}

/* A random starting tensor: empty with extreme sizes and strides, or a small
   non-empty one (size-1 dims may carry extreme strides). */
static tensor_t *random_start(tensor_storage_t *s) {
  int64_t sizes[6], strides[6];
  const int64_t nd = (int64_t)(test_rng() % 6);
  const int empty = nd > 0 && test_rng() % 2;
  for (int64_t i = 0; i < nd; ++i) {
    sizes[i] = empty ? pick(kSizes, 11) : (int64_t)(test_rng() % 3) + 1;
    strides[i] = empty ? pick(kStrides, 10) : 1;
  }
  if (empty) sizes[test_rng() % (uint64_t)nd] = 0;
  tensor_t *t = NULL;
  if (empty) {
    ck_ok(tensor_from_storage(&t, s, (tensor_dtype_t)pick(kDTypes, 6), nd, sizes, strides, (int64_t)(test_rng() % 5)));
  } else {
    for (int64_t i = 0; i < nd; ++i)
      if (sizes[i] == 1 && test_rng() % 2) strides[i] = pick(kStrides, 10); /* never addressed */
    int64_t st = 1;
    for (int64_t i = nd - 1; i >= 0; --i) {
      if (sizes[i] != 1) strides[i] = st;
      st *= sizes[i];
    }
    ck_ok(tensor_from_storage(&t, s, TENSOR_UINT8, nd, sizes, strides, 0));
  }
  return t;
}

/* One random view step; returns the new tensor (or t retained when the step was refused). */
static tensor_t *random_step(tensor_t *t) {
  const int64_t nd = tensor_ndim(t);
  tensor_t *r = NULL;
  tensor_status_t st = TENSOR_E_INVALID;
  const int64_t d = nd > 0 ? (int64_t)(test_rng() % (uint64_t)nd) : 0;
  switch (test_rng() % 9) {
    case 0: st = nd > 1 ? tensor_transpose(&r, t, d, (d + 1) % nd) : st; break;
    case 1: st = nd > 0 ? tensor_slice(&r, t, d, (int64_t)(test_rng() % 3), TENSOR_SLICE_END,
                                       (test_rng() % 2 ? 1 : -1) * (int64_t)(test_rng() % 3 + 1)) : st; break;
    case 2: st = nd > 0 && tensor_sizes(t)[d] > 0 ? tensor_select(&r, t, d, 0) : st; break;
    case 3: st = nd < 64 ? tensor_unsqueeze(&r, t, nd > 0 ? d : 0) : st; break;
    case 4: st = tensor_squeeze(&r, t, test_rng() % 2 ? TENSOR_ALL_DIMS : d); break;
    case 5: {
      int64_t sizes[64];
      for (int64_t i = 0; i < nd; ++i)
        sizes[i] = tensor_sizes(t)[i] == 1 && tensor_numel(t) == 0 ? pick(kSizes, 11) : tensor_sizes(t)[i];
      st = tensor_expand(&r, t, nd, sizes);
      break;
    }
    case 6: st = nd > 0 ? tensor_narrow(&r, t, d, 0, tensor_sizes(t)[d] > 0 ? 1 : 0) : st; break;
    case 7: st = tensor_flatten(&r, t, 0, -1); break;
    default: st = tensor_view_dtype(&r, t, TENSOR_UINT8); break;
  }
  if (st != TENSOR_OK) return tensor_retain(t);
  return r;
}

START_TEST(random_view_chains_close) {
  test_rng_seed(0x9E3779B97F4A7C15ULL + (uint64_t)_i);
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_new(&s, 256)); /* holds 3^5 bytes */
  for (int chain = 0; chain < 250; ++chain) {
    tensor_t *t = random_start(s);
    check_closure(t);
    for (int step = 0; step < 8; ++step) {
      tensor_t *next = random_step(t);
      tensor_release(t);
      t = next;
      check_closure(t);
    }
    tensor_release(t);
  }
  ck_assert_int_eq(tensor_storage_refcount(s), 1);
  tensor_storage_release(s);
}
END_TEST

/* The reported case: [0, 4, INT64_MAX - 2, 0] permuted to [4, INT64_MAX - 2, 0, 0]. */
START_TEST(permuted_huge_empty_tensor_passes_back) {
  const int64_t sizes[4] = {0, 4, INT64_MAX - 2, 0}, perm[4] = {1, 2, 3, 0};
  tensor_t *t = NULL, *p = NULL;
  ck_ok(tensor_empty(&t, 4, sizes, TENSOR_FLOAT32));
  ck_ok(tensor_permute(&p, t, 4, perm));
  ck_assert_int_eq(tensor_sizes(p)[1], INT64_MAX - 2);
  ck_assert_int_eq(tensor_numel(p), 0);
  check_closure(t);
  check_closure(p);
  tensor_release(p);
  tensor_release(t);
}
END_TEST

static Suite *closure_suite(void) {
  Suite *s = suite_create("closure");
  TCase *tc = tcase_create("closure");
  tcase_add_test(tc, permuted_huge_empty_tensor_passes_back);
  tcase_add_loop_test(tc, random_view_chains_close, 0, 4);
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(closure_suite()); }
