// How a file format loads its data: the public TENSOR_LOAD_* flags and
// tensor_load_options_t, decoded by the C facade (capi/decode.hpp).
#pragma once

#include <cstdint>

#include "memory/mapped.hpp"

namespace ctensor::core {

struct LoadOptions {
  bool copy = false;      // read into owned, writable memory instead of mapping
  bool writable = false;  // map copy-on-write instead of read-only
  // Copy-mode reads: the caller's progress callback (tensor_progress_fn) and
  // the threads to read with (0: num_threads()).
  int32_t (*progress)(void* user, uint64_t done, uint64_t total) = nullptr;
  void* progress_user = nullptr;
  uint64_t progress_min_bytes = 0;
  int32_t num_threads = 0;

  // The mapping mode of a zero-copy load.
  MapMode map_mode() const noexcept { return writable ? MapMode::Private : MapMode::Read; }
};

}  // namespace ctensor::core
