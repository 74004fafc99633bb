#include "ops/binary.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "cpu.hpp"
#include "engine/copy.hpp"
#include "dtype/convert.hpp"
#include "engine/tensor_iterator.hpp"
#include "engine/tiled_loops.hpp"
#include "layout/memory_format.hpp"
#include "layout/overlap.hpp"
#include "layout/shape.hpp"
#include "ops/binary_kernels.hpp"
#include "ops/elements.hpp"
#include "ops/operand.hpp"
#include "ops/promotion.hpp"

namespace ctensor::core {

namespace {

#define CTENSOR_BINARY_NAME(Enum, name) #name,
constexpr const char* kOpNames[kNumBinaryOps] = {CTENSOR_BINARY_OPS(CTENSOR_BINARY_NAME)};
#undef CTENSOR_BINARY_NAME

// ---- loops -----------------------------------------------------------------

// Element access through ops/elements.hpp: every dtype, in its compute type.
template <class T>
struct ElementAccess {
  using Storage = T;
  static compute_t<T> load(const char* p) noexcept { return read_element<T>(p); }
  static void store(char* p, compute_t<T> x) noexcept { write_element<T>(p, x); }
};

// The loop of op for storage type T that the instruction-set files have for
// this CPU (ops/binary_kernels.hpp), or null.
template <BinaryOp Op, class T>
BinaryLoop vector_loop() noexcept {
#if defined(CTENSOR_BINARY_SIMD)
  if constexpr (kVectorLoop<Op, T>) {
    constexpr int column = binary_vector_column<T>();
    if (cpu_has_avx512()) return kBinaryAvx512[static_cast<int>(Op)][column];
    if (cpu_has_avx2()) return kBinaryAvx2[static_cast<int>(Op)][column];
  }
#endif
  return nullptr;
}

template <class T, class R, class F>
void unary_loop(char** data, const int64_t* s, int64_t n, F f) {
  char* out = data[0];
  const char* a = data[1];
  constexpr int64_t t = sizeof(T), r = sizeof(R);
  if (s[0] == r && s[1] == t) {
    for (int64_t i = 0; i < n; ++i) write_element<R>(out + i * r, f(read_element<T>(a + i * t)));
  } else {
    for (int64_t i = 0; i < n; ++i) write_element<R>(out + i * s[0], f(read_element<T>(a + i * s[1])));
  }
}

template <BinaryOp Op, class T>
void run_binary(const TensorIterator& it) {
  using C = compute_t<T>;
  using R = std::conditional_t<is_comparison(Op), Bool8, T>;
  const BinaryLoop vec = vector_loop<Op, T>();
  for_each_tiled<3>(it, sizeof(T), sizeof(R), [vec](char** p, const int64_t* s, int64_t n) {
    if (vec) return vec(p, s, n);
    binary_loop<ElementAccess<T>, ElementAccess<R>>(p, s, n, [](C a, C b) { return apply<Op, C>(a, b); });
  });
}

// The kernels that exist for compute dtype T (the checks in check_op refuse the rest).
template <BinaryOp Op, class T>
constexpr bool kSupported = [] {
  using C = compute_t<T>;
  if constexpr (is_std_complex<C>)
    return Op != BinaryOp::Maximum && Op != BinaryOp::Minimum && Op < BinaryOp::Lt;
  else if constexpr (std::is_same_v<C, bool>)
    return Op != BinaryOp::Sub && Op != BinaryOp::Div && Op != BinaryOp::Pow;
  else if constexpr (std::is_integral_v<C>)
    return Op != BinaryOp::Div;
  else
    return true;
}();

template <class T, size_t... I>
void run_binary_op(BinaryOp op, const TensorIterator& it, std::index_sequence<I...>) {
  ((static_cast<size_t>(op) == I ? [&] {
    if constexpr (kSupported<static_cast<BinaryOp>(I), T>) run_binary<static_cast<BinaryOp>(I), T>(it);
  }() : void()), ...);
}

// ---- argument rules ----------------------------------------------------------

// The dtype the op computes in (inputs are converted to it), after PyTorch's
// refusals; `b` is the exponent for pow.
DType compute_dtype(BinaryOp op, const Tensor& a, const Tensor& b) {
  const char* name = binary_op_name(op);
  DType common = result_type(name, a, b);
  const DTypeKind c = category(common);
  switch (op) {
    case BinaryOp::Sub:
      if (a.dtype() == dtype::Bool || b.dtype() == dtype::Bool)
        fail(Status::DType, "sub: subtraction with a bool tensor is not supported (as in PyTorch); "
                            "use logical_xor or logical_not instead");
      break;
    case BinaryOp::Div: common = to_floating(common); break;
    case BinaryOp::Pow:
      if (c == DTypeKind::Bool) fail(Status::DType, "pow: not implemented for bool (as in PyTorch)");
      if (c == DTypeKind::Int && b.is_wrapped_number()) {
        int64_t e = 0;
        std::memcpy(&e, b.data(), std::min<size_t>(b.itemsize(), sizeof e));
        if (b.dtype() == dtype::Int64 && e < 0)
          fail(Status::Invalid, "pow: integers to negative integer powers are not allowed (exponent ", e,
               "; as in PyTorch)");
      }
      break;
    case BinaryOp::Maximum:
    case BinaryOp::Minimum:
      if (c == DTypeKind::Complex) fail(Status::DType, name, ": not implemented for complex tensors");
      break;
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge:
      if (c == DTypeKind::Complex) fail(Status::DType, name, ": complex numbers have no order");
      break;
    default: break;
  }
  return common;
}

int64_t broadcast_pair(const char* op, const Tensor& a, const Tensor& b, int64_t* shape) {
  const ShapeRef shapes[2] = {{a.ndim(), a.sizes()}, {b.ndim(), b.sizes()}};
  return broadcast_shapes(op, shapes, 2, shape);
}

void compute(BinaryOp op, DType common, const Tensor& out, const Operand& a, const Operand& b) {
  if (out.numel() == 0) return;
  TensorIteratorConfig config;
  config.add_output(out);
  a.add_to(config);
  b.add_to(config);
  const TensorIterator it = config.build(binary_op_name(op));
  dispatch(common, [&](auto tag) {
    using T = typename decltype(tag)::type;
    run_binary_op<T>(op, it, std::make_index_sequence<kNumBinaryOps>{});
  });
}

bool same_shape(const Tensor& t, int64_t ndim, const int64_t* shape) {
  return t.ndim() == ndim && std::equal(shape, shape + ndim, t.sizes());
}

}  // namespace

const char* binary_op_name(BinaryOp op) noexcept { return kOpNames[static_cast<int32_t>(op)]; }

Ref<Tensor> binary(BinaryOp op, const Tensor& a, const Tensor& b) {
  const char* name = binary_op_name(op);
  a.require_readable(name);
  b.require_readable(name);
  int64_t shape[kMaxDims];
  const int64_t ndim = broadcast_pair(name, a, b, shape);
  const DType common = compute_dtype(op, a, b);
  const Tensor* inputs[2] = {&a, &b};
  const DType computed[2] = {common, common};
  Ref<Tensor> out =
      empty_like_inputs(name, is_comparison(op) ? dtype::Bool : common, ndim, shape, 2, inputs, computed);
  const Operand ca(a, common), cb(b, common);
  compute(op, common, *out, ca, cb);
  return out;
}

void binary_into(BinaryOp op, const Tensor& dst, const Tensor& a, const Tensor& b) {
  const char* name = binary_op_name(op);
  int64_t shape[kMaxDims];
  const int64_t ndim = broadcast_pair(name, a, b, shape);
  if (!same_shape(dst, ndim, shape))
    fail(Status::Shape, name, ": the destination's shape ", DimList{dst.sizes(), dst.ndim()},
         " is not the broadcast shape ", DimList{shape, ndim}, " of the operands (ctensor never resizes)");
  const DType common = compute_dtype(op, a, b);
  const DType result = is_comparison(op) ? dtype::Bool : common;
  require_castable(name, result, dst.dtype());
  if (dst.numel() == 0) return;
  dst.require_writable(name);
  a.require_readable(name);
  b.require_readable(name);
  require_no_internal_overlap(name, dst);
  if (dst.dtype() != result) {  // computed in the result dtype, then converted as a copy
    const Tensor* inputs[2] = {&a, &b};
    const DType computed[2] = {common, common};
    const Ref<Tensor> tmp = empty_like_inputs(name, result, ndim, shape, 2, inputs, computed);
    const Operand ca(a, common), cb(b, common);
    compute(op, common, *tmp, ca, cb);
    return copy_into(name, dst, *tmp);
  }
  Operand ca(a, common), cb(b, common);
  ca.snapshot_if_overlapping(name, dst);
  cb.snapshot_if_overlapping(name, dst);
  compute(op, common, dst, ca, cb);
}

// ---- unary -------------------------------------------------------------------

namespace {

// out = f(a) element-wise; out is new, of a's shape.
template <class R, class T, class F>
Ref<Tensor> unary_into(const char* name, Ref<Tensor> out, const Tensor& a, F f) {
  if (out->numel() == 0) return out;
  const TensorIterator it = TensorIteratorConfig().add_output(*out).add_input(a).build(name);
  for_each_tiled<2>(it, sizeof(T), sizeof(R), [&](char** p, const int64_t* s, int64_t n) { unary_loop<T, R>(p, s, n, f); });
  return out;
}

// f(a) in a new tensor laid out as TensorIterator lays out outputs.
template <class R, class T, class F>
Ref<Tensor> unary(const char* name, const Tensor& a, DType result, F f) {
  const Tensor* inputs[1] = {&a};
  return unary_into<R, T>(name, empty_like_inputs(name, result, a.ndim(), a.sizes(), 1, inputs), a, f);
}

// The conjugate in a new tensor (`layout_like_a`: in a's preserve-format layout,
// else as TensorIterator lays out outputs); a non-complex tensor, whose values are
// not read, is shared.
Ref<Tensor> conjugated(const char* name, const Tensor& a, bool layout_like_a) {
  if (dtype_info(a.dtype())->kind != DTypeKind::Complex) return Ref<Tensor>::share(const_cast<Tensor*>(&a));
  a.require_readable(name);
  return dispatch(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = compute_t<T>;
    if constexpr (is_std_complex<C>) {
      const auto f = [](C x) { return std::conj(x); };
      if (layout_like_a) return unary_into<T, T>(name, empty_like(name, a, a.dtype(), MemoryFormat::Preserve, false), a, f);
      return unary<T, T>(name, a, a.dtype(), f);
    } else {
      return Ref<Tensor>();
    }
  });
}

}  // namespace

Ref<Tensor> conj_physical(const Tensor& a) { return conjugated("conj_physical", a, false); }

Ref<Tensor> conj(const Tensor& a) {
  // Laid out as PyTorch's resolve_conj() lays out the lazy view it stands for. A
  // fresh buffer no one else holds yet: sealing it makes writes that the
  // conjugate view would send back to `a` fail instead of being lost.
  // The conjugate of such conjugates is, in PyTorch, a view without the bit.
  Ref<Tensor> out = conjugated("conj", a, true);
  if (out.get() != &a) {
    out->storage()->seal();
    if (!a.storage()->conjugates()) out->storage()->mark_conjugates();
  }
  return out;
}

}  // namespace ctensor::core
