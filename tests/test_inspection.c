/* Inspection getters, PyTorch's contiguity rule, NULL-safety, dtype tables and
   the version functions. */
#include <stdio.h>

#include "common.h"

static tensor_t *view_of(tensor_storage_t *s, tensor_dtype_t dtype, int64_t ndim, const int64_t *sizes,
                         const int64_t *strides, int64_t offset) {
  tensor_t *t = NULL;
  ck_ok(tensor_from_storage(&t, s, dtype, ndim, sizes, strides, offset));
  return t;
}

START_TEST(getters_of_a_strided_view) {
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_new(&s, 64 * sizeof(int16_t)));
  const int64_t sizes[3] = {2, 3, 4}, strides[3] = {-20, 5, 2};
  tensor_t *t = view_of(s, TENSOR_INT16, 3, sizes, strides, 25);
  ck_layout(t, 3, sizes, strides);
  ck_assert_int_eq(tensor_storage_offset(t), 25);
  ck_assert_int_eq(tensor_dtype(t), TENSOR_INT16);
  ck_assert_int_eq(tensor_numel(t), 24);
  ck_assert_ptr_eq(tensor_data(t), (char *)tensor_storage_data(s) + 25 * 2);
  ck_assert_ptr_eq(tensor_storage(t), s);
  ck_assert_int_eq(tensor_is_contiguous(t), 0);
  ck_assert_int_eq(tensor_is_readonly(t), 0);
  ck_assert_int_eq(tensor_refcount(t), 1);
  /* Borrowed arrays stay put for the tensor's life. */
  const int64_t *sz = tensor_sizes(t), *st = tensor_strides(t);
  ck_assert_ptr_eq(tensor_sizes(t), sz);
  ck_assert_ptr_eq(tensor_strides(t), st);
  tensor_release(t);
  tensor_storage_release(s);
}
END_TEST

START_TEST(caller_arrays_are_copied) {
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_new(&s, 64));
  int64_t sizes[2] = {2, 2}, strides[2] = {2, 1};
  tensor_t *t = view_of(s, TENSOR_UINT8, 2, sizes, strides, 0);
  sizes[0] = 99;
  strides[0] = 99;
  ck_assert_int_eq(tensor_sizes(t)[0], 2);
  ck_assert_int_eq(tensor_strides(t)[0], 2);
  tensor_release(t);
  tensor_storage_release(s);
}
END_TEST

START_TEST(null_safety) {
  ck_assert_int_eq(tensor_ndim(NULL), 0);
  ck_assert_ptr_null(tensor_sizes(NULL));
  ck_assert_ptr_null(tensor_strides(NULL));
  ck_assert_int_eq(tensor_storage_offset(NULL), 0);
  ck_assert_int_eq(tensor_dtype(NULL), -1);
  ck_assert_int_eq(tensor_numel(NULL), 0);
  ck_assert_ptr_null(tensor_data(NULL));
  ck_assert_ptr_null(tensor_storage(NULL));
  ck_assert_int_eq(tensor_is_contiguous(NULL), 0);
  ck_assert_int_eq(tensor_is_readonly(NULL), 0);
  ck_assert_ptr_null(tensor_retain(NULL));
  tensor_release(NULL);
  ck_assert_int_eq(tensor_refcount(NULL), 0);
}
END_TEST

START_TEST(retain_release) {
  tensor_t *t = NULL;
  ck_ok(tensor_zeros(&t, 0, NULL, TENSOR_FLOAT32));
  ck_assert_ptr_eq(tensor_retain(t), t);
  ck_assert_ptr_eq(tensor_retain(t), t);
  ck_assert_int_eq(tensor_refcount(t), 3);
  tensor_release(t);
  tensor_release(t);
  ck_assert_int_eq(tensor_refcount(t), 1);
  tensor_release(t);
}
END_TEST

/* PyTorch's is_contiguous: strides must be row-major for dims of size > 1;
   size-1 dims' strides are ignored; a tensor with no elements is contiguous. */
struct contiguity_case {
  int64_t ndim;
  int64_t sizes[4];
  int64_t strides[4];
  int64_t offset;
  int32_t expected;
};

static const struct contiguity_case contiguity_cases[] = {
    {2, {2, 3}, {3, 1}, 0, 1},
    {2, {2, 3}, {3, 1}, 5, 1},         /* the offset does not matter */
    {2, {2, 3}, {1, 2}, 0, 0},         /* transposed */
    {2, {2, 3}, {4, 1}, 0, 0},         /* padded rows */
    {3, {2, 1, 3}, {3, 100, 1}, 0, 1}, /* size-1 stride ignored */
    {3, {2, 1, 3}, {3, -7, 1}, 0, 1},
    {2, {3, 1}, {1, 5}, 0, 1},
    {1, {1}, {7}, 0, 1},
    {2, {1, 1}, {0, 0}, 0, 1},
    {1, {3}, {1}, 0, 1},
    {1, {3}, {-1}, 2, 0},
    {1, {3}, {0}, 0, 0},
    {1, {3}, {2}, 0, 0},
    {2, {0, 3}, {7, 9}, 0, 1},         /* empty */
    {2, {3, 0}, {-5, 0}, 0, 1},
    {4, {2, 2, 2, 2}, {8, 4, 2, 1}, 0, 1},
    {4, {2, 2, 2, 2}, {8, 4, 1, 2}, 0, 0},
    {2, {2, 2}, {1, 1}, 0, 0},
    {0, {0}, {0}, 3, 1}, /* 0-dim */
};

START_TEST(contiguity_rule) {
  const struct contiguity_case *c = &contiguity_cases[_i];
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_new(&s, 256));
  tensor_t *t = view_of(s, TENSOR_UINT8, c->ndim, c->sizes, c->strides, c->offset);
  ck_assert_msg(tensor_is_contiguous(t) == c->expected, "case %d: expected %d", _i, c->expected);
  tensor_release(t);
  tensor_storage_release(s);
}
END_TEST

/* ---- dtypes ------------------------------------------------------------- */

static const struct {
  tensor_dtype_t dtype;
  int32_t value;
  const char *name;
  size_t size;
} dtype_table[] = {
    {TENSOR_UINT8, 0, "uint8", 1},         {TENSOR_INT8, 1, "int8", 1},
    {TENSOR_INT16, 2, "int16", 2},         {TENSOR_INT32, 3, "int32", 4},
    {TENSOR_INT64, 4, "int64", 8},         {TENSOR_FLOAT16, 5, "float16", 2},
    {TENSOR_FLOAT32, 6, "float32", 4},     {TENSOR_FLOAT64, 7, "float64", 8},
    {TENSOR_COMPLEX64, 9, "complex64", 8}, {TENSOR_COMPLEX128, 10, "complex128", 16},
    {TENSOR_BOOL, 11, "bool", 1},          {TENSOR_BFLOAT16, 15, "bfloat16", 2},
    {TENSOR_UINT16, 27, "uint16", 2},      {TENSOR_UINT32, 28, "uint32", 4},
    {TENSOR_UINT64, 29, "uint64", 8},
};

START_TEST(dtype_names_and_sizes) {
  ck_assert_int_eq(sizeof dtype_table / sizeof *dtype_table, 15);
  for (size_t i = 0; i < sizeof dtype_table / sizeof *dtype_table; ++i) {
    ck_assert_int_eq(dtype_table[i].dtype, dtype_table[i].value);
    ck_assert_str_eq(tensor_dtype_name(dtype_table[i].dtype), dtype_table[i].name);
    ck_assert_uint_eq(tensor_dtype_size(dtype_table[i].dtype), dtype_table[i].size);
  }
}
END_TEST

START_TEST(unknown_dtypes) {
  int known = 0;
  for (int32_t d = -300; d < 300; ++d) {
    int in_table = 0;
    for (size_t i = 0; i < sizeof dtype_table / sizeof *dtype_table; ++i)
      in_table |= dtype_table[i].value == d;
    known += in_table;
    if (!in_table) {
      ck_assert_msg(tensor_dtype_name(d) == NULL, "dtype %d has a name", d);
      ck_assert_msg(tensor_dtype_size(d) == 0, "dtype %d has a size", d);
    }
  }
  ck_assert_int_eq(known, 15);
  ck_assert_ptr_null(tensor_dtype_name(INT32_MAX));
  ck_assert_ptr_null(tensor_dtype_name(INT32_MIN));
  ck_assert_uint_eq(tensor_dtype_size(INT32_MAX), 0);
  ck_assert_uint_eq(tensor_dtype_size(INT32_MIN), 0);
}
END_TEST

/* torch.dtype's is_floating_point / is_complex / is_signed, as kinds. */
START_TEST(dtype_kinds_and_signedness) {
  static const struct {
    tensor_dtype_t dtype;
    int32_t kind, is_signed;
  } kinds[] = {
      {TENSOR_BOOL, TENSOR_KIND_BOOL, 0},         {TENSOR_UINT8, TENSOR_KIND_INT, 0},
      {TENSOR_UINT16, TENSOR_KIND_INT, 0},        {TENSOR_UINT32, TENSOR_KIND_INT, 0},
      {TENSOR_UINT64, TENSOR_KIND_INT, 0},        {TENSOR_INT8, TENSOR_KIND_INT, 1},
      {TENSOR_INT16, TENSOR_KIND_INT, 1},         {TENSOR_INT32, TENSOR_KIND_INT, 1},
      {TENSOR_INT64, TENSOR_KIND_INT, 1},         {TENSOR_FLOAT16, TENSOR_KIND_FLOAT, 1},
      {TENSOR_BFLOAT16, TENSOR_KIND_FLOAT, 1},    {TENSOR_FLOAT32, TENSOR_KIND_FLOAT, 1},
      {TENSOR_FLOAT64, TENSOR_KIND_FLOAT, 1},     {TENSOR_COMPLEX64, TENSOR_KIND_COMPLEX, 1},
      {TENSOR_COMPLEX128, TENSOR_KIND_COMPLEX, 1},
  };
  ck_assert_int_eq(TENSOR_KIND_BOOL, 0);
  ck_assert_int_eq(TENSOR_KIND_INT, 1);
  ck_assert_int_eq(TENSOR_KIND_FLOAT, 2);
  ck_assert_int_eq(TENSOR_KIND_COMPLEX, 3);
  ck_assert_int_eq(sizeof kinds / sizeof *kinds, 15);
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; ++i) {
    ck_assert_int_eq(tensor_dtype_kind(kinds[i].dtype), kinds[i].kind);
    ck_assert_int_eq(tensor_dtype_is_signed(kinds[i].dtype), kinds[i].is_signed);
  }
  for (int32_t d = -300; d < 300; ++d)
    if (!tensor_dtype_name(d)) {
      ck_assert_int_eq(tensor_dtype_kind(d), -1);
      ck_assert_int_eq(tensor_dtype_is_signed(d), 0);
    }
  ck_assert_int_eq(tensor_dtype_kind(INT32_MIN), -1);
  ck_assert_int_eq(tensor_dtype_is_signed(INT32_MAX), 0);
}
END_TEST

START_TEST(dtype_is_reported) {
  for (size_t i = 0; i < sizeof dtype_table / sizeof *dtype_table; ++i) {
    tensor_t *t = NULL;
    const int64_t sizes[1] = {2};
    ck_ok(tensor_empty(&t, 1, sizes, dtype_table[i].dtype));
    ck_assert_int_eq(tensor_dtype(t), dtype_table[i].value);
    tensor_release(t);
  }
}
END_TEST

/* ---- version ------------------------------------------------------------ */

START_TEST(version) {
  char expected[32];
  snprintf(expected, sizeof expected, "%d.%d.%d", CTENSOR_VERSION_MAJOR, CTENSOR_VERSION_MINOR,
           CTENSOR_VERSION_PATCH);
  ck_assert_str_eq(tensor_version_string(), expected);
  ck_assert_str_eq(tensor_version_string(), "0.2.0");
  ck_assert_int_eq(tensor_version_number(), CTENSOR_VERSION_NUMBER);
  ck_assert_int_eq(tensor_version_number(), 200);
  ck_assert_ptr_eq(tensor_version_string(), tensor_version_string()); /* static */
}
END_TEST

static Suite *inspection_suite(void) {
  Suite *s = suite_create("inspection");
  TCase *tc = tcase_create("getters");
  tcase_add_test(tc, getters_of_a_strided_view);
  tcase_add_test(tc, caller_arrays_are_copied);
  tcase_add_test(tc, null_safety);
  tcase_add_test(tc, retain_release);
  tcase_add_loop_test(tc, contiguity_rule, 0,
                      (int)(sizeof contiguity_cases / sizeof *contiguity_cases));
  suite_add_tcase(s, tc);
  tc = tcase_create("dtypes");
  tcase_add_test(tc, dtype_names_and_sizes);
  tcase_add_test(tc, unknown_dtypes);
  tcase_add_test(tc, dtype_kinds_and_signedness);
  tcase_add_test(tc, dtype_is_reported);
  tcase_add_test(tc, version);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(inspection_suite()); }
