// Small ops: a view created and released (as_strided, transpose, slice,
// expand, select) and tensor_contiguous of an already contiguous tensor, per
// call, with Google Benchmark. Its context prints the clock (MHz); the CPU
// model from /proc/cpuinfo is added to it. Targets (issue 30): a view under
// 15 ns, contiguous of a contiguous tensor under 10 ns. With repetitions each
// case reports its min besides the mean and median (a shared machine's load
// only ever adds time). refcount_pair is the floor under both: one atomic
// increment and one decrement of a reference count, what handing out a new
// reference and releasing it costs (a view also takes and drops a reference to
// its storage).
//
// usage: bench_small_ops [--benchmark_filter=...] [--benchmark_repetitions=N]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "ctensor.h"

namespace {

void check(tensor_status_t st, const char* what) {
  if (st != TENSOR_OK) {
    std::fprintf(stderr, "%s failed: %s: %s\n", what, tensor_status_name(st), tensor_last_error());
    std::exit(1);
  }
}

// A 64 x 64 float32 tensor of zeros for each benchmark.
struct Base {
  tensor_t* t = nullptr;
  Base() {
    const int64_t sizes[] = {64, 64};
    check(tensor_zeros(&t, 2, sizes, TENSOR_FLOAT32), "zeros");
  }
  ~Base() { tensor_release(t); }
};

// Runs make(out, base) and releases out, per iteration; stops on an error.
template <typename Make>
void run(benchmark::State& state, Make make) {
  Base base;
  for (auto _ : state) {
    tensor_t* out = nullptr;
    const tensor_status_t st = make(&out, base.t);
    if (st != TENSOR_OK) {
      state.SkipWithError(tensor_last_error());
      break;
    }
    benchmark::DoNotOptimize(out);
    tensor_release(out);
  }
}

void as_strided(benchmark::State& state) {
  static const int64_t sizes[] = {32, 64}, strides[] = {1, 32};
  run(state, [](tensor_t** out, tensor_t* t) { return tensor_as_strided(out, t, 2, sizes, strides, 0); });
}

void transpose(benchmark::State& state) {
  run(state, [](tensor_t** out, tensor_t* t) { return tensor_transpose(out, t, 0, 1); });
}

void slice(benchmark::State& state) {
  run(state, [](tensor_t** out, tensor_t* t) { return tensor_slice(out, t, 1, 3, 40, 2); });
}

void expand(benchmark::State& state) {
  static const int64_t big[] = {16, 64, 64};
  run(state, [](tensor_t** out, tensor_t* t) { return tensor_expand(out, t, 3, big); });
}

void select(benchmark::State& state) {
  run(state, [](tensor_t** out, tensor_t* t) { return tensor_select(out, t, 0, 5); });
}

void contiguous_of_contiguous(benchmark::State& state) {
  run(state, [](tensor_t** out, tensor_t* t) { return tensor_contiguous(out, t); });
}

// The increment and the decrement of core::RefCounted's retain and release.
void refcount_pair(benchmark::State& state) {
  std::atomic<int64_t> refs{1};
  for (auto _ : state) {
    refs.fetch_add(1, std::memory_order_relaxed);
    benchmark::DoNotOptimize(refs.fetch_sub(1, std::memory_order_acq_rel));
  }
}

double min_of(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

BENCHMARK(as_strided)->ComputeStatistics("min", min_of);
BENCHMARK(transpose)->ComputeStatistics("min", min_of);
BENCHMARK(slice)->ComputeStatistics("min", min_of);
BENCHMARK(expand)->ComputeStatistics("min", min_of);
BENCHMARK(select)->ComputeStatistics("min", min_of);
BENCHMARK(contiguous_of_contiguous)->ComputeStatistics("min", min_of);
BENCHMARK(refcount_pair)->ComputeStatistics("min", min_of);

// The first "model name" line of /proc/cpuinfo, or "unknown".
std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  return "unknown";
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::AddCustomContext("cpu_model", cpu_model());
  benchmark::AddCustomContext("ctensor_threads", std::to_string(tensor_get_num_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
