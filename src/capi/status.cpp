// Status codes: the thread-local last error and the status names.
#include <pthread.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "guard.hpp"

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

constexpr const char kStoreFailed[] = "out of memory while storing the message";

// This thread's last message: a fixed text, or `buffer`, which grows as needed
// and is kept for the next message. Initial-exec TLS of plain data, so touching
// it never allocates (lazily allocated dynamic TLS, or a thread_local with a
// destructor, aborts the process when memory runs out); the buffer is freed at
// thread exit through a pthread key, set when the buffer is first made. Plain
// malloc/free for the same reason: nothing here may throw or need a destructor.
struct LastError {
  const char* text;
  char* buffer;
  size_t capacity;
  bool registered;
};
thread_local LastError last_error __attribute__((tls_model("initial-exec")));

void free_buffer(void*) noexcept {
  std::free(last_error.buffer);
  last_error = LastError{};
}

bool free_at_thread_exit() noexcept {
  static pthread_key_t key;
  static const bool have_key = pthread_key_create(&key, free_buffer) == 0;
  return have_key && pthread_setspecific(key, &last_error) == 0;
}

}  // namespace

tensor_status_t record_error(core::Status status, const char* message) noexcept {
  LastError& e = last_error;
  const size_t n = std::strlen(message) + 1;
  if (n > e.capacity) {
    if (!e.registered) e.registered = free_at_thread_exit();
    const size_t capacity = std::max<size_t>(n, 256);
    char* grown = e.registered ? static_cast<char*>(std::malloc(capacity)) : nullptr;
    if (!grown) return record_fixed_error(status, kStoreFailed);
    std::free(e.buffer);
    e.buffer = grown;
    e.capacity = capacity;
  }
  std::memcpy(e.buffer, message, n);
  e.text = e.buffer;
  return static_cast<tensor_status_t>(status);
}

tensor_status_t record_fixed_error(core::Status status, const char* fixed) noexcept {
  last_error.text = fixed;
  return static_cast<tensor_status_t>(status);
}

tensor_status_t record_error(core::Status status, const char* op, const char* what, const char* detail) noexcept {
  char message[512];
  if (detail)
    std::snprintf(message, sizeof message, "%s: %s: %s", op, what, detail);
  else
    std::snprintf(message, sizeof message, "%s: %s", op, what);
  return record_error(status, message);
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
