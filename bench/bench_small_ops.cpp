// Small ops: a view created and released (as_strided, transpose, slice,
// expand, select) and tensor_contiguous of an already contiguous tensor, per
// call, with Google Benchmark. Its context prints the clock (MHz); the CPU
// model from /proc/cpuinfo is added to it. Targets (issue 30): a view under
// 15 ns, contiguous of a contiguous tensor under 10 ns.
//
// usage: bench_small_ops [--benchmark_filter=...] [--benchmark_repetitions=N]
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

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

BENCHMARK(as_strided);
BENCHMARK(transpose);
BENCHMARK(slice);
BENCHMARK(expand);
BENCHMARK(select);
BENCHMARK(contiguous_of_contiguous);

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
