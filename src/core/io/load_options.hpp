// How a file format loads its data (decoded from the public TENSOR_LOAD_* flags
// by the C facade).
#pragma once

#include "memory/mapped.hpp"

namespace ctensor::core {

struct LoadOptions {
  bool copy = false;      // read into owned, writable memory instead of mapping
  bool writable = false;  // map copy-on-write instead of read-only

  // The mapping mode of a zero-copy load.
  MapMode map_mode() const noexcept { return writable ? MapMode::Private : MapMode::Read; }
};

}  // namespace ctensor::core
