// The core side of DLPack exchange, free of the C structs: which DLPack element
// types match which dtypes, and which bytes a foreign strided view addresses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "dtype/dtype.hpp"

namespace ctensor::core {

// A DLPack element type with lanes 1: DLDataTypeCode value and bits per element.
struct DLPackType {
  uint8_t code;
  uint8_t bits;
};

// The DLPack type of a known dtype.
DLPackType dlpack_type(DType d) noexcept;

// The dtype a DLPack (code, bits) stands for; nullopt if ctensor has none.
std::optional<DType> dtype_from_dlpack(uint8_t code, uint8_t bits) noexcept;

// Exactly the bytes a strided view addresses, as a storage to wrap: `base` is the
// lowest addressed byte, element [0,...,0] sits at storage_offset elements from it.
struct ByteWindow {
  uintptr_t base;
  size_t nbytes;
  int64_t storage_offset;
};

// The window of a view whose element [0,...,0] is at address data + byte_offset.
// A view with no elements gets an empty window there. Error(Overflow) if an extent
// or an address overflows; sizes must have been checked (check_sizes).
ByteWindow addressed_bytes(const char* op, uintptr_t data, uint64_t byte_offset, int64_t ndim,
                           const int64_t* sizes, const int64_t* strides, size_t itemsize);

}  // namespace ctensor::core
