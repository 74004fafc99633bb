// Status names, the thread-local last error, version and dtype queries.
#include <string>

#include "dtype/dtype.hpp"
#include "guard.hpp"

namespace ctensor::capi {

namespace {
thread_local std::string last_error;
}

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

using namespace ctensor;

extern "C" {

const char* tensor_version_string(void) { return "0.1.0"; }

int32_t tensor_version_number(void) { return CTENSOR_VERSION_NUMBER; }

const char* tensor_last_error(void) { return capi::last_error_text(); }

const char* tensor_status_name(tensor_status_t status) {
  static const char* const names[] = {
      "TENSOR_OK",         "TENSOR_E_INVALID",  "TENSOR_E_NOMEM",   "TENSOR_E_BOUNDS",
      "TENSOR_E_SHAPE",    "TENSOR_E_STRIDE",   "TENSOR_E_DTYPE",   "TENSOR_E_OVERFLOW",
      "TENSOR_E_READONLY", "TENSOR_E_OVERLAP",  "TENSOR_E_DEVICE",  "TENSOR_E_COPY",
      "TENSOR_E_IO",       "TENSOR_E_FORMAT",   "TENSOR_E_UNSUPPORTED"};
  if (status < 0 || status >= static_cast<tensor_status_t>(sizeof names / sizeof *names)) return nullptr;
  return names[status];
}

size_t tensor_dtype_size(tensor_dtype_t dtype) { return core::dtype_size(dtype); }

const char* tensor_dtype_name(tensor_dtype_t dtype) {
  const core::DTypeInfo* info = core::dtype_info(dtype);
  return info ? info->name : nullptr;
}

}  // extern "C"
