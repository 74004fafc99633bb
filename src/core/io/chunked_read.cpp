#include "io/chunked_read.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <vector>

#include "engine/parallel.hpp"
#include "error.hpp"

namespace ctensor::core {

namespace {

// Work is handed out in chunks of this size, so threads that read faster take
// more of them and progress advances in steps of this size at most.
constexpr size_t kChunk = size_t{8} << 20;
// One thread per this much data: below it the threads' start and the page
// cache's contention cost more than they bring (docs/performance.md, file loads).
constexpr size_t kBytesPerThread = size_t{64} << 20;
constexpr auto kReportEvery = std::chrono::milliseconds(20);

// How a part's read failed: errno, or 0 when the file ended first.
struct ReadFailure {
  bool failed = false;
  int err = 0;
};

// Reads exactly n bytes at `offset`; false (with `failure` filled) otherwise.
// Runs on pool threads, so it neither throws nor allocates.
bool read_exactly(int fd, char* p, size_t n, uint64_t offset, ReadFailure* failure) noexcept {
  while (n > 0) {
    const ssize_t got = pread(fd, p, n, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      failure->failed = true;
      failure->err = got < 0 ? errno : 0;
      return false;
    }
    p += got;
    n -= static_cast<size_t>(got);
    offset += static_cast<uint64_t>(got);
  }
  return true;
}

int32_t read_threads(const LoadOptions& options, size_t nbytes) {
  const int32_t limit = num_threads();
  const int32_t asked = options.num_threads > 0 ? std::min(options.num_threads, limit) : limit;
  const size_t by_size = std::max<size_t>(1, nbytes / kBytesPerThread);
  return static_cast<int32_t>(std::min<size_t>(static_cast<size_t>(asked), by_size));
}

}  // namespace

Ref<Storage> read_chunked(const char* op, const File& file, uint64_t offset, size_t nbytes,
                          const char* what, const LoadOptions& options) {
  auto storage = Storage::allocate(nbytes, false);
  if (nbytes == 0) return storage;
  char* const dst = static_cast<char*>(storage->data());
  const uint64_t total = nbytes;
  const bool report = options.progress && total >= options.progress_min_bytes;
  const auto cancelled = [&](uint64_t done) {
    fail(Status::Cancelled, op, ": cancelled by the progress callback after ", done, " of ", total,
         " bytes of ", what);
  };
  // Counted from before the first call, so a callback slower than kReportEvery
  // is called again as soon as the next chunk is in.
  auto last_report = std::chrono::steady_clock::now();
  if (report && options.progress(options.progress_user, 0, total) != 0) cancelled(0);

  const size_t chunks = (nbytes + kChunk - 1) / kChunk;
  const int32_t threads = read_threads(options, nbytes);
  std::vector<ReadFailure> failures(static_cast<size_t>(threads));  // before the threads start
  std::atomic<size_t> next{0};
  std::atomic<uint64_t> done{0};
  std::atomic<bool> stop{false};
  bool stopped_by_callback = false;
  uint64_t reported = 0;
  parallel_run(threads, [&](int32_t part) {
    while (!stop.load(std::memory_order_relaxed)) {
      const size_t c = next.fetch_add(1, std::memory_order_relaxed);
      if (c >= chunks) return;
      const size_t begin = c * kChunk, len = std::min(kChunk, nbytes - begin);
      if (!read_exactly(file.fd(), dst + begin, len, offset + begin, &failures[static_cast<size_t>(part)])) {
        stop.store(true, std::memory_order_relaxed);
        return;
      }
      const uint64_t now_done = done.fetch_add(len, std::memory_order_relaxed) + len;
      // Only the calling thread (part 0) reports, so the callback runs where the
      // caller expects it, one call at a time.
      if (part != 0 || !report || now_done == total) continue;
      const auto now = std::chrono::steady_clock::now();
      if (now - last_report < kReportEvery) continue;
      last_report = now;
      reported = now_done;
      if (options.progress(options.progress_user, now_done, total) != 0) {
        stopped_by_callback = true;
        stop.store(true, std::memory_order_relaxed);
      }
    }
  });
  for (const ReadFailure& f : failures) {
    if (!f.failed) continue;
    if (f.err == 0) fail(Status::Format, op, ": file ends inside ", what);
    fail(Status::IO, op, ": reading ", what, ": ", system_error_text(f.err));
  }
  if (stopped_by_callback) cancelled(reported);
  if (report && options.progress(options.progress_user, total, total) != 0) cancelled(total);
  return storage;
}

}  // namespace ctensor::core
