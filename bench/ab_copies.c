/* Two builds of the library in one process: the copy cases of bench_copies
 * ("into" an existing output, one thread) timed round-robin with build A,
 * build B and a memcpy of the same traffic, so that every repetition of the
 * three shares the machine's conditions. On a busy machine this tells two
 * builds apart where separate runs of bench_copies cannot. Times are CPU time of
 * the (only) thread.
 *
 * usage: ab_copies LIB_A LIB_B [filter] [repetitions]
 *   e.g. ab_copies old/libctensor.so.0 build-bench/src/libctensor.so.0 "b."
 * Prints, per case and page mix, the median ratio to memcpy of A and of B and
 * the median and spread of B/A over the repetitions (below 1: B is faster). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "copy_cases.h"

/* The functions used, looked up in one build. */
typedef struct {
  void *handle;
  tensor_status_t (*empty)(tensor_t **, int64_t, const int64_t *, tensor_dtype_t);
  tensor_status_t (*from_buffer)(tensor_t **, void *, size_t, tensor_dtype_t, int64_t, int64_t, int32_t,
                                 void (*)(void *), void *);
  tensor_status_t (*fill)(tensor_t *, double);
  tensor_status_t (*as_strided)(tensor_t **, const tensor_t *, int64_t, const int64_t *, const int64_t *,
                                int64_t);
  tensor_status_t (*copy)(tensor_t *, const tensor_t *);
  void (*release)(tensor_t *);
  const char *(*last_error)(void);
  size_t (*dtype_size)(tensor_dtype_t);
  tensor_status_t (*set_num_threads)(int32_t);
} library;

static void *symbol(void *handle, const char *name) {
  void *p = dlsym(handle, name);
  if (!p) {
    fprintf(stderr, "%s: %s\n", name, dlerror());
    exit(1);
  }
  return p;
}

static library load(const char *path) {
  library l;
  l.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!l.handle) {
    fprintf(stderr, "%s\n", dlerror());
    exit(1);
  }
  *(void **)&l.empty = symbol(l.handle, "tensor_empty");
  *(void **)&l.from_buffer = symbol(l.handle, "tensor_from_buffer");
  *(void **)&l.fill = symbol(l.handle, "tensor_fill");
  *(void **)&l.as_strided = symbol(l.handle, "tensor_as_strided");
  *(void **)&l.copy = symbol(l.handle, "tensor_copy");
  *(void **)&l.release = symbol(l.handle, "tensor_release");
  *(void **)&l.last_error = symbol(l.handle, "tensor_last_error");
  *(void **)&l.dtype_size = symbol(l.handle, "tensor_dtype_size");
  *(void **)&l.set_num_threads = symbol(l.handle, "tensor_set_num_threads");
  return l;
}

static void check(const library *l, tensor_status_t st, const char *what) {
  if (st != TENSOR_OK) {
    fprintf(stderr, "%s failed (%d): %s\n", what, (int)st, l->last_error());
    exit(1);
  }
}

static void unmap_tensor_memory(void *ctx) {
  mapping *m = ctx;
  unmap_pages(*m);
  free(m);
}

/* As bench_copies' base(): the build's own storage or wrapped 4 KiB pages. */
static tensor_t *base(const library *l, int64_t numel, tensor_dtype_t dtype, page_kind kind) {
  tensor_t *t = NULL;
  if (kind == HUGE_PAGES) {
    check(l, l->empty(&t, 1, &numel, dtype), "empty");
  } else {
    mapping *m = malloc(sizeof *m);
    const size_t n = (size_t)numel * l->dtype_size(dtype);
    *m = map_pages(n, SMALL_PAGES);
    check(l, l->from_buffer(&t, m->p, n, dtype, numel, 0, 0, unmap_tensor_memory, m), "from_buffer");
  }
  check(l, l->fill(t, 1.5), "fill");
  return t;
}

typedef struct {
  tensor_t *src, *dst;
} pair;

static pair make_pair(const library *l, const case_shape *k, page_kind src_kind, page_kind dst_kind) {
  pair p = {NULL, NULL};
  tensor_t *b = base(l, k->numel, k->dtype, src_kind);
  const int contiguous = k->ndim == 1 && k->strides[0] == 0;
  check(l, l->as_strided(&p.src, b, k->ndim, k->sizes, contiguous ? NULL : k->strides, 0), k->name);
  l->release(b);
  int64_t out_numel = 1;
  for (int64_t d = 0; d < k->ndim; ++d) out_numel *= k->sizes[d];
  tensor_t *flat = base(l, out_numel, k->out_dtype, dst_kind);
  check(l, l->as_strided(&p.dst, flat, k->ndim, k->sizes, NULL, 0), k->name);
  l->release(flat);
  return p;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* not inflated by a busy machine's scheduler */
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

enum { MAX_REPS = 101 };

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s LIB_A LIB_B [filter] [repetitions]\n", argv[0]);
    return 2;
  }
  library libs[2] = {load(argv[1]), load(argv[2])};
  /* One thread: the times are the calling thread's CPU time, which would miss
     the work of the builds' other threads (their default is one per CPU). */
  for (int v = 0; v < 2; ++v) check(&libs[v], libs[v].set_num_threads(1), "set_num_threads");
  if (libs[0].copy == libs[1].copy) {
    fprintf(stderr, "%s and %s are the same library: give two different files\n", argv[1], argv[2]);
    return 2;
  }
  const char *filter = argc > 3 ? argv[3] : NULL;
  int reps = argc > 4 ? atoi(argv[4]) : 15;
  reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
  printf("into an existing output, 1 thread, %d repetitions; x = ratio to memcpy of the same traffic\n", reps);
  printf("%-37s %8s %8s | %8s %13s\n", "case", "A x", "B x", "B/A", "B/A range");
  for (int i = 0; i < N_CASES; ++i) {
    for (int mix = 0; mix < N_MIXES; ++mix) {
      char name[64];
      case_name(name, sizeof name, i, mix);
      if (filter && !strstr(name, filter)) continue;
      const case_shape *k = &cases[i];
      pair p[2];
      for (int v = 0; v < 2; ++v) p[v] = make_pair(&libs[v], k, mixes[mix][0], mixes[mix][1]);
      int64_t out_numel = 1;
      for (int64_t d = 0; d < k->ndim; ++d) out_numel *= k->sizes[d];
      const double traffic = k->read_bytes + (double)out_numel * (double)libs[0].dtype_size(k->out_dtype);
      const size_t half = (size_t)(traffic / 2) / 64 * 64; /* memcpy of the same traffic */
      mapping md = map_pages(half, mixes[mix][1]), ms = map_pages(half, mixes[mix][0]);
      memset(md.p, 1, half);
      memset(ms.p, 2, half);
      double t[3][MAX_REPS], ratio[MAX_REPS];
      for (int r = -1; r < reps; ++r) { /* r == -1 warms up */
        for (int j = 0; j < 3; ++j) {
          const int f = (j + (r < 0 ? 0 : r)) % 3; /* rotate the order, so none always runs first */
          const double t0 = now_s();
          if (f < 2)
            check(&libs[f], libs[f].copy(p[f].dst, p[f].src), "copy");
          else
            memcpy(md.p, ms.p, half);
          if (r >= 0) t[f][r] = now_s() - t0;
        }
        if (r >= 0) ratio[r] = t[1][r] / t[0][r];
      }
      const double mem = median(t[2], reps), a = median(t[0], reps), b = median(t[1], reps);
      const double mid = median(ratio, reps);
      printf("%-37s %8.2f %8.2f | %8.3f %6.2f-%-6.2f\n", name, a / mem, b / mem, mid, ratio[0], ratio[reps - 1]);
      fflush(stdout);
      for (int v = 0; v < 2; ++v) {
        libs[v].release(p[v].src);
        libs[v].release(p[v].dst);
      }
      unmap_pages(md);
      unmap_pages(ms);
    }
  }
  return 0;
}
