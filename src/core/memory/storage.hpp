// A refcounted byte buffer: owned memory or borrowed memory with a release callback.
#pragma once

#include <cstddef>
#include <cstdint>

#include "memory/block_cache.hpp"
#include "memory/refcount.hpp"

namespace ctensor::core {

// Where the bytes live; values equal DLPack's DLDeviceType.
struct Device {
  int32_t type = 1;  // kDLCPU
  int32_t id = 0;
};

// Called once with ctx when a borrowed buffer is no longer referenced.
using ReleaseFn = void (*)(void* ctx);

class Storage final : public RefCounted<Storage> {
 public:
  // Owned, 64-byte aligned memory; zero-filled if `zeroed`.
  static Ref<Storage> allocate(size_t nbytes, bool zeroed);
  // Borrowed memory; release(ctx) runs in the destructor (release may be null).
  // Inline: every from_blob (from_numpy, from_dlpack) wraps one.
  static Ref<Storage> wrap(void* data, size_t nbytes, bool readonly, ReleaseFn release, void* ctx,
                           Device device = {}) {
    return Ref<Storage>::adopt(new Storage(data, nbytes, readonly, false, release, ctx, device));
  }
  // tensor_storage_wrap: wrap() after checking that data is non-NULL when
  // nbytes > 0 (Error(Invalid)).
  static Ref<Storage> wrap_checked(const char* op, void* data, size_t nbytes, bool readonly,
                                   ReleaseFn release, void* ctx);

  ~Storage();

  // Storages come from a small per-thread cache of freed blocks (BlockCache:
  // every from_numpy and from_dlpack wraps one).
  static void* operator new(size_t size) { return BlockCache<Storage>::take(size); }
  static void operator delete(void* p) noexcept { BlockCache<Storage>::give(p); }

  void* data() const noexcept { return data_; }
  size_t nbytes() const noexcept { return nbytes_; }
  bool readonly() const noexcept { return readonly_; }
  Device device() const noexcept { return device_; }
  // True when the CPU may read and write the bytes directly.
  bool cpu_accessible() const noexcept;
  // Gives a storage that has not been handed out yet its release callback, once
  // nothing can fail any more: a constructor failing after wrap() then leaves
  // the caller's memory untouched.
  void attach_release(ReleaseFn release, void* ctx) noexcept {
    release_ = release;
    ctx_ = ctx;
  }
  // Makes a storage that has not been handed out yet read-only (results that must not be written).
  void seal() noexcept { readonly_ = true; }
  // The release callback and its context, so that a kind of borrowed storage
  // (file mappings, shared memory) can recognise its own storages.
  ReleaseFn release_fn() const noexcept { return release_; }
  void* release_context() const noexcept { return ctx_; }

 private:
  Storage(void* data, size_t nbytes, bool readonly, bool owned, ReleaseFn release, void* ctx,
          Device device) noexcept
      : data_(data),
        nbytes_(nbytes),
        readonly_(readonly),
        owned_(owned),
        release_(release),
        ctx_(ctx),
        device_(device) {}

  void* data_;
  size_t nbytes_;
  bool readonly_;
  bool owned_;
  ReleaseFn release_;
  void* ctx_;
  Device device_;
};

}  // namespace ctensor::core
