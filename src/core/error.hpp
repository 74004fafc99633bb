// Errors inside the core: an exception carrying a stable status code and a
// message that names the offending values. The C facade turns it into a status.
#pragma once

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace ctensor::core {

// Values equal the public TENSOR_* status codes.
enum class Status : int32_t {
  Ok = 0,
  Invalid = 1,
  NoMem = 2,
  Bounds = 3,
  Shape = 4,
  Stride = 5,
  DType = 6,
  Overflow = 7,
  ReadOnly = 8,
  Overlap = 9,
  Device = 10,
  Copy = 11,
  IO = 12,
  Format = 13,
  Unsupported = 14,
};

class Error : public std::runtime_error {
 public:
  Error(Status status, std::string message)
      : std::runtime_error(std::move(message)), status_(status) {}
  Status status() const noexcept { return status_; }

 private:
  Status status_;
};

// A list of int64 values, printed as "[2, 3]" inside messages.
struct DimList {
  const int64_t* data;
  int64_t n;
};

inline std::ostream& operator<<(std::ostream& os, DimList d) {
  os << '[';
  for (int64_t i = 0; i < d.n; ++i) os << (i ? ", " : "") << d.data[i];
  return os << ']';
}

// Throws Error(status, concatenation of parts).
template <typename... Parts>
[[noreturn]] void fail(Status status, const Parts&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  throw Error(status, os.str());
}

}  // namespace ctensor::core
