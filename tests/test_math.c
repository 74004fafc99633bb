/* Math: wrapped-number scalars, promotion, element-wise ops, reductions, item,
   cat/stack, equal/allclose. Values against PyTorch live in
   tests/differential/test_math_torch.py; this suite checks the C contract:
   statuses, ownership (valgrind), read-only and device memory, NULLs. */
#include <math.h>

#include "common.h"

static tensor_t *floats(int64_t ndim, const int64_t *sizes, const float *values) {
  tensor_t *t = NULL;
  ck_ok(tensor_from_data(&t, values, ndim, sizes, TENSOR_FLOAT32));
  return t;
}

static float at(const tensor_t *t, int64_t i) { return ((const float *)tensor_data(t))[i]; }

static tensor_t *readonly_floats(float *buffer, int64_t n) {
  tensor_t *t = NULL;
  ck_ok(tensor_from_buffer(&t, buffer, (size_t)n * sizeof(float), TENSOR_FLOAT32, n, 0, TENSOR_READONLY, NULL, NULL));
  return t;
}

START_TEST(scalars_are_wrapped_numbers) {
  tensor_t *b = NULL, *i = NULL, *f = NULL, *c = NULL, *i8 = NULL, *h = NULL;
  ck_ok(tensor_scalar_bool(&b, 7));
  ck_ok(tensor_scalar_int64(&i, -3));
  ck_ok(tensor_scalar_float64(&f, 2.5));
  ck_ok(tensor_scalar_complex128(&c, 1, -2));
  ck_assert_int_eq(tensor_dtype(b), TENSOR_BOOL);
  ck_assert_int_eq(((uint8_t *)tensor_data(b))[0], 1);
  ck_assert_int_eq(tensor_dtype(i), TENSOR_INT64);
  ck_assert_int_eq(tensor_dtype(f), TENSOR_FLOAT64);
  ck_assert_int_eq(tensor_dtype(c), TENSOR_COMPLEX128);
  ck_assert_int_eq(tensor_ndim(c), 0);
  ck_assert_double_eq(((double *)tensor_data(c))[1], -2);
  int64_t two = 2;
  ck_ok(tensor_zeros(&i8, 1, &two, TENSOR_INT8));
  ck_ok(tensor_zeros(&h, 1, &two, TENSOR_FLOAT16));
  tensor_dtype_t r;
  ck_ok(tensor_result_type(&r, i8, i));
  ck_assert_int_eq(r, TENSOR_INT8); /* an int scalar does not widen int8 */
  ck_ok(tensor_result_type(&r, i8, f));
  ck_assert_int_eq(r, TENSOR_FLOAT32); /* a float scalar: the default float */
  ck_ok(tensor_result_type(&r, h, f));
  ck_assert_int_eq(r, TENSOR_FLOAT16);
  ck_ok(tensor_result_type(&r, h, c));
  ck_assert_int_eq(r, TENSOR_COMPLEX64);
  ck_ok(tensor_result_type(&r, b, i));
  ck_assert_int_eq(r, TENSOR_INT64);
  ck_ok(tensor_result_type(&r, f, i));
  ck_assert_int_eq(r, TENSOR_FLOAT32);
  /* a view of a wrapped number is an ordinary 0-dim tensor */
  tensor_t *v = NULL;
  ck_ok(tensor_as_strided(&v, i, 0, NULL, NULL, 0));
  ck_ok(tensor_result_type(&r, v, f));
  ck_assert_int_eq(r, TENSOR_FLOAT32);
  ck_ok(tensor_result_type(&r, i8, v));
  ck_assert_int_eq(r, TENSOR_INT8);
  tensor_t *f64 = NULL;
  ck_ok(tensor_as_strided(&f64, f, 0, NULL, NULL, 0));
  ck_ok(tensor_result_type(&r, i8, f64));
  ck_assert_int_eq(r, TENSOR_FLOAT64); /* a 0-dim float64 tensor is no Python float */
  ck_status(tensor_scalar_int64(NULL, 1), TENSOR_E_INVALID);
  ck_status(tensor_result_type(NULL, i, i), TENSOR_E_INVALID);
  ck_status(tensor_result_type(&r, NULL, i), TENSOR_E_INVALID);
  tensor_t *ts[] = {b, i, f, c, i8, h, v, f64};
  for (size_t k = 0; k < sizeof ts / sizeof *ts; ++k) tensor_release(ts[k]);
}
END_TEST

START_TEST(unsigned_promotion) {
  int64_t one = 1;
  tensor_t *u16 = NULL, *i16 = NULL, *u32 = NULL, *i32 = NULL, *u64 = NULL, *i64 = NULL, *h = NULL;
  ck_ok(tensor_zeros(&u16, 1, &one, TENSOR_UINT16));
  ck_ok(tensor_zeros(&i16, 1, &one, TENSOR_INT16));
  ck_ok(tensor_zeros(&u32, 1, &one, TENSOR_UINT32));
  ck_ok(tensor_zeros(&i32, 1, &one, TENSOR_INT32));
  ck_ok(tensor_zeros(&u64, 1, &one, TENSOR_UINT64));
  ck_ok(tensor_zeros(&i64, 1, &one, TENSOR_INT64));
  ck_ok(tensor_zeros(&h, 1, &one, TENSOR_FLOAT16));
  tensor_dtype_t r;
  ck_ok(tensor_result_type(&r, u16, i16));
  ck_assert_int_eq(r, TENSOR_INT32);
  ck_ok(tensor_result_type(&r, u32, i32));
  ck_assert_int_eq(r, TENSOR_INT64);
  ck_ok(tensor_result_type(&r, u32, u64));
  ck_assert_int_eq(r, TENSOR_UINT64);
  ck_ok(tensor_result_type(&r, u64, h));
  ck_assert_int_eq(r, TENSOR_FLOAT16);
  ck_status(tensor_result_type(&r, u64, i64), TENSOR_E_DTYPE);
  tensor_t *out = (tensor_t *)1;
  ck_status(tensor_add(&out, u64, i64), TENSOR_E_DTYPE);
  ck_assert_ptr_null(out);
  tensor_t *ts[] = {u16, i16, u32, i32, u64, i64, h};
  for (size_t k = 0; k < sizeof ts / sizeof *ts; ++k) tensor_release(ts[k]);
}
END_TEST

/* tensor_promote_types is the table tensor_result_type uses: every pair of
   dtypes agrees with the result type of two 1-element tensors, failures too. */
START_TEST(promote_types_matches_result_type) {
  static const tensor_dtype_t all[] = {TENSOR_UINT8,   TENSOR_INT8,    TENSOR_INT16,     TENSOR_INT32,      TENSOR_INT64,
                                       TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_FLOAT64,   TENSOR_COMPLEX64,  TENSOR_COMPLEX128,
                                       TENSOR_BOOL,    TENSOR_BFLOAT16, TENSOR_UINT16,   TENSOR_UINT32,     TENSOR_UINT64};
  const size_t n = sizeof all / sizeof *all;
  int64_t one = 1;
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      tensor_t *a = NULL, *b = NULL;
      ck_ok(tensor_zeros(&a, 1, &one, all[i]));
      ck_ok(tensor_zeros(&b, 1, &one, all[j]));
      tensor_dtype_t want = -1, got = -1;
      const tensor_status_t st_want = tensor_result_type(&want, a, b);
      const tensor_status_t st_got = tensor_promote_types(&got, all[i], all[j]);
      ck_assert_int_eq(st_got, st_want);
      ck_assert_int_eq(got, want);
      tensor_release(a);
      tensor_release(b);
    }
  }
  tensor_dtype_t r = 0;
  ck_status(tensor_promote_types(&r, TENSOR_UINT64, TENSOR_INT64), TENSOR_E_DTYPE);
  ck_assert_int_eq(r, -1);
  ck_assert_ptr_nonnull(strstr(tensor_last_error(), "promote_types: no integer dtype holds both uint64 and int64"));
  ck_ok(tensor_promote_types(&r, TENSOR_UINT32, TENSOR_INT32));
  ck_assert_int_eq(r, TENSOR_INT64);
  ck_ok(tensor_promote_types(&r, TENSOR_FLOAT16, TENSOR_BFLOAT16));
  ck_assert_int_eq(r, TENSOR_FLOAT32);
  ck_ok(tensor_promote_types(&r, TENSOR_COMPLEX64, TENSOR_FLOAT64));
  ck_assert_int_eq(r, TENSOR_COMPLEX128);
  ck_status(tensor_promote_types(NULL, TENSOR_INT8, TENSOR_INT8), TENSOR_E_INVALID);
  ck_status(tensor_promote_types(&r, 8, TENSOR_INT8), TENSOR_E_INVALID);
  ck_assert_int_eq(r, -1);
  ck_status(tensor_promote_types(&r, TENSOR_INT8, -1), TENSOR_E_INVALID);
}
END_TEST

START_TEST(binary_ops_broadcast) {
  const float av[] = {1, 2, 3, 4, 5, 6}, bv[] = {10, 20, 30};
  int64_t as[] = {2, 3}, bs[] = {3};
  tensor_t *a = floats(2, as, av), *b = floats(1, bs, bv), *out = NULL;
  ck_ok(tensor_add(&out, a, b));
  ck_assert_int_eq(tensor_ndim(out), 2);
  ck_assert_int_eq(tensor_sizes(out)[0], 2);
  ck_assert_float_eq(at(out, 4), 25);
  ck_assert_int_eq(tensor_refcount(out), 1);
  tensor_release(out);
  ck_ok(tensor_div(&out, b, a));
  ck_assert_float_eq(at(out, 5), 5);
  tensor_release(out);
  ck_ok(tensor_gt(&out, a, b));
  ck_assert_int_eq(tensor_dtype(out), TENSOR_BOOL);
  tensor_release(out);
  int64_t four = 4;
  tensor_t *c = NULL;
  ck_ok(tensor_zeros(&c, 1, &four, TENSOR_FLOAT32));
  out = (tensor_t *)1;
  ck_status(tensor_mul(&out, a, c), TENSOR_E_SHAPE);
  ck_assert_ptr_null(out);
  ck_status(tensor_mul(NULL, a, b), TENSOR_E_INVALID);
  ck_status(tensor_mul(&out, NULL, b), TENSOR_E_INVALID);
  ck_status(tensor_mul(&out, a, NULL), TENSOR_E_INVALID);
  tensor_release(a);
  tensor_release(b);
  tensor_release(c);
}
END_TEST

START_TEST(integer_division_and_powers) {
  const int32_t v[] = {7, -7, 0, 1, -1, 2};
  const int32_t z[] = {0, 0, 0, -3, -3, -1};
  int64_t n = 6;
  tensor_t *a = NULL, *b = NULL, *q = NULL, *p = NULL;
  ck_ok(tensor_from_data(&a, v, 1, &n, TENSOR_INT32));
  ck_ok(tensor_from_data(&b, z, 1, &n, TENSOR_INT32));
  ck_ok(tensor_div(&q, a, b));
  ck_assert_int_eq(tensor_dtype(q), TENSOR_FLOAT32);
  ck_assert(isinf(at(q, 0)) && at(q, 0) > 0);
  ck_assert(isinf(at(q, 1)) && at(q, 1) < 0);
  ck_assert(isnan(at(q, 2)));
  ck_ok(tensor_pow(&p, a, b));
  const int32_t *r = tensor_data(p);
  const int32_t expected[] = {1, 1, 1, 1, -1, 0};
  for (int i = 0; i < 6; ++i) ck_assert_int_eq(r[i], expected[i]);
  tensor_t *neg = NULL, *out = NULL;
  ck_ok(tensor_scalar_int64(&neg, -1));
  ck_status(tensor_pow(&out, a, neg), TENSOR_E_INVALID);
  tensor_release(neg);
  tensor_t *bools = NULL;
  ck_ok(tensor_ne(&bools, a, b));
  ck_status(tensor_sub(&out, bools, a), TENSOR_E_DTYPE);
  ck_status(tensor_pow(&out, bools, bools), TENSOR_E_DTYPE);
  ck_status(tensor_neg(&out, bools), TENSOR_E_DTYPE);
  ck_status(tensor_abs(&out, bools), TENSOR_E_DTYPE);
  tensor_t *ts[] = {a, b, q, p, bools};
  for (size_t k = 0; k < sizeof ts / sizeof *ts; ++k) tensor_release(ts[k]);
}
END_TEST

START_TEST(binary_into_rules) {
  const float av[] = {1, 2, 3, 4};
  int64_t s[] = {2, 2};
  tensor_t *a = floats(2, s, av), *one = NULL;
  ck_ok(tensor_scalar_float64(&one, 1));
  ck_ok(tensor_binary_into(a, TENSOR_OP_ADD, a, one)); /* a += 1 */
  ck_assert_float_eq(at(a, 3), 5);
  ck_ok(tensor_binary_into(a, TENSOR_OP_MUL, one, a)); /* dst aliases b */
  ck_assert_float_eq(at(a, 0), 2);
  float ro_values[] = {1, 2, 3, 4};
  tensor_t *ro = readonly_floats(ro_values, 4);
  tensor_t *ro2 = NULL, *sum = NULL;
  ck_ok(tensor_view(&ro2, ro, 2, s));
  ck_ok(tensor_add(&sum, ro2, a)); /* read-only inputs are fine */
  ck_assert_float_eq(at(sum, 3), 9);
  ck_status(tensor_binary_into(ro2, TENSOR_OP_ADD, a, a), TENSOR_E_READONLY);
  ck_assert_float_eq(ro_values[0], 1);
  tensor_t *i = NULL;
  ck_ok(tensor_zeros(&i, 2, s, TENSOR_INT64));
  ck_status(tensor_binary_into(i, TENSOR_OP_ADD, a, a), TENSOR_E_DTYPE);
  ck_ok(tensor_binary_into(i, TENSOR_OP_LT, a, a)); /* bool into int64 */
  ck_ok(tensor_binary_into(a, TENSOR_OP_ADD, i, i)); /* int64 into float32 */
  ck_assert_float_eq(at(a, 2), 0);
  tensor_t *z = NULL;
  int64_t zs[] = {2, 2}, zst[] = {0, 1};
  ck_ok(tensor_as_strided(&z, a, 2, zs, zst, 0));
  ck_status(tensor_binary_into(z, TENSOR_OP_ADD, a, a), TENSOR_E_OVERLAP);
  ck_status(tensor_binary_into(a, 99, a, a), TENSOR_E_INVALID);
  ck_status(tensor_binary_into(NULL, TENSOR_OP_ADD, a, a), TENSOR_E_INVALID);
  tensor_t *ts[] = {a, one, ro, ro2, sum, i, z};
  for (size_t k = 0; k < sizeof ts / sizeof *ts; ++k) tensor_release(ts[k]);
}
END_TEST

START_TEST(reductions) {
  const float v[] = {1, 2, 3, 4, 5, 6};
  int64_t s[] = {2, 3};
  tensor_t *t = floats(2, s, v), *out = NULL;
  ck_ok(tensor_sum(&out, t, 0, NULL, 0));
  ck_assert_int_eq(tensor_ndim(out), 0);
  ck_assert_float_eq(at(out, 0), 21);
  tensor_release(out);
  int64_t d1[] = {-1};
  ck_ok(tensor_mean(&out, t, 1, d1, 1));
  ck_assert_int_eq(tensor_ndim(out), 2);
  ck_assert_int_eq(tensor_sizes(out)[1], 1);
  ck_assert_float_eq(at(out, 1), 5);
  tensor_release(out);
  int64_t d0[] = {0};
  ck_ok(tensor_amax(&out, t, 1, d0, 0));
  ck_assert_float_eq(at(out, 2), 6);
  tensor_release(out);
  ck_ok(tensor_prod(&out, t, 1, d0, 0));
  ck_assert_float_eq(at(out, 0), 4);
  tensor_release(out);
  ck_ok(tensor_amin(&out, t, 0, NULL, 0));
  double x;
  int64_t n;
  ck_ok(tensor_item_float64(&x, out));
  ck_assert_double_eq(x, 1);
  ck_ok(tensor_item_int64(&n, out));
  ck_assert_int_eq(n, 1);
  tensor_release(out);
  ck_status(tensor_item_float64(&x, t), TENSOR_E_SHAPE);
  ck_status(tensor_item_float64(NULL, t), TENSOR_E_INVALID);
  const int8_t iv[] = {100, 100, 100};
  int64_t three = 3;
  tensor_t *i8 = NULL;
  ck_ok(tensor_from_data(&i8, iv, 1, &three, TENSOR_INT8));
  ck_ok(tensor_sum(&out, i8, 0, NULL, 0));
  ck_assert_int_eq(tensor_dtype(out), TENSOR_INT64);
  ck_assert_int_eq(((int64_t *)tensor_data(out))[0], 300);
  tensor_release(out);
  ck_status(tensor_mean(&out, i8, 0, NULL, 0), TENSOR_E_DTYPE);
  int64_t twice[] = {0, 0};
  ck_status(tensor_sum(&out, t, 2, twice, 0), TENSOR_E_INVALID);
  ck_status(tensor_sum(&out, t, 1, NULL, 0), TENSOR_E_INVALID);
  ck_status(tensor_sum(&out, t, 0, NULL, 3), TENSOR_E_INVALID);
  int64_t es[] = {0, 3};
  tensor_t *e = NULL;
  ck_ok(tensor_zeros(&e, 2, es, TENSOR_FLOAT32));
  ck_status(tensor_amax(&out, e, 0, NULL, 0), TENSOR_E_SHAPE);
  ck_ok(tensor_sum(&out, e, 1, d0, 0));
  ck_assert_float_eq(at(out, 2), 0);
  tensor_release(out);
  tensor_release(e);
  tensor_release(i8);
  tensor_release(t);
}
END_TEST

/* Reductions large enough for threads give the same bits for every thread
   count: along the dense dim, across it, and into one element (one dense run,
   and the rows of a slice, which do not merge into one). */
START_TEST(reductions_do_not_depend_on_threads) {
  enum { ROWS = 1031, COLS = 2053 }; /* 8 MiB of float32: room for three threads */
  float *v = malloc(sizeof(float) * ROWS * COLS);
  ck_assert_ptr_nonnull(v);
  for (int64_t i = 0; i < (int64_t)ROWS * COLS; ++i) v[i] = (float)((i * 7919) % 2001 - 1000) / 7.0f;
  const int64_t sizes[] = {ROWS, COLS}, slice_sizes[] = {ROWS, COLS - 3}, slice_strides[] = {COLS, 1};
  tensor_t *t32 = floats(2, sizes, v), *t64 = NULL;
  ck_ok(tensor_to(&t64, t32, TENSOR_FLOAT64, TENSOR_COPY_ALWAYS));
  free(v);
  tensor_status_t (*reduce[])(tensor_t **, const tensor_t *, int64_t, const int64_t *, int32_t) = {
      tensor_sum, tensor_mean, tensor_amax};
  const int64_t d0[] = {0}, d1[] = {1};
  const int32_t threads = tensor_get_num_threads();
  for (int dtype = 0; dtype < 2; ++dtype) {
    tensor_t *t = dtype ? t64 : t32, *slice = NULL;
    ck_ok(tensor_as_strided(&slice, t, 2, slice_sizes, slice_strides, 1));
    const tensor_t *inputs[] = {t, slice};
    for (size_t in = 0; in < 2; ++in)
      for (size_t op = 0; op < sizeof reduce / sizeof *reduce; ++op)
        for (int64_t nd = 0; nd < 3; ++nd) {
          const int64_t *dims = nd == 0 ? NULL : nd == 1 ? d0 : d1;
          tensor_t *one = NULL;
          ck_ok(tensor_set_num_threads(1));
          ck_ok(reduce[op](&one, inputs[in], nd ? 1 : 0, dims, 0));
          for (int32_t n = 2; n <= 3; ++n) {
            tensor_t *many = NULL;
            ck_ok(tensor_set_num_threads(n));
            ck_ok(reduce[op](&many, inputs[in], nd ? 1 : 0, dims, 0));
            ck_assert_int_eq(tensor_numel(many), tensor_numel(one));
            ck_assert_int_eq(memcmp(tensor_data(one), tensor_data(many), (size_t)tensor_numel(one) * tensor_dtype_size(tensor_dtype(one))), 0);
            tensor_release(many);
          }
          tensor_release(one);
        }
    tensor_release(slice);
  }
  ck_ok(tensor_set_num_threads(threads));
  tensor_release(t32);
  tensor_release(t64);
}
END_TEST

/* Outputs of 8 MiB and more are written with streaming stores through an L1
   buffer (where the CPU has them); smaller ones with normal stores. */
enum { STREAMED_BYTES = 8 << 20 };
typedef tensor_status_t (*binary_fn)(tensor_t **, const tensor_t *, const tensor_t *);

static tensor_status_t neg_of_first(tensor_t **out, const tensor_t *a, const tensor_t *b) {
  (void)b;
  return tensor_neg(out, a);
}

/* rows x cols of a value pattern, in `dtype` */
static tensor_t *pattern(int64_t rows, int64_t cols, tensor_dtype_t dtype, int64_t seed) {
  const int64_t sizes[] = {rows, cols}, n = rows * cols;
  float *v = malloc(sizeof(float) * (size_t)n);
  ck_assert_ptr_nonnull(v);
  for (int64_t i = 0; i < n; ++i) v[i] = (float)((i * seed) % 2001 - 1000) / 7.0f;
  tensor_t *t32 = floats(2, sizes, v), *t = NULL;
  free(v);
  ck_ok(tensor_to(&t, t32, dtype, TENSOR_COPY_ALWAYS));
  tensor_release(t32);
  return t;
}

/* op(a, b) with a streamed output against the same op on each half of a's
   dim 0 (outputs under 8 MiB): the same bytes. b is halved too when it has
   a's rows, else broadcast whole. */
static void check_against_halves(binary_fn op, const tensor_t *a, const tensor_t *b) {
  tensor_t *full = NULL;
  ck_ok(op(&full, a, b));
  const size_t item = tensor_dtype_size(tensor_dtype(full));
  ck_assert_int_ge((int64_t)item * tensor_numel(full), STREAMED_BYTES);
  const int64_t rows = tensor_sizes(a)[0], half = rows / 2;
  const int split_b = tensor_ndim(b) == tensor_ndim(a) && tensor_sizes(b)[0] == rows;
  const char *at_row = tensor_data(full);
  for (int64_t start = 0; start < rows; start += half) {
    const int64_t len = start ? rows - half : half;
    tensor_t *an = NULL, *bn = NULL, *part = NULL;
    ck_ok(tensor_narrow(&an, a, 0, start, len));
    if (split_b) ck_ok(tensor_narrow(&bn, b, 0, start, len));
    ck_ok(op(&part, an, split_b ? bn : b));
    const size_t bytes = item * (size_t)tensor_numel(part);
    ck_assert_uint_lt(bytes, STREAMED_BYTES);
    ck_assert_int_eq(memcmp(tensor_data(part), at_row, bytes), 0);
    at_row += bytes;
    tensor_release(an);
    tensor_release(bn);
    tensor_release(part);
  }
  tensor_release(full);
}

/* Every element of a streamed output lands with the value normal stores give:
   outputs of 1, 2, 4, 8 and 16 bytes, float16 computed in float32, broadcasts,
   unary ops, outputs not on a cache line (each row at another offset), flipped
   outputs, in place, for 1 to 3 threads. */
START_TEST(large_outputs_are_complete) {
  enum { ROWS = 2048, COLS = 1031, N = ROWS * COLS }; /* 8.05 MiB of float32 */
  tensor_t *a = pattern(ROWS, COLS, TENSOR_FLOAT32, 7919), *b = pattern(ROWS, COLS, TENSOR_FLOAT32, 104729);
  tensor_t *row = pattern(1, COLS, TENSOR_FLOAT32, 31), *a16 = pattern(2 * ROWS, COLS, TENSOR_FLOAT16, 7919);
  tensor_t *b16 = pattern(2 * ROWS, COLS, TENSOR_FLOAT16, 104729), *a64 = pattern(ROWS / 2, COLS, TENSOR_FLOAT64, 7919);
  tensor_t *b64 = pattern(ROWS / 2, COLS, TENSOR_FLOAT64, 104729);
  tensor_t *c1 = pattern(ROWS / 4, COLS, TENSOR_COMPLEX128, 7919), *c2 = pattern(ROWS / 4, COLS, TENSOR_COMPLEX128, 3);
  tensor_t *i8a = pattern(4 * ROWS, COLS, TENSOR_INT8, 7919), *i8b = pattern(4 * ROWS, COLS, TENSOR_INT8, 104729);
  tensor_t *row1 = NULL;
  ck_ok(tensor_select(&row1, row, 0, 0)); /* [COLS], broadcast over the rows */
  const float *av = tensor_data(a), *bv = tensor_data(b);
  /* outputs of binary_into: the columns [1, COLS] of [ROWS, COLS + 3] (rows
     off the lines, each by another amount) and a tensor's rows in reverse */
  const int64_t wide[] = {ROWS, COLS + 3}, square[] = {ROWS, COLS};
  tensor_t *wide_out = NULL, *columns = NULL, *flat_out = NULL, *flipped = NULL, *in_place = NULL;
  ck_ok(tensor_zeros(&wide_out, 2, wide, TENSOR_FLOAT32));
  ck_ok(tensor_narrow(&columns, wide_out, 1, 1, COLS));
  ck_ok(tensor_zeros(&flat_out, 2, square, TENSOR_FLOAT32));
  ck_ok(tensor_slice(&flipped, flat_out, 0, TENSOR_SLICE_END, INT64_MIN, -1));
  const float *wide_v = tensor_data(wide_out), *flat_v = tensor_data(flat_out);
  const int32_t threads = tensor_get_num_threads();
  for (int32_t n = 1; n <= 3; ++n) {
    ck_ok(tensor_set_num_threads(n));
    check_against_halves(tensor_add, a, b);
    check_against_halves(tensor_sub, a, row1);
    check_against_halves(neg_of_first, a, a);
    check_against_halves(tensor_add, a16, b16);
    check_against_halves(tensor_mul, a64, b64);
    check_against_halves(tensor_add, c1, c2);
    check_against_halves(tensor_lt, i8a, i8b);
    ck_ok(tensor_binary_into(columns, TENSOR_OP_SUB, a, b));
    ck_ok(tensor_binary_into(flipped, TENSOR_OP_ADD, a, b));
    ck_ok(tensor_to(&in_place, a, TENSOR_FLOAT32, TENSOR_COPY_ALWAYS));
    ck_ok(tensor_binary_into(in_place, TENSOR_OP_MUL, in_place, b));
    const float *in_place_v = tensor_data(in_place);
    int64_t wrong = 0; /* (one check at the end: check's asserts write a file each) */
    for (int64_t i = 0; i < N; ++i) {
      const int64_t r = i / COLS, c = i % COLS;
      wrong += wide_v[r * (COLS + 3) + 1 + c] != av[i] - bv[i] ||
               flat_v[(ROWS - 1 - r) * COLS + c] != av[i] + bv[i] || in_place_v[i] != av[i] * bv[i];
    }
    ck_assert_int_eq(wrong, 0);
    tensor_release(in_place);
  }
  ck_ok(tensor_set_num_threads(threads));
  tensor_t *ts[] = {a, b, row, row1, a16, b16, a64, b64, c1, c2, i8a, i8b, wide_out, columns, flat_out, flipped};
  for (size_t i = 0; i < sizeof ts / sizeof *ts; ++i) tensor_release(ts[i]);
}
END_TEST

START_TEST(cat_stack_equal_allclose) {
  const float av[] = {1, 2, 3, 4}, bv[] = {5, 6};
  int64_t as[] = {2, 2}, bs[] = {1, 2};
  tensor_t *a = floats(2, as, av), *b = floats(2, bs, bv), *out = NULL;
  const tensor_t *list[] = {a, b};
  ck_ok(tensor_cat(&out, 2, list, 0));
  ck_assert_int_eq(tensor_sizes(out)[0], 3);
  ck_assert_float_eq(at(out, 5), 6);
  tensor_release(out);
  ck_status(tensor_cat(&out, 2, list, 1), TENSOR_E_SHAPE);
  ck_status(tensor_stack(&out, 2, list, 0), TENSOR_E_SHAPE);
  ck_status(tensor_cat(&out, 0, list, 0), TENSOR_E_INVALID);
  const tensor_t *same[] = {a, a, a};
  ck_ok(tensor_stack(&out, 3, same, -1));
  ck_assert_int_eq(tensor_ndim(out), 3);
  ck_assert_int_eq(tensor_sizes(out)[2], 3);
  ck_assert_float_eq(at(out, 11), 4);
  int32_t r = -1;
  ck_ok(tensor_equal(&r, a, b));
  ck_assert_int_eq(r, 0);
  ck_ok(tensor_equal(&r, a, a));
  ck_assert_int_eq(r, 1);
  ck_ok(tensor_allclose(&r, a, b, 0, 4, 0));
  ck_assert_int_eq(r, 1);
  ck_ok(tensor_allclose(&r, a, b, 0, 3.5, 0));
  ck_assert_int_eq(r, 0);
  ck_status(tensor_allclose(&r, a, b, -1, 0, 0), TENSOR_E_INVALID);
  ck_status(tensor_equal(NULL, a, b), TENSOR_E_INVALID);
  tensor_release(out);
  tensor_release(a);
  tensor_release(b);
}
END_TEST
/* tensor_is_conj marks conj's complex results and their views (PyTorch's
   conjugate bit), not copies, conj_physical, conj of such a result, or real dtypes. */
START_TEST(conj_results_are_marked) {
  const float values[] = {1, 2, -3, 4};
  int64_t n = 2;
  tensor_t *z = NULL, *c = NULL, *view = NULL, *copy = NULL, *twice = NULL, *phys = NULL, *real = NULL, *same = NULL;
  ck_ok(tensor_from_data(&z, values, 1, &n, TENSOR_COMPLEX64));
  ck_ok(tensor_conj(&c, z));
  ck_ok(tensor_select(&view, c, 0, 1));
  ck_ok(tensor_clone(&copy, c));
  ck_ok(tensor_conj(&twice, c));
  ck_ok(tensor_conj_physical(&phys, z));
  ck_ok(tensor_from_data(&real, values, 1, &n, TENSOR_FLOAT32));
  ck_ok(tensor_conj(&same, real));
  ck_assert_int_eq(tensor_is_conj(c), 1);
  ck_assert_int_eq(tensor_is_conj(view), 1);
  ck_assert_int_eq(tensor_is_conj(z), 0);
  ck_assert_int_eq(tensor_is_conj(copy), 0);
  ck_assert_int_eq(tensor_is_conj(twice), 0);
  ck_assert_int_eq(tensor_is_readonly(twice), 1);
  ck_assert_int_eq(tensor_is_conj(phys), 0);
  ck_assert_int_eq(tensor_is_conj(same), 0);
  ck_assert_int_eq(tensor_is_conj(NULL), 0);
  tensor_t *all[] = {z, c, view, copy, twice, phys, real, same};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i) tensor_release(all[i]);
}
END_TEST

/* conj_physical conjugates complex values into a writable tensor; conj's result
   is read-only (it stands for PyTorch's conjugate view); real dtypes share. */
START_TEST(conjugates) {
  const float values[] = {1, 2, -3, 4, 5, -6}; /* 1+2i, -3+4i, 5-6i */
  int64_t n = 3, two = 2;
  tensor_t *z = NULL, *phys = NULL, *lazy = NULL, *real = NULL, *same = NULL, *back = NULL;
  ck_ok(tensor_from_data(&z, values, 1, &n, TENSOR_COMPLEX64));
  ck_ok(tensor_conj_physical(&phys, z));
  ck_ok(tensor_conj(&lazy, z));
  const float *p = tensor_data(phys), *q = tensor_data(lazy);
  for (int i = 0; i < 3; ++i) {
    ck_assert_float_eq(p[2 * i], values[2 * i]);
    ck_assert_float_eq(p[2 * i + 1], -values[2 * i + 1]);
    ck_assert_float_eq(q[2 * i + 1], -values[2 * i + 1]);
  }
  ck_assert_int_eq(tensor_is_readonly(phys), 0);
  ck_assert_int_eq(tensor_is_readonly(lazy), 1);
  ck_status(tensor_copy(lazy, z), TENSOR_E_READONLY);
  ck_ok(tensor_conj_physical(&back, lazy)); /* reading a read-only result is fine */
  int32_t eq = 0;
  ck_ok(tensor_equal(&eq, back, z));
  ck_assert_int_eq(eq, 1);
  { /* conj keeps a transposed layout (preserve format, as resolve_conj()) */
    const int64_t rows_cols[] = {3, 1}, t_sizes[] = {1, 3}, t_strides[] = {1, 1};
    tensor_t *column = NULL, *row = NULL, *c = NULL;
    ck_ok(tensor_from_data(&column, values, 2, rows_cols, TENSOR_COMPLEX64));
    ck_ok(tensor_transpose(&row, column, 0, 1));
    ck_ok(tensor_conj(&c, row));
    ck_layout(c, 2, t_sizes, t_strides);
    tensor_release(c);
    tensor_release(row);
    tensor_release(column);
  }
  ck_ok(tensor_from_data(&real, values, 1, &two, TENSOR_FLOAT32));
  ck_ok(tensor_conj(&same, real));
  ck_assert_ptr_eq(same, real);
  tensor_release(same);
  ck_ok(tensor_conj_physical(&same, real));
  ck_assert_ptr_eq(same, real);
  tensor_release(same);
  ck_status(tensor_conj(NULL, z), TENSOR_E_INVALID);
  ck_status(tensor_conj_physical(&same, NULL), TENSOR_E_INVALID);
  ck_assert_ptr_null(same);
  tensor_release(real);
  tensor_release(back);
  tensor_release(lazy);
  tensor_release(phys);
  tensor_release(z);
}
END_TEST


static void no_delete(DLManagedTensor *self) { (void)self; }

/* Every op refuses memory the CPU cannot address, without touching it. */
START_TEST(device_memory_is_refused) {
  int64_t shape[] = {4};
  DLManagedTensor m;
  fake_device_tensor(&m, shape, no_delete);
  tensor_t *dev = NULL, *host = NULL, *out = NULL;
  ck_ok(tensor_from_dlpack_legacy(&dev, &m));
  ck_ok(tensor_zeros(&host, 1, shape, TENSOR_FLOAT32));
  tensor_status_t (*binary[])(tensor_t **, const tensor_t *, const tensor_t *) = {
      tensor_add, tensor_sub, tensor_mul, tensor_div, tensor_pow, tensor_maximum, tensor_minimum,
      tensor_eq, tensor_ne, tensor_lt, tensor_le, tensor_gt, tensor_ge};
  for (size_t k = 0; k < sizeof binary / sizeof *binary; ++k) {
    ck_status(binary[k](&out, dev, host), TENSOR_E_DEVICE);
    ck_status(binary[k](&out, host, dev), TENSOR_E_DEVICE);
  }
  for (tensor_op_t op = TENSOR_OP_ADD; op <= TENSOR_OP_GE; ++op) {
    ck_status(tensor_binary_into(dev, op, host, host), TENSOR_E_DEVICE);
    ck_status(tensor_binary_into(host, op, dev, host), TENSOR_E_DEVICE);
  }
  tensor_status_t (*reduce[])(tensor_t **, const tensor_t *, int64_t, const int64_t *, int32_t) = {
      tensor_sum, tensor_mean, tensor_prod, tensor_amax, tensor_amin};
  for (size_t k = 0; k < sizeof reduce / sizeof *reduce; ++k) ck_status(reduce[k](&out, dev, 0, NULL, 0), TENSOR_E_DEVICE);
  ck_status(tensor_neg(&out, dev), TENSOR_E_DEVICE);
  ck_status(tensor_abs(&out, dev), TENSOR_E_DEVICE);
  ck_ok(tensor_conj(&out, dev)); /* a real dtype: dev itself, no element touched */
  ck_assert_ptr_eq(out, dev);
  tensor_release(out);
  const tensor_t *list[] = {host, dev};
  ck_status(tensor_cat(&out, 2, list, 0), TENSOR_E_DEVICE);
  ck_status(tensor_stack(&out, 2, list, 0), TENSOR_E_DEVICE);
  int32_t r;
  ck_status(tensor_equal(&r, dev, host), TENSOR_E_DEVICE);
  ck_status(tensor_allclose(&r, host, dev, 0, 0, 0), TENSOR_E_DEVICE);
  tensor_t *one = NULL;
  int64_t one_size = 1;
  ck_ok(tensor_as_strided(&one, dev, 1, &one_size, NULL, 0));
  double x;
  ck_status(tensor_item_float64(&x, one), TENSOR_E_DEVICE);
  tensor_release(one);
  tensor_release(dev);
  tensor_release(host);
}
END_TEST

int main(void) {
  Suite *s = suite_create("math");
  TCase *tc = tcase_create("math");
  tcase_add_test(tc, scalars_are_wrapped_numbers);
  tcase_add_test(tc, unsigned_promotion);
  tcase_add_test(tc, promote_types_matches_result_type);
  tcase_add_test(tc, binary_ops_broadcast);
  tcase_add_test(tc, integer_division_and_powers);
  tcase_add_test(tc, binary_into_rules);
  tcase_add_test(tc, reductions);
  tcase_add_test(tc, reductions_do_not_depend_on_threads);
  tcase_add_test(tc, large_outputs_are_complete);
  tcase_add_test(tc, cat_stack_equal_allclose);
  tcase_add_test(tc, conjugates);
  tcase_add_test(tc, conj_results_are_marked);
  tcase_add_test(tc, device_memory_is_refused);
  tcase_set_timeout(tc, 120); /* the streamed outputs are tens of MiB: slow under ASan and valgrind */
  suite_add_tcase(s, tc);
  return run_suite(s);
}
