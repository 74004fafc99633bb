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

// Info for a known dtype, nullptr otherwise.
const DTypeInfo* dtype_info(DType d) noexcept;

inline bool dtype_known(DType d) noexcept { return dtype_info(d) != nullptr; }

// Size in bytes; 0 for an unknown dtype.
inline size_t dtype_size(DType d) noexcept {
  const DTypeInfo* info = dtype_info(d);
  return info ? info->size : 0;
}

// Throws Error(Invalid) naming `what` if `d` is unknown.
void require_known_dtype(DType d, const char* what);

}  // namespace ctensor::core
