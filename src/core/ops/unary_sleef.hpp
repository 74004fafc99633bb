// The SLEEF functions the unary vector kernels use, for the instruction-set
// files: CTENSOR_SLEEF_U10(F) calls F(name) for each u10 function (within 1.0
// ULP), CTENSOR_SLEEF_U35(F) for each u35 one (within 3.5 ULP, faster).
#pragma once

#define CTENSOR_SLEEF_U10(F) \
  F(exp) F(exp2) F(expm1) F(log) F(log2) F(log10) F(log1p) F(sin) F(cos) F(tan) F(asin) F(acos) F(atan) \
  F(sinh) F(cosh) F(tanh) F(erf)

#define CTENSOR_SLEEF_U35(F) F(tanh)
