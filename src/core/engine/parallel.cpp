#include "engine/parallel.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

#include "error.hpp"

namespace ctensor::core {

namespace {

// 0 until the default is first read or a count is set.
std::atomic<int32_t> g_num_threads{0};

// CTENSOR_NUM_THREADS when it is a positive integer, else the CPUs this
// process may run on (its affinity mask, as torch's and OpenMP's defaults).
int32_t default_num_threads() noexcept {
  if (const char* text = std::getenv("CTENSOR_NUM_THREADS")) {
    const int saved_errno = errno;
    errno = 0;
    char* end = nullptr;
    const long n = std::strtol(text, &end, 10);
    const bool valid = errno == 0 && end != text && *end == '\0' && n >= 1 && n <= std::numeric_limits<int32_t>::max();
    errno = saved_errno;
    if (valid) return static_cast<int32_t>(n);
  }
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) > 0) return CPU_COUNT(&cpus);
  return static_cast<int32_t>(std::max(1U, std::thread::hardware_concurrency()));
}

// Workers sleep on `wake_` until a new generation of work is posted; worker w
// runs part w + 1 of it. One job at a time: `busy_` is held by the poster.
//
// The pool is never destroyed: its workers sleep until the process ends, so a
// copy running on another thread during exit never finds the pool gone. A child
// made by fork() has none of the parent's workers; it runs every part itself.
class Pool {
 public:
  Pool() { pthread_atfork(nullptr, nullptr, [] { forked_child_ = true; }); }

  void run(int32_t parts, FunctionRef<void(int32_t)> part) {
    if (forked_child_ || t_inside_pool) {
      for (int32_t i = 0; i < parts; ++i) part(i);
      return;
    }
    std::unique_lock<std::mutex> busy(busy_, std::try_to_lock);
    if (!busy.owns_lock()) {
      for (int32_t i = 0; i < parts; ++i) part(i);
      return;
    }
    try {
      grow(parts - 1);
    } catch (...) {  // no thread to be had: the work still gets done here
      for (int32_t i = 0; i < parts; ++i) part(i);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = &part;
      parts_ = parts;
      pending_ = parts - 1;
      ++generation_;
    }
    wake_.notify_all();
    part(0);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    job_ = nullptr;
  }

 private:
  void grow(int32_t n) {
    while (static_cast<int32_t>(workers_.size()) < n) {
      const int32_t index = static_cast<int32_t>(workers_.size());
      workers_.emplace_back([this, index] { work(index); });
    }
  }

  void work(int32_t index) {
    t_inside_pool = true;
    uint64_t seen = 0;
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      wake_.wait(lock, [&] { return generation_ != seen; });
      seen = generation_;
      if (index + 1 >= parts_) continue;
      const auto* job = job_;
      lock.unlock();
      (*job)(index + 1);
      lock.lock();
      if (--pending_ == 0) done_.notify_one();
    }
  }

  // Initial-exec: reading it never allocates (see layout/tensor.cpp's free list).
  static thread_local bool t_inside_pool __attribute__((tls_model("initial-exec")));
  static bool forked_child_;  // set in a child of fork(): the workers are not there

  std::mutex busy_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;
  const FunctionRef<void(int32_t)>* job_ = nullptr;
  int32_t parts_ = 0;
  int32_t pending_ = 0;
  uint64_t generation_ = 0;
};

thread_local bool Pool::t_inside_pool __attribute__((tls_model("initial-exec"))) = false;
bool Pool::forked_child_ = false;

Pool& pool() {
  static Pool* p = new Pool;
  return *p;
}

}  // namespace

int32_t num_threads() noexcept {
  int32_t n = g_num_threads.load(std::memory_order_relaxed);
  if (n != 0) return n;
  const int32_t fallback = default_num_threads();
  // A count set in the meantime wins over the default.
  return g_num_threads.compare_exchange_strong(n, fallback, std::memory_order_relaxed) ? fallback : n;
}

void set_num_threads(const char* op, int32_t n) {
  if (n < 1) fail(Status::Invalid, op, ": n is ", n, ", expected at least 1");
  g_num_threads.store(n, std::memory_order_relaxed);
}

void parallel_run(int32_t parts, FunctionRef<void(int32_t)> part) {
  if (parts <= 1) {
    if (parts == 1) part(0);
    return;
  }
  pool().run(parts, part);
}

}  // namespace ctensor::core
