#include "ops/clamp_where.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>

#include "cpu.hpp"
#include "engine/copy.hpp"
#include "engine/output_layout.hpp"
#include "engine/tensor_iterator.hpp"
#include "engine/tiled_loops.hpp"
#include "layout/overlap.hpp"
#include "layout/shape.hpp"
#include "ops/elements.hpp"
#include "ops/operand.hpp"
#include "ops/promotion.hpp"
#include "ops/unary_vec.hpp"

namespace ctensor::core {

namespace {

// The shape the n inputs broadcast to; returns its ndim.
int64_t broadcast_inputs(const char* op, int n, const Tensor* const* inputs, int64_t* shape) {
  ShapeRef shapes[3];
  for (int k = 0; k < n; ++k) shapes[k] = {inputs[k]->ndim(), inputs[k]->sizes()};
  return broadcast_shapes(op, shapes, n, shape);
}

// A wrapped number holding NaN.
bool is_nan_number(const Tensor& t) noexcept {
  double value = 0;
  if (!t.is_wrapped_number() || t.dtype() != dtype::Float64) return false;
  std::memcpy(&value, t.data(), sizeof value);
  return std::isnan(value);
}

// Whether a present bound is NaN (the result is then NaN, as in PyTorch).
template <class C, bool kLo, bool kHi>
bool nan_bound(C lo, C hi) noexcept {
  if constexpr (std::is_floating_point_v<C>) return (kLo && lo != lo) || (kHi && hi != hi);
  return false;
}

// clamp(x, lo, hi) with the bounds that are present and not NaN.
template <class C, bool kLo, bool kHi>
C clamp_one(C x, C lo, C hi) noexcept {
  if constexpr (kLo) x = x < lo ? lo : x;  // std::max(x, lo): a NaN x stays
  if constexpr (kHi) x = hi < x ? hi : x;  // std::min(x, hi)
  return x;
}

// clamp's vector forms for storage type T on this CPU (ops/unary_vec.hpp): both
// null where it has none (dtypes other than float and double, no SLEEF build).
struct ClampForms {
  ClampMap plain = nullptr, streamed = nullptr;
};

template <class T>
ClampForms clamp_forms() noexcept {
#if defined(CTENSOR_UNARY_SIMD)
  const ClampMaps* maps = cpu_has_avx512() ? &kClampAvx512 : cpu_has_avx2() ? &kClampAvx2 : nullptr;
  if constexpr (std::is_same_v<T, float>)
    if (maps) return {maps->f32, maps->f32_streamed};
  if constexpr (std::is_same_v<T, double>)
    if (maps) return {maps->f64, maps->f64_streamed};
#endif
  return {};
}

// Whether the run of n elements (operands: out, a, then lo and/or hi) is
// dense with number bounds (stride 0), whose values it then reads into lo and hi.
template <class T, bool kLo, bool kHi>
bool number_bounds(char** data, const int64_t* s, compute_t<T>& lo, compute_t<T>& hi) noexcept {
  constexpr int k_hi = kLo ? 3 : 2;
  constexpr int64_t t = sizeof(T);
  if (s[0] != t || s[1] != t || (kLo && s[2] != 0) || (kHi && s[k_hi] != 0)) return false;
  if constexpr (kLo) lo = read_element<T>(data[2]);
  if constexpr (kHi) hi = read_element<T>(data[k_hi]);
  return true;
}

// map(a, out) over a dense run with number bounds, if `map` is given, both
// arrays are aligned for T (the map reads and writes its tail as T) and the
// bounds are not NaN (they then give NaN, which the scalar loop writes).
template <class T, bool kLo, bool kHi>
bool clamp_mapped(char** data, const int64_t* s, int64_t n, ClampMap map) noexcept {
  using C = compute_t<T>;
  C lo{}, hi{};
  if (!map || (reinterpret_cast<uintptr_t>(data[0]) | reinterpret_cast<uintptr_t>(data[1])) % alignof(T) != 0 ||
      !number_bounds<T, kLo, kHi>(data, s, lo, hi) || nan_bound<C, kLo, kHi>(lo, hi))
    return false;
  constexpr double inf = std::numeric_limits<double>::infinity();
  map(data[1], data[0], n, kLo ? lo : -inf, kHi ? hi : inf);
  return true;
}

// out[i] = clamp(a[i], lo[i], hi[i]) with the bounds that are present
// (operands: out, a, then lo and/or hi); `map` is the vector form or null.
template <class T, bool kLo, bool kHi>
void clamp_loop(char** data, const int64_t* s, int64_t n, ClampMap map) {
  using C = compute_t<T>;
  constexpr int k_hi = kLo ? 3 : 2;
  constexpr int64_t t = sizeof(T);
  constexpr C nan = std::numeric_limits<C>::quiet_NaN();
  C lo{}, hi{};
  if (number_bounds<T, kLo, kHi>(data, s, lo, hi)) {
    // Number bounds over a dense run: read once, so that the loop vectorises.
    if (nan_bound<C, kLo, kHi>(lo, hi)) {
      for (int64_t i = 0; i < n; ++i) write_element<T>(data[0] + i * t, nan);
      return;
    }
    if (clamp_mapped<T, kLo, kHi>(data, s, n, map)) return;
    for (int64_t i = 0; i < n; ++i)
      write_element<T>(data[0] + i * t, clamp_one<C, kLo, kHi>(read_element<T>(data[1] + i * t), lo, hi));
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    lo = kLo ? read_element<T>(data[2] + i * s[2]) : C{};
    hi = kHi ? read_element<T>(data[k_hi] + i * s[k_hi]) : C{};
    const C x = read_element<T>(data[1] + i * s[1]);
    write_element<T>(data[0] + i * s[0], nan_bound<C, kLo, kHi>(lo, hi) ? nan : clamp_one<C, kLo, kHi>(x, lo, hi));
  }
}

// clamp_loop over every element of `it` with bounds kLo/kHi; large dense
// outputs are stored with streaming stores, as the binary ops store theirs
// (straight from the vector form where there is one).
template <class T, bool kLo, bool kHi>
void clamp_all(const TensorIterator& it) {
  constexpr size_t t = sizeof(T);
  constexpr int n = 2 + kLo + kHi;
  const ClampForms forms = clamp_forms<T>();
  for_each_tiled<n>(
      it, t, t, [&](char** p, const int64_t* s, int64_t m) { clamp_loop<T, kLo, kHi>(p, s, m, forms.plain); },
      [&](char** p, const int64_t* s, int64_t m) { return clamp_mapped<T, kLo, kHi>(p, s, m, forms.streamed); });
}

// out[i] = cond[i] ? a[i] : b[i], moving `Size`-byte elements.
template <size_t Size>
void where_loop(char** data, const int64_t* s, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    const bool pick_a = data[1][i * s[1]] != 0;
    std::memcpy(data[0] + i * s[0], pick_a ? data[2] + i * s[2] : data[3] + i * s[3], Size);
  }
}

}  // namespace

namespace {

// clamp's checked arguments: its inputs (a, then the bounds present), the
// dtype it computes in and the shape they broadcast to.
struct ClampArgs {
  const Tensor* inputs[3] = {};
  int n = 1;
  bool lo = false, hi = false;
  DType common = 0;
  int64_t shape[kMaxDims];
  int64_t ndim = 0;
};

ClampArgs clamp_args(const Tensor& a, const Tensor* lo, const Tensor* hi) {
  const char* name = "clamp";
  if (!lo && !hi) fail(Status::Invalid, name, ": at least one of min and max must be given (both are NULL)");
  ClampArgs c;
  c.inputs[0] = &a;
  c.lo = lo != nullptr;
  c.hi = hi != nullptr;
  if (lo) c.inputs[c.n++] = lo;
  if (hi) c.inputs[c.n++] = hi;
  for (int k = 0; k < c.n; ++k) c.inputs[k]->require_readable(name);
  if (category(a.dtype()) == DTypeKind::Complex) fail(Status::DType, name, ": not supported for complex tensors");
  c.common = result_type(name, c.n, c.inputs);
  if (category(c.common) == DTypeKind::Complex) fail(Status::DType, name, ": not supported for complex bounds");
  if (category(c.common) == DTypeKind::Bool && lo && hi)
    fail(Status::DType, name, ": not implemented for bool with both bounds (as in PyTorch; one bound, or a number "
                              "bound computing in int64, is)");
  c.ndim = broadcast_inputs(name, c.n, c.inputs, c.shape);
  return c;
}

// out = clamp(...) for out of c's shape and dtype, with elements.
void clamp_compute(const Tensor& out, const ClampArgs& c) {
  const char* name = "clamp";
  if (c.n == 2 && is_nan_number(*c.inputs[1])) {  // PyTorch's clamp_min/clamp_max(number) pass a NaN bound over
    copy_into(name, out, *c.inputs[0]);
    return;
  }
  std::optional<Operand> converted[3];
  TensorIteratorConfig config;
  config.add_output(out);
  for (int k = 0; k < c.n; ++k) converted[k].emplace(*c.inputs[k], c.common).add_to(config);
  const TensorIterator it = config.build(name);
  dispatch(c.common, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!is_complex<T>::value) {
      if (c.lo && c.hi) clamp_all<T, true, true>(it);
      else if (c.lo) clamp_all<T, true, false>(it);
      else clamp_all<T, false, true>(it);
    }
  });
}

// Whether clamp can write into dst directly: it has the result's dtype and
// shape, is writable without internal overlap, and shares memory with no input
// other than exactly (in place).
bool writes_directly(const Tensor& dst, const ClampArgs& c) {
  if (dst.dtype() != c.common || dst.ndim() != c.ndim || !std::equal(c.shape, c.shape + c.ndim, dst.sizes()))
    return false;
  if (dst.numel() == 0 || dst.readonly() || !dst.storage()->cpu_accessible() || has_internal_overlap(dst))
    return false;
  for (int k = 0; k < c.n; ++k)
    if (needs_snapshot(dst, *c.inputs[k])) return false;
  return true;
}

}  // namespace

Ref<Tensor> clamp(const Tensor& a, const Tensor* lo, const Tensor* hi) {
  const ClampArgs c = clamp_args(a, lo, hi);
  const DType computed[3] = {c.common, c.common, c.common};
  Ref<Tensor> out = empty_like_inputs("clamp", c.common, c.ndim, c.shape, c.n, c.inputs, computed);
  if (out->numel() > 0) clamp_compute(*out, c);
  return out;
}

void clamp_into(const char* op, const Tensor& dst, const Tensor& a, const Tensor* lo, const Tensor* hi) {
  const ClampArgs c = clamp_args(a, lo, hi);
  if (writes_directly(dst, c)) return clamp_compute(dst, c);
  assign_result(op, dst, *clamp(a, lo, hi), false);
}

Ref<Tensor> where(const Tensor& cond, const Tensor& a, const Tensor& b) {
  const char* name = "where";
  if (cond.dtype() != dtype::Bool && cond.dtype() != dtype::UInt8)
    fail(Status::DType, name, ": expected the condition to be a bool tensor, but got ", dtype_name(cond.dtype()));
  const Tensor* inputs[3] = {&cond, &a, &b};
  for (const Tensor* t : inputs) t->require_readable(name);
  const Tensor* values[2] = {&a, &b};
  const DType common = result_type(name, 2, values);
  int64_t shape[kMaxDims];
  const int64_t ndim = broadcast_inputs(name, 3, inputs, shape);
  const DType computed[3] = {dtype::Bool, common, common};  // PyTorch converts a uint8 condition too
  Ref<Tensor> out = empty_like_inputs(name, common, ndim, shape, 3, inputs, computed);
  if (out->numel() == 0) return out;
  const Operand ca(a, common), cb(b, common);
  TensorIteratorConfig config;
  config.add_output(*out).add_input(cond);
  ca.add_to(config);
  cb.add_to(config);
  const TensorIterator it = config.build(name);
  const auto run = [&](auto size) {
    it.for_each([](char** p, const int64_t* s, int64_t m) { where_loop<decltype(size)::value>(p, s, m); });
  };
  switch (dtype_size(common)) {
    case 1: run(std::integral_constant<size_t, 1>{}); break;
    case 2: run(std::integral_constant<size_t, 2>{}); break;
    case 4: run(std::integral_constant<size_t, 4>{}); break;
    case 8: run(std::integral_constant<size_t, 8>{}); break;
    default: run(std::integral_constant<size_t, 16>{}); break;
  }
  return out;
}

void assign_result(const char* op, const Tensor& dst, const Tensor& result, bool exact) {
  if (dst.ndim() != result.ndim() || !std::equal(dst.sizes(), dst.sizes() + dst.ndim(), result.sizes()))
    fail(Status::Shape, op, ": the destination's shape ", DimList{dst.sizes(), dst.ndim()},
         " is not the result's shape ", DimList{result.sizes(), result.ndim()}, " (ctensor never resizes)");
  if (exact && dst.dtype() != result.dtype())
    fail(Status::DType, op, ": result type ", dtype_name(result.dtype()), " must be the destination's dtype, not ",
         dtype_name(dst.dtype()));
  require_castable(op, result.dtype(), dst.dtype());
  copy_into(op, dst, result);
}

}  // namespace ctensor::core
