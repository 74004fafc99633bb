/* Errors: stable status values and names, the thread-local last-error message,
   and at least one test producing each status code the library can give.
   TENSOR_E_IO and TENSOR_E_FORMAT belong to the files API (a later issue); their
   values and names are checked here, their production by that suite. */
#include <pthread.h>
#include <stdio.h>

#include "common.h"
#include "ctensor_arrow.h"

#define SENTINEL ((tensor_t *)(uintptr_t)0x1)

/* ---- status values and names ------------------------------------------- */

START_TEST(status_values_are_fixed) {
  ck_assert_int_eq(TENSOR_OK, 0);
  ck_assert_int_eq(TENSOR_E_INVALID, 1);
  ck_assert_int_eq(TENSOR_E_NOMEM, 2);
  ck_assert_int_eq(TENSOR_E_BOUNDS, 3);
  ck_assert_int_eq(TENSOR_E_SHAPE, 4);
  ck_assert_int_eq(TENSOR_E_STRIDE, 5);
  ck_assert_int_eq(TENSOR_E_DTYPE, 6);
  ck_assert_int_eq(TENSOR_E_OVERFLOW, 7);
  ck_assert_int_eq(TENSOR_E_READONLY, 8);
  ck_assert_int_eq(TENSOR_E_OVERLAP, 9);
  ck_assert_int_eq(TENSOR_E_DEVICE, 10);
  ck_assert_int_eq(TENSOR_E_COPY, 11);
  ck_assert_int_eq(TENSOR_E_IO, 12);
  ck_assert_int_eq(TENSOR_E_FORMAT, 13);
  ck_assert_int_eq(TENSOR_E_UNSUPPORTED, 14);
  ck_assert_int_eq(TENSOR_E_INTERNAL, 15);
  ck_assert_int_eq(TENSOR_E_CANCELLED, 16);
}
END_TEST

START_TEST(status_names) {
  static const char *const names[17] = {
      "TENSOR_OK",         "TENSOR_E_INVALID", "TENSOR_E_NOMEM",  "TENSOR_E_BOUNDS",
      "TENSOR_E_SHAPE",    "TENSOR_E_STRIDE",  "TENSOR_E_DTYPE",  "TENSOR_E_OVERFLOW",
      "TENSOR_E_READONLY", "TENSOR_E_OVERLAP", "TENSOR_E_DEVICE", "TENSOR_E_COPY",
      "TENSOR_E_IO",       "TENSOR_E_FORMAT",  "TENSOR_E_UNSUPPORTED", "TENSOR_E_INTERNAL",
      "TENSOR_E_CANCELLED"};
  for (int i = 0; i < 17; ++i) ck_assert_str_eq(tensor_status_name(i), names[i]);
  static const tensor_status_t unknown[] = {-1, 17, 18, 100, INT32_MAX, INT32_MIN};
  for (size_t i = 0; i < sizeof unknown / sizeof *unknown; ++i)
    ck_assert_ptr_null(tensor_status_name(unknown[i]));
}
END_TEST

/* ---- the last error ----------------------------------------------------- */

static void *read_last_error(void *arg) {
  char *copy = arg;
  const char *e = tensor_last_error();
  snprintf(copy, 256, "%s", e ? e : "(null)");
  return NULL;
}

START_TEST(fresh_thread_has_empty_message) {
  char seen[256] = "untouched";
  pthread_t th;
  ck_assert_int_eq(pthread_create(&th, NULL, read_last_error, seen), 0);
  ck_assert_int_eq(pthread_join(th, NULL), 0);
  ck_assert_str_eq(seen, "");
}
END_TEST

struct fail_on_thread {
  tensor_status_t status;
  char message[256];
};

static void *fail_negative_size(void *arg) {
  struct fail_on_thread *r = arg;
  const int64_t sizes[1] = {-77};
  tensor_t *t = NULL;
  r->status = tensor_empty(&t, 1, sizes, TENSOR_INT8);
  snprintf(r->message, sizeof r->message, "%s", tensor_last_error());
  return NULL;
}

START_TEST(last_error_is_thread_local) {
  /* A failure on this thread ... */
  tensor_t *t = NULL;
  const int64_t sizes[1] = {3};
  ck_status(tensor_empty(&t, 1, sizes, 42), TENSOR_E_INVALID);
  char mine[256];
  snprintf(mine, sizeof mine, "%s", tensor_last_error());
  ck_assert_msg(strstr(mine, "42") != NULL, "message: %s", mine);

  /* ... is not seen on another thread, */
  char seen[256] = "untouched";
  pthread_t th;
  ck_assert_int_eq(pthread_create(&th, NULL, read_last_error, seen), 0);
  ck_assert_int_eq(pthread_join(th, NULL), 0);
  ck_assert_str_eq(seen, "");

  /* and another thread's failure does not change this thread's message. */
  struct fail_on_thread other = {0, ""};
  ck_assert_int_eq(pthread_create(&th, NULL, fail_negative_size, &other), 0);
  ck_assert_int_eq(pthread_join(th, NULL), 0);
  ck_assert_int_eq(other.status, TENSOR_E_INVALID);
  ck_assert_msg(strstr(other.message, "-77") != NULL, "message: %s", other.message);
  ck_assert_str_eq(tensor_last_error(), mine);
}
END_TEST

START_TEST(success_leaves_message_unchanged) {
  tensor_storage_t *s = NULL;
  tensor_t *t = NULL;
  ck_status(tensor_storage_new(NULL, 8), TENSOR_E_INVALID);
  char before[256];
  snprintf(before, sizeof before, "%s", tensor_last_error());
  ck_assert_str_ne(before, "");

  float buf[4] = {0};
  const int64_t sizes[1] = {4};
  ck_ok(tensor_storage_new(&s, 16));
  ck_ok(tensor_from_storage(&t, s, TENSOR_FLOAT32, 1, sizes, NULL, 0));
  tensor_release(t);
  ck_ok(tensor_from_buffer(&t, buf, sizeof buf, TENSOR_FLOAT32, -1, 0, 0, NULL, NULL));
  tensor_t *c = NULL;
  ck_ok(tensor_clone(&c, t));
  ck_ok(tensor_fill(c, 1.0));
  tensor_release(c);
  tensor_release(t);
  tensor_storage_release(s);
#ifndef CTENSOR_FAULT_LOOP /* there every ck_ok first fails, as often as it allocates */
  ck_assert_str_eq(tensor_last_error(), before);
#endif
}
END_TEST

START_TEST(messages_name_the_values) {
  tensor_t *t = NULL;
  const int64_t neg[2] = {4, -5};
  ck_status(tensor_zeros(&t, 2, neg, TENSOR_FLOAT32), TENSOR_E_INVALID);
  ck_assert_msg(strstr(tensor_last_error(), "-5") != NULL, "%s", tensor_last_error());
  ck_status(tensor_zeros(&t, 65, neg, TENSOR_FLOAT32), TENSOR_E_INVALID);
  ck_assert_msg(strstr(tensor_last_error(), "65") != NULL, "%s", tensor_last_error());
  ck_status(tensor_zeros(&t, 1, neg, 13), TENSOR_E_INVALID);
  ck_assert_msg(strstr(tensor_last_error(), "13") != NULL, "%s", tensor_last_error());
  char buf[16];
  ck_status(tensor_from_buffer(&t, buf, sizeof buf, TENSOR_UINT8, -1, 99, 0, NULL, NULL), TENSOR_E_INVALID);
  ck_assert_msg(strstr(tensor_last_error(), "99") != NULL, "%s", tensor_last_error());

  /* The header's example: a 4096-byte storage and a view ending at byte 4100. */
  tensor_t *base = NULL, *v = NULL;
  const int64_t n[1] = {1024}, big[1] = {1025};
  ck_ok(tensor_zeros(&base, 1, n, TENSOR_FLOAT32));
  ck_status(tensor_as_strided(&v, base, 1, big, NULL, 0), TENSOR_E_BOUNDS);
  ck_assert_msg(strstr(tensor_last_error(), "as_strided") != NULL, "%s", tensor_last_error());
  ck_assert_msg(strstr(tensor_last_error(), "4100") != NULL, "%s", tensor_last_error());
  ck_assert_msg(strstr(tensor_last_error(), "4096") != NULL, "%s", tensor_last_error());
  tensor_release(base);
}
END_TEST

/* The numbers that stand for choices (flag words, modes, op codes, 0/1
   switches) are checked by the entry point before any work: an invalid one gives
   TENSOR_E_INVALID with a message that starts with the function's name and
   names the value. */
#define ck_bad_choice(call, prefix, value)                                                         \
  do {                                                                                             \
    ck_status(call, TENSOR_E_INVALID);                                                             \
    ck_assert_msg(strncmp(tensor_last_error(), prefix ": ", strlen(prefix ": ")) == 0, "%s: %s",   \
                  #call, tensor_last_error());                                                     \
    ck_assert_msg(strstr(tensor_last_error(), value) != NULL, "%s: %s", #call, tensor_last_error()); \
  } while (0)

static void never_released(void *ctx) { ck_abort_msg("release called for %p", ctx); }
static void schema_release_stub(struct ArrowSchema *schema) { (void)schema; }
static void array_release_stub(struct ArrowArray *array) { (void)array; }

START_TEST(choice_numbers_are_checked_by_the_entry_point) {
  tensor_t *t = NULL, *out = SENTINEL;
  const int64_t sizes[2] = {2, 3}, four = 4;
  ck_ok(tensor_zeros(&t, 2, sizes, TENSOR_FLOAT32));
  int32_t flag = -1;
  char buf[16] = {0};

  ck_bad_choice(tensor_to(&out, t, TENSOR_FLOAT64, 7), "to", "copy mode 7");
  ck_assert_ptr_null(out);
  ck_bad_choice(tensor_to_with(&out, t, TENSOR_FLOAT64, TENSOR_COPY_ALWAYS, 5, TENSOR_CONVERT_LIBRARY), "to_with",
                "memory format 5");
  ck_bad_choice(tensor_to_with(&out, t, TENSOR_FLOAT64, TENSOR_COPY_ALWAYS, TENSOR_CONTIGUOUS_FORMAT, 9), "to_with",
                "conversion 9");
  ck_bad_choice(tensor_empty_like(&out, t, TENSOR_FLOAT32, -3), "empty_like", "memory format -3");
  ck_bad_choice(tensor_zeros_like(&out, t, TENSOR_FLOAT32, 2), "zeros_like", "memory format 2");
  ck_bad_choice(tensor_copy_with(t, t, 6), "copy_with", "conversion 6");

  ck_bad_choice(tensor_from_buffer(&out, buf, sizeof buf, TENSOR_UINT8, -1, 0, 2, never_released, buf), "from_buffer",
                "flags 2");
  ck_bad_choice(tensor_from_blob(&out, buf, TENSOR_UINT8, 1, &four, NULL, 4, never_released, buf), "from_blob",
                "flags 4");
  tensor_storage_t *s = NULL;
  ck_bad_choice(tensor_storage_wrap(&s, buf, sizeof buf, 8, never_released, buf), "storage_wrap", "flags 8");
  ck_assert_ptr_null(s);
  ck_bad_choice(tensor_storage_map_file(&s, "/nonexistent/ctensor", 0, 0, 0), "storage_map_file", "flags 0");
  ck_bad_choice(tensor_storage_from_fd(&s, 0, sizeof buf, 8), "storage_from_fd", "flags 8");
  ck_bad_choice(tensor_load_npy(&out, "/nonexistent/ctensor.npy", 4), "load_npy", "flags 4");
  tensor_safetensors_t *st = NULL;
  ck_bad_choice(tensor_safetensors_open(&st, "/nonexistent/ctensor.safetensors", 8), "safetensors_open", "flags 8");
  ck_assert_ptr_null(st);

  DLManagedTensorVersioned *m = NULL;
  ck_bad_choice(tensor_to_dlpack(&m, t, 3), "to_dlpack", "flags 3");
  ck_assert_ptr_null(m);
  /* A failed export leaves both structs released, whatever was wrong. */
  struct ArrowSchema schema = {.release = schema_release_stub};
  struct ArrowArray array = {.release = array_release_stub};
  ck_bad_choice(tensor_to_arrow(&schema, &array, t, 2), "to_arrow", "flags 2");
  ck_assert_ptr_null(schema.release);
  ck_assert_ptr_null(array.release);
  schema.release = schema_release_stub;
  array.release = array_release_stub;
  ck_status(tensor_to_arrow(&schema, &array, NULL, 0), TENSOR_E_INVALID);
  ck_assert_ptr_null(schema.release);
  ck_assert_ptr_null(array.release);
  struct ArrowDeviceArray device_array;
  schema.release = schema_release_stub;
  ck_bad_choice(tensor_to_arrow_device(&schema, &device_array, t, 4), "to_arrow_device", "flags 4");
  ck_assert_ptr_null(schema.release);
  ck_assert_ptr_null(device_array.array.release);

  const int64_t dim0 = 0;
  ck_bad_choice(tensor_sum(&out, t, 1, &dim0, 3), "sum", "keepdim is 3");
  ck_bad_choice(tensor_amax(&out, t, 1, &dim0, -1), "amax", "keepdim is -1");
  ck_bad_choice(tensor_argmax(&out, t, 0, -2), "argmax", "keepdim is -2");
  ck_bad_choice(tensor_argmin_into(t, t, 0, 2), "argmin_into", "keepdim is 2");
  ck_bad_choice(tensor_allclose(&flag, t, t, 1e-5, 1e-8, 2), "allclose", "equal_nan is 2");
  ck_assert_int_eq(flag, 0);
  ck_bad_choice(tensor_binary_into(t, 13, t, t), "binary_into", "op 13");
  ck_bad_choice(tensor_binary_into(t, -1, t, t), "binary_into", "op -1");
  ck_bad_choice(tensor_unary(&out, 1000, t), "unary", "op 1000");
  ck_bad_choice(tensor_unary_into(t, -2, t), "unary_into", "op -2");
  ck_assert_ptr_null(out);
  tensor_release(t);
}
END_TEST

/* Every fallible function refuses NULL handles with TENSOR_E_INVALID, sets *out
   to NULL and never crashes. */
START_TEST(null_arguments_everywhere) {
  tensor_t *t = NULL, *out;
  const int64_t sizes[2] = {2, 3}, dims[2] = {1, 0};
  ck_ok(tensor_zeros(&t, 2, sizes, TENSOR_FLOAT32));
#define NULL_CASES(T)                                                   \
  X(tensor_as_strided(&out, T, 2, sizes, NULL, 0))                      \
  X(tensor_view(&out, T, 2, sizes))                                     \
  X(tensor_reshape(&out, T, 2, sizes))                                  \
  X(tensor_transpose(&out, T, 0, 1))                                    \
  X(tensor_permute(&out, T, 2, dims))                                   \
  X(tensor_slice(&out, T, 0, 0, 1, 1))                                  \
  X(tensor_select(&out, T, 0, 0))                                       \
  X(tensor_narrow(&out, T, 0, 0, 1))                                    \
  X(tensor_expand(&out, T, 2, sizes))                                   \
  X(tensor_broadcast_to(&out, T, 2, sizes))                             \
  X(tensor_squeeze(&out, T, 0))                                         \
  X(tensor_unsqueeze(&out, T, 0))                                       \
  X(tensor_flatten(&out, T, 0, -1))                                     \
  X(tensor_view_dtype(&out, T, TENSOR_INT32))                           \
  X(tensor_contiguous(&out, T))                                         \
  X(tensor_clone(&out, T))                                              \
  X(tensor_to(&out, T, TENSOR_FLOAT64, TENSOR_COPY_ALWAYS))
  /* NULL input tensor */
#define X(call)                           \
  out = SENTINEL;                         \
  ck_status(call, TENSOR_E_INVALID);      \
  ck_assert_msg(out == NULL, "%s: *out not NULL", #call);
  NULL_CASES(NULL)
#undef X
  /* NULL out, valid input */
  ck_status(tensor_as_strided(NULL, t, 2, sizes, NULL, 0), TENSOR_E_INVALID);
  ck_status(tensor_view(NULL, t, 2, sizes), TENSOR_E_INVALID);
  ck_status(tensor_reshape(NULL, t, 2, sizes), TENSOR_E_INVALID);
  ck_status(tensor_transpose(NULL, t, 0, 1), TENSOR_E_INVALID);
  ck_status(tensor_permute(NULL, t, 2, dims), TENSOR_E_INVALID);
  ck_status(tensor_slice(NULL, t, 0, 0, 1, 1), TENSOR_E_INVALID);
  ck_status(tensor_select(NULL, t, 0, 0), TENSOR_E_INVALID);
  ck_status(tensor_narrow(NULL, t, 0, 0, 1), TENSOR_E_INVALID);
  ck_status(tensor_expand(NULL, t, 2, sizes), TENSOR_E_INVALID);
  ck_status(tensor_broadcast_to(NULL, t, 2, sizes), TENSOR_E_INVALID);
  ck_status(tensor_squeeze(NULL, t, 0), TENSOR_E_INVALID);
  ck_status(tensor_unsqueeze(NULL, t, 0), TENSOR_E_INVALID);
  ck_status(tensor_flatten(NULL, t, 0, -1), TENSOR_E_INVALID);
  ck_status(tensor_view_dtype(NULL, t, TENSOR_INT32), TENSOR_E_INVALID);
  ck_status(tensor_contiguous(NULL, t), TENSOR_E_INVALID);
  ck_status(tensor_clone(NULL, t), TENSOR_E_INVALID);
  ck_status(tensor_to(NULL, t, TENSOR_FLOAT64, TENSOR_COPY_ALWAYS), TENSOR_E_INVALID);
  /* NULL arrays */
  out = SENTINEL;
  ck_status(tensor_as_strided(&out, t, 2, NULL, NULL, 0), TENSOR_E_INVALID);
  ck_assert_ptr_null(out);
  ck_status(tensor_view(&out, t, 2, NULL), TENSOR_E_INVALID);
  ck_status(tensor_permute(&out, t, 2, NULL), TENSOR_E_INVALID);
  ck_status(tensor_expand(&out, t, 2, NULL), TENSOR_E_INVALID);
  /* Writes */
  ck_status(tensor_copy(NULL, t), TENSOR_E_INVALID);
  ck_status(tensor_copy(t, NULL), TENSOR_E_INVALID);
  ck_status(tensor_fill(NULL, 1.0), TENSOR_E_INVALID);
  /* DLPack */
  DLManagedTensorVersioned *dl = (DLManagedTensorVersioned *)(uintptr_t)0x1;
  DLManagedTensor *legacy = (DLManagedTensor *)(uintptr_t)0x1;
  ck_status(tensor_to_dlpack(&dl, NULL, 0), TENSOR_E_INVALID);
  ck_assert_ptr_null(dl);
  ck_status(tensor_to_dlpack(NULL, t, 0), TENSOR_E_INVALID);
  ck_status(tensor_to_dlpack_legacy(&legacy, NULL), TENSOR_E_INVALID);
  ck_assert_ptr_null(legacy);
  ck_status(tensor_to_dlpack_legacy(NULL, t), TENSOR_E_INVALID);
  out = SENTINEL;
  ck_status(tensor_from_dlpack(&out, NULL), TENSOR_E_INVALID);
  ck_assert_ptr_null(out);
  out = SENTINEL;
  ck_status(tensor_from_dlpack_legacy(&out, NULL), TENSOR_E_INVALID);
  ck_assert_ptr_null(out);
  int32_t type = 99, id = 99;
  tensor_device(NULL, &type, &id);
  ck_assert_int_eq(type, 0);
  ck_assert_int_eq(id, -1);
  tensor_device(t, NULL, NULL);
  /* Threads setting */
  ck_status(tensor_set_num_threads(0), TENSOR_E_INVALID);
  ck_status(tensor_set_num_threads(-3), TENSOR_E_INVALID);
  ck_assert_int_ge(tensor_get_num_threads(), 1);
  /* None of this touched t. */
  ck_assert_int_eq(tensor_refcount(t), 1);
  ck_assert_int_eq(tensor_storage_refcount(tensor_storage(t)), 1);
  tensor_release(t);
#undef NULL_CASES
}
END_TEST

/* ---- every status code, produced ---------------------------------------- */

START_TEST(produces_invalid) {
  tensor_t *t = SENTINEL;
  ck_status(tensor_empty(NULL, 0, NULL, TENSOR_FLOAT32), TENSOR_E_INVALID);
  ck_status(tensor_empty(&t, 0, NULL, 8), TENSOR_E_INVALID);
  ck_assert_ptr_null(t);
  ck_status(tensor_clone(&t, NULL), TENSOR_E_INVALID);
  ck_status(tensor_copy(NULL, NULL), TENSOR_E_INVALID);
  tensor_t *m = NULL;
  const int64_t sizes[2] = {2, 3};
  ck_ok(tensor_zeros(&m, 2, sizes, TENSOR_INT32));
  ck_status(tensor_transpose(&t, m, 0, 2), TENSOR_E_INVALID);  /* dim out of range */
  ck_status(tensor_slice(&t, m, 0, 0, 2, 0), TENSOR_E_INVALID); /* step 0 */
  ck_status(tensor_to(&t, m, 8, TENSOR_COPY_ALWAYS), TENSOR_E_INVALID);
  ck_assert_ptr_null(t);
  tensor_release(m);
}
END_TEST

START_TEST(produces_nomem) {
  tensor_storage_t *s = (tensor_storage_t *)(uintptr_t)0x1;
  ck_status(tensor_storage_new(&s, (size_t)1 << 62), TENSOR_E_NOMEM);
  ck_assert_ptr_null(s);
  tensor_t *t = SENTINEL;
  const int64_t sizes[1] = {INT64_C(1) << 59}; /* 4 EiB of float64 */
  ck_status(tensor_empty(&t, 1, sizes, TENSOR_FLOAT64), TENSOR_E_NOMEM);
  ck_assert_ptr_null(t);
}
END_TEST

START_TEST(produces_bounds) {
  tensor_t *m = NULL, *t = SENTINEL;
  const int64_t sizes[2] = {2, 3}, strides[2] = {3, 1};
  ck_ok(tensor_zeros(&m, 2, sizes, TENSOR_INT32));
  ck_status(tensor_as_strided(&t, m, 2, sizes, strides, 1), TENSOR_E_BOUNDS);
  ck_assert_ptr_null(t);
  ck_status(tensor_select(&t, m, 1, 3), TENSOR_E_BOUNDS);
  ck_status(tensor_select(&t, m, 0, -3), TENSOR_E_BOUNDS);
  ck_status(tensor_narrow(&t, m, 1, 2, 2), TENSOR_E_BOUNDS);
  tensor_release(m);
}
END_TEST

START_TEST(produces_shape) {
  tensor_t *m = NULL, *t = SENTINEL;
  const int64_t sizes[2] = {2, 3}, seven[1] = {7}, two_minus[2] = {-1, -1}, four[1] = {4};
  ck_ok(tensor_zeros(&m, 2, sizes, TENSOR_FLOAT32));
  ck_status(tensor_view(&t, m, 1, seven), TENSOR_E_SHAPE);
  ck_assert_ptr_null(t);
  ck_status(tensor_view(&t, m, 2, two_minus), TENSOR_E_SHAPE);
  ck_status(tensor_expand(&t, m, 1, four), TENSOR_E_SHAPE);
  tensor_t *src = NULL;
  ck_ok(tensor_zeros(&src, 1, four, TENSOR_FLOAT32));
  ck_status(tensor_copy(m, src), TENSOR_E_SHAPE); /* [4] does not broadcast to [2, 3] */
  tensor_release(src);
  tensor_release(m);
}
END_TEST

START_TEST(produces_stride) {
  tensor_t *m = NULL, *tr = NULL, *t = SENTINEL;
  const int64_t sizes[2] = {2, 3}, six[1] = {6};
  ck_ok(tensor_zeros(&m, 2, sizes, TENSOR_FLOAT32));
  ck_ok(tensor_transpose(&tr, m, 0, 1));
  ck_status(tensor_view(&t, tr, 1, six), TENSOR_E_STRIDE);
  ck_assert_ptr_null(t);
  /* reshape copies instead */
  ck_ok(tensor_reshape(&t, tr, 1, six));
  ck_assert_int_eq(tensor_numel(t), 6);
  tensor_release(t);
  tensor_release(tr);
  tensor_release(m);
}
END_TEST

/* DLPack imports: a heap-free managed tensor whose deleter counts its calls. */
struct fake_dlpack {
  DLManagedTensorVersioned m;
  int64_t shape[1];
  int deleted;
};

static void fake_deleter(DLManagedTensorVersioned *self) { ((struct fake_dlpack *)self->manager_ctx)->deleted++; }

static void fake_init(struct fake_dlpack *f, int32_t device_type, uint8_t code, uint8_t bits,
                      uint16_t lanes, uint32_t major) {
  static float cpu_data[4];
  memset(f, 0, sizeof *f);
  f->shape[0] = 4;
  f->m.version.major = major;
  f->m.version.minor = 0;
  f->m.manager_ctx = f;
  f->m.deleter = fake_deleter;
  /* Device memory is never touched, so any address will do there. */
  f->m.dl_tensor.data = device_type == kDLCPU ? (void *)cpu_data : (void *)(uintptr_t)0x10000;
  f->m.dl_tensor.device.device_type = (DLDeviceType)device_type;
  f->m.dl_tensor.device.device_id = 0;
  f->m.dl_tensor.ndim = 1;
  f->m.dl_tensor.dtype.code = code;
  f->m.dl_tensor.dtype.bits = bits;
  f->m.dl_tensor.dtype.lanes = lanes;
  f->m.dl_tensor.shape = f->shape;
}

START_TEST(produces_dtype) {
  struct fake_dlpack f;
  tensor_t *t = SENTINEL;
  fake_init(&f, kDLCPU, kDLFloat, 32, 2, 1); /* two lanes */
  ck_status(tensor_from_dlpack(&t, &f.m), TENSOR_E_DTYPE);
  ck_assert_ptr_null(t);
  fake_init(&f, kDLCPU, kDLFloat, 8, 1, 1); /* float8 */
  ck_status(tensor_from_dlpack(&t, &f.m), TENSOR_E_DTYPE);
  ck_assert_int_eq(f.deleted, 0); /* on failure nothing is taken */
}
END_TEST

START_TEST(produces_overflow) {
  tensor_t *t = SENTINEL;
  const int64_t sizes[2] = {INT64_C(1) << 62, 4};
  ck_status(tensor_empty(&t, 2, sizes, TENSOR_FLOAT32), TENSOR_E_OVERFLOW);
  ck_assert_ptr_null(t);
  char buf[8];
  ck_status(tensor_from_buffer(&t, buf, sizeof buf, TENSOR_INT64, INT64_MAX, 0, 0, NULL, NULL),
            TENSOR_E_OVERFLOW);
  tensor_t *m = NULL;
  const int64_t two[1] = {2}, max_stride[1] = {INT64_MAX};
  ck_ok(tensor_zeros(&m, 1, two, TENSOR_UINT8));
  const int64_t three[1] = {3};
  ck_status(tensor_as_strided(&t, m, 1, three, max_stride, 0), TENSOR_E_OVERFLOW);
  tensor_release(m);
}
END_TEST

START_TEST(produces_readonly) {
  const float buf[4] = {1, 2, 3, 4};
  tensor_t *t = NULL;
  ck_ok(tensor_from_buffer(&t, (void *)buf, sizeof buf, TENSOR_FLOAT32, -1, 0, TENSOR_READONLY, NULL, NULL));
  ck_status(tensor_fill(t, 0.0), TENSOR_E_READONLY);
  ck_assert(buf[0] == 1.0f);
  tensor_release(t);
}
END_TEST

START_TEST(produces_overlap) {
  tensor_t *row = NULL, *wide = NULL, *src = NULL;
  const int64_t three[1] = {3}, sizes[2] = {4, 3};
  ck_ok(tensor_zeros(&row, 1, three, TENSOR_FLOAT64));
  ck_ok(tensor_expand(&wide, row, 2, sizes)); /* stride 0 on dim 0 */
  ck_ok(tensor_zeros(&src, 2, sizes, TENSOR_FLOAT64));
  ck_status(tensor_copy(wide, src), TENSOR_E_OVERLAP);
  ck_status(tensor_fill(wide, 1.0), TENSOR_E_OVERLAP);
  tensor_release(src);
  tensor_release(wide);
  tensor_release(row);
}
END_TEST

START_TEST(produces_device) {
  struct fake_dlpack f;
  tensor_t *t = NULL, *c = SENTINEL, *v = NULL;
  fake_init(&f, kDLCUDA, kDLFloat, 32, 1, 1);
  ck_ok(tensor_from_dlpack(&t, &f.m));
  int32_t type = -1, id = -1;
  tensor_device(t, &type, &id);
  ck_assert_int_eq(type, kDLCUDA);
  ck_assert_int_eq(id, 0);
  /* Metadata and views work; element access is refused. */
  ck_ok(tensor_slice(&v, t, 0, 1, 3, 1));
  ck_status(tensor_clone(&c, t), TENSOR_E_DEVICE);
  ck_assert_ptr_null(c);
  ck_status(tensor_fill(v, 1.0), TENSOR_E_DEVICE);
  tensor_release(v);
  tensor_release(t);
  ck_assert_int_eq(f.deleted, 1);
}
END_TEST

START_TEST(produces_copy) {
  tensor_t *m = NULL, *t = SENTINEL;
  const int64_t sizes[1] = {3};
  ck_ok(tensor_zeros(&m, 1, sizes, TENSOR_INT32));
  ck_status(tensor_to(&t, m, TENSOR_FLOAT32, TENSOR_COPY_NEVER), TENSOR_E_COPY);
  ck_assert_ptr_null(t);
  ck_ok(tensor_to(&t, m, TENSOR_INT32, TENSOR_COPY_NEVER)); /* no copy needed */
  tensor_release(t);
  tensor_release(m);
}
END_TEST

START_TEST(produces_unsupported) {
  struct fake_dlpack f;
  tensor_t *t = SENTINEL;
  fake_init(&f, kDLCPU, kDLFloat, 32, 1, 2); /* DLPack 2.0 */
  ck_status(tensor_from_dlpack(&t, &f.m), TENSOR_E_UNSUPPORTED);
  ck_assert_ptr_null(t);
  ck_assert_int_eq(f.deleted, 0);
}
END_TEST

static Suite *errors_suite(void) {
  Suite *s = suite_create("errors");
  TCase *tc = tcase_create("status");
  tcase_add_test(tc, status_values_are_fixed);
  tcase_add_test(tc, status_names);
  suite_add_tcase(s, tc);
  tc = tcase_create("last_error");
  tcase_add_test(tc, fresh_thread_has_empty_message);
  tcase_add_test(tc, last_error_is_thread_local);
  tcase_add_test(tc, success_leaves_message_unchanged);
  tcase_add_test(tc, messages_name_the_values);
  tcase_add_test(tc, choice_numbers_are_checked_by_the_entry_point);
  suite_add_tcase(s, tc);
  tc = tcase_create("every_code");
  tcase_add_test(tc, produces_invalid);
  tcase_add_test(tc, null_arguments_everywhere);
  tcase_add_test(tc, produces_nomem);
  tcase_add_test(tc, produces_bounds);
  tcase_add_test(tc, produces_shape);
  tcase_add_test(tc, produces_stride);
  tcase_add_test(tc, produces_dtype);
  tcase_add_test(tc, produces_overflow);
  tcase_add_test(tc, produces_readonly);
  tcase_add_test(tc, produces_overlap);
  tcase_add_test(tc, produces_device);
  tcase_add_test(tc, produces_copy);
  tcase_add_test(tc, produces_unsupported);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(errors_suite()); }
