/* The copy engine: tensor_copy, tensor_contiguous, tensor_clone, tensor_to and
 * tensor_fill against a plain reference loop, over every kernel path (memcpy
 * runs, strided gathers, broadcast fills, tiled transposes, casts), overlapping
 * source and destination, every rejection, and the thread setting; the memory
 * formats of tensor_empty_like, tensor_zeros_like and tensor_to_with. */
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "ctensor_dlpack.h"

/* ---- helpers ------------------------------------------------------------ */

/* A storage of n elements of `dtype` holding a distinct byte pattern, so that
 * every element (and every byte of it) differs from its neighbours. */
static tensor_storage_t *patterned_storage(tensor_dtype_t dtype, int64_t n, unsigned seed) {
  tensor_storage_t *s = NULL;
  const size_t nbytes = (size_t)n * tensor_dtype_size(dtype);
  ck_ok(tensor_storage_new(&s, nbytes));
  unsigned char *p = tensor_storage_data(s);
  uint32_t x = 2463534242u ^ seed;
  for (size_t i = 0; i < nbytes; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    p[i] = (unsigned char)x;
  }
  return s;
}

/* A view onto s; the test's own reference for strided layouts. */
static tensor_t *view_of(tensor_storage_t *s, tensor_dtype_t dtype, int64_t ndim, const int64_t *sizes,
                         const int64_t *strides, int64_t offset) {
  tensor_t *t = NULL;
  ck_ok(tensor_from_storage(&t, s, dtype, ndim, sizes, strides, offset));
  return t;
}

/* A fresh tensor of small integer values (exact in every dtype used here). */
static tensor_t *iota(tensor_dtype_t dtype, int64_t ndim, const int64_t *sizes) {
  tensor_t *t = NULL;
  ck_ok(tensor_empty(&t, ndim, sizes, dtype));
  const int64_t n = tensor_numel(t);
  for (int64_t i = 0; i < n; ++i) {
    const double v = (double)(i % 101) - 50.0;
    char *p = (char *)tensor_data(t) + i * (int64_t)tensor_dtype_size(dtype);
    switch (dtype) {
      case TENSOR_INT32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
      case TENSOR_INT64: { int64_t x = (int64_t)v; memcpy(p, &x, 8); break; }
      case TENSOR_FLOAT32: { float x = (float)v; memcpy(p, &x, 4); break; }
      case TENSOR_FLOAT64: memcpy(p, &v, 8); break;
      default: ck_abort_msg("iota: dtype %d not supported", dtype);
    }
  }
  return t;
}

/* Element at byte address p of `dtype`, as a double (dtypes used in casts here). */
static double get_value(const unsigned char *p, tensor_dtype_t dtype) {
  switch (dtype) {
    case TENSOR_UINT8: return *p;
    case TENSOR_INT8: return (int8_t)*p;
    case TENSOR_BOOL: return *p != 0;
    case TENSOR_INT16: { int16_t x; memcpy(&x, p, 2); return x; }
    case TENSOR_INT32: { int32_t x; memcpy(&x, p, 4); return x; }
    case TENSOR_INT64: { int64_t x; memcpy(&x, p, 8); return (double)x; }
    case TENSOR_FLOAT32: { float x; memcpy(&x, p, 4); return x; }
    case TENSOR_FLOAT64: { double x; memcpy(&x, p, 8); return x; }
    default: ck_abort_msg("get_value: dtype %d not supported", dtype);
  }
  return 0;
}

/* The conversion rules (ctensor.h) for the values used here: from a float, integers saturate
 * (after truncation); from an integer, narrowing wraps. */
static int64_t to_integer(double v, int from_float, double lo, double hi) {
  if (from_float) return (int64_t)(v < lo ? lo : v > hi ? hi : v);
  return (int64_t)v;
}

static void set_value(unsigned char *p, tensor_dtype_t dtype, double v, int from_float) {
  switch (dtype) {
    case TENSOR_UINT8: *p = (uint8_t)to_integer(v, from_float, 0, 255); break;
    case TENSOR_INT8: *p = (uint8_t)(int8_t)to_integer(v, from_float, -128, 127); break;
    case TENSOR_BOOL: *p = v != 0; break;
    case TENSOR_INT16: { int16_t x = (int16_t)to_integer(v, from_float, -32768, 32767); memcpy(p, &x, 2); break; }
    case TENSOR_INT32: { int32_t x = (int32_t)to_integer(v, from_float, -2147483648.0, 2147483647.0); memcpy(p, &x, 4); break; }
    case TENSOR_INT64: { int64_t x = (int64_t)v; memcpy(p, &x, 8); break; }
    case TENSOR_FLOAT32: { float x = (float)v; memcpy(p, &x, 4); break; }
    case TENSOR_FLOAT64: memcpy(p, &v, 8); break;
    default: ck_abort_msg("set_value: dtype %d not supported", dtype);
  }
}

static int is_float(tensor_dtype_t dtype) { return dtype == TENSOR_FLOAT32 || dtype == TENSOR_FLOAT64; }

/* Byte offset of element `index` of t from its storage's start; src is read
 * broadcast to dst's shape (dims aligned from the right, size-1 dims repeat). */
static int64_t element_byte(const tensor_t *t, int64_t ndim, const int64_t *index) {
  const int64_t nd = tensor_ndim(t);
  int64_t off = tensor_storage_offset(t);
  for (int64_t d = 0; d < nd; ++d) {
    const int64_t i = index[ndim - nd + d];
    if (tensor_sizes(t)[d] != 1) off += i * tensor_strides(t)[d];
  }
  return off * (int64_t)tensor_dtype_size(tensor_dtype(t));
}

/* Runs tensor_copy(dst, src) and checks the whole of dst's storage against a
 * plain loop over dst's indices that reads a snapshot of src's storage taken
 * before the copy (so overlapping copies must behave as if src were read first),
 * and leaves every byte outside dst's elements alone. Casts go through double,
 * which is exact for the values these tests cast. */
static void check_copy(tensor_t *dst, const tensor_t *src) {
  tensor_storage_t *ds = tensor_storage(dst), *ss = tensor_storage(src);
  const size_t dn = tensor_storage_nbytes(ds), sn = tensor_storage_nbytes(ss);
  unsigned char *expected = malloc(dn ? dn : 1), *snapshot = malloc(sn ? sn : 1);
  memcpy(expected, tensor_storage_data(ds), dn);
  memcpy(snapshot, tensor_storage_data(ss), sn);
  const tensor_dtype_t dt = tensor_dtype(dst), st = tensor_dtype(src);
  const size_t item = tensor_dtype_size(dt);
  const int64_t nd = tensor_ndim(dst);
  int64_t index[TENSOR_MAX_DIMS] = {0};
  if (tensor_numel(dst) > 0) {
    for (;;) {
      unsigned char *to = expected + element_byte(dst, nd, index);
      const unsigned char *from = snapshot + element_byte(src, nd, index);
      if (dt == st)
        memcpy(to, from, item);
      else
        set_value(to, dt, get_value(from, st), is_float(st));
      int64_t d = nd - 1;
      for (; d >= 0; --d) {
        if (++index[d] < tensor_sizes(dst)[d]) break;
        index[d] = 0;
      }
      if (d < 0) break;
    }
  }
  ck_ok(tensor_copy(dst, src));
  ck_assert_msg(memcmp(expected, tensor_storage_data(ds), dn) == 0, "copy differs from the reference loop");
  free(expected);
  free(snapshot);
}

/* dst = a fresh contiguous tensor of src's shape (or `shape`), then check_copy. */
static void check_copy_to_fresh(const tensor_t *src, tensor_dtype_t dtype) {
  tensor_t *dst = NULL;
  ck_ok(tensor_zeros(&dst, tensor_ndim(src), tensor_sizes(src), dtype));
  check_copy(dst, src);
  tensor_release(dst);
}

/* Checks that c is a contiguous copy of t's elements (same dtype). */
static void check_is_contiguous_copy(const tensor_t *c, const tensor_t *t) {
  ck_assert_int_eq(tensor_is_contiguous(c), 1);
  ck_assert_int_eq(tensor_ndim(c), tensor_ndim(t));
  ck_assert_int_eq(tensor_dtype(c), tensor_dtype(t));
  tensor_t *expected = NULL;
  ck_ok(tensor_zeros(&expected, tensor_ndim(t), tensor_sizes(t), tensor_dtype(t)));
  check_copy(expected, t);
  const size_t n = (size_t)tensor_numel(t) * tensor_dtype_size(tensor_dtype(t));
  ck_assert_int_eq(memcmp(tensor_data(c), tensor_data(expected), n), 0);
  tensor_release(expected);
}

static const tensor_dtype_t kItemDtypes[] = {TENSOR_UINT8, TENSOR_INT16, TENSOR_FLOAT32, TENSOR_FLOAT64,
                                             TENSOR_COMPLEX128};
#define N_ITEM_DTYPES (sizeof kItemDtypes / sizeof *kItemDtypes)

/* ---- same-dtype kernel paths --------------------------------------------- */

START_TEST(contiguous_runs_every_item_size) {
  static const int64_t lengths[] = {0, 1, 2, 7, 64, 1001};
  for (size_t k = 0; k < N_ITEM_DTYPES; ++k)
    for (size_t l = 0; l < sizeof lengths / sizeof *lengths; ++l) {
      tensor_storage_t *s = patterned_storage(kItemDtypes[k], lengths[l] + 3, (unsigned)l);
      tensor_t *src = view_of(s, kItemDtypes[k], 1, &lengths[l], NULL, 3);
      check_copy_to_fresh(src, kItemDtypes[k]);
      tensor_release(src);
      tensor_storage_release(s);
    }
}
END_TEST

START_TEST(zero_dim_and_size_one_dims) {
  tensor_storage_t *s = patterned_storage(TENSOR_FLOAT64, 8, 1);
  tensor_t *scalar = view_of(s, TENSOR_FLOAT64, 0, NULL, NULL, 5);
  check_copy_to_fresh(scalar, TENSOR_FLOAT64);
  const int64_t ones[] = {1, 1, 1}, odd_strides[] = {7, -3, 100};
  tensor_t *single = view_of(s, TENSOR_FLOAT64, 3, ones, odd_strides, 2);
  check_copy_to_fresh(single, TENSOR_FLOAT64);
  const int64_t sizes[] = {1, 4, 1}, strides[] = {0, 2, 9};
  tensor_t *row = view_of(s, TENSOR_FLOAT64, 3, sizes, strides, 0);
  check_copy_to_fresh(row, TENSOR_FLOAT64);
  tensor_release(scalar);
  tensor_release(single);
  tensor_release(row);
  tensor_storage_release(s);
}
END_TEST

START_TEST(empty_tensors_copy_nothing) {
  const int64_t sizes[] = {3, 0, 5};
  tensor_t *a = NULL, *b = NULL;
  ck_ok(tensor_zeros(&a, 3, sizes, TENSOR_FLOAT32));
  ck_ok(tensor_zeros(&b, 3, sizes, TENSOR_INT64));
  ck_ok(tensor_copy(a, b));
  tensor_t *c = NULL;
  ck_ok(tensor_clone(&c, a));
  ck_assert_int_eq(tensor_numel(c), 0);
  ck_layout(c, 3, sizes, tensor_strides(a));
  tensor_release(a);
  tensor_release(b);
  tensor_release(c);
}
END_TEST

/* Transposes of many shapes (tiles that do not divide them) for each element size. */
START_TEST(transposes_every_item_size) {
  static const int64_t dims[] = {1, 3, 4, 7, 8, 33, 64, 100};
  const size_t nd = sizeof dims / sizeof *dims;
  for (size_t k = 0; k < N_ITEM_DTYPES; ++k)
    for (size_t a = 0; a < nd; ++a)
      for (size_t b = 0; b < nd; b += 2) {
        const int64_t rows = dims[a], cols = dims[b];
        tensor_storage_t *s = patterned_storage(kItemDtypes[k], rows * cols, (unsigned)(a * 16 + b));
        const int64_t sizes[] = {cols, rows}, strides[] = {1, cols};
        tensor_t *t = view_of(s, kItemDtypes[k], 2, sizes, strides, 0);
        check_copy_to_fresh(t, kItemDtypes[k]);
        tensor_release(t);
        tensor_storage_release(s);
      }
}
END_TEST

/* Every permutation of a 3-D tensor, and the 3-D permutes that merge into 2-D transposes. */
START_TEST(permutes_of_3d) {
  static const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  /* {17, 19, 21}.permute(2,0,1): destination rows over 1 KiB fed by short
     source rows, the cache-blocked walk that prefetches its next block;
     {50, 127, 131}.permute(1,2,0): short destination rows fed by source rows
     over 64 KiB, walked in strips of two destination lines (and an edge) */
  static const int64_t shapes[][3] = {{5, 6, 7}, {4, 33, 65}, {1, 9, 40}, {17, 19, 21}, {50, 127, 131}};
  for (size_t sh = 0; sh < sizeof shapes / sizeof *shapes; ++sh) {
    const int64_t *base = shapes[sh];
    const int64_t n = base[0] * base[1] * base[2];
    const int64_t base_strides[] = {base[1] * base[2], base[2], 1};
    tensor_storage_t *s = patterned_storage(TENSOR_FLOAT32, n, (unsigned)sh);
    for (int p = 0; p < 6; ++p) {
      int64_t sizes[3], strides[3];
      for (int d = 0; d < 3; ++d) {
        sizes[d] = base[perms[p][d]];
        strides[d] = base_strides[perms[p][d]];
      }
      tensor_t *t = view_of(s, TENSOR_FLOAT32, 3, sizes, strides, 0);
      check_copy_to_fresh(t, TENSOR_FLOAT32);
      tensor_release(t);
    }
    tensor_storage_release(s);
  }
}
END_TEST

/* NCHW -> NHWC: a batch of 2-D transposes. */
START_TEST(batched_transpose_nchw_to_nhwc) {
  const int64_t n = 3, c = 10, h = 5, w = 7;
  tensor_storage_t *s = patterned_storage(TENSOR_INT16, n * c * h * w, 4);
  const int64_t sizes[] = {n, h, w, c}, strides[] = {c * h * w, w, 1, h * w};
  tensor_t *t = view_of(s, TENSOR_INT16, 4, sizes, strides, 0);
  check_copy_to_fresh(t, TENSOR_INT16);
  tensor_release(t);
  tensor_storage_release(s);
}
END_TEST

START_TEST(negative_strides) {
  tensor_storage_t *s = patterned_storage(TENSOR_FLOAT32, 12 * 37, 5);
  const int64_t rev_sizes[] = {12 * 37}, rev_strides[] = {-1};
  tensor_t *rev = view_of(s, TENSOR_FLOAT32, 1, rev_sizes, rev_strides, 12 * 37 - 1);
  check_copy_to_fresh(rev, TENSOR_FLOAT32);
  const int64_t sizes[] = {12, 37};
  const int64_t layouts[][2] = {{-37, 1}, {37, -1}, {-37, -1}};
  const int64_t offsets[] = {11 * 37, 36, 12 * 37 - 1};
  for (int k = 0; k < 3; ++k) {
    tensor_t *t = view_of(s, TENSOR_FLOAT32, 2, sizes, layouts[k], offsets[k]);
    check_copy_to_fresh(t, TENSOR_FLOAT32);
    tensor_release(t);
  }
  /* a reversed transpose, and a destination with negative strides */
  const int64_t tsizes[] = {37, 12}, tstrides[] = {-1, 37};
  tensor_t *rt = view_of(s, TENSOR_FLOAT32, 2, tsizes, tstrides, 36);
  check_copy_to_fresh(rt, TENSOR_FLOAT32);
  tensor_storage_t *d = patterned_storage(TENSOR_FLOAT32, 12 * 37, 6);
  const int64_t dstrides[] = {-37, -1};
  tensor_t *dst = view_of(d, TENSOR_FLOAT32, 2, sizes, dstrides, 12 * 37 - 1);
  tensor_t *src = view_of(s, TENSOR_FLOAT32, 2, sizes, NULL, 0);
  check_copy(dst, src);
  tensor_release(rev);
  tensor_release(rt);
  tensor_release(dst);
  tensor_release(src);
  tensor_storage_release(s);
  tensor_storage_release(d);
}
END_TEST

/* [:, ::2] and [::2, ::3] of a row-major matrix, and a strided destination. */
START_TEST(strided_gathers) {
  const int64_t rows = 50, cols = 96;
  for (size_t k = 0; k < N_ITEM_DTYPES; ++k) {
    tensor_storage_t *s = patterned_storage(kItemDtypes[k], rows * cols, 7);
    const int64_t e1_sizes[] = {rows, cols / 2}, e1_strides[] = {cols, 2};
    tensor_t *e1 = view_of(s, kItemDtypes[k], 2, e1_sizes, e1_strides, 0);
    check_copy_to_fresh(e1, kItemDtypes[k]);
    const int64_t e2_sizes[] = {rows / 2, cols / 3}, e2_strides[] = {2 * cols, 3};
    tensor_t *e2 = view_of(s, kItemDtypes[k], 2, e2_sizes, e2_strides, 1);
    check_copy_to_fresh(e2, kItemDtypes[k]);
    tensor_storage_t *d = patterned_storage(kItemDtypes[k], rows * cols, 8);
    tensor_t *dst = view_of(d, kItemDtypes[k], 2, e2_sizes, e2_strides, 2);
    check_copy(dst, e2);
    tensor_release(e1);
    tensor_release(e2);
    tensor_release(dst);
    tensor_storage_release(s);
    tensor_storage_release(d);
  }
}
END_TEST

/* Broadcast sources: a column, a row, a scalar, leading dims, a zero-stride view. */
START_TEST(broadcast_sources) {
  const int64_t sizes[] = {5, 9, 33};
  for (size_t k = 0; k < N_ITEM_DTYPES; ++k) {
    tensor_storage_t *s = patterned_storage(kItemDtypes[k], 64, 9);
    tensor_t *dst = NULL;
    ck_ok(tensor_zeros(&dst, 3, sizes, kItemDtypes[k]));
    const int64_t col[] = {9, 1}, row[] = {33}, lead[] = {1, 9, 1}, expanded_strides[] = {0, 1, 0};
    tensor_t *srcs[] = {
        view_of(s, kItemDtypes[k], 2, col, NULL, 1),
        view_of(s, kItemDtypes[k], 1, row, NULL, 2),
        view_of(s, kItemDtypes[k], 0, NULL, NULL, 3),
        view_of(s, kItemDtypes[k], 3, lead, NULL, 4),
        view_of(s, kItemDtypes[k], 3, sizes, expanded_strides, 5),
    };
    for (size_t i = 0; i < sizeof srcs / sizeof *srcs; ++i) {
      check_copy(dst, srcs[i]);
      tensor_release(srcs[i]);
    }
    /* materialising an expanded view */
    tensor_t *expanded = view_of(s, kItemDtypes[k], 3, sizes, expanded_strides, 7);
    tensor_t *c = NULL;
    ck_ok(tensor_contiguous(&c, expanded));
    check_is_contiguous_copy(c, expanded);
    tensor_release(c);
    tensor_release(expanded);
    tensor_release(dst);
    tensor_storage_release(s);
  }
}
END_TEST

/* ---- casts ----------------------------------------------------------------- */

START_TEST(casts_on_every_path) {
  static const tensor_dtype_t pairs[][2] = {
      {TENSOR_INT32, TENSOR_FLOAT64}, {TENSOR_FLOAT32, TENSOR_INT16}, {TENSOR_FLOAT64, TENSOR_UINT8},
      {TENSOR_INT64, TENSOR_FLOAT32}, {TENSOR_FLOAT32, TENSOR_BOOL},  {TENSOR_INT32, TENSOR_INT8},
  };
  const int64_t base[] = {13, 70};
  for (size_t p = 0; p < sizeof pairs / sizeof *pairs; ++p) {
    tensor_t *src = iota(pairs[p][0], 2, base);
    tensor_storage_t *s = tensor_storage(src);
    const int64_t t_sizes[] = {70, 13}, t_strides[] = {1, 70};
    const int64_t g_sizes[] = {13, 35}, g_strides[] = {70, 2};
    const int64_t b_sizes[] = {13, 70}, b_strides[] = {1, 0};
    tensor_t *views[] = {
        view_of(s, pairs[p][0], 2, base, NULL, 0),            /* contiguous run */
        view_of(s, pairs[p][0], 2, t_sizes, t_strides, 0),    /* tiled transpose */
        view_of(s, pairs[p][0], 2, g_sizes, g_strides, 1),    /* strided gather */
        view_of(s, pairs[p][0], 2, b_sizes, b_strides, 3),    /* broadcast */
    };
    for (size_t v = 0; v < sizeof views / sizeof *views; ++v) {
      check_copy_to_fresh(views[v], pairs[p][1]);
      tensor_t *converted = NULL;
      ck_ok(tensor_to(&converted, views[v], pairs[p][1], TENSOR_COPY_IF_NEEDED));
      ck_assert_int_eq(tensor_dtype(converted), pairs[p][1]);
      ck_assert_int_eq(tensor_is_contiguous(converted), 1);
      tensor_t *expected = NULL;
      ck_ok(tensor_zeros(&expected, 2, tensor_sizes(views[v]), pairs[p][1]));
      check_copy(expected, views[v]);
      ck_assert_int_eq(memcmp(tensor_data(converted), tensor_data(expected),
                              (size_t)tensor_numel(expected) * tensor_dtype_size(pairs[p][1])), 0);
      tensor_release(converted);
      tensor_release(expected);
      tensor_release(views[v]);
    }
    tensor_release(src);
  }
}
END_TEST

/* ---- overlapping source and destination ------------------------------------ */

START_TEST(overlap_shifted_views) {
  const int64_t n = 1000;
  for (size_t k = 0; k < N_ITEM_DTYPES; ++k) {
    tensor_storage_t *s = patterned_storage(kItemDtypes[k], n, 10);
    const int64_t len[] = {n - 3};
    tensor_t *lo = view_of(s, kItemDtypes[k], 1, len, NULL, 0);
    tensor_t *hi = view_of(s, kItemDtypes[k], 1, len, NULL, 3);
    check_copy(hi, lo); /* forward shift: a naive loop would smear lo[0] */
    check_copy(lo, hi); /* backward shift */
    tensor_release(lo);
    tensor_release(hi);
    tensor_storage_release(s);
  }
}
END_TEST

START_TEST(overlap_reversed_and_transposed) {
  tensor_storage_t *s = patterned_storage(TENSOR_FLOAT64, 40 * 40, 11);
  const int64_t n[] = {40 * 40}, minus[] = {-1};
  tensor_t *all = view_of(s, TENSOR_FLOAT64, 1, n, NULL, 0);
  tensor_t *rev = view_of(s, TENSOR_FLOAT64, 1, n, minus, 40 * 40 - 1);
  check_copy(all, rev); /* x[:] = x[::-1] */
  const int64_t sq[] = {40, 40}, tr[] = {1, 40};
  tensor_t *m = view_of(s, TENSOR_FLOAT64, 2, sq, NULL, 0);
  tensor_t *mt = view_of(s, TENSOR_FLOAT64, 2, sq, tr, 0);
  check_copy(m, mt); /* A = A.T in place */
  check_copy(m, m);  /* identical: a no-op */
  /* a cast in place over the same bytes: int64 view of the same storage */
  tensor_t *as_int = view_of(s, TENSOR_INT64, 1, n, NULL, 0);
  ck_ok(tensor_fill(as_int, 3));
  check_copy(all, as_int);
  tensor_release(all);
  tensor_release(rev);
  tensor_release(m);
  tensor_release(mt);
  tensor_release(as_int);
  tensor_storage_release(s);
}
END_TEST

/* ---- contiguous, clone, to -------------------------------------------------- */

START_TEST(contiguous_shares_contiguous_input) {
  const int64_t sizes[] = {4, 1, 6};
  tensor_t *t = iota(TENSOR_FLOAT32, 3, sizes);
  tensor_t *c = NULL;
  ck_ok(tensor_contiguous(&c, t));
  ck_assert_ptr_eq(c, t);
  ck_assert_int_eq(tensor_refcount(t), 2);
  tensor_release(c);
  ck_assert_int_eq(tensor_refcount(t), 1);
  /* a size-1 dim with an odd stride is still contiguous (PyTorch's rule) */
  const int64_t odd[] = {6, 99, 1};
  tensor_t *v = view_of(tensor_storage(t), TENSOR_FLOAT32, 3, sizes, odd, 0);
  ck_ok(tensor_contiguous(&c, v));
  ck_assert_ptr_eq(c, v);
  tensor_release(c);
  tensor_release(v);
  tensor_release(t);
}
END_TEST

START_TEST(contiguous_copies_strided_input) {
  const int64_t sizes[] = {6, 4}, strides[] = {1, 6}, expected_strides[] = {4, 1};
  tensor_t *base = NULL;
  const int64_t n[] = {24};
  ck_ok(tensor_empty(&base, 1, n, TENSOR_INT32));
  for (int32_t i = 0; i < 24; ++i) ((int32_t *)tensor_data(base))[i] = i;
  tensor_t *t = view_of(tensor_storage(base), TENSOR_INT32, 2, sizes, strides, 0);
  tensor_t *c = NULL;
  ck_ok(tensor_contiguous(&c, t));
  ck_assert_ptr_ne(c, t);
  ck_assert_ptr_ne(tensor_storage(c), tensor_storage(t));
  ck_layout(c, 2, sizes, expected_strides);
  ck_assert_int_eq(tensor_storage_offset(c), 0);
  ck_assert_int_eq(tensor_refcount(c), 1);
  ck_assert_int_eq(tensor_refcount(t), 1);
  ck_assert_int_eq(tensor_storage_refcount(tensor_storage(c)), 1);
  const int32_t *p = tensor_data(c);
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 4; ++j) ck_assert_int_eq(p[i * 4 + j], (int32_t)(i + 6 * j));
  tensor_release(c);
  tensor_release(t);
  tensor_release(base);
}
END_TEST

START_TEST(clone_always_copies) {
  const int64_t sizes[] = {3, 5};
  tensor_t *t = iota(TENSOR_FLOAT64, 2, sizes);
  tensor_t *c = NULL;
  ck_ok(tensor_clone(&c, t));
  ck_assert_ptr_ne(c, t);
  ck_assert_ptr_ne(tensor_data(c), tensor_data(t));
  check_is_contiguous_copy(c, t);
  ck_assert_int_eq(tensor_refcount(t), 1);
  ck_assert_int_eq(tensor_is_readonly(c), 0);
  tensor_release(c);
  tensor_release(t);
}
END_TEST

static float g_readonly_buffer[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

static tensor_t *readonly_tensor(void) {
  tensor_t *t = NULL;
  ck_ok(tensor_from_buffer(&t, g_readonly_buffer, sizeof g_readonly_buffer, TENSOR_FLOAT32, -1, 0,
                           TENSOR_READONLY, NULL, NULL));
  return t;
}

START_TEST(copies_of_readonly_are_writable) {
  tensor_t *ro = readonly_tensor();
  tensor_t *c = NULL, *k = NULL, *d = NULL;
  ck_ok(tensor_clone(&c, ro));
  ck_assert_int_eq(tensor_is_readonly(c), 0);
  ck_ok(tensor_to(&d, ro, TENSOR_FLOAT64, TENSOR_COPY_IF_NEEDED));
  ck_assert_int_eq(tensor_is_readonly(d), 0);
  ck_assert_double_eq(((double *)tensor_data(d))[11], 12.0);
  ck_ok(tensor_contiguous(&k, ro)); /* contiguous: shared, so still read-only */
  ck_assert_ptr_eq(k, ro);
  tensor_release(c);
  tensor_release(d);
  tensor_release(k);
  tensor_release(ro);
}
END_TEST

START_TEST(to_copy_modes) {
  const int64_t sizes[] = {2, 3};
  tensor_t *t = iota(TENSOR_INT32, 2, sizes);
  tensor_t *out = NULL;
  ck_ok(tensor_to(&out, t, TENSOR_INT32, TENSOR_COPY_IF_NEEDED));
  ck_assert_ptr_eq(out, t);
  ck_assert_int_eq(tensor_refcount(t), 2);
  tensor_release(out);
  ck_ok(tensor_to(&out, t, TENSOR_INT32, TENSOR_COPY_NEVER));
  ck_assert_ptr_eq(out, t);
  tensor_release(out);
  ck_ok(tensor_to(&out, t, TENSOR_INT32, TENSOR_COPY_ALWAYS));
  ck_assert_ptr_ne(out, t);
  check_is_contiguous_copy(out, t);
  tensor_release(out);
  ck_ok(tensor_to(&out, t, TENSOR_FLOAT32, TENSOR_COPY_ALWAYS));
  ck_assert_int_eq(tensor_dtype(out), TENSOR_FLOAT32);
  ck_assert_float_eq(((float *)tensor_data(out))[5], -45.0f);
  tensor_release(out);

  out = (tensor_t *)t; /* failures must write NULL */
  ck_status(tensor_to(&out, t, TENSOR_FLOAT32, TENSOR_COPY_NEVER), TENSOR_E_COPY);
  ck_assert_ptr_null(out);
  ck_status(tensor_to(&out, t, TENSOR_FLOAT32, 3), TENSOR_E_INVALID);
  ck_status(tensor_to(&out, t, TENSOR_FLOAT32, -1), TENSOR_E_INVALID);
  ck_status(tensor_to(&out, t, 8, TENSOR_COPY_IF_NEEDED), TENSOR_E_INVALID);
  ck_status(tensor_to(&out, t, 1000, TENSOR_COPY_ALWAYS), TENSOR_E_INVALID);
  ck_status(tensor_to(&out, NULL, TENSOR_FLOAT32, TENSOR_COPY_ALWAYS), TENSOR_E_INVALID);
  ck_status(tensor_to(NULL, t, TENSOR_FLOAT32, TENSOR_COPY_ALWAYS), TENSOR_E_INVALID);
  ck_assert_ptr_null(out);
  ck_assert_int_eq(tensor_refcount(t), 1);
  tensor_release(t);
}
END_TEST

/* ---- rejections ------------------------------------------------------------- */

START_TEST(copy_rejections) {
  const int64_t sizes[] = {3, 3};
  tensor_t *a = iota(TENSOR_FLOAT32, 2, sizes);
  tensor_storage_t *s = tensor_storage(a);

  tensor_t *ro = readonly_tensor();
  tensor_t *ro_row = view_of(tensor_storage(ro), TENSOR_FLOAT32, 2, sizes, NULL, 0);
  ck_status(tensor_copy(ro_row, a), TENSOR_E_READONLY);
  ck_status(tensor_fill(ro, 0), TENSOR_E_READONLY);
  ck_assert_float_eq(g_readonly_buffer[0], 1.0f);

  const int64_t interleaved[] = {1, 1};
  tensor_t *overlapping = view_of(s, TENSOR_FLOAT32, 2, sizes, interleaved, 0);
  ck_status(tensor_copy(overlapping, a), TENSOR_E_OVERLAP);
  ck_status(tensor_fill(overlapping, 1), TENSOR_E_OVERLAP);
  const int64_t zero[] = {0}, three[] = {3};
  tensor_t *zero_stride = view_of(s, TENSOR_FLOAT32, 1, three, zero, 0);
  ck_status(tensor_copy(zero_stride, zero_stride), TENSOR_E_OVERLAP);
  /* negative strides count by magnitude: [2,2] with strides [-2, 1] is fine, [-1, 1] is not */
  const int64_t two[] = {2, 2}, ok_strides[] = {-2, 1}, bad_strides[] = {-1, 1};
  tensor_t *fine = view_of(s, TENSOR_FLOAT32, 2, two, ok_strides, 2);
  ck_ok(tensor_fill(fine, 5));
  tensor_t *bad = view_of(s, TENSOR_FLOAT32, 2, two, bad_strides, 1);
  ck_status(tensor_fill(bad, 5), TENSOR_E_OVERLAP);

  /* an empty destination always succeeds, even with a zero stride or read-only,
     as long as src broadcasts to it (torch's copy_ refuses [3,3] into [0,3]) */
  const int64_t empty_sizes[] = {0, 3}, empty_strides[] = {0, 0};
  tensor_t *empty = view_of(s, TENSOR_FLOAT32, 2, empty_sizes, empty_strides, 0);
  const int64_t row_sizes[] = {1, 3}, one_size[] = {1};
  tensor_t *row = view_of(s, TENSOR_FLOAT32, 2, row_sizes, NULL, 0);
  tensor_t *one = view_of(s, TENSOR_FLOAT32, 1, one_size, NULL, 0);
  ck_ok(tensor_copy(empty, row));
  ck_status(tensor_copy(empty, a), TENSOR_E_SHAPE);
  ck_ok(tensor_fill(empty, 1));
  const int64_t ro_empty_sizes[] = {0};
  tensor_t *ro_empty = view_of(tensor_storage(ro), TENSOR_FLOAT32, 1, ro_empty_sizes, NULL, 0);
  ck_ok(tensor_copy(ro_empty, one));
  ck_status(tensor_copy(ro_empty, a), TENSOR_E_SHAPE);
  ck_ok(tensor_fill(ro_empty, 1));

  /* shapes */
  tensor_t *row4 = NULL, *big = NULL;
  const int64_t four[] = {4}, more[] = {1, 3, 3};
  ck_ok(tensor_zeros(&row4, 1, four, TENSOR_FLOAT32));
  ck_ok(tensor_zeros(&big, 3, more, TENSOR_FLOAT32));
  ck_status(tensor_copy(a, row4), TENSOR_E_SHAPE);
  ck_status(tensor_copy(a, big), TENSOR_E_SHAPE); /* more dims, even if only size 1 */
  ck_status(tensor_copy(row4, a), TENSOR_E_SHAPE);

  /* NULL arguments */
  tensor_t *out = a;
  ck_status(tensor_copy(NULL, a), TENSOR_E_INVALID);
  ck_status(tensor_copy(a, NULL), TENSOR_E_INVALID);
  ck_status(tensor_fill(NULL, 0), TENSOR_E_INVALID);
  ck_status(tensor_contiguous(&out, NULL), TENSOR_E_INVALID);
  ck_assert_ptr_null(out);
  ck_status(tensor_clone(&out, NULL), TENSOR_E_INVALID);
  ck_status(tensor_contiguous(NULL, a), TENSOR_E_INVALID);
  ck_status(tensor_clone(NULL, a), TENSOR_E_INVALID);

  /* a clean failure leaves dst unchanged */
  const float first = ((float *)tensor_data(a))[0];
  ck_status(tensor_copy(a, row4), TENSOR_E_SHAPE);
  ck_assert_float_eq(((float *)tensor_data(a))[0], first);

  tensor_t *ts[] = {a, ro, ro_row, ro_empty, overlapping, zero_stride, fine, bad, empty, row, one, row4, big};
  for (size_t i = 0; i < sizeof ts / sizeof *ts; ++i) tensor_release(ts[i]);
}
END_TEST

static int g_deleted;
static void count_delete(DLManagedTensor *self) {
  (void)self;
  ++g_deleted;
}

/* Memory on a device the CPU cannot address is never touched. */
START_TEST(device_memory_is_refused) {
  int64_t shape[] = {4};
  DLManagedTensor m;
  fake_device_tensor(&m, shape, count_delete);
  tensor_t *dev = NULL, *host = NULL, *out = NULL;
  ck_ok(tensor_from_dlpack_legacy(&dev, &m));
  ck_ok(tensor_zeros(&host, 1, shape, TENSOR_FLOAT32));
  ck_status(tensor_copy(host, dev), TENSOR_E_DEVICE);
  ck_status(tensor_copy(dev, host), TENSOR_E_DEVICE);
  ck_status(tensor_fill(dev, 1), TENSOR_E_DEVICE);
  ck_status(tensor_clone(&out, dev), TENSOR_E_DEVICE);
  ck_status(tensor_to(&out, dev, TENSOR_FLOAT64, TENSOR_COPY_IF_NEEDED), TENSOR_E_DEVICE);
  ck_status(tensor_to_with(&out, dev, TENSOR_UINT8, TENSOR_COPY_ALWAYS, TENSOR_PRESERVE_FORMAT,
                           TENSOR_CONVERT_TORCH_X86), TENSOR_E_DEVICE);
  ck_status(tensor_copy_with(host, dev, TENSOR_CONVERT_TORCH_X86), TENSOR_E_DEVICE);
  ck_ok(tensor_contiguous(&out, dev)); /* contiguous: shared, no element access */
  ck_assert_ptr_eq(out, dev);
  tensor_release(out);
  ck_ok(tensor_empty_like(&out, dev, TENSOR_FLOAT32, TENSOR_PRESERVE_FORMAT)); /* a host tensor: no access */
  ck_assert_int_eq(tensor_numel(out), 4);
  tensor_release(out);
  tensor_release(dev);
  tensor_release(host);
  ck_assert_int_eq(g_deleted, 1);
}
END_TEST

/* ---- fill -------------------------------------------------------------------- */

START_TEST(fill_converts_like_a_copy) {
  const int64_t n[] = {5};
  tensor_t *i32 = NULL, *u8 = NULL, *b = NULL, *f16 = NULL, *c64 = NULL, *i8 = NULL;
  ck_ok(tensor_zeros(&i32, 1, n, TENSOR_INT32));
  ck_ok(tensor_fill(i32, -2.7));
  for (int i = 0; i < 5; ++i) ck_assert_int_eq(((int32_t *)tensor_data(i32))[i], -2);
  ck_ok(tensor_fill(i32, NAN));
  ck_assert_int_eq(((int32_t *)tensor_data(i32))[4], 0);
  ck_ok(tensor_fill(i32, 1e20));
  ck_assert_int_eq(((int32_t *)tensor_data(i32))[0], INT32_MAX);
  ck_ok(tensor_zeros(&u8, 1, n, TENSOR_UINT8));
  ck_ok(tensor_fill(u8, -1.0));
  ck_assert_uint_eq(((uint8_t *)tensor_data(u8))[2], 0);
  ck_ok(tensor_fill(u8, 255.9));
  ck_assert_uint_eq(((uint8_t *)tensor_data(u8))[2], 255);
  ck_ok(tensor_zeros(&i8, 1, n, TENSOR_INT8));
  ck_ok(tensor_fill(i8, -128.5));
  ck_assert_int_eq(((int8_t *)tensor_data(i8))[1], -128);
  ck_ok(tensor_zeros(&b, 1, n, TENSOR_BOOL));
  ck_ok(tensor_fill(b, 0.25));
  ck_assert_uint_eq(((uint8_t *)tensor_data(b))[3], 1);
  ck_ok(tensor_zeros(&f16, 1, n, TENSOR_FLOAT16));
  ck_ok(tensor_fill(f16, 1.0));
  ck_assert_uint_eq(((uint16_t *)tensor_data(f16))[4], 0x3c00);
  ck_ok(tensor_fill(f16, -INFINITY));
  ck_assert_uint_eq(((uint16_t *)tensor_data(f16))[0], 0xfc00);
  ck_ok(tensor_zeros(&c64, 1, n, TENSOR_COMPLEX64));
  ck_ok(tensor_fill(c64, 2.5));
  const float *c = tensor_data(c64);
  ck_assert_float_eq(c[6], 2.5f);
  ck_assert_float_eq(c[7], 0.0f);
  tensor_t *ts[] = {i32, u8, i8, b, f16, c64};
  for (size_t i = 0; i < sizeof ts / sizeof *ts; ++i) tensor_release(ts[i]);
}
END_TEST

START_TEST(fill_strided_destination) {
  tensor_storage_t *s = patterned_storage(TENSOR_FLOAT64, 30 * 30, 12);
  const unsigned char *before = NULL;
  unsigned char copy[30 * 30 * 8];
  before = tensor_storage_data(s);
  memcpy(copy, before, sizeof copy);
  const int64_t sizes[] = {10, 7}, strides[] = {-3, 60};
  tensor_t *t = view_of(s, TENSOR_FLOAT64, 2, sizes, strides, 27);
  ck_ok(tensor_fill(t, 4.5));
  const double v = 4.5;
  for (int64_t i = 0; i < 10; ++i)
    for (int64_t j = 0; j < 7; ++j) memcpy(copy + (27 - 3 * i + 60 * j) * 8, &v, 8);
  ck_assert_int_eq(memcmp(copy, tensor_storage_data(s), sizeof copy), 0);
  tensor_release(t);
  tensor_storage_release(s);
}
END_TEST

/* tensor_fill_element writes destinations tensor_fill refuses: with zero
 * strides and with interleaved elements, every place ends up the value; the
 * element may lie in dst itself; read-only and NULL are refused. */
START_TEST(fill_element_overlapping_destinations) {
  tensor_storage_t *s = patterned_storage(TENSOR_FLOAT64, 30, 21);
  unsigned char copy[30 * 8];
  memcpy(copy, tensor_storage_data(s), sizeof copy);
  const int64_t sizes[] = {3, 3}, strides[] = {1, 1}, zsizes[] = {4, 5}, zstrides[] = {0, 2};
  tensor_t *inter = view_of(s, TENSOR_FLOAT64, 2, sizes, strides, 2); /* places 2..6 */
  tensor_t *zero = view_of(s, TENSOR_FLOAT64, 2, zsizes, zstrides, 10); /* places 10, 12, ..., 18 */
  const double v = -2.25;
  ck_status(tensor_fill(inter, v), TENSOR_E_OVERLAP);
  ck_ok(tensor_fill_element(inter, &v));
  ck_ok(tensor_fill_element(zero, (const char *)tensor_data(inter) + 8)); /* an element of dst's storage */
  for (int64_t i = 2; i <= 6; ++i) memcpy(copy + i * 8, &v, 8);
  for (int64_t i = 10; i <= 18; i += 2) memcpy(copy + i * 8, &v, 8);
  ck_assert_int_eq(memcmp(copy, tensor_storage_data(s), sizeof copy), 0);
  /* no overlap: the engine's path, with an unaligned element */
  const int64_t fsizes[] = {10}, fstrides[] = {-1};
  tensor_t *flat = view_of(s, TENSOR_FLOAT64, 1, fsizes, fstrides, 29);
  unsigned char unaligned[9];
  const double w = 7.5;
  memcpy(unaligned + 1, &w, 8);
  ck_ok(tensor_fill_element(flat, unaligned + 1));
  for (int64_t i = 20; i < 30; ++i) ck_assert(((const double *)tensor_storage_data(s))[i] == 7.5);
  ck_status(tensor_fill_element(NULL, &v), TENSOR_E_INVALID);
  ck_status(tensor_fill_element(flat, NULL), TENSOR_E_INVALID);
  ck_assert_ptr_nonnull(strstr(tensor_last_error(), "fill_element: element is NULL"));
  /* bools are stored canonical */
  int64_t n = 3;
  tensor_t *b = NULL, *e = NULL;
  ck_ok(tensor_zeros(&b, 1, &n, TENSOR_BOOL));
  ck_ok(tensor_expand(&e, b, 1, &n));
  const uint8_t two = 2;
  ck_ok(tensor_fill_element(e, &two));
  for (int64_t i = 0; i < 3; ++i) ck_assert_uint_eq(((const uint8_t *)tensor_data(b))[i], 1);
  tensor_release(b);
  tensor_release(e);
  tensor_release(inter);
  tensor_release(zero);
  tensor_release(flat);
  tensor_storage_release(s);
}
END_TEST

/* Outputs of 8 MiB and more are written with streaming stores: a transpose,
 * gathers, a fill and a cast that large, checked against the reference. */
START_TEST(large_outputs_stream) {
  const int64_t rows = 1030, cols = 1100; /* not multiples of the tiles */
  tensor_storage_t *s = patterned_storage(TENSOR_FLOAT64, rows * cols, 14);
  const int64_t t_sizes[] = {cols, rows}, t_strides[] = {1, cols};
  tensor_t *t = view_of(s, TENSOR_FLOAT64, 2, t_sizes, t_strides, 0);
  check_copy_to_fresh(t, TENSOR_FLOAT64);
  tensor_storage_t *gs = patterned_storage(TENSOR_FLOAT32, (int64_t)9 << 20 >> 1, 15);
  const int64_t g_sizes[] = {((int64_t)9 << 20 >> 2) - 1}, g_strides[] = {2};
  tensor_t *g32 = view_of(gs, TENSOR_FLOAT32, 1, g_sizes, g_strides, 1);
  check_copy_to_fresh(g32, TENSOR_FLOAT32); /* 9 MiB gathered with stride 2 */
  tensor_storage_release(gs);
  tensor_storage_t *gs3 = patterned_storage(TENSOR_FLOAT32, (int64_t)27 << 20 >> 2, 16);
  const int64_t g3_sizes[] = {((int64_t)9 << 20 >> 2) - 1}, g3_strides[] = {3};
  tensor_t *g3 = view_of(gs3, TENSOR_FLOAT32, 1, g3_sizes, g3_strides, 5);
  check_copy_to_fresh(g3, TENSOR_FLOAT32); /* 9 MiB gathered with stride 3, to the source's last element */
  tensor_release(g3);
  tensor_storage_release(gs3);
  const int64_t wide[] = {rows * cols * 2 - 5};
  tensor_t *f32 = view_of(s, TENSOR_FLOAT32, 1, wide, NULL, 3);
  tensor_t *big = NULL;
  ck_ok(tensor_empty(&big, 1, wide, TENSOR_FLOAT32));
  check_copy(big, f32); /* contiguous source misaligned by 3 elements */
  const int64_t b_sizes[] = {rows * 2, cols}, b_strides[] = {1, 0};
  tensor_t *bcast = view_of(s, TENSOR_FLOAT32, 2, b_sizes, b_strides, 7);
  check_copy_to_fresh(bcast, TENSOR_FLOAT32);
  ck_ok(tensor_fill(big, -3.25));
  ck_assert_float_eq(((float *)tensor_data(big))[0], -3.25f);
  ck_assert_float_eq(((float *)tensor_data(big))[wide[0] - 1], -3.25f);
  tensor_release(big);
  tensor_release(bcast);
  tensor_release(f32);
  tensor_release(g32);
  tensor_release(t);
  tensor_storage_release(s);
  /* float32 transposes walked in blocks, large enough to stream: destination
     rows 64-byte aligned (4 KiB) and not (4 KiB + 12 B), long source rows, and
     short ones ({520, 64, 64} from a [64, 64, 520] storage) */
  const int64_t shapes[][2] = {{1024, 2100}, {1027, 2100}};
  for (int k = 0; k < 2; ++k) {
    const int64_t r = shapes[k][0], c = shapes[k][1];
    tensor_storage_t *ts = patterned_storage(TENSOR_FLOAT32, r * c, 17 + (unsigned)k);
    const int64_t sizes[] = {c, r}, strides[] = {1, c};
    tensor_t *tt = view_of(ts, TENSOR_FLOAT32, 2, sizes, strides, 0);
    check_copy_to_fresh(tt, TENSOR_FLOAT32);
    tensor_release(tt);
    tensor_storage_release(ts);
  }
  tensor_storage_t *ps = patterned_storage(TENSOR_FLOAT32, 64 * 64 * 520, 19);
  const int64_t p_sizes[] = {520, 64, 64}, p_strides[] = {1, 64 * 520, 520};
  tensor_t *pt = view_of(ps, TENSOR_FLOAT32, 3, p_sizes, p_strides, 0);
  check_copy_to_fresh(pt, TENSOR_FLOAT32);
  tensor_release(pt);
  tensor_storage_release(ps);
  /* long strips (source rows of 64 KiB and more, destination rows of at most
     1 KiB: prefetch along the rows, destination pages touched ahead) large
     enough to stream, 2, 4 and 8-byte elements: a last strip of fewer rows,
     destination rows 64-byte aligned (float32) and not, and edges for the
     portable loops; one thread, as threads would split the rows */
  const int32_t threads = tensor_get_num_threads();
  ck_ok(tensor_set_num_threads(1));
  const tensor_dtype_t strip_dtypes[] = {TENSOR_INT16, TENSOR_FLOAT32, TENSOR_INT64};
  const int64_t strip_rows[] = {167, 144, 111}, strip_cols[] = {32819, 16411, 10255};
  for (int k = 0; k < 3; ++k) {
    const int64_t r = strip_rows[k], c = strip_cols[k];
    tensor_storage_t *ss = patterned_storage(strip_dtypes[k], r * c, 20 + (unsigned)k);
    const int64_t sizes[] = {c, r}, strides[] = {1, c};
    tensor_t *st = view_of(ss, strip_dtypes[k], 2, sizes, strides, 0);
    check_copy_to_fresh(st, strip_dtypes[k]);
    tensor_release(st);
    tensor_storage_release(ss);
  }
  ck_ok(tensor_set_num_threads(threads));
  /* a cast large enough to stream: int32 -> float64 */
  const int64_t n[] = {(int64_t)1 << 20};
  tensor_t *ints = iota(TENSOR_INT32, 1, n);
  check_copy_to_fresh(ints, TENSOR_FLOAT64);
  tensor_release(ints);
}
END_TEST

/* ---- allocation ---------------------------------------------------------------- */

/* Large blocks are cached and handed out again: zero-filled requests must still
 * see zeros, whatever the previous owner wrote. */
START_TEST(large_blocks_reused_zeroed) {
  const size_t sizes[] = {(size_t)3 << 20, ((size_t)1 << 20) + 1, (size_t)5 << 20};
  for (size_t k = 0; k < 3; ++k) {
    for (int round = 0; round < 3; ++round) {
      tensor_storage_t *s = NULL;
      ck_ok(tensor_storage_new(&s, sizes[k]));
      const unsigned char *p = tensor_storage_data(s);
      ck_assert_uint_eq((uintptr_t)p % 64, 0);
      for (size_t i = 0; i < sizes[k]; i += 4093) ck_assert_uint_eq(p[i], 0);
      ck_assert_uint_eq(p[sizes[k] - 1], 0);
      memset(tensor_storage_data(s), 0xa5, sizes[k]);
      tensor_storage_release(s);
    }
    const int64_t n[] = {(int64_t)(sizes[k] / 8)};
    tensor_t *e = NULL, *z = NULL;
    ck_ok(tensor_empty(&e, 1, n, TENSOR_FLOAT64));
    ck_ok(tensor_fill(e, -1));
    tensor_release(e);
    ck_ok(tensor_zeros(&z, 1, n, TENSOR_FLOAT64));
    for (int64_t i = 0; i < n[0]; i += 511) ck_assert_double_eq(((double *)tensor_data(z))[i], 0.0);
    tensor_release(z);
  }
}
END_TEST

/* ---- threads ------------------------------------------------------------------ */

/* The default thread count: CTENSOR_NUM_THREADS when it is a positive integer
   (meson runs this case again with it set, and set to something else), else
   the CPUs this process may run on. Every test puts back the count it found. */
static int32_t expected_default_threads(void) {
  const char *env = getenv("CTENSOR_NUM_THREADS");
  if (env) {
    char *end = NULL;
    const long n = strtol(env, &end, 10);
    if (end != env && *end == '\0' && n >= 1 && n <= INT32_MAX) return (int32_t)n;
  }
  cpu_set_t cpus;
  ck_assert_int_eq(sched_getaffinity(0, sizeof cpus, &cpus), 0);
  return CPU_COUNT(&cpus);
}

START_TEST(thread_setting) {
  const int32_t threads = tensor_get_num_threads();
  ck_assert_int_eq(threads, expected_default_threads());
  ck_status(tensor_set_num_threads(0), TENSOR_E_INVALID);
  ck_status(tensor_set_num_threads(-3), TENSOR_E_INVALID);
  ck_assert_int_eq(tensor_get_num_threads(), threads);

  /* big enough to be split: a transpose, a gather and a cast, each over 2 MiB */
  const int64_t rows = 700, cols = 900;
  tensor_storage_t *s = patterned_storage(TENSOR_FLOAT32, rows * cols, 13);
  const int64_t t_sizes[] = {cols, rows}, t_strides[] = {1, cols};
  const int64_t n[] = {rows * cols};
  tensor_t *views[] = {
      view_of(s, TENSOR_FLOAT32, 2, t_sizes, t_strides, 0),
      view_of(s, TENSOR_FLOAT32, 1, n, NULL, 0),
  };
  for (size_t v = 0; v < 2; ++v) {
    tensor_t *one = NULL, *two = NULL, *one64 = NULL, *two64 = NULL;
    ck_ok(tensor_set_num_threads(1));
    ck_ok(tensor_clone(&one, views[v]));
    ck_ok(tensor_to(&one64, views[v], TENSOR_FLOAT64, TENSOR_COPY_ALWAYS));
    ck_ok(tensor_set_num_threads(2));
    ck_assert_int_eq(tensor_get_num_threads(), 2);
    ck_ok(tensor_clone(&two, views[v]));
    ck_ok(tensor_to(&two64, views[v], TENSOR_FLOAT64, TENSOR_COPY_ALWAYS));
    ck_assert_int_eq(memcmp(tensor_data(one), tensor_data(two), (size_t)rows * cols * 4), 0);
    ck_assert_int_eq(memcmp(tensor_data(one64), tensor_data(two64), (size_t)rows * cols * 8), 0);
    check_is_contiguous_copy(two, views[v]);
    tensor_release(one);
    tensor_release(two);
    tensor_release(one64);
    tensor_release(two64);
    tensor_release(views[v]);
  }
  /* a streamed transpose split over two threads, against the reference */
  const int64_t big_rows = 1030, big_cols = 1100;
  tensor_storage_t *b = patterned_storage(TENSOR_FLOAT64, big_rows * big_cols, 16);
  const int64_t bt_sizes[] = {big_cols, big_rows}, bt_strides[] = {1, big_cols};
  tensor_t *bt = view_of(b, TENSOR_FLOAT64, 2, bt_sizes, bt_strides, 0);
  check_copy_to_fresh(bt, TENSOR_FLOAT64);
  tensor_release(bt);
  tensor_storage_release(b);
  ck_ok(tensor_set_num_threads(threads));
  tensor_storage_release(s);
}
END_TEST

/* A child of fork() has none of the parent's worker threads: its large copies
 * must still complete (on its own thread). The child reports through a pipe:
 * its exit status is valgrind's to decide (the worker's state looks leaked there). */
START_TEST(threads_after_fork) {
  const int64_t n[] = {(int64_t)1 << 20}; /* 4 MiB: split over two threads */
  tensor_t *src = iota(TENSOR_FLOAT32, 1, n), *a = NULL;
  const int32_t threads = tensor_get_num_threads();
  ck_ok(tensor_set_num_threads(2));
  ck_ok(tensor_clone(&a, src)); /* starts the worker */
  tensor_release(a);
  int fds[2];
  ck_assert_int_eq(pipe(fds), 0);
  fflush(NULL);
  const pid_t pid = fork();
  ck_assert_int_ge(pid, 0);
  if (pid == 0) {
    tensor_t *b = NULL;
    const char ok = tensor_clone(&b, src) == TENSOR_OK &&
                    memcmp(tensor_data(b), tensor_data(src), (size_t)n[0] * 4) == 0;
    tensor_release(b);
    tensor_release(src);
    ssize_t written = write(fds[1], &ok, 1);
    _exit(written == 1 ? 0 : 1);
  }
  close(fds[1]);
  char ok = 0;
  ck_assert_int_eq(read(fds[0], &ok, 1), 1);
  close(fds[0]);
  ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
  ck_assert_int_eq(ok, 1);
  ck_ok(tensor_set_num_threads(threads));
  tensor_release(src);
}
END_TEST

/* Foreign buffers may hold bool bytes other than 0/1; copies store canonical
   bools (0/1) as PyTorch's clone/copy_ do, on the contiguous and strided paths. */
START_TEST(bool_copies_store_zero_or_one) {
  uint8_t bytes[8] = {2, 0, 255, 1, 0, 7, 128, 0};
  tensor_t *t = NULL, *c = NULL, *r = NULL, *rc = NULL, *dst = NULL;
  ck_ok(tensor_from_buffer(&t, bytes, sizeof bytes, TENSOR_BOOL, -1, 0, TENSOR_READONLY, NULL, NULL));
  ck_ok(tensor_clone(&c, t));
  const uint8_t *v = tensor_data(c);
  for (int i = 0; i < 8; ++i) ck_assert_int_eq(v[i], bytes[i] != 0);
  ck_ok(tensor_slice(&r, t, 0, TENSOR_SLICE_END, INT64_MIN, -1));
  ck_ok(tensor_contiguous(&rc, r));
  v = tensor_data(rc);
  for (int i = 0; i < 8; ++i) ck_assert_int_eq(v[i], bytes[7 - i] != 0);
  const int64_t n = 8;
  ck_ok(tensor_empty(&dst, 1, &n, TENSOR_BOOL));
  ck_ok(tensor_copy(dst, t));
  v = tensor_data(dst);
  for (int i = 0; i < 8; ++i) ck_assert_int_eq(v[i], bytes[i] != 0);
  tensor_release(dst);
  tensor_release(rc);
  tensor_release(r);
  tensor_release(c);
  tensor_release(t);
}
END_TEST

/* ---- memory formats --------------------------------------------------------- */

/* A view's layout and the strides torch.empty_like gives it under preserve_format
   (torch 1.13's own results; negative strides by c10's rule, which only looks at
   their magnitudes). */
typedef struct {
  int64_t ndim, sizes[3], strides[3], preserved[3];
} format_case_t;

static const format_case_t kFormatCases[] = {
    {0, {0}, {0}, {0}},
    {2, {3, 4}, {4, 1}, {4, 1}},
    {2, {4, 3}, {1, 4}, {1, 4}},              /* transposed: dense, kept */
    {3, {4, 2, 3}, {1, 12, 4}, {1, 12, 4}},   /* permuted: dense, kept */
    {2, {3, 4}, {8, 2}, {4, 1}},              /* step slice */
    {2, {3, 4}, {2, 6}, {1, 3}},              /* step slice of a transpose: its dim order */
    {1, {5}, {-1}, {1}},                      /* reversed */
    {2, {3, 4}, {4, -1}, {4, 1}},
    {2, {4, 3}, {-1, 4}, {1, 4}},             /* by magnitude */
    {2, {2, 3}, {0, 1}, {3, 1}},              /* expanded */
    {2, {3, 4}, {1, 0}, {4, 1}},
    {3, {2, 3, 4}, {1, 0, 2}, {1, 2, 6}},     /* a zero stride stays where it is */
    {2, {1, 3}, {100, 1}, {100, 1}},          /* a size-1 dim keeps any stride */
    {3, {2, 1, 3}, {3, -5, 1}, {3, -5, 1}},
    {3, {4, 1, 3}, {1, 7, 4}, {1, 7, 4}},
    {2, {0, 3}, {1, 5}, {1, 5}},              /* no elements: kept */
    {2, {2, 2}, {1, 1}, {2, 1}},              /* overlapping */
    {2, {2, 3}, {1, 1}, {1, 2}},              /* equal strides: the larger size outside */
};

START_TEST(like_tensors_preserve_layouts) {
  tensor_storage_t *s = patterned_storage(TENSOR_FLOAT32, 128, 7);
  for (size_t i = 0; i < sizeof kFormatCases / sizeof kFormatCases[0]; ++i) {
    const format_case_t *c = &kFormatCases[i];
    tensor_t *t = view_of(s, TENSOR_FLOAT32, c->ndim, c->sizes, c->strides, 40);
    tensor_t *empty = NULL, *zeros = NULL, *c_order = NULL;
    ck_ok(tensor_empty_like(&empty, t, TENSOR_FLOAT64, TENSOR_PRESERVE_FORMAT));
    ck_layout(empty, c->ndim, c->sizes, c->preserved);
    ck_assert_int_eq(tensor_dtype(empty), TENSOR_FLOAT64);
    ck_assert_int_eq(tensor_storage_offset(empty), 0);
    ck_assert_uint_eq(tensor_storage_nbytes(tensor_storage(empty)), (size_t)tensor_numel(t) * 8);
    ck_ok(tensor_zeros_like(&zeros, t, TENSOR_INT16, TENSOR_PRESERVE_FORMAT));
    ck_layout(zeros, c->ndim, c->sizes, c->preserved);
    const int16_t *z = tensor_data(zeros);
    for (int64_t k = 0; k < tensor_numel(zeros); ++k) ck_assert_int_eq(z[k], 0);
    ck_ok(tensor_zeros_like(&c_order, t, TENSOR_FLOAT32, TENSOR_CONTIGUOUS_FORMAT));
    ck_assert_int_eq(tensor_is_contiguous(c_order), 1);
    ck_assert_int_eq(tensor_ndim(c_order), c->ndim);
    tensor_release(c_order);
    tensor_release(zeros);
    tensor_release(empty);
    tensor_release(t);
  }
  tensor_storage_release(s);
}
END_TEST

/* tensor_to_with copies into the preserved layout, element for element. */
START_TEST(to_with_copies_in_a_memory_format) {
  tensor_storage_t *s = patterned_storage(TENSOR_FLOAT32, 128, 8);
  for (size_t i = 0; i < sizeof kFormatCases / sizeof kFormatCases[0]; ++i) {
    const format_case_t *c = &kFormatCases[i];
    tensor_t *t = view_of(s, TENSOR_INT32, c->ndim, c->sizes, c->strides, 40);
    for (int32_t format = TENSOR_PRESERVE_FORMAT; format <= TENSOR_CONTIGUOUS_FORMAT; ++format) {
      tensor_t *out = NULL, *expected = NULL, *got = NULL;
      ck_ok(tensor_to_with(&out, t, TENSOR_INT32, TENSOR_COPY_ALWAYS, format, TENSOR_CONVERT_TORCH_X86));
      ck_assert_ptr_ne(out, t);
      if (format == TENSOR_PRESERVE_FORMAT) ck_layout(out, c->ndim, c->sizes, c->preserved);
      else ck_assert_int_eq(tensor_is_contiguous(out), 1);
      ck_ok(tensor_clone(&expected, t));
      ck_ok(tensor_clone(&got, out));
      ck_assert_int_eq(memcmp(tensor_data(got), tensor_data(expected), (size_t)tensor_numel(t) * 4), 0);
      tensor_release(got);
      tensor_release(expected);
      tensor_release(out);
    }
    tensor_release(t);
  }
  tensor_storage_release(s);
}
END_TEST

/* The copy modes decide sharing, whatever the memory format. */
START_TEST(to_with_copy_modes) {
  const int64_t sizes[2] = {3, 4}, strides[2] = {1, 3};
  tensor_storage_t *s = patterned_storage(TENSOR_FLOAT32, 12, 9);
  tensor_t *t = view_of(s, TENSOR_FLOAT32, 2, sizes, strides, 0), *out = NULL;
  for (int32_t format = TENSOR_PRESERVE_FORMAT; format <= TENSOR_CONTIGUOUS_FORMAT; ++format) {
    ck_ok(tensor_to_with(&out, t, TENSOR_FLOAT32, TENSOR_COPY_IF_NEEDED, format, TENSOR_CONVERT_LIBRARY));
    ck_assert_ptr_eq(out, t);
    tensor_release(out);
    ck_ok(tensor_to_with(&out, t, TENSOR_FLOAT32, TENSOR_COPY_NEVER, format, TENSOR_CONVERT_TORCH_X86));
    ck_assert_ptr_eq(out, t);
    tensor_release(out);
    ck_status(tensor_to_with(&out, t, TENSOR_FLOAT64, TENSOR_COPY_NEVER, format, TENSOR_CONVERT_LIBRARY),
              TENSOR_E_COPY);
    ck_assert_ptr_null(out);
  }
  ck_ok(tensor_to_with(&out, t, TENSOR_FLOAT64, TENSOR_COPY_IF_NEEDED, TENSOR_PRESERVE_FORMAT,
                       TENSOR_CONVERT_LIBRARY));
  ck_layout(out, 2, sizes, strides);
  tensor_release(out);
  tensor_release(t);
  tensor_storage_release(s);
}
END_TEST

START_TEST(like_rejections) {
  const int64_t n = 4;
  tensor_t *t = NULL, *out = NULL;
  ck_ok(tensor_zeros(&t, 1, &n, TENSOR_FLOAT32));
  ck_status(tensor_empty_like(&out, t, TENSOR_FLOAT32, 2), TENSOR_E_INVALID);
  ck_status(tensor_zeros_like(&out, t, TENSOR_FLOAT32, -1), TENSOR_E_INVALID);
  ck_status(tensor_empty_like(&out, t, 8, TENSOR_PRESERVE_FORMAT), TENSOR_E_INVALID);
  ck_status(tensor_empty_like(&out, NULL, TENSOR_FLOAT32, TENSOR_PRESERVE_FORMAT), TENSOR_E_INVALID);
  ck_status(tensor_empty_like(NULL, t, TENSOR_FLOAT32, TENSOR_PRESERVE_FORMAT), TENSOR_E_INVALID);
  ck_assert_ptr_null(out);
  tensor_release(t);
}
END_TEST

static Suite *copies_suite(void) {
  Suite *s = suite_create("copies");
  TCase *kernels = tcase_create("kernels");
  tcase_add_test(kernels, contiguous_runs_every_item_size);
  tcase_add_test(kernels, zero_dim_and_size_one_dims);
  tcase_add_test(kernels, empty_tensors_copy_nothing);
  tcase_add_test(kernels, transposes_every_item_size);
  tcase_add_test(kernels, permutes_of_3d);
  tcase_add_test(kernels, batched_transpose_nchw_to_nhwc);
  tcase_add_test(kernels, negative_strides);
  tcase_add_test(kernels, strided_gathers);
  tcase_add_test(kernels, broadcast_sources);
  tcase_add_test(kernels, casts_on_every_path);
  tcase_add_test(kernels, large_outputs_stream);
  tcase_add_test(kernels, bool_copies_store_zero_or_one);
  suite_add_tcase(s, kernels);
  TCase *overlap = tcase_create("overlap");
  tcase_add_test(overlap, overlap_shifted_views);
  tcase_add_test(overlap, overlap_reversed_and_transposed);
  suite_add_tcase(s, overlap);
  TCase *api = tcase_create("api");
  tcase_add_test(api, contiguous_shares_contiguous_input);
  tcase_add_test(api, contiguous_copies_strided_input);
  tcase_add_test(api, clone_always_copies);
  tcase_add_test(api, copies_of_readonly_are_writable);
  tcase_add_test(api, to_copy_modes);
  tcase_add_test(api, copy_rejections);
  tcase_add_test(api, device_memory_is_refused);
  tcase_add_test(api, like_tensors_preserve_layouts);
  tcase_add_test(api, to_with_copies_in_a_memory_format);
  tcase_add_test(api, to_with_copy_modes);
  tcase_add_test(api, like_rejections);
  tcase_add_test(api, fill_converts_like_a_copy);
  tcase_add_test(api, fill_strided_destination);
  tcase_add_test(api, fill_element_overlapping_destinations);
  tcase_add_test(api, large_blocks_reused_zeroed);
  tcase_add_test(api, thread_setting);
  tcase_add_test(api, threads_after_fork);
  suite_add_tcase(s, api);
  return s;
}

int main(void) { return run_suite(copies_suite()); }
