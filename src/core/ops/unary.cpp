#include "ops/unary.hpp"

#include <algorithm>
#include <type_traits>
#include <utility>

#include "cpu.hpp"
#include "engine/copy.hpp"
#include "engine/copy_kernels.hpp"
#include "engine/copy_simd.hpp"
#include "engine/tensor_iterator.hpp"
#include "engine/tiled_loops.hpp"  // kStreamRunBytes
#include "layout/overlap.hpp"
#include "ops/binary.hpp"
#include "ops/elements.hpp"
#include "ops/promotion.hpp"
#include "ops/unary_kernels.hpp"
#include "ops/unary_vec.hpp"

namespace ctensor::core {

namespace {

// ---- the table ---------------------------------------------------------------

// How the result dtype follows from the input's (ops/unary_list.hpp).
enum class Rule { Float, Same, Real, Wide, Bool };

// The input kinds a row refuses, as its row spells them.
namespace kinds {
constexpr int B = 1 << static_cast<int>(DTypeKind::Bool), I = 1 << static_cast<int>(DTypeKind::Int),
              F = 1 << static_cast<int>(DTypeKind::Float), C = 1 << static_cast<int>(DTypeKind::Complex);
}  // namespace kinds

struct Row {
  const char* name;
  Rule rule;
  int refused;
};

#define CTENSOR_UNARY_ROW(Enum, name, NAME, rule, refused) \
  {#name, Rule::rule, [] {                           \
     using namespace kinds;                          \
     return refused;                                 \
   }()},
constexpr Row kRows[kNumUnaryOps] = {CTENSOR_UNARY_OPS(CTENSOR_UNARY_ROW)};
#undef CTENSOR_UNARY_ROW

constexpr const Row& row(UnaryOp op) noexcept { return kRows[static_cast<int32_t>(op)]; }

// The result dtype of op on `in`, or DType for a kind the op refuses.
DType result_dtype(UnaryOp op, DType in) {
  const Row& r = row(op);
  const DTypeKind kind = category(in);
  if (r.refused & (1 << static_cast<int>(kind)))
    fail(Status::DType, r.name, ": not implemented for ", dtype_name(in), " (as in PyTorch)");
  switch (r.rule) {
    case Rule::Float: return to_floating(in);
    case Rule::Real: return to_real(in);
    case Rule::Wide: return kind == DTypeKind::Bool ? dtype::Int64 : in;
    case Rule::Bool: return dtype::Bool;
    default: return in;
  }
}

// The same at compile time, on storage types: whether op takes T, the type of
// its result, and the compute type the kernel sees.
template <class T>
constexpr DTypeKind kind_of() noexcept {
  if constexpr (std::is_same_v<T, Bool8>) return DTypeKind::Bool;
  else if constexpr (std::is_integral_v<T>) return DTypeKind::Int;
  else if constexpr (is_complex<T>::value) return DTypeKind::Complex;
  else return DTypeKind::Float;
}

template <UnaryOp Op, class T>
constexpr bool kAccepts = (row(Op).refused & (1 << static_cast<int>(kind_of<T>()))) == 0;

template <UnaryOp Op, class T>
constexpr bool kToFloat = row(Op).rule == Rule::Float && kind_of<T>() <= DTypeKind::Int;

template <class T>
struct RealOf {
  using type = T;
};
template <class T>
struct RealOf<Complex<T>> {
  using type = T;
};

template <UnaryOp Op, class T>
using result_t = std::conditional_t<
    kToFloat<Op, T>, float,
    std::conditional_t<row(Op).rule == Rule::Bool, Bool8,
                       std::conditional_t<row(Op).rule == Rule::Real, typename RealOf<T>::type,
                                          std::conditional_t<row(Op).rule == Rule::Wide && kind_of<T>() == DTypeKind::Bool,
                                                             int64_t, T>>>>;

template <UnaryOp Op, class T>
using input_compute_t = std::conditional_t<kToFloat<Op, T>, float, compute_t<T>>;

// ---- loops -------------------------------------------------------------------

// Elements converted at a time for a vector form that needs another layout or
// dtype (strided runs, float16, bfloat16, integers into float).
constexpr int64_t kBlock = 256;

// Whether op's vector form can run on (Tin, Tout) through a buffer of the compute
// type, and whether straight from the input into the output (no conversion).
template <UnaryOp Op, class Tin, class Tout>
constexpr bool kVector = UnaryVec<Op>::kHas && std::is_same_v<input_compute_t<Op, Tin>, compute_t<Tout>> &&
                         std::is_floating_point_v<compute_t<Tout>>;
template <UnaryOp Op, class Tin, class Tout>
constexpr bool kDirect = kVector<Op, Tin, Tout> && std::is_same_v<Tin, Tout> && std::is_same_v<Tin, compute_t<Tin>>;

// The op's vector forms for one compute type (null: none, or none on this CPU).
struct VectorForms {
  UnaryMap plain = nullptr, streamed = nullptr;
};

// n elements out[i] = op(in[i]) (byte strides so, si); `map` is the op's vector
// form for this compute type, or null.
template <UnaryOp Op, class Tin, class Tout>
void run(char* out, int64_t so, const char* in, int64_t si, int64_t n, UnaryMap map) noexcept {
  using Cin = input_compute_t<Op, Tin>;
  using Cout = compute_t<Tout>;
  constexpr int64_t ti = sizeof(Tin), to = sizeof(Tout);
  if constexpr (kVector<Op, Tin, Tout>) {
    if (map) {
      if constexpr (kDirect<Op, Tin, Tout>)
        if (so == to && si == ti) return map(in, out, n);
      Cin buf[kBlock];
      for (int64_t j = 0; j < n; j += kBlock) {
        const int64_t m = std::min(kBlock, n - j);
        for (int64_t k = 0; k < m; ++k) buf[k] = static_cast<Cin>(read_element<Tin>(in + (j + k) * si));
        map(buf, buf, m);
        for (int64_t k = 0; k < m; ++k) write_element<Tout>(out + (j + k) * so, buf[k]);
      }
      return;
    }
  }
  const auto f = [](const char* p) {
    return static_cast<Cout>(UnaryKernel<Op>::apply(static_cast<Cin>(read_element<Tin>(p))));
  };
  if (so == to && si == ti) {
    for (int64_t i = 0; i < n; ++i) write_element<Tout>(out + i * to, f(in + i * ti));
  } else {
    for (int64_t i = 0; i < n; ++i) write_element<Tout>(out + i * so, f(in + i * si));
  }
}

// Every element of `it`; outputs of kStreamBytes or more are stored with
// streaming stores along their dense runs (so the output's lines are not read
// in first), as the copy engine stores its copies: straight from the vector
// form where it reads the input as it is, else staged through L1.
template <UnaryOp Op, class Tin, class Tout>
void execute(const TensorIterator& it, VectorForms vec) {
  constexpr int64_t ti = sizeof(Tin), to = sizeof(Tout);
  const bool stream = simd::can_stream() && it.numel() * to >= kStreamBytes;
  it.for_each([&](char** data, const int64_t* s, int64_t n0, int64_t n1) {
    const int64_t* s1 = s + 2;
    const bool streamed = stream && s[0] == to && n0 * to >= kStreamRunBytes;
    for (int64_t j = 0; j < n1; ++j) {
      char* out = data[0] + j * s1[0];
      const char* in = data[1] + j * s1[1];
      if (!streamed) {
        run<Op, Tin, Tout>(out, s[0], in, s[1], n0, vec.plain);
      } else if (kDirect<Op, Tin, Tout> && vec.streamed && s[1] == ti) {
        vec.streamed(in, out, n0);
      } else {
        store_staged(out, sizeof(Tout), n0, [&](char* stage, int64_t k, int64_t m) {
          run<Op, Tin, Tout>(stage, to, in + k * s[1], s[1], m, vec.plain);
        });
      }
    }
    if (streamed) simd::fence();
  });
}

// The vector forms this CPU runs best, or null.
const UnaryMaps* vector_maps() noexcept {
#if defined(CTENSOR_UNARY_SIMD)
  if (cpu_has_avx512()) return kUnaryAvx512;
  if (cpu_has_avx2()) return kUnaryAvx2;
#endif
  return nullptr;
}

template <class Tin, size_t... I>
void run_op(UnaryOp op, const TensorIterator& it, std::index_sequence<I...>) {
  const UnaryMaps* maps = vector_maps();
  ((static_cast<size_t>(op) == I ? [&] {
    constexpr auto Op = static_cast<UnaryOp>(I);
    if constexpr (kAccepts<Op, Tin>) {
      using Cin = input_compute_t<Op, Tin>;
      VectorForms vec;
      if (maps && std::is_same_v<Cin, float>) vec = {maps[I].f32, maps[I].f32_streamed};
      if (maps && std::is_same_v<Cin, double>) vec = {maps[I].f64, maps[I].f64_streamed};
      execute<Op, Tin, result_t<Op, Tin>>(it, vec);
    }
  }() : void()), ...);
}

// out = op(a); out has a's shape and the op's result dtype.
void compute(UnaryOp op, const Tensor& out, const Tensor& a) {
  if (out.numel() == 0) return;
  const TensorIterator it = TensorIteratorConfig().add_output(out).add_input(a).build(unary_op_name(op));
  dispatch(a.dtype(), [&](auto tag) {
    run_op<typename decltype(tag)::type>(op, it, std::make_index_sequence<kNumUnaryOps>{});
  });
}

}  // namespace

const char* unary_op_name(UnaryOp op) noexcept { return row(op).name; }

Ref<Tensor> unary(UnaryOp op, const Tensor& a) {
  const char* name = unary_op_name(op);
  a.require_readable(name);
  const Tensor* inputs[1] = {&a};
  Ref<Tensor> out = empty_like_inputs(name, result_dtype(op, a.dtype()), a.ndim(), a.sizes(), 1, inputs);
  compute(op, *out, a);
  return out;
}

void unary_into(UnaryOp op, const Tensor& dst, const Tensor& a) {
  const char* name = unary_op_name(op);
  if (dst.ndim() != a.ndim() || !std::equal(a.sizes(), a.sizes() + a.ndim(), dst.sizes()))
    fail(Status::Shape, name, ": the destination's shape ", DimList{dst.sizes(), dst.ndim()},
         " is not the operand's shape ", DimList{a.sizes(), a.ndim()}, " (ctensor never resizes)");
  const DType result = result_dtype(op, a.dtype());
  require_castable(name, result, dst.dtype());
  if (dst.numel() == 0) return;
  dst.require_writable(name);
  a.require_readable(name);
  require_no_internal_overlap(name, dst);
  if (dst.dtype() != result) {  // computed in the result dtype, then converted as a copy
    const Tensor* inputs[1] = {&a};
    const Ref<Tensor> tmp = empty_like_inputs(name, result, a.ndim(), a.sizes(), 1, inputs);
    compute(op, *tmp, a);
    return copy_into(name, dst, *tmp);
  }
  // In place (dst is a) reads each element before writing it; any other
  // overlap reads a snapshot.
  Ref<Tensor> snapshot;
  if (may_overlap(dst, a) && !same_elements(dst, a, a.strides())) snapshot = contiguous_copy(name, a, a.dtype());
  compute(op, dst, snapshot ? *snapshot : a);
}

}  // namespace ctensor::core
