// The unary kernels' vector forms for AVX2 (with FMA, which SLEEF's AVX2
// functions use), compiled with -mavx2 -mfma and called only where the CPU has
// AVX2 (cpu.hpp).
#include <immintrin.h>
#include <sleef.h>

#include "ops/unary_sleef.hpp"
#include "ops/unary_vec.hpp"

namespace ctensor::core {
namespace {

#define CTENSOR_SLEEF_F32(name) static V name(V x) { return Sleef_##name##f8_u10avx2(x); }
#define CTENSOR_SLEEF_F64(name) static V name(V x) { return Sleef_##name##d4_u10avx2(x); }
#define CTENSOR_SLEEF_F32_U35(name) static V name##_u35(V x) { return Sleef_##name##f8_u35avx2(x); }
#define CTENSOR_SLEEF_F64_U35(name) static V name##_u35(V x) { return Sleef_##name##d4_u35avx2(x); }

struct F32 {
  using T = float;
  using V = __m256;
  static constexpr double kSleefExpLimit = 88.0;  // SLEEF's sinhf/coshf bound: |x| <= 88.5
  static constexpr double kSleefLog1pLimit = 1e30;  // SLEEF's log1pf gives inf above 1e38
  static constexpr int N = 8;
  static V load(const T* p) { return _mm256_loadu_ps(p); }
  static void store(T* p, V v) { _mm256_storeu_ps(p, v); }
  static void stream(T* p, V v) { _mm256_stream_ps(p, v); }
  static V set1(double c) { return _mm256_set1_ps(static_cast<T>(c)); }
  static V add(V a, V b) { return _mm256_add_ps(a, b); }
  static V sub(V a, V b) { return _mm256_sub_ps(a, b); }
  static V mul(V a, V b) { return _mm256_mul_ps(a, b); }
  static V div(V a, V b) { return _mm256_div_ps(a, b); }
  static V max(V a, V b) { return _mm256_max_ps(a, b); }
  static V min(V a, V b) { return _mm256_min_ps(a, b); }
  static V neg(V x) { return _mm256_xor_ps(x, _mm256_set1_ps(-0.0f)); }
  static V abs(V x) { return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x); }
  static V copysign(V mag, V sign) { return _mm256_or_ps(abs(mag), _mm256_and_ps(sign, _mm256_set1_ps(-0.0f))); }
  static V select_abs_gt(V x, double limit, V a, V b) {
    return _mm256_blendv_ps(b, a, _mm256_cmp_ps(abs(x), set1(limit), _CMP_GT_OQ));
  }
  static V sqrt(V x) { return _mm256_sqrt_ps(x); }
  static V floor(V x) { return _mm256_round_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
  static V ceil(V x) { return _mm256_round_ps(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); }
  static V trunc(V x) { return _mm256_round_ps(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
  static V rint(V x) { return _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  CTENSOR_SLEEF_U10(CTENSOR_SLEEF_F32)
  CTENSOR_SLEEF_U35(CTENSOR_SLEEF_F32_U35)
};

struct F64 {
  using T = double;
  using V = __m256d;
  static constexpr double kSleefExpLimit = 709.0;  // SLEEF's sinh/cosh bound: |x| <= 709
  static constexpr double kSleefLog1pLimit = 1e300;  // SLEEF's log1p gives inf above 1e307
  static constexpr int N = 4;
  static V load(const T* p) { return _mm256_loadu_pd(p); }
  static void store(T* p, V v) { _mm256_storeu_pd(p, v); }
  static void stream(T* p, V v) { _mm256_stream_pd(p, v); }
  static V set1(double c) { return _mm256_set1_pd(c); }
  static V add(V a, V b) { return _mm256_add_pd(a, b); }
  static V sub(V a, V b) { return _mm256_sub_pd(a, b); }
  static V mul(V a, V b) { return _mm256_mul_pd(a, b); }
  static V div(V a, V b) { return _mm256_div_pd(a, b); }
  static V max(V a, V b) { return _mm256_max_pd(a, b); }
  static V min(V a, V b) { return _mm256_min_pd(a, b); }
  static V neg(V x) { return _mm256_xor_pd(x, _mm256_set1_pd(-0.0)); }
  static V abs(V x) { return _mm256_andnot_pd(_mm256_set1_pd(-0.0), x); }
  static V copysign(V mag, V sign) { return _mm256_or_pd(abs(mag), _mm256_and_pd(sign, _mm256_set1_pd(-0.0))); }
  static V select_abs_gt(V x, double limit, V a, V b) {
    return _mm256_blendv_pd(b, a, _mm256_cmp_pd(abs(x), set1(limit), _CMP_GT_OQ));
  }
  static V sqrt(V x) { return _mm256_sqrt_pd(x); }
  static V floor(V x) { return _mm256_round_pd(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
  static V ceil(V x) { return _mm256_round_pd(x, _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC); }
  static V trunc(V x) { return _mm256_round_pd(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC); }
  static V rint(V x) { return _mm256_round_pd(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  CTENSOR_SLEEF_U10(CTENSOR_SLEEF_F64)
  CTENSOR_SLEEF_U35(CTENSOR_SLEEF_F64_U35)
};

}  // namespace
}  // namespace ctensor::core

#define CTENSOR_UNARY_TABLE kUnaryAvx2
#define CTENSOR_CLAMP_MAPS kClampAvx2
#include "ops/unary_simd.inc"
