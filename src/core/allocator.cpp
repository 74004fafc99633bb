#include "allocator.hpp"

#include <cstdlib>
#include <cstring>

#include "error.hpp"

namespace ctensor::core {

namespace {
constexpr size_t kAlignment = 64;
}

void* allocate_bytes(size_t nbytes, bool zeroed) {
  void* p = nullptr;
  if (posix_memalign(&p, kAlignment, nbytes ? nbytes : kAlignment) != 0)
    fail(Status::NoMem, "cannot allocate ", nbytes, " bytes");
  if (zeroed) std::memset(p, 0, nbytes);
  return p;
}

void free_bytes(void* p, size_t) noexcept { std::free(p); }

}  // namespace ctensor::core
