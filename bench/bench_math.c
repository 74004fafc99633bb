/* Math benchmark: element-wise add and sums of float32 tensors against plain
 * C loops compiled -O3 -march=native over the same buffers, timed round-robin
 * in the same run (bench/compare_math.py puts NumPy and PyTorch beside them).
 *
 * usage: bench_math [case-name-filter]
 * Prints median milliseconds and x = ctensor's time / the plain loop's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ctensor.h"
#include "plain_loops.h"

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

typedef void (*bench_fn)(void *arg);

/* Median seconds of each of n functions, run round-robin (after a warm-up
 * round) so that they share whatever else the machine is doing. */
enum { REPS = 11, MAX_FNS = 8 };
static void time_medians(int n, bench_fn *fns, void **args, double *out) {
  double times[MAX_FNS][REPS];
  for (int f = 0; f < n; ++f) fns[f](args[f]);
  for (int r = 0; r < REPS; ++r)
    for (int f = 0; f < n; ++f) {
      const double t0 = now_s();
      fns[f](args[f]);
      times[f][r] = now_s() - t0;
    }
  for (int f = 0; f < n; ++f) {
    qsort(times[f], REPS, sizeof(double), cmp_double);
    out[f] = times[f][REPS / 2];
  }
}

enum { N = 4096 };

static tensor_t *random_floats(int64_t ndim, const int64_t *sizes) {
  tensor_t *t = NULL;
  check(tensor_empty(&t, ndim, sizes, TENSOR_FLOAT32), "empty");
  float *p = tensor_data(t);
  for (int64_t i = 0; i < tensor_numel(t); ++i) p[i] = (float)(rand() % 1000) / 100.0f;
  return t;
}

typedef struct {
  tensor_t *dst, *a, *b;
  tensor_op_t op;
} binary_case;

static void run_into(void *arg) {
  binary_case *c = arg;
  check(tensor_binary_into(c->dst, c->op, c->a, c->b), "binary_into");
}

static void run_new(void *arg) {
  binary_case *c = arg;
  tensor_t *out = NULL;
  check(c->op == TENSOR_OP_SUB ? tensor_sub(&out, c->a, c->b) : tensor_add(&out, c->a, c->b), "add/sub");
  tensor_release(out);
}

static void run_plain_add(void *arg) {
  binary_case *c = arg;
  plain_add(tensor_data(c->dst), tensor_data(c->a), tensor_data(c->b), (size_t)tensor_numel(c->dst));
}

typedef struct {
  tensor_t *t;
  int64_t ndims, dim;
} sum_case;

static volatile float g_sink;

static void run_sum(void *arg) {
  sum_case *c = arg;
  tensor_t *out = NULL;
  check(tensor_sum(&out, c->t, c->ndims, c->ndims ? &c->dim : NULL, 0), "sum");
  tensor_release(out);
}

static void run_plain_read(void *arg) {
  sum_case *c = arg;
  g_sink = plain_read(tensor_data(c->t), (size_t)tensor_numel(c->t));
}

static int wanted(const char *filter, const char *name) { return !filter || strstr(name, filter); }

static void bench_binary(const char *filter, int threads) {
  const int64_t flat[] = {(int64_t)N * N}, square[] = {N, N}, col[] = {N, 1}, row[] = {1, N};
  tensor_t *a = random_floats(1, flat), *b = random_floats(1, flat), *c = random_floats(1, flat);
  if (wanted(filter, "add")) {
    binary_case k = {c, a, b, TENSOR_OP_ADD};
    bench_fn fns[] = {run_plain_add, run_into, run_new};
    void *args[] = {&k, &k, &k};
    double t[3];
    time_medians(3, fns, args, t);
    printf("%-34s %2d %9.2f %9.2f %6.2f %9.2f %6.2f\n", "add 16Mi contiguous", threads, 1e3 * t[0], 1e3 * t[1],
           t[1] / t[0], 1e3 * t[2], t[2] / t[0]);
  }
  tensor_t *sa = NULL, *sb = NULL, *sc = NULL, *bt = NULL, *x = random_floats(2, col), *y = random_floats(2, row);
  check(tensor_view(&sa, a, 2, square), "view");
  check(tensor_view(&sb, b, 2, square), "view");
  check(tensor_view(&sc, c, 2, square), "view");
  check(tensor_transpose(&bt, sb, 0, 1), "transpose");
  struct {
    const char *name;
    binary_case k;
  } cases[] = {{"broadcast [4096,1] + [1,4096]", {sc, x, y, TENSOR_OP_ADD}},
               {"a + b.t() [4096,4096]", {sc, sa, bt, TENSOR_OP_ADD}}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
    if (!wanted(filter, cases[i].name)) continue;
    binary_case plain = {c, a, b, TENSOR_OP_ADD};
    bench_fn fns[] = {run_plain_add, run_into, run_new};
    void *args[] = {&plain, &cases[i].k, &cases[i].k};
    double t[3];
    time_medians(3, fns, args, t);
    printf("%-34s %2d %9.2f %9.2f %6.2f %9.2f %6.2f\n", cases[i].name, threads, 1e3 * t[0], 1e3 * t[1],
           t[1] / t[0], 1e3 * t[2], t[2] / t[0]);
  }
  tensor_t *ts[] = {a, b, c, sa, sb, sc, bt, x, y};
  for (size_t i = 0; i < sizeof ts / sizeof *ts; ++i) tensor_release(ts[i]);
}

/* a[::-1,::-1,::-1] - b[::-1,::-1,::-1] against a - b, both into new tensors:
 * the reversed operands give a contiguous output (engine/output_layout.hpp). */
static void bench_reversed(const char *filter, int threads) {
  if (!wanted(filter, "reversed")) return;
  const int64_t cube[] = {256, 256, 256}, back[] = {-256 * 256, -256, -1};
  const int64_t last = (int64_t)256 * 256 * 256 - 1;
  tensor_t *a = random_floats(3, cube), *b = random_floats(3, cube), *ra = NULL, *rb = NULL;
  check(tensor_as_strided(&ra, a, 3, cube, back, last), "as_strided");
  check(tensor_as_strided(&rb, b, 3, cube, back, last), "as_strided");
  binary_case fwd = {NULL, a, b, TENSOR_OP_SUB}, rev = {NULL, ra, rb, TENSOR_OP_SUB};
  bench_fn fns[] = {run_new, run_new};
  void *args[] = {&fwd, &rev};
  double t[2];
  time_medians(2, fns, args, t);
  printf("%-34s %2d %9.2f %9.2f %6.2f\n", "sub [256]^3 reversed / forward", threads, 1e3 * t[0], 1e3 * t[1],
         t[1] / t[0]);
  tensor_t *ts[] = {a, b, ra, rb};
  for (size_t i = 0; i < sizeof ts / sizeof *ts; ++i) tensor_release(ts[i]);
}

static void bench_sums(const char *filter, int threads) {
  const int64_t square[] = {N, N};
  tensor_t *t = random_floats(2, square);
  struct {
    const char *name;
    sum_case k;
  } cases[] = {{"sum over dim 0 [4096,4096]", {t, 1, 0}},
               {"sum over dim 1 [4096,4096]", {t, 1, 1}},
               {"sum over all [4096,4096]", {t, 0, 0}}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; ++i) {
    if (!wanted(filter, cases[i].name)) continue;
    bench_fn fns[] = {run_plain_read, run_sum};
    void *args[] = {&cases[i].k, &cases[i].k};
    double m[2];
    time_medians(2, fns, args, m);
    printf("%-34s %2d %9.2f %9.2f %6.2f\n", cases[i].name, threads, 1e3 * m[0], 1e3 * m[1], m[1] / m[0]);
  }
  tensor_release(t);
}

enum { SMALL_ITERS = 200000 };

static void run_small_add(void *arg) {
  binary_case *c = arg;
  tensor_t *out = NULL;
  for (int i = 0; i < SMALL_ITERS; ++i) {
    tensor_add(&out, c->a, c->b);
    tensor_release(out);
  }
}

int main(int argc, char **argv) {
  const char *filter = argc > 1 ? argv[1] : NULL;
  printf("median ms; x = ctensor / the plain C loop (-O3 -march=native) in the same run\n");
  printf("%-34s %2s %9s %9s %6s %9s %6s\n", "case", "th", "plain", "into", "x", "new", "x");
  for (int threads = 1; threads <= 2; ++threads) {
    check(tensor_set_num_threads(threads), "set_num_threads");
    bench_binary(filter, threads);
  }
  printf("\n%-34s %2s %9s %9s %6s\n", "case", "th", "forward", "reversed", "x");
  for (int threads = 1; threads <= 2; ++threads) {
    check(tensor_set_num_threads(threads), "set_num_threads");
    bench_reversed(filter, threads);
  }
  printf("\n%-34s %2s %9s %9s %6s   (plain: one read of the data)\n", "case", "th", "read", "sum", "x");
  for (int threads = 1; threads <= 2; ++threads) {
    check(tensor_set_num_threads(threads), "set_num_threads");
    bench_sums(filter, threads);
  }
  check(tensor_set_num_threads(1), "set_num_threads");
  if (wanted(filter, "small")) {
    const int64_t one = 1;
    binary_case k = {NULL, random_floats(1, &one), random_floats(1, &one), TENSOR_OP_ADD};
    bench_fn fn = run_small_add;
    void *arg = &k;
    double t;
    time_medians(1, &fn, &arg, &t);
    printf("\nadd of two 1-element tensors (new result, released): %.1f ns per call\n", 1e9 * t / SMALL_ITERS);
    tensor_release(k.a);
    tensor_release(k.b);
  }
  return 0;
}
