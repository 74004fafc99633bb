// Memory for owned storages: 64-byte aligned blocks.
#pragma once

#include <cstddef>

namespace ctensor::core {

// Returns nbytes of 64-byte aligned memory (zero-filled if `zeroed`), or throws
// Error(NoMem). nbytes 0 returns a valid unique pointer.
void* allocate_bytes(size_t nbytes, bool zeroed);

// Returns memory from allocate_bytes; `nbytes` must be the size it was asked for.
void free_bytes(void* p, size_t nbytes) noexcept;

}  // namespace ctensor::core
