// The element function of each unary op (a row of ops/unary_list.hpp), on the
// compute types of ops/elements.hpp: bool, the integers, float (float16 and
// bfloat16 too: converted once on the way in and rounded once on the way out),
// double and std::complex. A kernel is only instantiated for the dtype kinds its
// row accepts (bool and integer inputs of Float-rule ops arrive as float).
// Vector forms for float and double are in ops/unary_vec.hpp.
#pragma once

#include <cmath>
#include <complex>
#include <type_traits>

#include "ops/elements.hpp"
#include "ops/unary_list.hpp"

namespace ctensor::core {

template <class C>
constexpr bool kIsComplex = false;
template <class T>
constexpr bool kIsComplex<std::complex<T>> = true;

template <UnaryOp Op>
struct UnaryKernel;

#define CTENSOR_UNARY_KERNEL(Op, body)   \
  template <>                            \
  struct UnaryKernel<UnaryOp::Op> {      \
    template <class C>                   \
    static auto apply(C x) noexcept body \
  };

CTENSOR_UNARY_KERNEL(Neg, {
  if constexpr (std::is_integral_v<C>) return wrapping_sub(C{0}, x);
  else return -x;
})
CTENSOR_UNARY_KERNEL(Abs, {
  if constexpr (kIsComplex<C> || std::is_floating_point_v<C>) return std::abs(x);
  else if constexpr (std::is_unsigned_v<C>) return x;
  else return x < 0 ? wrapping_sub(C{0}, x) : x;
})
CTENSOR_UNARY_KERNEL(Exp, { return std::exp(x); })
CTENSOR_UNARY_KERNEL(Exp2, { return std::exp2(x); })
CTENSOR_UNARY_KERNEL(Expm1, { return std::expm1(x); })
CTENSOR_UNARY_KERNEL(Log, { return std::log(x); })
CTENSOR_UNARY_KERNEL(Log2, {
  if constexpr (kIsComplex<C>) return std::log(x) / std::log(typename C::value_type{2});
  else return std::log2(x);
})
CTENSOR_UNARY_KERNEL(Log10, { return std::log10(x); })
CTENSOR_UNARY_KERNEL(Log1p, { return std::log1p(x); })
CTENSOR_UNARY_KERNEL(Sqrt, { return std::sqrt(x); })
CTENSOR_UNARY_KERNEL(Rsqrt, { return C{1} / std::sqrt(x); })
CTENSOR_UNARY_KERNEL(Sin, { return std::sin(x); })
CTENSOR_UNARY_KERNEL(Cos, { return std::cos(x); })
CTENSOR_UNARY_KERNEL(Tan, { return std::tan(x); })
CTENSOR_UNARY_KERNEL(Asin, { return std::asin(x); })
CTENSOR_UNARY_KERNEL(Acos, { return std::acos(x); })
CTENSOR_UNARY_KERNEL(Atan, { return std::atan(x); })
CTENSOR_UNARY_KERNEL(Sinh, { return std::sinh(x); })
CTENSOR_UNARY_KERNEL(Cosh, { return std::cosh(x); })
CTENSOR_UNARY_KERNEL(Tanh, { return std::tanh(x); })
CTENSOR_UNARY_KERNEL(Sigmoid, { return C{1} / (C{1} + std::exp(-x)); })
// x < 0 is false for NaN and -0, which stay (as PyTorch's clamp_min).
CTENSOR_UNARY_KERNEL(Relu, { return x < 0 ? C{0} : x; })
// PyTorch's default (erf) form.
CTENSOR_UNARY_KERNEL(Gelu, { return x * C(0.5) * (C{1} + std::erf(x * C(0.70710678118654752440))); })
CTENSOR_UNARY_KERNEL(Erf, { return std::erf(x); })
CTENSOR_UNARY_KERNEL(Floor, {
  if constexpr (std::is_integral_v<C>) return x;
  else return std::floor(x);
})
CTENSOR_UNARY_KERNEL(Ceil, {
  if constexpr (std::is_integral_v<C>) return x;
  else return std::ceil(x);
})
// Halves to even, as PyTorch (nearbyint in the default rounding mode).
CTENSOR_UNARY_KERNEL(Round, {
  if constexpr (std::is_integral_v<C>) return x;
  else return std::nearbyint(x);
})
CTENSOR_UNARY_KERNEL(Trunc, {
  if constexpr (std::is_integral_v<C>) return x;
  else return std::trunc(x);
})
CTENSOR_UNARY_KERNEL(Frac, { return x - std::trunc(x); })
// 0 for NaN and both zeros (+0), as PyTorch; bool stays itself.
CTENSOR_UNARY_KERNEL(Sign, {
  if constexpr (std::is_same_v<C, bool> || std::is_unsigned_v<C>) return static_cast<C>(x > C{0});
  else return static_cast<C>((C{0} < x) - (x < C{0}));
})
CTENSOR_UNARY_KERNEL(Reciprocal, { return C{1} / x; })
// bool gives int64 (its row's Wide rule): x * x is x.
CTENSOR_UNARY_KERNEL(Square, {
  if constexpr (std::is_same_v<C, bool>) return x;
  else if constexpr (std::is_integral_v<C>) return wrapping_mul(x, x);
  else return x * x;
})
CTENSOR_UNARY_KERNEL(Isnan, {
  if constexpr (kIsComplex<C>) return std::isnan(x.real()) || std::isnan(x.imag());
  else if constexpr (std::is_floating_point_v<C>) return std::isnan(x);
  else return false;
})
CTENSOR_UNARY_KERNEL(Isinf, {
  if constexpr (kIsComplex<C>) return std::isinf(x.real()) || std::isinf(x.imag());
  else if constexpr (std::is_floating_point_v<C>) return std::isinf(x);
  else return false;
})
CTENSOR_UNARY_KERNEL(Isfinite, {
  if constexpr (kIsComplex<C>) return std::isfinite(x.real()) && std::isfinite(x.imag());
  else if constexpr (std::is_floating_point_v<C>) return static_cast<bool>(std::isfinite(x));
  else return true;
})
CTENSOR_UNARY_KERNEL(LogicalNot, { return x == C{}; })
CTENSOR_UNARY_KERNEL(BitwiseNot, {
  if constexpr (std::is_same_v<C, bool>) return !x;
  else return static_cast<C>(~x);
})

#undef CTENSOR_UNARY_KERNEL

}  // namespace ctensor::core
