/* Arrow C Data / C Device Data Interface exchange: export layouts and metadata,
   imports of hand-built arrays (offsets, permutations, nesting, bits), every
   malformed input refused with its status and message, release counts. */
#include <stdio.h>

#include "common.h"
#include "ctensor_arrow.h"

static const tensor_dtype_t kAllDtypes[] = {
    TENSOR_UINT8,   TENSOR_INT8,     TENSOR_INT16,     TENSOR_INT32,  TENSOR_INT64,
    TENSOR_FLOAT16, TENSOR_FLOAT32,  TENSOR_FLOAT64,   TENSOR_COMPLEX64, TENSOR_COMPLEX128,
    TENSOR_BOOL,    TENSOR_BFLOAT16, TENSOR_UINT16,    TENSOR_UINT32, TENSOR_UINT64,
};
#define N_DTYPES ((int)(sizeof kAllDtypes / sizeof kAllDtypes[0]))

/* ---- helpers ------------------------------------------------------------ */

/* [n] int64 0, 1, ... converted to dtype (a fresh contiguous tensor). */
static tensor_t *arange(int64_t ndim, const int64_t *sizes, tensor_dtype_t dtype) {
  int64_t n = 1;
  for (int64_t i = 0; i < ndim; i++) n *= sizes[i];
  int64_t *values = malloc((size_t)(n ? n : 1) * sizeof *values);
  for (int64_t i = 0; i < n; i++) values[i] = dtype == TENSOR_BOOL ? (i % 3 == 1) : i % 100;
  tensor_t *t64 = NULL, *t = NULL;
  ck_ok(tensor_from_data(&t64, values, ndim, sizes, TENSOR_INT64));
  ck_ok(tensor_to(&t, t64, dtype, TENSOR_COPY_ALWAYS));
  tensor_release(t64);
  free(values);
  return t;
}

static int equal(const tensor_t *a, const tensor_t *b) {
  int32_t eq = 0;
  ck_ok(tensor_equal(&eq, a, b));
  return eq && tensor_dtype(a) == tensor_dtype(b);
}

/* The value of key in an ArrowSchema metadata blob (static buffer), or NULL. */
static const char *meta_get(const char *meta, const char *key) {
  static char value[512];
  if (!meta) return NULL;
  int32_t n, len;
  memcpy(&n, meta, 4);
  meta += 4;
  for (int32_t i = 0; i < n; i++) {
    memcpy(&len, meta, 4);
    int match = (size_t)len == strlen(key) && memcmp(meta + 4, key, (size_t)len) == 0;
    meta += 4 + len;
    memcpy(&len, meta, 4);
    if (match) {
      memcpy(value, meta + 4, (size_t)len);
      value[len] = '\0';
      return value;
    }
    meta += 4 + len;
  }
  return NULL;
}

/* Encodes up to 2 key/value pairs into buf (the C Data Interface's layout). */
static const char *meta_make(char *buf, const char *k1, const char *v1, const char *k2, const char *v2) {
  char *p = buf;
  int32_t n = k2 ? 2 : 1, len;
  memcpy(p, &n, 4);
  p += 4;
  const char *kv[4] = {k1, v1, k2, v2};
  for (int i = 0; i < 2 * n; i++) {
    len = (int32_t)strlen(kv[i]);
    memcpy(p, &len, 4);
    memcpy(p + 4, kv[i], (size_t)len);
    p += 4 + len;
  }
  return buf;
}

static char g_meta[1024];
static const char *fst_meta(const char *json) {
  return meta_make(g_meta, "ARROW:extension:name", "arrow.fixed_shape_tensor", "ARROW:extension:metadata", json);
}

/* A hand-built producer: structs with counting release callbacks. */
static int g_released;  /* top-level array releases */
static void fake_array_release(struct ArrowArray *a) {
  g_released++;
  a->release = NULL;
}
static void fake_child_release(struct ArrowArray *a) { a->release = NULL; }
static void fake_schema_release(struct ArrowSchema *s) { s->release = NULL; }

static struct ArrowSchema schema_of(const char *format, const char *metadata, int64_t n_children,
                                    struct ArrowSchema **children) {
  struct ArrowSchema s;
  memset(&s, 0, sizeof s);
  s.format = format;
  s.name = "";
  s.metadata = metadata;
  s.n_children = n_children;
  s.children = children;
  s.release = fake_schema_release;
  return s;
}

static struct ArrowArray array_of(int64_t length, int64_t offset, int64_t n_buffers, const void **buffers,
                                  int64_t n_children, struct ArrowArray **children, int top) {
  struct ArrowArray a;
  memset(&a, 0, sizeof a);
  a.length = length;
  a.offset = offset;
  a.n_buffers = n_buffers;
  a.buffers = buffers;
  a.n_children = n_children;
  a.children = children;
  a.release = top ? fake_array_release : fake_child_release;
  return a;
}

/* Reads element (index) of an int32 tensor through its strides. */
static int32_t at_i32(const tensor_t *t, const int64_t *index) {
  const int32_t *p = tensor_data(t);
  int64_t off = 0;
  for (int64_t d = 0; d < tensor_ndim(t); d++) off += index[d] * tensor_strides(t)[d];
  return p[off];
}

/* ---- export ------------------------------------------------------------- */

START_TEST(test_export_fields_and_metadata) {
  int64_t sizes[3] = {2, 3, 4};
  tensor_t *t = arange(3, sizes, TENSOR_FLOAT32);
  struct ArrowSchema s;
  struct ArrowArray a;
  ck_ok(tensor_to_arrow(&s, &a, t, 0));
  ck_assert_str_eq(s.format, "+w:12");
  ck_assert_str_eq(meta_get(s.metadata, "ARROW:extension:name"), "arrow.fixed_shape_tensor");
  ck_assert_str_eq(meta_get(s.metadata, "ARROW:extension:metadata"), "{\"shape\":[3,4]}");
  ck_assert_int_eq(s.n_children, 1);
  ck_assert_str_eq(s.children[0]->format, "f");
  ck_assert_int_eq(a.length, 2);
  ck_assert_int_eq(a.offset, 0);
  ck_assert_int_eq(a.null_count, 0);
  ck_assert_int_eq(a.n_buffers, 1);
  ck_assert_ptr_null(a.buffers[0]);
  ck_assert_int_eq(a.n_children, 1);
  ck_assert_int_eq(a.children[0]->length, 24);
  ck_assert_int_eq(a.children[0]->n_buffers, 2);
  ck_assert_ptr_eq(a.children[0]->buffers[1], tensor_data(t));
  /* The arrays hold references: the tensor outlives the caller's. */
  ck_assert_int_gt(tensor_refcount(t), 1);
  s.release(&s);
  a.release(&a);
  ck_assert_ptr_null(s.release);
  ck_assert_ptr_null(a.release);
  ck_assert_int_eq(tensor_refcount(t), 1);

  /* 1-d: a primitive array. */
  int64_t n = 5;
  tensor_t *v = arange(1, &n, TENSOR_INT16);
  ck_ok(tensor_to_arrow(&s, &a, v, 0));
  ck_assert_str_eq(s.format, "s");
  ck_assert_ptr_null(s.metadata);
  ck_assert_int_eq(a.length, 5);
  ck_assert_int_eq(a.n_buffers, 2);
  ck_assert_ptr_eq(a.buffers[1], tensor_data(v));
  s.release(&s);
  a.release(&a);
  tensor_release(v);
  tensor_release(t);
}
END_TEST

START_TEST(test_export_child_moved_out) {
  int64_t sizes[2] = {3, 2};
  tensor_t *t = arange(2, sizes, TENSOR_INT32);
  struct ArrowSchema s;
  struct ArrowArray a;
  ck_ok(tensor_to_arrow(&s, &a, t, 0));
  /* A consumer may move a child out and release it after its parent. */
  struct ArrowArray child = *a.children[0];
  a.children[0]->release = NULL;
  a.release(&a);
  ck_assert_int_eq(tensor_refcount(t), 2);
  ck_assert_int_eq(((const int32_t *)child.buffers[1])[5], 5);
  child.release(&child);
  s.release(&s);
  ck_assert_int_eq(tensor_refcount(t), 1);
  tensor_release(t);
}
END_TEST

START_TEST(test_export_permuted_zero_copy) {
  int64_t sizes[4] = {2, 2, 3, 4};
  tensor_t *base = arange(4, sizes, TENSOR_INT32);
  /* Logical element dims (C, A, B) of physical (A, B, C): permutation [2, 0, 1]. */
  int64_t dims[4] = {0, 3, 1, 2};
  tensor_t *p = NULL;
  ck_ok(tensor_permute(&p, base, 4, dims));
  struct ArrowSchema s;
  struct ArrowArray a;
  ck_ok(tensor_to_arrow(&s, &a, p, TENSOR_ARROW_NO_COPY));
  ck_assert_str_eq(meta_get(s.metadata, "ARROW:extension:metadata"),
                   "{\"shape\":[2,3,4],\"permutation\":[2,0,1]}");
  ck_assert_ptr_eq(a.children[0]->buffers[1], tensor_data(base));
  tensor_t *back = NULL;
  ck_ok(tensor_from_arrow(&back, &s, &a));
  ck_assert_ptr_null(a.release);
  ck_assert_ptr_eq(tensor_data(back), tensor_data(base));
  ck_layout(back, 4, tensor_sizes(p), tensor_strides(p));
  ck_assert(equal(back, p));
  s.release(&s);

  /* A transpose of the last two dims: [1, 0]. */
  tensor_t *tr = NULL;
  ck_ok(tensor_transpose(&tr, base, 2, 3));
  ck_ok(tensor_to_arrow(&s, &a, tr, TENSOR_ARROW_NO_COPY));
  ck_assert_str_eq(meta_get(s.metadata, "ARROW:extension:metadata"),
                   "{\"shape\":[2,3,4],\"permutation\":[0,2,1]}");
  s.release(&s);
  a.release(&a);
  tensor_release(tr);
  tensor_release(back);
  tensor_release(p);
  tensor_release(base);
}
END_TEST

START_TEST(test_export_slices_and_copies) {
  int64_t sizes[3] = {4, 3, 4};
  tensor_t *base = arange(3, sizes, TENSOR_FLOAT64);
  struct ArrowSchema s;
  struct ArrowArray a;
  /* Rows 1..3: zero-copy at an offset. */
  tensor_t *rows = NULL;
  ck_ok(tensor_slice(&rows, base, 0, 1, 3, 1));
  ck_ok(tensor_to_arrow(&s, &a, rows, TENSOR_ARROW_NO_COPY));
  ck_assert_ptr_eq(a.children[0]->buffers[1], tensor_data(rows));
  ck_assert_int_eq(a.length, 2);
  s.release(&s);
  a.release(&a);
  /* Every other row: rows not list_size apart, a copy. */
  tensor_t *strided = NULL, *cols = NULL, *back = NULL;
  ck_ok(tensor_slice(&strided, base, 0, 0, 4, 2));
  ck_status(tensor_to_arrow(&s, &a, strided, TENSOR_ARROW_NO_COPY), TENSOR_E_COPY);
  ck_assert(strstr(tensor_last_error(), "NO_COPY") != NULL);
  ck_assert_ptr_null(s.release);
  ck_assert_ptr_null(a.release);
  ck_ok(tensor_to_arrow(&s, &a, strided, 0));
  ck_assert_ptr_ne(a.children[0]->buffers[1], tensor_data(strided));
  ck_ok(tensor_from_arrow(&back, &s, &a));
  ck_assert(equal(back, strided));
  s.release(&s);
  tensor_release(back);
  /* A column slice: elements not dense, a copy. */
  ck_ok(tensor_slice(&cols, base, 2, 1, 3, 1));
  ck_status(tensor_to_arrow(&s, &a, cols, TENSOR_ARROW_NO_COPY), TENSOR_E_COPY);
  ck_ok(tensor_to_arrow(&s, &a, cols, 0));
  ck_ok(tensor_from_arrow(&back, &s, &a));
  ck_assert(equal(back, cols));
  s.release(&s);
  tensor_release(back);
  tensor_release(cols);
  tensor_release(strided);
  tensor_release(rows);
  tensor_release(base);
}
END_TEST

START_TEST(test_export_rejections) {
  struct ArrowSchema s;
  struct ArrowArray a;
  int64_t n = 3;
  tensor_t *t = arange(1, &n, TENSOR_INT8);
  tensor_t *scalar = NULL;
  ck_ok(tensor_scalar_int64(&scalar, 5));
  ck_status(tensor_to_arrow(NULL, &a, t, 0), TENSOR_E_INVALID);
  ck_status(tensor_to_arrow(&s, NULL, t, 0), TENSOR_E_INVALID);
  ck_status(tensor_to_arrow(&s, &a, NULL, 0), TENSOR_E_INVALID);
  ck_status(tensor_to_arrow(&s, &a, t, 4), TENSOR_E_INVALID);
  ck_status(tensor_to_arrow(&s, &a, scalar, 0), TENSOR_E_SHAPE);
  tensor_t *b = arange(1, &n, TENSOR_BOOL);
  ck_status(tensor_to_arrow(&s, &a, b, TENSOR_ARROW_NO_COPY), TENSOR_E_COPY);
  ck_assert(strstr(tensor_last_error(), "bool") != NULL);
  tensor_release(b);
  tensor_release(scalar);
  tensor_release(t);
}
END_TEST

/* ---- round trips -------------------------------------------------------- */

START_TEST(test_roundtrip_all_dtypes) {
  int64_t sizes[3] = {2, 3, 4};
  for (int i = 0; i < N_DTYPES; i++) {
    for (int64_t ndim = 1; ndim <= 3; ndim++) {
      tensor_t *t = arange(ndim, sizes + 3 - ndim, kAllDtypes[i]);
      struct ArrowSchema s;
      struct ArrowArray a;
      ck_ok(tensor_to_arrow(&s, &a, t, 0));
      tensor_t *back = NULL;
      ck_ok(tensor_from_arrow(&back, &s, &a));
      ck_assert_msg(equal(back, t), "dtype %s ndim %d", tensor_dtype_name(kAllDtypes[i]), (int)ndim);
      if (kAllDtypes[i] != TENSOR_BOOL) {
        ck_assert_ptr_eq(tensor_data(back), tensor_data(t));
        ck_assert(tensor_is_readonly(back));
      }
      s.release(&s);
      tensor_release(back);
      ck_assert_int_eq(tensor_refcount(t), 1);
      tensor_release(t);
    }
  }
}
END_TEST

START_TEST(test_roundtrip_empty) {
  int64_t shapes[3][3] = {{0, 3, 4}, {2, 0, 4}, {0, 0, 0}};
  for (int k = 0; k < 3; k++)
    for (int i = 0; i < N_DTYPES; i++) {
      tensor_t *t = arange(3, shapes[k], kAllDtypes[i]);
      struct ArrowSchema s;
      struct ArrowArray a;
      ck_ok(tensor_to_arrow(&s, &a, t, 0));
      tensor_t *back = NULL;
      ck_ok(tensor_from_arrow(&back, &s, &a));
      for (int d = 0; d < 3; d++) ck_assert_int_eq(tensor_sizes(back)[d], shapes[k][d]);
      s.release(&s);
      tensor_release(back);
      tensor_release(t);
    }
}
END_TEST

START_TEST(test_device_export_and_import) {
  int64_t sizes[2] = {2, 3};
  tensor_t *t = arange(2, sizes, TENSOR_INT64);
  struct ArrowSchema s;
  struct ArrowDeviceArray d;
  ck_ok(tensor_to_arrow_device(&s, &d, t, 0));
  ck_assert_int_eq(d.device_type, ARROW_DEVICE_CPU);
  ck_assert_int_eq(d.device_id, 0);
  ck_assert_ptr_null(d.sync_event);
  tensor_t *back = NULL;
  ck_ok(tensor_from_arrow_device(&back, &s, &d));
  ck_assert(equal(back, t));
  ck_assert_ptr_null(d.array.release);
  s.release(&s);
  tensor_release(back);

  /* A CUDA array: recorded, never touched (the buffer address is fake). */
  struct ArrowSchema ps = schema_of("i", NULL, 0, NULL);
  const void *bufs[2] = {NULL, (const void *)(uintptr_t)0x1000};
  struct ArrowDeviceArray cuda;
  memset(&cuda, 0, sizeof cuda);
  cuda.array = array_of(4, 0, 2, bufs, 0, NULL, 1);
  cuda.device_type = ARROW_DEVICE_CUDA;
  cuda.device_id = 1;
  g_released = 0;
  ck_ok(tensor_from_arrow_device(&back, &ps, &cuda));
  int32_t type, id;
  tensor_device(back, &type, &id);
  ck_assert_int_eq(type, 2);
  ck_assert_int_eq(id, 1);
  ck_assert_int_eq(g_released, 0);
  tensor_release(back);
  ck_assert_int_eq(g_released, 1);
  /* A sync event cannot be waited on; unknown null counts on a device cannot be checked. */
  cuda.array = array_of(4, 0, 2, bufs, 0, NULL, 1);
  cuda.sync_event = &cuda;
  ck_status(tensor_from_arrow_device(&back, &ps, &cuda), TENSOR_E_UNSUPPORTED);
  cuda.sync_event = NULL;
  const void *bufs2[2] = {(const void *)(uintptr_t)0x2000, (const void *)(uintptr_t)0x1000};
  cuda.array.buffers = bufs2;
  cuda.array.null_count = -1;
  ck_status(tensor_from_arrow_device(&back, &ps, &cuda), TENSOR_E_UNSUPPORTED);
  ck_assert_ptr_nonnull(cuda.array.release);
  cuda.array.release(&cuda.array);
  tensor_release(t);
}
END_TEST

/* ---- import of hand-built arrays ---------------------------------------- */

START_TEST(test_import_permutation_by_spec) {
  /* Physical rows of shape [2, 3, 4] (values n*24 + p0*12 + p1*4 + p2),
     permutation [2, 0, 1]: logical dim i is physical dim perm[i]. */
  int32_t values[48];
  for (int i = 0; i < 48; i++) values[i] = i;
  struct ArrowSchema item = schema_of("i", NULL, 0, NULL);
  struct ArrowSchema *kids[1] = {&item};
  struct ArrowSchema s = schema_of("+w:24", fst_meta("{\"shape\":[2,3,4],\"permutation\":[2,0,1]}"), 1, kids);
  const void *cbufs[2] = {NULL, values};
  struct ArrowArray child = array_of(48, 0, 2, cbufs, 0, NULL, 0);
  struct ArrowArray *ckids[1] = {&child};
  const void *pbufs[1] = {NULL};
  struct ArrowArray a = array_of(2, 0, 1, pbufs, 1, ckids, 1);
  g_released = 0;
  tensor_t *t = NULL;
  ck_ok(tensor_from_arrow(&t, &s, &a));
  int64_t expected_sizes[4] = {2, 4, 2, 3};
  for (int d = 0; d < 4; d++) ck_assert_int_eq(tensor_sizes(t)[d], expected_sizes[d]);
  const int64_t perm[3] = {2, 0, 1};
  for (int64_t n = 0; n < 2; n++)
    for (int64_t x0 = 0; x0 < 4; x0++)
      for (int64_t x1 = 0; x1 < 2; x1++)
        for (int64_t x2 = 0; x2 < 3; x2++) {
          int64_t x[3] = {x0, x1, x2}, p[3];
          for (int i = 0; i < 3; i++) p[perm[i]] = x[i];
          int64_t index[4] = {n, x0, x1, x2};
          ck_assert_int_eq(at_i32(t, index), n * 24 + p[0] * 12 + p[1] * 4 + p[2]);
        }
  ck_assert_int_eq(g_released, 0);
  tensor_release(t);
  ck_assert_int_eq(g_released, 1);
}
END_TEST

START_TEST(test_import_offsets) {
  /* Parent offset 1 (rows 1..2 of a list), child offset 2: row r starts at value 2 + (1 + r) * 3. */
  int32_t values[20];
  for (int i = 0; i < 20; i++) values[i] = 100 + i;
  struct ArrowSchema item = schema_of("i", NULL, 0, NULL);
  struct ArrowSchema *kids[1] = {&item};
  struct ArrowSchema s = schema_of("+w:3", NULL, 1, kids);
  const void *cbufs[2] = {NULL, values};
  struct ArrowArray child = array_of(12, 2, 2, cbufs, 0, NULL, 0);
  struct ArrowArray *ckids[1] = {&child};
  const void *pbufs[1] = {NULL};
  struct ArrowArray a = array_of(2, 1, 1, pbufs, 1, ckids, 1);
  tensor_t *t = NULL;
  ck_ok(tensor_from_arrow(&t, &s, &a));
  int64_t sizes[2] = {2, 3}, strides[2] = {3, 1};
  ck_layout(t, 2, sizes, strides);
  ck_assert_ptr_eq(tensor_data(t), values + 5);
  tensor_release(t);

  /* A primitive array at an offset: 1-d. */
  struct ArrowSchema ps = schema_of("i", NULL, 0, NULL);
  struct ArrowArray pa = array_of(4, 3, 2, cbufs, 0, NULL, 1);
  ck_ok(tensor_from_arrow(&t, &ps, &pa));
  ck_assert_int_eq(tensor_ndim(t), 1);
  ck_assert_int_eq(tensor_sizes(t)[0], 4);
  ck_assert_ptr_eq(tensor_data(t), values + 3);
  tensor_release(t);

  /* Nested FixedSizeLists without extension: [length, 3, 2]. */
  struct ArrowSchema inner = schema_of("+w:2", NULL, 1, kids);
  struct ArrowSchema *ikids[1] = {&inner};
  struct ArrowSchema outer = schema_of("+w:3", NULL, 1, ikids);
  struct ArrowArray leaf = array_of(18, 1, 2, cbufs, 0, NULL, 0);
  struct ArrowArray *lk[1] = {&leaf};
  struct ArrowArray mid = array_of(9, 0, 1, pbufs, 1, lk, 0);
  struct ArrowArray *mk[1] = {&mid};
  struct ArrowArray top = array_of(3, 0, 1, pbufs, 1, mk, 1);
  ck_ok(tensor_from_arrow(&t, &outer, &top));
  int64_t nsizes[3] = {3, 3, 2}, nstrides[3] = {6, 2, 1};
  ck_layout(t, 3, nsizes, nstrides);
  ck_assert_ptr_eq(tensor_data(t), values + 1);
  tensor_release(t);
}
END_TEST

START_TEST(test_import_bool_bits_and_validity) {
  /* Bits 0b10110010 0b00000001 at offset 1: values 1,0,0,1,1,0,1,1. */
  uint8_t bits[2] = {0xB2, 0x01};
  uint8_t valid[2] = {0xFF, 0xFF};
  struct ArrowSchema s = schema_of("b", NULL, 0, NULL);
  const void *bufs[2] = {valid, bits};
  struct ArrowArray a = array_of(8, 1, 2, bufs, 0, NULL, 1);
  a.null_count = -1; /* unknown: the bitmap is read, all valid */
  g_released = 0;
  tensor_t *t = NULL;
  ck_ok(tensor_from_arrow(&t, &s, &a));
  ck_assert_int_eq(g_released, 1); /* unpacked: released right away */
  const uint8_t expected[8] = {1, 0, 0, 1, 1, 0, 1, 1};
  ck_assert_int_eq(tensor_dtype(t), TENSOR_BOOL);
  ck_assert_mem_eq(tensor_data(t), expected, 8);
  tensor_release(t);
  /* A zero validity bit in range: refused, never read. */
  valid[1] = 0xFE;
  a = array_of(8, 1, 2, bufs, 0, NULL, 1);
  a.null_count = -1;
  ck_status(tensor_from_arrow(&t, &s, &a), TENSOR_E_FORMAT);
  ck_assert(strstr(tensor_last_error(), "null at slot 7") != NULL);
  ck_assert_ptr_nonnull(a.release);
  a.release(&a);
}
END_TEST

START_TEST(test_import_variable_shape) {
  /* Rows of shapes [2, 3], [1, 2], [0, 4] with permutation [1, 0]. */
  float values[8];
  for (int i = 0; i < 8; i++) values[i] = (float)i;
  int32_t offsets[4] = {0, 6, 8, 8};
  int32_t shapes[6] = {2, 3, 1, 2, 0, 4};
  struct ArrowSchema vitem = schema_of("f", NULL, 0, NULL);
  struct ArrowSchema *vk[1] = {&vitem};
  struct ArrowSchema data = schema_of("+l", NULL, 1, vk);
  data.name = "data";
  struct ArrowSchema sitem = schema_of("i", NULL, 0, NULL);
  struct ArrowSchema *sk[1] = {&sitem};
  struct ArrowSchema shape = schema_of("+w:2", NULL, 1, sk);
  shape.name = "shape";
  struct ArrowSchema *fields[2] = {&data, &shape};
  char meta[256];
  struct ArrowSchema s = schema_of("+s", meta_make(meta, "ARROW:extension:name", "arrow.variable_shape_tensor",
                                                   "ARROW:extension:metadata", "{\"permutation\":[1,0]}"),
                                   2, fields);
  const void *vb[2] = {NULL, values};
  struct ArrowArray va = array_of(8, 0, 2, vb, 0, NULL, 0);
  struct ArrowArray *vak[1] = {&va};
  const void *db[2] = {NULL, offsets};
  struct ArrowArray da = array_of(3, 0, 2, db, 1, vak, 0);
  const void *ib[2] = {NULL, shapes};
  struct ArrowArray ia = array_of(6, 0, 2, ib, 0, NULL, 0);
  struct ArrowArray *iak[1] = {&ia};
  const void *nb[1] = {NULL};
  struct ArrowArray sa = array_of(3, 0, 1, nb, 1, iak, 0);
  struct ArrowArray *kids[2] = {&da, &sa};
  struct ArrowArray a = array_of(3, 0, 1, nb, 2, kids, 1);
  g_released = 0;
  tensor_t **rows = NULL;
  int64_t count = -1;
  ck_ok(tensor_from_arrow_variable_shape(&rows, &count, &s, &a));
  ck_assert_int_eq(count, 3);
  int64_t s0[2] = {3, 2}, st0[2] = {1, 3};
  ck_layout(rows[0], 2, s0, st0);
  ck_assert_ptr_eq(tensor_data(rows[0]), values);
  int64_t s1[2] = {2, 1}, st1[2] = {1, 2};
  ck_layout(rows[1], 2, s1, st1);
  ck_assert_ptr_eq(tensor_data(rows[1]), values + 6);
  ck_assert_int_eq(tensor_numel(rows[2]), 0);
  tensor_t *keep = tensor_retain(rows[1]);
  tensor_arrow_list_release(rows, count);
  ck_assert_int_eq(g_released, 0);
  tensor_release(keep);
  ck_assert_int_eq(g_released, 1);

  /* A row whose value count differs from its shape. */
  offsets[2] = 7;
  a = array_of(3, 0, 1, nb, 2, kids, 1);
  ck_status(tensor_from_arrow_variable_shape(&rows, &count, &s, &a), TENSOR_E_FORMAT);
  ck_assert_ptr_null(rows);
  ck_assert_int_eq(count, 0);
  ck_assert_int_eq(g_released, 1);
  a.release(&a);
  /* tensor_from_arrow points to the right function. */
  offsets[2] = 8;
  a = array_of(3, 0, 1, nb, 2, kids, 1);
  tensor_t *t = NULL;
  ck_status(tensor_from_arrow(&t, &s, &a), TENSOR_E_UNSUPPORTED);
  a.release(&a);
}
END_TEST

/* One malformed input: the call fails with `status`, the message contains
   `needle`, and the array is untouched (the caller releases it). */
static void refused(struct ArrowSchema *s, struct ArrowArray *a, tensor_status_t status, const char *needle) {
  tensor_t *t = (tensor_t *)(uintptr_t)1;
  int before = g_released;
  ck_status(tensor_from_arrow(&t, s, a), status);
  ck_assert_ptr_null(t);
  ck_assert_msg(strstr(tensor_last_error(), needle) != NULL, "message '%s' lacks '%s'", tensor_last_error(), needle);
  ck_assert_msg(strncmp(tensor_last_error(), "from_arrow: ", 12) == 0, "message '%s'", tensor_last_error());
  ck_assert_int_eq(g_released, before);
  ck_assert_ptr_nonnull(a->release);
}

START_TEST(test_import_rejections) {
  int32_t values[24] = {0};
  struct ArrowSchema item = schema_of("i", NULL, 0, NULL);
  struct ArrowSchema *kids[1] = {&item};
  const void *cbufs[2] = {NULL, values};
  struct ArrowArray child = array_of(24, 0, 2, cbufs, 0, NULL, 0);
  struct ArrowArray *ckids[1] = {&child};
  const void *pbufs[1] = {NULL};
  struct ArrowArray a = array_of(2, 0, 1, pbufs, 1, ckids, 1);
  struct ArrowSchema s;
  g_released = 0;
  tensor_t *t = NULL;
#define SCHEMA(fmt, json) (s = schema_of(fmt, fst_meta(json), 1, kids), &s)
  refused(SCHEMA("+w:12", "{}"), &a, TENSOR_E_FORMAT, "metadata has no \"shape\"");
  refused(SCHEMA("+w:12", "{\"shape\":\"3x4\"}"), &a, TENSOR_E_FORMAT,
          "fixed_shape_tensor metadata \"shape\" must be a list of non-negative integers, got a string");
  refused(SCHEMA("+w:12", "{\"shape\":[3,-4]}"), &a, TENSOR_E_FORMAT, "got an entry -4");
  refused(SCHEMA("+w:12", "{\"shape\":[3,4.5]}"), &a, TENSOR_E_FORMAT, "got an entry 4.5");
  refused(SCHEMA("+w:12", "{\"shape\":[3,5]}"), &a, TENSOR_E_FORMAT, "has 15 elements but the list size is 12");
  refused(SCHEMA("+w:12", "{\"shape\":[3,4],\"permutation\":[0,0]}"), &a, TENSOR_E_FORMAT,
          "\"permutation\" [0, 0] is not a permutation of 0..1");
  refused(SCHEMA("+w:12", "{\"shape\":[3,4],\"permutation\":[1]}"), &a, TENSOR_E_FORMAT, "is not a permutation");
  refused(SCHEMA("+w:12", "{\"shape\":[3,4],\"dim_names\":[\"x\"]}"), &a, TENSOR_E_FORMAT,
          "\"dim_names\" must be a list of 2 strings");
  refused(SCHEMA("+w:12", "{\"shape\":[3,4]"), &a, TENSOR_E_FORMAT, "fixed_shape_tensor metadata");
  refused(SCHEMA("+w:12", "[3,4]"), &a, TENSOR_E_FORMAT, "must be a JSON object, got a list");
  refused(SCHEMA("+l", "{\"shape\":[3,4]}"), &a, TENSOR_E_FORMAT, "storage must be a FixedSizeList");
  /* Value formats. */
  struct ArrowSchema bad_item = schema_of("u", NULL, 0, NULL);
  struct ArrowSchema *bad_kids[1] = {&bad_item};
  s = schema_of("+w:12", NULL, 1, bad_kids);
  refused(&s, &a, TENSOR_E_DTYPE, "format 'u' has no ctensor dtype");
  bad_item.format = "tss:";
  refused(&s, &a, TENSOR_E_DTYPE, "format 'tss:' has no ctensor dtype");
  bad_item.format = "?";
  refused(&s, &a, TENSOR_E_FORMAT, "format '?' is not an Arrow format");
  bad_item.format = "+m";
  refused(&s, &a, TENSOR_E_UNSUPPORTED, "nested type");
  bad_item.format = "S";
  char m2[128];
  bad_item.metadata = meta_make(m2, "ARROW:extension:name", "ctensor.complex64", "ARROW:extension:metadata", "");
  refused(&s, &a, TENSOR_E_FORMAT, "ctensor.complex64 needs format '+w:2'");
  /* Released schema and array. */
  s = schema_of("+w:12", NULL, 1, kids);
  s.release = NULL;
  refused(&s, &a, TENSOR_E_INVALID, "schema is released");
  s = schema_of("+w:12", NULL, 1, kids);
  struct ArrowArray released = a;
  released.release = NULL;
  ck_status(tensor_from_arrow(&t, &s, &released), TENSOR_E_INVALID);
  ck_assert(strstr(tensor_last_error(), "array is released") != NULL);
  ck_status(tensor_from_arrow(&t, NULL, &a), TENSOR_E_INVALID);
  ck_status(tensor_from_arrow(NULL, &s, &a), TENSOR_E_INVALID);
  /* Array structure. */
  a.length = -1;
  refused(&s, &a, TENSOR_E_FORMAT, "array length is negative (-1)");
  a.length = 2;
  a.offset = -2;
  refused(&s, &a, TENSOR_E_FORMAT, "array offset is negative (-2)");
  a.offset = 1;
  refused(&s, &a, TENSOR_E_FORMAT, "array.child has length 24 but its parent needs 36 values");
  a.offset = 0;
  a.n_buffers = 2;
  refused(&s, &a, TENSOR_E_FORMAT, "array has n_buffers 2, expected 1");
  a.n_buffers = 1;
  a.n_children = 0;
  refused(&s, &a, TENSOR_E_FORMAT, "array has n_children 0, expected 1");
  a.n_children = 1;
  a.null_count = 1;
  refused(&s, &a, TENSOR_E_FORMAT, "array has 1 nulls");
  a.null_count = -2;
  refused(&s, &a, TENSOR_E_FORMAT, "null_count is -2");
  a.null_count = 0;
  child.null_count = 3;
  refused(&s, &a, TENSOR_E_FORMAT, "array.child has 3 nulls");
  child.null_count = 0;
  child.n_buffers = 1;
  refused(&s, &a, TENSOR_E_FORMAT, "array.child has n_buffers 1, expected 2");
  child.n_buffers = 2;
  cbufs[1] = NULL;
  refused(&s, &a, TENSOR_E_FORMAT, "array.child data buffer is NULL for 24 values");
  cbufs[1] = values;
  struct ArrowArray dict = a;
  a.dictionary = &dict;
  refused(&s, &a, TENSOR_E_FORMAT, "has a dictionary");
  a.dictionary = NULL;
  struct ArrowSchema dict_schema = item;
  s.dictionary = &dict_schema;
  refused(&s, &a, TENSOR_E_UNSUPPORTED, "dictionary-encoded");
  s.dictionary = NULL;
  /* Still importable after all that. */
  ck_ok(tensor_from_arrow(&t, &s, &a));
  ck_assert_ptr_null(a.release);
  tensor_release(t);
  ck_assert_int_eq(g_released, 1);
#undef SCHEMA
}
END_TEST

START_TEST(test_import_keeps_producer_until_last_view) {
  int64_t sizes[2] = {4, 3};
  tensor_t *t = arange(2, sizes, TENSOR_INT32);
  struct ArrowSchema s;
  struct ArrowArray a;
  ck_ok(tensor_to_arrow(&s, &a, t, 0));
  tensor_t *imported = NULL, *view = NULL;
  ck_ok(tensor_from_arrow(&imported, &s, &a));
  s.release(&s);
  tensor_release(t); /* the Arrow array (held by the import) keeps the memory */
  ck_ok(tensor_select(&view, imported, 0, 3));
  tensor_release(imported);
  ck_assert_int_eq(((const int32_t *)tensor_data(view))[2], 11);
  tensor_release(view);
}
END_TEST

static Suite *arrow_suite(void) {
  Suite *s = suite_create("arrow");
  TCase *tc = tcase_create("export");
  tcase_add_test(tc, test_export_fields_and_metadata);
  tcase_add_test(tc, test_export_child_moved_out);
  tcase_add_test(tc, test_export_permuted_zero_copy);
  tcase_add_test(tc, test_export_slices_and_copies);
  tcase_add_test(tc, test_export_rejections);
  suite_add_tcase(s, tc);
  tc = tcase_create("roundtrip");
  tcase_add_test(tc, test_roundtrip_all_dtypes);
  tcase_add_test(tc, test_roundtrip_empty);
  tcase_add_test(tc, test_device_export_and_import);
  suite_add_tcase(s, tc);
  tc = tcase_create("import");
  tcase_add_test(tc, test_import_permutation_by_spec);
  tcase_add_test(tc, test_import_offsets);
  tcase_add_test(tc, test_import_bool_bits_and_validity);
  tcase_add_test(tc, test_import_variable_shape);
  tcase_add_test(tc, test_import_rejections);
  tcase_add_test(tc, test_import_keeps_producer_until_last_view);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(arrow_suite()); }
