#include "ops/promotion.hpp"

#include "error.hpp"

namespace ctensor::core {

namespace {

bool is_signed_int(DType d) noexcept { return dtype_info(d)->is_signed; }

// The signed integer dtype of `bytes` bytes, from the dtype list (int64 if none).
DType signed_of_size(size_t bytes) noexcept {
  for (DType d : kAllDTypes) {
    const DTypeInfo& info = *dtype_info(d);
    if (info.kind == DTypeKind::Int && info.is_signed && info.size == bytes) return d;
  }
  return dtype::Int64;
}

DType complex_of(DType real) noexcept {
  return real == dtype::Float64 ? dtype::Complex128 : dtype::Complex64;
}

// combine_categories(higher, lower) from PyTorch's ResultTypeState; -1 is "none".
DType combine_categories(const char* op, DType higher, DType lower) {
  if (higher < 0) return lower;
  if (lower < 0) return higher;
  const DTypeKind h = category(higher), l = category(lower);
  if (h == DTypeKind::Complex) return higher;
  // A float keeps its precision when a complex number joins it (float16 would
  // give PyTorch's complex32, which ctensor has not: complex64).
  if (l == DTypeKind::Complex) return h == DTypeKind::Float ? complex_of(higher) : lower;
  if (h == DTypeKind::Float) return higher;
  if (higher == dtype::Bool || l == DTypeKind::Float) return promote_types(op, higher, lower);
  return higher;
}

}  // namespace

const char* dtype_name(DType d) noexcept {
  const DTypeInfo* info = dtype_info(d);
  return info ? info->name : "unknown";
}

DType promote_types(const char* op, DType a, DType b) {
  if (a == b) return a;
  const DTypeKind ca = category(a), cb = category(b);
  if (ca != cb) {
    // The higher category wins, except that float64 with complex64 needs complex128.
    const bool a_higher = ca > cb;
    const DType high = a_higher ? a : b, low = a_higher ? b : a;
    if (category(high) == DTypeKind::Complex && low == dtype::Float64) return dtype::Complex128;
    return high;
  }
  const size_t sa = dtype_size(a), sb = dtype_size(b);
  switch (ca) {
    case DTypeKind::Complex: return sa > sb ? a : b;
    case DTypeKind::Float:
      if (sa == sb) return dtype::Float32;  // float16 with bfloat16
      return sa > sb ? a : b;
    case DTypeKind::Int: {
      if (is_signed_int(a) == is_signed_int(b)) return sa > sb ? a : b;
      const DType s = is_signed_int(a) ? a : b, u = is_signed_int(a) ? b : a;
      if (dtype_size(s) > dtype_size(u)) return s;
      if (dtype_size(u) == 8)
        fail(Status::DType, op, ": no integer dtype holds both ", dtype_name(a), " and ", dtype_name(b),
             " (PyTorch refuses to promote uint64 with signed integers too); convert one of them first");
      return signed_of_size(2 * dtype_size(u));
    }
    case DTypeKind::Bool: break;
  }
  return a;
}

DType result_type(const char* op, int64_t n, const Tensor* const* operands) {
  DType dimmed = -1, zero_dim = -1, wrapped = -1;
  for (int64_t i = 0; i < n; ++i) {
    const Tensor& t = *operands[i];
    DType* slot = &dimmed;
    DType d = t.dtype();
    if (t.is_wrapped_number()) {
      slot = &wrapped;
      // A Python float is the default float, a Python complex the default complex.
      if (category(d) == DTypeKind::Float) d = dtype::Float32;
      if (category(d) == DTypeKind::Complex) d = dtype::Complex64;
    } else if (t.ndim() == 0) {
      slot = &zero_dim;
    }
    *slot = *slot < 0 ? d : promote_types(op, *slot, d);
  }
  return combine_categories(op, dimmed, combine_categories(op, zero_dim, wrapped));
}

DType result_type(const char* op, const Tensor& a, const Tensor& b) {
  const Tensor* both[2] = {&a, &b};
  return result_type(op, 2, both);
}

bool can_cast(DType from, DType to) noexcept {
  const DTypeKind f = category(from), t = category(to);
  if (f == DTypeKind::Complex && t != DTypeKind::Complex) return false;
  if (f == DTypeKind::Float && t < DTypeKind::Float) return false;
  if (f != DTypeKind::Bool && t == DTypeKind::Bool) return false;
  return true;
}

void require_castable(const char* op, DType result, DType dst) {
  if (!can_cast(result, dst))
    fail(Status::DType, op, ": result type ", dtype_name(result), " can't be cast to the desired output type ",
         dtype_name(dst));
}

DType to_floating(DType d) noexcept { return category(d) < DTypeKind::Float ? dtype::Float32 : d; }

DType to_real(DType d) noexcept {
  if (d == dtype::Complex64) return dtype::Float32;
  if (d == dtype::Complex128) return dtype::Float64;
  return d;
}

}  // namespace ctensor::core
