// Scalar float16/bfloat16 conversions, bit-exact and independent of the FPU's
// rounding of narrow types, so that every platform and every vector kernel agree.
//
// NaN: a float16 or bfloat16 NaN keeps its sign and the top bits of the payload and
// is made quiet, as the F16C instructions do; the widenings are exact.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace ctensor::core {

// Element types with no C++ arithmetic type: raw bits.
struct Half {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};

template <class To, class From>
inline To bit_cast(From from) noexcept {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
}

// Exact: every float16 is a float.
inline float half_to_float(uint16_t h) noexcept {
  const uint32_t sign = uint32_t{h & 0x8000u} << 16;
  const uint32_t exp = (h >> 10) & 0x1f;
  const uint32_t man = h & 0x3ff;
  if (exp == 0x1f) return bit_cast<float>(sign | 0x7f800000u | (man ? 0x400000u | man << 13 : 0));
  if (exp == 0) return bit_cast<float>(sign | bit_cast<uint32_t>(static_cast<float>(man) * 0x1p-24f));
  return bit_cast<float>(sign | (exp + 112) << 23 | man << 13);
}

// Round to nearest even; overflow gives inf, tiny values float16 subnormals or 0.
inline uint16_t float_to_half(float f) noexcept {
  const uint32_t x = bit_cast<uint32_t>(f);
  const uint16_t sign = (x >> 16) & 0x8000;
  const uint32_t a = x & 0x7fffffff;
  if (a > 0x7f800000) return sign | 0x7e00 | ((a >> 13) & 0x3ff);
  if (a >= 0x47800000) return sign | 0x7c00;  // >= 65536 (and inf); 65520..65536 round up below
  if (a >= 0x38800000) {                       // a float16 normal: rebias the exponent by 112
    const uint32_t m = a - 0x38000000;
    return sign | static_cast<uint16_t>((m + 0xfff + ((m >> 13) & 1)) >> 13);
  }
  if (a < 0x33000000) return sign;  // below 2^-25: the tie at 2^-25 also goes to 0
  // A float16 subnormal k * 2^-24: shift the 24-bit significand right by 126 - exp.
  const uint32_t shift = 126 - (a >> 23);
  const uint32_t sig = (a & 0x7fffff) | 0x800000;
  return sign | static_cast<uint16_t>((sig + (1u << (shift - 1)) - 1 + ((sig >> shift) & 1)) >> shift);
}

// Exact: bfloat16 is the top half of a float.
inline float bfloat16_to_float(uint16_t b) noexcept { return bit_cast<float>(uint32_t{b} << 16); }

inline uint16_t float_to_bfloat16(float f) noexcept {
  const uint32_t x = bit_cast<uint32_t>(f);
  if ((x & 0x7fffffff) > 0x7f800000) return static_cast<uint16_t>((x >> 16) | 0x40);
  return static_cast<uint16_t>((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

// Round to odd: truncate, then set the lowest bit if anything was lost. A float
// (24 bits) rounded to odd and then to nearest even at <= 22 bits gives the same
// result as rounding the exact value once, which the 11-bit float16 and 8-bit
// bfloat16 need when the source is wider than a float.
inline float double_to_float_odd(double d) noexcept {
  const float f = static_cast<float>(d);
  const uint32_t bits = bit_cast<uint32_t>(f);
  // Branch-free, so that loops of it vectorise: step to the other neighbour of d
  // when f is inexact (NaN compares unequal but is left alone) and even.
  const bool step = static_cast<double>(f) != d && d == d && (bits & 1) == 0;
  const uint32_t toward_d = std::fabs(f) > std::fabs(d) ? ~0u : 1u;
  return bit_cast<float>(bits + (step ? toward_d : 0u));
}

// A 64-bit integer as a double that rounds to float like it: exact below 2^53,
// else with the 11 lowest bits folded into one sticky bit, which in a value of
// 54+ bits lies far below float precision and keeps ties apart from near-ties.
template <class T>
inline double fold_to_double(T x) noexcept {
  static_assert(std::is_integral_v<T> && sizeof(T) == 8);
  const bool negative = x < 0;
  uint64_t mag = negative ? 0 - static_cast<uint64_t>(x) : static_cast<uint64_t>(x);
  if (mag >> 53) mag = (mag | uint64_t{(mag & 0x7ff) != 0} << 11) & ~uint64_t{0x7ff};
  const double d = static_cast<double>(mag);
  return negative ? -d : d;
}

// Any arithmetic value as a float rounded to odd (exact when it fits).
template <class T>
inline float to_float_odd(T x) noexcept {
  if constexpr (std::is_same_v<T, float>) {
    return x;
  } else if constexpr (std::is_floating_point_v<T>) {
    return double_to_float_odd(static_cast<double>(x));
  } else if constexpr (std::numeric_limits<T>::digits <= 24) {
    return static_cast<float>(x);
  } else if constexpr (std::numeric_limits<T>::digits <= 53) {
    return double_to_float_odd(static_cast<double>(x));
  } else {
    return double_to_float_odd(fold_to_double(x));
  }
}

template <class T>
inline Half to_half(T x) noexcept {
  return Half{float_to_half(to_float_odd(x))};
}

template <class T>
inline BFloat16 to_bfloat16(T x) noexcept {
  return BFloat16{float_to_bfloat16(to_float_odd(x))};
}

}  // namespace ctensor::core
