// Intrusive atomic reference counting shared by storages and tensors.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <utility>

namespace ctensor::core {

// Base for objects whose lifetime is a count of references held by C handles
// and by other objects (a tensor holds its storage). Starts with one reference.
template <typename Derived>
class RefCounted {
 public:
  RefCounted() = default;
  RefCounted(const RefCounted&) = delete;
  RefCounted& operator=(const RefCounted&) = delete;

  void retain() const noexcept { refs_.fetch_add(1, std::memory_order_relaxed); }
  void release() const noexcept {
    // A count of 1 seen by the holder of that one reference cannot change under
    // it (only a holder can add references), so the last release skips the
    // atomic read-modify-write; the acquire load, like the acq_rel decrement,
    // makes every write made through other references visible to the deleter.
    if (refs_.load(std::memory_order_acquire) == 1 ||
        refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      std::default_delete<const Derived>()(static_cast<const Derived*>(this));
    }
  }
  int64_t refcount() const noexcept { return refs_.load(std::memory_order_relaxed); }

 protected:
  ~RefCounted() = default;

 private:
  mutable std::atomic<int64_t> refs_{1};
};

// Owning smart pointer over a RefCounted object (one reference).
template <typename T>
class Ref {
 public:
  Ref() noexcept = default;
  // Takes over the reference held by `p` (for example a freshly built object).
  static Ref adopt(T* p) noexcept { return Ref(p); }
  static Ref adopt(std::unique_ptr<T> p) noexcept { return Ref(p.release()); }
  // Adds a reference to `p`.
  static Ref share(T* p) noexcept {
    if (p) p->retain();
    return Ref(p);
  }

  Ref(const Ref& o) noexcept : p_(o.p_) {
    if (p_) p_->retain();
  }
  Ref(Ref&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  Ref& operator=(Ref o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  ~Ref() {
    if (p_) p_->release();
  }

  T* get() const noexcept { return p_; }
  T* operator->() const noexcept { return p_; }
  T& operator*() const noexcept { return *p_; }
  explicit operator bool() const noexcept { return p_ != nullptr; }
  // Gives the reference away (to a C caller).
  T* leak() noexcept { return std::exchange(p_, nullptr); }

 private:
  explicit Ref(T* p) noexcept : p_(p) {}
  T* p_ = nullptr;
};

}  // namespace ctensor::core
