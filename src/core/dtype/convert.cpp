#include "dtype/convert.hpp"

#include "dtype/cast_rules.hpp"
#include "dtype/cast_simd.hpp"

namespace ctensor::core {

namespace {

constexpr CastTable kPortableTable = make_cast_table<PortableKernel>();

// Chosen once, on first use, by the CPU's features.
const CastTable& active_table() noexcept {
  static const CastTable* const table = [] {
    const CastTable* simd = simd_cast_table();
    return simd ? simd : &kPortableTable;
  }();
  return *table;
}

}  // namespace

CastKernel cast_kernel(DType from, DType to) noexcept {
  const int i = cast_index(from), j = cast_index(to);
  if (i < 0 || j < 0) return nullptr;
  return active_table()[i * kNumCastDTypes + j];
}

void convert_from_double(double value, DType to, void* dst) noexcept {
  if (CastKernel kernel = cast_kernel(dtype::Float64, to))
    kernel(reinterpret_cast<const char*>(&value), 0, static_cast<char*>(dst), 0, 1);
}

}  // namespace ctensor::core
