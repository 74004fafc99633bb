// Load flags shared by the file formats; values equal the public TENSOR_LOAD_* flags.
#pragma once

#include <cstdint>

#include "error.hpp"
#include "memory/mapped.hpp"

namespace ctensor::core {

constexpr uint32_t kLoadCopy = 1, kLoadWritable = 2;

// Error(Invalid) naming `op` on unknown bits.
inline void check_load_flags(const char* op, uint32_t flags) {
  if (flags & ~(kLoadCopy | kLoadWritable))
    fail(Status::Invalid, op, ": unknown flags ", flags,
         " (expected 0, TENSOR_LOAD_COPY or TENSOR_LOAD_WRITABLE)");
}

// The mapping mode of a zero-copy load.
inline MapMode load_map_mode(uint32_t flags) {
  return flags & kLoadWritable ? MapMode::Private : MapMode::Read;
}

}  // namespace ctensor::core
