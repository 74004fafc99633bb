// Copy-mode reads of a file's bytes into owned memory: chunked pread on the
// engine's thread pool, with a progress callback that may cancel.
#pragma once

#include <cstddef>
#include <cstdint>

#include "io/load_options.hpp"
#include "memory/mapped.hpp"

namespace ctensor::core {

// Reads nbytes at `offset` of `file` (which the caller has checked lie inside
// it) into a new owned storage, in chunks on up to options.num_threads threads;
// reports to options.progress from the calling thread (see tensor_progress_fn).
// Error(IO) on a failed read, Error(Format) if the file ends first (`what` names
// the part being read), Error(Cancelled) when the callback asks to stop.
Ref<Storage> read_chunked(const char* op, const File& file, uint64_t offset, size_t nbytes,
                          const char* what, const LoadOptions& options);

}  // namespace ctensor::core
