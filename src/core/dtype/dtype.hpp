// Element types: values equal PyTorch's c10::ScalarType and the public TENSOR_* dtypes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ctensor::core {

using DType = int32_t;

namespace dtype {
constexpr DType UInt8 = 0, Int8 = 1, Int16 = 2, Int32 = 3, Int64 = 4, Float16 = 5,
                Float32 = 6, Float64 = 7, Complex64 = 9, Complex128 = 10, Bool = 11,
                BFloat16 = 15, UInt16 = 27, UInt32 = 28, UInt64 = 29;
}  // namespace dtype

enum class DTypeKind : uint8_t { Bool, Unsigned, Signed, Float, Complex };

struct DTypeInfo {
  const char* name;  // PyTorch's name without "torch."
  size_t size;       // bytes per element
  DTypeKind kind;
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
