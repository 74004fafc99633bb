#include "dtype/dtype.hpp"

#include "error.hpp"

namespace ctensor::core {

namespace {

// Indexed by ScalarType value; gaps (8 = complex32, 12-14 quantized, ...) are unknown.
constexpr int kTableSize = 30;

struct Table {
  DTypeInfo entries[kTableSize] = {};
  bool present[kTableSize] = {};

  constexpr void set(DType d, DTypeInfo info) {
    entries[d] = info;
    present[d] = true;
  }
  constexpr Table() {
    set(dtype::UInt8, {"uint8", 1, DTypeKind::Unsigned});
    set(dtype::Int8, {"int8", 1, DTypeKind::Signed});
    set(dtype::Int16, {"int16", 2, DTypeKind::Signed});
    set(dtype::Int32, {"int32", 4, DTypeKind::Signed});
    set(dtype::Int64, {"int64", 8, DTypeKind::Signed});
    set(dtype::Float16, {"float16", 2, DTypeKind::Float});
    set(dtype::Float32, {"float32", 4, DTypeKind::Float});
    set(dtype::Float64, {"float64", 8, DTypeKind::Float});
    set(dtype::Complex64, {"complex64", 8, DTypeKind::Complex});
    set(dtype::Complex128, {"complex128", 16, DTypeKind::Complex});
    set(dtype::Bool, {"bool", 1, DTypeKind::Bool});
    set(dtype::BFloat16, {"bfloat16", 2, DTypeKind::Float});
    set(dtype::UInt16, {"uint16", 2, DTypeKind::Unsigned});
    set(dtype::UInt32, {"uint32", 4, DTypeKind::Unsigned});
    set(dtype::UInt64, {"uint64", 8, DTypeKind::Unsigned});
  }
};

constexpr Table kTable{};

}  // namespace

const DTypeInfo* dtype_info(DType d) noexcept {
  if (d < 0 || d >= kTableSize || !kTable.present[d]) return nullptr;
  return &kTable.entries[d];
}

void require_known_dtype(DType d, const char* what) {
  if (!dtype_known(d)) fail(Status::Invalid, what, ": unknown dtype ", d);
}

}  // namespace ctensor::core
