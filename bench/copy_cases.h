/* The copy cases and page kinds that bench_copies and ab_copies share. */
#ifndef CTENSOR_BENCH_COPY_CASES_H
#define CTENSOR_BENCH_COPY_CASES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "ctensor.h"

/* ---- page kinds ---------------------------------------------------------------- */

/* Huge pages are what the library's own large storages ask for; 4 KiB pages
 * are what NumPy's arrays (and most foreign buffers) usually get. */
typedef enum { HUGE_PAGES, SMALL_PAGES } page_kind;

static const char *page_name(page_kind k) { return k == HUGE_PAGES ? "H" : "4K"; }

enum { HUGE_PAGE = 2 << 20 };

/* An anonymous mapping of at least n bytes in pages of the given kind (THP
 * asked for or turned off), 2 MiB aligned so that huge pages can back it. */
typedef struct {
  void *base, *p;
  size_t mapped, n;
} mapping;

static mapping map_pages(size_t n, page_kind kind) {
  mapping m = {NULL, NULL, n + HUGE_PAGE, n};
  m.base = mmap(NULL, m.mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m.base == MAP_FAILED) {
    perror("mmap");
    exit(1);
  }
  m.p = (void *)(((uintptr_t)m.base + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE);
#if defined(MADV_HUGEPAGE) && defined(MADV_NOHUGEPAGE)
  madvise(m.p, n, kind == HUGE_PAGES ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
#endif
  return m;
}

static void unmap_pages(mapping m) { munmap(m.base, m.mapped); }

/* Source and output page kinds of each row. */
#define N_MIXES 4
static const page_kind mixes[N_MIXES][2] = {
    {HUGE_PAGES, HUGE_PAGES}, {SMALL_PAGES, HUGE_PAGES}, {HUGE_PAGES, SMALL_PAGES}, {SMALL_PAGES, SMALL_PAGES}};

/* How "new" makes its result. */
typedef enum { NEW_CLONE, NEW_CONTIGUOUS, NEW_TO } new_kind;

/* A case: the view (sizes, strides) of a base of `numel` elements in
 * `src_kind` pages, and a contiguous output of `out_dtype` in `dst_kind` pages. */
typedef struct {
  const char *name;
  int64_t numel;
  tensor_dtype_t dtype, out_dtype;
  int64_t ndim;
  int64_t sizes[4], strides[4]; /* strides[0] == 0 && ndim == 1: contiguous */
  new_kind kind;
  double read_bytes;
} case_shape;

#define M64 ((int64_t)64 << 20)
#define F32 TENSOR_FLOAT32
static const case_shape cases[] = {
    {"a. 1-D copy 64Mi", M64, F32, F32, 1, {M64}, {0}, NEW_CLONE, 4.0 * M64},
    {"b. [4096,4096].t()", 4096 * 4096, F32, F32, 2, {4096, 4096}, {1, 4096}, NEW_CONTIGUOUS, 4.0 * 4096 * 4096},
    {"c1. [256]^3 permute(2,0,1)", 1 << 24, F32, F32, 3, {256, 256, 256}, {1, 65536, 256}, NEW_CONTIGUOUS,
     4.0 * (1 << 24)},
    {"c2. [256]^3 permute(1,2,0)", 1 << 24, F32, F32, 3, {256, 256, 256}, {256, 1, 65536}, NEW_CONTIGUOUS,
     4.0 * (1 << 24)},
    {"c3. [256]^3 f16 permute(1,2,0)", 1 << 24, TENSOR_FLOAT16, TENSOR_FLOAT16, 3, {256, 256, 256},
     {256, 1, 65536}, NEW_CONTIGUOUS, 2.0 * (1 << 24)},
    {"c4. [256]^3 f64 permute(1,2,0)", 1 << 24, TENSOR_FLOAT64, TENSOR_FLOAT64, 3, {256, 256, 256},
     {256, 1, 65536}, NEW_CONTIGUOUS, 8.0 * (1 << 24)},
    {"d. NCHW->NHWC [32,64,56,56]", 32 * 64 * 56 * 56, F32, F32, 4, {32, 56, 56, 64}, {200704, 56, 1, 3136},
     NEW_CONTIGUOUS, 4.0 * 32 * 64 * 56 * 56},
    {"e1. [8192,8192][:, ::2]", 8192 * 8192, F32, F32, 2, {8192, 4096}, {8192, 2}, NEW_CONTIGUOUS,
     4.0 * 8192 * 8192},
    {"e2. [8192,8192][::2, ::3]", 8192 * 8192, F32, F32, 2, {4096, 2731}, {16384, 3}, NEW_CONTIGUOUS,
     4.0 * 4096 * 8192},
    {"f. [4096,1] expand [4096,4096]", 4096, F32, F32, 2, {4096, 4096}, {1, 0}, NEW_CONTIGUOUS, 4.0 * 4096},
    {"g1. float32->float16 64Mi", M64, F32, TENSOR_FLOAT16, 1, {M64}, {0}, NEW_TO, 4.0 * M64},
    {"g2. float32->bfloat16 64Mi", M64, F32, TENSOR_BFLOAT16, 1, {M64}, {0}, NEW_TO, 4.0 * M64},
    {"g3. int32->float64 64Mi", M64, TENSOR_INT32, TENSOR_FLOAT64, 1, {M64}, {0}, NEW_TO, 4.0 * M64},
};
#define N_CASES ((int)(sizeof cases / sizeof cases[0]))

/* A row's name: the case and its mix, "b. [4096,4096].t() 4K->H". */
static void case_name(char *out, size_t n, int i, int mix) {
  snprintf(out, n, "%s %s->%s", cases[i].name, page_name(mixes[mix][0]), page_name(mixes[mix][1]));
}

#endif
