// The element-wise ops' instruction-set forms against the baseline kernels,
// for every set this CPU runs (not only the widest, which the library picks):
// the binary loops of ops/binary_avx2.cpp and ops/binary_avx512.cpp (bits
// equal, dense, reversed, number and strided operands), the unary maps of
// ops/unary_avx2.cpp and ops/unary_avx512.cpp (exact where the op is exact,
// else within PyTorch's default float tolerances) and clamp's maps (bits
// equal), plain and streamed, over random values with NaNs, infinities,
// signed zeros and subnormals, at every length up to a few vectors and
// misaligned by an element.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "cpu.hpp"
#include "engine/copy_simd.hpp"
#include "ops/binary_kernels.hpp"
#include "ops/unary.hpp"
#include "ops/unary_kernels.hpp"
#include "ops/unary_vec.hpp"

using namespace ctensor::core;

namespace {

int failures = 0, checked = 0;

template <class... A>
void fail(const char* format, A... args) {
  if (++failures > 20) return;  // the first ones say enough
  std::fprintf(stderr, "FAILED: ");
  std::fprintf(stderr, format, args...);
  std::fputc('\n', stderr);
}

struct Isa {
  const char* name;
  const BinaryLoop (*binary)[kNumBinaryVectorTypes];
  const UnaryMaps* unary;
  const ClampMaps* clamp;
};

// Values of T: random over a few scales, with the specials of each kind.
template <class T>
std::vector<T> values(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  if constexpr (std::is_floating_point_v<T>) {
    using L = std::numeric_limits<T>;
    const T specials[] = {T(0), -T(0), L::infinity(), -L::infinity(), L::quiet_NaN(), L::denorm_min(),
                          -L::denorm_min(), L::min(), L::max(), -L::max(), T(1), T(-1), T(0.5), T(-0.5)};
    std::uniform_real_distribution<double> unit(-1, 1);
    for (size_t i = 0; i < n; ++i) {
      const uint64_t pick = rng() % 8;
      v[i] = pick == 0 ? specials[rng() % (sizeof specials / sizeof specials[0])]
             : pick < 4 ? static_cast<T>(unit(rng))
             : pick < 7 ? static_cast<T>(unit(rng) * 30)
                        : static_cast<T>(unit(rng) * 1e6);
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      const uint64_t r = rng();
      v[i] = (r & 3) == 0 ? static_cast<T>(r >> 60) : static_cast<T>(r >> 8);  // small ones, and any bits
    }
  }
  return v;
}

template <class T>
bool same_bits(T a, T b) {
  if constexpr (std::is_floating_point_v<T>)
    if (std::isnan(a) && std::isnan(b)) return true;
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// ---- binary ---------------------------------------------------------------

template <BinaryOp Op, class T>
void check_binary(const Isa& isa, int op_index) {
  if constexpr (kVectorLoop<Op, T>) {
    using R = std::conditional_t<is_comparison(Op), bool, T>;
    using Cell = std::conditional_t<is_comparison(Op), unsigned char, T>;  // a bool's byte (no vector<bool>)
    const BinaryLoop loop = isa.binary[op_index][binary_vector_column<T>()];
    if (!loop) return fail("%s: no binary loop for op %d, column %d", isa.name, op_index, binary_vector_column<T>());
    constexpr int64_t t = sizeof(T), r = sizeof(R);
    const int64_t n = 203;
    const std::vector<T> a = values<T>(n, 1), b = values<T>(n, 2);
    // Layouts as the iterator hands them to loops: dense, both reversed, b a
    // number, strided (every other element).
    struct Layout {
      const char* name;
      int64_t sa, sb, count;
    };
    for (const Layout& l : {Layout{"dense", t, t, n}, Layout{"reversed", -t, -t, n}, Layout{"number b", t, 0, n},
                            Layout{"strided", 2 * t, 2 * t, n / 2}}) {
      for (int64_t m = 0; m <= l.count; m += (m < 40 ? 1 : 37)) {
        std::vector<Cell> got(static_cast<size_t>(m)), want(static_cast<size_t>(m));
        const char* pa = reinterpret_cast<const char*>(a.data()) + (l.sa < 0 ? (m - 1) * -l.sa : 0);
        const char* pb = reinterpret_cast<const char*>(b.data()) + (l.sb < 0 ? (m - 1) * -l.sb : 0);
        char* data[3] = {reinterpret_cast<char*>(got.data()), const_cast<char*>(pa), const_cast<char*>(pb)};
        const int64_t s[3] = {r, l.sa, l.sb};
        if (m > 0) loop(data, s, m);
        for (int64_t i = 0; i < m; ++i) {
          T x, y;
          std::memcpy(&x, pa + i * l.sa, sizeof x);
          std::memcpy(&y, pb + i * l.sb, sizeof y);
          want[static_cast<size_t>(i)] = static_cast<Cell>(static_cast<R>(apply<Op, T>(x, y)));
        }
        ++checked;
        for (int64_t i = 0; i < m; ++i)
          if (!same_bits(got[static_cast<size_t>(i)], want[static_cast<size_t>(i)]))
            return fail("%s: binary %s on %zu-byte %s, %s, %lld elements: element %lld differs", isa.name,
                        binary_op_name(Op), sizeof(T), std::is_floating_point_v<T> ? "floats" : "integers", l.name,
                        static_cast<long long>(m), static_cast<long long>(i));
      }
    }
  }
}

template <class T>
void check_binary_type(const Isa& isa) {
#define CTENSOR_CHECK_BINARY(Enum, name) check_binary<BinaryOp::Enum, T>(isa, static_cast<int>(BinaryOp::Enum));
  CTENSOR_BINARY_OPS(CTENSOR_CHECK_BINARY)
#undef CTENSOR_CHECK_BINARY
}

void check_binary_all(const Isa& isa) {
#define CTENSOR_CHECK_BINARY_TYPE(arg, T) check_binary_type<T>(isa);
  CTENSOR_BINARY_VECTOR_TYPES(CTENSOR_CHECK_BINARY_TYPE, )
#undef CTENSOR_CHECK_BINARY_TYPE
}

// ---- unary ----------------------------------------------------------------

// The ops whose vector forms compute exactly what the scalar kernel does (IEEE
// operations, roundings, sign bits); the others (SLEEF's functions and the
// formulas over them) are held to PyTorch's default tolerances.
constexpr bool exact_unary(UnaryOp op) {
  switch (op) {
    case UnaryOp::Neg: case UnaryOp::Abs: case UnaryOp::Sqrt: case UnaryOp::Floor: case UnaryOp::Ceil:
    case UnaryOp::Round: case UnaryOp::Trunc: case UnaryOp::Frac: case UnaryOp::Reciprocal: case UnaryOp::Square:
    case UnaryOp::Relu:
      return true;
    default:
      return false;
  }
}

template <class T>
bool close(T got, T want, bool exact) {
  if (same_bits(got, want)) return true;
  if (exact || std::isnan(got) || std::isnan(want) || std::isinf(got) || std::isinf(want)) return false;
  const double rtol = std::is_same_v<T, float> ? 1.3e-6 : 1e-7, atol = std::is_same_v<T, float> ? 1e-5 : 1e-7;
  return std::fabs(double(got) - double(want)) <= atol + rtol * std::fabs(double(want));
}

template <UnaryOp Op, class T>
void check_unary(const Isa& isa) {
  if constexpr (UnaryVec<Op>::kHas) {
    const UnaryMaps& maps = isa.unary[static_cast<int>(Op)];
    const bool f32 = std::is_same_v<T, float>;
    const UnaryMap forms[2] = {f32 ? maps.f32 : maps.f64, f32 ? maps.f32_streamed : maps.f64_streamed};
    const int64_t n = 261;
    const std::vector<T> x = values<T>(n + 1, 3);
    for (int streamed = 0; streamed < 2; ++streamed) {
      if (!forms[streamed]) return fail("%s: no map for unary %s", isa.name, unary_op_name(Op));
      for (int64_t m = 0; m <= n; m += (m < 40 ? 1 : 37)) {
        for (int64_t shift = 0; shift < 2; ++shift) {  // the output on and off a vector boundary
          std::vector<T> got(static_cast<size_t>(n + 1));
          forms[streamed](x.data(), got.data() + shift, m);
          simd::fence();
          ++checked;
          for (int64_t i = 0; i < m; ++i) {
            const T want = static_cast<T>(UnaryKernel<Op>::apply(x[static_cast<size_t>(i)]));
            if (!close(got[static_cast<size_t>(i + shift)], want, exact_unary(Op)))
              return fail("%s: unary %s (%s, %s) of %.17g gives %.17g, the scalar kernel %.17g", isa.name,
                          unary_op_name(Op), f32 ? "float" : "double", streamed ? "streamed" : "plain",
                          double(x[static_cast<size_t>(i)]), double(got[static_cast<size_t>(i + shift)]),
                          double(want));
          }
        }
      }
    }
  }
}

void check_unary_all(const Isa& isa) {
#define CTENSOR_CHECK_UNARY(Enum, name, NAME, rule, refused) \
  check_unary<UnaryOp::Enum, float>(isa);                    \
  check_unary<UnaryOp::Enum, double>(isa);
  CTENSOR_UNARY_OPS(CTENSOR_CHECK_UNARY)
#undef CTENSOR_CHECK_UNARY
}

// ---- clamp ----------------------------------------------------------------

template <class T>
void check_clamp(const Isa& isa) {
  const bool f32 = std::is_same_v<T, float>;
  const ClampMap forms[2] = {f32 ? isa.clamp->f32 : isa.clamp->f64,
                             f32 ? isa.clamp->f32_streamed : isa.clamp->f64_streamed};
  const double inf = std::numeric_limits<double>::infinity();
  const double bounds[][2] = {{-1, 1}, {2, -2}, {-inf, 0.5}, {-0.25, inf}, {0.0, inf}, {-0.0, inf},
                              {-inf, 0.0}, {-inf, -0.0}, {-0.0, 0.0}, {-inf, inf}};
  const int64_t n = 261;
  const std::vector<T> x = values<T>(n, 4);
  for (int streamed = 0; streamed < 2; ++streamed)
    for (const auto& b : bounds)
      for (int64_t m = 0; m <= n; m += (m < 40 ? 1 : 37)) {
        std::vector<T> got(static_cast<size_t>(n + 1));
        forms[streamed](x.data(), got.data() + 1, m, b[0], b[1]);
        simd::fence();
        ++checked;
        const T lo = static_cast<T>(b[0]), hi = static_cast<T>(b[1]);
        for (int64_t i = 0; i < m; ++i) {
          T want = x[static_cast<size_t>(i)];
          want = want < lo ? lo : want;  // ops/clamp_where.cpp's clamp_one
          want = hi < want ? hi : want;
          if (!same_bits(got[static_cast<size_t>(i + 1)], want))
            return fail("%s: clamp (%s, %s) of %.17g to [%g, %g] gives %.17g, want %.17g", isa.name,
                        f32 ? "float" : "double", streamed ? "streamed" : "plain", double(x[static_cast<size_t>(i)]),
                        b[0], b[1], double(got[static_cast<size_t>(i + 1)]), double(want));
        }
      }
}

}  // namespace

int main() {
  std::vector<Isa> sets;
#if defined(CTENSOR_BINARY_SIMD)
  const UnaryMaps* unary2 = nullptr;
  const UnaryMaps* unary512 = nullptr;
  const ClampMaps* clamp2 = nullptr;
  const ClampMaps* clamp512 = nullptr;
#if defined(CTENSOR_UNARY_SIMD)
  unary2 = kUnaryAvx2;
  unary512 = kUnaryAvx512;
  clamp2 = &kClampAvx2;
  clamp512 = &kClampAvx512;
#endif
  if (cpu_has_avx2()) sets.push_back({"AVX2", kBinaryAvx2, unary2, clamp2});
  if (cpu_has_avx512()) sets.push_back({"AVX-512", kBinaryAvx512, unary512, clamp512});
#endif
  for (const Isa& isa : sets) {
    check_binary_all(isa);
    if (isa.unary) check_unary_all(isa);
    if (isa.clamp) {
      check_clamp<float>(isa);
      check_clamp<double>(isa);
    }
    std::printf("%s: binary loops%s checked\n", isa.name, isa.unary ? ", unary and clamp maps" : " (no SLEEF build)");
  }
  if (sets.empty()) std::printf("no vector forms on this CPU or build: nothing to compare\n");
  std::printf("%d comparisons, %d failures\n", checked, failures);
  return failures ? 1 : 0;
}
