// Vector forms of the unary kernels for float32 and float64, written once
// against a vector type W (ops/unary_avx2.cpp and ops/unary_avx512.cpp supply
// it: loads, arithmetic and SLEEF's u10 functions) and chosen at run time. An
// op without a UnaryVec here runs its scalar kernel (ops/unary_kernels.hpp).
// Each must give what the scalar kernel gives up to the stated ULP bound, with
// the same NaNs, infinities and signed zeros.
//
// Included only by the instruction-set files: nothing from the standard
// library, so that no inline function is compiled there for a wider ISA than
// the rest of the library sees.
#pragma once

#include "ops/unary_list.hpp"

namespace ctensor::core {

// y[i] = op(x[i]) for i < n over dense arrays of float (f32) or double (f64);
// y may be x. The _streamed forms store with streaming stores (the caller
// fences, see engine/copy_simd.hpp).
using UnaryMap = void (*)(const void* x, void* y, int64_t n);
struct UnaryMaps {
  UnaryMap f32, f64, f32_streamed, f64_streamed;
};

// Indexed by UnaryOp; null where the op has no vector form.
extern const UnaryMaps kUnaryAvx2[kNumUnaryOps];
extern const UnaryMaps kUnaryAvx512[kNumUnaryOps];

// y[i] = clamp(x[i], lo, hi) over dense float or double arrays (lo and hi
// converted to the type: -inf and inf stand for an absent bound; neither is
// NaN), y may be x; ops/clamp_where.cpp's number bounds.
using ClampMap = void (*)(const void* x, void* y, int64_t n, double lo, double hi);
struct ClampMaps {
  ClampMap f32, f64, f32_streamed, f64_streamed;
};
extern const ClampMaps kClampAvx2;
extern const ClampMaps kClampAvx512;

template <UnaryOp Op>
struct UnaryVec {
  static constexpr bool kHas = false;
};

// e^(|x|/2) * e^(|x|/2) / 2: cosh(x), and |sinh(x)|, for large |x|.
template <class W>
typename W::V wide_cosh(typename W::V x) {
  const typename W::V h = W::exp(W::mul(W::abs(x), W::set1(0.5)));
  return W::mul(W::mul(h, W::set1(0.5)), h);
}

#define CTENSOR_UNARY_VEC(Op, expr)                    \
  template <>                                          \
  struct UnaryVec<UnaryOp::Op> {                       \
    static constexpr bool kHas = true;                 \
    template <class W>                                 \
    static typename W::V apply(typename W::V x) {      \
      return expr;                                     \
    }                                                  \
  };

CTENSOR_UNARY_VEC(Neg, W::neg(x))
CTENSOR_UNARY_VEC(Abs, W::abs(x))
CTENSOR_UNARY_VEC(Exp, W::exp(x))
CTENSOR_UNARY_VEC(Exp2, W::exp2(x))
CTENSOR_UNARY_VEC(Expm1, W::expm1(x))
CTENSOR_UNARY_VEC(Log, W::log(x))
CTENSOR_UNARY_VEC(Log2, W::log2(x))
CTENSOR_UNARY_VEC(Log10, W::log10(x))
// SLEEF's log1p gives inf for x beyond ~1e38 (float) and ~1e307 (double), as
// PyTorch 1.13 does; there log1p(x) is log(x) to the last bit (1/x is far
// below half an ULP), and below -1 both are NaN.
CTENSOR_UNARY_VEC(Log1p, W::select_abs_gt(x, W::kSleefLog1pLimit, W::log(x), W::log1p(x)))
CTENSOR_UNARY_VEC(Sqrt, W::sqrt(x))
CTENSOR_UNARY_VEC(Rsqrt, W::div(W::set1(1), W::sqrt(x)))
CTENSOR_UNARY_VEC(Sin, W::sin(x))
CTENSOR_UNARY_VEC(Cos, W::cos(x))
CTENSOR_UNARY_VEC(Tan, W::tan(x))
CTENSOR_UNARY_VEC(Asin, W::asin(x))
CTENSOR_UNARY_VEC(Acos, W::acos(x))
CTENSOR_UNARY_VEC(Atan, W::atan(x))
// SLEEF's sinh and cosh overflow early, beyond |x| ~ 88.5 (float) and ~ 709
// (double), where the results are still finite: there e^-|x| is negligible and
// they are e^(|x|/2) * e^(|x|/2) / 2 (within 2.5 ULP; inf once that overflows).
CTENSOR_UNARY_VEC(Sinh, W::select_abs_gt(x, W::kSleefExpLimit, W::copysign(wide_cosh<W>(x), x), W::sinh(x)))
CTENSOR_UNARY_VEC(Cosh, W::select_abs_gt(x, W::kSleefExpLimit, wide_cosh<W>(x), W::cosh(x)))
// u35: twice as fast as u10 (16Mi float32 on Zen 5), within 3.5 ULP.
CTENSOR_UNARY_VEC(Tanh, W::tanh_u35(x))
CTENSOR_UNARY_VEC(Sigmoid, W::div(W::set1(1), W::add(W::set1(1), W::exp(W::neg(x)))))
// max(0, x) keeps x when it is NaN or -0 (as PyTorch's clamp_min).
CTENSOR_UNARY_VEC(Relu, W::max(W::set1(0), x))
CTENSOR_UNARY_VEC(Gelu, W::mul(W::mul(x, W::set1(0.5)), W::add(W::set1(1), W::erf(W::mul(x, W::set1(0.70710678118654752440))))))
CTENSOR_UNARY_VEC(Erf, W::erf(x))
CTENSOR_UNARY_VEC(Floor, W::floor(x))
CTENSOR_UNARY_VEC(Ceil, W::ceil(x))
CTENSOR_UNARY_VEC(Round, W::rint(x))
CTENSOR_UNARY_VEC(Trunc, W::trunc(x))
CTENSOR_UNARY_VEC(Frac, W::sub(x, W::trunc(x)))
CTENSOR_UNARY_VEC(Reciprocal, W::div(W::set1(1), x))
CTENSOR_UNARY_VEC(Square, W::mul(x, x))

#undef CTENSOR_UNARY_VEC

}  // namespace ctensor::core
