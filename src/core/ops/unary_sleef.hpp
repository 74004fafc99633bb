// The SLEEF functions the unary vector kernels use (all u10: within 1.0 ULP),
// for the instruction-set files: CTENSOR_SLEEF_U10(F) calls F(name) for each.
#pragma once

#define CTENSOR_SLEEF_U10(F) \
  F(exp) F(exp2) F(expm1) F(log) F(log2) F(log10) F(log1p) F(sin) F(cos) F(tan) F(asin) F(acos) F(atan) \
  F(sinh) F(cosh) F(tanh) F(erf)
