// Memory for owned storages: 64-byte aligned blocks.
//
// Policy. Blocks under 1 MiB come from posix_memalign. Larger blocks are
// anonymous mappings rounded up to whole 2 MiB huge pages, 2 MiB aligned and
// marked MADV_HUGEPAGE, so that first touch faults once per 2 MiB instead of
// once per 4 KiB. A freed large block is kept in a cache and handed out again
// for the next request of the same rounded size, so results that are created
// and dropped repeatedly (the usual life of a materialised view) pay no page
// faults at all. The cache holds at most 1 GiB (or $CTENSOR_ALLOC_CACHE_BYTES,
// read once; 0 disables it); beyond that the oldest blocks are unmapped.
// Zero-filled requests served from the cache are cleared before use.
#pragma once

#include <cstddef>

namespace ctensor::core {

// Returns nbytes of 64-byte aligned memory (zero-filled if `zeroed`), or throws
// Error(NoMem). nbytes 0 returns a valid unique pointer. Thread-safe.
void* allocate_bytes(size_t nbytes, bool zeroed);

// Returns memory from allocate_bytes; `nbytes` must be the size it was asked for.
// Thread-safe.
void free_bytes(void* p, size_t nbytes) noexcept;

}  // namespace ctensor::core
