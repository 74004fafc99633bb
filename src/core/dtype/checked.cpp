#include "dtype/checked.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "dtype/convert.hpp"
#include "dtype/dispatch.hpp"
#include "error.hpp"

namespace ctensor::core {

namespace {

// The C++ type PyTorch names in its overflow message for an element type:
// c10's names for its own types, the <cstdint> name of an integer but "int".
template <class T>
constexpr const char* torch_type_name_of() noexcept {
  if constexpr (std::is_same_v<T, Bool8>) {
    return "bool";
  } else if constexpr (std::is_integral_v<T>) {
    constexpr int width = sizeof(T) == 1 ? 0 : sizeof(T) == 2 ? 1 : sizeof(T) == 4 ? 2 : 3;
    constexpr const char* kNames[2][4] = {{"uint8_t", "uint16_t", "uint32_t", "uint64_t"},
                                          {"int8_t", "int16_t", "int", "int64_t"}};
    return kNames[std::is_signed_v<T>][width];
  } else if constexpr (std::is_same_v<T, Half>) {
    return "at::Half";
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return "at::BFloat16";
  } else if constexpr (is_complex<T>::value) {
    return std::is_same_v<decltype(T::re), float> ? "c10::complex<float>" : "c10::complex<double>";
  } else {
    return std::is_same_v<T, float> ? "float" : "double";
  }
}

const char* torch_type_name(DType d) {
  return dispatch(d, [](auto tag) { return torch_type_name_of<typename decltype(tag)::type>(); });
}

[[noreturn]] void overflow(const char* op, DType to) {
  fail(Status::Overflow, op, ": value cannot be converted to type ", torch_type_name(to), " without overflow");
}

const DTypeInfo& known(const char* op, DType to) {
  require_known_dtype(to, op);
  return *dtype_info(to);
}

// Largest finite value of a float element type (of each part, for complex);
// infinity for the others.
template <class T>
double largest_finite() noexcept {
  if constexpr (std::is_same_v<T, Half>) {
    return half_to_float(0x7BFF);
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return bfloat16_to_float(0x7F7F);
  } else if constexpr (std::is_floating_point_v<T>) {
    return std::numeric_limits<T>::max();
  } else if constexpr (is_complex<T>::value) {
    return largest_finite<decltype(T::re)>();
  } else {
    return std::numeric_limits<double>::infinity();
  }
}

double float_max(DType d) {
  return dispatch(d, [](auto tag) { return largest_finite<typename decltype(tag)::type>(); });
}

bool float_overflows(double v, DType to) { return std::isfinite(v) && std::fabs(v) > float_max(to); }

// An integer dtype's maximum, and its minimum (0 for unsigned).
uint64_t int_max(const DTypeInfo& info) noexcept {
  const unsigned bits = 8u * static_cast<unsigned>(info.size);
  if (info.is_signed) return (uint64_t{1} << (bits - 1)) - 1;
  return bits == 64 ? std::numeric_limits<uint64_t>::max() : (uint64_t{1} << bits) - 1;
}

// Converts one element of `from` at `src` into `to` at `out`, as a copy does.
void write(const void* src, DType from, DType to, void* out) noexcept {
  alignas(16) char element[16];
  cast_kernel(from, to)(static_cast<const char*>(src), 0, element, 0, 1);
  std::memcpy(out, element, dtype_size(to));
}

}  // namespace

void convert_int64_checked(const char* op, int64_t value, DType to, void* out) {
  const DTypeInfo& info = known(op, to);
  if (info.kind == DTypeKind::Float || info.kind == DTypeKind::Complex) {
    if (std::fabs(static_cast<double>(value)) > float_max(to)) overflow(op, to);
  } else if (info.kind == DTypeKind::Int) {
    const uint64_t max = int_max(info);
    // the magnitude, as uint64 (INT64_MIN's too)
    const uint64_t magnitude = value < 0 ? uint64_t{0} - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
    // a negative value wraps into an unsigned dtype unless its magnitude exceeds the maximum
    if (value < 0 && info.is_signed ? magnitude > max + 1 : magnitude > max) overflow(op, to);
  }
  write(&value, dtype::Int64, to, out);
}

void convert_float64_checked(const char* op, double value, DType to, void* out) {
  const DTypeInfo& info = known(op, to);
  if (info.kind == DTypeKind::Float || info.kind == DTypeKind::Complex) {
    if (float_overflows(value, to)) overflow(op, to);
  } else if (info.kind == DTypeKind::Int) {
    const double lo = info.is_signed ? -static_cast<double>(int_max(info)) - 1.0 : 0.0;
    if (std::isnan(value) || value < lo || value > static_cast<double>(int_max(info))) overflow(op, to);
  }
  write(&value, dtype::Float64, to, out);
}

void convert_complex128_checked(const char* op, double re, double im, DType to, void* out) {
  const DTypeInfo& info = known(op, to);
  if (info.kind == DTypeKind::Complex) {
    if (float_overflows(re, to) || float_overflows(im, to)) overflow(op, to);
    const double value[2] = {re, im};
    return write(value, dtype::Complex128, to, out);
  }
  if (info.kind != DTypeKind::Bool && im != 0.0) overflow(op, to);
  convert_float64_checked(op, re, to, out);
}

}  // namespace ctensor::core
