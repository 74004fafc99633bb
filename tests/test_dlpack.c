/* DLPack exchange and device tags: round trips, deleter lifetimes, rejections. */
#include <pthread.h>

#include "common.h"

/* ---- helpers ------------------------------------------------------------ */

static const tensor_dtype_t kAllDtypes[] = {
    TENSOR_UINT8,     TENSOR_INT8,       TENSOR_INT16,   TENSOR_INT32,   TENSOR_INT64,
    TENSOR_FLOAT16,   TENSOR_FLOAT32,    TENSOR_FLOAT64, TENSOR_COMPLEX64,
    TENSOR_COMPLEX128, TENSOR_BOOL,      TENSOR_BFLOAT16, TENSOR_UINT16, TENSOR_UINT32,
    TENSOR_UINT64,
};
/* DLPack (code, bits) of each entry of kAllDtypes. */
static const uint8_t kExpectedCode[] = {kDLUInt,  kDLInt,   kDLInt,     kDLInt,     kDLInt,
                                        kDLFloat, kDLFloat, kDLFloat,   kDLComplex, kDLComplex,
                                        kDLBool,  kDLBfloat, kDLUInt,   kDLUInt,    kDLUInt};
static const uint8_t kExpectedBits[] = {8, 8, 16, 32, 64, 16, 32, 64, 64, 128, 8, 16, 16, 32, 64};
#define N_DTYPES ((int)(sizeof kAllDtypes / sizeof kAllDtypes[0]))

/* A foreign producer: a versioned and a legacy managed tensor with counting deleters. */
typedef struct {
  DLManagedTensorVersioned m;
  DLManagedTensor legacy;
  int64_t shape[4];
  int64_t strides[4];
  int deleted;
} Producer;

static void versioned_deleter(DLManagedTensorVersioned *self) {
  ((Producer *)self->manager_ctx)->deleted++;
}

static void legacy_deleter(DLManagedTensor *self) { ((Producer *)self->manager_ctx)->deleted++; }

/* Describes `data` as a DLPack tensor of `ndim` dims (shape/strides copied in; strides may be NULL). */
static void producer_init(Producer *p, void *data, DLDataType dtype, int32_t ndim,
                          const int64_t *shape, const int64_t *strides) {
  memset(p, 0, sizeof *p);
  DLTensor dl;
  memset(&dl, 0, sizeof dl);
  dl.data = data;
  dl.device.device_type = kDLCPU;
  dl.device.device_id = 0;
  dl.ndim = ndim;
  dl.dtype = dtype;
  for (int32_t i = 0; i < ndim && i < 4; ++i) {
    p->shape[i] = shape[i];
    if (strides) p->strides[i] = strides[i];
  }
  dl.shape = p->shape;
  dl.strides = strides ? p->strides : NULL;
  p->m.version.major = 1;
  p->m.version.minor = 0;
  p->m.manager_ctx = p;
  p->m.deleter = versioned_deleter;
  p->m.dl_tensor = dl;
  p->legacy.dl_tensor = dl;
  p->legacy.manager_ctx = p;
  p->legacy.deleter = legacy_deleter;
}

static DLDataType dl_type(uint8_t code, uint8_t bits, uint16_t lanes) {
  DLDataType t;
  t.code = code;
  t.bits = bits;
  t.lanes = lanes;
  return t;
}

static int release_count;
static void count_release(void *ctx) {
  (void)ctx;
  release_count++;
}

/* A 2x3 float32 tensor over caller memory whose release bumps release_count. */
static tensor_t *wrapped_2x3(float *buf, uint32_t flags) {
  tensor_storage_t *s = NULL;
  tensor_t *t = NULL;
  const int64_t sizes[2] = {2, 3};
  ck_ok(tensor_storage_wrap(&s, buf, 6 * sizeof(float), flags, count_release, NULL));
  ck_ok(tensor_from_storage(&t, s, TENSOR_FLOAT32, 2, sizes, NULL, 0));
  tensor_storage_release(s);
  return t;
}

/* ---- export --------------------------------------------------------------- */

START_TEST(test_export_fields) {
  const int64_t sizes[2] = {4, 5};
  tensor_t *base = NULL, *t = NULL, *rev = NULL;
  ck_ok(tensor_zeros(&base, 2, sizes, TENSOR_FLOAT32));
  ck_ok(tensor_transpose(&t, base, 0, 1));
  ck_ok(tensor_slice(&rev, t, 1, TENSOR_SLICE_END, INT64_MIN, -2)); /* [5, 2], strides [1, -10] */

  DLManagedTensorVersioned *m = (DLManagedTensorVersioned *)1;
  ck_ok(tensor_to_dlpack(&m, rev, 0));
  ck_assert_ptr_nonnull(m);
  ck_assert_uint_eq(m->version.major, 1);
  ck_assert_uint_eq(m->version.minor, DLPACK_MINOR_VERSION);
  ck_assert_uint_eq(m->flags, 0);
  ck_assert_ptr_nonnull(m->deleter);
  const DLTensor *dl = &m->dl_tensor;
  ck_assert_ptr_eq(dl->data, tensor_data(rev));
  ck_assert_uint_eq(dl->byte_offset, 0);
  ck_assert_int_eq(dl->device.device_type, kDLCPU);
  ck_assert_int_eq(dl->device.device_id, 0);
  ck_assert_int_eq(dl->ndim, 2);
  ck_assert_uint_eq(dl->dtype.code, kDLFloat);
  ck_assert_uint_eq(dl->dtype.bits, 32);
  ck_assert_uint_eq(dl->dtype.lanes, 1);
  ck_assert_ptr_nonnull(dl->strides);
  ck_assert_int_eq(dl->shape[0], 5);
  ck_assert_int_eq(dl->shape[1], 2);
  ck_assert_int_eq(dl->strides[0], 1);
  ck_assert_int_eq(dl->strides[1], -10);
  ck_assert_ptr_ne(dl->shape, tensor_sizes(rev)); /* the managed struct owns its arrays */
  ck_assert_int_eq(tensor_refcount(rev), 2);
  m->deleter(m);
  ck_assert_int_eq(tensor_refcount(rev), 1);
  tensor_release(rev);
  tensor_release(t);
  tensor_release(base);
}
END_TEST

START_TEST(test_export_dtypes_and_zero_dim) {
  for (int i = 0; i < N_DTYPES; ++i) {
    tensor_t *t = NULL;
    DLManagedTensorVersioned *m = NULL;
    ck_ok(tensor_zeros(&t, 0, NULL, kAllDtypes[i]));
    ck_ok(tensor_to_dlpack(&m, t, 0));
    ck_assert_uint_eq(m->dl_tensor.dtype.code, kExpectedCode[i]);
    ck_assert_uint_eq(m->dl_tensor.dtype.bits, kExpectedBits[i]);
    ck_assert_uint_eq(m->dl_tensor.dtype.lanes, 1);
    ck_assert_int_eq(m->dl_tensor.ndim, 0);
    ck_assert_ptr_nonnull(m->dl_tensor.shape);
    ck_assert_ptr_nonnull(m->dl_tensor.strides);
    tensor_release(t); /* the export keeps it alive */
    ck_assert_ptr_eq(m->dl_tensor.data, tensor_storage_data(tensor_storage(t)));
    m->deleter(m);
  }
}
END_TEST

START_TEST(test_export_keeps_tensor_alive) {
  float buf[6] = {0, 1, 2, 3, 4, 5};
  release_count = 0;
  tensor_t *t = wrapped_2x3(buf, 0);
  DLManagedTensorVersioned *m = NULL;
  DLManagedTensor *legacy = NULL;
  ck_ok(tensor_to_dlpack(&m, t, 0));
  ck_ok(tensor_to_dlpack_legacy(&legacy, t));
  tensor_release(t);
  ck_assert_int_eq(release_count, 0);
  ck_assert_float_eq(((float *)m->dl_tensor.data)[5], 5.0f);
  m->deleter(m);
  ck_assert_int_eq(release_count, 0);
  legacy->deleter(legacy);
  ck_assert_int_eq(release_count, 1);
}
END_TEST

START_TEST(test_export_rejections) {
  tensor_t *t = NULL;
  const int64_t n = 3;
  ck_ok(tensor_zeros(&t, 1, &n, TENSOR_INT32));
  DLManagedTensorVersioned *m = (DLManagedTensorVersioned *)1;
  DLManagedTensor *legacy = (DLManagedTensor *)1;
  ck_status(tensor_to_dlpack(&m, t, 1), TENSOR_E_INVALID);
  ck_assert_ptr_null(m);
  ck_status(tensor_to_dlpack(&m, NULL, 0), TENSOR_E_INVALID);
  ck_status(tensor_to_dlpack(NULL, t, 0), TENSOR_E_INVALID);
  ck_status(tensor_to_dlpack_legacy(&legacy, NULL), TENSOR_E_INVALID);
  ck_assert_ptr_null(legacy);
  ck_status(tensor_to_dlpack_legacy(NULL, t), TENSOR_E_INVALID);
  ck_assert_int_eq(tensor_refcount(t), 1);
  tensor_release(t);
}
END_TEST

/* ---- round trips ---------------------------------------------------------- */

START_TEST(test_roundtrip_all_dtypes) {
  const int64_t sizes[2] = {3, 4};
  for (int i = 0; i < N_DTYPES; ++i) {
    tensor_t *base = NULL, *t = NULL, *back = NULL, *legacy_back = NULL;
    ck_ok(tensor_zeros(&base, 2, sizes, kAllDtypes[i]));
    ck_ok(tensor_slice(&t, base, 1, TENSOR_SLICE_END, INT64_MIN, -1)); /* strides [4, -1] */

    DLManagedTensorVersioned *m = NULL;
    ck_ok(tensor_to_dlpack(&m, t, 0));
    ck_ok(tensor_from_dlpack(&back, m));
    DLManagedTensor *lm = NULL;
    ck_ok(tensor_to_dlpack_legacy(&lm, t));
    ck_ok(tensor_from_dlpack_legacy(&legacy_back, lm));

    const int64_t strides[2] = {4, -1};
    tensor_t *got[2] = {back, legacy_back};
    for (int k = 0; k < 2; ++k) {
      ck_assert_ptr_eq(tensor_data(got[k]), tensor_data(t));
      ck_layout(got[k], 2, sizes, strides);
      ck_assert_int_eq(tensor_dtype(got[k]), kAllDtypes[i]);
      ck_assert_int_eq(tensor_is_readonly(got[k]), 0);
      /* the storage covers exactly the 12 addressed elements */
      ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(got[k])),
                        12 * tensor_dtype_size(kAllDtypes[i]));
    }
    tensor_release(base);
    tensor_release(t);
    ck_assert_int_eq(tensor_refcount(back), 1);
    tensor_release(back); /* runs the export's deleter, which releases t */
    tensor_release(legacy_back);
  }
}
END_TEST

START_TEST(test_roundtrip_empty_and_scalar) {
  const int64_t sizes[2] = {0, 5};
  tensor_t *t = NULL, *back = NULL;
  DLManagedTensorVersioned *m = NULL;
  ck_ok(tensor_empty(&t, 2, sizes, TENSOR_FLOAT64));
  ck_ok(tensor_to_dlpack(&m, t, 0));
  ck_ok(tensor_from_dlpack(&back, m));
  ck_assert_int_eq(tensor_numel(back), 0);
  ck_assert_ptr_eq(tensor_data(back), tensor_data(t));
  tensor_release(back);
  tensor_release(t);

  const double value = 2.5;
  ck_ok(tensor_from_data(&t, &value, 0, NULL, TENSOR_FLOAT64));
  ck_ok(tensor_to_dlpack(&m, t, 0));
  ck_ok(tensor_from_dlpack(&back, m));
  ck_assert_int_eq(tensor_ndim(back), 0);
  ck_assert_int_eq(tensor_numel(back), 1);
  ck_assert_double_eq(*(const double *)tensor_data(back), 2.5);
  tensor_release(t);
  tensor_release(back);
}
END_TEST

/* ---- import ----------------------------------------------------------------- */

START_TEST(test_import_deleter_after_last_view) {
  float buf[6] = {0, 1, 2, 3, 4, 5};
  const int64_t shape[2] = {2, 3};
  Producer p;
  producer_init(&p, buf, dl_type(kDLFloat, 32, 1), 2, shape, NULL);
  tensor_t *t = NULL, *row = NULL;
  ck_ok(tensor_from_dlpack(&t, &p.m));
  const int64_t strides[2] = {3, 1};
  ck_layout(t, 2, shape, strides); /* NULL strides: compact row-major */
  ck_assert_ptr_eq(tensor_data(t), buf);
  ck_ok(tensor_select(&row, t, 0, 1));
  tensor_release(t);
  ck_assert_int_eq(p.deleted, 0);
  ck_assert_float_eq(((const float *)tensor_data(row))[2], 5.0f);
  tensor_release(row);
  ck_assert_int_eq(p.deleted, 1);
}
END_TEST

static void *release_on_thread(void *arg) {
  tensor_release((tensor_t *)arg);
  return NULL;
}

START_TEST(test_import_release_on_other_thread) {
  int32_t buf[4] = {1, 2, 3, 4};
  const int64_t shape[1] = {4};
  Producer p;
  producer_init(&p, buf, dl_type(kDLInt, 32, 1), 1, shape, NULL);
  tensor_t *t = NULL;
  ck_ok(tensor_from_dlpack_legacy(&t, &p.legacy));
  pthread_t thread;
  ck_assert_int_eq(pthread_create(&thread, NULL, release_on_thread, t), 0);
  ck_assert_int_eq(pthread_join(thread, NULL), 0);
  ck_assert_int_eq(p.deleted, 1);
}
END_TEST

START_TEST(test_import_null_deleter) {
  uint8_t buf[3] = {1, 0, 1};
  const int64_t shape[1] = {3};
  Producer p;
  producer_init(&p, buf, dl_type(kDLBool, 8, 1), 1, shape, NULL);
  p.m.deleter = NULL;
  tensor_t *t = NULL;
  ck_ok(tensor_from_dlpack(&t, &p.m));
  ck_assert_int_eq(tensor_dtype(t), TENSOR_BOOL);
  tensor_release(t);
  ck_assert_int_eq(p.deleted, 0);
}
END_TEST

START_TEST(test_import_byte_offset_negative_strides) {
  float buf[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  const int64_t shape[1] = {3};
  const int64_t strides[1] = {-2};
  Producer p;
  producer_init(&p, buf, dl_type(kDLFloat, 32, 1), 1, shape, strides);
  p.m.dl_tensor.byte_offset = 4 * sizeof(float); /* element 0 is buf[4]; then buf[2], buf[0] */
  tensor_t *t = NULL, *wider = NULL;
  ck_ok(tensor_from_dlpack(&t, &p.m));
  ck_assert_ptr_eq(tensor_data(t), &buf[4]);
  ck_assert_ptr_eq(tensor_storage_data(tensor_storage(t)), buf);
  ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), 5 * sizeof(float));
  ck_assert_int_eq(tensor_storage_offset(t), 4);
  ck_assert_int_eq(tensor_strides(t)[0], -2);
  /* views stay inside the addressed bytes: buf[5..9] are not the storage's */
  const int64_t all[1] = {5}, six[1] = {6};
  ck_ok(tensor_as_strided(&wider, t, 1, all, NULL, 0));
  tensor_release(wider);
  ck_status(tensor_as_strided(&wider, t, 1, six, NULL, 0), TENSOR_E_BOUNDS);
  ck_assert_ptr_null(wider);
  tensor_release(t);
  ck_assert_int_eq(p.deleted, 1);
}
END_TEST

START_TEST(test_import_zero_dim_and_empty) {
  double value = 1.5;
  Producer p;
  producer_init(&p, &value, dl_type(kDLFloat, 64, 1), 0, NULL, NULL);
  p.m.dl_tensor.shape = NULL; /* allowed for ndim 0 */
  tensor_t *t = NULL;
  ck_ok(tensor_from_dlpack(&t, &p.m));
  ck_assert_int_eq(tensor_ndim(t), 0);
  ck_assert_ptr_eq(tensor_data(t), &value);
  tensor_release(t);
  ck_assert_int_eq(p.deleted, 1);

  const int64_t shape[2] = {4, 0};
  producer_init(&p, NULL, dl_type(kDLInt, 64, 1), 2, shape, NULL);
  ck_ok(tensor_from_dlpack(&t, &p.m));
  ck_assert_int_eq(tensor_numel(t), 0);
  ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(t)), 0);
  tensor_release(t);
  ck_assert_int_eq(p.deleted, 1);
}
END_TEST

START_TEST(test_import_minor_versions) {
  int16_t buf[2] = {7, 8};
  const int64_t shape[1] = {2};
  Producer p;
  producer_init(&p, buf, dl_type(kDLInt, 16, 1), 1, shape, NULL);
  p.m.version.minor = 99; /* later minors only add enum values */
  tensor_t *t = NULL;
  ck_ok(tensor_from_dlpack(&t, &p.m));
  ck_assert_int_eq(tensor_dtype(t), TENSOR_INT16);
  tensor_release(t);
  ck_assert_int_eq(p.deleted, 1);
}
END_TEST

/* Each malformed producer is refused with its status, *out NULL and no deleter call. */
START_TEST(test_import_rejections) {
  float buf[4] = {0};
  const int64_t shape[2] = {2, 2};
  tensor_t *t = (tensor_t *)1;
  Producer p;
#define REJECT(setup, status)                                            \
  do {                                                                   \
    producer_init(&p, buf, dl_type(kDLFloat, 32, 1), 2, shape, NULL);    \
    setup;                                                               \
    t = (tensor_t *)1;                                                   \
    ck_status(tensor_from_dlpack(&t, &p.m), status);                     \
    ck_assert_ptr_null(t);                                               \
    p.legacy.dl_tensor = p.m.dl_tensor;                                  \
    if (p.m.version.major == 1) {                                        \
      t = (tensor_t *)1;                                                 \
      ck_status(tensor_from_dlpack_legacy(&t, &p.legacy), status);       \
      ck_assert_ptr_null(t);                                             \
    }                                                                    \
    ck_assert_int_eq(p.deleted, 0);                                      \
  } while (0)

  REJECT(p.m.version.major = 2, TENSOR_E_UNSUPPORTED);
  REJECT(p.m.version.major = 0, TENSOR_E_UNSUPPORTED);
  REJECT(p.m.dl_tensor.dtype.lanes = 4, TENSOR_E_DTYPE);
  REJECT(p.m.dl_tensor.dtype.lanes = 0, TENSOR_E_DTYPE);
  REJECT(p.m.dl_tensor.dtype = dl_type(kDLOpaqueHandle, 64, 1), TENSOR_E_DTYPE);
  REJECT(p.m.dl_tensor.dtype = dl_type(kDLFloat, 8, 1), TENSOR_E_DTYPE);
  REJECT(p.m.dl_tensor.dtype = dl_type(kDLBool, 16, 1), TENSOR_E_DTYPE);
  REJECT(p.m.dl_tensor.dtype = dl_type(kDLComplex, 32, 1), TENSOR_E_DTYPE);
  REJECT(p.m.dl_tensor.dtype = dl_type(kDLBfloat, 32, 1), TENSOR_E_DTYPE);
  REJECT(p.m.dl_tensor.dtype = dl_type(42, 32, 1), TENSOR_E_DTYPE);
  REJECT(p.m.dl_tensor.ndim = -1, TENSOR_E_INVALID);
  REJECT(p.m.dl_tensor.ndim = 65, TENSOR_E_INVALID);
  REJECT(p.m.dl_tensor.shape = NULL, TENSOR_E_INVALID);
  REJECT(p.shape[1] = -2, TENSOR_E_INVALID);
  REJECT(p.m.dl_tensor.data = NULL, TENSOR_E_INVALID);
  REJECT((p.shape[0] = INT64_MAX / 2, p.shape[1] = 4), TENSOR_E_OVERFLOW);
  REJECT((p.strides[0] = INT64_MAX, p.strides[1] = 1, p.m.dl_tensor.strides = p.strides),
         TENSOR_E_OVERFLOW);
  REJECT(p.m.dl_tensor.byte_offset = UINT64_MAX, TENSOR_E_OVERFLOW);
  /* negative strides reaching below address 0 */
  REJECT((p.m.dl_tensor.data = (void *)16, p.strides[0] = -8, p.strides[1] = 1,
          p.m.dl_tensor.strides = p.strides),
         TENSOR_E_OVERFLOW);
  /* a window running past the top of the address space */
  REJECT(p.m.dl_tensor.data = (void *)(UINTPTR_MAX - 8), TENSOR_E_OVERFLOW);
#undef REJECT

  ck_status(tensor_from_dlpack(&t, NULL), TENSOR_E_INVALID);
  ck_assert_ptr_null(t);
  ck_status(tensor_from_dlpack_legacy(&t, NULL), TENSOR_E_INVALID);
  ck_status(tensor_from_dlpack(NULL, &p.m), TENSOR_E_INVALID);
  ck_status(tensor_from_dlpack_legacy(NULL, &p.legacy), TENSOR_E_INVALID);
  ck_assert_int_eq(p.deleted, 0);
}
END_TEST

/* ---- read-only -------------------------------------------------------------- */

START_TEST(test_readonly_both_ways) {
  float buf[6] = {0};
  release_count = 0;
  tensor_t *t = wrapped_2x3(buf, TENSOR_READONLY), *back = NULL;
  DLManagedTensorVersioned *m = NULL;
  ck_ok(tensor_to_dlpack(&m, t, 0));
  ck_assert_uint_eq(m->flags & DLPACK_FLAG_BITMASK_READ_ONLY, DLPACK_FLAG_BITMASK_READ_ONLY);
  ck_ok(tensor_from_dlpack(&back, m));
  ck_assert_int_eq(tensor_is_readonly(back), 1);
  ck_status(tensor_fill(back, 1.0), TENSOR_E_READONLY);

  DLManagedTensor *legacy = (DLManagedTensor *)1;
  ck_status(tensor_to_dlpack_legacy(&legacy, t), TENSOR_E_READONLY);
  ck_assert_ptr_null(legacy);
  tensor_release(t);
  tensor_release(back);
  ck_assert_int_eq(release_count, 1);

  /* a foreign read-only producer */
  const int64_t shape[1] = {6};
  Producer p;
  producer_init(&p, buf, dl_type(kDLFloat, 32, 1), 1, shape, NULL);
  p.m.flags = DLPACK_FLAG_BITMASK_READ_ONLY | DLPACK_FLAG_BITMASK_IS_COPIED;
  ck_ok(tensor_from_dlpack(&back, &p.m));
  ck_assert_int_eq(tensor_is_readonly(back), 1);
  ck_assert_int_eq(tensor_storage_is_readonly(tensor_storage(back)), 1);
  tensor_release(back);
  p.m.flags = 0;
  ck_ok(tensor_from_dlpack(&back, &p.m));
  ck_assert_int_eq(tensor_is_readonly(back), 0);
  tensor_release(back);
  ck_assert_int_eq(p.deleted, 2);
}
END_TEST

/* ---- devices ---------------------------------------------------------------- */

START_TEST(test_device_of_cpu_and_null) {
  tensor_t *t = NULL;
  ck_ok(tensor_zeros(&t, 0, NULL, TENSOR_INT8));
  int32_t type = -5, id = -5;
  tensor_device(t, &type, &id);
  ck_assert_int_eq(type, kDLCPU);
  ck_assert_int_eq(id, 0);
  tensor_device(NULL, &type, &id);
  ck_assert_int_eq(type, 0);
  ck_assert_int_eq(id, -1);
  tensor_device(t, NULL, &id);
  ck_assert_int_eq(id, 0);
  tensor_device(t, &type, NULL);
  ck_assert_int_eq(type, kDLCPU);
  tensor_device(NULL, NULL, NULL);
  tensor_release(t);
}
END_TEST

/* A fake CUDA tensor with a bogus pointer: metadata works, element access is refused. */
START_TEST(test_device_tag_non_cpu) {
  const int64_t shape[2] = {4, 5};
  Producer p;
  producer_init(&p, (void *)(uintptr_t)0xdead0000u, dl_type(kDLFloat, 32, 1), 2, shape, NULL);
  p.m.dl_tensor.device.device_type = kDLCUDA;
  p.m.dl_tensor.device.device_id = 3;
  tensor_t *t = NULL, *tr = NULL, *sl = NULL, *out = (tensor_t *)1, *cpu = NULL;
  ck_ok(tensor_from_dlpack(&t, &p.m));
  ck_assert_ptr_eq(tensor_data(t), (void *)(uintptr_t)0xdead0000u);
  int32_t type = 0, id = 0;
  tensor_device(t, &type, &id);
  ck_assert_int_eq(type, kDLCUDA);
  ck_assert_int_eq(id, 3);

  ck_ok(tensor_transpose(&tr, t, 0, 1));
  ck_ok(tensor_slice(&sl, tr, 0, 1, 4, 2));
  tensor_device(sl, &type, &id);
  ck_assert_int_eq(type, kDLCUDA);
  ck_assert_int_eq(id, 3);
  ck_assert_int_eq(tensor_numel(sl), 8);

  ck_status(tensor_clone(&out, t), TENSOR_E_DEVICE);
  ck_assert_ptr_null(out);
  ck_status(tensor_contiguous(&out, tr), TENSOR_E_DEVICE);
  ck_status(tensor_fill(t, 0.0), TENSOR_E_DEVICE);
  ck_ok(tensor_zeros(&cpu, 2, shape, TENSOR_FLOAT32));
  ck_status(tensor_copy(cpu, t), TENSOR_E_DEVICE);
  ck_status(tensor_copy(t, cpu), TENSOR_E_DEVICE);

  /* exported again, the device is kept */
  DLManagedTensorVersioned *m = NULL;
  ck_ok(tensor_to_dlpack(&m, sl, 0));
  ck_assert_int_eq(m->dl_tensor.device.device_type, kDLCUDA);
  ck_assert_int_eq(m->dl_tensor.device.device_id, 3);
  ck_assert_ptr_eq(m->dl_tensor.data, tensor_data(sl));
  m->deleter(m);

  tensor_release(cpu);
  tensor_release(sl);
  tensor_release(tr);
  ck_assert_int_eq(p.deleted, 0);
  tensor_release(t);
  ck_assert_int_eq(p.deleted, 1);
}
END_TEST

/* Pinned and managed CUDA memory is CPU-addressable: element access works. */
START_TEST(test_device_cpu_accessible_kinds) {
  const int32_t kinds[2] = {kDLCUDAHost, kDLCUDAManaged};
  for (int k = 0; k < 2; ++k) {
    float buf[3] = {1, 2, 3};
    const int64_t shape[1] = {3};
    Producer p;
    producer_init(&p, buf, dl_type(kDLFloat, 32, 1), 1, shape, NULL);
    p.m.dl_tensor.device.device_type = (DLDeviceType)kinds[k];
    tensor_t *t = NULL, *c = NULL;
    ck_ok(tensor_from_dlpack(&t, &p.m));
    int32_t type = 0;
    tensor_device(t, &type, NULL);
    ck_assert_int_eq(type, kinds[k]);
    ck_ok(tensor_fill(t, 4.0));
    ck_assert_float_eq(buf[1], 4.0f);
    ck_ok(tensor_clone(&c, t));
    tensor_device(c, &type, NULL);
    ck_assert_int_eq(type, kDLCPU); /* copies are ctensor's own CPU memory */
    tensor_release(c);
    tensor_release(t);
    ck_assert_int_eq(p.deleted, 1);
  }
}
END_TEST

static Suite *dlpack_suite(void) {
  Suite *s = suite_create("dlpack");
  TCase *tc = tcase_create("export");
  tcase_add_test(tc, test_export_fields);
  tcase_add_test(tc, test_export_dtypes_and_zero_dim);
  tcase_add_test(tc, test_export_keeps_tensor_alive);
  tcase_add_test(tc, test_export_rejections);
  suite_add_tcase(s, tc);
  tc = tcase_create("roundtrip");
  tcase_add_test(tc, test_roundtrip_all_dtypes);
  tcase_add_test(tc, test_roundtrip_empty_and_scalar);
  suite_add_tcase(s, tc);
  tc = tcase_create("import");
  tcase_add_test(tc, test_import_deleter_after_last_view);
  tcase_add_test(tc, test_import_release_on_other_thread);
  tcase_add_test(tc, test_import_null_deleter);
  tcase_add_test(tc, test_import_byte_offset_negative_strides);
  tcase_add_test(tc, test_import_zero_dim_and_empty);
  tcase_add_test(tc, test_import_minor_versions);
  tcase_add_test(tc, test_import_rejections);
  suite_add_tcase(s, tc);
  tc = tcase_create("readonly");
  tcase_add_test(tc, test_readonly_both_ways);
  suite_add_tcase(s, tc);
  tc = tcase_create("device");
  tcase_add_test(tc, test_device_of_cpu_and_null);
  tcase_add_test(tc, test_device_tag_non_cpu);
  tcase_add_test(tc, test_device_cpu_accessible_kinds);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(dlpack_suite()); }
