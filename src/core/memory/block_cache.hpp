// Per-thread caches of freed blocks for the small objects that every view and
// every wrapped foreign buffer makes and drops (tensors, storages): their class
// operator new and delete go through BlockCache<T>.
#pragma once

#include <atomic>
#include <cstddef>
#include <new>

#include "memory/thread_exit_key.hpp"

namespace ctensor::core {

#ifndef CTENSOR_NO_CACHES

// Freed blocks of sizeof(T) kept for reuse by this thread, linked through their
// first word. Initial-exec TLS of plain data: touching it never allocates, not
// even on a thread's first call or when the library was dlopen()ed (dynamic TLS
// is allocated on first access and aborts the process when that fails). The
// blocks go back to the heap at thread exit through a pthread key, set when the
// thread keeps its first block; if setting it fails, blocks are not kept. A
// block freed on another thread joins that thread's cache. release_thread()
// gives the calling thread's blocks back now (tensor_thread_release_caches);
// unload() runs when the library is unloaded or the process exits, where the
// main thread's exit runs no pthread key destructor.
template <typename T>
class BlockCache {
 public:
  static void* take(size_t size) {
    List& l = list_;
    if (size == sizeof(T) && l.head) {
      FreeBlock* b = l.head;
      l.head = b->next;
      --l.count;
      return b;
    }
    return ::operator new(size);
  }

  static void give(void* p) noexcept {
    List& l = list_;
    if (l.count < List::kMax && !l.closed && !unloaded_.load(std::memory_order_relaxed)) {
      if (!l.registered) l.registered = register_thread_exit(l);
      if (l.registered) {
        l.head = ::new (p) FreeBlock{l.head};
        ++l.count;
        return;
      }
    }
    ::operator delete(p);
  }

  static void release_thread() noexcept { free_all(list_); }

  // This thread's blocks go back, no thread keeps blocks from now on, and the
  // thread-exit key goes (its destructor would be code that is unmapped).
  static void unload() noexcept {
    unloaded_.store(true, std::memory_order_relaxed);
    drain(nullptr);
    key().remove();
  }

 private:
  struct FreeBlock {
    FreeBlock* next;
  };
  struct List {
    static constexpr int kMax = 64;
    FreeBlock* head;
    int count;
    bool registered;
    bool closed;  // the thread is ending: no more blocks are kept
  };
  static thread_local List list_ __attribute__((tls_model("initial-exec")));

  static inline std::atomic<bool> unloaded_{false};

  static void free_all(List& l) noexcept {
    while (FreeBlock* b = l.head) {
      l.head = b->next;
      ::operator delete(b);
    }
    l.count = 0;
  }

  static void drain(void*) noexcept {
    List& l = list_;
    l.closed = true;
    free_all(l);
  }

  // If no key is to be had, no thread keeps blocks.
  static ThreadExitKey& key() noexcept {
    static ThreadExitKey k(drain);
    return k;
  }

  static bool register_thread_exit(List& l) noexcept { return key().set(&l); }
};

template <typename T>
thread_local typename BlockCache<T>::List BlockCache<T>::list_;

#else

// Sanitizer and allocation-failure builds: every object is its own heap block,
// so use after release and double release are seen.
template <typename T>
class BlockCache {
 public:
  static void* take(size_t size) { return ::operator new(size); }
  static void give(void* p) noexcept { ::operator delete(p); }
  static void release_thread() noexcept {}
  static void unload() noexcept {}
};

#endif

}  // namespace ctensor::core
