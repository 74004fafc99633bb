// The vector kernels (when this CPU has them) give the same bits as the portable
// ones for every dtype pair and both conversion policies, on random bytes (NaN payloads, subnormals and
// out-of-range values included) and lengths around the vector widths.
#include <cstdio>
#include <cstring>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif
#include <random>
#include <vector>

#include "dtype/cast_rules.hpp"
#include "dtype/cast_simd.hpp"

using namespace ctensor::core;

namespace {

// The vector and portable tables of one policy agree; returns the failures.
int compare_tables(const CastTable& portable, const CastTable& simd, const char* policy, std::mt19937_64& rng) {
  int failures = 0;
  for (int64_t n : {1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 33, 513, 1027, 4099}) {
    for (int i = 0; i < kNumCastDTypes; ++i) {
      for (int j = 0; j < kNumCastDTypes; ++j) {
        const size_t from = dtype_size(kCastDTypes[i]), to = dtype_size(kCastDTypes[j]);
        std::vector<char> src(static_cast<size_t>(n) * from);
        for (char& c : src) c = static_cast<char>(rng());
        std::vector<char> want(static_cast<size_t>(n) * to), got(want.size());
        const int k = i * kNumCastDTypes + j;
        portable[k](src.data(), static_cast<int64_t>(from), want.data(),
                    static_cast<int64_t>(to), n);
        simd[k](src.data(), static_cast<int64_t>(from), got.data(),
                static_cast<int64_t>(to), n);
        if (std::memcmp(want.data(), got.data(), want.size()) != 0) {
          std::printf("%s, %s -> %s, n=%lld: vector and portable kernels differ\n", policy,
                      dtype_info(kCastDTypes[i])->name, dtype_info(kCastDTypes[j])->name,
                      static_cast<long long>(n));
          ++failures;
        }
      }
    }
  }
  return failures;
}

// A streaming kernel against the portable one on random bytes, at every
// destination offset within a line; returns the failures.
int compare_streamed(CastKernel portable, StreamCastKernel stream, int i, int j, std::mt19937_64& rng) {
  int failures = 0;
  const size_t from = dtype_size(kCastDTypes[i]), to = dtype_size(kCastDTypes[j]);
  for (int64_t n : {1, 7, 16, 31, 33, 64, 100, 1027, 4099}) {
    for (size_t offset = 0; offset < 64; offset += to) {
      std::vector<char> src(static_cast<size_t>(n) * from);
      for (char& c : src) c = static_cast<char>(rng());
      std::vector<char> want(static_cast<size_t>(n) * to);
      portable(src.data(), static_cast<int64_t>(from), want.data(), static_cast<int64_t>(to), n);
      alignas(64) static char out[4099 * 8 + 192];
      std::memset(out, 0x5a, sizeof out);
      if (stream(src.data(), static_cast<int64_t>(from) + 1, out + 64 + offset, n) ||
          !stream(src.data(), static_cast<int64_t>(from), out + 64 + offset, n) ||
          std::memcmp(want.data(), out + 64 + offset, want.size()) != 0 || out[63 + offset] != 0x5a ||
          out[64 + offset + want.size()] != 0x5a) {
        std::printf("%s -> %s, n=%lld, offset %zu: streaming and portable kernels differ\n",
                    dtype_info(kCastDTypes[i])->name, dtype_info(kCastDTypes[j])->name, static_cast<long long>(n),
                    offset);
        ++failures;
      }
    }
  }
  return failures;
}

// Every float's top 16 bits with low halves at the rounding edges (0, 1,
// 0x7fff, 0x8000, 0x8001, 0xffff, ...), in order, so that whole lines hold
// only normal numbers, only subnormals, infinities or NaNs: each float32 ->
// bfloat16 kernel against float_to_bfloat16. Returns the failures.
int float_to_bfloat16_sweep(StreamCastKernel stream, int kind) {
  const uint32_t lows[] = {0x0000, 0x0001, 0x3fff, 0x7fff, 0x8000, 0x8001, 0xc000, 0xffff};
  constexpr size_t kLows = sizeof lows / sizeof lows[0];
  std::vector<uint32_t> src(size_t{1} << 16 << 3);
  for (size_t k = 0; k < src.size(); ++k) src[k] = static_cast<uint32_t>(k / kLows) << 16 | lows[k % kLows];
  alignas(64) static uint16_t out[size_t{1} << 16 << 3];
  const auto n = static_cast<int64_t>(src.size());
  stream(reinterpret_cast<const char*>(src.data()), 4, reinterpret_cast<char*>(out), n);
  for (size_t k = 0; k < src.size(); ++k) {
    float f;
    std::memcpy(&f, &src[k], 4);
    if (out[k] != float_to_bfloat16(f)) {
      std::printf("float32 -> bfloat16 kernel %d: 0x%08x gave 0x%04x, want 0x%04x\n", kind,
                  static_cast<unsigned>(src[k]), out[k], float_to_bfloat16(f));
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main() {
  const CastTable* simd = simd_cast_table(Conversion::Library);
  if (!simd) {
    std::puts("no vector kernels on this CPU: nothing to compare");
    return 77;  // Meson's "skipped"
  }
  constexpr CastTable portable = make_cast_table<PortableKernel, LibraryRules>();
  constexpr CastTable portable_torch_x86 = make_cast_table<PortableKernel, TorchX86Rules>();
  std::mt19937_64 rng(42);
  int failures = compare_tables(portable, *simd, "library", rng);
  failures += compare_tables(portable_torch_x86, *simd_cast_table(Conversion::TorchX86), "torch_x86", rng);
  // The streaming variants (large outputs): same bits, at every destination
  // offset within a line, and no bytes written outside [0, n).
  int streamed = 0;
  for (int i = 0; i < kNumCastDTypes; ++i) {
    for (int j = 0; j < kNumCastDTypes; ++j) {
      const StreamCastKernel stream = simd_stream_cast(kCastDTypes[i], kCastDTypes[j]);
      if (!stream) continue;
      ++streamed;
      failures += compare_streamed(portable[i * kNumCastDTypes + j], stream, i, j, rng);
    }
  }
  // Each float32 -> bfloat16 kernel of this CPU, whichever the default is.
  StreamCastKernel to_bfloat16[3];
  const int kinds = simd_stream_float_to_bfloat16_kernels(to_bfloat16);
  const int f32 = cast_index(dtype::Float32), bf16 = cast_index(dtype::BFloat16);
  for (int k = 0; k < kinds; ++k) {
    failures += compare_streamed(portable[f32 * kNumCastDTypes + bf16], to_bfloat16[k], f32, bf16, rng);
    failures += float_to_bfloat16_sweep(to_bfloat16[k], k);
  }
#if defined(__x86_64__) || defined(__i386__)
  _mm_sfence();
#endif
  if (streamed != 5) {
    std::printf("expected 5 streaming kernels, found %d\n", streamed);
    ++failures;
  }
  return failures == 0 ? 0 : 1;
}
