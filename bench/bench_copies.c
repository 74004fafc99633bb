/* Copy-engine benchmark: cases a-g (docs/performance.md lists them) as new results and into existing
 * outputs, memcpy of the same traffic in the same run, 1 and 2 threads, and the
 * small-op overhead of creating and releasing views.
 *
 * usage: bench_copies [case-name-filter]
 * Prints median milliseconds, GB/s (bytes read + written per second) and the
 * ratio to memcpy of the same traffic. Uses only the public header. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "ctensor.h"

#define MiB (1024.0 * 1024.0)

static void check(tensor_status_t st, const char *what) {
  if (st != TENSOR_OK) {
    fprintf(stderr, "%s failed: %s: %s\n", what, tensor_status_name(st), tensor_last_error());
    exit(1);
  }
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
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

typedef void (*bench_fn)(void *arg);

static double seconds(bench_fn fn, void *arg) {
  const double t0 = now_s();
  fn(arg);
  return now_s() - t0;
}

/* Median seconds of each of n functions, run round-robin (after one warm-up
 * round) so that they share whatever else the machine is doing; repetitions
 * are chosen so that a round takes about half a second in all (5 to 21). */
enum { MAX_REPS = 21 };
static void time_medians(int n, bench_fn *fns, void **args, double *out) {
  double round = 0;
  for (int f = 0; f < n; ++f) round += seconds(fns[f], args[f]);
  int reps = round > 0 ? (int)(0.5 / round) : MAX_REPS;
  reps = reps < 5 ? 5 : reps > MAX_REPS ? MAX_REPS : reps;
  double times[8][MAX_REPS];
  for (int r = 0; r < reps; ++r)
    for (int f = 0; f < n; ++f) times[f][r] = seconds(fns[f], args[f]);
  for (int f = 0; f < n; ++f) out[f] = median(times[f], reps);
}

static double time_median(bench_fn fn, void *arg) {
  double t;
  time_medians(1, &fn, &arg, &t);
  return t;
}

/* ---- memcpy of the same traffic --------------------------------------------- */

typedef struct {
  char *dst;
  const char *src;
  size_t n;
} memcpy_job;

static void *memcpy_thread(void *arg) {
  memcpy_job *j = arg;
  memcpy(j->dst, j->src, j->n);
  return NULL;
}

typedef struct {
  char *dst, *src;
  size_t n;
  int threads;
} memcpy_case;

static void run_memcpy(void *arg) {
  memcpy_case *m = arg;
  if (m->threads == 1) {
    memcpy(m->dst, m->src, m->n);
    return;
  }
  const size_t half = m->n / 2 / 64 * 64;
  memcpy_job second = {m->dst + half, m->src + half, m->n - half};
  pthread_t th;
  pthread_create(&th, NULL, memcpy_thread, &second);
  memcpy(m->dst, m->src, half);
  pthread_join(th, NULL);
}

/* memcpy moving (read + write) / 2 bytes each way: the same bytes over the bus,
 * between buffers that are already faulted in. */
static memcpy_case memcpy_for_traffic(double traffic_bytes) {
  memcpy_case m = {NULL, NULL, (size_t)(traffic_bytes / 2) / 64 * 64, 1};
  m.dst = aligned_alloc(4096, (m.n + 4095) / 4096 * 4096);
  m.src = aligned_alloc(4096, (m.n + 4095) / 4096 * 4096);
  memset(m.dst, 1, m.n);
  memset(m.src, 2, m.n);
  return m;
}

/* ---- the copy cases --------------------------------------------------------- */

typedef enum { NEW_CLONE, NEW_CONTIGUOUS, NEW_TO } new_kind;

typedef struct {
  const char *name;
  tensor_t *src;  /* the view to materialise */
  tensor_t *dst;  /* an existing contiguous output */
  tensor_dtype_t dtype;
  new_kind kind;
  double read_bytes, write_bytes; /* cache lines that must be read, bytes written */
} copy_case;

static void run_new(void *arg) {
  copy_case *c = arg;
  tensor_t *out = NULL;
  switch (c->kind) {
    case NEW_CLONE: check(tensor_clone(&out, c->src), "clone"); break;
    case NEW_CONTIGUOUS: check(tensor_contiguous(&out, c->src), "contiguous"); break;
    case NEW_TO: check(tensor_to(&out, c->src, c->dtype, TENSOR_COPY_IF_NEEDED), "to"); break;
  }
  tensor_release(out);
}

static void run_into(void *arg) {
  copy_case *c = arg;
  check(tensor_copy(c->dst, c->src), "copy");
}

/* A base tensor of `numel` elements filled with a constant. */
static tensor_t *base(int64_t numel, tensor_dtype_t dtype) {
  tensor_t *t = NULL;
  check(tensor_empty(&t, 1, &numel, dtype), "empty");
  check(tensor_fill(t, 1.5), "fill");
  return t;
}

/* 4 KiB-page memory, as NumPy's arrays usually get: an anonymous mapping with
 * transparent huge pages turned off, wrapped with tensor_from_buffer. */
typedef struct {
  void *p;
  size_t n;
} mapping;

static void unmap(void *ctx) {
  mapping *m = ctx;
  munmap(m->p, m->n);
  free(m);
}

static tensor_t *small_pages(int64_t numel, tensor_dtype_t dtype) {
  mapping *m = malloc(sizeof *m);
  m->n = (size_t)numel * tensor_dtype_size(dtype);
  m->p = mmap(NULL, m->n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m->p == MAP_FAILED) {
    perror("mmap");
    exit(1);
  }
#ifdef MADV_NOHUGEPAGE
  madvise(m->p, m->n, MADV_NOHUGEPAGE);
#endif
  tensor_t *t = NULL;
  check(tensor_from_buffer(&t, m->p, m->n, dtype, numel, 0, 0, unmap, m), "from_buffer");
  check(tensor_fill(t, 1.5), "fill");
  return t;
}

static copy_case make_case(const char *name, tensor_t *b, int64_t ndim, const int64_t *sizes,
                           const int64_t *strides, tensor_dtype_t dtype, new_kind kind, double read_bytes) {
  copy_case c = {name, NULL, NULL, dtype, kind, read_bytes, 0};
  check(tensor_as_strided(&c.src, b, ndim, sizes, strides, 0), name);
  check(tensor_empty(&c.dst, ndim, sizes, dtype), name);
  c.write_bytes = (double)tensor_numel(c.dst) * (double)tensor_dtype_size(dtype);
  tensor_release(b);
  return c;
}

/* The same with the output also in 4 KiB pages ("into" only; "new" allocates). */
static copy_case make_case_4k(const char *name, int64_t numel, int64_t ndim, const int64_t *sizes,
                              const int64_t *strides, double read_bytes) {
  copy_case c = make_case(name, small_pages(numel, TENSOR_FLOAT32), ndim, sizes, strides, TENSOR_FLOAT32,
                          NEW_CONTIGUOUS, read_bytes);
  tensor_t *flat = small_pages(numel, TENSOR_FLOAT32);
  tensor_release(c.dst);
  check(tensor_as_strided(&c.dst, flat, ndim, sizes, NULL, 0), name);
  tensor_release(flat);
  return c;
}

#define N_CASES 13

static void build_case(int i, copy_case *c) {
  const int64_t M64 = (int64_t)64 << 20;
  switch (i) {
    case 0: {
      const int64_t s[] = {M64};
      *c = make_case("a. 1-D copy 64Mi", base(M64, TENSOR_FLOAT32), 1, s, NULL, TENSOR_FLOAT32, NEW_CLONE,
                     4.0 * M64);
      break;
    }
    case 1: {
      const int64_t s[] = {4096, 4096}, st[] = {1, 4096};
      *c = make_case("b. [4096,4096].t()", base(4096 * 4096, TENSOR_FLOAT32), 2, s, st, TENSOR_FLOAT32,
                     NEW_CONTIGUOUS, 4.0 * 4096 * 4096);
      break;
    }
    case 2: {
      const int64_t s[] = {256, 256, 256}, st[] = {1, 65536, 256};
      *c = make_case("c1. [256]^3 permute(2,0,1)", base(1 << 24, TENSOR_FLOAT32), 3, s, st, TENSOR_FLOAT32,
                     NEW_CONTIGUOUS, 4.0 * (1 << 24));
      break;
    }
    case 3: {
      const int64_t s[] = {256, 256, 256}, st[] = {256, 1, 65536};
      *c = make_case("c2. [256]^3 permute(1,2,0)", base(1 << 24, TENSOR_FLOAT32), 3, s, st, TENSOR_FLOAT32,
                     NEW_CONTIGUOUS, 4.0 * (1 << 24));
      break;
    }
    case 4: {
      const int64_t s[] = {32, 56, 56, 64}, st[] = {200704, 56, 1, 3136};
      *c = make_case("d. NCHW->NHWC [32,64,56,56]", base(32 * 64 * 56 * 56, TENSOR_FLOAT32), 4, s, st,
                     TENSOR_FLOAT32, NEW_CONTIGUOUS, 4.0 * 32 * 64 * 56 * 56);
      break;
    }
    case 5: {
      const int64_t s[] = {8192, 4096}, st[] = {8192, 2};
      *c = make_case("e1. [8192,8192][:, ::2]", base(8192 * 8192, TENSOR_FLOAT32), 2, s, st, TENSOR_FLOAT32,
                     NEW_CONTIGUOUS, 4.0 * 8192 * 8192);
      break;
    }
    case 6: {
      const int64_t s[] = {4096, 2731}, st[] = {16384, 3};
      *c = make_case("e2. [8192,8192][::2, ::3]", base(8192 * 8192, TENSOR_FLOAT32), 2, s, st, TENSOR_FLOAT32,
                     NEW_CONTIGUOUS, 4.0 * 4096 * 8192);
      break;
    }
    case 7: {
      const int64_t s[] = {4096, 4096}, st[] = {1, 0};
      *c = make_case("f. [4096,1] expand [4096,4096]", base(4096, TENSOR_FLOAT32), 2, s, st, TENSOR_FLOAT32,
                     NEW_CONTIGUOUS, 4.0 * 4096);
      break;
    }
    case 8: {
      const int64_t s[] = {M64};
      *c = make_case("g1. float32->float16 64Mi", base(M64, TENSOR_FLOAT32), 1, s, NULL, TENSOR_FLOAT16, NEW_TO,
                     4.0 * M64);
      break;
    }
    case 9: {
      const int64_t s[] = {M64};
      *c = make_case("g2. float32->bfloat16 64Mi", base(M64, TENSOR_FLOAT32), 1, s, NULL, TENSOR_BFLOAT16,
                     NEW_TO, 4.0 * M64);
      break;
    }
    case 11: {
      const int64_t s[] = {4096, 4096}, st[] = {1, 4096};
      *c = make_case_4k("b4k. [4096,4096].t() 4K pages", 4096 * 4096, 2, s, st, 4.0 * 4096 * 4096);
      break;
    }
    case 12: {
      const int64_t s[] = {256, 256, 256}, st[] = {256, 1, 65536};
      *c = make_case_4k("c2_4k. permute(1,2,0) 4K pages", 1 << 24, 3, s, st, 4.0 * (1 << 24));
      break;
    }
    default: {
      const int64_t s[] = {M64};
      *c = make_case("g3. int32->float64 64Mi", base(M64, TENSOR_INT32), 1, s, NULL, TENSOR_FLOAT64, NEW_TO,
                     4.0 * M64);
      break;
    }
  }
}

static void bench_copies(const char *filter) {
  printf("Copies: median ms; GB/s counts bytes read + written; x = ratio to memcpy of the same traffic\n");
  printf("%-31s %8s | %8s %6s %6s | %8s %6s | %8s %8s %8s %5s %5s\n", "case", "memcpy", "into", "GB/s",
         "x", "new", "x", "memcpy2T", "into2T", "new2T", "sp.in", "sp.nw");
  for (int i = 0; i < N_CASES; ++i) {
    copy_case c;
    build_case(i, &c);
    if (filter && !strstr(c.name, filter)) {
      tensor_release(c.src);
      tensor_release(c.dst);
      continue;
    }
    const double traffic = c.read_bytes + c.write_bytes;
    double mem[2], into[2], fresh[2];
    memcpy_case m = memcpy_for_traffic(traffic);
    bench_fn fns[] = {run_memcpy, run_into, run_new};
    void *args[] = {&m, &c, &c};
    for (int t = 0; t < 2; ++t) {
      check(tensor_set_num_threads(t + 1), "set_num_threads");
      m.threads = t + 1;
      double medians[3];
      time_medians(3, fns, args, medians);
      mem[t] = medians[0];
      into[t] = medians[1];
      fresh[t] = medians[2];
    }
    free(m.dst);
    free(m.src);
    printf("%-31s %8.2f | %8.2f %6.1f %6.2f | %8.2f %6.2f | %8.2f %8.2f %8.2f %5.2f %5.2f\n", c.name,
           1e3 * mem[0], 1e3 * into[0], traffic / into[0] / 1e9, into[0] / mem[0], 1e3 * fresh[0],
           fresh[0] / mem[0], 1e3 * mem[1], 1e3 * into[1], 1e3 * fresh[1], into[0] / into[1],
           fresh[0] / fresh[1]);
    fflush(stdout);
    tensor_release(c.src);
    tensor_release(c.dst);
  }
  check(tensor_set_num_threads(1), "set_num_threads");
}

/* ---- small ops ---------------------------------------------------------------- */

enum { SMALL_ITERS = 200000 };

typedef struct {
  tensor_t *t;
  int which;
} small_case;

static void run_small(void *arg) {
  small_case *s = arg;
  static const int64_t sizes[] = {32, 64}, strides[] = {1, 32}, big[] = {16, 64, 64};
  tensor_t *out = NULL;
  for (int i = 0; i < SMALL_ITERS; ++i) {
    switch (s->which) {
      case 0: tensor_as_strided(&out, s->t, 2, sizes, strides, 0); break;
      case 1: tensor_transpose(&out, s->t, 0, 1); break;
      case 2: tensor_slice(&out, s->t, 1, 3, 40, 2); break;
      case 3: tensor_expand(&out, s->t, 3, big); break;
      default: tensor_contiguous(&out, s->t); break;
    }
    tensor_release(out);
  }
}

static void bench_small_ops(void) {
  static const char *names[] = {"as_strided", "transpose", "slice", "expand",
                                "contiguous (already contiguous)"};
  const int64_t sizes[] = {64, 64};
  small_case s = {NULL, 0};
  check(tensor_zeros(&s.t, 2, sizes, TENSOR_FLOAT32), "zeros");
  printf("\nSmall ops: create + release, median ns per call\n");
  for (s.which = 0; s.which < 5; ++s.which)
    printf("%-31s %8.1f\n", names[s.which], 1e9 * time_median(run_small, &s) / SMALL_ITERS);
  tensor_release(s.t);
}

int main(int argc, char **argv) {
  const char *filter = argc > 1 ? argv[1] : NULL;
  bench_copies(filter);
  if (!filter || strstr("small", filter)) bench_small_ops();
  return 0;
}
