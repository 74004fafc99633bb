// AVX2 (and, for 4-byte transposes, AVX-512) kernels of the copy engine. Only
// these functions carry target attributes or pragmas (no templates or lambdas
// that another translation unit could pick up), so the library still runs on
// any x86-64; elsewhere every entry point reports "not handled" and the
// portable kernels run.
#include "engine/copy_simd.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#if defined(__GNUC__) && defined(__x86_64__)

#include <immintrin.h>

#include "cpu.hpp"
#include "memory/allocator.hpp"

#define CTENSOR_AVX2 __attribute__((target("avx2")))
#define CTENSOR_AVX512 __attribute__((target("avx2,avx512f,avx512bw,avx512dq,avx512vl")))

namespace ctensor::core::simd {

namespace {

CTENSOR_AVX2 inline void store32(char* p, __m256i v, bool stream) {
  if (stream)
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
  else
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
}

// Elements to copy one by one before dst reaches a cache line's start; 0 when
// not streaming. Streaming stores need 32-byte alignment, and whole lines: a
// line written in two halves by consecutive 64-byte steps made a streaming add
// into an output at 16 bytes past a line 1.5x slower than normal stores (Zen 1).
inline int64_t head_elements(const char* dst, size_t item, int64_t n, bool stream) {
  if (!stream) return 0;
  const auto misalign = reinterpret_cast<uintptr_t>(dst) % 64;
  const int64_t head = misalign ? static_cast<int64_t>((64 - misalign) / item) : 0;
  return head < n ? head : n;
}

// Streaming stores that only write (no loads between them) stall at every new
// 4 KiB page: a fill into 4 KiB pages measured 1.27x memcpy against 0.83x in
// huge pages. Touching the page two ahead once per page starts its address
// translation early (0.83x in either kind). `step` is the bytes stored per call;
// prefetches never fault, so the page may lie past the end.
CTENSOR_AVX2 inline void prime_page_ahead(const char* dst, int64_t step) {
  constexpr uintptr_t kPage = 4096;
  if ((reinterpret_cast<uintptr_t>(dst) & (kPage - 1)) < static_cast<uintptr_t>(step))
    _mm_prefetch(dst + 2 * kPage, _MM_HINT_T1);
}

// Contiguous source, contiguous destination: a streaming memcpy.
CTENSOR_AVX2 void copy_contiguous(char* dst, const char* src, size_t item, int64_t n, bool stream) {
  const int64_t head = head_elements(dst, item, n, stream);
  std::memcpy(dst, src, static_cast<size_t>(head) * item);
  const int64_t per = 32 / static_cast<int64_t>(item);
  int64_t j = head;
  for (; j + 2 * per <= n; j += 2 * per) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + j * item));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + j * item + 32));
    store32(dst + j * item, a, stream);
    store32(dst + j * item + 32, b, stream);
  }
  std::memcpy(dst + j * item, src + j * item, static_cast<size_t>(n - j) * item);
}

// One element repeated: a 32-byte pattern of whole elements, stored over and over.
CTENSOR_AVX2 void fill(char* dst, const char* value, size_t item, int64_t n, bool stream) {
  alignas(32) char pattern[32];
  for (size_t k = 0; k < 32; k += item) std::memcpy(pattern + k, value, item);
  const __m256i v = _mm256_load_si256(reinterpret_cast<const __m256i*>(pattern));
  const int64_t head = head_elements(dst, item, n, stream);
  int64_t j = 0;
  for (; j < head; ++j) std::memcpy(dst + j * item, value, item);
  const int64_t per = 32 / static_cast<int64_t>(item);
  if (stream) {
    for (; j + per <= n; j += per) {
      prime_page_ahead(dst + j * item, 32);
      store32(dst + j * item, v, true);
    }
  }
  for (; j + per <= n; j += per) store32(dst + j * item, v, false);
  for (; j < n; ++j) std::memcpy(dst + j * item, value, item);
}

// 4-byte elements two apart ([:, ::2]): two loads, keep the even lanes.
CTENSOR_AVX2 void gather4_stride2(char* dst, const char* src, int64_t n, bool stream) {
  const int64_t head = head_elements(dst, 4, n, stream);
  int64_t j = 0;
  for (; j < head; ++j) std::memcpy(dst + 4 * j, src + 8 * j, 4);
  // The vector loads read one element past the 8th pick; stop while a later
  // element still exists so that the read stays inside the source.
  for (; j + 8 < n; j += 8) {
    const __m256 lo = _mm256_loadu_ps(reinterpret_cast<const float*>(src + 8 * j));
    const __m256 hi = _mm256_loadu_ps(reinterpret_cast<const float*>(src + 8 * j + 32));
    const __m256 even = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
    const __m256i ordered = _mm256_permute4x64_epi64(_mm256_castps_si256(even), _MM_SHUFFLE(3, 1, 2, 0));
    store32(dst + 4 * j, ordered, stream);
  }
  for (; j < n; ++j) std::memcpy(dst + 4 * j, src + 8 * j, 4);
}

// 4-byte elements three apart ([:, ::3]): three loads, two blends that leave
// every third element in place and one permute that puts them in order. Each
// step also prefetches 4 KiB ahead while that stays inside the row: the
// hardware's prefetch alone left [8192,8192][::2, ::3] at 1.23-1.35x memcpy
// (Zen 5; 0.87-0.93 of that time with it, 2 KiB and 6 KiB measured around it).
constexpr int64_t kGatherPrefetchBytes = 4096;
CTENSOR_AVX2 void gather4_stride3(char* dst, const char* src, int64_t n, bool stream) {
  const int64_t head = head_elements(dst, 4, n, stream);
  int64_t j = 0;
  for (; j < head; ++j) std::memcpy(dst + 4 * j, src + 12 * j, 4);
  const __m256i order = _mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5);
  // As in gather4_stride2: the loads read two elements past the 8th pick.
  const int64_t prefetch_end = n - 1 - kGatherPrefetchBytes / 12;  // prefetches stay within the elements
  for (; j + 8 < n; j += 8) {
    const float* s = reinterpret_cast<const float*>(src + 12 * j);
    if (j < prefetch_end) _mm_prefetch(reinterpret_cast<const char*>(s) + kGatherPrefetchBytes, _MM_HINT_T0);
    const __m256 a = _mm256_loadu_ps(s), b = _mm256_loadu_ps(s + 8), c = _mm256_loadu_ps(s + 16);
    // lanes 0, 3, 6 from a; 1, 4, 7 from b; 2, 5 from c
    const __m256 ab = _mm256_blend_ps(a, b, 0x92);
    const __m256 abc = _mm256_blend_ps(ab, c, 0x24);
    store32(dst + 4 * j, _mm256_castps_si256(_mm256_permutevar8x32_ps(abc, order)), stream);
  }
  for (; j < n; ++j) std::memcpy(dst + 4 * j, src + 12 * j, 4);
}

// The "traffic" replays of the two gathers above (a measuring tool: see
// "The traffic kinds" below): the same head, loads, prefetches and streamed
// stores, without the shuffles; each store writes the first load as it is.
namespace traffic {
CTENSOR_AVX2 void gather4_stride2(char* dst, const char* src, int64_t n, bool stream) {
  const int64_t head = head_elements(dst, 4, n, stream);
  int64_t j = 0;
  for (; j < head; ++j) std::memcpy(dst + 4 * j, src + 8 * j, 4);
  for (; j + 8 < n; j += 8) {
    __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 8 * j));
    __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + 8 * j + 32));
    asm volatile("" : "+x"(lo), "+x"(hi));  // both loads, in order, though one is not stored
    store32(dst + 4 * j, lo, stream);
  }
  for (; j < n; ++j) std::memcpy(dst + 4 * j, src + 8 * j, 4);
}

CTENSOR_AVX2 void gather4_stride3(char* dst, const char* src, int64_t n, bool stream) {
  const int64_t head = head_elements(dst, 4, n, stream);
  int64_t j = 0;
  for (; j < head; ++j) std::memcpy(dst + 4 * j, src + 12 * j, 4);
  const int64_t prefetch_end = n - 1 - kGatherPrefetchBytes / 12;
  for (; j + 8 < n; j += 8) {
    const char* s = src + 12 * j;
    if (j < prefetch_end) _mm_prefetch(s + kGatherPrefetchBytes, _MM_HINT_T0);
    __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s));
    __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + 32));
    __m256i c = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(s + 64));
    asm volatile("" : "+x"(a), "+x"(b), "+x"(c));  // all three loads, in order, though two are not stored
    store32(dst + 4 * j, a, stream);
  }
  for (; j < n; ++j) std::memcpy(dst + 4 * j, src + 12 * j, 4);
}
}  // namespace traffic

CTENSOR_AVX2 inline int32_t load4(const char* p) {
  int32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
CTENSOR_AVX2 inline int64_t load8(const char* p) {
  int64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Any other source stride: scalar loads assembled into vectors for the stores.
CTENSOR_AVX2 void gather4(char* dst, const char* src, int64_t ss, int64_t n, bool stream) {
  const int64_t head = head_elements(dst, 4, n, stream);
  int64_t j = 0;
  for (; j < head; ++j) std::memcpy(dst + 4 * j, src + ss * j, 4);
  for (; j + 8 <= n; j += 8) {
    const char* s = src + ss * j;
    const __m256i v = _mm256_setr_epi32(load4(s), load4(s + ss), load4(s + 2 * ss), load4(s + 3 * ss),
                                        load4(s + 4 * ss), load4(s + 5 * ss), load4(s + 6 * ss),
                                        load4(s + 7 * ss));
    store32(dst + 4 * j, v, stream);
  }
  for (; j < n; ++j) std::memcpy(dst + 4 * j, src + ss * j, 4);
}

CTENSOR_AVX2 void gather8(char* dst, const char* src, int64_t ss, int64_t n, bool stream) {
  const int64_t head = head_elements(dst, 8, n, stream);
  int64_t j = 0;
  for (; j < head; ++j) std::memcpy(dst + 8 * j, src + ss * j, 8);
  for (; j + 4 <= n; j += 4) {
    const char* s = src + ss * j;
    const __m256i v = _mm256_setr_epi64x(load8(s), load8(s + ss), load8(s + 2 * ss), load8(s + 3 * ss));
    store32(dst + 8 * j, v, stream);
  }
  for (; j < n; ++j) std::memcpy(dst + 8 * j, src + ss * j, 8);
}

// The transposes' last step joins 128-bit halves of two registers: [low a,
// low b] is one insert; [high a, high b] an extract and an insert rather than
// vperm2f128, which takes 8 uops on Zen 1 (one elsewhere, where the extract
// adds a uop per join to kernels bound by memory): [4096,4096].t() 0.78-1.0
// of the time on Zen 1; on Zen 5 the AVX2 transposes measured no change
// (0.94-1.12, within noise).
// The empty asm keeps GCC from folding the pair back into vperm2f128.
CTENSOR_AVX2 inline __m256 low_halves(__m256 a, __m256 b) {
  return _mm256_insertf128_ps(a, _mm256_castps256_ps128(b), 1);
}
CTENSOR_AVX2 inline __m256 high_halves(__m256 a, __m256 b) {
  __m128 high = _mm256_extractf128_ps(a, 1);
  asm("" : "+x"(high));
  return _mm256_insertf128_ps(b, high, 0);
}

// In-register 8x8 transpose of 4-byte lanes: r[k] row k in, column k out.
CTENSOR_AVX2 inline void transpose8x8(__m256* r) {
  const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
  const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
  const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
  const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
  const __m256 s0 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 s1 = _mm256_shuffle_ps(t0, t2, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 s2 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 s3 = _mm256_shuffle_ps(t1, t3, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 s4 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 s5 = _mm256_shuffle_ps(t4, t6, _MM_SHUFFLE(3, 2, 3, 2));
  const __m256 s6 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(1, 0, 1, 0));
  const __m256 s7 = _mm256_shuffle_ps(t5, t7, _MM_SHUFFLE(3, 2, 3, 2));
  r[0] = low_halves(s0, s4);
  r[1] = low_halves(s1, s5);
  r[2] = low_halves(s2, s6);
  r[3] = low_halves(s3, s7);
  r[4] = high_halves(s0, s4);
  r[5] = high_halves(s1, s5);
  r[6] = high_halves(s2, s6);
  r[7] = high_halves(s3, s7);
}

// In-register 4x4 transpose of 8-byte lanes.
CTENSOR_AVX2 inline void transpose4x4(__m256d* r) {
  const __m256d t0 = _mm256_unpacklo_pd(r[0], r[1]), t1 = _mm256_unpackhi_pd(r[0], r[1]);
  const __m256d t2 = _mm256_unpacklo_pd(r[2], r[3]), t3 = _mm256_unpackhi_pd(r[2], r[3]);
  const __m256 u0 = _mm256_castpd_ps(t0), u1 = _mm256_castpd_ps(t1);
  const __m256 u2 = _mm256_castpd_ps(t2), u3 = _mm256_castpd_ps(t3);
  r[0] = _mm256_castps_pd(low_halves(u0, u2));
  r[1] = _mm256_castps_pd(low_halves(u1, u3));
  r[2] = _mm256_castps_pd(high_halves(u0, u2));
  r[3] = _mm256_castps_pd(high_halves(u1, u3));
}

// In-register 16x16 transpose of 2-byte lanes: unpack 16-, 32- and 64-bit
// pairs within 128-bit halves, then swap halves.
CTENSOR_AVX2 inline void transpose16x16(__m256i* r) {
  __m256i a[16], b[16];
  for (int k = 0; k < 8; ++k) {
    a[2 * k] = _mm256_unpacklo_epi16(r[2 * k], r[2 * k + 1]);
    a[2 * k + 1] = _mm256_unpackhi_epi16(r[2 * k], r[2 * k + 1]);
  }
  for (int q = 0; q < 4; ++q) {
    b[4 * q] = _mm256_unpacklo_epi32(a[4 * q], a[4 * q + 2]);
    b[4 * q + 1] = _mm256_unpackhi_epi32(a[4 * q], a[4 * q + 2]);
    b[4 * q + 2] = _mm256_unpacklo_epi32(a[4 * q + 1], a[4 * q + 3]);
    b[4 * q + 3] = _mm256_unpackhi_epi32(a[4 * q + 1], a[4 * q + 3]);
  }
  for (int g = 0; g < 2; ++g)
    for (int j = 0; j < 4; ++j) {
      a[8 * g + 2 * j] = _mm256_unpacklo_epi64(b[8 * g + j], b[8 * g + 4 + j]);
      a[8 * g + 2 * j + 1] = _mm256_unpackhi_epi64(b[8 * g + j], b[8 * g + 4 + j]);
    }
  for (int e = 0; e < 8; ++e) {
    const __m256 x = _mm256_castsi256_ps(a[e]), y = _mm256_castsi256_ps(a[8 + e]);
    r[e] = _mm256_castps_si256(low_halves(x, y));
    r[e + 8] = _mm256_castps_si256(high_halves(x, y));
  }
}

// Transposes. The register kernel reads 32 source rows (4-byte elements: 16;
// 8-byte: 8) and writes 16 destination rows (4-byte elements: 8, or 16 with
// AVX-512 16 x 16 blocks; 8-byte: 4) of one whole 64-byte line each, so streaming
// stores always complete their lines. Destination rows of more than 1 KiB are
// walked in cache blocks of rows by columns (sizes below); shorter ones in
// strips of source rows swept across all destination rows, which reads each
// source row start to end. Both orders were picked by measuring [4096,4096].t(),
// [256]^3.permute(2,0,1) and (1,2,0) and NCHW->NHWC against 16x16 strips,
// square blocks and other block shapes (1.3 to 2x faster than 8x8 blocks with
// half-line stores). 256-byte columns rather than 128 keep destinations in 4 KiB
// pages (malloc'd or NumPy memory) near memcpy speed, at a small cost on huge pages.
// Blocks whose source is one dense run (short source rows) are 512 B of columns:
// each destination row gets twice the bytes per visit of 256 B blocks, and a
// block (128 KiB of source at most) and the next one, prefetched, still fit in a
// 512 KiB L2 ([256]^3.permute(2,0,1) on Zen 1: 0.77-0.95 of the time with 256 B
// blocks in every page mix; 1 KiB blocks, 256 KiB each, measured in between).
constexpr int64_t kShortRowBytes = 1024, kOuterBlockBytes = 4096, kInnerBlockBytes = 256,
                  kShortSourceBlockBytes = 512;
constexpr int64_t kLongStripBytes = int64_t{64} << 10;
// How far ahead along each source row the transposes that read long rows
// prefetch (picked with bench/ab_copies against no prefetch, all four page
// mixes: [4096,4096].t() 4-8% faster with 256 B, [256]^3.permute(1,2,0)
// 15-25% with 512 B; 128 B to 1 KiB were tried for both).
constexpr int64_t kBlockPrefetchBytes = 256, kStripPrefetchBytes = 512;
// A long strip writes 128 B into every destination row of at most 1 KiB, so
// in 4 KiB pages it enters a new page every few rows; touching the pages 64
// rows ahead starts their address translation early, as the fills do
// ([256]^3.permute(1,2,0) into 4 KiB pages: 0.62-0.67 of the time without,
// when that case ran at 2.2-2.6x memcpy; huge pages unchanged within noise).
constexpr int64_t kPrimeRowsAhead = 64;
// Touches the destination rows kPrimeRowsAhead below the `rows` rows from d that
// enter a new 4 KiB page.
CTENSOR_AVX2 inline void prime_rows_ahead(const char* d, int64_t d_outer, int64_t rows) {
  for (int64_t k = 0; k < rows; ++k) {
    const char* ahead = d + (kPrimeRowsAhead + k) * d_outer;
    if ((reinterpret_cast<uintptr_t>(ahead) & 4095) < static_cast<uintptr_t>(d_outer))
      _mm_prefetch(ahead, _MM_HINT_T1);
  }
}
// The ring of a long strip read along a diagonal, from the library's
// allocator rather than a thread's stack. Empty (get() null) when `bytes` is 0
// or memory runs out, and the strip is then read straight down.
class SkewRing {
 public:
  explicit SkewRing(size_t bytes) noexcept : bytes_(bytes) {
    if (bytes == 0) return;
    try {
      data_ = static_cast<char*>(allocate_bytes(bytes, false));
    } catch (...) {  // no ring: the straight walk needs none
    }
  }
  ~SkewRing() {
    if (data_ != nullptr) free_bytes(data_, bytes_);
  }
  SkewRing(const SkewRing&) = delete;
  SkewRing& operator=(const SkewRing&) = delete;
  char* get() const noexcept { return data_; }

 private:
  char* data_ = nullptr;
  size_t bytes_;
};
// 16 pieces of 64 bytes for each of a strip's 128 / item source rows: 32 KiB
// for 4-byte elements, 64 KiB for 2-byte.
constexpr size_t skew_ring_bytes(size_t item) { return 16 * 64 * (128 / item); }

// 16 destination rows x 32 columns of 2-byte elements, as two 16x16 transposes.
CTENSOR_AVX2 inline void transpose_16x32(char* dst, int64_t d_outer, const char* src, int64_t s_inner,
                                         bool stream) {
  __m256i lo[16], hi[16];
  for (int k = 0; k < 16; ++k) lo[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + k * s_inner));
  for (int k = 0; k < 16; ++k)
    hi[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + (k + 16) * s_inner));
  transpose16x16(lo);
  transpose16x16(hi);
  for (int k = 0; k < 16; ++k) {
    store32(dst + k * d_outer, lo[k], stream);
    store32(dst + k * d_outer + 32, hi[k], stream);
  }
}

// 8 destination rows x 16 columns of 4-byte elements, as two 8x8 transposes.
CTENSOR_AVX2 inline void transpose_8x16(char* dst, int64_t d_outer, const char* src, int64_t s_inner,
                                        bool stream) {
  __m256 lo[8], hi[8];
  for (int k = 0; k < 8; ++k) lo[k] = _mm256_loadu_ps(reinterpret_cast<const float*>(src + k * s_inner));
  for (int k = 0; k < 8; ++k) hi[k] = _mm256_loadu_ps(reinterpret_cast<const float*>(src + (k + 8) * s_inner));
  transpose8x8(lo);
  transpose8x8(hi);
  for (int k = 0; k < 8; ++k) {
    store32(dst + k * d_outer, _mm256_castps_si256(lo[k]), stream);
    store32(dst + k * d_outer + 32, _mm256_castps_si256(hi[k]), stream);
  }
}

// 4 destination rows x 8 columns of 8-byte elements, as two 4x4 transposes.
CTENSOR_AVX2 inline void transpose_4x8(char* dst, int64_t d_outer, const char* src, int64_t s_inner,
                                       bool stream) {
  __m256d lo[4], hi[4];
  for (int k = 0; k < 4; ++k) lo[k] = _mm256_loadu_pd(reinterpret_cast<const double*>(src + k * s_inner));
  for (int k = 0; k < 4; ++k) hi[k] = _mm256_loadu_pd(reinterpret_cast<const double*>(src + (k + 4) * s_inner));
  transpose4x4(lo);
  transpose4x4(hi);
  for (int k = 0; k < 4; ++k) {
    store32(dst + k * d_outer, _mm256_castpd_si256(lo[k]), stream);
    store32(dst + k * d_outer + 32, _mm256_castpd_si256(hi[k]), stream);
  }
}

// GCC 12's AVX-512 headers seed unpack and shuffle results with a
// self-initialised "undefined" vector, which -Wuninitialized and
// -Wmaybe-uninitialized report at every use (GCC bug 105593).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

CTENSOR_AVX512 inline void store64(char* p, __m512 v, bool stream) {
  if (stream)
    _mm512_stream_ps(reinterpret_cast<float*>(p), v);
  else
    _mm512_storeu_ps(reinterpret_cast<float*>(p), v);
}

// The in-lane steps of 4 x 4 transposes, for each of `groups` groups of four
// registers: out[4g + c], 128-bit lane l, holds element c of lane l of
// in[4g], in[4g + 1], in[4g + 2], in[4g + 3], in that order.
CTENSOR_AVX512 inline void transpose_lanes4(const __m512* in, __m512* out, int groups) {
  for (int g = 0; g < groups; ++g) {
    const __m512* x = in + 4 * g;
    const __m512 lo01 = _mm512_unpacklo_ps(x[0], x[1]), hi01 = _mm512_unpackhi_ps(x[0], x[1]);
    const __m512 lo23 = _mm512_unpacklo_ps(x[2], x[3]), hi23 = _mm512_unpackhi_ps(x[2], x[3]);
    out[4 * g] = _mm512_shuffle_ps(lo01, lo23, _MM_SHUFFLE(1, 0, 1, 0));
    out[4 * g + 1] = _mm512_shuffle_ps(lo01, lo23, _MM_SHUFFLE(3, 2, 3, 2));
    out[4 * g + 2] = _mm512_shuffle_ps(hi01, hi23, _MM_SHUFFLE(1, 0, 1, 0));
    out[4 * g + 3] = _mm512_shuffle_ps(hi01, hi23, _MM_SHUFFLE(3, 2, 3, 2));
  }
}

// Source rows k and k + 8 (8 floats each) joined into z[k], low and high 256
// bits, by the load itself (vinsertf32x8 from memory).
CTENSOR_AVX512 inline void load_row_pairs(const char* src, int64_t s_inner, __m512* z) {
  for (int k = 0; k < 8; ++k)
    z[k] = _mm512_insertf32x8(
        _mm512_castps256_ps512(_mm256_loadu_ps(reinterpret_cast<const float*>(src + k * s_inner))),
        _mm256_loadu_ps(reinterpret_cast<const float*>(src + (k + 8) * s_inner)), 1);
}

// 8 destination rows x 16 columns of 4-byte elements with one 64-byte store per
// destination line: source rows k and k + 8 share register k (low and high 256
// bits), both halves go through transpose8x8's in-lane steps at once, and one
// two-source permute per line gathers its four 128-bit pieces.
CTENSOR_AVX512 inline void transpose_8x16_wide(char* dst, int64_t d_outer, const char* src, int64_t s_inner,
                                               bool stream) {
  __m512 z[8];
  load_row_pairs(src, s_inner, z);
  // s[4h + c], 128-bit lane l: column 4 (l & 1) + c of rows 4h .. 4h + 3 (+ 8 for l >= 2)
  __m512 s[8];
  transpose_lanes4(z, s, 2);
  const __m512i low_columns = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
  const __m512i high_columns = _mm512_setr_epi32(4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
  for (int c = 0; c < 8; ++c) {
    const __m512 line = _mm512_permutex2var_ps(s[c % 4], c < 4 ? low_columns : high_columns, s[4 + c % 4]);
    store64(dst + c * d_outer, line, stream);
  }
}

// 16 destination rows x 16 columns of 4-byte elements: each source line and
// each destination line moved whole, by one 64-byte load or store.
CTENSOR_AVX512 inline void transpose_16x16_wide(char* dst, int64_t d_outer, const char* src, int64_t s_inner,
                                                bool stream) {
  __m512 z[16], r[16], t[16];
  for (int k = 0; k < 16; ++k) z[k] = _mm512_loadu_ps(reinterpret_cast<const float*>(src + k * s_inner));
  // r[4g + c], 128-bit lane l: column 4l + c of rows 4g .. 4g + 3
  transpose_lanes4(z, r, 4);
  // t[2c + h]: lanes 2h and 2h + 1 of r[c] and r[4 + c]; t[8 + 2c + h]: the same of r[8 + c] and r[12 + c]
  for (int c = 0; c < 4; ++c) {
    t[2 * c] = _mm512_shuffle_f32x4(r[c], r[4 + c], _MM_SHUFFLE(1, 0, 1, 0));
    t[2 * c + 1] = _mm512_shuffle_f32x4(r[c], r[4 + c], _MM_SHUFFLE(3, 2, 3, 2));
    t[8 + 2 * c] = _mm512_shuffle_f32x4(r[8 + c], r[12 + c], _MM_SHUFFLE(1, 0, 1, 0));
    t[8 + 2 * c + 1] = _mm512_shuffle_f32x4(r[8 + c], r[12 + c], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int c = 0; c < 4; ++c) {
    // lines[l]: column 4l + c, lane g from r[4g + c]
    const __m512 lines[4] = {_mm512_shuffle_f32x4(t[2 * c], t[8 + 2 * c], _MM_SHUFFLE(2, 0, 2, 0)),
                             _mm512_shuffle_f32x4(t[2 * c], t[8 + 2 * c], _MM_SHUFFLE(3, 1, 3, 1)),
                             _mm512_shuffle_f32x4(t[2 * c + 1], t[9 + 2 * c], _MM_SHUFFLE(2, 0, 2, 0)),
                             _mm512_shuffle_f32x4(t[2 * c + 1], t[9 + 2 * c], _MM_SHUFFLE(3, 1, 3, 1))};
    for (int l = 0; l < 4; ++l) store64(dst + (4 * l + c) * d_outer, lines[l], stream);
  }
}

// ---- The traffic kinds: a measuring tool, not a copy ----------------------
// CTENSOR_FORCE_COPY_KIND=traffic-<kind> (benchmarks only; nothing else names
// it) runs <kind>'s transpose loops with every register kernel below in place
// of the one of the same name: the same loads (widths, rows, order) and the
// same stores (widths, destination lines, order, streamed or not), storing the
// registers as they were loaded, with no transpose between. Everything around
// the kernels (block and strip order, prefetches, page priming, the skew ring)
// is the same code (copy_transpose_loops.inc). The output is garbage; only the
// time counts: bench_copies --traffic prints it beside the real kernel's, so a
// case over its target is either held back by its memory order (the replay
// alone is over) or by the kernel's compute (the replay is under).
namespace traffic {
// N source rows' 32-byte halves (rows k, then rows k + N) loaded and stored,
// as loaded, to N destination lines: the AVX2 kernels' traffic.
template <int N>
CTENSOR_AVX2 inline void rows_as_loaded(char* dst, int64_t d_outer, const char* src, int64_t s_inner, bool stream) {
  __m256i lo[N], hi[N];
  for (int k = 0; k < N; ++k) lo[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + k * s_inner));
  for (int k = 0; k < N; ++k) hi[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + (k + N) * s_inner));
  for (int k = 0; k < N; ++k) {
    store32(dst + k * d_outer, lo[k], stream);
    store32(dst + k * d_outer + 32, hi[k], stream);
  }
}

CTENSOR_AVX2 inline void transpose_16x32(char* dst, int64_t d_outer, const char* src, int64_t s_inner, bool stream) {
  rows_as_loaded<16>(dst, d_outer, src, s_inner, stream);
}
CTENSOR_AVX2 inline void transpose_8x16(char* dst, int64_t d_outer, const char* src, int64_t s_inner, bool stream) {
  rows_as_loaded<8>(dst, d_outer, src, s_inner, stream);
}
CTENSOR_AVX2 inline void transpose_4x8(char* dst, int64_t d_outer, const char* src, int64_t s_inner, bool stream) {
  rows_as_loaded<4>(dst, d_outer, src, s_inner, stream);
}

// Rows k and k + 8 joined into one register by the load itself (vinsertf32x8
// from memory), as in the kernel; one 64-byte store per destination line.
CTENSOR_AVX512 inline void transpose_8x16_wide(char* dst, int64_t d_outer, const char* src, int64_t s_inner,
                                               bool stream) {
  __m512 z[8];
  load_row_pairs(src, s_inner, z);
  for (int c = 0; c < 8; ++c) store64(dst + c * d_outer, z[c], stream);
}

// The kernel's store order: destination lines 4l + c, c outer.
CTENSOR_AVX512 inline void transpose_16x16_wide(char* dst, int64_t d_outer, const char* src, int64_t s_inner,
                                                bool stream) {
  __m512 z[16];
  for (int k = 0; k < 16; ++k) z[k] = _mm512_loadu_ps(reinterpret_cast<const float*>(src + k * s_inner));
  for (int c = 0; c < 4; ++c)
    for (int l = 0; l < 4; ++l) store64(dst + (4 * l + c) * d_outer, z[4 * l + c], stream);
}
}  // namespace traffic

#pragma GCC diagnostic pop

// Whether every destination line a tile writes starts a 64-byte cache line,
// or the stores are not streaming (which then do not care).
inline bool whole_lines_or_cached(const char* dst, int64_t d_outer, bool stream) {
  return !stream || (reinterpret_cast<uintptr_t>(dst) % 64 == 0 && d_outer % 64 == 0);
}

// Whether tile() walks destination rows of `end_i` elements in strips (else in blocks).
inline bool walks_in_strips(int64_t item_bytes, int64_t end_i) { return end_i * item_bytes <= kShortRowBytes; }

// Clang (the fuzzing and sanitizer builds) has its own spelling of the target pragma.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
namespace avx2 {
constexpr Blocks4 kBlocks4 = Blocks4::avx2;
#include "engine/copy_transpose_loops.inc"
}  // namespace avx2
// The traffic kinds' loops: the same code with the replays of namespace
// traffic in place of the register kernels (the using-declarations hide the
// kernels of the same names).
#define CTENSOR_TRAFFIC_KERNELS                                                                    \
  using traffic::transpose_16x32;                                                                  \
  using traffic::transpose_8x16;                                                                   \
  using traffic::transpose_4x8;                                                                    \
  using traffic::transpose_8x16_wide;                                                              \
  using traffic::transpose_16x16_wide;
namespace traffic_avx2 {
CTENSOR_TRAFFIC_KERNELS
constexpr Blocks4 kBlocks4 = Blocks4::avx2;
#include "engine/copy_transpose_loops.inc"
}  // namespace traffic_avx2
#if defined(__clang__)
#pragma clang attribute pop
#pragma clang attribute push(__attribute__((target("avx2,avx512f,avx512bw,avx512dq,avx512vl"))), apply_to = function)
#else
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx2,avx512f,avx512bw,avx512dq,avx512vl")
#endif
namespace avx512_halves {
constexpr Blocks4 kBlocks4 = Blocks4::halves512;
#include "engine/copy_transpose_loops.inc"
}  // namespace avx512_halves
namespace avx512_lines {
constexpr Blocks4 kBlocks4 = Blocks4::lines512;
#include "engine/copy_transpose_loops.inc"
}  // namespace avx512_lines
namespace traffic_avx512_halves {
CTENSOR_TRAFFIC_KERNELS
constexpr Blocks4 kBlocks4 = Blocks4::halves512;
#include "engine/copy_transpose_loops.inc"
}  // namespace traffic_avx512_halves
namespace traffic_avx512_lines {
CTENSOR_TRAFFIC_KERNELS
constexpr Blocks4 kBlocks4 = Blocks4::lines512;
#include "engine/copy_transpose_loops.inc"
}  // namespace traffic_avx512_lines
#undef CTENSOR_TRAFFIC_KERNELS
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

// The kind of transpose blocks CTENSOR_FORCE_COPY_KIND names (see copy_tile),
// and whether it asks for that kind's traffic replay ("traffic-<kind>").
struct CopyKind {
  Blocks4 blocks;
  bool traffic;
};

// The AVX-512 blocks of 4-byte elements are measured per vendor, one thread,
// both build orders:
// - AMD (Zen 5): 16 x 16 in blocks and strips. Against 8 x 16 blocks and AVX2
//   strips: [4096,4096].t() 0.92-0.94 of the time in the four page mixes,
//   [256]^3.permute(1,2,0) 0.86-0.99, (2,0,1) 0.93-1.0.
// - Elsewhere (the Intel Xeon measured): 8 x 16 blocks ([4096,4096].t()
//   0.82-0.90 of AVX2's time, [256]^3.permute(2,0,1) unchanged), AVX2 strips;
//   there 16 x 16 made [256]^3.permute(1,2,0) into huge pages 1.12-1.13x
//   slower and gained nothing on [4096,4096].t(), and the 8 x 16 block in the
//   strips measured 0.9-1.03.
//
// CTENSOR_FORCE_COPY_KIND (a benchmark and testing knob, read once) overrides
// the vendor's choice: "avx2", "avx512-halves" (Intel's) or "avx512-lines"
// (AMD's), so that one machine measures the other vendor's path. Prefixed with
// "traffic-" (benchmarks only: the output is garbage), it also replaces the
// transposes' register kernels and the [:, ::2] and [:, ::3] gathers with
// their memory traffic alone (the replays in namespace traffic). Any other
// value is ignored. AVX-512 blocks still need a CPU with AVX-512.
CopyKind chosen_kind() noexcept {
  if (const char* kind = std::getenv("CTENSOR_FORCE_COPY_KIND")) {
    const bool traffic = std::strncmp(kind, "traffic-", 8) == 0;
    const char* name = traffic ? kind + 8 : kind;
    if (std::strcmp(name, "avx2") == 0) return {Blocks4::avx2, traffic};
    if (std::strcmp(name, "avx512-halves") == 0) return {Blocks4::halves512, traffic};
    if (std::strcmp(name, "avx512-lines") == 0) return {Blocks4::lines512, traffic};
  }
  return {cpu_is_amd() ? Blocks4::lines512 : Blocks4::halves512, false};
}

const CopyKind& copy_kind() noexcept {
  static const CopyKind kind = chosen_kind();
  return kind;
}

TileDone tile_of_kind(Blocks4 wide_blocks, bool traffic, size_t item, char* dst, int64_t d_outer,
                      int64_t d_inner, const char* src, int64_t s_outer, int64_t s_inner, int64_t n_outer,
                      int64_t n_inner, bool stream) noexcept {
  const auto item_bytes = static_cast<int64_t>(item);
  if (!cpu_has_avx2() || (item != 2 && item != 4 && item != 8) || d_inner != item_bytes ||
      s_outer != item_bytes)
    return {0, 0};
  // Streaming stores need every destination line of a block 32-byte aligned.
  if (reinterpret_cast<uintptr_t>(dst) % 32 != 0 || d_outer % 32 != 0) stream = false;
  const int64_t step_o = 32 / item_bytes, step_i = 64 / item_bytes;
  const TileDone done{n_outer - n_outer % step_o, n_inner - n_inner % step_i};
  if (done.outer == 0 || done.inner == 0) return done;
  const bool wide = item == 4 && wide_blocks != Blocks4::avx2 && cpu_has_avx512() &&
                    whole_lines_or_cached(dst, d_outer, stream);
  const int64_t o = done.outer, i = done.inner;
  if (wide && wide_blocks == Blocks4::lines512)
    traffic ? traffic_avx512_lines::tile(item, dst, d_outer, src, s_inner, o, i, stream)
            : avx512_lines::tile(item, dst, d_outer, src, s_inner, o, i, stream);
  else if (wide && !walks_in_strips(item_bytes, done.inner))
    traffic ? traffic_avx512_halves::tile(item, dst, d_outer, src, s_inner, o, i, stream)
            : avx512_halves::tile(item, dst, d_outer, src, s_inner, o, i, stream);
  else
    traffic ? traffic_avx2::tile(item, dst, d_outer, src, s_inner, o, i, stream)
            : avx2::tile(item, dst, d_outer, src, s_inner, o, i, stream);
  return done;
}

}  // namespace

bool copy_run(size_t item, char* dst, int64_t ds, const char* src, int64_t ss, int64_t n,
              bool stream) noexcept {
  const auto item_bytes = static_cast<int64_t>(item);
  if (!cpu_has_avx2() || ds != item_bytes || n < 8) return false;
  // Streaming needs whole elements up to a line boundary.
  if (reinterpret_cast<uintptr_t>(dst) % item != 0) stream = false;
  if (ss == item_bytes) {
    if (!stream) return false;  // memcpy does as well from cache
    copy_contiguous(dst, src, item, n, stream);
  } else if (ss == 0) {
    fill(dst, src, item, n, stream);
  } else if (item == 4 && ss == 8) {
    (copy_kind().traffic ? traffic::gather4_stride2 : gather4_stride2)(dst, src, n, stream);
  } else if (item == 4 && ss == 12) {
    (copy_kind().traffic ? traffic::gather4_stride3 : gather4_stride3)(dst, src, n, stream);
  } else if (item == 4) {
    gather4(dst, src, ss, n, stream);
  } else if (item == 8) {
    gather8(dst, src, ss, n, stream);
  } else {
    return false;
  }
  return true;
}

TileDone copy_tile_with(Blocks4 wide_blocks, size_t item, char* dst, int64_t d_outer, int64_t d_inner,
                        const char* src, int64_t s_outer, int64_t s_inner, int64_t n_outer, int64_t n_inner,
                        bool stream) noexcept {
  return tile_of_kind(wide_blocks, false, item, dst, d_outer, d_inner, src, s_outer, s_inner, n_outer, n_inner,
                      stream);
}

TileDone copy_tile(size_t item, char* dst, int64_t d_outer, int64_t d_inner, const char* src,
                   int64_t s_outer, int64_t s_inner, int64_t n_outer, int64_t n_inner, bool stream) noexcept {
  const CopyKind& kind = copy_kind();
  return tile_of_kind(kind.blocks, kind.traffic, item, dst, d_outer, d_inner, src, s_outer, s_inner, n_outer,
                      n_inner, stream);
}

bool can_stream() noexcept { return cpu_has_avx2(); }

void fence() noexcept { _mm_sfence(); }

}  // namespace ctensor::core::simd

#else

namespace ctensor::core::simd {

bool copy_run(size_t, char*, int64_t, const char*, int64_t, int64_t, bool) noexcept { return false; }
TileDone copy_tile(size_t, char*, int64_t, int64_t, const char*, int64_t, int64_t, int64_t, int64_t,
                   bool) noexcept {
  return {0, 0};
}
TileDone copy_tile_with(Blocks4, size_t, char*, int64_t, int64_t, const char*, int64_t, int64_t, int64_t,
                        int64_t, bool) noexcept {
  return {0, 0};
}
bool can_stream() noexcept { return false; }
void fence() noexcept {}

}  // namespace ctensor::core::simd

#endif
