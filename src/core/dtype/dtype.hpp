// Element types: values equal PyTorch's c10::ScalarType and the public TENSOR_*
// dtypes. Everything here is generated from dtype/dtype_list.hpp.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "dtype/dtype_list.hpp"

namespace ctensor::core {

using DType = int32_t;

namespace dtype {
#define CTENSOR_DTYPE_CONSTANT(Name, value, ...) constexpr DType Name = value;
CTENSOR_FORALL_DTYPES(CTENSOR_DTYPE_CONSTANT)
#undef CTENSOR_DTYPE_CONSTANT
}  // namespace dtype

// Every dtype, in the list's order.
#define CTENSOR_DTYPE_ENTRY(Name, ...) dtype::Name,
inline constexpr std::array kAllDTypes = {CTENSOR_FORALL_DTYPES(CTENSOR_DTYPE_ENTRY)};
#undef CTENSOR_DTYPE_ENTRY
inline constexpr int kNumDTypes = static_cast<int>(kAllDTypes.size());

// PyTorch's promotion categories, ordered (bool < integer < float < complex);
// values equal the public TENSOR_KIND_* macros.
enum class DTypeKind : int32_t { Bool = 0, Int = 1, Float = 2, Complex = 3 };

struct DTypeInfo {
  const char* name;  // PyTorch's name without "torch."
  size_t size;       // bytes per element
  DTypeKind kind;
  bool is_signed;  // torch.dtype.is_signed
};

namespace detail {

// Indexed by ScalarType value; gaps (8 = complex32, 12-14 quantized, ...) are unknown.
constexpr DType max_dtype_value() {
  DType m = 0;
  for (DType d : kAllDTypes) m = d > m ? d : m;
  return m;
}
inline constexpr int kDTypeTableSize = max_dtype_value() + 1;

struct DTypeTable {
  DTypeInfo entries[kDTypeTableSize] = {};
  bool present[kDTypeTableSize] = {};

  constexpr DTypeTable() {
#define CTENSOR_DTYPE_INFO(Name, value, macro, T, kind, is_signed, name, dl_code, bits) \
  entries[value] = {name, (bits) / 8, DTypeKind::kind, is_signed};                        \
  present[value] = true;
    CTENSOR_FORALL_DTYPES(CTENSOR_DTYPE_INFO)
#undef CTENSOR_DTYPE_INFO
  }
};

inline constexpr DTypeTable kDTypeTable{};

}  // namespace detail

// Info for a known dtype, nullptr otherwise. Inline: every new tensor looks it up.
inline const DTypeInfo* dtype_info(DType d) noexcept {
  if (d < 0 || d >= detail::kDTypeTableSize || !detail::kDTypeTable.present[d]) return nullptr;
  return &detail::kDTypeTable.entries[d];
}

inline bool dtype_known(DType d) noexcept { return dtype_info(d) != nullptr; }

// Size in bytes; 0 for an unknown dtype.
inline size_t dtype_size(DType d) noexcept {
  const DTypeInfo* info = dtype_info(d);
  return info ? info->size : 0;
}

// Throws Error(Invalid) naming `what` if `d` is unknown.
void require_known_dtype(DType d, const char* what);

}  // namespace ctensor::core
