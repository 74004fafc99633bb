// A small pool of worker threads for splitting large copies, element-wise ops
// and reductions.
#pragma once

#include <cstdint>

#include "engine/function_ref.hpp"

namespace ctensor::core {

// The number of threads a large op may use (the caller's thread included).
// Defaults to the CPUs this process may run on, or to CTENSOR_NUM_THREADS (a
// positive integer; read once, at the first call) when that is set.
int32_t num_threads() noexcept;
// Sets it; n < 1 is Error(Invalid) naming `op`. Workers start lazily on first use.
void set_num_threads(const char* op, int32_t n);

// Runs part(i) for i in [0, parts), spreading parts over the pool; the calling
// thread runs part 0 and waits for the rest. parts must not exceed num_threads().
// While another thread uses the pool (or from inside a part) every part runs on
// the calling thread, so nested or concurrent callers never wait on each other.
// `part` must not throw (nor allocate: a worker has nowhere to report failure).
// The pool runs it only while the caller waits, so a reference to it suffices.
void parallel_run(int32_t parts, FunctionRef<void(int32_t)> part);

}  // namespace ctensor::core
