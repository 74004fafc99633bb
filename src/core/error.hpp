// Errors inside the core: an exception carrying a stable status code and a
// message that names the offending values. The C facade turns it into a status.
#pragma once

#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace ctensor::core {

// Every status: the core's name, the public macro and its value (0, 1, 2, ...
// without gaps). The facade checks the values against ctensor.h and names them.
#define CTENSOR_STATUSES(X)                   \
  X(Ok, TENSOR_OK, 0)                         \
  X(Invalid, TENSOR_E_INVALID, 1)             \
  X(NoMem, TENSOR_E_NOMEM, 2)                 \
  X(Bounds, TENSOR_E_BOUNDS, 3)               \
  X(Shape, TENSOR_E_SHAPE, 4)                 \
  X(Stride, TENSOR_E_STRIDE, 5)               \
  X(DType, TENSOR_E_DTYPE, 6)                 \
  X(Overflow, TENSOR_E_OVERFLOW, 7)           \
  X(ReadOnly, TENSOR_E_READONLY, 8)           \
  X(Overlap, TENSOR_E_OVERLAP, 9)             \
  X(Device, TENSOR_E_DEVICE, 10)              \
  X(Copy, TENSOR_E_COPY, 11)                  \
  X(IO, TENSOR_E_IO, 12)                      \
  X(Format, TENSOR_E_FORMAT, 13)              \
  X(Unsupported, TENSOR_E_UNSUPPORTED, 14)    \
  X(Internal, TENSOR_E_INTERNAL, 15)

enum class Status : int32_t {
#define CTENSOR_STATUS_ENUM(name, macro, value) name = value,
  CTENSOR_STATUSES(CTENSOR_STATUS_ENUM)
#undef CTENSOR_STATUS_ENUM
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
