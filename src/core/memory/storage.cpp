#include "memory/storage.hpp"

#include <memory>

#include "error.hpp"
#include "memory/allocator.hpp"

namespace ctensor::core {

namespace {
// DLPack device types whose memory the CPU can address.
constexpr int32_t kDLCPU = 1, kDLCUDAHost = 3, kDLCUDAManaged = 13;
}  // namespace

Ref<Storage> Storage::allocate(size_t nbytes, bool zeroed) {
  void* p = allocate_bytes(nbytes, zeroed);
  try {
    return Ref<Storage>::adopt(
        std::unique_ptr<Storage>(new Storage(p, nbytes, false, true, nullptr, nullptr, Device{})));
  } catch (...) {
    free_bytes(p, nbytes);
    throw;
  }
}

Ref<Storage> Storage::wrap_checked(const char* op, void* data, size_t nbytes, bool readonly,
                                   ReleaseFn release, void* ctx) {
  if (!data && nbytes > 0) fail(Status::Invalid, op, ": data is NULL with nbytes ", nbytes);
  return wrap(data, nbytes, readonly, release, ctx);
}


Storage::~Storage() {
  if (owned_)
    free_bytes(data_, nbytes_);
  else if (release_)
    release_(ctx_);
}

bool Storage::cpu_accessible() const noexcept {
  return device_.type == kDLCPU || device_.type == kDLCUDAHost || device_.type == kDLCUDAManaged;
}

}  // namespace ctensor::core
