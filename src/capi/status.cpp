// Status codes: the thread-local last error and the status names.
#include <string>

#include "guard.hpp"

namespace ctensor::capi {

#define CTENSOR_STATUS_MATCHES(name, macro, value)                                             \
  static_assert(static_cast<int32_t>(core::Status::name) == (macro) && (macro) == (value), \
                #macro " differs between the core and ctensor.h");
CTENSOR_STATUSES(CTENSOR_STATUS_MATCHES)
#undef CTENSOR_STATUS_MATCHES

namespace {
thread_local std::string last_error;

#define CTENSOR_STATUS_NAME(name, macro, value) #macro,
constexpr const char* kStatusNames[] = {CTENSOR_STATUSES(CTENSOR_STATUS_NAME)};
#undef CTENSOR_STATUS_NAME
}  // namespace

tensor_status_t record_error(core::Status status, const char* message) noexcept {
  try {
    last_error = message;
  } catch (...) {
    // Keeping the old text is better than failing to report the status.
  }
  return static_cast<tensor_status_t>(status);
}

const char* last_error_text() noexcept { return last_error.c_str(); }

}  // namespace ctensor::capi

extern "C" {

const char* tensor_last_error(void) { return ctensor::capi::last_error_text(); }

const char* tensor_status_name(tensor_status_t status) {
  using ctensor::capi::kStatusNames;
  constexpr auto count = static_cast<tensor_status_t>(sizeof kStatusNames / sizeof *kStatusNames);
  return status >= 0 && status < count ? kStatusNames[status] : nullptr;
}

}  // extern "C"
