/* Views: every view function's layouts (checked against PyTorch 1.13's, NumPy's for
   negative slice steps), the elements they reach, storage sharing and read-only
   propagation, and every rejection with its status. */
#include "common.h"

#define SENTINEL ((tensor_t *)(uintptr_t)0x1)
#define LEN(a) ((int64_t)(sizeof(a) / sizeof *(a)))

/* A contiguous int32 tensor holding 0, 1, 2, ... */
static tensor_t *arange(int64_t ndim, const int64_t *sizes) {
  tensor_t *t = NULL;
  ck_ok(tensor_empty(&t, ndim, sizes, TENSOR_INT32));
  int32_t *data = tensor_data(t);
  for (int64_t i = 0; i < tensor_numel(t); ++i) data[i] = (int32_t)i;
  return t;
}

/* The int32 element at `index` of t, read through t's strides. */
static int32_t at(const tensor_t *t, const int64_t *index) {
  const int32_t *p = tensor_data(t);
  for (int64_t d = 0; d < tensor_ndim(t); ++d) p += index[d] * tensor_strides(t)[d];
  return *p;
}

/* Asserts t's layout, storage offset and that it views `base`'s storage. */
static void ck_view_of(const tensor_t *t, const tensor_t *base, int64_t ndim, const int64_t *sizes,
                       const int64_t *strides, int64_t offset) {
  ck_layout(t, ndim, sizes, strides);
  ck_assert_int_eq(tensor_storage_offset(t), offset);
  ck_assert_ptr_eq(tensor_storage(t), tensor_storage(base));
  ck_assert_int_eq(tensor_dtype(t), tensor_dtype(base));
}

/* Runs `call`, which writes `out`, and asserts it fails with `expected` and NULLs out. */
#define ck_fails(out, call, expected) \
  do {                                \
    (out) = SENTINEL;                 \
    ck_status((call), (expected));    \
    ck_assert_ptr_null(out);          \
  } while (0)

static const int64_t s234[3] = {2, 3, 4};

/* ---- as_strided --------------------------------------------------------- */

START_TEST(as_strided_layouts) {
  tensor_t *t = arange(3, s234), *v = NULL;
  const int64_t sizes[2] = {3, 2}, strides[2] = {-4, 0};
  ck_ok(tensor_as_strided(&v, t, 2, sizes, strides, 9));
  ck_view_of(v, t, 2, sizes, strides, 9);
  ck_assert_int_eq(at(v, (int64_t[]){2, 1}), 1);  /* 9 - 8 */
  ck_assert_int_eq(tensor_is_contiguous(v), 0);
  tensor_release(v);

  const int64_t csizes[2] = {4, 6}, cstrides[2] = {6, 1};
  ck_ok(tensor_as_strided(&v, t, 2, csizes, NULL, 0));
  ck_view_of(v, t, 2, csizes, cstrides, 0);
  ck_assert_int_eq(tensor_is_contiguous(v), 1);
  tensor_release(v);

  ck_ok(tensor_as_strided(&v, t, 0, NULL, NULL, 23)); /* 0-dim: the last element */
  ck_assert_int_eq(tensor_ndim(v), 0);
  ck_assert_int_eq(*(int32_t *)tensor_data(v), 23);
  tensor_release(v);
  tensor_release(t);
}
END_TEST

START_TEST(as_strided_bounds) {
  tensor_t *t = arange(3, s234), *v = NULL;
  const int64_t sizes[1] = {5}, ones[1] = {1}, back[1] = {-1};
  ck_fails(v, tensor_as_strided(&v, t, 1, sizes, ones, 20), TENSOR_E_BOUNDS);
  ck_assert_ptr_nonnull(strstr(tensor_last_error(), "96 bytes"));
  ck_fails(v, tensor_as_strided(&v, t, 1, sizes, back, 3), TENSOR_E_BOUNDS);
  /* a non-empty view at a negative offset always reaches before the storage */
  ck_fails(v, tensor_as_strided(&v, t, 1, sizes, ones, -1), TENSOR_E_BOUNDS);
  ck_ok(tensor_as_strided(&v, t, 1, sizes, back, 4)); /* 4, 3, 2, 1, 0 */
  ck_assert_int_eq(at(v, (int64_t[]){4}), 0);
  tensor_release(v);
  /* views with no elements address nothing: any offset and strides */
  const int64_t empty[2] = {0, 7}, wild[2] = {INT64_MAX, -INT64_MAX};
  ck_ok(tensor_as_strided(&v, t, 2, empty, wild, -100));
  ck_assert_int_eq(tensor_numel(v), 0);
  ck_assert_int_eq(tensor_storage_offset(v), -100);
  tensor_release(v);
  tensor_release(t);
}
END_TEST

START_TEST(as_strided_rejections) {
  tensor_t *t = arange(3, s234), *v = NULL;
  const int64_t neg[2] = {2, -1}, big[2] = {INT64_MAX / 2, 4}, huge_strides[2] = {INT64_MAX / 2, 1};
  int64_t many[65];
  for (int i = 0; i < 65; ++i) many[i] = 1;
  ck_fails(v, tensor_as_strided(&v, t, 2, neg, NULL, 0), TENSOR_E_INVALID);
  ck_fails(v, tensor_as_strided(&v, t, 65, many, NULL, 0), TENSOR_E_INVALID);
  ck_fails(v, tensor_as_strided(&v, t, -1, many, NULL, 0), TENSOR_E_INVALID);
  ck_fails(v, tensor_as_strided(&v, t, 2, NULL, NULL, 0), TENSOR_E_INVALID);
  ck_fails(v, tensor_as_strided(&v, t, 2, big, NULL, 0), TENSOR_E_OVERFLOW);
  ck_fails(v, tensor_as_strided(&v, t, 2, (int64_t[]){3, 1}, huge_strides, 0), TENSOR_E_OVERFLOW);
  ck_fails(v, tensor_as_strided(&v, t, 1, (int64_t[]){2}, (int64_t[]){1}, INT64_MAX), TENSOR_E_OVERFLOW);
  ck_fails(v, tensor_as_strided(&v, NULL, 1, neg, NULL, 0), TENSOR_E_INVALID);
  ck_status(tensor_as_strided(NULL, t, 1, s234, NULL, 0), TENSOR_E_INVALID);
  ck_assert_int_eq(tensor_refcount(t), 1);
  tensor_release(t);
}
END_TEST

/* ---- view / reshape / flatten ------------------------------------------- */

START_TEST(view_infers_and_keeps_offset) {
  tensor_t *t = arange(3, s234), *row = NULL, *v = NULL;
  ck_ok(tensor_select(&row, t, 0, 1)); /* [3, 4] at offset 12 */
  ck_ok(tensor_view(&v, row, 3, (int64_t[]){-1, 2, 3}));
  ck_view_of(v, t, 3, ((int64_t[]){2, 2, 3}), ((int64_t[]){6, 3, 1}), 12);
  ck_assert_int_eq(at(v, (int64_t[]){1, 1, 2}), 12 + 11);
  tensor_release(v);
  ck_ok(tensor_view(&v, row, 1, (int64_t[]){12}));
  ck_view_of(v, t, 1, ((int64_t[]){12}), ((int64_t[]){1}), 12);
  tensor_release(v);
  tensor_release(row);
  tensor_release(t);
}
END_TEST

START_TEST(view_non_contiguous_when_possible) {
  /* torch.empty(2,3).t().view(1,3,1,2,1).stride() == (3, 1, 6, 3, 3) */
  tensor_t *t = arange(2, (int64_t[]){2, 3}), *tt = NULL, *v = NULL;
  ck_ok(tensor_transpose(&tt, t, 0, 1));
  ck_ok(tensor_view(&v, tt, 5, (int64_t[]){1, 3, 1, 2, 1}));
  ck_view_of(v, t, 5, ((int64_t[]){1, 3, 1, 2, 1}), ((int64_t[]){3, 1, 6, 3, 3}), 0);
  tensor_release(v);
  ck_ok(tensor_view(&v, tt, 3, (int64_t[]){3, 2, 1}));
  ck_view_of(v, t, 3, ((int64_t[]){3, 2, 1}), ((int64_t[]){1, 3, 3}), 0);
  tensor_release(v);
  /* a split that spans both chunks is impossible */
  ck_fails(v, tensor_view(&v, tt, 1, (int64_t[]){6}), TENSOR_E_STRIDE);
  ck_fails(v, tensor_view(&v, tt, 2, (int64_t[]){2, 3}), TENSOR_E_STRIDE);
  tensor_release(tt);
  tensor_release(t);
}
END_TEST

START_TEST(view_zero_dim_and_empty) {
  tensor_t *s = arange(0, NULL), *e = arange(2, (int64_t[]){0, 3}), *v = NULL;
  ck_ok(tensor_view(&v, s, 3, (int64_t[]){1, -1, 1}));
  ck_view_of(v, s, 3, ((int64_t[]){1, 1, 1}), ((int64_t[]){1, 1, 1}), 0);
  tensor_release(v);
  ck_ok(tensor_view(&v, s, 0, NULL));
  ck_assert_int_eq(tensor_ndim(v), 0);
  tensor_release(v);
  /* no elements: contiguous strides for a new shape (size-0 dims count as 1) */
  ck_ok(tensor_view(&v, e, 3, (int64_t[]){3, -1, 5}));
  ck_view_of(v, e, 3, ((int64_t[]){3, 0, 5}), ((int64_t[]){5, 5, 1}), 0);
  tensor_release(v);
  ck_fails(v, tensor_view(&v, e, 2, (int64_t[]){-1, 0}), TENSOR_E_SHAPE); /* -1 is ambiguous */
  ck_fails(v, tensor_view(&v, e, 3, (int64_t[]){1 << 30, 1 << 30, 1LL << 40}), TENSOR_E_OVERFLOW);
  tensor_release(e);
  tensor_release(s);
}
END_TEST

START_TEST(view_rejections) {
  tensor_t *t = arange(3, s234), *v = NULL;
  ck_fails(v, tensor_view(&v, t, 2, (int64_t[]){-1, -1}), TENSOR_E_SHAPE);
  ck_fails(v, tensor_view(&v, t, 2, (int64_t[]){5, -1}), TENSOR_E_SHAPE);
  ck_fails(v, tensor_view(&v, t, 2, (int64_t[]){5, 5}), TENSOR_E_SHAPE);
  ck_fails(v, tensor_view(&v, t, 2, (int64_t[]){-2, -12}), TENSOR_E_INVALID);
  ck_fails(v, tensor_view(&v, t, 3, (int64_t[]){-1, -1, -2}), TENSOR_E_INVALID); /* < -1 first */
  ck_fails(v, tensor_view(&v, t, 2, NULL), TENSOR_E_INVALID);
  ck_fails(v, tensor_view(&v, t, 65, s234), TENSOR_E_INVALID);
  /* PyTorch compares the wrapped product with numel first ("shape ... is invalid") */
  ck_fails(v, tensor_view(&v, t, 3, (int64_t[]){INT64_MAX, 2, 0}), TENSOR_E_SHAPE);
  ck_fails(v, tensor_view(&v, t, 3, (int64_t[]){INT64_MAX, 3, 0}), TENSOR_E_SHAPE);
  ck_fails(v, tensor_view(&v, t, 4, (int64_t[]){-1, 1LL << 62, 4, -1}), TENSOR_E_SHAPE);
  ck_fails(v, tensor_view(&v, NULL, 1, s234), TENSOR_E_INVALID);
  ck_status(tensor_view(NULL, t, 3, s234), TENSOR_E_INVALID);
  tensor_release(t);
}
END_TEST

/* Shapes with a 0 have no elements whatever the order of the sizes (PyTorch's
   unsigned running product refuses [INT64_MAX, 3, 0] and [2**62, 4, 0]; ctensor
   does not, so every tensor it makes can be viewed again); without a 0 the
   product must fit int64. */
START_TEST(huge_empty_shapes_numel_any_order) {
  const int64_t zero[1] = {0}, one[1] = {1};
  tensor_t *e = NULL, *s = NULL, *v = NULL;
  ck_ok(tensor_empty(&e, 1, zero, TENSOR_FLOAT32));
  ck_ok(tensor_empty(&s, 1, one, TENSOR_FLOAT32));
  const int64_t shapes[4][3] = {{INT64_MAX, 2, 0}, {3, (1LL << 62) + 1, 0}, {INT64_MAX, 3, 0}, {1LL << 62, 4, 0}};
  const int64_t ones[3] = {1, 1, 1};
  for (int i = 0; i < 4; ++i) {
    ck_ok(tensor_view(&v, e, 3, shapes[i]));
    ck_assert_int_eq(tensor_numel(v), 0);
    tensor_release(v);
    ck_ok(tensor_reshape(&v, e, 3, shapes[i]));
    ck_assert_int_eq(tensor_numel(v), 0);
    tensor_release(v);
    ck_ok(tensor_as_strided(&v, e, 3, shapes[i], ones, 0));
    tensor_release(v);
    ck_ok(tensor_as_strided(&v, e, 3, shapes[i], NULL, 0));
    tensor_release(v);
  }
  const int64_t bad[3] = {1LL << 62, 4, 1};
  ck_fails(v, tensor_as_strided(&v, s, 3, bad, ones, 0), TENSOR_E_OVERFLOW);
  ck_fails(v, tensor_expand(&v, s, 3, bad), TENSOR_E_OVERFLOW);
  tensor_release(s);
  tensor_release(e);
}
END_TEST

START_TEST(reshape_views_or_copies) {
  tensor_t *t = arange(3, s234), *tt = NULL, *v = NULL;
  ck_ok(tensor_reshape(&v, t, 2, (int64_t[]){4, -1}));
  ck_view_of(v, t, 2, ((int64_t[]){4, 6}), ((int64_t[]){6, 1}), 0);
  tensor_release(v);

  ck_ok(tensor_transpose(&tt, t, 0, 2)); /* [4, 3, 2] strides [1, 4, 12] */
  ck_ok(tensor_reshape(&v, tt, 2, (int64_t[]){-1, 6}));
  ck_assert_ptr_ne(tensor_storage(v), tensor_storage(t)); /* needed a copy */
  ck_layout(v, 2, ((int64_t[]){4, 6}), ((int64_t[]){6, 1}));
  ck_assert_int_eq(tensor_storage_offset(v), 0);
  for (int64_t i = 0; i < 4; ++i)
    for (int64_t j = 0; j < 6; ++j) /* tt[i][j/2][j%2] = t[j%2][j/2][i] */
      ck_assert_int_eq(at(v, (int64_t[]){i, j}), (j % 2) * 12 + (j / 2) * 4 + i);
  tensor_release(v);
  ck_fails(v, tensor_reshape(&v, tt, 1, (int64_t[]){7}), TENSOR_E_SHAPE);
  ck_fails(v, tensor_reshape(&v, tt, 1, (int64_t[]){-3}), TENSOR_E_INVALID);
  tensor_release(tt);
  tensor_release(t);
}
END_TEST

START_TEST(flatten_rules) {
  tensor_t *t = arange(3, s234), *s = arange(0, NULL), *tt = NULL, *v = NULL;
  ck_ok(tensor_flatten(&v, t, 1, -1));
  ck_view_of(v, t, 2, ((int64_t[]){2, 12}), ((int64_t[]){12, 1}), 0);
  tensor_release(v);
  ck_ok(tensor_flatten(&v, t, 1, 1)); /* start == end: the same layout */
  ck_view_of(v, t, 3, s234, ((int64_t[]){12, 4, 1}), 0);
  tensor_release(v);
  ck_ok(tensor_flatten(&v, s, 0, -1)); /* 0-dim gives [1] */
  ck_view_of(v, s, 1, ((int64_t[]){1}), ((int64_t[]){1}), 0);
  tensor_release(v);
  ck_ok(tensor_transpose(&tt, t, 0, 1)); /* [3, 2, 4] strides [4, 12, 1] */
  ck_ok(tensor_flatten(&v, tt, 0, 1));   /* needs a copy */
  ck_assert_ptr_ne(tensor_storage(v), tensor_storage(t));
  ck_layout(v, 2, ((int64_t[]){6, 4}), ((int64_t[]){4, 1}));
  ck_assert_int_eq(at(v, (int64_t[]){1, 3}), 12 + 3); /* tt[0][1][3] = t[1][0][3] */
  tensor_release(v);
  tensor_t *n = NULL;
  ck_ok(tensor_narrow(&n, t, 2, 0, 2)); /* [2, 3, 2] strides [12, 4, 1]: dims 0-1 merge */
  ck_ok(tensor_flatten(&v, n, 0, 1));
  ck_view_of(v, t, 2, ((int64_t[]){6, 2}), ((int64_t[]){4, 1}), 0);
  tensor_release(v);
  tensor_release(n);
  ck_fails(v, tensor_flatten(&v, t, 2, 1), TENSOR_E_INVALID);
  ck_fails(v, tensor_flatten(&v, t, 0, 3), TENSOR_E_INVALID);
  ck_fails(v, tensor_flatten(&v, s, 0, 1), TENSOR_E_INVALID);
  tensor_release(tt);
  tensor_release(s);
  tensor_release(t);
}
END_TEST

/* ---- transpose / permute ------------------------------------------------ */

START_TEST(transpose_and_permute) {
  tensor_t *t = arange(3, s234), *s = arange(0, NULL), *v = NULL;
  ck_ok(tensor_transpose(&v, t, -1, 0));
  ck_view_of(v, t, 3, ((int64_t[]){4, 3, 2}), ((int64_t[]){1, 4, 12}), 0);
  ck_assert_int_eq(tensor_is_contiguous(v), 0);
  tensor_release(v);
  ck_ok(tensor_transpose(&v, s, 0, -1));
  ck_assert_int_eq(tensor_ndim(v), 0);
  tensor_release(v);
  ck_fails(v, tensor_transpose(&v, t, 0, 3), TENSOR_E_INVALID);
  ck_fails(v, tensor_transpose(&v, s, 0, 1), TENSOR_E_INVALID);

  ck_ok(tensor_permute(&v, t, 3, (int64_t[]){1, -1, 0}));
  ck_view_of(v, t, 3, ((int64_t[]){3, 4, 2}), ((int64_t[]){4, 1, 12}), 0);
  ck_assert_int_eq(at(v, (int64_t[]){2, 3, 1}), 12 + 8 + 3);
  tensor_release(v);
  ck_ok(tensor_permute(&v, s, 0, NULL));
  tensor_release(v);
  ck_fails(v, tensor_permute(&v, t, 2, (int64_t[]){0, 1}), TENSOR_E_INVALID);
  ck_fails(v, tensor_permute(&v, t, 3, (int64_t[]){0, 1, -3}), TENSOR_E_INVALID); /* repeated */
  ck_fails(v, tensor_permute(&v, t, 3, (int64_t[]){0, 1, 3}), TENSOR_E_INVALID);
  ck_fails(v, tensor_permute(&v, t, 3, NULL), TENSOR_E_INVALID);
  tensor_release(s);
  tensor_release(t);
}
END_TEST

/* ---- slice / select / narrow -------------------------------------------- */

START_TEST(slice_positive_steps) {
  tensor_t *t = arange(1, (int64_t[]){10}), *m = arange(3, s234), *v = NULL;
  ck_ok(tensor_slice(&v, t, 0, 1, 8, 3)); /* 1, 4, 7 */
  ck_view_of(v, t, 1, ((int64_t[]){3}), ((int64_t[]){3}), 1);
  tensor_release(v);
  ck_ok(tensor_slice(&v, t, 0, -3, TENSOR_SLICE_END, 1)); /* 7, 8, 9 */
  ck_view_of(v, t, 1, ((int64_t[]){3}), ((int64_t[]){1}), 7);
  tensor_release(v);
  ck_ok(tensor_slice(&v, t, 0, INT64_MIN, 100, 4)); /* clamped: 0, 4, 8 */
  ck_view_of(v, t, 1, ((int64_t[]){3}), ((int64_t[]){4}), 0);
  tensor_release(v);
  /* empty: PyTorch's offset, start clamped into [0, size] */
  ck_ok(tensor_slice(&v, t, 0, 5, 2, 2));
  ck_view_of(v, t, 1, ((int64_t[]){0}), ((int64_t[]){2}), 5);
  tensor_release(v);
  ck_ok(tensor_slice(&v, t, 0, 70, 90, 1));
  ck_view_of(v, t, 1, ((int64_t[]){0}), ((int64_t[]){1}), 10);
  tensor_release(v);
  ck_ok(tensor_slice(&v, m, -2, 1, TENSOR_SLICE_END, 1));
  ck_view_of(v, m, 3, ((int64_t[]){2, 2, 4}), ((int64_t[]){12, 4, 1}), 4);
  tensor_release(v);
  tensor_release(m);
  tensor_release(t);
}
END_TEST

START_TEST(slice_negative_steps) {
  tensor_t *t = arange(1, (int64_t[]){10}), *m = arange(3, s234), *v = NULL, *w = NULL;
  ck_ok(tensor_slice(&v, t, 0, TENSOR_SLICE_END, INT64_MIN, -1)); /* [::-1] */
  ck_view_of(v, t, 1, ((int64_t[]){10}), ((int64_t[]){-1}), 9);
  for (int64_t i = 0; i < 10; ++i) ck_assert_int_eq(at(v, &i), 9 - i);
  ck_ok(tensor_slice(&w, v, 0, 1, INT64_MIN, -4)); /* v[1::-4] = [8] */
  ck_view_of(w, t, 1, ((int64_t[]){1}), ((int64_t[]){4}), 8);
  tensor_release(w);
  ck_ok(tensor_slice(&w, v, 0, 2, 9, 3)); /* v[2:9:3] = 7, 4, 1 */
  ck_view_of(w, t, 1, ((int64_t[]){3}), ((int64_t[]){-3}), 7);
  tensor_release(w);
  tensor_release(v);
  ck_ok(tensor_slice(&v, t, 0, 7, 1, -3)); /* 7, 4 (NumPy) */
  ck_view_of(v, t, 1, ((int64_t[]){2}), ((int64_t[]){-3}), 7);
  tensor_release(v);
  ck_ok(tensor_slice(&v, t, 0, -1, -20, INT64_MIN)); /* step clamped to -INT64_MAX: just 9 */
  ck_assert_int_eq(tensor_sizes(v)[0], 1);
  ck_assert_int_eq(tensor_storage_offset(v), 9);
  tensor_release(v);
  /* empty reversed slices stay at the first element with the old stride, as NumPy */
  ck_ok(tensor_slice(&v, t, 0, 2, 5, -1));
  ck_view_of(v, t, 1, ((int64_t[]){0}), ((int64_t[]){1}), 0);
  tensor_release(v);
  ck_ok(tensor_slice(&v, m, 1, -100, INT64_MAX, -2));
  ck_view_of(v, m, 3, ((int64_t[]){2, 0, 4}), ((int64_t[]){12, 4, 1}), 0);
  tensor_release(v);
  ck_ok(tensor_slice(&v, m, 2, INT64_MAX, INT64_MIN, -2)); /* 3, 1 in each row */
  ck_view_of(v, m, 3, ((int64_t[]){2, 3, 2}), ((int64_t[]){12, 4, -2}), 3);
  ck_assert_int_eq(at(v, (int64_t[]){1, 2, 1}), 12 + 8 + 1);
  tensor_release(v);
  tensor_release(m);
  tensor_release(t);
}
END_TEST

START_TEST(slice_rejections) {
  tensor_t *t = arange(1, (int64_t[]){10}), *s = arange(0, NULL), *v = NULL;
  ck_fails(v, tensor_slice(&v, t, 0, 0, 5, 0), TENSOR_E_INVALID);
  ck_fails(v, tensor_slice(&v, t, 1, 0, 5, 1), TENSOR_E_INVALID);
  ck_fails(v, tensor_slice(&v, t, -2, 0, 5, 1), TENSOR_E_INVALID);
  ck_fails(v, tensor_slice(&v, s, 0, 0, 1, 1), TENSOR_E_INVALID);
  ck_fails(v, tensor_slice(&v, NULL, 0, 0, 1, 1), TENSOR_E_INVALID);
  tensor_release(s);
  tensor_release(t);
}
END_TEST

START_TEST(select_and_narrow) {
  tensor_t *t = arange(3, s234), *s = arange(0, NULL), *v = NULL;
  ck_ok(tensor_select(&v, t, 1, -1));
  ck_view_of(v, t, 2, ((int64_t[]){2, 4}), ((int64_t[]){12, 1}), 8);
  tensor_release(v);
  ck_ok(tensor_select(&v, t, -1, 3));
  ck_view_of(v, t, 2, ((int64_t[]){2, 3}), ((int64_t[]){12, 4}), 3);
  tensor_release(v);
  ck_fails(v, tensor_select(&v, t, 1, 3), TENSOR_E_BOUNDS);
  ck_fails(v, tensor_select(&v, t, 1, -4), TENSOR_E_BOUNDS);
  ck_fails(v, tensor_select(&v, t, 3, 0), TENSOR_E_INVALID);
  ck_fails(v, tensor_select(&v, s, 0, 0), TENSOR_E_INVALID);

  ck_ok(tensor_narrow(&v, t, 2, -3, 2));
  ck_view_of(v, t, 3, ((int64_t[]){2, 3, 2}), ((int64_t[]){12, 4, 1}), 1);
  tensor_release(v);
  ck_ok(tensor_narrow(&v, t, 1, 3, 0)); /* start == size is a valid empty narrow */
  ck_view_of(v, t, 3, ((int64_t[]){2, 0, 4}), ((int64_t[]){12, 4, 1}), 12);
  tensor_release(v);
  ck_fails(v, tensor_narrow(&v, t, 1, 4, 0), TENSOR_E_BOUNDS);
  ck_fails(v, tensor_narrow(&v, t, 1, -4, 1), TENSOR_E_BOUNDS);
  ck_fails(v, tensor_narrow(&v, t, 1, 2, 2), TENSOR_E_BOUNDS);
  ck_fails(v, tensor_narrow(&v, t, 1, 0, INT64_MAX), TENSOR_E_BOUNDS);
  ck_fails(v, tensor_narrow(&v, t, 1, 0, -1), TENSOR_E_INVALID);
  ck_fails(v, tensor_narrow(&v, t, -4, 0, 1), TENSOR_E_INVALID);
  ck_fails(v, tensor_narrow(&v, s, 0, 0, 1), TENSOR_E_INVALID);
  tensor_release(s);
  tensor_release(t);
}
END_TEST

/* ---- expand / broadcast_to ---------------------------------------------- */

START_TEST(expand_geometry) {
  tensor_t *t = arange(2, (int64_t[]){3, 1}), *s = arange(0, NULL), *v = NULL;
  ck_ok(tensor_expand(&v, t, 3, (int64_t[]){2, -1, 4}));
  ck_view_of(v, t, 3, ((int64_t[]){2, 3, 4}), ((int64_t[]){0, 1, 0}), 0);
  ck_assert_int_eq(at(v, (int64_t[]){1, 2, 3}), 2);
  tensor_release(v);
  /* a new leading size-1 dim gets the stride contiguous with the next */
  ck_ok(tensor_broadcast_to(&v, t, 4, (int64_t[]){1, 1, 3, 1}));
  ck_view_of(v, t, 4, ((int64_t[]){1, 1, 3, 1}), ((int64_t[]){3, 3, 1, 1}), 0);
  tensor_release(v);
  ck_ok(tensor_expand(&v, t, 3, (int64_t[]){1, 3, 0}));
  ck_view_of(v, t, 3, ((int64_t[]){1, 3, 0}), ((int64_t[]){3, 1, 0}), 0);
  tensor_release(v);
  ck_ok(tensor_expand(&v, s, 2, (int64_t[]){1, 5})); /* 0-dim: all strides 0 */
  ck_view_of(v, s, 2, ((int64_t[]){1, 5}), ((int64_t[]){0, 0}), 0);
  tensor_release(v);
  ck_fails(v, tensor_expand(&v, t, 2, (int64_t[]){4, 1}), TENSOR_E_SHAPE);
  ck_fails(v, tensor_expand(&v, t, 1, (int64_t[]){3}), TENSOR_E_SHAPE);
  ck_fails(v, tensor_expand(&v, t, 3, (int64_t[]){-1, 3, 1}), TENSOR_E_SHAPE);
  ck_fails(v, tensor_expand(&v, s, 1, (int64_t[]){-1}), TENSOR_E_SHAPE);
  ck_fails(v, tensor_broadcast_to(&v, t, 2, (int64_t[]){2, 1}), TENSOR_E_SHAPE);
  ck_fails(v, tensor_expand(&v, t, 2, (int64_t[]){3, -2}), TENSOR_E_INVALID);
  ck_fails(v, tensor_expand(&v, t, 65, (int64_t[65]){0}), TENSOR_E_INVALID);
  ck_fails(v, tensor_expand(&v, t, 4, (int64_t[]){1 << 30, 1 << 30, 3, 1 << 30}), TENSOR_E_OVERFLOW);
  tensor_release(s);
  tensor_release(t);
}
END_TEST

/* ---- squeeze / unsqueeze ------------------------------------------------ */

START_TEST(squeeze_and_unsqueeze) {
  tensor_t *t = arange(4, (int64_t[]){1, 3, 1, 2}), *s = arange(0, NULL), *v = NULL;
  ck_ok(tensor_squeeze(&v, t, TENSOR_ALL_DIMS));
  ck_view_of(v, t, 2, ((int64_t[]){3, 2}), ((int64_t[]){2, 1}), 0);
  tensor_release(v);
  ck_ok(tensor_squeeze(&v, t, -2));
  ck_view_of(v, t, 3, ((int64_t[]){1, 3, 2}), ((int64_t[]){6, 2, 1}), 0);
  tensor_release(v);
  ck_ok(tensor_squeeze(&v, t, 1)); /* size 3: unchanged */
  ck_view_of(v, t, 4, ((int64_t[]){1, 3, 1, 2}), ((int64_t[]){6, 2, 2, 1}), 0);
  tensor_release(v);
  ck_ok(tensor_squeeze(&v, s, -1));
  ck_assert_int_eq(tensor_ndim(v), 0);
  tensor_release(v);
  ck_fails(v, tensor_squeeze(&v, t, 4), TENSOR_E_INVALID);
  ck_fails(v, tensor_squeeze(&v, s, 1), TENSOR_E_INVALID);

  tensor_t *m = arange(3, s234);
  ck_ok(tensor_unsqueeze(&v, m, 1)); /* PyTorch: size * stride of the dim it precedes */
  ck_view_of(v, m, 4, ((int64_t[]){2, 1, 3, 4}), ((int64_t[]){12, 12, 4, 1}), 0);
  tensor_release(v);
  ck_ok(tensor_unsqueeze(&v, m, -1));
  ck_view_of(v, m, 4, ((int64_t[]){2, 3, 4, 1}), ((int64_t[]){12, 4, 1, 1}), 0);
  tensor_release(v);
  ck_ok(tensor_unsqueeze(&v, s, -1));
  ck_view_of(v, s, 1, ((int64_t[]){1}), ((int64_t[]){1}), 0);
  tensor_release(v);
  ck_fails(v, tensor_unsqueeze(&v, m, 4), TENSOR_E_INVALID);
  ck_fails(v, tensor_unsqueeze(&v, m, -5), TENSOR_E_INVALID);
  ck_fails(v, tensor_unsqueeze(&v, s, -2), TENSOR_E_INVALID);
  int64_t ones[64];
  for (int i = 0; i < 64; ++i) ones[i] = 1;
  tensor_t *deep = arange(64, ones);
  ck_fails(v, tensor_unsqueeze(&v, deep, 0), TENSOR_E_INVALID);
  ck_ok(tensor_squeeze(&v, deep, TENSOR_ALL_DIMS));
  ck_assert_int_eq(tensor_ndim(v), 0);
  tensor_release(v);
  tensor_release(deep);
  tensor_release(m);
  tensor_release(s);
  tensor_release(t);
}
END_TEST

/* ---- view_dtype --------------------------------------------------------- */

START_TEST(view_dtype_sizes) {
  tensor_t *t = arange(2, (int64_t[]){2, 4}), *row = NULL, *v = NULL; /* int32 */
  ck_ok(tensor_view_dtype(&v, t, TENSOR_FLOAT32)); /* same size: relabel */
  ck_layout(v, 2, ((int64_t[]){2, 4}), ((int64_t[]){4, 1}));
  ck_assert_ptr_eq(tensor_storage(v), tensor_storage(t));
  ck_assert_int_eq(tensor_dtype(v), TENSOR_FLOAT32);
  tensor_release(v);
  ck_ok(tensor_view_dtype(&v, t, TENSOR_UINT8));
  ck_layout(v, 2, ((int64_t[]){2, 16}), ((int64_t[]){16, 1}));
  ck_assert_int_eq(tensor_dtype(v), TENSOR_UINT8);
  tensor_release(v);
  ck_ok(tensor_narrow(&row, t, 1, 2, 2)); /* offset 2 */
  ck_ok(tensor_view_dtype(&v, row, TENSOR_INT64));
  ck_layout(v, 2, ((int64_t[]){2, 1}), ((int64_t[]){2, 1}));
  ck_assert_int_eq(tensor_storage_offset(v), 1);
  ck_assert_ptr_eq(tensor_data(v), tensor_data(row));
  tensor_release(v);
  ck_ok(tensor_view_dtype(&v, row, TENSOR_INT16));
  ck_layout(v, 2, ((int64_t[]){2, 4}), ((int64_t[]){8, 1}));
  ck_assert_int_eq(tensor_storage_offset(v), 4);
  tensor_release(v);
  tensor_release(row);
  tensor_release(t);
}
END_TEST

START_TEST(view_dtype_rejections) {
  tensor_t *t = arange(2, (int64_t[]){2, 3}), *s = arange(0, NULL), *x = NULL, *v = NULL;
  ck_fails(v, tensor_view_dtype(&v, t, 12), TENSOR_E_INVALID);
  ck_fails(v, tensor_view_dtype(&v, t, -1), TENSOR_E_INVALID);
  ck_fails(v, tensor_view_dtype(&v, s, TENSOR_INT16), TENSOR_E_SHAPE);
  ck_ok(tensor_view_dtype(&v, s, TENSOR_UINT32)); /* 0-dim, same size */
  tensor_release(v);
  ck_fails(v, tensor_view_dtype(&v, t, TENSOR_INT64), TENSOR_E_SHAPE); /* 3 not divisible by 2 */
  ck_ok(tensor_transpose(&x, t, 0, 1));                                  /* last stride 3 */
  ck_fails(v, tensor_view_dtype(&v, x, TENSOR_INT16), TENSOR_E_STRIDE);
  tensor_release(x);
  ck_ok(tensor_narrow(&x, t, 1, 1, 2)); /* [2, 2] strides [3, 1] offset 1 */
  ck_fails(v, tensor_view_dtype(&v, x, TENSOR_INT64), TENSOR_E_STRIDE);
  tensor_release(x);
  ck_ok(tensor_narrow(&x, t, 1, 0, 2)); /* offset 0, stride 3 not divisible by 2 */
  ck_fails(v, tensor_view_dtype(&v, x, TENSOR_COMPLEX64), TENSOR_E_STRIDE);
  tensor_release(x);
  tensor_release(s);
  tensor_release(t);
}
END_TEST

/* ---- sharing, read-only, lifetime --------------------------------------- */

START_TEST(views_keep_storage_and_readonly) {
  int32_t buffer[24];
  for (int i = 0; i < 24; ++i) buffer[i] = i;
  tensor_t *t = NULL, *v = NULL, *w = NULL;
  ck_ok(tensor_from_buffer(&t, buffer, sizeof buffer, TENSOR_INT32, -1, 0, TENSOR_READONLY, NULL, NULL));
  ck_ok(tensor_view(&v, t, 3, s234));
  ck_assert_int_eq(tensor_storage_refcount(tensor_storage(t)), 2);
  tensor_release(t); /* the view keeps the storage alive */
  ck_ok(tensor_slice(&w, v, 2, TENSOR_SLICE_END, INT64_MIN, -1));
  ck_assert_int_eq(tensor_is_readonly(w), 1);
  ck_assert_int_eq(at(w, (int64_t[]){1, 2, 0}), 12 + 8 + 3);
  ck_assert_ptr_eq(tensor_storage_data(tensor_storage(w)), buffer);
  tensor_t *copy = NULL; /* reshape's copy is writable */
  ck_ok(tensor_reshape(&copy, w, 1, (int64_t[]){-1}));
  ck_assert_int_eq(tensor_is_readonly(copy), 0);
  ck_assert_int_eq(at(copy, (int64_t[]){1}), 2);
  tensor_release(copy);
  tensor_release(v);
  ck_assert_int_eq(tensor_storage_refcount(tensor_storage(w)), 1);
  tensor_release(w);
}
END_TEST

START_TEST(many_dims_views) {
  /* more dims than fit inline in a tensor */
  int64_t sizes[10];
  for (int i = 0; i < 10; ++i) sizes[i] = 2;
  tensor_t *t = arange(10, sizes), *v = NULL, *w = NULL;
  ck_ok(tensor_transpose(&v, t, 0, 9));
  ck_assert_int_eq(tensor_strides(v)[0], 1);
  ck_assert_int_eq(tensor_strides(v)[9], 512);
  ck_ok(tensor_reshape(&w, v, 2, (int64_t[]){32, 32}));
  ck_assert_ptr_ne(tensor_storage(w), tensor_storage(t));
  ck_assert_int_eq(at(w, (int64_t[]){0, 1}), 512);
  tensor_release(w);
  tensor_release(v);
  tensor_release(t);
}
END_TEST

static Suite *views_suite(void) {
  Suite *s = suite_create("views");
  TCase *tc = tcase_create("as_strided");
  tcase_add_test(tc, as_strided_layouts);
  tcase_add_test(tc, as_strided_bounds);
  tcase_add_test(tc, as_strided_rejections);
  suite_add_tcase(s, tc);

  tc = tcase_create("view_reshape_flatten");
  tcase_add_test(tc, view_infers_and_keeps_offset);
  tcase_add_test(tc, view_non_contiguous_when_possible);
  tcase_add_test(tc, view_zero_dim_and_empty);
  tcase_add_test(tc, view_rejections);
  tcase_add_test(tc, huge_empty_shapes_numel_any_order);
  tcase_add_test(tc, reshape_views_or_copies);
  tcase_add_test(tc, flatten_rules);
  suite_add_tcase(s, tc);

  tc = tcase_create("dims");
  tcase_add_test(tc, transpose_and_permute);
  tcase_add_test(tc, slice_positive_steps);
  tcase_add_test(tc, slice_negative_steps);
  tcase_add_test(tc, slice_rejections);
  tcase_add_test(tc, select_and_narrow);
  tcase_add_test(tc, expand_geometry);
  tcase_add_test(tc, squeeze_and_unsqueeze);
  suite_add_tcase(s, tc);

  tc = tcase_create("view_dtype");
  tcase_add_test(tc, view_dtype_sizes);
  tcase_add_test(tc, view_dtype_rejections);
  suite_add_tcase(s, tc);

  tc = tcase_create("sharing");
  tcase_add_test(tc, views_keep_storage_and_readonly);
  tcase_add_test(tc, many_dims_views);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(views_suite()); }
