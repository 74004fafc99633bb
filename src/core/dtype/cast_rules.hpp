// The element conversion rules (ctensor.h's "Conversion rules") as one template,
// PyTorch's x86 results (TENSOR_CONVERT_TORCH_X86) as a second one over it, and
// the loops and kernel tables built from them. Shared by the portable kernels
// and the vector ones, which must give bit-identical results.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>

#include "dtype/convert.hpp"
#include "dtype/half.hpp"
#include "memory/unaligned.hpp"

namespace ctensor::core {

// A bool element as stored: any non-zero byte reads as true.
struct Bool8 {
  uint8_t byte;
};

// A complex element: a plain pair, so that loads and stores stay two scalar moves
// (std::complex's constructor made GCC bounce each element through the stack).
template <class T>
struct Complex {
  T re, im;
};

template <class T>
struct is_complex : std::false_type {};
template <class T>
struct is_complex<Complex<T>> : std::true_type {};

template <class F>
constexpr F pow2(int e) noexcept {
  F p = 1;
  for (int i = 0; i < e; ++i) p *= 2;
  return p;
}

// float -> integer: truncate toward zero, NaN -> 0, saturate beyond the range.
// Written as clamps and selects, with every cast in range, so that loops of it
// vectorise.
template <class To, class From>
inline To saturate_cast(From x) noexcept {
  using Limits = std::numeric_limits<To>;
  constexpr int bits = Limits::digits, precision = std::numeric_limits<From>::digits;
  constexpr From upper = pow2<From>(bits);  // the first value above max, exact in From
  constexpr From below = bits <= precision ? static_cast<From>(Limits::max())
                                           : upper - pow2<From>(bits - precision);
  constexpr From lower = static_cast<From>(Limits::min());
  const From clamped = x != x ? From{0} : std::min(std::max(x, lower), below);
  return x >= upper ? Limits::max() : static_cast<To>(clamped);
}

template <class T>
constexpr bool is_narrow_float = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;

// Any element as a float rounded to odd (exact for bool, float16, bfloat16 and
// float): the first step of every conversion to float16/bfloat16, so that
// convert<Half>(x) == Half{float_to_half(narrow_source(x))}, same for BFloat16.
template <class From>
inline float narrow_source(From x) noexcept {
  if constexpr (std::is_same_v<From, Bool8>) {
    return x.byte != 0 ? 1.0f : 0.0f;
  } else if constexpr (std::is_same_v<From, Half>) {
    return half_to_float(x.bits);
  } else if constexpr (std::is_same_v<From, BFloat16>) {
    return bfloat16_to_float(x.bits);
  } else if constexpr (is_complex<From>::value) {
    return to_float_odd(x.re);
  } else {
    return to_float_odd(x);
  }
}

// Same-type pairs whose kernel just moves bytes: every type but bool, whose
// copies canonicalise foreign bytes to 0/1.
template <class From, class To>
inline constexpr bool kPlainCopy = std::is_same_v<From, To> && !std::is_same_v<From, Bool8>;

template <class To, class From>
inline To convert(From x) noexcept {
  if constexpr (kPlainCopy<From, To>) {
    return x;
  } else if constexpr (std::is_same_v<From, Bool8>) {  // bool -> bool too: bytes become 0/1
    return convert<To>(static_cast<uint8_t>(x.byte != 0));
  } else if constexpr (std::is_same_v<From, Half>) {
    return convert<To>(half_to_float(x.bits));
  } else if constexpr (std::is_same_v<From, BFloat16>) {
    return convert<To>(bfloat16_to_float(x.bits));
  } else if constexpr (is_complex<From>::value) {
    if constexpr (std::is_same_v<To, Bool8>) {
      return Bool8{x.re != 0 || x.im != 0};
    } else if constexpr (is_complex<To>::value) {
      using Part = decltype(To::re);
      return To{convert<Part>(x.re), convert<Part>(x.im)};
    } else {
      return convert<To>(x.re);
    }
  } else if constexpr (std::is_same_v<To, Bool8>) {
    return Bool8{x != 0};
  } else if constexpr (is_complex<To>::value) {
    using Part = decltype(To::re);
    return To{convert<Part>(x), Part{0}};
  } else if constexpr (std::is_same_v<To, Half>) {
    return to_half(x);
  } else if constexpr (std::is_same_v<To, BFloat16>) {
    return to_bfloat16(x);
  } else if constexpr (std::is_same_v<To, float> && std::is_integral_v<From> &&
                       sizeof(From) == 8) {
    // One rounding even where the conversion goes through double (as under
    // valgrind, or in software on some targets).
    return static_cast<float>(fold_to_double(x));
  } else if constexpr (std::is_floating_point_v<To> || !std::is_floating_point_v<From>) {
    return static_cast<To>(x);  // one hardware rounding, or wrapping (modulo 2^n)
  } else {
    return saturate_cast<To>(x);
  }
}

// ---- PyTorch 1.13 on x86-64 (TENSOR_CONVERT_TORCH_X86) ---------------------
// PyTorch converts with plain C++ casts, which on x86-64 compile to cvttss2si /
// cvttsd2si for float -> integer, and builds c10::Half and c10::BFloat16 from a
// float. Its results differ from convert's for these pairs only.

template <class T>
constexpr bool is_float_or_complex =
    std::is_floating_point_v<T> || is_narrow_float<T> || is_complex<T>::value;

// The integer a float goes through on its way to To: the instructions' 32-bit
// form for int8/int16/int32, the 64-bit one for uint8/int64; void for the
// dtypes PyTorch 1.13 lacks (uint16/32/64), which keep the library's rule.
template <class To>
using TorchTruncation =
    std::conditional_t<std::is_same_v<To, int8_t> || std::is_same_v<To, int16_t> || std::is_same_v<To, int32_t>,
                       int32_t,
                       std::conditional_t<std::is_same_v<To, uint8_t> || std::is_same_v<To, int64_t>, int64_t, void>>;

template <class From, class To>
constexpr bool kTorchTruncates = is_float_or_complex<From> && !std::is_void_v<TorchTruncation<To>>;
// float64, complex128, int32 and int64 reach float16/bfloat16 rounded to a float first.
template <class From, class To>
constexpr bool kTorchRoundsTwice =
    is_narrow_float<To> && (std::is_same_v<From, double> || std::is_same_v<From, Complex<double>> ||
                            std::is_same_v<From, int32_t> || std::is_same_v<From, int64_t>);
// complex -> bool looks at the real part only.
template <class From, class To>
constexpr bool kTorchRealPartBool = is_complex<From>::value && std::is_same_v<To, Bool8>;
template <class From, class To>
constexpr bool kTorchDiffers =
    kTorchTruncates<From, To> || kTorchRoundsTwice<From, To> || kTorchRealPartBool<From, To>;

// cvttss2si / cvttsd2si into Int: truncation toward zero; NaN and values outside
// Int's range give Int's minimum (the "integer indefinite"). Selects around an
// in-range cast, so that loops of it vectorise.
template <class Int, class F>
inline Int x86_truncate(F x) noexcept {
  constexpr F limit = pow2<F>(std::numeric_limits<Int>::digits);  // 2^31 or 2^63, exact in F
  const bool in_range = x > -limit && x < limit;  // -limit itself gives the minimum either way
  const Int r = static_cast<Int>(in_range ? x : F{0});
  return in_range ? r : std::numeric_limits<Int>::min();
}

// The truncation a float of type F takes on its way to To. A float32 of magnitude
// 2^31 or more is a multiple of 256, so into uint8 the 32-bit truncation (which
// vectorises, unlike the 64-bit one on AVX2) keeps the same low bits.
template <class F, class To>
using TorchTruncationOf =
    std::conditional_t<std::is_same_v<F, float> && sizeof(To) == 1, int32_t, TorchTruncation<To>>;

template <class To, class From>
inline To torch_x86_convert(From x) noexcept {
  if constexpr (!kTorchDiffers<From, To>) {
    return convert<To>(x);
  } else if constexpr (kTorchRealPartBool<From, To>) {
    return Bool8{x.re != 0};
  } else if constexpr (is_complex<From>::value) {
    return torch_x86_convert<To>(x.re);
  } else if constexpr (is_narrow_float<From>) {
    return torch_x86_convert<To>(convert<float>(x));
  } else if constexpr (kTorchTruncates<From, To>) {
    return static_cast<To>(x86_truncate<TorchTruncationOf<From, To>>(x));  // then keeps the low bits
  } else {
    return convert<To>(convert<float>(x));  // rounds twice
  }
}

// The conversion policies as kernel parameters: which element rule a loop applies.
struct LibraryRules {
  template <class To, class From>
  static To apply(From x) noexcept {
    return convert<To>(x);
  }
};
struct TorchX86Rules {
  template <class To, class From>
  static To apply(From x) noexcept {
    return torch_x86_convert<To>(x);
  }
};

// Pairs whose Rules kernel is not the library's.
template <class Rules, class From, class To>
constexpr bool kRulesDiffer = std::is_same_v<Rules, TorchX86Rules> && kTorchDiffers<From, To>;

template <class From, class To, class Rules = LibraryRules>
inline void cast_contiguous(const char* src, char* dst, int64_t n) noexcept {
  for (int64_t i = 0; i < n; ++i)
    store(dst + i * int64_t{sizeof(To)}, Rules::template apply<To>(load<From>(src + i * int64_t{sizeof(From)})));
}

template <class From, class To, class Rules = LibraryRules>
void cast_strided(const char* src, int64_t src_stride, char* dst, int64_t dst_stride,
                  int64_t n) noexcept {
  for (int64_t i = 0; i < n; ++i, src += src_stride, dst += dst_stride)
    store(dst, Rules::template apply<To>(load<From>(src)));
}

template <class T>
void copy_elements(const char* src, int64_t src_stride, char* dst, int64_t dst_stride,
                   int64_t n) noexcept {
  if (src_stride == sizeof(T) && dst_stride == sizeof(T)) {
    if (n > 0) std::memmove(dst, src, static_cast<size_t>(n) * sizeof(T));
    return;
  }
  for (int64_t i = 0; i < n; ++i, src += src_stride, dst += dst_stride)
    std::memcpy(dst, src, sizeof(T));
}

// The C++ type that stores each dtype.
template <DType D>
struct Element;
#define CTENSOR_ELEMENT(Name, value, macro, T, ...) \
  template <>                                       \
  struct Element<dtype::Name> {                     \
    using type = T;                                 \
  };
CTENSOR_FORALL_DTYPES(CTENSOR_ELEMENT)
#undef CTENSOR_ELEMENT

#define CTENSOR_ELEMENT_SIZE(Name, value, macro, T, kind, is_signed, name, dl_code, bits) \
  static_assert(sizeof(T) * 8 == (bits), #Name "'s element type does not have its bits");
CTENSOR_FORALL_DTYPES(CTENSOR_ELEMENT_SIZE)
#undef CTENSOR_ELEMENT_SIZE

// The dtypes the cast tables cover: all of them, in the list's order.
inline constexpr const auto& kCastDTypes = kAllDTypes;
constexpr int kNumCastDTypes = kNumDTypes;

// Position of `d` in kCastDTypes, -1 if unknown.
constexpr int cast_index(DType d) noexcept {
  for (int i = 0; i < kNumCastDTypes; ++i)
    if (kCastDTypes[i] == d) return i;
  return -1;
}

using CastTable = std::array<CastKernel, kNumCastDTypes * kNumCastDTypes>;

// The portable kernel: a same-dtype copy, or a tight conversion loop.
template <class From, class To, class Rules>
struct PortableKernel {
  static void run(const char* src, int64_t src_stride, char* dst, int64_t dst_stride,
                  int64_t n) noexcept {
    if constexpr (kPlainCopy<From, To>) {
      copy_elements<From>(src, src_stride, dst, dst_stride, n);
    } else if (src_stride == sizeof(From) && dst_stride == sizeof(To)) {
      cast_contiguous<From, To, Rules>(src, dst, n);
    } else {
      cast_strided<From, To, Rules>(src, src_stride, dst, dst_stride, n);
    }
  }
};

// Kernel<From, To, Rules>::run, or the library's kernel where Rules agree with it
// (so that a policy adds only the kernels it changes).
template <template <class, class, class> class Kernel, class Rules, class From, class To>
constexpr CastKernel rules_kernel() noexcept {
  if constexpr (kRulesDiffer<Rules, From, To>) {
    return &Kernel<From, To, Rules>::run;
  } else {
    return &Kernel<From, To, LibraryRules>::run;
  }
}

// Fills a table with every pair's kernel, row = source.
template <template <class, class, class> class Kernel, class Rules, size_t... I>
constexpr CastTable make_cast_table(std::index_sequence<I...>) noexcept {
  return CastTable{rules_kernel<Kernel, Rules, typename Element<kCastDTypes[I / kNumCastDTypes]>::type,
                                typename Element<kCastDTypes[I % kNumCastDTypes]>::type>()...};
}

template <template <class, class, class> class Kernel, class Rules>
constexpr CastTable make_cast_table() noexcept {
  return make_cast_table<Kernel, Rules>(std::make_index_sequence<kNumCastDTypes * kNumCastDTypes>{});
}

}  // namespace ctensor::core
