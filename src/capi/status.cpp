// Status codes: the thread-local last error and the status names.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "guard.hpp"
#include "memory/thread_exit_key.hpp"

namespace ctensor::capi {

#define CTENSOR_STATUS_MATCHES(name, macro, value)                                             \
  static_assert(static_cast<int32_t>(core::Status::name) == (macro) && (macro) == (value), \
                #macro " differs between the core and ctensor.h");
CTENSOR_STATUSES(CTENSOR_STATUS_MATCHES)
#undef CTENSOR_STATUS_MATCHES

namespace {

#define CTENSOR_STATUS_NAME(name, macro, value) #macro,
constexpr const char* kStatusNames[] = {CTENSOR_STATUSES(CTENSOR_STATUS_NAME)};
#undef CTENSOR_STATUS_NAME

// This thread's last message: a fixed text, `buffer`, which grows as needed
// and is kept for the next message, or, when no buffer can be had, the start of
// the message in `cut`. Initial-exec TLS of plain data, so touching
// it never allocates (lazily allocated dynamic TLS, or a thread_local with a
// destructor, aborts the process when memory runs out); the buffer is freed at
// thread exit through a pthread key, set when the buffer is first made. Plain
// malloc/free for the same reason: nothing here may throw or need a destructor.
struct LastError {
  const char* text;
  char* buffer;
  size_t capacity;
  bool registered;
  char cut[64];
};
thread_local LastError last_error __attribute__((tls_model("initial-exec")));

void free_buffer(void*) noexcept {
  std::free(last_error.buffer);
  last_error = LastError{};
}

core::ThreadExitKey& thread_exit_key() noexcept {
  static core::ThreadExitKey key(free_buffer);
  return key;
}

bool free_at_thread_exit() noexcept { return thread_exit_key().set(&last_error); }

}  // namespace

tensor_status_t record_error(core::Status status, const char* message) noexcept {
  LastError& e = last_error;
  const size_t n = std::strlen(message) + 1;
  if (n > e.capacity) {
    if (!e.registered) e.registered = free_at_thread_exit();
    const size_t capacity = std::max<size_t>(n, 256);
    char* grown = e.registered ? static_cast<char*>(std::malloc(capacity)) : nullptr;
    if (!grown) {
      // The message's start, which names the op: "zeros: out of memory: ca...".
      const size_t keep = std::min(n, sizeof e.cut);
      std::memcpy(e.cut, message, keep);
      if (keep < n) std::memcpy(e.cut + sizeof e.cut - 4, "...", 4);
      e.text = e.cut;
      return static_cast<tensor_status_t>(status);
    }
    std::free(e.buffer);
    e.buffer = grown;
    e.capacity = capacity;
  }
  std::memcpy(e.buffer, message, n);
  e.text = e.buffer;
  return static_cast<tensor_status_t>(status);
}

tensor_status_t record_core_error(const core::Error& e, const char* op) noexcept {
  const char* what = e.what();
  if (what == core::kFormatFailed) return record_error(e.status(), op, what);
  const size_t n = std::strlen(op);
  const bool names_op = std::strncmp(what, op, n) == 0 && what[n] == ':';
  if (e.status() == core::Status::NoMem && !names_op) return record_error(e.status(), op, "out of memory", what);
  return record_error(e.status(), what);
}

tensor_status_t record_error(core::Status status, const char* op, const char* what, const char* detail) noexcept {
  char message[512];
  if (detail)
    std::snprintf(message, sizeof message, "%s: %s: %s", op, what, detail);
  else
    std::snprintf(message, sizeof message, "%s: %s", op, what);
  return record_error(status, message);
}

void release_last_error_at_unload() noexcept {
  free_buffer(nullptr);
  thread_exit_key().remove();
}

const char* last_error_text() noexcept { return last_error.text ? last_error.text : ""; }

}  // namespace ctensor::capi

extern "C" {

const char* tensor_last_error(void) { return ctensor::capi::last_error_text(); }

const char* tensor_status_name(tensor_status_t status) {
  using ctensor::capi::kStatusNames;
  constexpr auto count = static_cast<tensor_status_t>(sizeof kStatusNames / sizeof *kStatusNames);
  return status >= 0 && status < count ? kStatusNames[status] : nullptr;
}

}  // extern "C"
