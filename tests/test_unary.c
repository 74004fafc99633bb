/* The unary family (tensor_unary, tensor_unary_into, tensor_exp ...): the C
   contract. Values against PyTorch live in tests/differential/test_unary_torch.py;
   this suite checks dtype rules, refusals, out=/in-place rules, read-only and
   device memory, overlap, NULLs and the named functions' agreement with the
   op codes. */
#include <math.h>

#include "common.h"

#define NUM_UOPS (TENSOR_UOP_BITWISE_NOT + 1)

/* The named functions, in TENSOR_UOP_* order. */
static tensor_status_t (*const named[NUM_UOPS])(tensor_t **, const tensor_t *) = {
    tensor_neg,   tensor_abs,   tensor_exp,     tensor_exp2,  tensor_expm1,      tensor_log,       tensor_log2,
    tensor_log10, tensor_log1p, tensor_sqrt,    tensor_rsqrt, tensor_sin,        tensor_cos,       tensor_tan,
    tensor_asin,  tensor_acos,  tensor_atan,    tensor_sinh,  tensor_cosh,       tensor_tanh,      tensor_sigmoid,
    tensor_relu,  tensor_gelu,  tensor_erf,     tensor_floor, tensor_ceil,       tensor_round,     tensor_trunc,
    tensor_frac,  tensor_sign,  tensor_reciprocal, tensor_square, tensor_isnan, tensor_isinf, tensor_isfinite,
    tensor_logical_not, tensor_bitwise_not};

/* PyTorch 1.13's rules, as probed with it: the result kind ('f' default float
   for bool/integers, '=' same, 'r' complex to real, 'w' bool to int64, 'b'
   bool) and the refused input kinds (b, i, f, c). */
static const struct {
  char rule;
  const char *refused;
} rules[NUM_UOPS] = {
    {'=', "b"},   {'r', "b"},  {'f', ""},  {'f', "c"},   {'f', "c"},  {'f', ""},    {'f', ""},   {'f', ""},
    {'f', "c"},   {'f', ""},   {'f', ""},  {'f', ""},    {'f', ""},   {'f', ""},    {'f', ""},   {'f', ""},
    {'f', ""},    {'f', ""},   {'f', ""},  {'f', ""},    {'f', ""},   {'=', "bc"},  {'=', "bic"}, {'f', "c"},
    {'=', "bc"},  {'=', "bc"}, {'=', "bc"}, {'=', "bc"}, {'=', "bic"}, {'=', "c"},  {'f', ""},   {'w', ""},
    {'b', ""},    {'b', ""},   {'b', ""},  {'b', ""},    {'=', "fc"}};

static const tensor_dtype_t all_dtypes[] = {TENSOR_BOOL,    TENSOR_UINT8,    TENSOR_INT8,      TENSOR_INT16,
                                            TENSOR_INT32,   TENSOR_INT64,    TENSOR_UINT16,    TENSOR_UINT32,
                                            TENSOR_UINT64,  TENSOR_FLOAT16,  TENSOR_BFLOAT16,  TENSOR_FLOAT32,
                                            TENSOR_FLOAT64, TENSOR_COMPLEX64, TENSOR_COMPLEX128};

static char kind_letter(tensor_dtype_t d) { return "bifc"[tensor_dtype_kind(d)]; }

static tensor_dtype_t expected_dtype(int op, tensor_dtype_t d) {
  const char k = kind_letter(d);
  switch (rules[op].rule) {
    case 'f': return k == 'b' || k == 'i' ? TENSOR_FLOAT32 : d;
    case 'r': return d == TENSOR_COMPLEX64 ? TENSOR_FLOAT32 : d == TENSOR_COMPLEX128 ? TENSOR_FLOAT64 : d;
    case 'w': return k == 'b' ? TENSOR_INT64 : d;
    case 'b': return TENSOR_BOOL;
    default: return d;
  }
}

static tensor_t *floats(int64_t n, const float *values) {
  tensor_t *t = NULL;
  ck_ok(tensor_from_data(&t, values, 1, &n, TENSOR_FLOAT32));
  return t;
}

static float at(const tensor_t *t, int64_t i) { return ((const float *)tensor_data(t))[i]; }

START_TEST(dtype_rules_and_refusals) {
  int64_t three = 3;
  for (size_t k = 0; k < sizeof all_dtypes / sizeof *all_dtypes; ++k) {
    const tensor_dtype_t d = all_dtypes[k];
    tensor_t *a = NULL;
    ck_ok(tensor_zeros(&a, 1, &three, d));
    for (int op = 0; op < NUM_UOPS; ++op) {
      tensor_t *out = NULL, *named_out = NULL;
      const int refused = strchr(rules[op].refused, kind_letter(d)) != NULL;
      const tensor_status_t st = tensor_unary(&out, op, a);
      const tensor_status_t st_named = named[op](&named_out, a);
      ck_assert_msg(st == (refused ? TENSOR_E_DTYPE : TENSOR_OK), "op %d on %s: %s (%s)", op, tensor_dtype_name(d),
                    tensor_status_name(st), tensor_last_error());
      ck_assert_int_eq(st_named, st);
      if (refused) {
        ck_assert_ptr_null(out);
        ck_assert_ptr_nonnull(strstr(tensor_last_error(), tensor_dtype_name(d)));
        continue;
      }
      ck_assert_int_eq(tensor_dtype(out), expected_dtype(op, d));
      ck_assert_int_eq(tensor_dtype(named_out), tensor_dtype(out));
      int32_t same = 0;
      ck_ok(tensor_allclose(&same, out, named_out, 0, 0, 1));
      ck_assert_int_eq(same, 1);
      tensor_release(out);
      tensor_release(named_out);
    }
    tensor_release(a);
  }
}
END_TEST

START_TEST(values_and_special_cases) {
  const float x[] = {-2.5f, -0.0f, 0.0f, 2.5f, NAN, INFINITY, -INFINITY, 1.0f};
  tensor_t *a = floats(8, x), *out = NULL;
  ck_ok(tensor_floor(&out, a));
  ck_assert_float_eq(at(out, 0), -3.0f);
  ck_assert(signbit(at(out, 1)));
  ck_assert(isnan(at(out, 4)));
  tensor_release(out);
  ck_ok(tensor_round(&out, a)); /* halves to even */
  ck_assert_float_eq(at(out, 0), -2.0f);
  ck_assert_float_eq(at(out, 3), 2.0f);
  tensor_release(out);
  ck_ok(tensor_relu(&out, a)); /* -0 and NaN stay, as clamp_min */
  ck_assert_float_eq(at(out, 0), 0.0f);
  ck_assert(signbit(at(out, 1)));
  ck_assert(isnan(at(out, 4)));
  ck_assert_float_eq(at(out, 6), 0.0f);
  tensor_release(out);
  ck_ok(tensor_sign(&out, a)); /* NaN and both zeros give +0 */
  ck_assert_float_eq(at(out, 0), -1.0f);
  ck_assert(!signbit(at(out, 1)) && at(out, 1) == 0.0f);
  ck_assert_float_eq(at(out, 4), 0.0f);
  tensor_release(out);
  ck_ok(tensor_log(&out, a));
  ck_assert(isnan(at(out, 0)));
  ck_assert(isinf(at(out, 1)) && at(out, 1) < 0);
  ck_assert_float_eq(at(out, 7), 0.0f);
  tensor_release(out);
  ck_ok(tensor_exp(&out, a));
  ck_assert_float_eq(at(out, 6), 0.0f);
  ck_assert(isinf(at(out, 5)));
  ck_assert_float_eq_tol(at(out, 7), 2.7182817f, 1e-6f);
  tensor_release(out);
  ck_ok(tensor_isnan(&out, a));
  const uint8_t *b = tensor_data(out);
  ck_assert(b[4] == 1 && b[0] == 0 && b[5] == 0);
  tensor_release(out);
  ck_ok(tensor_isfinite(&out, a));
  b = tensor_data(out);
  ck_assert(b[0] == 1 && b[4] == 0 && b[5] == 0 && b[6] == 0);
  tensor_release(out);
  tensor_release(a);
  /* integers: neg and abs wrap, square wraps, bool squared is int64 */
  const int8_t i8[] = {-128, -3, 0, 127};
  int64_t four = 4, one = 1;
  tensor_t *i = NULL;
  ck_ok(tensor_from_data(&i, i8, 1, &four, TENSOR_INT8));
  ck_ok(tensor_neg(&out, i));
  ck_assert_int_eq(((int8_t *)tensor_data(out))[0], -128);
  ck_assert_int_eq(((int8_t *)tensor_data(out))[1], 3);
  tensor_release(out);
  ck_ok(tensor_square(&out, i));
  ck_assert_int_eq(tensor_dtype(out), TENSOR_INT8);
  ck_assert_int_eq(((int8_t *)tensor_data(out))[3], 1); /* 127 * 127 = 16129 wraps to 1 */
  tensor_release(out);
  ck_ok(tensor_bitwise_not(&out, i));
  ck_assert_int_eq(((int8_t *)tensor_data(out))[2], -1);
  tensor_release(out);
  ck_ok(tensor_sqrt(&out, i)); /* integers: the default float */
  ck_assert_int_eq(tensor_dtype(out), TENSOR_FLOAT32);
  ck_assert(isnan(at(out, 1)));
  tensor_release(out);
  tensor_release(i);
  const uint8_t t = 1;
  ck_ok(tensor_from_data(&i, &t, 1, &one, TENSOR_BOOL));
  ck_ok(tensor_square(&out, i));
  ck_assert_int_eq(tensor_dtype(out), TENSOR_INT64);
  ck_assert_int_eq(((int64_t *)tensor_data(out))[0], 1);
  tensor_release(out);
  ck_ok(tensor_logical_not(&out, i));
  ck_assert_int_eq(((uint8_t *)tensor_data(out))[0], 0);
  tensor_release(out);
  tensor_release(i);
}
END_TEST

START_TEST(layouts_and_empty) {
  float x[12];
  for (int k = 0; k < 12; ++k) x[k] = (float)k - 5.5f;
  int64_t sizes[] = {3, 4};
  tensor_t *a = NULL, *t = NULL, *out = NULL;
  ck_ok(tensor_from_data(&a, x, 2, sizes, TENSOR_FLOAT32));
  ck_ok(tensor_transpose(&t, a, 0, 1));
  ck_ok(tensor_abs(&out, t));
  const int64_t tsizes[] = {4, 3}, tstrides[] = {1, 4}; /* the input's layout, as TensorIterator */
  ck_layout(out, 2, tsizes, tstrides);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 3; ++c) ck_assert_float_eq(((float *)tensor_data(out))[r + 4 * c], fabsf(x[c * 4 + r]));
  tensor_release(out);
  tensor_t *e = NULL;
  int64_t zero[] = {0, 3};
  ck_ok(tensor_empty(&e, 2, zero, TENSOR_INT32));
  ck_ok(tensor_exp(&out, e));
  ck_assert_int_eq(tensor_numel(out), 0);
  ck_assert_int_eq(tensor_dtype(out), TENSOR_FLOAT32);
  tensor_release(out);
  tensor_release(e);
  tensor_release(t);
  tensor_release(a);
}
END_TEST

START_TEST(into_rules) {
  const float x[] = {0.25f, 1.0f, 4.0f, 9.0f};
  tensor_t *a = floats(4, x), *d = NULL, *i = NULL, *out = NULL;
  int64_t four = 4, two = 2;
  /* in place: a = sqrt(a) */
  ck_ok(tensor_unary_into(a, TENSOR_UOP_SQRT, a));
  ck_assert_float_eq(at(a, 0), 0.5f);
  ck_assert_float_eq(at(a, 3), 3.0f);
  /* a wider destination: computed in float32, converted */
  ck_ok(tensor_zeros(&d, 1, &four, TENSOR_FLOAT64));
  ck_ok(tensor_unary_into(d, TENSOR_UOP_SQUARE, a));
  ck_assert_double_eq(((double *)tensor_data(d))[3], 9.0);
  /* float into an integer destination: not castable */
  ck_ok(tensor_zeros(&i, 1, &four, TENSOR_INT32));
  ck_status(tensor_unary_into(i, TENSOR_UOP_EXP, a), TENSOR_E_DTYPE);
  ck_ok(tensor_unary_into(d, TENSOR_UOP_NEG, i)); /* int32 into float64: castable */
  ck_status(tensor_unary_into(i, TENSOR_UOP_FRAC, i), TENSOR_E_DTYPE); /* refused for integers */
  /* shape: never resized */
  tensor_t *small = NULL;
  ck_ok(tensor_zeros(&small, 1, &two, TENSOR_FLOAT32));
  ck_status(tensor_unary_into(small, TENSOR_UOP_EXP, a), TENSOR_E_SHAPE);
  /* unknown op codes, NULLs */
  ck_status(tensor_unary_into(a, -1, a), TENSOR_E_INVALID);
  ck_status(tensor_unary_into(a, NUM_UOPS, a), TENSOR_E_INVALID);
  ck_status(tensor_unary(&out, NUM_UOPS, a), TENSOR_E_INVALID);
  ck_assert_ptr_null(out);
  ck_status(tensor_unary(&out, -7, a), TENSOR_E_INVALID);
  ck_status(tensor_unary(NULL, TENSOR_UOP_EXP, a), TENSOR_E_INVALID);
  ck_status(tensor_unary(&out, TENSOR_UOP_EXP, NULL), TENSOR_E_INVALID);
  ck_status(tensor_unary_into(NULL, TENSOR_UOP_EXP, a), TENSOR_E_INVALID);
  ck_status(tensor_unary_into(a, TENSOR_UOP_EXP, NULL), TENSOR_E_INVALID);
  ck_status(tensor_exp(NULL, a), TENSOR_E_INVALID);
  ck_status(tensor_bitwise_not(&out, NULL), TENSOR_E_INVALID);
  ck_assert_ptr_null(out);
  tensor_release(small);
  tensor_release(i);
  tensor_release(d);
  tensor_release(a);
}
END_TEST

START_TEST(into_readonly_and_overlap) {
  float buffer[4] = {1, 2, 3, 4};
  tensor_t *ro = NULL, *w = NULL, *out = NULL;
  ck_ok(tensor_from_buffer(&ro, buffer, sizeof buffer, TENSOR_FLOAT32, 4, 0, TENSOR_READONLY, NULL, NULL));
  ck_ok(tensor_neg(&out, ro)); /* reading read-only memory is fine */
  ck_assert_float_eq(at(out, 2), -3.0f);
  ck_status(tensor_unary_into(ro, TENSOR_UOP_NEG, out), TENSOR_E_READONLY);
  ck_assert_float_eq(buffer[0], 1.0f);
  /* a destination with internal overlap */
  int64_t four = 4, zero_stride = 0;
  ck_ok(tensor_as_strided(&w, out, 1, &four, &zero_stride, 0));
  ck_status(tensor_unary_into(w, TENSOR_UOP_NEG, ro), TENSOR_E_OVERLAP);
  tensor_release(w);
  /* partial overlap reads a snapshot: dst = out[1:], a = out[:3] */
  const float x[] = {1, 2, 3, 4};
  tensor_t *base = floats(4, x), *dst = NULL, *src = NULL;
  ck_ok(tensor_slice(&dst, base, 0, 1, 4, 1));
  ck_ok(tensor_slice(&src, base, 0, 0, 3, 1));
  ck_ok(tensor_unary_into(dst, TENSOR_UOP_SQUARE, src));
  ck_assert_float_eq(at(base, 0), 1.0f);
  ck_assert_float_eq(at(base, 1), 1.0f);
  ck_assert_float_eq(at(base, 2), 4.0f);
  ck_assert_float_eq(at(base, 3), 9.0f);
  /* reversed in place: dst is a, walked backwards */
  tensor_t *rev = NULL;
  ck_ok(tensor_slice(&rev, base, 0, INT64_MAX, INT64_MIN, -1));
  ck_ok(tensor_unary_into(rev, TENSOR_UOP_NEG, rev));
  ck_assert_float_eq(at(base, 3), -9.0f);
  tensor_release(rev);
  tensor_release(src);
  tensor_release(dst);
  tensor_release(base);
  tensor_release(out);
  tensor_release(ro);
}
END_TEST

START_TEST(large_outputs_are_complete) {
  /* 16 MiB of float32: streamed stores, several threads, every element checked */
  const int64_t n = (int64_t)4 << 20;
  tensor_t *a = NULL, *out = NULL, *h = NULL, *hout = NULL;
  ck_ok(tensor_empty(&a, 1, &n, TENSOR_FLOAT32));
  float *x = tensor_data(a);
  for (int64_t k = 0; k < n; ++k) x[k] = (float)(k % 1000) * 0.01f - 5.0f;
  tensor_set_num_threads(2);
  ck_ok(tensor_floor(&out, a));
  for (int64_t k = 0; k < n; ++k) ck_assert(at(out, k) == floorf(x[k]));
  tensor_release(out);
  ck_ok(tensor_exp(&out, a));
  for (int64_t k = 0; k < n; ++k) ck_assert(fabsf(at(out, k) - expf(x[k])) <= 2e-7f * expf(x[k]));
  tensor_release(out);
  /* float16 in, float16 out: converted, computed in float32, rounded */
  ck_ok(tensor_to(&h, a, TENSOR_FLOAT16, 1));
  ck_ok(tensor_tanh(&hout, h));
  ck_assert_int_eq(tensor_dtype(hout), TENSOR_FLOAT16);
  tensor_t *back = NULL;
  ck_ok(tensor_to(&back, hout, TENSOR_FLOAT32, 1));
  for (int64_t k = 0; k < n; k += 97) ck_assert(fabsf(at(back, k) - tanhf(x[k])) <= 2e-3f);
  tensor_release(back);
  tensor_release(hout);
  tensor_release(h);
  tensor_release(a);
}
END_TEST

static void no_delete(DLManagedTensor *m) { (void)m; }

START_TEST(device_memory_is_refused) {
  int64_t shape[] = {4};
  DLManagedTensor m;
  fake_device_tensor(&m, shape, no_delete);
  tensor_t *dev = NULL, *host = NULL, *out = NULL;
  ck_ok(tensor_from_dlpack_legacy(&dev, &m));
  ck_ok(tensor_zeros(&host, 1, shape, TENSOR_FLOAT32));
  for (int op = 0; op < NUM_UOPS; ++op) {
    if (op == TENSOR_UOP_BITWISE_NOT) continue; /* refused for float32 first */
    ck_status(tensor_unary(&out, op, dev), TENSOR_E_DEVICE);
    ck_status(named[op](&out, dev), TENSOR_E_DEVICE);
    ck_status(tensor_unary_into(host, op, dev), TENSOR_E_DEVICE);
    if (rules[op].rule != 'b') ck_status(tensor_unary_into(dev, op, host), TENSOR_E_DEVICE);
  }
  tensor_release(dev);
  tensor_release(host);
}
END_TEST

int main(void) {
  Suite *s = suite_create("unary");
  TCase *tc = tcase_create("unary");
  tcase_add_test(tc, dtype_rules_and_refusals);
  tcase_add_test(tc, values_and_special_cases);
  tcase_add_test(tc, layouts_and_empty);
  tcase_add_test(tc, into_rules);
  tcase_add_test(tc, into_readonly_and_overlap);
  tcase_add_test(tc, large_outputs_are_complete);
  tcase_add_test(tc, device_memory_is_refused);
  tcase_set_timeout(tc, 120);
  suite_add_tcase(s, tc);
  return run_suite(s);
}
