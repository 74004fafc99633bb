// DLPack exchange: which DLPack element types match which dtypes, and
// export/import of managed tensors. Export
// hands out a managed tensor that holds a tensor reference; import wraps the
// producer's memory in a storage whose release runs the producer's deleter.
// Neither copies elements or touches device memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>

#include "dtype/dtype.hpp"
#include "layout/tensor.hpp"
#include "ctensor_dlpack.h"

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

// tensor_to_dlpack: a DLPack 1.x managed tensor holding a reference to t.
DLManagedTensorVersioned* export_dlpack(Tensor& t);
// tensor_to_dlpack_legacy: a pre-1.0 managed tensor; Error(ReadOnly) for read-only t.
DLManagedTensor* export_dlpack_legacy(const char* op, Tensor& t);

// tensor_from_dlpack(_legacy): a tensor viewing m's memory, checked as the public
// header lists. Ownership of m passes to the tensor only on success.
Ref<Tensor> import_dlpack(const char* op, DLManagedTensorVersioned* m);
Ref<Tensor> import_dlpack_legacy(const char* op, DLManagedTensor* m);

}  // namespace ctensor::core
