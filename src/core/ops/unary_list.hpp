// The unary ops, one row each: X(Enum, name, NAME, result rule, refused kinds),
// NAME being the public TENSOR_UOP_NAME.
// Row order is the public numbering (TENSOR_UOP_*, fixed forever): append only.
//
// Result rules (the result dtype from the input's):
//   Float  bool and integers give the default float (float32), float and complex keep theirs;
//   Same   the input's dtype;
//   Real   as Same, complex gives its real dtype (abs);
//   Wide   as Same, bool gives int64 (square: PyTorch computes it as pow(x, 2));
//   Bool   bool (predicates).
// Refused kinds: the input kinds PyTorch 1.13 refuses (TENSOR_E_DTYPE): B(ool),
// I(nteger), F(loat), C(omplex), or none (0). float16 is never refused: PyTorch's
// CPU kernels lack some float16 loops, the op is defined for it (float32, rounded once).
//
// Adding an op: a row here (at the end) and its kernel in ops/unary_kernels.hpp
// (plus, optionally, a vector form in ops/unary_vec.hpp).
#pragma once

#include <cstdint>

#define CTENSOR_UNARY_OPS(X)                    \
  X(Neg, neg, NEG, Same, B)                     \
  X(Abs, abs, ABS, Real, B)                     \
  X(Exp, exp, EXP, Float, 0)                    \
  X(Exp2, exp2, EXP2, Float, C)                 \
  X(Expm1, expm1, EXPM1, Float, C)              \
  X(Log, log, LOG, Float, 0)                    \
  X(Log2, log2, LOG2, Float, 0)                 \
  X(Log10, log10, LOG10, Float, 0)              \
  X(Log1p, log1p, LOG1P, Float, C)              \
  X(Sqrt, sqrt, SQRT, Float, 0)                 \
  X(Rsqrt, rsqrt, RSQRT, Float, 0)              \
  X(Sin, sin, SIN, Float, 0)                    \
  X(Cos, cos, COS, Float, 0)                    \
  X(Tan, tan, TAN, Float, 0)                    \
  X(Asin, asin, ASIN, Float, 0)                 \
  X(Acos, acos, ACOS, Float, 0)                 \
  X(Atan, atan, ATAN, Float, 0)                 \
  X(Sinh, sinh, SINH, Float, 0)                 \
  X(Cosh, cosh, COSH, Float, 0)                 \
  X(Tanh, tanh, TANH, Float, 0)                 \
  X(Sigmoid, sigmoid, SIGMOID, Float, 0)        \
  X(Relu, relu, RELU, Same, B | C)              \
  X(Gelu, gelu, GELU, Same, B | I | C)          \
  X(Erf, erf, ERF, Float, C)                    \
  X(Floor, floor, FLOOR, Same, B | C)           \
  X(Ceil, ceil, CEIL, Same, B | C)              \
  X(Round, round, ROUND, Same, B | C)           \
  X(Trunc, trunc, TRUNC, Same, B | C)           \
  X(Frac, frac, FRAC, Same, B | I | C)          \
  X(Sign, sign, SIGN, Same, C)                  \
  X(Reciprocal, reciprocal, RECIPROCAL, Float, 0)\
  X(Square, square, SQUARE, Wide, 0)            \
  X(Isnan, isnan, ISNAN, Bool, 0)               \
  X(Isinf, isinf, ISINF, Bool, 0)               \
  X(Isfinite, isfinite, ISFINITE, Bool, 0)      \
  X(LogicalNot, logical_not, LOGICAL_NOT, Bool, 0)\
  X(BitwiseNot, bitwise_not, BITWISE_NOT, Same, F | C)

namespace ctensor::core {

#define CTENSOR_UNARY_ENUM(Enum, name, NAME, rule, refused) Enum,
// Values equal the public TENSOR_UOP_* constants.
enum class UnaryOp : int32_t { CTENSOR_UNARY_OPS(CTENSOR_UNARY_ENUM) };
#undef CTENSOR_UNARY_ENUM

#define CTENSOR_UNARY_COUNT(Enum, name, NAME, rule, refused) +1
constexpr int32_t kNumUnaryOps = 0 CTENSOR_UNARY_OPS(CTENSOR_UNARY_COUNT);
#undef CTENSOR_UNARY_COUNT

}  // namespace ctensor::core
