/* Copy-engine benchmark: cases a-g as new results and into existing outputs,
 * for each mix of page kinds (source and output in huge pages or in 4 KiB
 * pages), against the limit: memcpy of the same traffic between the same kinds
 * of pages, split over the same number of threads, timed in the same run. Each
 * case runs at 1 thread and at all threads (tensor_get_num_threads() at start,
 * CTENSOR_NUM_THREADS sets it), each against memcpy with that thread count;
 * then the small-op overhead of creating and releasing views.
 *
 * The 4-byte transposes have one kernel per vendor (AVX2 blocks, Intel's
 * AVX-512 "halves", AMD's AVX-512 "lines"): the copy cases run once per kind
 * this CPU can execute, each in a child process started with
 * CTENSOR_FORCE_COPY_KIND set (the core reads it once), so that one machine
 * measures both vendors' paths; every row names its kind. With
 * CTENSOR_FORCE_COPY_KIND already set, only that kind runs.
 *
 * --traffic: each row is also run with CTENSOR_FORCE_COPY_KIND=traffic-<kind>,
 * the library's replay of that kind's memory traffic alone (the transposes'
 * loads, prefetches and streamed stores in the same order, and those of the
 * [:, ::2] and [:, ::3] gathers, without the register shuffles; the output is
 * garbage), in a child process of its own right after the kind's, and its
 * "into" ratio to memcpy is printed beside the case's ("tr"). A case over the
 * target whose replay is over it too is held back by its memory order on this
 * machine; one whose replay is under it, by the kernel's compute. Rows without
 * a replayed kernel (a, f's fill, g's casts) run the same code twice.
 *
 * usage: bench_copies [--min] [--traffic] [filter]
 *   filter: a substring of the row's name, e.g. "b." or "4K->H"
 * Prints median milliseconds (with --min the fastest repetition, steadier on a
 * shared machine) and the ratio to memcpy (target <= 1.15x; a '!' marks a ratio
 * over it): CPU time of the calling thread at 1 thread, wall clock at all
 * threads. Uses only the public header. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "copy_cases.h"
#include "ctensor.h"

#define MiB (1024.0 * 1024.0)

static void check(tensor_status_t st, const char *what) {
  if (st != TENSOR_OK) {
    fprintf(stderr, "%s failed: %s: %s\n", what, tensor_status_name(st), tensor_last_error());
    exit(1);
  }
}

/* One-thread figures are CPU time of the calling thread, which a busy machine's
 * scheduler does not inflate (a memory stall is still charged); two-thread
 * figures need wall-clock time. */
static clockid_t bench_clock = CLOCK_THREAD_CPUTIME_ID;

static double now_s(void) {
  struct timespec ts;
  clock_gettime(bench_clock, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* --min: report the fastest repetition instead of the median. */
static int report_min = 0;

static double statistic(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  if (report_min) return v[0];
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
  for (int f = 0; f < n; ++f) out[f] = statistic(times[f], reps);
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

enum { MAX_THREADS = 256 };

typedef struct {
  char *dst, *src;
  size_t n;
  int threads;
} memcpy_case;

/* n bytes split into `threads` slices of whole cache lines, one per thread:
 * threads - 1 started for the run and the calling thread (the start costs
 * tens of microseconds against the milliseconds of a case). */
static void run_memcpy(void *arg) {
  memcpy_case *m = arg;
  const int t = m->threads;
  if (t <= 1) {
    memcpy(m->dst, m->src, m->n);
    return;
  }
  memcpy_job jobs[MAX_THREADS];
  pthread_t th[MAX_THREADS];
  const size_t slice = (m->n / (size_t)t + 63) / 64 * 64;
  for (int k = 0; k < t; ++k) {
    const size_t lo = slice * (size_t)k < m->n ? slice * (size_t)k : m->n;
    const size_t hi = lo + slice < m->n ? lo + slice : m->n;
    jobs[k] = (memcpy_job){m->dst + lo, m->src + lo, hi - lo};
  }
  for (int k = 1; k < t; ++k)
    if (pthread_create(&th[k], NULL, memcpy_thread, &jobs[k]) != 0) {
      perror("pthread_create");
      exit(1);
    }
  memcpy_thread(&jobs[0]);
  for (int k = 1; k < t; ++k) pthread_join(th[k], NULL);
}

/* memcpy moving (read + write) / 2 bytes each way: the same bytes over the bus,
 * between buffers of the case's page kinds that are already faulted in. */
typedef struct {
  memcpy_case run;
  mapping dst, src;
} memcpy_buffers;

static memcpy_buffers memcpy_for_traffic(double traffic_bytes, page_kind src_kind, page_kind dst_kind) {
  memcpy_buffers b;
  const size_t n = (size_t)(traffic_bytes / 2) / 64 * 64;
  b.dst = map_pages(n, dst_kind);
  b.src = map_pages(n, src_kind);
  b.run = (memcpy_case){b.dst.p, b.src.p, n, 1};
  memset(b.run.dst, 1, n);
  memset(b.run.src, 2, n);
  return b;
}

/* ---- the copy cases --------------------------------------------------------- */


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

static void unmap_tensor_memory(void *ctx) {
  mapping *m = ctx;
  unmap_pages(*m);
  free(m);
}

/* `numel` elements filled with a constant: the library's own storage
 * (huge pages from 1 MiB on) or a 4 KiB-page mapping wrapped with
 * tensor_from_buffer, as a NumPy array would be. */
static tensor_t *base(int64_t numel, tensor_dtype_t dtype, page_kind kind) {
  tensor_t *t = NULL;
  if (kind == HUGE_PAGES) {
    check(tensor_empty(&t, 1, &numel, dtype), "empty");
  } else {
    mapping *m = malloc(sizeof *m);
    const size_t n = (size_t)numel * tensor_dtype_size(dtype);
    *m = map_pages(n, SMALL_PAGES);
    check(tensor_from_buffer(&t, m->p, n, dtype, numel, 0, 0, unmap_tensor_memory, m), "from_buffer");
  }
  check(tensor_fill(t, 1.5), "fill");
  return t;
}

static copy_case make_case(const case_shape *k, page_kind src_kind, page_kind dst_kind) {
  copy_case c = {k->name, NULL, NULL, k->out_dtype, k->kind, k->read_bytes, 0};
  tensor_t *b = base(k->numel, k->dtype, src_kind);
  const int contiguous = k->ndim == 1 && k->strides[0] == 0;
  check(tensor_as_strided(&c.src, b, k->ndim, k->sizes, contiguous ? NULL : k->strides, 0), k->name);
  tensor_release(b);
  int64_t out_numel = 1;
  for (int64_t d = 0; d < k->ndim; ++d) out_numel *= k->sizes[d];
  tensor_t *flat = base(out_numel, k->out_dtype, dst_kind);
  check(tensor_as_strided(&c.dst, flat, k->ndim, k->sizes, NULL, 0), k->name);
  tensor_release(flat);
  c.write_bytes = (double)out_numel * (double)tensor_dtype_size(k->out_dtype);
  return c;
}


/* The target of every ratio to memcpy; '!' marks one over it. */
#define TARGET 1.15

static void print_ratio(double r) { printf(" %5.2f%s", r, r > TARGET ? "!" : " "); }

/* One row's times (seconds) at 1 thread ([0]) and at all threads ([1]). */
typedef struct {
  double mem[2], into[2], fresh[2];
  int with_new, all_threads;
} row_times;

/* Times case i in page mix `mix` round-robin with memcpy of its traffic, at 1
 * thread and at all_threads; "new" too when `with_new` and the output is huge pages. */
static row_times time_row(int i, int mix, int all_threads, int with_new) {
  const page_kind src_kind = mixes[mix][0], dst_kind = mixes[mix][1];
  copy_case c = make_case(&cases[i], src_kind, dst_kind);
  row_times r = {{0, 0}, {0, 0}, {0, 0}, with_new && dst_kind == HUGE_PAGES, all_threads};
  memcpy_buffers m = memcpy_for_traffic(c.read_bytes + c.write_bytes, src_kind, dst_kind);
  bench_fn fns[] = {run_memcpy, run_into, run_new};
  void *args[] = {&m.run, &c, &c};
  for (int t = 0; t < 2; ++t) {
    const int threads = t == 0 ? 1 : all_threads;
    check(tensor_set_num_threads(threads), "set_num_threads");
    m.run.threads = threads;
    bench_clock = t == 0 ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC;
    double medians[3];
    time_medians(r.with_new ? 3 : 2, fns, args, medians);
    r.mem[t] = medians[0];
    r.into[t] = medians[1];
    if (r.with_new) r.fresh[t] = medians[2];
  }
  unmap_pages(m.dst);
  unmap_pages(m.src);
  tensor_release(c.src);
  tensor_release(c.dst);
  check(tensor_set_num_threads(all_threads), "set_num_threads");
  bench_clock = CLOCK_THREAD_CPUTIME_ID;
  return r;
}

/* --traffic: beside each "into" ratio, the ratio of the kind's traffic replay. */
static int with_traffic = 0;

static void print_header(const char *kind, int all_threads) {
  printf("Copies, transpose kind %s: %s ms (1T: CPU time of the thread; %dT: wall clock);\n"
         "x = ratio to memcpy of the same traffic between the same page kinds (source->output: H huge\n"
         "pages, 4K 4 KiB pages) with the same thread count; target x <= %.2f, '!' marks one over it;\n"
         "\"new\" makes the library's own output, so it is shown on ->H rows only\n",
         kind, report_min ? "fastest" : "median", all_threads, TARGET);
  if (with_traffic)
    printf("tr = \"into\" with CTENSOR_FORCE_COPY_KIND=traffic-%s (its memory traffic alone: same loads,\n"
           "prefetches and stores, no transpose or gather shuffles), over its own memcpy; - where not run\n",
           kind);
  printf("%-14s %-34s %7s %7s %6s%s %7s %6s | %7s %7s %6s%s %7s %6s\n", "kind", "case", "memcpy", "into", "x",
         with_traffic ? "     tr" : "", "new", "x", "memcpyN", "intoN", "x", with_traffic ? "     tr" : "", "newN",
         "x");
}

static void print_row(const char *kind, const char *name, const row_times *r, const row_times *traffic) {
  printf("%-14s %-34s", kind, name);
  for (int t = 0; t < 2; ++t) {
    printf("%s %7.2f %7.2f", t ? " |" : "", 1e3 * r->mem[t], 1e3 * r->into[t]);
    print_ratio(r->into[t] / r->mem[t]);
    if (with_traffic) {
      if (traffic)
        print_ratio(traffic->into[t] / traffic->mem[t]);
      else
        printf(" %6s", "-");
    }
    if (r->with_new) {
      printf(" %7.2f", 1e3 * r->fresh[t]);
      print_ratio(r->fresh[t] / r->mem[t]);
    } else {
      printf(" %7s %6s", "-", "-");
    }
  }
  printf("\n");
  fflush(stdout);
}

/* Every row in this process, printed as it is measured. */
static void bench_copies(const char *filter, const char *kind, int all_threads) {
  if (all_threads > MAX_THREADS) all_threads = MAX_THREADS;
  print_header(kind, all_threads);
  for (int i = 0; i < N_CASES; ++i)
    for (int mix = 0; mix < N_MIXES; ++mix) {
      char name[64];
      case_name(name, sizeof name, i, mix);
      if (filter && !strstr(name, filter)) continue;
      const row_times r = time_row(i, mix, all_threads, 1);
      print_row(kind, name, &r, NULL);
    }
}

/* The transpose kinds this CPU runs, as CTENSOR_FORCE_COPY_KIND names them. */
static int copy_kinds(const char **out) {
  int n = 0;
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) out[n++] = "avx2";
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
    out[n++] = "avx512-halves";
    out[n++] = "avx512-lines";
  }
#endif
  if (n == 0) out[n++] = "portable";
  return n;
}

/* Runs fn in a child process with CTENSOR_FORCE_COPY_KIND set to `kind` (left
 * unset for "portable") before its first call into the library (the parent
 * makes none before the children, so no thread pool is forked). */
static void in_child(const char *kind, void (*fn)(void *), void *arg) {
  fflush(stdout);
  const pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(1);
  }
  if (pid == 0) {
    if (strcmp(kind, "portable") != 0) setenv("CTENSOR_FORCE_COPY_KIND", kind, 1);
    fn(arg);
    fflush(stdout);
    _exit(0);
  }
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    fprintf(stderr, "the run of kind %s failed\n", kind);
    exit(1);
  }
}

typedef struct {
  const char *filter, *kind;
  int i, mix, with_new;
  row_times *out; /* shared with the parent */
} child_job;

static void all_rows_child(void *arg) {
  const child_job *j = arg;
  bench_copies(j->filter, j->kind, tensor_get_num_threads());
}

static void one_row_child(void *arg) {
  const child_job *j = arg;
  int threads = tensor_get_num_threads();
  if (threads > MAX_THREADS) threads = MAX_THREADS;
  *j->out = time_row(j->i, j->mix, threads, j->with_new);
}

/* Each kind in child processes of its own. Without --traffic, one child runs
 * all of a kind's rows. With it, every row takes two children, the kind's
 * and its traffic replay's ("traffic-<kind>"), one after the other, so that
 * both see the same moment of a shared machine, and the parent prints the row. */
static void bench_copies_per_kind(const char *filter) {
  const char *kinds[3];
  const char *forced = getenv("CTENSOR_FORCE_COPY_KIND");
  const int n = forced ? (kinds[0] = forced, 1) : copy_kinds(kinds);
  row_times *shared = mmap(NULL, 2 * sizeof(row_times), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    perror("mmap");
    exit(1);
  }
  for (int k = 0; k < n; ++k) {
    if (!with_traffic) {
      child_job job = {filter, kinds[k], 0, 0, 1, NULL};
      in_child(kinds[k], all_rows_child, &job);
      printf("\n");
      continue;
    }
    /* No replay of the portable loops, nor of a replay. */
    const int replays = strcmp(kinds[k], "portable") != 0 && strncmp(kinds[k], "traffic-", 8) != 0;
    char traffic_kind[64];
    snprintf(traffic_kind, sizeof traffic_kind, "traffic-%s", kinds[k]);
    int header = 0;
    for (int i = 0; i < N_CASES; ++i)
      for (int mix = 0; mix < N_MIXES; ++mix) {
        char name[64];
        case_name(name, sizeof name, i, mix);
        if (filter && !strstr(name, filter)) continue;
        child_job job = {filter, kinds[k], i, mix, 1, &shared[0]};
        in_child(kinds[k], one_row_child, &job);
        if (replays) {
          child_job replay = {filter, traffic_kind, i, mix, 0, &shared[1]};
          in_child(traffic_kind, one_row_child, &replay);
        }
        if (!header) print_header(kinds[k], shared[0].all_threads), header = 1;
        print_row(kinds[k], name, &shared[0], replays ? &shared[1] : NULL);
      }
    printf("\n");
  }
  munmap(shared, 2 * sizeof(row_times));
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
  printf("\nSmall ops: create + release, %s ns per call\n", report_min ? "fastest" : "median");
  for (s.which = 0; s.which < 5; ++s.which)
    printf("%-31s %8.1f\n", names[s.which], 1e9 * time_median(run_small, &s) / SMALL_ITERS);
  tensor_release(s.t);
}

int main(int argc, char **argv) {
  int arg = 1;
  for (; arg < argc && strncmp(argv[arg], "--", 2) == 0; ++arg) {
    if (strcmp(argv[arg], "--min") == 0) {
      report_min = 1;
    } else if (strcmp(argv[arg], "--traffic") == 0) {
      with_traffic = 1;
    } else {
      fprintf(stderr, "usage: %s [--min] [--traffic] [filter]\n", argv[0]);
      return 2;
    }
  }
  const char *filter = arg < argc ? argv[arg] : NULL;
  bench_copies_per_kind(filter);
  if (!filter || strstr("small", filter)) bench_small_ops();
  return 0;
}
