/* Creation: tensor_from_storage, tensor_from_buffer, tensor_from_blob,
   tensor_empty/zeros/from_data, with every rejection path the header lists. */
#include "common.h"

typedef struct {
  int calls;
} release_count;

static void count_release(void *ctx) { ((release_count *)ctx)->calls++; }

#define SENTINEL ((tensor_t *)(uintptr_t)0x1)

static const tensor_dtype_t all_dtypes[] = {
    TENSOR_UINT8,     TENSOR_INT8,       TENSOR_INT16, TENSOR_INT32,    TENSOR_INT64,
    TENSOR_FLOAT16,   TENSOR_FLOAT32,    TENSOR_FLOAT64, TENSOR_COMPLEX64, TENSOR_COMPLEX128,
    TENSOR_BOOL,      TENSOR_BFLOAT16,   TENSOR_UINT16, TENSOR_UINT32,   TENSOR_UINT64};
#define N_DTYPES ((int)(sizeof all_dtypes / sizeof *all_dtypes))

static const tensor_dtype_t unknown_dtypes[] = {8, 12, 13, 14, 16, 26, 30, -1, 100, INT32_MAX, INT32_MIN};
#define N_UNKNOWN ((int)(sizeof unknown_dtypes / sizeof *unknown_dtypes))

/* A storage of n zero bytes. */
static tensor_storage_t *new_storage(size_t n) {
  tensor_storage_t *s = NULL;
  ck_ok(tensor_storage_new(&s, n));
  return s;
}

/* tensor_from_storage must fail with `expected`, set *out to NULL and leave s's count. */
static void expect_from_storage_fails(tensor_storage_t *s, tensor_dtype_t dtype, int64_t ndim,
                                      const int64_t *sizes, const int64_t *strides, int64_t offset,
                                      tensor_status_t expected) {
  tensor_t *t = SENTINEL;
  const int64_t before = tensor_storage_refcount(s);
  ck_status(tensor_from_storage(&t, s, dtype, ndim, sizes, strides, offset), expected);
  ck_assert_ptr_null(t);
  ck_assert_int_eq(tensor_storage_refcount(s), before);
}

/* tensor_from_storage must succeed; returns the tensor. */
static tensor_t *from_storage_ok(tensor_storage_t *s, tensor_dtype_t dtype, int64_t ndim,
                                 const int64_t *sizes, const int64_t *strides, int64_t offset) {
  tensor_t *t = NULL;
  ck_ok(tensor_from_storage(&t, s, dtype, ndim, sizes, strides, offset));
  ck_assert_ptr_nonnull(t);
  return t;
}

/* ---- tensor_from_storage ------------------------------------------------ */

START_TEST(from_storage_contiguous_default) {
  tensor_storage_t *s = new_storage(24);
  const int64_t sizes[2] = {2, 3}, strides[2] = {3, 1};
  tensor_t *t = from_storage_ok(s, TENSOR_FLOAT32, 2, sizes, NULL, 0);
  ck_layout(t, 2, sizes, strides);
  ck_assert_int_eq(tensor_storage_offset(t), 0);
  ck_assert_int_eq(tensor_dtype(t), TENSOR_FLOAT32);
  ck_assert_int_eq(tensor_numel(t), 6);
  ck_assert_ptr_eq(tensor_data(t), tensor_storage_data(s));
  ck_assert_ptr_eq(tensor_storage(t), s);
  ck_assert_int_eq(tensor_is_contiguous(t), 1);
  tensor_release(t);
  tensor_storage_release(s);
}
END_TEST

START_TEST(from_storage_offset_and_exact_fit) {
  tensor_storage_t *s = new_storage(6 * sizeof(float));
  const int64_t five[1] = {5}, six[1] = {6};
  tensor_t *t = from_storage_ok(s, TENSOR_FLOAT32, 1, five, NULL, 1);
  ck_assert_int_eq(tensor_storage_offset(t), 1);
  ck_assert_ptr_eq(tensor_data(t), (char *)tensor_storage_data(s) + sizeof(float));
  tensor_release(t);
  expect_from_storage_fails(s, TENSOR_FLOAT32, 1, six, NULL, 1, TENSOR_E_BOUNDS);
  expect_from_storage_fails(s, TENSOR_FLOAT64, 1, five, NULL, 0, TENSOR_E_BOUNDS);
  tensor_storage_release(s);
}
END_TEST

START_TEST(from_storage_negative_strides) {
  tensor_storage_t *s = new_storage(6 * sizeof(int32_t));
  const int64_t sizes[1] = {3}, back[1] = {-1}, back2[1] = {-2};
  tensor_t *t = from_storage_ok(s, TENSOR_INT32, 1, sizes, back, 2); /* elements 2, 1, 0 */
  ck_assert_int_eq(tensor_strides(t)[0], -1);
  ck_assert_int_eq(tensor_is_contiguous(t), 0);
  tensor_release(t);
  t = from_storage_ok(s, TENSOR_INT32, 1, sizes, back2, 5); /* 5, 3, 1 */
  tensor_release(t);
  expect_from_storage_fails(s, TENSOR_INT32, 1, sizes, back, 1, TENSOR_E_BOUNDS);  /* reaches -1 */
  expect_from_storage_fails(s, TENSOR_INT32, 1, sizes, back2, 3, TENSOR_E_BOUNDS); /* reaches -1 */
  expect_from_storage_fails(s, TENSOR_INT32, 1, sizes, back, 6, TENSOR_E_BOUNDS);  /* starts at 6 */
  /* Mixed signs: [2, 3] with strides [-3, 1] from offset 3 covers 0..5. */
  const int64_t s23[2] = {2, 3}, mixed[2] = {-3, 1};
  t = from_storage_ok(s, TENSOR_INT32, 2, s23, mixed, 3);
  ck_layout(t, 2, s23, mixed);
  tensor_release(t);
  expect_from_storage_fails(s, TENSOR_INT32, 2, s23, mixed, 2, TENSOR_E_BOUNDS);
  expect_from_storage_fails(s, TENSOR_INT32, 2, s23, mixed, 4, TENSOR_E_BOUNDS);
  tensor_storage_release(s);
}
END_TEST

START_TEST(from_storage_zero_strides) {
  tensor_storage_t *s = new_storage(6 * sizeof(int16_t));
  const int64_t sizes[2] = {100, 7}, zeros[2] = {0, 0};
  tensor_t *t = from_storage_ok(s, TENSOR_INT16, 2, sizes, zeros, 5);
  ck_assert_int_eq(tensor_numel(t), 700);
  ck_assert_int_eq(tensor_is_contiguous(t), 0);
  tensor_release(t);
  expect_from_storage_fails(s, TENSOR_INT16, 2, sizes, zeros, 6, TENSOR_E_BOUNDS);
  tensor_storage_release(s);
}
END_TEST

START_TEST(from_storage_empty_views_address_nothing) {
  tensor_storage_t *s = new_storage(0);
  const int64_t sizes[2] = {0, 5}, strides[2] = {1000, -1000}, one[1] = {1};
  tensor_t *t = from_storage_ok(s, TENSOR_FLOAT64, 2, sizes, strides, 12345);
  ck_assert_int_eq(tensor_numel(t), 0);
  ck_assert_int_eq(tensor_storage_offset(t), 12345);
  ck_assert_int_eq(tensor_is_contiguous(t), 1);
  tensor_release(t);
  t = from_storage_ok(s, TENSOR_FLOAT64, 2, sizes, NULL, 0);
  tensor_release(t);
  /* One element does not fit in 0 bytes, nor does a 0-dim scalar. */
  expect_from_storage_fails(s, TENSOR_FLOAT64, 1, one, NULL, 0, TENSOR_E_BOUNDS);
  expect_from_storage_fails(s, TENSOR_UINT8, 0, NULL, NULL, 0, TENSOR_E_BOUNDS);
  tensor_storage_release(s);
}
END_TEST

START_TEST(from_storage_zero_dim) {
  tensor_storage_t *s = new_storage(16);
  tensor_t *t = from_storage_ok(s, TENSOR_FLOAT64, 0, NULL, NULL, 1);
  ck_assert_int_eq(tensor_ndim(t), 0);
  ck_assert_int_eq(tensor_numel(t), 1);
  ck_assert_int_eq(tensor_is_contiguous(t), 1);
  ck_assert_ptr_eq(tensor_data(t), (char *)tensor_storage_data(s) + 8);
  tensor_release(t);
  expect_from_storage_fails(s, TENSOR_FLOAT64, 0, NULL, NULL, 2, TENSOR_E_BOUNDS);
  expect_from_storage_fails(s, TENSOR_FLOAT64, 0, NULL, NULL, -1, TENSOR_E_BOUNDS);
  tensor_storage_release(s);
}
END_TEST

START_TEST(from_storage_negative_offset) {
  tensor_storage_t *s = new_storage(64);
  const int64_t sizes[1] = {2};
  expect_from_storage_fails(s, TENSOR_UINT8, 1, sizes, NULL, -1, TENSOR_E_BOUNDS);
  tensor_storage_release(s);
}
END_TEST

START_TEST(from_storage_bounds_message_names_values) {
  tensor_storage_t *s = new_storage(4096);
  const int64_t sizes[1] = {1025};
  expect_from_storage_fails(s, TENSOR_FLOAT32, 1, sizes, NULL, 0, TENSOR_E_BOUNDS);
  ck_assert_msg(strstr(tensor_last_error(), "4100") != NULL, "message: %s", tensor_last_error());
  ck_assert_msg(strstr(tensor_last_error(), "4096") != NULL, "message: %s", tensor_last_error());
  tensor_storage_release(s);
}
END_TEST

START_TEST(from_storage_overflow) {
  tensor_storage_t *s = new_storage(64);
  const int64_t huge[2] = {INT64_C(1) << 62, 4};
  expect_from_storage_fails(s, TENSOR_FLOAT32, 2, huge, NULL, 0, TENSOR_E_OVERFLOW);
  const int64_t three[1] = {3}, max_stride[1] = {INT64_MAX}, min_stride[1] = {INT64_MIN};
  expect_from_storage_fails(s, TENSOR_UINT8, 1, three, max_stride, 0, TENSOR_E_OVERFLOW);
  expect_from_storage_fails(s, TENSOR_UINT8, 1, three, min_stride, 0, TENSOR_E_OVERFLOW);
  const int64_t two[1] = {2}, unit[1] = {1};
  expect_from_storage_fails(s, TENSOR_UINT8, 1, two, unit, INT64_MAX, TENSOR_E_OVERFLOW);
  /* Byte arithmetic: element index fits in int64, its byte offset does not. */
  const int64_t one[1] = {1};
  expect_from_storage_fails(s, TENSOR_FLOAT64, 1, one, unit, INT64_C(1) << 61, TENSOR_E_OVERFLOW);
  tensor_storage_release(s);
}
END_TEST

START_TEST(from_storage_invalid_arguments) {
  tensor_storage_t *s = new_storage(64);
  const int64_t sizes[2] = {2, 2}, negative[2] = {2, -1};
  tensor_t *t = SENTINEL;
  ck_status(tensor_from_storage(NULL, s, TENSOR_FLOAT32, 2, sizes, NULL, 0), TENSOR_E_INVALID);
  ck_status(tensor_from_storage(&t, NULL, TENSOR_FLOAT32, 2, sizes, NULL, 0), TENSOR_E_INVALID);
  ck_assert_ptr_null(t);
  expect_from_storage_fails(s, TENSOR_FLOAT32, -1, sizes, NULL, 0, TENSOR_E_INVALID);
  expect_from_storage_fails(s, TENSOR_FLOAT32, 65, sizes, NULL, 0, TENSOR_E_INVALID);
  expect_from_storage_fails(s, TENSOR_FLOAT32, 2, NULL, NULL, 0, TENSOR_E_INVALID);
  expect_from_storage_fails(s, TENSOR_FLOAT32, 2, negative, NULL, 0, TENSOR_E_INVALID);
  for (int i = 0; i < N_UNKNOWN; ++i)
    expect_from_storage_fails(s, unknown_dtypes[i], 2, sizes, NULL, 0, TENSOR_E_INVALID);
  ck_assert_int_eq(tensor_storage_refcount(s), 1);
  tensor_storage_release(s);
}
END_TEST

START_TEST(from_storage_max_dims) {
  tensor_storage_t *s = new_storage(8);
  int64_t sizes[65], strides[65];
  for (int i = 0; i < 65; ++i) {
    sizes[i] = 1;
    strides[i] = 1000 + i;
  }
  tensor_t *t = from_storage_ok(s, TENSOR_INT64, 64, sizes, strides, 0);
  ck_assert_int_eq(tensor_ndim(t), 64);
  ck_assert_int_eq(tensor_numel(t), 1);
  ck_assert_int_eq(tensor_strides(t)[63], 1063);
  ck_assert_int_eq(tensor_is_contiguous(t), 1);
  tensor_release(t);
  expect_from_storage_fails(s, TENSOR_INT64, 65, sizes, strides, 0, TENSOR_E_INVALID);
  tensor_storage_release(s);
}
END_TEST

/* ---- tensor_from_buffer ------------------------------------------------- */

/* tensor_from_buffer must fail with `expected`, write NULL and not call release. */
static void expect_from_buffer_fails(void *buf, size_t nbytes, tensor_dtype_t dtype, int64_t count,
                                     int64_t offset, uint32_t flags, tensor_status_t expected) {
  release_count rc = {0};
  tensor_t *t = SENTINEL;
  ck_status(tensor_from_buffer(&t, buf, nbytes, dtype, count, offset, flags, count_release, &rc),
            expected);
  ck_assert_ptr_null(t);
  ck_assert_int_eq(rc.calls, 0);
}

START_TEST(from_buffer_whole_buffer) {
  int32_t buf[10];
  for (int i = 0; i < 10; ++i) buf[i] = i * 10;
  release_count rc = {0};
  tensor_t *t = NULL;
  ck_ok(tensor_from_buffer(&t, buf, sizeof buf, TENSOR_INT32, -1, 0, 0, count_release, &rc));
  const int64_t sizes[1] = {10}, strides[1] = {1};
  ck_layout(t, 1, sizes, strides);
  ck_assert_int_eq(tensor_storage_offset(t), 0);
  ck_assert_ptr_eq(tensor_data(t), buf);
  ck_assert_ptr_eq(tensor_storage_data(tensor_storage(t)), buf);
  ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), sizeof buf);
  ck_assert_int_eq(tensor_is_readonly(t), 0);
  ck_assert_int_eq(tensor_is_contiguous(t), 1);
  ck_assert_int_eq(tensor_dtype(t), TENSOR_INT32);
  ck_assert_int_eq(((int32_t *)tensor_data(t))[7], 70);
  buf[7] = -1; /* shared, not copied */
  ck_assert_int_eq(((int32_t *)tensor_data(t))[7], -1);
  tensor_release(t);
  ck_assert_int_eq(rc.calls, 1);
}
END_TEST

START_TEST(from_buffer_offset_and_count) {
  uint8_t buf[40] = {0};
  tensor_t *t = NULL;
  /* Any negative count means "everything after offset". */
  ck_ok(tensor_from_buffer(&t, buf, sizeof buf, TENSOR_INT32, -7, 8, 0, NULL, NULL));
  ck_assert_int_eq(tensor_numel(t), 8);
  ck_assert_ptr_eq(tensor_data(t), buf + 8);
  ck_assert_ptr_eq(tensor_storage_data(tensor_storage(t)), buf + 8);
  ck_assert_int_eq(tensor_storage_offset(t), 0);
  ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), 32);
  tensor_release(t);

  ck_ok(tensor_from_buffer(&t, buf, sizeof buf, TENSOR_INT32, 3, 4, 0, NULL, NULL));
  ck_assert_int_eq(tensor_numel(t), 3);
  ck_assert_ptr_eq(tensor_data(t), buf + 4);
  ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), 12);
  tensor_release(t);

  /* Exactly up to the end; an offset that is not a multiple of the element size. */
  ck_ok(tensor_from_buffer(&t, buf, sizeof buf, TENSOR_INT32, 9, 4, 0, NULL, NULL));
  ck_assert_int_eq(tensor_numel(t), 9);
  tensor_release(t);
  ck_ok(tensor_from_buffer(&t, buf, 9, TENSOR_INT16, -1, 1, 0, NULL, NULL));
  ck_assert_int_eq(tensor_numel(t), 4);
  ck_assert_ptr_eq(tensor_data(t), buf + 1);
  tensor_release(t);
  ck_ok(tensor_from_buffer(&t, buf, sizeof buf, TENSOR_UINT8, -1, 39, 0, NULL, NULL));
  ck_assert_int_eq(tensor_numel(t), 1);
  tensor_release(t);
}
END_TEST

START_TEST(from_buffer_every_dtype) {
  uint8_t buf[64] = {0};
  for (int i = 0; i < N_DTYPES; ++i) {
    tensor_t *t = NULL;
    ck_ok(tensor_from_buffer(&t, buf, sizeof buf, all_dtypes[i], -1, 0, 0, NULL, NULL));
    ck_assert_int_eq(tensor_dtype(t), all_dtypes[i]);
    ck_assert_int_eq(tensor_numel(t), 64 / (int64_t)tensor_dtype_size(all_dtypes[i]));
    tensor_release(t);
  }
}
END_TEST

START_TEST(from_buffer_rejections) {
  uint8_t buf[40];
  expect_from_buffer_fails(buf, 0, TENSOR_UINT8, -1, 0, 0, TENSOR_E_INVALID);    /* nbytes 0 */
  expect_from_buffer_fails(buf, 0, TENSOR_UINT8, 1, 0, 0, TENSOR_E_INVALID);
  expect_from_buffer_fails(buf, 40, TENSOR_UINT8, -1, -1, 0, TENSOR_E_INVALID);  /* offset < 0 */
  expect_from_buffer_fails(buf, 40, TENSOR_UINT8, -1, INT64_MIN, 0, TENSOR_E_INVALID);
  expect_from_buffer_fails(buf, 40, TENSOR_UINT8, -1, 40, 0, TENSOR_E_INVALID);  /* offset >= nbytes */
  expect_from_buffer_fails(buf, 40, TENSOR_UINT8, 1, 41, 0, TENSOR_E_INVALID);
  expect_from_buffer_fails(buf, 40, TENSOR_UINT8, 1, INT64_MAX, 0, TENSOR_E_INVALID);
  expect_from_buffer_fails(buf, 40, TENSOR_UINT8, 0, 0, 0, TENSOR_E_INVALID);    /* count 0 */
  expect_from_buffer_fails(buf, 40, TENSOR_INT32, 0, 4, 0, TENSOR_E_INVALID);
  expect_from_buffer_fails(buf, 10, TENSOR_INT32, -1, 0, 0, TENSOR_E_INVALID);   /* remainder 10 % 4 */
  expect_from_buffer_fails(buf, 40, TENSOR_INT32, -1, 2, 0, TENSOR_E_INVALID);   /* remainder 38 % 4 */
  expect_from_buffer_fails(buf, 40, TENSOR_COMPLEX128, -1, 0, 0, TENSOR_E_INVALID);
  expect_from_buffer_fails(buf, 40, TENSOR_INT32, 11, 0, 0, TENSOR_E_INVALID);   /* count too large */
  expect_from_buffer_fails(buf, 40, TENSOR_INT32, 10, 4, 0, TENSOR_E_INVALID);
  expect_from_buffer_fails(buf, 40, TENSOR_INT32, 10, 1, 0, TENSOR_E_INVALID);
  expect_from_buffer_fails(buf, 40, TENSOR_FLOAT64, 6, 0, 0, TENSOR_E_INVALID);
  expect_from_buffer_fails(NULL, 40, TENSOR_UINT8, -1, 0, 0, TENSOR_E_INVALID);  /* NULL buffer */
  expect_from_buffer_fails(buf, 40, TENSOR_UINT8, -1, 0, 2, TENSOR_E_INVALID);   /* unknown flag */
  for (int i = 0; i < N_UNKNOWN; ++i)
    expect_from_buffer_fails(buf, 40, unknown_dtypes[i], -1, 0, 0, TENSOR_E_INVALID);
  release_count rc = {0};
  ck_status(tensor_from_buffer(NULL, buf, 40, TENSOR_UINT8, -1, 0, 0, count_release, &rc),
            TENSOR_E_INVALID);
  ck_assert_int_eq(rc.calls, 0);
}
END_TEST

START_TEST(from_buffer_count_overflow) {
  uint8_t buf[40];
  expect_from_buffer_fails(buf, 40, TENSOR_INT32, INT64_MAX, 0, 0, TENSOR_E_OVERFLOW);
  expect_from_buffer_fails(buf, 40, TENSOR_INT32, INT64_MAX / 4 + 1, 0, 0, TENSOR_E_OVERFLOW);
  expect_from_buffer_fails(buf, 40, TENSOR_COMPLEX128, INT64_C(1) << 60, 0, 0, TENSOR_E_OVERFLOW);
  /* Large but not overflowing: just too large for the buffer. */
  expect_from_buffer_fails(buf, 40, TENSOR_INT32, INT64_MAX / 4, 0, 0, TENSOR_E_INVALID);
  /* A length (size_t) whose remainder after offset does not fit an int64 count. */
  expect_from_buffer_fails(buf, (size_t)INT64_MAX + 1, TENSOR_UINT8, -1, 0, 0, TENSOR_E_OVERFLOW);
  expect_from_buffer_fails(buf, SIZE_MAX - 15, TENSOR_FLOAT32, -1, 0, 0, TENSOR_E_OVERFLOW);
}
END_TEST

START_TEST(from_buffer_release_once_after_last_view) {
  float buf[4] = {1, 2, 3, 4};
  release_count rc = {0};
  tensor_t *t = NULL, *view = NULL;
  ck_ok(tensor_from_buffer(&t, buf, sizeof buf, TENSOR_FLOAT32, -1, 0, 0, count_release, &rc));
  ck_assert_ptr_eq(tensor_retain(t), t);
  ck_assert_int_eq(tensor_refcount(t), 2);
  const int64_t sizes[2] = {2, 2}, strides[2] = {1, 2};
  ck_ok(tensor_from_storage(&view, tensor_storage(t), TENSOR_FLOAT32, 2, sizes, strides, 0));
  tensor_release(t);
  tensor_release(t);
  ck_assert_int_eq(rc.calls, 0);
  ck_assert(((float *)tensor_data(view))[3] == 4.0f);
  tensor_release(view);
  ck_assert_int_eq(rc.calls, 1);
}
END_TEST

START_TEST(from_buffer_readonly_flag) {
  const double buf[3] = {1, 2, 3};
  tensor_t *t = NULL;
  ck_ok(tensor_from_buffer(&t, (void *)buf, sizeof buf, TENSOR_FLOAT64, -1, 0, TENSOR_READONLY, NULL, NULL));
  ck_assert_int_eq(tensor_is_readonly(t), 1);
  ck_assert_int_eq(tensor_storage_is_readonly(tensor_storage(t)), 1);
  ck_assert_ptr_eq(tensor_data(t), buf);
  tensor_release(t);
}
END_TEST

/* ---- tensor_from_blob ---------------------------------------------------- */

/* data is element [0,...,0]; the storage covers exactly the addressed bytes,
   whatever the strides' signs. */
START_TEST(from_blob_negative_strides_cover_addressed_bytes) {
  int32_t buf[12];
  for (int i = 0; i < 12; ++i) buf[i] = i;
  const int64_t sizes[] = {3, 4}, strides[] = {-4, -1};
  release_count rc = {0};
  tensor_t *t = NULL;
  ck_ok(tensor_from_blob(&t, &buf[11], TENSOR_INT32, 2, sizes, strides, 0, count_release, &rc));
  ck_assert_ptr_eq(tensor_data(t), &buf[11]);
  ck_assert_ptr_eq(tensor_storage_data(tensor_storage(t)), &buf[0]);
  ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), sizeof buf);
  ck_assert_int_eq(tensor_storage_offset(t), 11);
  ck_layout(t, 2, sizes, strides);
  /* a view one element past the window is refused: the storage knows its bytes */
  tensor_t *v = SENTINEL;
  const int64_t one = 1;
  ck_status(tensor_as_strided(&v, t, 1, &one, NULL, 12), TENSOR_E_BOUNDS);
  ck_assert_ptr_null(v);
  /* the elements read back reversed */
  tensor_t *c = NULL;
  ck_ok(tensor_contiguous(&c, t));
  for (int i = 0; i < 12; ++i) ck_assert_int_eq(((int32_t *)tensor_data(c))[i], 11 - i);
  tensor_release(c);
  ck_assert_int_eq(rc.calls, 0);
  tensor_release(t);
  ck_assert_int_eq(rc.calls, 1);
}
END_TEST

START_TEST(from_blob_contiguous_zero_stride_and_empty) {
  float buf[6] = {0, 1, 2, 3, 4, 5};
  const int64_t sizes[] = {2, 3};
  tensor_t *t = NULL;
  ck_ok(tensor_from_blob(&t, buf, TENSOR_FLOAT32, 2, sizes, NULL, TENSOR_READONLY, NULL, NULL));
  const int64_t contiguous[] = {3, 1};
  ck_layout(t, 2, sizes, contiguous);
  ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), sizeof buf);
  ck_assert_int_eq(tensor_is_readonly(t), 1);
  ck_status(tensor_fill(t, 1.0), TENSOR_E_READONLY);
  tensor_release(t);

  const int64_t five = 5, zero_stride = 0;
  ck_ok(tensor_from_blob(&t, &buf[2], TENSOR_FLOAT32, 1, &five, &zero_stride, 0, NULL, NULL));
  ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), sizeof(float));
  tensor_release(t);

  const int64_t empty[] = {0, 3};
  ck_ok(tensor_from_blob(&t, NULL, TENSOR_FLOAT32, 2, empty, NULL, 0, NULL, NULL));
  ck_assert_int_eq(tensor_numel(t), 0);
  ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), 0);
  tensor_release(t);
}
END_TEST

/* Every rejection leaves *out NULL and never calls release. */
START_TEST(from_blob_rejections) {
  char buf[64];
  release_count rc = {0};
  const int64_t two = 2, negative = -1, huge_stride = INT64_MAX;
  int64_t many[TENSOR_MAX_DIMS + 1];
  for (int i = 0; i <= TENSOR_MAX_DIMS; ++i) many[i] = 1;
  tensor_t *t = SENTINEL;
  ck_status(tensor_from_blob(NULL, buf, TENSOR_UINT8, 1, &two, NULL, 0, count_release, &rc), TENSOR_E_INVALID);
  for (int i = 0; i < N_UNKNOWN; ++i) {
    t = SENTINEL;
    ck_status(tensor_from_blob(&t, buf, unknown_dtypes[i], 1, &two, NULL, 0, count_release, &rc), TENSOR_E_INVALID);
    ck_assert_ptr_null(t);
  }
  ck_status(tensor_from_blob(&t, buf, TENSOR_UINT8, 1, &two, NULL, 2, count_release, &rc), TENSOR_E_INVALID);
  ck_status(tensor_from_blob(&t, buf, TENSOR_UINT8, TENSOR_MAX_DIMS + 1, many, NULL, 0, count_release, &rc),
            TENSOR_E_INVALID);
  ck_status(tensor_from_blob(&t, buf, TENSOR_UINT8, -1, many, NULL, 0, count_release, &rc), TENSOR_E_INVALID);
  ck_status(tensor_from_blob(&t, buf, TENSOR_UINT8, 1, NULL, NULL, 0, count_release, &rc), TENSOR_E_INVALID);
  ck_status(tensor_from_blob(&t, buf, TENSOR_UINT8, 1, &negative, NULL, 0, count_release, &rc), TENSOR_E_INVALID);
  ck_status(tensor_from_blob(&t, NULL, TENSOR_UINT8, 1, &two, NULL, 0, count_release, &rc), TENSOR_E_INVALID);
  ck_status(tensor_from_blob(&t, buf, TENSOR_INT64, 1, &two, &huge_stride, 0, count_release, &rc),
            TENSOR_E_OVERFLOW);
  ck_assert_ptr_null(t);
  ck_assert_int_eq(rc.calls, 0);
}
END_TEST

/* With several problems, the one named is the first of: the element count,
   NULL data, the extent, the address window. */
START_TEST(from_blob_names_the_first_problem) {
  char buf[64];
  release_count rc = {0};
  tensor_t *t = SENTINEL;
  const int64_t uncountable[2] = {INT64_MAX, 2}, two = 2, back = -1, huge_stride = INT64_MAX;
  const int64_t far_back = -((int64_t)1 << 62), empty[2] = {INT64_MAX, 0};
  const struct {
    void *data;
    int64_t ndim;
    const int64_t *sizes, *strides;
    tensor_status_t status;
    const char *named;
  } cases[] = {
      {NULL, 2, uncountable, NULL, TENSOR_E_OVERFLOW, "number of elements"},
      {buf, 2, uncountable, (const int64_t[]){-1, -1}, TENSOR_E_OVERFLOW, "number of elements"},
      {NULL, 1, &two, &back, TENSOR_E_INVALID, "data is NULL for 2 elements"},
      {NULL, 1, &two, &huge_stride, TENSOR_E_INVALID, "data is NULL"},
      {buf, 1, &two, &huge_stride, TENSOR_E_OVERFLOW, "overflows int64"},
      {buf, 1, &two, &far_back, TENSOR_E_OVERFLOW, "leaves the address space"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
    ck_status(tensor_from_blob(&t, cases[i].data, TENSOR_INT8, cases[i].ndim, cases[i].sizes, cases[i].strides, 0,
                               count_release, &rc),
              cases[i].status);
    ck_assert_msg(strstr(tensor_last_error(), cases[i].named) != NULL, "case %zu: %s", i, tensor_last_error());
    ck_assert_ptr_null(t);
  }
  ck_assert_int_eq(rc.calls, 0);
  /* Contiguous elements from an address 4 bytes below the end of the address
     space: the window starts at byte 0 of the first element, not "-0". */
  const int64_t eight = 8;
  ck_status(tensor_from_blob(&t, (void *)(UINTPTR_MAX - 3), TENSOR_INT8, 1, &eight, NULL, 0, count_release, &rc),
            TENSOR_E_OVERFLOW);
  ck_assert_str_eq(tensor_last_error(), "from_blob: the view spans bytes [0, 8) around its first element, which "
                                        "leaves the address space (sizes [8], strides [1])");
  ck_assert_int_eq(rc.calls, 0);
  /* no elements: nothing overflows, and NULL data is fine */
  ck_ok(tensor_from_blob(&t, NULL, TENSOR_INT8, 2, empty, (const int64_t[]){INT64_MAX, INT64_MIN}, 0, count_release,
                         &rc));
  ck_assert_int_eq(tensor_numel(t), 0);
  tensor_release(t);
  ck_assert_int_eq(rc.calls, 1);
}
END_TEST

/* ---- tensor_empty / tensor_zeros / tensor_from_data --------------------- */

typedef tensor_status_t (*make_fn)(tensor_t **, int64_t, const int64_t *, tensor_dtype_t);

static tensor_status_t make_from_data(tensor_t **out, int64_t ndim, const int64_t *sizes,
                                      tensor_dtype_t dtype) {
  static const unsigned char zeros[4096] = {0};
  return tensor_from_data(out, zeros, ndim, sizes, dtype);
}

static const make_fn makers[] = {tensor_empty, tensor_zeros, make_from_data};
static const char *const maker_names[] = {"empty", "zeros", "from_data"};

START_TEST(new_tensor_layout) {
  const make_fn make = makers[_i];
  tensor_t *t = NULL;
  const int64_t sizes[3] = {2, 1, 3}, strides[3] = {3, 3, 1};
  ck_ok(make(&t, 3, sizes, TENSOR_FLOAT64));
  ck_layout(t, 3, sizes, strides);
  ck_assert_int_eq(tensor_numel(t), 6);
  ck_assert_int_eq(tensor_storage_offset(t), 0);
  ck_assert_int_eq(tensor_is_contiguous(t), 1);
  ck_assert_int_eq(tensor_is_readonly(t), 0);
  ck_assert_int_eq(tensor_refcount(t), 1);
  ck_assert_int_eq(tensor_storage_refcount(tensor_storage(t)), 1);
  ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), 48);
  ck_assert_uint_eq((uintptr_t)tensor_data(t) % 64, 0);
  ((double *)tensor_data(t))[5] = 1.5; /* writable */
  tensor_release(t);
}
END_TEST

START_TEST(new_tensor_size_zero_and_zero_dim) {
  const make_fn make = makers[_i];
  tensor_t *t = NULL;
  const int64_t s03[2] = {0, 3}, st03[2] = {3, 1};
  ck_ok(make(&t, 2, s03, TENSOR_INT32));
  ck_layout(t, 2, s03, st03);
  ck_assert_int_eq(tensor_numel(t), 0);
  ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), 0);
  ck_assert_int_eq(tensor_is_contiguous(t), 1);
  tensor_release(t);

  const int64_t s30[2] = {3, 0}, st30[2] = {1, 1}; /* torch.empty(3, 0).stride() */
  ck_ok(make(&t, 2, s30, TENSOR_INT32));
  ck_layout(t, 2, s30, st30);
  tensor_release(t);

  ck_ok(make(&t, 0, NULL, TENSOR_COMPLEX128));
  ck_assert_int_eq(tensor_ndim(t), 0);
  ck_assert_int_eq(tensor_numel(t), 1);
  ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), 16);
  ck_assert_int_eq(tensor_is_contiguous(t), 1);
  tensor_release(t);

  int64_t ones[64];
  for (int i = 0; i < 64; ++i) ones[i] = 1;
  ck_ok(make(&t, 64, ones, TENSOR_UINT8));
  ck_assert_int_eq(tensor_ndim(t), 64);
  ck_assert_int_eq(tensor_numel(t), 1);
  tensor_release(t);
}
END_TEST

/* Shapes with a 0 whose contiguous strides overflow: PyTorch's strides wrap
   (torch.empty(0, 2**40, 2**40).stride() == (0, 2**40, 1)), and a 0 anywhere means
   no elements, whatever the order: [1, 2**62, 2, 0] and [2**40, 2**40, 0] are valid
   empty shapes (PyTorch refuses the second: "Storage size calculation overflowed"). */
START_TEST(new_tensor_huge_empty_shapes_like_torch) {
  const make_fn make = makers[_i];
  tensor_t *t = (tensor_t *)1;
  const int64_t big = (int64_t)1 << 40, huge = (int64_t)1 << 62;
  const int64_t s1[3] = {0, big, big}, st1[3] = {0, big, 1};
  ck_ok(make(&t, 3, s1, TENSOR_UINT8));
  ck_layout(t, 3, s1, st1);
  ck_assert_int_eq(tensor_is_contiguous(t), 1);
  tensor_release(t);
  const int64_t s2[4] = {1, huge, 2, 0}, st2[4] = {INT64_MIN, 2, 1, 1};
  ck_ok(make(&t, 4, s2, TENSOR_UINT8));
  ck_layout(t, 4, s2, st2);
  tensor_release(t);
  const int64_t s3[3] = {big, big, 0}, st3[3] = {big, 1, 1};
  ck_ok(make(&t, 3, s3, TENSOR_UINT8));
  ck_layout(t, 3, s3, st3);
  ck_assert_int_eq(tensor_numel(t), 0);
  tensor_release(t);
  const int64_t s4[2] = {big, big << 20}; /* no 0: the product must fit int64 */
  ck_status(make(&t, 2, s4, TENSOR_UINT8), TENSOR_E_OVERFLOW);
  ck_assert_ptr_null(t);
}
END_TEST

START_TEST(new_tensor_rejections) {
  const make_fn make = makers[_i];
  const int64_t sizes[2] = {2, 3}, negative[2] = {2, -3};
  int64_t many[65];
  for (int i = 0; i < 65; ++i) many[i] = 1;
  tensor_t *t;
#define EXPECT_FAILS(call, code)                                                  \
  do {                                                                          \
    t = SENTINEL;                                                               \
    ck_status(call, code);                                                      \
    ck_assert_msg(t == NULL, "%s: *out not NULL after failure", maker_names[_i]); \
  } while (0)
  ck_status(make(NULL, 2, sizes, TENSOR_FLOAT32), TENSOR_E_INVALID);
  EXPECT_FAILS(make(&t, 2, negative, TENSOR_FLOAT32), TENSOR_E_INVALID);
  EXPECT_FAILS(make(&t, 65, many, TENSOR_FLOAT32), TENSOR_E_INVALID);
  EXPECT_FAILS(make(&t, -1, sizes, TENSOR_FLOAT32), TENSOR_E_INVALID);
  EXPECT_FAILS(make(&t, 2, NULL, TENSOR_FLOAT32), TENSOR_E_INVALID);
  for (int i = 0; i < N_UNKNOWN; ++i) EXPECT_FAILS(make(&t, 2, sizes, unknown_dtypes[i]), TENSOR_E_INVALID);
  const int64_t huge[2] = {INT64_C(1) << 62, 4};
  EXPECT_FAILS(make(&t, 2, huge, TENSOR_UINT8), TENSOR_E_OVERFLOW);
  const int64_t max2[2] = {INT64_MAX, 2};
  EXPECT_FAILS(make(&t, 2, max2, TENSOR_UINT8), TENSOR_E_OVERFLOW);
  /* numel fits in int64, the byte count does not. */
  const int64_t bytes_overflow[1] = {INT64_C(1) << 61};
  EXPECT_FAILS(make(&t, 1, bytes_overflow, TENSOR_FLOAT64), TENSOR_E_OVERFLOW);
  const int64_t three_way[3] = {INT64_C(1) << 21, INT64_C(1) << 21, INT64_C(1) << 21};
  EXPECT_FAILS(make(&t, 3, three_way, TENSOR_UINT8), TENSOR_E_OVERFLOW);
#undef EXPECT_FAILS
}
END_TEST

START_TEST(zeros_are_zero_for_every_dtype) {
  for (int i = 0; i < N_DTYPES; ++i) {
    tensor_t *t = NULL;
    const int64_t sizes[2] = {3, 5};
    ck_ok(tensor_zeros(&t, 2, sizes, all_dtypes[i]));
    ck_assert_int_eq(tensor_dtype(t), all_dtypes[i]);
    const size_t n = tensor_storage_nbytes(tensor_storage(t));
    ck_assert_uint_eq(n, 15 * tensor_dtype_size(all_dtypes[i]));
    const unsigned char *p = tensor_data(t);
    for (size_t b = 0; b < n; ++b) ck_assert_uint_eq(p[b], 0);
    tensor_release(t);
  }
}
END_TEST

START_TEST(empty_every_dtype) {
  for (int i = 0; i < N_DTYPES; ++i) {
    tensor_t *t = NULL;
    const int64_t sizes[1] = {7};
    ck_ok(tensor_empty(&t, 1, sizes, all_dtypes[i]));
    ck_assert_int_eq(tensor_dtype(t), all_dtypes[i]);
    ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), 7 * tensor_dtype_size(all_dtypes[i]));
    memset(tensor_data(t), 0x5a, 7 * tensor_dtype_size(all_dtypes[i]));
    tensor_release(t);
  }
}
END_TEST

START_TEST(from_data_copies) {
  float src[6] = {1, 2, 3, 4, 5, 6};
  const int64_t sizes[2] = {3, 2};
  tensor_t *t = NULL;
  ck_ok(tensor_from_data(&t, src, 2, sizes, TENSOR_FLOAT32));
  ck_assert_ptr_ne(tensor_data(t), src);
  ck_assert_int_eq(memcmp(tensor_data(t), src, sizeof src), 0);
  src[0] = 100; /* the tensor has its own copy */
  ck_assert(((float *)tensor_data(t))[0] == 1.0f);
  ck_assert_int_eq(tensor_is_readonly(t), 0);
  tensor_release(t);

  const int64_t scalar = INT64_C(-1234567890123);
  ck_ok(tensor_from_data(&t, &scalar, 0, NULL, TENSOR_INT64));
  ck_assert_int_eq(*(int64_t *)tensor_data(t), scalar);
  tensor_release(t);
}
END_TEST

START_TEST(from_data_null_data) {
  const int64_t sizes[1] = {4}, empty[1] = {0};
  tensor_t *t = SENTINEL;
  ck_status(tensor_from_data(&t, NULL, 1, sizes, TENSOR_FLOAT32), TENSOR_E_INVALID);
  ck_assert_ptr_null(t);
  t = SENTINEL;
  ck_status(tensor_from_data(&t, NULL, 0, NULL, TENSOR_FLOAT32), TENSOR_E_INVALID);
  ck_assert_ptr_null(t);
  /* Nothing to copy: NULL data is fine. */
  ck_ok(tensor_from_data(&t, NULL, 1, empty, TENSOR_FLOAT32));
  ck_assert_int_eq(tensor_numel(t), 0);
  tensor_release(t);
}
END_TEST

static Suite *creation_suite(void) {
  Suite *s = suite_create("creation");
  TCase *tc = tcase_create("from_storage");
  tcase_add_test(tc, from_storage_contiguous_default);
  tcase_add_test(tc, from_storage_offset_and_exact_fit);
  tcase_add_test(tc, from_storage_negative_strides);
  tcase_add_test(tc, from_storage_zero_strides);
  tcase_add_test(tc, from_storage_empty_views_address_nothing);
  tcase_add_test(tc, from_storage_zero_dim);
  tcase_add_test(tc, from_storage_negative_offset);
  tcase_add_test(tc, from_storage_bounds_message_names_values);
  tcase_add_test(tc, from_storage_overflow);
  tcase_add_test(tc, from_storage_invalid_arguments);
  tcase_add_test(tc, from_storage_max_dims);
  suite_add_tcase(s, tc);

  tc = tcase_create("from_buffer");
  tcase_add_test(tc, from_buffer_whole_buffer);
  tcase_add_test(tc, from_buffer_offset_and_count);
  tcase_add_test(tc, from_buffer_every_dtype);
  tcase_add_test(tc, from_buffer_rejections);
  tcase_add_test(tc, from_buffer_count_overflow);
  tcase_add_test(tc, from_buffer_release_once_after_last_view);
  tcase_add_test(tc, from_buffer_readonly_flag);
  suite_add_tcase(s, tc);

  tc = tcase_create("from_blob");
  tcase_add_test(tc, from_blob_negative_strides_cover_addressed_bytes);
  tcase_add_test(tc, from_blob_contiguous_zero_stride_and_empty);
  tcase_add_test(tc, from_blob_rejections);
  tcase_add_test(tc, from_blob_names_the_first_problem);
  suite_add_tcase(s, tc);

  tc = tcase_create("empty_zeros_from_data");
  tcase_add_loop_test(tc, new_tensor_layout, 0, 3);
  tcase_add_loop_test(tc, new_tensor_size_zero_and_zero_dim, 0, 3);
  tcase_add_loop_test(tc, new_tensor_huge_empty_shapes_like_torch, 0, 3);
  tcase_add_loop_test(tc, new_tensor_rejections, 0, 3);
  tcase_add_test(tc, zeros_are_zero_for_every_dtype);
  tcase_add_test(tc, empty_every_dtype);
  tcase_add_test(tc, from_data_copies);
  tcase_add_test(tc, from_data_null_data);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(creation_suite()); }
