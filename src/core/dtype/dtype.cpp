#include "dtype/dtype.hpp"

#include "error.hpp"
#include "ctensor.h"

namespace ctensor::core {

#define CTENSOR_DTYPE_MATCHES(Name, value, macro, ...) \
  static_assert(dtype::Name == (macro), #macro " differs between dtype/dtype_list.hpp and ctensor.h");
CTENSOR_FORALL_DTYPES(CTENSOR_DTYPE_MATCHES)
#undef CTENSOR_DTYPE_MATCHES
static_assert(static_cast<int32_t>(DTypeKind::Bool) == TENSOR_KIND_BOOL &&
                  static_cast<int32_t>(DTypeKind::Int) == TENSOR_KIND_INT &&
                  static_cast<int32_t>(DTypeKind::Float) == TENSOR_KIND_FLOAT &&
                  static_cast<int32_t>(DTypeKind::Complex) == TENSOR_KIND_COMPLEX,
              "DTypeKind differs from ctensor.h's TENSOR_KIND_*");

namespace {

// Indexed by ScalarType value; gaps (8 = complex32, 12-14 quantized, ...) are unknown.
constexpr DType max_value() {
  DType m = 0;
  for (DType d : kAllDTypes) m = d > m ? d : m;
  return m;
}
constexpr int kTableSize = max_value() + 1;

struct Table {
  DTypeInfo entries[kTableSize] = {};
  bool present[kTableSize] = {};

  constexpr Table() {
#define CTENSOR_DTYPE_INFO(Name, value, macro, T, kind, is_signed, name, dl_code, bits) \
  entries[value] = {name, (bits) / 8, DTypeKind::kind, is_signed};                        \
  present[value] = true;
    CTENSOR_FORALL_DTYPES(CTENSOR_DTYPE_INFO)
#undef CTENSOR_DTYPE_INFO
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
