#include "interop/dlpack.hpp"

#include <cstdint>

#include "error.hpp"
#include "layout/shape.hpp"

namespace ctensor::core {

namespace {

// DLDataTypeCode values from the DLPack specification.
constexpr uint8_t kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5,
                  kDLBool = 6;

struct Mapping {
  DType dtype;
  DLPackType type;
};

constexpr Mapping kMappings[] = {
    {dtype::UInt8, {kDLUInt, 8}},         {dtype::Int8, {kDLInt, 8}},
    {dtype::Int16, {kDLInt, 16}},         {dtype::Int32, {kDLInt, 32}},
    {dtype::Int64, {kDLInt, 64}},         {dtype::Float16, {kDLFloat, 16}},
    {dtype::Float32, {kDLFloat, 32}},     {dtype::Float64, {kDLFloat, 64}},
    {dtype::Complex64, {kDLComplex, 64}}, {dtype::Complex128, {kDLComplex, 128}},
    {dtype::Bool, {kDLBool, 8}},          {dtype::BFloat16, {kDLBfloat, 16}},
    {dtype::UInt16, {kDLUInt, 16}},       {dtype::UInt32, {kDLUInt, 32}},
    {dtype::UInt64, {kDLUInt, 64}},
};

}  // namespace

DLPackType dlpack_type(DType d) noexcept {
  for (const Mapping& m : kMappings)
    if (m.dtype == d) return m.type;
  return {kDLUInt, 0};  // unreachable for known dtypes; bits 0 matches nothing
}

std::optional<DType> dtype_from_dlpack(uint8_t code, uint8_t bits) noexcept {
  for (const Mapping& m : kMappings)
    if (m.type.code == code && m.type.bits == bits) return m.dtype;
  return std::nullopt;
}

ByteWindow addressed_bytes(const char* op, uintptr_t data, uint64_t byte_offset, int64_t ndim,
                           const int64_t* sizes, const int64_t* strides, size_t itemsize) {
  uintptr_t first;  // address of element [0,...,0]
  if (__builtin_add_overflow(data, byte_offset, &first))
    fail(Status::Overflow, op, ": data address + byte_offset ", byte_offset, " overflows");
  for (int64_t i = 0; i < ndim; ++i)
    if (sizes[i] == 0) return {first, 0, 0};

  checked_numel(op, ndim, sizes);
  const Extent e = element_extent(op, ndim, sizes, strides);
  const int64_t item = static_cast<int64_t>(itemsize);
  const int64_t before = checked_mul(e.lo, -1, op);  // elements below element [0,...,0]
  const int64_t count = checked_add(checked_add(e.hi, 1, op), before, op);
  const int64_t nbytes = checked_mul(count, item, op);
  const int64_t below = checked_mul(before, item, op);
  // The window [first - below, first - below + nbytes) must be a real address range.
  const bool fits = static_cast<uint64_t>(below) <= first && static_cast<uint64_t>(nbytes) <= SIZE_MAX &&
                    static_cast<uint64_t>(nbytes) <= UINTPTR_MAX - (first - static_cast<uint64_t>(below));
  if (!fits)
    fail(Status::Overflow, op, ": the view spans bytes [-", below, ", ", nbytes - below,
         ") around its first element, which leaves the address space (sizes ", DimList{sizes, ndim},
         ", strides ", DimList{strides, ndim}, ")");
  return {first - static_cast<uintptr_t>(below), static_cast<size_t>(nbytes), before};
}

}  // namespace ctensor::core
