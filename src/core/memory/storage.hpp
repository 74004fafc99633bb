// A refcounted byte buffer: owned memory or borrowed memory with a release callback.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <utility>

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

  // Relaxed: only swap_memory changes it, and the public contract leaves the
  // synchronisation of that with any other use of the storage to the caller.
  void* data() const noexcept { return data_.load(std::memory_order_relaxed); }
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
  // Marks a storage that has not been handed out yet as holding the conjugates
  // tensor_conj made where PyTorch returns a lazy conjugate view (its conjugate bit).
  void mark_conjugates() noexcept { conjugates_ = true; }
  bool conjugates() const noexcept { return conjugates_; }
  // The release callback and its context, so that a kind of borrowed storage
  // (file mappings, shared memory) can recognise its own storages.
  ReleaseFn release_fn() const noexcept { return release_; }
  void* release_context() const noexcept { return ctx_; }

  // Exports whose consumer keeps the data pointer (DLPack, Arrow, a binding's
  // buffer) pin the storage's memory: swap_memory's callers refuse while pinned.
  void pin() noexcept { pins_.fetch_add(1, std::memory_order_relaxed); }
  void unpin() noexcept { pins_.fetch_sub(1, std::memory_order_relaxed); }
  bool pinned() const noexcept { return pins_.load(std::memory_order_relaxed) > 0; }
  // Exchanges the memory (pointer, ownership, release callback) of two storages of
  // the same size and device; read-only stays with each storage. Every tensor
  // viewing either storage then reads the other's bytes.
  void swap_memory(Storage& o) noexcept {
    o.data_.store(data_.exchange(o.data(), std::memory_order_relaxed), std::memory_order_relaxed);
    std::swap(owned_, o.owned_);
    std::swap(release_, o.release_);
    std::swap(ctx_, o.ctx_);
  }

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

  std::atomic<void*> data_;
  std::atomic<int64_t> pins_{0};
  size_t nbytes_;
  bool readonly_;
  bool owned_;
  bool conjugates_ = false;
  ReleaseFn release_;
  void* ctx_;
  Device device_;
};

// Pins a storage (Storage::pin) and keeps it alive for as long as it lives.
class MemoryPin {
 public:
  MemoryPin() noexcept = default;
  explicit MemoryPin(Storage* s) noexcept : s_(Ref<Storage>::share(s)) {
    if (s_) s_->pin();
  }
  MemoryPin(const MemoryPin& o) noexcept : MemoryPin(o.s_.get()) {}
  MemoryPin& operator=(MemoryPin o) noexcept {
    std::swap(s_, o.s_);
    return *this;
  }
  ~MemoryPin() {
    if (s_) s_->unpin();
  }

 private:
  Ref<Storage> s_;
};

}  // namespace ctensor::core
