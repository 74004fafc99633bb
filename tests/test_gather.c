/* Advanced indexing: tensor_index_gather and tensor_index_put against an
   element-by-element reference on random tensors, strides and index tensors of
   every integer dtype; the documented layouts, wrapping, refusals and
   last-write-wins; tensor_nonzero and masks through its columns. */
#include <math.h>
#include <stdio.h>

#include "common.h"

static int64_t rnd_in(int64_t lo, int64_t hi) { return lo + (int64_t)(test_rng() % (uint64_t)(hi - lo + 1)); }

static tensor_t *int64_tensor(int64_t ndim, const int64_t *sizes, const int64_t *values) {
  tensor_t *t = NULL;
  ck_ok(tensor_from_data(&t, values, ndim, sizes, TENSOR_INT64));
  return t;
}

static tensor_t *arange_f32(int64_t ndim, const int64_t *sizes) {
  tensor_t *t = NULL;
  ck_ok(tensor_empty(&t, ndim, sizes, TENSOR_FLOAT32));
  float *p = tensor_data(t);
  for (int64_t i = 0; i < tensor_numel(t); ++i) p[i] = (float)i;
  return t;
}

/* Element i (C order) of a tensor of any layout. */
static char *element_at(const tensor_t *t, int64_t flat) {
  char *p = tensor_data(t);
  const size_t item = tensor_dtype_size(tensor_dtype(t));
  for (int64_t d = tensor_ndim(t) - 1; d >= 0; --d) {
    p += (flat % tensor_sizes(t)[d]) * tensor_strides(t)[d] * (int64_t)item;
    flat /= tensor_sizes(t)[d];
  }
  return p;
}

static float f32_at(const tensor_t *t, int64_t flat) {
  float v;
  memcpy(&v, element_at(t, flat), sizeof v);
  return v;
}

static int64_t read_integer(const char *p, tensor_dtype_t dtype) {
  switch (dtype) {
    case TENSOR_UINT8: return *(const uint8_t *)p;
    case TENSOR_INT8: return *(const int8_t *)p;
    case TENSOR_INT16: { int16_t v; memcpy(&v, p, 2); return v; }
    case TENSOR_INT32: { int32_t v; memcpy(&v, p, 4); return v; }
    case TENSOR_UINT16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case TENSOR_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { int64_t v; memcpy(&v, p, 8); return v; }
  }
}

static void write_integer(char *p, tensor_dtype_t dtype, int64_t v) {
  const size_t item = tensor_dtype_size(dtype);
  memcpy(p, &v, item); /* little-endian: the low bytes */
}

/* The reference: where result element `flat` comes from in t (its address),
   following the header's words: B's dims in place of adjacent indexed dims,
   else in front. */
static char *reference_source(const tensor_t *t, int64_t n, const int64_t *dims, tensor_t *const *bcast,
                              const tensor_t *result, int64_t flat) {
  const int64_t nd = tensor_ndim(t), nb = n ? tensor_ndim(bcast[0]) : 0, rd = tensor_ndim(result);
  int64_t coord[64];
  for (int64_t d = rd - 1; d >= 0; --d) {
    coord[d] = flat % tensor_sizes(result)[d];
    flat /= tensor_sizes(result)[d];
  }
  int adjacent = 1;
  for (int64_t k = 1; k < n; ++k) adjacent &= dims[k] == dims[k - 1] + 1;
  const int64_t first = adjacent ? dims[0] : 0;
  int64_t b_flat = 0;
  for (int64_t i = 0; i < nb; ++i) b_flat = b_flat * tensor_sizes(bcast[0])[i] + coord[first + i];
  char *p = tensor_data(t);
  const size_t item = tensor_dtype_size(tensor_dtype(t));
  for (int64_t d = 0, k = 0, r = 0; d < nd; ++d) {
    if (d == first) r += nb; /* the broadcast dims sit there */
    int64_t i;
    if (k < n && dims[k] == d) {
      i = read_integer(element_at(bcast[k], b_flat), tensor_dtype(bcast[k]));
      if (i < 0) i += tensor_sizes(t)[d];
      ++k;
    } else {
      i = coord[r++];
    }
    p += i * tensor_strides(t)[d] * (int64_t)item;
  }
  return p;
}

static const tensor_dtype_t kIndexDtypes[] = {TENSOR_INT64, TENSOR_INT32, TENSOR_INT16, TENSOR_INT8,
                                              TENSOR_UINT8, TENSOR_UINT16, TENSOR_UINT32, TENSOR_UINT64};
static const tensor_dtype_t kValueDtypes[] = {TENSOR_FLOAT32, TENSOR_FLOAT64, TENSOR_INT16, TENSOR_UINT8,
                                              TENSOR_COMPLEX128, TENSOR_BFLOAT16};

/* A random strided view of a fresh storage filled with random bytes: its dims
   laid out in memory in a random order, each possibly reversed or stepped. */
static tensor_t *random_view(int64_t nd, const int64_t *sizes, tensor_dtype_t dtype) {
  int64_t perm[8], inverse[8], big[8];
  for (int64_t d = 0; d < nd; ++d) perm[d] = d;
  for (int64_t d = nd - 1; d > 0; --d) {
    const int64_t j = rnd_in(0, d), tmp = perm[d];
    perm[d] = perm[j];
    perm[j] = tmp;
  }
  for (int64_t i = 0; i < nd; ++i) {
    big[i] = sizes[perm[i]] * 2 + 1; /* storage dim i holds view dim perm[i] */
    inverse[perm[i]] = i;
  }
  tensor_t *base = NULL, *cur = NULL, *next = NULL;
  ck_ok(tensor_empty(&base, nd, big, dtype));
  unsigned char *bytes = tensor_data(base);
  const size_t nbytes = (size_t)tensor_numel(base) * tensor_dtype_size(dtype);
  for (size_t i = 0; i < nbytes; ++i) bytes[i] = (unsigned char)(dtype == TENSOR_BOOL ? test_rng() & 1 : test_rng());
  ck_ok(tensor_permute(&cur, base, nd, inverse));
  tensor_release(base);
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t size = tensor_sizes(cur)[d];
    const int64_t step = rnd_in(0, 2) == 0 ? -1 : rnd_in(1, 2), start = step < 0 ? size - 1 : rnd_in(0, 1);
    ck_ok(tensor_slice(&next, cur, d, start, step < 0 ? INT64_MIN : TENSOR_SLICE_END, step));
    tensor_release(cur);
    ck_ok(tensor_narrow(&cur, next, d, 0, sizes[d]));
    tensor_release(next);
  }
  return cur;
}

/* A random integer index tensor of `shape` for a dim of `size`: values in
   [-size, size) for signed dtypes, [0, size) for unsigned, possibly strided. */
static tensor_t *random_index(int64_t nd, const int64_t *shape, int64_t size, tensor_dtype_t dtype) {
  tensor_t *t = random_view(nd, shape, dtype);
  const int is_signed = tensor_dtype_is_signed(dtype);
  for (int64_t i = 0; i < tensor_numel(t); ++i) {
    const int64_t v = is_signed ? rnd_in(-size, size - 1) : rnd_in(0, size - 1);
    write_integer(element_at(t, i), dtype, v);
  }
  return t;
}

START_TEST(gather_and_put_match_reference) {
  test_rng_seed(0x9E3779B97F4A7C15ULL + (uint64_t)_i);
  for (int round = 0; round < 400; ++round) {
    const int64_t nd = rnd_in(1, 4);
    int64_t sizes[4];
    for (int64_t d = 0; d < nd; ++d) sizes[d] = rnd_in(1, 4);
    if (rnd_in(0, 9) == 0) sizes[rnd_in(0, nd - 1)] = 0;
    const tensor_dtype_t dtype = kValueDtypes[rnd_in(0, 5)];
    tensor_t *t = random_view(nd, sizes, dtype);
    /* a random set of indexed dims, each not of size 0 */
    int64_t dims[4], n = 0;
    for (int64_t d = 0; d < nd; ++d)
      if (sizes[d] > 0 && rnd_in(0, 1)) dims[n++] = d;
    if (n == 0) {
      tensor_release(t);
      continue;
    }
    /* index shapes that broadcast: a common shape with some dims set to 1 or dropped */
    const int64_t nb = rnd_in(0, 2);
    int64_t b[2] = {rnd_in(0, 3), rnd_in(1, 3)};
    tensor_t *idx[4], *bcast[4];
    for (int64_t k = 0; k < n; ++k) {
      const int64_t drop = rnd_in(0, nb);
      int64_t shape[2];
      for (int64_t i = drop; i < nb; ++i) shape[i - drop] = rnd_in(0, 3) == 0 ? 1 : b[i];
      idx[k] = random_index(nb - drop, shape, sizes[dims[k]], kIndexDtypes[rnd_in(0, 7)]);
    }
    ck_ok(tensor_broadcast_tensors(bcast, n, (const tensor_t *const *)idx));
    int64_t signed_dims[4];
    for (int64_t k = 0; k < n; ++k) signed_dims[k] = rnd_in(0, 1) ? dims[k] - nd : dims[k];
    tensor_t *got = NULL;
    ck_ok(tensor_index_gather(&got, t, n, signed_dims, (const tensor_t *const *)idx));
    ck_assert(tensor_is_contiguous(got));
    ck_assert_int_eq(tensor_dtype(got), dtype);
    const size_t item = tensor_dtype_size(dtype);
    /* the result's shape: t's other dims, with B in place or in front */
    int adjacent = 1;
    for (int64_t k = 1; k < n; ++k) adjacent &= dims[k] == dims[k - 1] + 1;
    const int64_t nbc = tensor_ndim(bcast[0]);
    ck_assert_int_eq(tensor_ndim(got), nd - n + nbc);
    const int64_t first = adjacent ? dims[0] : 0;
    for (int64_t i = 0; i < nbc; ++i) ck_assert_int_eq(tensor_sizes(got)[first + i], tensor_sizes(bcast[0])[i]);
    for (int64_t i = 0; i < tensor_numel(got); ++i)
      ck_assert_msg(memcmp(element_at(got, i), reference_source(t, n, dims, bcast, got, i), item) == 0,
                    "round %d: element %lld differs", round, (long long)i);
    /* put: random values of the result's shape (or broadcast from fewer dims),
       compared with the reference's writes in C order on a clone */
    tensor_t *values = random_view(tensor_ndim(got), tensor_sizes(got), dtype), *want = NULL;
    if (tensor_ndim(got) > 0 && rnd_in(0, 2) == 0) { /* values broadcast along the result's first dim */
      tensor_t *one = NULL, *row = NULL;
      ck_ok(tensor_narrow(&one, values, 0, 0, tensor_sizes(got)[0] ? 1 : 0));
      ck_ok(tensor_expand(&row, one, tensor_ndim(got), tensor_sizes(got)));
      tensor_release(values);
      tensor_release(one);
      values = row;
    }
    ck_ok(tensor_clone(&want, t));
    for (int64_t i = 0; i < tensor_numel(got); ++i)
      memcpy(reference_source(want, n, dims, bcast, got, i), element_at(values, i), item);
    ck_ok(tensor_index_put(t, n, signed_dims, (const tensor_t *const *)idx, values));
    for (int64_t i = 0; i < tensor_numel(t); ++i)
      ck_assert_msg(memcmp(element_at(t, i), element_at(want, i), item) == 0, "round %d: put element %lld",
                    round, (long long)i);
    tensor_release(want);
    tensor_release(values);
    tensor_release(got);
    for (int64_t k = 0; k < n; ++k) {
      tensor_release(idx[k]);
      tensor_release(bcast[k]);
    }
    tensor_release(t);
  }
}
END_TEST

START_TEST(gather_layouts) {
  const int64_t sizes[3] = {3, 4, 5};
  tensor_t *t = arange_f32(3, sizes), *out = NULL;
  /* t[:, [[0, 2], [1, 1]]]: [3, 2, 2, 5] */
  const int64_t s22[2] = {2, 2}, v22[4] = {0, 2, 1, 1}, d1[1] = {1};
  tensor_t *i22 = int64_tensor(2, s22, v22);
  ck_ok(tensor_index_gather(&out, t, 1, d1, (const tensor_t *const *)&i22));
  ck_layout(out, 4, ((int64_t[]){3, 2, 2, 5}), ((int64_t[]){20, 10, 5, 1}));
  ck_assert_float_eq(f32_at(out, 1 * 20 + 0 * 10 + 1 * 5 + 3), 1 * 20 + 2 * 5 + 3);
  tensor_release(out);
  /* adjacent dims 1, 2 with [2, 1] and [3]: B = [2, 3] in place of them: [3, 2, 3] */
  const int64_t s21[2] = {2, 1}, v21[2] = {2, 0}, s3[1] = {3}, v3[3] = {4, 0, -1}, d12[2] = {1, 2};
  tensor_t *pair[2] = {int64_tensor(2, s21, v21), int64_tensor(1, s3, v3)};
  ck_ok(tensor_index_gather(&out, t, 2, d12, (const tensor_t *const *)pair));
  ck_layout(out, 3, ((int64_t[]){3, 2, 3}), ((int64_t[]){6, 3, 1}));
  ck_assert_float_eq(f32_at(out, 2 * 6 + 0 * 3 + 2), 2 * 20 + 2 * 5 + 4); /* t[2, 2, -1] */
  ck_assert_float_eq(f32_at(out, 0 * 6 + 1 * 3 + 0), 0 * 20 + 0 * 5 + 4); /* t[0, 0, 4] */
  tensor_release(out);
  /* non-adjacent dims 0, 2: B leads: [2, 3, 4] */
  const int64_t d02[2] = {0, 2};
  ck_ok(tensor_index_gather(&out, t, 2, d02, (const tensor_t *const *)pair));
  ck_layout(out, 3, ((int64_t[]){2, 3, 4}), ((int64_t[]){12, 4, 1}));
  ck_assert_float_eq(f32_at(out, 0 * 12 + 2 * 4 + 3), 2 * 20 + 3 * 5 + 4); /* t[2, 3, -1] */
  ck_assert_float_eq(f32_at(out, 1 * 12 + 1 * 4 + 1), 0 * 20 + 1 * 5 + 0); /* t[0, 1, 0] */
  tensor_release(out);
  /* 0-dim index tensors remove their dims, as select */
  const int64_t two = 2, minus_one = -1;
  tensor_t *scalars[2] = {NULL, NULL};
  ck_ok(tensor_from_data(&scalars[0], &two, 0, NULL, TENSOR_INT64));
  ck_ok(tensor_from_data(&scalars[1], &minus_one, 0, NULL, TENSOR_INT64));
  ck_ok(tensor_index_gather(&out, t, 2, d02, (const tensor_t *const *)scalars));
  ck_layout(out, 1, ((int64_t[]){4}), ((int64_t[]){1}));
  ck_assert_float_eq(f32_at(out, 3), 2 * 20 + 3 * 5 + 4);
  tensor_release(out);
  /* empty index tensors: B = [0] */
  const int64_t s0[1] = {0};
  tensor_t *empty = int64_tensor(1, s0, NULL);
  ck_ok(tensor_index_gather(&out, t, 1, d1, (const tensor_t *const *)&empty));
  ck_layout(out, 3, ((int64_t[]){3, 0, 5}), ((int64_t[]){5, 5, 1}));
  tensor_release(out);
  /* every index is checked even when the result is empty: t[0:0][:, [9]] */
  tensor_t *none = NULL, *nine = int64_tensor(1, (int64_t[]){1}, (int64_t[]){9});
  ck_ok(tensor_narrow(&none, t, 0, 0, 0));
  ck_status(tensor_index_gather(&out, none, 1, d1, (const tensor_t *const *)&nine), TENSOR_E_BOUNDS);
  ck_assert_ptr_null(out);
  tensor_release(none);
  tensor_release(nine);
  tensor_release(empty);
  for (int k = 0; k < 2; ++k) {
    tensor_release(pair[k]);
    tensor_release(scalars[k]);
  }
  tensor_release(i22);
  tensor_release(t);
}
END_TEST

START_TEST(gather_indices_wrap_and_check) {
  const int64_t sizes[2] = {3, 4};
  tensor_t *t = arange_f32(2, sizes), *out = (tensor_t *)1;
  const int64_t d1[1] = {1}, d0[1] = {0};
  tensor_t *neg = int64_tensor(1, (int64_t[]){2}, (int64_t[]){-1, -4});
  ck_ok(tensor_index_gather(&out, t, 1, d1, (const tensor_t *const *)&neg));
  ck_assert_float_eq(f32_at(out, 0), 3);
  ck_assert_float_eq(f32_at(out, 1), 0);
  tensor_release(out);
  /* out of range, both ways: the message names index, dim and size */
  const int64_t bad_values[3] = {5, -5, 4};
  for (int i = 0; i < 3; ++i) {
    tensor_t *bad = int64_tensor(1, (int64_t[]){3}, (int64_t[]){0, bad_values[i], 1});
    out = (tensor_t *)1;
    ck_status(tensor_index_gather(&out, t, 1, d1, (const tensor_t *const *)&bad), TENSOR_E_BOUNDS);
    ck_assert_ptr_null(out);
    char want[96];
    snprintf(want, sizeof want, "index_gather: index %lld is out of bounds for dimension 1 with size 4",
             (long long)bad_values[i]);
    ck_assert_str_eq(tensor_last_error(), want);
    tensor_release(bad);
  }
  /* the first bad index in C order is named, whatever the index tensor's strides */
  tensor_t *grid = int64_tensor(2, (int64_t[]){2, 2}, (int64_t[]){0, 7, 8, 1}), *flipped = NULL;
  ck_ok(tensor_transpose(&flipped, grid, 0, 1)); /* [[0, 8], [7, 1]] */
  ck_status(tensor_index_gather(&out, t, 1, d0, (const tensor_t *const *)&flipped), TENSOR_E_BOUNDS);
  ck_assert_str_eq(tensor_last_error(), "index_gather: index 8 is out of bounds for dimension 0 with size 3");
  /* unsigned and narrow dtypes: uint8 holds indices (NumPy's rule), 255 is out of range */
  const uint8_t bytes[2] = {2, 255};
  const int8_t small[2] = {-3, 2};
  const uint64_t huge[1] = {UINT64_MAX};
  tensor_t *u8 = NULL, *i8 = NULL, *u64 = NULL, *u8_one = NULL;
  ck_ok(tensor_from_data(&u8, bytes, 1, (int64_t[]){2}, TENSOR_UINT8));
  ck_ok(tensor_from_data(&i8, small, 1, (int64_t[]){2}, TENSOR_INT8));
  ck_ok(tensor_from_data(&u64, huge, 1, (int64_t[]){1}, TENSOR_UINT64));
  ck_ok(tensor_narrow(&u8_one, u8, 0, 0, 1));
  ck_ok(tensor_index_gather(&out, t, 1, d0, (const tensor_t *const *)&u8_one));
  ck_layout(out, 2, ((int64_t[]){1, 4}), ((int64_t[]){4, 1}));
  ck_assert_float_eq(f32_at(out, 0), 8);
  tensor_release(out);
  ck_status(tensor_index_gather(&out, t, 1, d0, (const tensor_t *const *)&u8), TENSOR_E_BOUNDS);
  ck_assert_str_eq(tensor_last_error(), "index_gather: index 255 is out of bounds for dimension 0 with size 3");
  ck_ok(tensor_index_gather(&out, t, 1, d0, (const tensor_t *const *)&i8));
  ck_assert_float_eq(f32_at(out, 0), 0);
  ck_assert_float_eq(f32_at(out, 4), 8);
  tensor_release(out);
  ck_status(tensor_index_gather(&out, t, 1, d0, (const tensor_t *const *)&u64), TENSOR_E_BOUNDS);
  ck_assert_str_eq(tensor_last_error(),
                   "index_gather: index 18446744073709551615 is out of bounds for dimension 0 with size 3");
  /* extreme values: refused, whatever their products with the stride would be */
  const int64_t extremes[2] = {INT64_MAX, INT64_MIN};
  for (int i = 0; i < 2; ++i) {
    tensor_t *e = int64_tensor(1, (int64_t[]){2}, (int64_t[]){1, extremes[i]});
    ck_status(tensor_index_gather(&out, t, 1, d1, (const tensor_t *const *)&e), TENSOR_E_BOUNDS);
    ck_status(tensor_index_put(t, 1, d1, (const tensor_t *const *)&e, neg), TENSOR_E_BOUNDS);
    tensor_release(e);
  }
  /* a dim of size 0 has no valid index */
  tensor_t *none = NULL, *zero = int64_tensor(1, (int64_t[]){1}, (int64_t[]){0});
  ck_ok(tensor_narrow(&none, t, 0, 0, 0));
  ck_status(tensor_index_gather(&out, none, 1, d0, (const tensor_t *const *)&zero), TENSOR_E_BOUNDS);
  tensor_release(none);
  tensor_release(zero);
  tensor_release(u8);
  tensor_release(u8_one);
  tensor_release(i8);
  tensor_release(u64);
  tensor_release(grid);
  tensor_release(flipped);
  tensor_release(neg);
  tensor_release(t);
}
END_TEST

static void no_delete(DLManagedTensor *m) { (void)m; }

START_TEST(gather_rejections) {
  const int64_t sizes[2] = {3, 4};
  tensor_t *t = arange_f32(2, sizes), *out = (tensor_t *)1;
  tensor_t *idx[3] = {int64_tensor(1, (int64_t[]){2}, (int64_t[]){0, 1}),
                      int64_tensor(1, (int64_t[]){3}, (int64_t[]){0, 1, 2}), NULL};
  ck_ok(tensor_empty(&idx[2], 1, (int64_t[]){2}, TENSOR_FLOAT32));
  const tensor_t *const *list = (const tensor_t *const *)idx;
  const int64_t d01[2] = {0, 1}, d10[2] = {1, 0}, d00[2] = {0, 0}, d2[1] = {2}, dm3[1] = {-3};
  ck_status(tensor_index_gather(&out, t, 2, d01, list), TENSOR_E_SHAPE); /* [2] and [3] */
  ck_assert_ptr_null(out);
  ck_status(tensor_index_gather(&out, t, 0, d01, list), TENSOR_E_INVALID);
  /* n is checked against t's dims before the list is read (it holds 3 here) */
  ck_status(tensor_index_gather(&out, t, INT64_MAX, d01, list), TENSOR_E_INVALID);
  ck_status(tensor_index_put(t, INT64_MAX, d01, list, t), TENSOR_E_INVALID);
  ck_status(tensor_index_gather(&out, t, 3, (int64_t[]){0, 1, 2}, list), TENSOR_E_INVALID);
  ck_assert_ptr_nonnull(strstr(tensor_last_error(), "too many indices"));
  ck_status(tensor_index_gather(&out, t, 2, d10, list), TENSOR_E_INVALID);
  ck_status(tensor_index_gather(&out, t, 2, d00, list), TENSOR_E_INVALID);
  ck_status(tensor_index_gather(&out, t, 1, d2, list), TENSOR_E_INVALID);
  ck_status(tensor_index_gather(&out, t, 1, dm3, list), TENSOR_E_INVALID);
  ck_status(tensor_index_gather(&out, t, 1, d01, (const tensor_t *const *)&idx[2]), TENSOR_E_DTYPE);
  tensor_t *mask = NULL;
  ck_ok(tensor_empty(&mask, 1, (int64_t[]){3}, TENSOR_BOOL));
  ck_status(tensor_index_gather(&out, t, 1, d01, (const tensor_t *const *)&mask), TENSOR_E_DTYPE);
  ck_assert_ptr_nonnull(strstr(tensor_last_error(), "nonzero"));
  ck_status(tensor_index_gather(&out, t, 1, NULL, list), TENSOR_E_INVALID);
  ck_status(tensor_index_gather(&out, t, 1, d01, NULL), TENSOR_E_INVALID);
  const tensor_t *holes[1] = {NULL};
  ck_status(tensor_index_gather(&out, t, 1, d01, holes), TENSOR_E_INVALID);
  ck_status(tensor_index_gather(&out, NULL, 1, d01, list), TENSOR_E_INVALID);
  ck_status(tensor_index_gather(NULL, t, 1, d01, list), TENSOR_E_INVALID);
  /* a 0-dim tensor has no dim to index */
  tensor_t *scalar = NULL;
  ck_ok(tensor_zeros(&scalar, 0, NULL, TENSOR_FLOAT32));
  ck_status(tensor_index_gather(&out, scalar, 1, d01, list), TENSOR_E_INVALID);
  /* memory that is not the CPU's */
  DLManagedTensor device;
  int64_t shape[1] = {4};
  fake_device_tensor(&device, shape, no_delete);
  tensor_t *far = NULL;
  ck_ok(tensor_from_dlpack_legacy(&far, &device));
  ck_status(tensor_index_gather(&out, far, 1, d01, list), TENSOR_E_DEVICE);
  ck_status(tensor_nonzero(&out, far), TENSOR_E_DEVICE);
  tensor_release(far);
  tensor_release(scalar);
  tensor_release(mask);
  for (int k = 0; k < 3; ++k) tensor_release(idx[k]);
  tensor_release(t);
}
END_TEST

START_TEST(put_rules) {
  tensor_t *t = NULL;
  ck_ok(tensor_zeros(&t, 1, (int64_t[]){5}, TENSOR_INT32));
  const int64_t d0[1] = {0};
  /* repeated indices: the last write in C order wins */
  tensor_t *rep = int64_tensor(2, (int64_t[]){2, 2}, (int64_t[]){1, 1, 3, 1});
  const double vals[4] = {10.7, 20.2, 30.9, -40.5};
  tensor_t *values = NULL;
  ck_ok(tensor_from_data(&values, vals, 2, (int64_t[]){2, 2}, TENSOR_FLOAT64));
  ck_ok(tensor_index_put(t, 1, d0, (const tensor_t *const *)&rep, values)); /* float64 -> int32 truncates */
  const int32_t *p = tensor_data(t);
  ck_assert_int_eq(p[1], -40);
  ck_assert_int_eq(p[3], 30);
  ck_assert_int_eq(p[0] + p[2] + p[4], 0);
  /* values broadcast: a 0-dim value everywhere */
  tensor_t *seven = NULL, *two = int64_tensor(1, (int64_t[]){2}, (int64_t[]){0, -1});
  ck_ok(tensor_scalar_int64(&seven, 7));
  ck_ok(tensor_index_put(t, 1, d0, (const tensor_t *const *)&two, seven));
  ck_assert_int_eq(p[0], 7);
  ck_assert_int_eq(p[4], 7);
  /* values that do not broadcast to the result [2] */
  tensor_t *three = NULL;
  ck_ok(tensor_zeros(&three, 1, (int64_t[]){3}, TENSOR_INT32));
  ck_status(tensor_index_put(t, 1, d0, (const tensor_t *const *)&two, three), TENSOR_E_SHAPE);
  /* a bad index anywhere leaves t unchanged */
  tensor_t *bad = int64_tensor(1, (int64_t[]){3}, (int64_t[]){0, 1, 5});
  ck_status(tensor_index_put(t, 1, d0, (const tensor_t *const *)&bad, seven), TENSOR_E_BOUNDS);
  ck_assert_str_eq(tensor_last_error(), "index_put: index 5 is out of bounds for dimension 0 with size 5");
  ck_assert_int_eq(p[1], -40);
  /* read-only and overlapping destinations: tensor_copy's statuses */
  int32_t frozen_data[5] = {0};
  tensor_t *frozen = NULL, *expanded = NULL, *one = NULL;
  ck_ok(tensor_from_buffer(&frozen, frozen_data, sizeof frozen_data, TENSOR_INT32, -1, 0, TENSOR_READONLY, NULL,
                           NULL));
  ck_status(tensor_copy(frozen, seven), TENSOR_E_READONLY);
  ck_status(tensor_index_put(frozen, 1, d0, (const tensor_t *const *)&two, seven), TENSOR_E_READONLY);
  ck_ok(tensor_narrow(&one, t, 0, 0, 1));
  ck_ok(tensor_expand(&expanded, one, 2, (int64_t[]){3, 1}));
  const int64_t d1[1] = {1};
  tensor_t *zero = int64_tensor(1, (int64_t[]){1}, (int64_t[]){0});
  ck_status(tensor_copy(expanded, seven), TENSOR_E_OVERLAP);
  ck_status(tensor_index_put(expanded, 1, d1, (const tensor_t *const *)&zero, seven), TENSOR_E_OVERLAP);
  /* nothing to write: only the arguments are checked, as tensor_copy into an empty tensor */
  tensor_t *empty = int64_tensor(1, (int64_t[]){0}, NULL);
  ck_ok(tensor_index_put(frozen, 1, d0, (const tensor_t *const *)&empty, seven));
  ck_status(tensor_index_put(frozen, 1, d0, (const tensor_t *const *)&empty, three), TENSOR_E_SHAPE);
  ck_status(tensor_index_put(t, 1, d0, (const tensor_t *const *)&two, NULL), TENSOR_E_INVALID);
  ck_status(tensor_index_put(NULL, 1, d0, (const tensor_t *const *)&two, seven), TENSOR_E_INVALID);
  tensor_release(empty);
  tensor_release(zero);
  tensor_release(one);
  tensor_release(expanded);
  tensor_release(frozen);
  tensor_release(bad);
  tensor_release(three);
  tensor_release(two);
  tensor_release(seven);
  tensor_release(values);
  tensor_release(rep);
  tensor_release(t);
}
END_TEST

START_TEST(put_values_sharing_memory) {
  /* t[[0, 1, 2, 3]] = t[::-1]: the values are read as they were */
  int64_t data[4] = {1, 2, 3, 4};
  tensor_t *t = NULL, *flipped = NULL;
  ck_ok(tensor_from_data(&t, data, 1, (int64_t[]){4}, TENSOR_INT64));
  ck_ok(tensor_slice(&flipped, t, 0, -1, INT64_MIN, -1));
  tensor_t *all = int64_tensor(1, (int64_t[]){4}, (int64_t[]){0, 1, 2, 3});
  ck_ok(tensor_index_put(t, 1, (int64_t[]){0}, (const tensor_t *const *)&all, flipped));
  const int64_t *p = tensor_data(t);
  ck_assert(p[0] == 4 && p[1] == 3 && p[2] == 2 && p[3] == 1);
  /* the index tensor is t itself: every index is read before the first write */
  const int64_t cycle[4] = {1, 2, 3, 0};
  memcpy(tensor_data(t), cycle, sizeof cycle);
  tensor_t *tens = int64_tensor(1, (int64_t[]){4}, (int64_t[]){10, 20, 30, 40});
  ck_ok(tensor_index_put(t, 1, (int64_t[]){0}, (const tensor_t *const *)&t, tens));
  ck_assert(p[0] == 40 && p[1] == 10 && p[2] == 20 && p[3] == 30);
  { /* more positions than one tile of offsets: later tiles still read the indices as they were */
    enum { N = 5000 };
    int64_t *big = malloc(N * sizeof *big), *want = malloc(N * sizeof *want);
    for (int64_t i = 0; i < N; i++) big[i] = (i * 7 + 1) % N; /* a permutation */
    for (int64_t i = 0; i < N; i++) want[big[i]] = -i;
    tensor_t *b = NULL, *minus = NULL, *huge = NULL;
    ck_ok(tensor_from_blob(&b, big, TENSOR_INT64, 1, (int64_t[]){N}, NULL, 0, NULL, NULL));
    int64_t *neg = malloc(N * sizeof *neg);
    for (int64_t i = 0; i < N; i++) neg[i] = -i;
    ck_ok(tensor_from_blob(&minus, neg, TENSOR_INT64, 1, (int64_t[]){N}, NULL, 0, NULL, NULL));
    ck_ok(tensor_index_put(b, 1, (int64_t[]){0}, (const tensor_t *const *)&b, minus));
    ck_assert_int_eq(memcmp(big, want, N * sizeof *big), 0);
    /* t[t] = huge: the first tile's writes must not make a later index fail after writing */
    for (int64_t i = 0; i < N; i++) big[i] = N - 1 - i;
    memcpy(want, big, N * sizeof *big);
    ck_ok(tensor_scalar_int64(&huge, 1000000));
    ck_ok(tensor_index_put(b, 1, (int64_t[]){0}, (const tensor_t *const *)&b, huge));
    for (int64_t i = 0; i < N; i++) ck_assert_int_eq(big[i], 1000000);
    tensor_release(huge);
    tensor_release(minus);
    tensor_release(b);
    free(neg);
    free(want);
    free(big);
  }
  tensor_release(tens);
  tensor_release(all);
  tensor_release(flipped);
  tensor_release(t);
}
END_TEST

/* Blocks large enough for the copy engine (and the thread pool) against the
   loops' results: the same bytes for every layout. */
START_TEST(large_blocks_and_threads) {
  const int64_t sizes[3] = {6, 90, 100};
  tensor_t *t = arange_f32(3, sizes), *tt = NULL, *out = NULL;
  ck_ok(tensor_transpose(&tt, t, 1, 2)); /* blocks [100, 90] transposed in memory */
  tensor_t *rows = int64_tensor(1, (int64_t[]){4}, (int64_t[]){5, 0, 5, -2});
  const int64_t d0[1] = {0};
  const int64_t which[4] = {5, 0, 5, 4};
  for (int v = 0; v < 2; ++v) {
    tensor_t *src = v ? tt : t, *z = NULL, *dst = NULL;
    ck_ok(tensor_index_gather(&out, src, 1, d0, (const tensor_t *const *)&rows));
    ck_assert_int_eq(tensor_numel(out), 4 * 90 * 100);
    const int64_t per_block = 90 * 100;
    for (int64_t i = 0; i < tensor_numel(out); i += 37) {
      tensor_t *block = NULL;
      ck_ok(tensor_select(&block, src, 0, which[i / per_block]));
      ck_assert_float_eq(f32_at(out, i), f32_at(block, i % per_block));
      tensor_release(block);
    }
    /* and put back into zeros of src's layout */
    ck_ok(tensor_zeros(&z, 3, sizes, TENSOR_FLOAT32));
    if (v) ck_ok(tensor_transpose(&dst, z, 1, 2));
    else dst = tensor_retain(z);
    ck_ok(tensor_index_put(dst, 1, d0, (const tensor_t *const *)&rows, out));
    for (int64_t i = 0; i < tensor_numel(dst); i += 41) {
      const int64_t block = i / per_block;
      const int written = block == 0 || block == 4 || block == 5;
      ck_assert_float_eq(f32_at(dst, i), written ? f32_at(src, i) : 0.0f);
    }
    tensor_release(dst);
    tensor_release(z);
    tensor_release(out);
  }
  /* a 1-d gather of 2^20 random elements, with 1 and 2 threads */
  const int64_t n = 1 << 20, m = 1000;
  tensor_t *src = arange_f32(1, &m), *idx = NULL, *one = NULL, *two = NULL;
  ck_ok(tensor_empty(&idx, 1, &n, TENSOR_INT32));
  int32_t *ip = tensor_data(idx);
  for (int64_t i = 0; i < n; ++i) ip[i] = (int32_t)rnd_in(-m, m - 1);
  const int32_t threads = tensor_get_num_threads();
  ck_ok(tensor_set_num_threads(1));
  ck_ok(tensor_index_gather(&one, src, 1, d0, (const tensor_t *const *)&idx));
  ck_ok(tensor_set_num_threads(2));
  ck_ok(tensor_index_gather(&two, src, 1, d0, (const tensor_t *const *)&idx));
  ck_ok(tensor_set_num_threads(threads));
  ck_assert_int_eq(memcmp(tensor_data(one), tensor_data(two), (size_t)n * 4), 0);
  for (int64_t i = 0; i < n; i += 4099) ck_assert_float_eq(f32_at(one, i), (float)(ip[i] < 0 ? ip[i] + m : ip[i]));
  tensor_release(one);
  tensor_release(two);
  tensor_release(idx);
  tensor_release(src);
  tensor_release(rows);
  tensor_release(tt);
  tensor_release(t);
}
END_TEST

START_TEST(nonzero_and_masks) {
  const float v[6] = {0.0f, -0.0f, 1.5f, NAN, 0.0f, -2.0f};
  tensor_t *t = NULL, *nz = NULL, *tt = NULL;
  ck_ok(tensor_from_data(&t, v, 2, (int64_t[]){2, 3}, TENSOR_FLOAT32));
  ck_ok(tensor_nonzero(&nz, t)); /* (0, 2), (1, 0), (1, 2) */
  ck_layout(nz, 2, ((int64_t[]){3, 2}), ((int64_t[]){2, 1}));
  ck_assert_int_eq(tensor_dtype(nz), TENSOR_INT64);
  const int64_t want[6] = {0, 2, 1, 0, 1, 2};
  ck_assert_int_eq(memcmp(tensor_data(nz), want, sizeof want), 0);
  tensor_release(nz);
  /* C order of the view, not of memory */
  ck_ok(tensor_transpose(&tt, t, 0, 1));
  ck_ok(tensor_nonzero(&nz, tt)); /* (0, 1), (2, 0), (2, 1) */
  const int64_t want_t[6] = {0, 1, 2, 0, 2, 1};
  ck_assert_int_eq(memcmp(tensor_data(nz), want_t, sizeof want_t), 0);
  /* the columns index a mask's dims: tt[mask] through the gather */
  tensor_t *cols[2] = {NULL, NULL}, *picked = NULL;
  ck_ok(tensor_select(&cols[0], nz, 1, 0));
  ck_ok(tensor_select(&cols[1], nz, 1, 1));
  ck_ok(tensor_index_gather(&picked, tt, 2, (int64_t[]){0, 1}, (const tensor_t *const *)cols));
  ck_layout(picked, 1, ((int64_t[]){3}), ((int64_t[]){1}));
  ck_assert(isnan(f32_at(picked, 0)));
  ck_assert_float_eq(f32_at(picked, 1), 1.5f);
  ck_assert_float_eq(f32_at(picked, 2), -2.0f);
  tensor_release(picked);
  tensor_release(cols[0]);
  tensor_release(cols[1]);
  tensor_release(nz);
  /* 0-dim tensors: [1, 0] or [0, 0]; complex counts either part; bools any byte */
  tensor_t *s = NULL;
  ck_ok(tensor_scalar_complex128(&s, 0.0, -1.0));
  ck_ok(tensor_nonzero(&nz, s));
  ck_layout(nz, 2, ((int64_t[]){1, 0}), ((int64_t[]){1, 1}));
  tensor_release(nz);
  tensor_release(s);
  ck_ok(tensor_scalar_float64(&s, 0.0));
  ck_ok(tensor_nonzero(&nz, s));
  ck_assert_int_eq(tensor_sizes(nz)[0], 0);
  tensor_release(nz);
  tensor_release(s);
  uint8_t bytes[4] = {0, 2, 0, 1};
  tensor_t *b = NULL;
  ck_ok(tensor_from_buffer(&b, bytes, 4, TENSOR_BOOL, -1, 0, 0, NULL, NULL));
  ck_ok(tensor_nonzero(&nz, b));
  ck_layout(nz, 2, ((int64_t[]){2, 1}), ((int64_t[]){1, 1}));
  ck_assert_int_eq(((int64_t *)tensor_data(nz))[0], 1);
  ck_assert_int_eq(((int64_t *)tensor_data(nz))[1], 3);
  tensor_release(nz);
  /* gathering bools stores them as 0/1, as copies do */
  tensor_t *all = int64_tensor(1, (int64_t[]){4}, (int64_t[]){0, 1, 2, 3}), *g = NULL;
  ck_ok(tensor_index_gather(&g, b, 1, (int64_t[]){0}, (const tensor_t *const *)&all));
  ck_assert_int_eq(((uint8_t *)tensor_data(g))[1], 1);
  tensor_release(g);
  tensor_release(all);
  tensor_release(b);
  /* empty tensors */
  tensor_t *e = NULL;
  ck_ok(tensor_zeros(&e, 2, (int64_t[]){0, 3}, TENSOR_INT16));
  ck_ok(tensor_nonzero(&nz, e));
  ck_layout(nz, 2, ((int64_t[]){0, 2}), ((int64_t[]){2, 1}));
  tensor_release(nz);
  tensor_release(e);
  ck_status(tensor_nonzero(NULL, t), TENSOR_E_INVALID);
  ck_status(tensor_nonzero(&nz, NULL), TENSOR_E_INVALID);
  tensor_release(tt);
  tensor_release(t);
}
END_TEST

static Suite *gather_suite(void) {
  Suite *s = suite_create("gather");
  TCase *tc = tcase_create("core");
  tcase_set_timeout(tc, 120);
  tcase_add_loop_test(tc, gather_and_put_match_reference, 0, 4);
  tcase_add_test(tc, gather_layouts);
  tcase_add_test(tc, gather_indices_wrap_and_check);
  tcase_add_test(tc, gather_rejections);
  tcase_add_test(tc, put_rules);
  tcase_add_test(tc, put_values_sharing_memory);
  tcase_add_test(tc, large_blocks_and_threads);
  tcase_add_test(tc, nonzero_and_masks);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(gather_suite()); }
