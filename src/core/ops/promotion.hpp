// Type promotion as PyTorch's: promote_types over the dtype lattice, and
// result_type's three priorities (tensors with dims, then 0-dim tensors, then
// wrapped numbers), where a lower-priority operand only counts when its
// category (bool < integer < float < complex) is higher.
#pragma once

#include <cstdint>

#include "dtype/dtype.hpp"
#include "layout/tensor.hpp"

namespace ctensor::core {

// The dtype's promotion category (dtype/dtype.hpp's kind).
inline DTypeKind category(DType d) noexcept { return dtype_info(d)->kind; }

// torch.promote_types, with the unsigned 16/32/64-bit types placed in the
// integer lattice by value range (uint32 with int32 gives int64); uint64 with a
// signed integer has no integer type holding both: Error(DType).
DType promote_types(const char* op, DType a, DType b);

// torch.result_type over `n` operands (n >= 1).
DType result_type(const char* op, int64_t n, const Tensor* const* operands);
DType result_type(const char* op, const Tensor& a, const Tensor& b);

// torch.can_cast: whether an op computing in `from` may write into `to` (out=
// and in-place rules): never complex into a real type, float into an integer or
// bool, or anything but bool into bool.
bool can_cast(DType from, DType to) noexcept;

// Throws TENSOR_E_DTYPE (torch's message) unless can_cast(result, dst): the out=
// check every *_into op shares.
void require_castable(const char* op, DType result, DType dst);

// The default float (float32) for integer and bool dtypes; `d` otherwise. What
// true division and mean-like ops compute in.
DType to_floating(DType d) noexcept;

// The real counterpart of a complex dtype (complex64 -> float32); `d` otherwise.
DType to_real(DType d) noexcept;

const char* dtype_name(DType d) noexcept;

}  // namespace ctensor::core
