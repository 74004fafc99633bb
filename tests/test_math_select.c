/* Math, continued: clamp, where, argmax/argmin, cumsum/cumprod,
   softmax/log_softmax and their _into forms. Values against PyTorch live in
   tests/differential/test_new_ops_torch.py; this suite checks the C contract:
   statuses, shapes, ownership (valgrind), read-only and device memory, NULLs,
   and the output layout rule for reversed operands. */
#include <math.h>

#include "common.h"

static tensor_t *floats(int64_t ndim, const int64_t *sizes, const float *values) {
  tensor_t *t = NULL;
  ck_ok(tensor_from_data(&t, values, ndim, sizes, TENSOR_FLOAT32));
  return t;
}

static float at(const tensor_t *t, int64_t i) { return ((const float *)tensor_data(t))[i]; }
static int64_t at64(const tensor_t *t, int64_t i) { return ((const int64_t *)tensor_data(t))[i]; }

START_TEST(reversed_operands_give_contiguous_outputs) {
  /* sub(a[::-1,::-1,::-1], b[::-1,::-1,::-1]) of shape [33,1,3] */
  int64_t n = 99, shape[] = {33, 1, 3}, back[] = {-3, -3, -1}, want[] = {3, 3, 1};
  tensor_t *flat = NULL, *rev = NULL, *out = NULL;
  ck_ok(tensor_zeros(&flat, 1, &n, TENSOR_FLOAT32));
  for (int64_t i = 0; i < n; ++i) ((float *)tensor_data(flat))[i] = (float)i;
  ck_ok(tensor_as_strided(&rev, flat, 3, shape, back, 98));
  ck_ok(tensor_add(&out, rev, rev));
  ck_layout(out, 3, shape, want);
  ck_assert_float_eq(at(out, 0), 196.0f);
  ck_assert_float_eq(at(out, 98), 0.0f);
  tensor_release(out);
  ck_ok(tensor_neg(&out, rev));
  ck_layout(out, 3, shape, want);
  tensor_release(out);
  tensor_release(rev);
  tensor_release(flat);
}
END_TEST

START_TEST(clamp_bounds) {
  const float v[] = {1.0f, NAN, 3.0f, -2.0f};
  int64_t four = 4;
  tensor_t *x = floats(1, &four, v), *lo = NULL, *hi = NULL, *nan_bound = NULL, *out = NULL;
  ck_ok(tensor_scalar_int64(&lo, 0));
  ck_ok(tensor_scalar_float64(&hi, 2.0));
  ck_ok(tensor_scalar_float64(&nan_bound, NAN));
  ck_ok(tensor_clamp(&out, x, lo, hi));
  ck_assert_int_eq(tensor_dtype(out), TENSOR_FLOAT32);
  ck_assert_float_eq(at(out, 0), 1.0f);
  ck_assert(isnan(at(out, 1))); /* a NaN input stays NaN */
  ck_assert_float_eq(at(out, 2), 2.0f);
  ck_assert_float_eq(at(out, 3), 0.0f);
  tensor_release(out);
  ck_ok(tensor_clamp(&out, x, NULL, hi));
  ck_assert_float_eq(at(out, 3), -2.0f);
  tensor_release(out);
  ck_ok(tensor_clamp(&out, x, hi, lo)); /* min > max gives max */
  ck_assert_float_eq(at(out, 0), 0.0f);
  tensor_release(out);
  ck_ok(tensor_clamp(&out, x, nan_bound, hi)); /* a NaN bound gives NaN */
  ck_assert(isnan(at(out, 0)) && isnan(at(out, 3)));
  tensor_release(out);
  ck_ok(tensor_clamp(&out, x, nan_bound, NULL)); /* ... but PyTorch passes a lone NaN number over */
  ck_assert_float_eq(at(out, 0), 1.0f);
  ck_assert_float_eq(at(out, 3), -2.0f);
  tensor_release(out);
  ck_status(tensor_clamp(&out, x, NULL, NULL), TENSOR_E_INVALID);
  ck_assert_ptr_null(out);
  ck_status(tensor_clamp(&out, NULL, lo, NULL), TENSOR_E_INVALID);
  ck_status(tensor_clamp(NULL, x, lo, NULL), TENSOR_E_INVALID);
  /* int8 with an int bound stays int8; a float bound gives float32 */
  int8_t small[] = {1, 5, -3};
  int64_t three = 3;
  tensor_t *i8 = NULL, *b = NULL, *c = NULL;
  ck_ok(tensor_from_data(&i8, small, 1, &three, TENSOR_INT8));
  ck_ok(tensor_clamp(&out, i8, lo, NULL));
  ck_assert_int_eq(tensor_dtype(out), TENSOR_INT8);
  ck_assert_int_eq(((int8_t *)tensor_data(out))[2], 0);
  tensor_release(out);
  ck_ok(tensor_clamp(&out, i8, NULL, hi));
  ck_assert_int_eq(tensor_dtype(out), TENSOR_FLOAT32);
  tensor_release(out);
  /* complex, and bool with both bounds, are refused, as PyTorch */
  ck_ok(tensor_scalar_bool(&b, 1));
  ck_ok(tensor_zeros(&c, 1, &three, TENSOR_BOOL));
  ck_status(tensor_clamp(&out, c, b, b), TENSOR_E_DTYPE);
  ck_ok(tensor_clamp(&out, c, b, NULL)); /* one bound: logical or, as PyTorch's clamp_min */
  ck_assert_int_eq(tensor_dtype(out), TENSOR_BOOL);
  ck_assert_int_eq(((uint8_t *)tensor_data(out))[0], 1);
  tensor_release(out);
  tensor_release(c);
  ck_ok(tensor_zeros(&c, 1, &three, TENSOR_COMPLEX64));
  ck_status(tensor_clamp(&out, c, lo, NULL), TENSOR_E_DTYPE);
  /* broadcasting bounds */
  int64_t two_by_four[] = {2, 4};
  tensor_t *wide = NULL;
  ck_ok(tensor_zeros(&wide, 2, two_by_four, TENSOR_FLOAT32));
  ck_ok(tensor_clamp(&out, x, wide, NULL));
  ck_assert_int_eq(tensor_ndim(out), 2);
  ck_assert_int_eq(tensor_sizes(out)[0], 2);
  tensor_release(out);
  tensor_t *ts[] = {x, lo, hi, nan_bound, i8, b, c, wide};
  for (size_t i = 0; i < sizeof ts / sizeof *ts; ++i) tensor_release(ts[i]);
}
END_TEST

START_TEST(clamp_and_where_into) {
  const float v[] = {-1.0f, 0.5f, 3.0f, 7.0f};
  int64_t four = 4, two = 2;
  tensor_t *x = floats(1, &four, v), *lo = NULL, *hi = NULL, *i32 = NULL, *f64 = NULL, *short_dst = NULL;
  ck_ok(tensor_scalar_int64(&lo, 0));
  ck_ok(tensor_scalar_int64(&hi, 1));
  ck_ok(tensor_clamp_into(x, x, lo, hi)); /* in place */
  ck_assert_float_eq(at(x, 0), 0.0f);
  ck_assert_float_eq(at(x, 1), 0.5f);
  ck_assert_float_eq(at(x, 3), 1.0f);
  ck_ok(tensor_zeros(&i32, 1, &four, TENSOR_INT32));
  ck_status(tensor_clamp_into(i32, x, lo, hi), TENSOR_E_DTYPE); /* float into int */
  ck_ok(tensor_zeros(&f64, 1, &four, TENSOR_FLOAT64));
  ck_ok(tensor_clamp_into(f64, x, lo, hi));
  ck_assert_double_eq(((double *)tensor_data(f64))[1], 0.5);
  ck_ok(tensor_zeros(&short_dst, 1, &two, TENSOR_FLOAT32));
  ck_status(tensor_clamp_into(short_dst, x, lo, hi), TENSOR_E_SHAPE);
  ck_status(tensor_clamp_into(NULL, x, lo, hi), TENSOR_E_INVALID);
  float ro[4] = {0};
  tensor_t *readonly = NULL, *cond = NULL;
  ck_ok(tensor_from_buffer(&readonly, ro, sizeof ro, TENSOR_FLOAT32, 4, 0, TENSOR_READONLY, NULL, NULL));
  ck_status(tensor_clamp_into(readonly, x, lo, hi), TENSOR_E_READONLY);
  ck_ok(tensor_clamp(&cond, readonly, lo, NULL)); /* read-only inputs are fine */
  tensor_release(cond);
  const uint8_t mask[] = {1, 0, 1, 0};
  ck_ok(tensor_from_data(&cond, mask, 1, &four, TENSOR_BOOL));
  ck_ok(tensor_where_into(f64, cond, x, lo));
  ck_assert_double_eq(((double *)tensor_data(f64))[0], 0.0);
  ck_assert_double_eq(((double *)tensor_data(f64))[1], 0.0);
  ck_assert_double_eq(((double *)tensor_data(f64))[2], 1.0);
  ck_status(tensor_where_into(readonly, cond, x, lo), TENSOR_E_READONLY);
  tensor_t *ts[] = {x, lo, hi, i32, f64, short_dst, readonly, cond};
  for (size_t i = 0; i < sizeof ts / sizeof *ts; ++i) tensor_release(ts[i]);
}
END_TEST

START_TEST(where_picks_and_promotes) {
  const uint8_t mask[] = {1, 0, 0, 1};
  const float v[] = {1, 2, 3, 4};
  int64_t four = 4;
  tensor_t *cond = NULL, *x = floats(1, &four, v), *zero = NULL, *out = NULL, *fcond = NULL, *u8 = NULL;
  ck_ok(tensor_from_data(&cond, mask, 1, &four, TENSOR_BOOL));
  ck_ok(tensor_scalar_int64(&zero, 0));
  ck_ok(tensor_where(&out, cond, x, zero));
  ck_assert_int_eq(tensor_dtype(out), TENSOR_FLOAT32);
  ck_assert_float_eq(at(out, 0), 1.0f);
  ck_assert_float_eq(at(out, 1), 0.0f);
  ck_assert_float_eq(at(out, 3), 4.0f);
  tensor_release(out);
  ck_ok(tensor_from_data(&u8, mask, 1, &four, TENSOR_UINT8)); /* uint8 conditions: as PyTorch 1.13 */
  ck_ok(tensor_where(&out, u8, zero, x));
  ck_assert_float_eq(at(out, 1), 2.0f);
  tensor_release(out);
  ck_ok(tensor_from_data(&fcond, v, 1, &four, TENSOR_FLOAT32));
  ck_status(tensor_where(&out, fcond, x, x), TENSOR_E_DTYPE);
  ck_assert_ptr_null(out);
  ck_status(tensor_where(&out, cond, NULL, x), TENSOR_E_INVALID);
  int64_t three = 3;
  tensor_t *other = NULL;
  ck_ok(tensor_zeros(&other, 1, &three, TENSOR_FLOAT32));
  ck_status(tensor_where(&out, cond, x, other), TENSOR_E_SHAPE);
  tensor_t *ts[] = {cond, x, zero, fcond, u8, other};
  for (size_t i = 0; i < sizeof ts / sizeof *ts; ++i) tensor_release(ts[i]);
}
END_TEST

START_TEST(argmax_argmin) {
  const float v[] = {1, NAN, 3, -2, 5, 5};
  int64_t shape[] = {2, 3}, six = 6;
  tensor_t *x = floats(2, shape, v), *out = NULL, *empty = NULL, *b = NULL, *i32 = NULL, *i64 = NULL;
  ck_ok(tensor_argmax(&out, x, TENSOR_ALL_DIMS, 0));
  ck_assert_int_eq(tensor_ndim(out), 0);
  ck_assert_int_eq(tensor_dtype(out), TENSOR_INT64);
  ck_assert_int_eq(at64(out, 0), 1); /* NaN wins */
  tensor_release(out);
  ck_ok(tensor_argmin(&out, x, TENSOR_ALL_DIMS, 1));
  ck_assert_int_eq(tensor_ndim(out), 2);
  ck_assert_int_eq(at64(out, 0), 1);
  tensor_release(out);
  ck_ok(tensor_argmax(&out, x, -1, 0));
  ck_assert_int_eq(tensor_ndim(out), 1);
  ck_assert_int_eq(at64(out, 0), 1);
  ck_assert_int_eq(at64(out, 1), 1); /* the first of two equal maxima */
  tensor_release(out);
  ck_ok(tensor_argmin(&out, x, 0, 1));
  ck_assert_int_eq(tensor_sizes(out)[0], 1);
  ck_assert_int_eq(at64(out, 0), 1);
  ck_assert_int_eq(at64(out, 2), 0);
  tensor_release(out);
  ck_status(tensor_argmax(&out, x, 2, 0), TENSOR_E_INVALID);
  ck_status(tensor_argmax(&out, x, 0, 2), TENSOR_E_INVALID);
  int64_t zero_by_three[] = {0, 3};
  ck_ok(tensor_zeros(&empty, 2, zero_by_three, TENSOR_FLOAT32));
  ck_status(tensor_argmax(&out, empty, 0, 0), TENSOR_E_SHAPE);
  ck_status(tensor_argmax(&out, empty, TENSOR_ALL_DIMS, 0), TENSOR_E_SHAPE);
  ck_ok(tensor_argmax(&out, empty, 1, 0)); /* an empty result */
  ck_assert_int_eq(tensor_numel(out), 0);
  tensor_release(out);
  ck_ok(tensor_zeros(&b, 1, &six, TENSOR_BOOL));
  ck_status(tensor_argmax(&out, b, 0, 0), TENSOR_E_DTYPE);
  int64_t two = 2;
  ck_ok(tensor_zeros(&i32, 1, &two, TENSOR_INT32));
  ck_ok(tensor_zeros(&i64, 1, &two, TENSOR_INT64));
  ck_status(tensor_argmax_into(i32, x, 1, 0), TENSOR_E_DTYPE); /* int64 only, as PyTorch */
  ck_ok(tensor_argmax_into(i64, x, 1, 0));
  ck_assert_int_eq(at64(i64, 0), 1);
  ck_ok(tensor_argmin_into(i64, x, 1, 0));
  ck_assert_int_eq(at64(i64, 1), 0);
  ck_status(tensor_argmin_into(i64, x, 0, 0), TENSOR_E_SHAPE);
  tensor_t *ts[] = {x, empty, b, i32, i64};
  for (size_t i = 0; i < sizeof ts / sizeof *ts; ++i) tensor_release(ts[i]);
}
END_TEST

START_TEST(cumulative_ops) {
  const int8_t v[] = {100, 100, 2, -3, 4, 5};
  int64_t shape[] = {2, 3};
  tensor_t *x = NULL, *out = NULL, *f = NULL, *i32 = NULL;
  ck_ok(tensor_from_data(&x, v, 2, shape, TENSOR_INT8));
  ck_ok(tensor_cumsum(&out, x, 1));
  ck_assert_int_eq(tensor_dtype(out), TENSOR_INT64);
  ck_assert_int_eq(at64(out, 1), 200); /* int64: no int8 wrap */
  ck_assert_int_eq(at64(out, 2), 202);
  ck_assert_int_eq(at64(out, 5), 6);
  tensor_release(out);
  ck_ok(tensor_cumprod(&out, x, 0));
  ck_assert_int_eq(at64(out, 3), -300);
  tensor_release(out);
  ck_status(tensor_cumsum(&out, x, 2), TENSOR_E_INVALID);
  ck_status(tensor_cumsum(&out, NULL, 0), TENSOR_E_INVALID);
  const float fv[] = {0.5f, 2.0f, 4.0f};
  int64_t three = 3;
  f = floats(1, &three, fv);
  ck_ok(tensor_cumprod(&out, f, -1));
  ck_assert_int_eq(tensor_dtype(out), TENSOR_FLOAT32);
  ck_assert_float_eq(at(out, 2), 4.0f);
  tensor_release(out);
  ck_ok(tensor_zeros(&i32, 1, &three, TENSOR_INT32));
  ck_status(tensor_cumsum_into(i32, f, 0), TENSOR_E_DTYPE);
  ck_ok(tensor_cumsum_into(f, f, 0)); /* in place */
  ck_assert_float_eq(at(f, 2), 6.5f);
  tensor_t *ts[] = {x, f, i32};
  for (size_t i = 0; i < sizeof ts / sizeof *ts; ++i) tensor_release(ts[i]);
}
END_TEST

START_TEST(softmax_ops) {
  const float v[] = {1000.0f, 1000.0f, -INFINITY, 0.0f};
  int64_t shape[] = {2, 2};
  tensor_t *x = floats(2, shape, v), *out = NULL, *i = NULL, *f64 = NULL;
  ck_ok(tensor_softmax(&out, x, 1));
  ck_assert_float_eq(at(out, 0), 0.5f); /* max-subtracted: no overflow */
  ck_assert_float_eq(at(out, 2), 0.0f);
  ck_assert_float_eq(at(out, 3), 1.0f);
  tensor_release(out);
  ck_ok(tensor_log_softmax(&out, x, 1));
  ck_assert_float_eq_tol(at(out, 0), -logf(2.0f), 1e-6f);
  ck_assert(isinf(at(out, 2)));
  tensor_release(out);
  ck_ok(tensor_zeros(&i, 2, shape, TENSOR_INT64));
  ck_status(tensor_softmax(&out, i, 0), TENSOR_E_DTYPE);
  ck_status(tensor_log_softmax(&out, x, 5), TENSOR_E_INVALID);
  ck_ok(tensor_zeros(&f64, 2, shape, TENSOR_FLOAT64));
  ck_status(tensor_softmax_into(f64, x, 0), TENSOR_E_DTYPE); /* t's dtype only, as PyTorch */
  ck_ok(tensor_log_softmax_into(x, x, 0));
  ck_assert_float_eq(at(x, 2), -INFINITY);
  tensor_t *ts[] = {x, i, f64};
  for (size_t k = 0; k < sizeof ts / sizeof *ts; ++k) tensor_release(ts[k]);
}
END_TEST

static void no_delete(DLManagedTensor *self) { (void)self; }

START_TEST(device_memory_is_refused) {
  int64_t shape[] = {4};
  DLManagedTensor m;
  fake_device_tensor(&m, shape, no_delete);
  tensor_t *dev = NULL, *host = NULL, *mask = NULL, *out = NULL;
  ck_ok(tensor_from_dlpack_legacy(&dev, &m));
  ck_ok(tensor_zeros(&host, 1, shape, TENSOR_FLOAT32));
  ck_ok(tensor_zeros(&mask, 1, shape, TENSOR_BOOL));
  ck_status(tensor_clamp(&out, dev, host, NULL), TENSOR_E_DEVICE);
  ck_status(tensor_clamp(&out, host, NULL, dev), TENSOR_E_DEVICE);
  ck_status(tensor_where(&out, mask, dev, host), TENSOR_E_DEVICE);
  ck_status(tensor_argmax(&out, dev, 0, 0), TENSOR_E_DEVICE);
  ck_status(tensor_cumsum(&out, dev, 0), TENSOR_E_DEVICE);
  ck_status(tensor_softmax(&out, dev, 0), TENSOR_E_DEVICE);
  ck_status(tensor_cumsum_into(dev, host, 0), TENSOR_E_DEVICE);
  tensor_release(mask);
  tensor_release(dev);
  tensor_release(host);
}
END_TEST

int main(void) {
  Suite *s = suite_create("math_select");
  TCase *tc = tcase_create("math_select");
  tcase_add_test(tc, reversed_operands_give_contiguous_outputs);
  tcase_add_test(tc, clamp_bounds);
  tcase_add_test(tc, clamp_and_where_into);
  tcase_add_test(tc, where_picks_and_promotes);
  tcase_add_test(tc, argmax_argmin);
  tcase_add_test(tc, cumulative_ops);
  tcase_add_test(tc, softmax_ops);
  tcase_add_test(tc, device_memory_is_refused);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
