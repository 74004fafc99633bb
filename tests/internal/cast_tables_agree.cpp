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
      const int k = i * kNumCastDTypes + j;
      const StreamCastKernel stream = simd_stream_cast(kCastDTypes[i], kCastDTypes[j]);
      if (!stream) continue;
      ++streamed;
      const size_t from = dtype_size(kCastDTypes[i]), to = dtype_size(kCastDTypes[j]);
      for (int64_t n : {1, 7, 16, 31, 33, 64, 100, 1027, 4099}) {
        for (size_t offset = 0; offset < 64; offset += to) {
          std::vector<char> src(static_cast<size_t>(n) * from);
          for (char& c : src) c = static_cast<char>(rng());
          std::vector<char> want(static_cast<size_t>(n) * to);
          portable[k](src.data(), static_cast<int64_t>(from), want.data(), static_cast<int64_t>(to), n);
          alignas(64) static char out[4099 * 8 + 192];
          std::memset(out, 0x5a, sizeof out);
          if (stream(src.data(), static_cast<int64_t>(from) + 1, out + 64 + offset, n) ||
              !stream(src.data(), static_cast<int64_t>(from), out + 64 + offset, n) ||
              std::memcmp(want.data(), out + 64 + offset, want.size()) != 0 || out[63 + offset] != 0x5a ||
              out[64 + offset + want.size()] != 0x5a) {
            std::printf("%s -> %s, n=%lld, offset %zu: streaming and portable kernels differ\n",
                        dtype_info(kCastDTypes[i])->name, dtype_info(kCastDTypes[j])->name,
                        static_cast<long long>(n), offset);
            ++failures;
          }
        }
      }
    }
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
