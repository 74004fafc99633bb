// What the CPU running the library can execute: kernels compiled for more than
// baseline x86-64 (functions with __attribute__((target(...)))) are chosen at
// run time with these, so the library still runs on any x86-64.
#pragma once

namespace ctensor::core {

#if defined(__x86_64__)
// AVX2 (the builtin also checks that the OS saves the ymm state). Initialises
// the builtin first: a kernel may run before libgcc's constructor (from another one).
inline bool cpu_has_avx2() noexcept {
  static const bool has = (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));
  return has;
}

// AVX-512 F, BW, DQ and VL, the set the copy engine's AVX-512 kernels use.
inline bool cpu_has_avx512() noexcept {
  static const bool has = (__builtin_cpu_init(), __builtin_cpu_supports("avx512f")) &&
                          __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                          __builtin_cpu_supports("avx512vl");
  return has;
}

// An AMD CPU: a few kernels pick between variants measured per vendor.
inline bool cpu_is_amd() noexcept {
  static const bool is = (__builtin_cpu_init(), __builtin_cpu_is("amd"));
  return is;
}
#endif

}  // namespace ctensor::core
