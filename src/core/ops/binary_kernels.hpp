// The binary ops' element functions and inner loop, written once and compiled
// twice over: in ops/binary.cpp for every dtype on baseline x86-64, and in the
// instruction-set files (ops/binary_avx2.cpp, ops/binary_avx512.cpp, each
// compiled with its own flags) for the plain numbers, whose loops the compiler
// vectorises there with wider registers; ops/binary.cpp picks the widest that
// the CPU runs (cpu.hpp), as ops/unary.cpp does for the unary ops.
//
// Everything here has internal linkage (an unnamed namespace), and the
// instruction-set files instantiate nothing from elsewhere (no element access
// of ops/elements.hpp, no std:: function): no inline function compiled for a
// wider instruction set can stand in for the baseline one at link time.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "ops/binary.hpp"
#include "ops/elements.hpp"

namespace ctensor::core {

// n elements of a binary op over byte strides s[0] (output), s[1], s[2]
// (inputs); the instruction-set files' loops.
using BinaryLoop = void (*)(char** data, const int64_t* s, int64_t n);

// The dtypes with loops in the instruction-set files, in the order of their
// tables' columns (kBinaryAvx2[op][column]).
// (X(arg, T) for each, so that a table's row can pass its op along.)
#define CTENSOR_BINARY_VECTOR_TYPES(X, arg)                                                                   \
  X(arg, uint8_t) X(arg, int8_t) X(arg, int16_t) X(arg, int32_t) X(arg, int64_t) X(arg, uint16_t) X(arg, uint32_t) \
  X(arg, uint64_t) X(arg, float) X(arg, double)
constexpr int kNumBinaryVectorTypes = 10;

// T's column in those tables, or -1.
template <class T>
constexpr int binary_vector_column() noexcept {
  int column = -1, k = 0;
#define CTENSOR_BINARY_COLUMN(arg, U) column = std::is_same_v<T, U> ? k : column, ++k;
  CTENSOR_BINARY_VECTOR_TYPES(CTENSOR_BINARY_COLUMN, )
#undef CTENSOR_BINARY_COLUMN
  return column;
}

// Indexed [op][column]; null where the op has no such loop (pow, integer div).
extern const BinaryLoop kBinaryAvx2[kNumBinaryOps][kNumBinaryVectorTypes];
extern const BinaryLoop kBinaryAvx512[kNumBinaryOps][kNumBinaryVectorTypes];

constexpr bool is_comparison(BinaryOp op) noexcept { return op >= BinaryOp::Eq; }

// Whether the instruction-set files have a loop of op for storage type T.
template <BinaryOp Op, class T>
constexpr bool kVectorLoop = std::is_arithmetic_v<T> && !std::is_same_v<T, bool> && Op != BinaryOp::Pow &&
                             !(Op == BinaryOp::Div && std::is_integral_v<T>);

namespace {

template <class C>
constexpr bool is_std_complex = false;
template <class T>
constexpr bool is_std_complex<std::complex<T>> = true;

// a op b for integers in two's complement (wrapping, as PyTorch's results are
// on every platform it runs on), computed in elements.hpp's unsigned type.
template <class C, class F>
C wrapping(C a, C b, F op) noexcept {
  using U = wide_unsigned_t<C>;
  return static_cast<C>(op(static_cast<U>(a), static_cast<U>(b)));
}

// PyTorch's powi: integer powers by squaring (wrapping); a negative exponent
// gives 1 for base 1, +-1 for base -1 and 0 otherwise.
template <class T>
T integer_pow(T base, T exp) noexcept {
  if constexpr (std::is_signed_v<T>) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp % 2) != 0 ? T(-1) : T(1);
      return 0;
    }
  }
  T result = 1;
  const auto mul = [](auto x, auto y) { return x * y; };
  while (exp != 0) {
    if (exp & 1) result = wrapping(result, base, mul);
    exp /= 2;
    base = wrapping(base, base, mul);
  }
  return result;
}

template <class C>
bool is_nan(C x) noexcept {
  if constexpr (std::is_floating_point_v<C>) return x != x;
  return false;
}

// op on compute-type values (ops/elements.hpp's compute_t).
template <BinaryOp Op, class C>
inline auto apply(C a, C b) noexcept {
  if constexpr (Op == BinaryOp::Add) {
    if constexpr (std::is_same_v<C, bool>) return a || b;
    else if constexpr (std::is_integral_v<C>) return wrapping(a, b, [](auto x, auto y) { return x + y; });
    else return a + b;
  } else if constexpr (Op == BinaryOp::Sub) {
    if constexpr (std::is_integral_v<C>) return wrapping(a, b, [](auto x, auto y) { return x - y; });
    else return a - b;
  } else if constexpr (Op == BinaryOp::Mul) {
    if constexpr (std::is_same_v<C, bool>) return a && b;
    else if constexpr (std::is_integral_v<C>) return wrapping(a, b, [](auto x, auto y) { return x * y; });
    else return a * b;
  } else if constexpr (Op == BinaryOp::Div) {
    return a / b;
  } else if constexpr (Op == BinaryOp::Pow) {
    if constexpr (std::is_integral_v<C>) {
      return integer_pow(a, b);
    } else if constexpr (is_std_complex<C>) {
      // x ** 0 is 1, as for real numbers and Python's complex (exp(0 * log 0) is NaN).
      return b == C{} ? C{1} : std::pow(a, b);
    } else {
      return static_cast<C>(std::pow(a, b));
    }
  } else if constexpr (Op == BinaryOp::Maximum) {
    if constexpr (std::is_same_v<C, bool>) return a || b;
    else return is_nan(a) ? a : is_nan(b) ? b : (a > b ? a : b);
  } else if constexpr (Op == BinaryOp::Minimum) {
    if constexpr (std::is_same_v<C, bool>) return a && b;
    else return is_nan(a) ? a : is_nan(b) ? b : (a < b ? a : b);
  } else if constexpr (Op == BinaryOp::Eq) {
    return a == b;
  } else if constexpr (Op == BinaryOp::Ne) {
    return a != b;
  } else if constexpr (Op == BinaryOp::Lt) {
    return a < b;
  } else if constexpr (Op == BinaryOp::Le) {
    return a <= b;
  } else if constexpr (Op == BinaryOp::Gt) {
    return a > b;
  } else {
    return a >= b;
  }
}

// Element access of a plain number (T == its compute type; bool for the
// comparisons' results): a copy of its bytes.
template <class T>
struct PlainAccess {
  using Storage = T;
  static T load(const char* p) noexcept {
    T x;
    __builtin_memcpy(&x, p, sizeof x);
    return x;
  }
  static void store(char* p, T x) noexcept { __builtin_memcpy(p, &x, sizeof x); }
};

// out[i] = f(a[i], b[i]) over n elements (byte strides s[0..2]), reading
// inputs with In::load and writing with Out::store (In::Storage and
// Out::Storage: the element types in memory). The common layouts get loops of
// their own, which the compiler vectorises.
template <class In, class Out, class F>
[[gnu::always_inline]] inline void binary_loop(char** data, const int64_t* s, int64_t n, F f) {
  char* out = data[0];
  const char* a = data[1];
  const char* b = data[2];
  constexpr int64_t t = sizeof(typename In::Storage), r = sizeof(typename Out::Storage);
  if (s[0] == r && s[1] == t && s[2] == t) {
    const auto at = [&](int64_t i) { Out::store(out + i * r, f(In::load(a + i * t), In::load(b + i * t))); };
    // The two halves side by side: memory serves six streams faster than
    // three (~5% for a large add on the development VM). Each element depends
    // on its own index only, so the order is free.
    const int64_t half = n / 2;
    for (int64_t i = 0; i < half; ++i) {
      at(i);
      at(half + i);
    }
    if (n % 2) at(n - 1);
  } else if (s[0] == r && s[1] == -t && s[2] == -t) {
    // Both inputs reversed (a[::-1] + b[::-1]): the output is laid out forward
    // (engine/output_layout.hpp), the inputs are read backwards.
    for (int64_t i = 0; i < n; ++i) Out::store(out + i * r, f(In::load(a - i * t), In::load(b - i * t)));
  } else if (s[0] == r && s[1] == t && s[2] == 0) {
    const auto y = In::load(b);
    for (int64_t i = 0; i < n; ++i) Out::store(out + i * r, f(In::load(a + i * t), y));
  } else if (s[0] == r && s[1] == 0 && s[2] == t) {
    const auto x = In::load(a);
    for (int64_t i = 0; i < n; ++i) Out::store(out + i * r, f(x, In::load(b + i * t)));
  } else {
    for (int64_t i = 0; i < n; ++i) Out::store(out + i * s[0], f(In::load(a + i * s[1]), In::load(b + i * s[2])));
  }
}

}  // namespace
}  // namespace ctensor::core
