// Errors inside the core: an exception carrying a stable status code and a
// message that names the offending values. The C facade turns it into a status.
#pragma once

#include <cstdint>
#include <sstream>
#include <exception>
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
  X(Internal, TENSOR_E_INTERNAL, 15)          \
  X(Cancelled, TENSOR_E_CANCELLED, 16)

enum class Status : int32_t {
#define CTENSOR_STATUS_ENUM(name, macro, value) name = value,
  CTENSOR_STATUSES(CTENSOR_STATUS_ENUM)
#undef CTENSOR_STATUS_ENUM
};

// What a message becomes when formatting it runs out of memory: the status
// stays the call's own, the text is this fixed one.
inline constexpr const char kFormatFailed[] = "out of memory while formatting the message";

// Constructing, moving and reading an Error never allocates (a message copied
// into a std::runtime_error would, turning an invalid call into NOMEM).
class Error : public std::exception {
 public:
  Error(Status status, std::string message) noexcept : status_(status), message_(std::move(message)) {}
  // `fixed` is a static string.
  Error(Status status, const char* fixed) noexcept : status_(status), fixed_(fixed) {}
  Status status() const noexcept { return status_; }
  const char* what() const noexcept override { return fixed_ ? fixed_ : message_.c_str(); }

 private:
  Status status_;
  std::string message_;
  const char* fixed_ = nullptr;
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

// A byte count the caller passed as size_t, printed as "18446744073709551615
// (-1 as size_t)" when it is a negative number converted to size_t, so the
// message shows what was asked.
struct ByteCount {
  uint64_t n;
};

inline std::ostream& operator<<(std::ostream& os, ByteCount b) {
  os << b.n;
  if (b.n > static_cast<uint64_t>(INT64_MAX)) os << " (-" << (0 - b.n) << " as size_t)";
  return os;
}

// Throws Error(status, concatenation of parts), or Error(status, kFormatFailed)
// if memory runs out on the way (a stream would otherwise swallow bad_alloc
// and give a message cut short).
template <typename... Parts>
[[noreturn]] void fail(Status status, const Parts&... parts) {
  std::string message;
  try {
    std::ostringstream os;
    os.exceptions(std::ios::badbit | std::ios::failbit);
    (os << ... << parts);
    message = os.str();
  } catch (...) {
    throw Error(status, kFormatFailed);
  }
  throw Error(status, std::move(message));
}

}  // namespace ctensor::core
