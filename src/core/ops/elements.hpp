// Element access for the math kernels: each dtype's storage type (from the
// conversion rules), the type it computes in (float16/bfloat16 in float, as
// PyTorch's CPU kernels, bool as bool, complex as std::complex), and the switch
// from a run-time dtype to a template (dtype/dispatch.hpp).
#pragma once

#include <complex>
#include <cstring>
#include <type_traits>

#include "dtype/cast_rules.hpp"
#include "dtype/dispatch.hpp"
#include "error.hpp"
#include "ops/promotion.hpp"

namespace ctensor::core {

template <class T>
struct ComputeOf {
  using type = T;
};
template <> struct ComputeOf<Half> { using type = float; };
template <> struct ComputeOf<BFloat16> { using type = float; };
template <> struct ComputeOf<Bool8> { using type = bool; };
template <class T> struct ComputeOf<Complex<T>> { using type = std::complex<T>; };

template <class T>
using compute_t = typename ComputeOf<T>::type;

template <class T>
inline compute_t<T> read_element(const char* p) noexcept {
  T x;
  std::memcpy(&x, p, sizeof(T));
  if constexpr (std::is_same_v<T, Half>) {
    return half_to_float(x.bits);
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    return bfloat16_to_float(x.bits);
  } else if constexpr (std::is_same_v<T, Bool8>) {
    return x.byte != 0;
  } else if constexpr (is_complex<T>::value) {
    return {x.re, x.im};
  } else {
    return x;
  }
}

template <class T>
inline void write_element(char* p, compute_t<T> v) noexcept {
  T x;
  if constexpr (std::is_same_v<T, Half>) {
    x = Half{float_to_half(v)};
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    x = BFloat16{float_to_bfloat16(v)};
  } else if constexpr (std::is_same_v<T, Bool8>) {
    x = Bool8{static_cast<uint8_t>(v)};
  } else if constexpr (is_complex<T>::value) {
    x = T{v.real(), v.imag()};
  } else {
    x = v;
  }
  std::memcpy(p, &x, sizeof(T));
}

// Integer arithmetic that wraps (two's complement) instead of overflowing, as
// PyTorch's results do on every platform it runs on.
template <class T>
using wide_unsigned_t = std::conditional_t<(sizeof(T) < 4), uint32_t, std::make_unsigned_t<T>>;

template <class T>
inline T wrapping_add(T a, T b) noexcept {
  return static_cast<T>(static_cast<wide_unsigned_t<T>>(a) + static_cast<wide_unsigned_t<T>>(b));
}
template <class T>
inline T wrapping_sub(T a, T b) noexcept {
  return static_cast<T>(static_cast<wide_unsigned_t<T>>(a) - static_cast<wide_unsigned_t<T>>(b));
}
template <class T>
inline T wrapping_mul(T a, T b) noexcept {
  return static_cast<T>(static_cast<wide_unsigned_t<T>>(a) * static_cast<wide_unsigned_t<T>>(b));
}

}  // namespace ctensor::core
