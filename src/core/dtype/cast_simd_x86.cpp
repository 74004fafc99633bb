// AVX2 + F16C kernels for x86-64. Only these functions carry the target attribute,
// so the library still runs on any x86-64; the rule templates they call are
// inlined into them and vectorised there. Tails use the scalar rules, which give
// the same bits as the vector instructions.
//
// With AVX-512, float32 -> bfloat16 streams through 512-bit kernels (below);
// AVX512-BF16's conversion flushes subnormal inputs to zero, so lines that hold
// one take the integer rounding.
#include "dtype/cast_simd.hpp"

#if defined(__GNUC__) && defined(__x86_64__)

#include <cpuid.h>
#include <immintrin.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "cpu.hpp"

#define CTENSOR_AVX2 __attribute__((target("avx2,f16c,fma")))

namespace ctensor::core {

namespace {

CTENSOR_AVX2 void float_to_half_avx2(const char* src, char* dst, int64_t n) noexcept {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 x = _mm256_loadu_ps(reinterpret_cast<const float*>(src) + i);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(dst) + i / 8,
                     _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  cast_contiguous<float, Half>(src + i * 4, dst + i * 2, n - i);
}

CTENSOR_AVX2 void half_to_float_avx2(const char* src, char* dst, int64_t n) noexcept {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src) + i / 8);
    _mm256_storeu_ps(reinterpret_cast<float*>(dst) + i, _mm256_cvtph_ps(h));
  }
  cast_contiguous<Half, float>(src + i * 2, dst + i * 4, n - i);
}

// bfloat16 is the float's top half after adding 0x7fff + (bit 16) to round to
// nearest even; a NaN is made quiet instead, as float_to_bfloat16 does. The
// results (all < 2^16) are left in the 32-bit lanes.
CTENSOR_AVX2 __m256i bfloat16_lanes(__m256i x) noexcept {
  const __m256i high = _mm256_srli_epi32(x, 16);
  const __m256i lsb = _mm256_and_si256(high, _mm256_set1_epi32(1));
  const __m256i rounded = _mm256_srli_epi32(
      _mm256_add_epi32(x, _mm256_add_epi32(_mm256_set1_epi32(0x7fff), lsb)), 16);
  const __m256i nan = _mm256_or_si256(high, _mm256_set1_epi32(0x40));
  const __m256 f = _mm256_castsi256_ps(x);  // NaN exactly when (x & 0x7fffffff) > 0x7f800000
  const __m256i is_nan = _mm256_castps_si256(_mm256_cmp_ps(f, f, _CMP_UNORD_Q));
  return _mm256_blendv_epi8(rounded, nan, is_nan);
}

CTENSOR_AVX2 void float_to_bfloat16_avx2(const char* src, char* dst, int64_t n) noexcept {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i a = bfloat16_lanes(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i * 4)));
    const __m256i b =
        bfloat16_lanes(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i * 4 + 32)));
    // packus interleaves the 128-bit lanes of a and b; the permute restores order.
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i * 2),
                        _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xd8));
  }
  cast_contiguous<float, BFloat16>(src + i * 4, dst + i * 2, n - i);
}

CTENSOR_AVX2 void bfloat16_to_float_avx2(const char* src, char* dst, int64_t n) noexcept {
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i * 2));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i * 4),
                        _mm256_slli_epi32(_mm256_cvtepu16_epi32(b), 16));
  }
  cast_contiguous<BFloat16, float>(src + i * 2, dst + i * 4, n - i);
}

// Four 64-bit lane masks as 32-bit lanes, in order.
CTENSOR_AVX2 __m128i narrow_mask(__m256d mask) noexcept {
  const __m256i low_halves = _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0);
  return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(mask), low_halves));
}

// Four doubles as floats rounded to odd, as double_to_float_odd does.
CTENSOR_AVX2 __m128 double_to_float_odd_avx2(__m256d d) noexcept {
  const __m128 f = _mm256_cvtpd_ps(d);
  const __m256d back = _mm256_cvtps_pd(f);
  const __m256d abs_mask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7fffffffffffffff));
  const __m256d inexact = _mm256_cmp_pd(back, d, _CMP_NEQ_OQ);  // false for NaN
  const __m256d above =
      _mm256_cmp_pd(_mm256_and_pd(back, abs_mask), _mm256_and_pd(d, abs_mask), _CMP_GT_OQ);
  const __m128i one = _mm_set1_epi32(1);
  const __m128i bits = _mm_castps_si128(f);
  const __m128i even = _mm_cmpeq_epi32(_mm_and_si128(bits, one), _mm_setzero_si128());
  // -1 (toward zero) when f lies above d in magnitude, else +1; only where stepping.
  const __m128i step =
      _mm_and_si128(_mm_and_si128(narrow_mask(inexact), even), _mm_or_si128(narrow_mask(above), one));
  return _mm_castsi128_ps(_mm_add_epi32(bits, step));
}

// m elements as floats rounded to odd (narrow_source), four at a time where a
// double holds the value exactly.
template <class From>
CTENSOR_AVX2 void narrow_source_avx2(const char* src, float* out, int64_t m) noexcept {
  int64_t j = 0;
  if constexpr (std::is_same_v<From, double>) {
    for (; j + 4 <= m; j += 4)
      _mm_store_ps(out + j, double_to_float_odd_avx2(
                                _mm256_loadu_pd(reinterpret_cast<const double*>(src) + j)));
  } else if constexpr (std::is_same_v<From, int32_t>) {
    for (; j + 4 <= m; j += 4) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + j * 4));
      _mm_store_ps(out + j, double_to_float_odd_avx2(_mm256_cvtepi32_pd(x)));
    }
  }
  for (; j < m; ++j) out[j] = narrow_source(load<From>(src + j * int64_t{sizeof(From)}));
}

template <class From, class To, class Rules>
CTENSOR_AVX2 void cast_contiguous_avx2(const char* src, char* dst, int64_t n) noexcept;

// Conversions from or to float16/bfloat16 pass through floats staged in L1: the
// first step widens (F16C) or rounds to odd (vectorised by the compiler), or for
// PyTorch's double rounding converts to the nearest float; the second converts
// (vectorised, by the policy's rule) or narrows (F16C).
template <class From, class To, class Rules>
CTENSOR_AVX2 void cast_via_float_avx2(const char* src, char* dst, int64_t n) noexcept {
  constexpr int64_t kStage = 512;
  alignas(32) float stage[kStage];
  char* const staged = reinterpret_cast<char*>(stage);
  for (int64_t i = 0; i < n; i += kStage) {
    const int64_t m = std::min(kStage, n - i);
    const char* s = src + i * int64_t{sizeof(From)};
    char* d = dst + i * int64_t{sizeof(To)};
    if constexpr (std::is_same_v<From, Half>) {
      half_to_float_avx2(s, staged, m);
    } else if constexpr (std::is_same_v<From, BFloat16>) {
      bfloat16_to_float_avx2(s, staged, m);
    } else if constexpr (kRulesDiffer<Rules, From, To>) {
      cast_contiguous_avx2<From, float, LibraryRules>(s, staged, m);
    } else {
      narrow_source_avx2<From>(s, stage, m);
    }
    if constexpr (std::is_same_v<To, Half>) {
      float_to_half_avx2(staged, d, m);
    } else if constexpr (std::is_same_v<To, BFloat16>) {
      float_to_bfloat16_avx2(staged, d, m);
    } else {
      cast_contiguous<float, To, Rules>(staged, d, m);
    }
  }
}

// The generic loop, compiled for AVX2 so the compiler vectorises the rules.
template <class From, class To, class Rules>
CTENSOR_AVX2 void cast_contiguous_avx2(const char* src, char* dst, int64_t n) noexcept {
  if constexpr (kRulesDiffer<Rules, From, To> && !is_narrow_float<From> && !is_narrow_float<To>) {
    cast_contiguous<From, To, Rules>(src, dst, n);
  } else if constexpr (std::is_same_v<From, float> && std::is_same_v<To, Half>) {
    float_to_half_avx2(src, dst, n);
  } else if constexpr (std::is_same_v<From, Half> && std::is_same_v<To, float>) {
    half_to_float_avx2(src, dst, n);
  } else if constexpr (std::is_same_v<From, float> && std::is_same_v<To, BFloat16>) {
    float_to_bfloat16_avx2(src, dst, n);
  } else if constexpr (std::is_same_v<From, BFloat16> && std::is_same_v<To, float>) {
    bfloat16_to_float_avx2(src, dst, n);
  } else if constexpr (is_narrow_float<From> || is_narrow_float<To>) {
    cast_via_float_avx2<From, To, Rules>(src, dst, n);
  } else {
    cast_contiguous<From, To>(src, dst, n);
  }
}

template <class From, class To, class Rules>
struct Avx2Kernel {
  static void run(const char* src, int64_t src_stride, char* dst, int64_t dst_stride,
                  int64_t n) noexcept {
    if constexpr (kPlainCopy<From, To>) {
      copy_elements<From>(src, src_stride, dst, dst_stride, n);
    } else if (src_stride == sizeof(From) && dst_stride == sizeof(To)) {
      cast_contiguous_avx2<From, To, Rules>(src, dst, n);
    } else {
      cast_strided<From, To, Rules>(src, src_stride, dst, dst_stride, n);
    }
  }
};

constexpr CastTable kAvx2Table = make_cast_table<Avx2Kernel, LibraryRules>();
constexpr CastTable kAvx2TorchX86Table = make_cast_table<Avx2Kernel, TorchX86Rules>();

// Streaming variants of the widening and narrowing casts: whole 64-byte
// destination lines written with non-temporal stores (a line is never read in
// first), two or four vector conversions per iteration. The head up to the
// first line boundary and the tail go through the kernels above, which give
// the same bits. StreamLines<From, To> says how, for the pairs that have one:
// `lines` converts kElements elements into whole lines.
template <class From, class To>
struct StreamLines {
  static constexpr bool kHas = false;
};

CTENSOR_AVX2 inline void stream32(char* p, __m256i v) noexcept {
  _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
}

template <>
struct StreamLines<float, Half> {
  static constexpr bool kHas = true;
  static constexpr int64_t kElements = 32;
  CTENSOR_AVX2 static void lines(const char* src, char* dst) noexcept {
    constexpr int kRound = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
    const float* s = reinterpret_cast<const float*>(src);
    const __m128i h0 = _mm256_cvtps_ph(_mm256_loadu_ps(s), kRound);
    const __m128i h1 = _mm256_cvtps_ph(_mm256_loadu_ps(s + 8), kRound);
    const __m128i h2 = _mm256_cvtps_ph(_mm256_loadu_ps(s + 16), kRound);
    const __m128i h3 = _mm256_cvtps_ph(_mm256_loadu_ps(s + 24), kRound);
    stream32(dst, _mm256_setr_m128i(h0, h1));
    stream32(dst + 32, _mm256_setr_m128i(h2, h3));
  }
};

template <>
struct StreamLines<float, BFloat16> {
  static constexpr bool kHas = true;
  static constexpr int64_t kElements = 32;
  CTENSOR_AVX2 static void lines(const char* src, char* dst) noexcept {
    const __m256i* s = reinterpret_cast<const __m256i*>(src);
    const __m256i a = bfloat16_lanes(_mm256_loadu_si256(s));
    const __m256i b = bfloat16_lanes(_mm256_loadu_si256(s + 1));
    const __m256i c = bfloat16_lanes(_mm256_loadu_si256(s + 2));
    const __m256i d = bfloat16_lanes(_mm256_loadu_si256(s + 3));
    stream32(dst, _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), 0xd8));
    stream32(dst + 32, _mm256_permute4x64_epi64(_mm256_packus_epi32(c, d), 0xd8));
  }
};

template <>
struct StreamLines<Half, float> {
  static constexpr bool kHas = true;
  static constexpr int64_t kElements = 16;
  CTENSOR_AVX2 static void lines(const char* src, char* dst) noexcept {
    const __m128i* s = reinterpret_cast<const __m128i*>(src);
    stream32(dst, _mm256_castps_si256(_mm256_cvtph_ps(_mm_loadu_si128(s))));
    stream32(dst + 32, _mm256_castps_si256(_mm256_cvtph_ps(_mm_loadu_si128(s + 1))));
  }
};

template <>
struct StreamLines<BFloat16, float> {
  static constexpr bool kHas = true;
  static constexpr int64_t kElements = 16;
  CTENSOR_AVX2 static void lines(const char* src, char* dst) noexcept {
    const __m128i* s = reinterpret_cast<const __m128i*>(src);
    stream32(dst, _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(s)), 16));
    stream32(dst + 32, _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128(s + 1)), 16));
  }
};

// int32 -> float64 is exact: vcvtdq2pd gives the rule's bits.
template <>
struct StreamLines<int32_t, double> {
  static constexpr bool kHas = true;
  static constexpr int64_t kElements = 16;
  CTENSOR_AVX2 static void lines(const char* src, char* dst) noexcept {
    const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));
    const __m256i y = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 32));
    stream32(dst, _mm256_castpd_si256(_mm256_cvtepi32_pd(_mm256_castsi256_si128(x))));
    stream32(dst + 32, _mm256_castpd_si256(_mm256_cvtepi32_pd(_mm256_extracti128_si256(x, 1))));
    stream32(dst + 64, _mm256_castpd_si256(_mm256_cvtepi32_pd(_mm256_castsi256_si128(y))));
    stream32(dst + 96, _mm256_castpd_si256(_mm256_cvtepi32_pd(_mm256_extracti128_si256(y, 1))));
  }
};

// Elements before dst reaches a 64-byte boundary (at most n); -1 when dst is
// not aligned to whole elements, so that no element straddles the boundary.
inline int64_t line_head(const char* dst, int64_t item, int64_t n) noexcept {
  const auto addr = reinterpret_cast<uintptr_t>(dst);
  if (addr % static_cast<uintptr_t>(item) != 0) return -1;
  const auto head = static_cast<int64_t>((64 - addr % 64) % 64) / item;
  return std::min(head, n);
}

template <class From, class To>
CTENSOR_AVX2 bool stream_cast(const char* src, int64_t ss, char* dst, int64_t n) noexcept {
  using Lines = StreamLines<From, To>;
  constexpr int64_t from = sizeof(From), to = sizeof(To);
  if (ss != from) return false;
  const int64_t head = line_head(dst, to, n);
  if (head < 0) return cast_contiguous_avx2<From, To, LibraryRules>(src, dst, n), true;
  cast_contiguous_avx2<From, To, LibraryRules>(src, dst, head);
  int64_t i = head;
  for (; i + Lines::kElements <= n; i += Lines::kElements) Lines::lines(src + i * from, dst + i * to);
  cast_contiguous_avx2<From, To, LibraryRules>(src + i * from, dst + i * to, n - i);
  return true;
}

// float32 -> bfloat16 with AVX-512, one 64-byte destination line (32
// elements) per step, in place of StreamLines<float, BFloat16> (whose integer
// rounding takes 8 or 9 AVX2 operations per 8 elements: the first cast to fall
// behind memory). Two kinds, the same bits as float_to_bfloat16:
// - without AVX512-BF16: the same rounding on 16 lanes at a time, NaN made
//   quiet under a mask, and one two-source permute that gathers the top halves;
// - with it (Zen 4 and 5, Intel from Cooper Lake): vcvtne2ps2bf16, which
//   rounds to nearest even and quiets a NaN as the rule does, but flushes a
//   subnormal input to zero; a line whose 32 inputs hold a subnormal goes
//   through the integer kind instead (zeros keep the instruction).
#define CTENSOR_AVX512 __attribute__((target("avx2,f16c,fma,avx512f,avx512bw,avx512vl")))
#define CTENSOR_AVX512_BF16 __attribute__((target("avx2,f16c,fma,avx512f,avx512bw,avx512vl,avx512bf16")))

// GCC 12's AVX-512 headers seed shift results with a self-initialised
// "undefined" vector, which -Wmaybe-uninitialized reports (GCC bug 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

// float_to_bfloat16 of 16 lanes, each result in the top half of its lane.
CTENSOR_AVX512 inline __m512i bfloat16_high_halves(__m512i x) noexcept {
  const __m512i lsb = _mm512_and_si512(_mm512_srli_epi32(x, 16), _mm512_set1_epi32(1));
  const __m512i rounded = _mm512_add_epi32(x, _mm512_add_epi32(lsb, _mm512_set1_epi32(0x7fff)));
  const __m512 f = _mm512_castsi512_ps(x);
  const __mmask16 nan = _mm512_cmp_ps_mask(f, f, _CMP_UNORD_Q);
  return _mm512_mask_or_epi32(rounded, nan, x, _mm512_set1_epi32(0x400000));  // (x >> 16) | 0x40
}

CTENSOR_AVX512 inline void bfloat16_line_avx512(const char* src, char* dst) noexcept {
  // word k of the result: word 2k + 1 of a:b (set_epi16 lists word 31 first)
  const __m512i odd_words = _mm512_set_epi16(63, 61, 59, 57, 55, 53, 51, 49, 47, 45, 43, 41, 39, 37, 35, 33, 31, 29,
                                             27, 25, 23, 21, 19, 17, 15, 13, 11, 9, 7, 5, 3, 1);
  const __m512i a = bfloat16_high_halves(_mm512_loadu_si512(src));
  const __m512i b = bfloat16_high_halves(_mm512_loadu_si512(src + 64));
  _mm512_stream_si512(reinterpret_cast<__m512i*>(dst), _mm512_permutex2var_epi16(a, odd_words, b));
}

// The lines of n elements (dst on a line boundary); returns the elements done.
CTENSOR_AVX512 int64_t bfloat16_lines_avx512(const char* src, char* dst, int64_t n) noexcept {
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) bfloat16_line_avx512(src + i * 4, dst + i * 2);
  return i;
}

CTENSOR_AVX512_BF16 int64_t bfloat16_lines_bf16(const char* src, char* dst, int64_t n) noexcept {
  const __m512i exponent = _mm512_set1_epi32(0x7f800000), mantissa = _mm512_set1_epi32(0x007fffff);
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m512i a = _mm512_loadu_si512(src + i * 4), b = _mm512_loadu_si512(src + i * 4 + 64);
    const __mmask16 subnormal_a = _mm512_mask_test_epi32_mask(_mm512_testn_epi32_mask(a, exponent), a, mantissa);
    const __mmask16 subnormal_b = _mm512_mask_test_epi32_mask(_mm512_testn_epi32_mask(b, exponent), b, mantissa);
    if ((subnormal_a | subnormal_b) != 0) {
      bfloat16_line_avx512(src + i * 4, dst + i * 2);
      continue;
    }
    const __m512bh h = _mm512_cvtne2ps_pbh(_mm512_castsi512_ps(b), _mm512_castsi512_ps(a));  // a's in the low half
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + i * 2), (__m512i)h);
  }
  return i;
}

#pragma GCC diagnostic pop

// A streaming float32 -> bfloat16 kernel around `lines`: the head up to the
// first line boundary and the tail through the AVX2 kernel (same bits).
template <int64_t (*lines)(const char*, char*, int64_t)>
bool stream_float_to_bfloat16(const char* src, int64_t ss, char* dst, int64_t n) noexcept {
  if (ss != 4) return false;
  const int64_t head = line_head(dst, 2, n);
  if (head < 0) return float_to_bfloat16_avx2(src, dst, n), true;
  float_to_bfloat16_avx2(src, dst, head);
  const int64_t done = head + lines(src + head * 4, dst + head * 2, n - head);
  float_to_bfloat16_avx2(src + done * 4, dst + done * 2, n - done);
  return true;
}

// AVX512-BF16 (CPUID leaf 7, subleaf 1, EAX bit 5), with the OS saving the
// AVX-512 state (which __builtin_cpu_supports("avx512f") checks).
bool cpu_has_avx512_bf16() noexcept {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return cpu_has_avx512() && __get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx) && (eax & (1u << 5)) != 0;
}

// The streaming variant of each entry of kAvx2Table, at the same index.
using StreamCastTable = std::array<StreamCastKernel, kNumCastDTypes * kNumCastDTypes>;

template <class From, class To>
constexpr StreamCastKernel stream_variant() noexcept {
  static_assert(!(StreamLines<From, To>::kHas && kTorchDiffers<From, To>),
                "a streamed pair must convert alike under every policy");
  if constexpr (StreamLines<From, To>::kHas) {
    return &stream_cast<From, To>;
  } else {
    return nullptr;
  }
}

template <size_t... I>
constexpr StreamCastTable make_stream_table(std::index_sequence<I...>) noexcept {
  return StreamCastTable{stream_variant<typename Element<kCastDTypes[I / kNumCastDTypes]>::type,
                                        typename Element<kCastDTypes[I % kNumCastDTypes]>::type>()...};
}

constexpr StreamCastTable kAvx2StreamTable =
    make_stream_table(std::make_index_sequence<kNumCastDTypes * kNumCastDTypes>{});

}  // namespace

const CastTable* simd_cast_table(Conversion conversion) noexcept {
  // F16C and FMA are read from CPUID leaf 1 (older Clang lacks their names).
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!cpu_has_avx2() || !__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return nullptr;
  const bool f16c = ecx & bit_F16C, fma = ecx & bit_FMA;
  if (!f16c || !fma) return nullptr;
  return conversion == Conversion::TorchX86 ? &kAvx2TorchX86Table : &kAvx2Table;
}

int simd_stream_float_to_bfloat16_kernels(StreamCastKernel* out) noexcept {
  if (simd_cast_table(Conversion::Library) == nullptr) return 0;
  int n = 0;
  out[n++] = kAvx2StreamTable[cast_index(dtype::Float32) * kNumCastDTypes + cast_index(dtype::BFloat16)];
  if (cpu_has_avx512()) out[n++] = &stream_float_to_bfloat16<bfloat16_lines_avx512>;
  if (cpu_has_avx512_bf16()) out[n++] = &stream_float_to_bfloat16<bfloat16_lines_bf16>;
  return n;
}

// float32 -> bfloat16 takes the best kernel of the CPU, or the one that
// CTENSOR_FORCE_COPY_KIND (the copy engine's benchmark and testing knob, read
// once) names, so that one machine measures each: "avx2", "avx512-halves" (the
// AVX-512 kind without the BF16 instruction) or "avx512-lines" (with it, where
// the CPU has it). The copy engine's "traffic-<kind>" replays (benchmarks
// only) have no cast kernel of their own: they take <kind>'s.
static StreamCastKernel chosen_float_to_bfloat16() noexcept {
  StreamCastKernel kernels[3];
  int n = simd_stream_float_to_bfloat16_kernels(kernels);
  if (const char* kind = std::getenv("CTENSOR_FORCE_COPY_KIND")) {
    if (std::strncmp(kind, "traffic-", 8) == 0) kind += 8;
    if (std::strcmp(kind, "avx2") == 0) n = std::min(n, 1);
    if (std::strcmp(kind, "avx512-halves") == 0) n = std::min(n, 2);
  }
  return n > 0 ? kernels[n - 1] : nullptr;
}

StreamCastKernel simd_stream_cast(DType from, DType to) noexcept {
  static const bool active = simd_cast_table(Conversion::Library) != nullptr;
  const int i = cast_index(from), j = cast_index(to);
  if (!active || i < 0 || j < 0) return nullptr;
  if (from == dtype::Float32 && to == dtype::BFloat16) {
    static const StreamCastKernel best = chosen_float_to_bfloat16();
    return best;
  }
  return kAvx2StreamTable[i * kNumCastDTypes + j];
}

}  // namespace ctensor::core

#else

namespace ctensor::core {

const CastTable* simd_cast_table(Conversion) noexcept { return nullptr; }
StreamCastKernel simd_stream_cast(DType, DType) noexcept { return nullptr; }
int simd_stream_float_to_bfloat16_kernels(StreamCastKernel*) noexcept { return 0; }

}  // namespace ctensor::core

#endif
