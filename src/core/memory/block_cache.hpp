// Per-thread caches of freed blocks for the small objects that every view and
// every wrapped foreign buffer makes and drops (tensors, storages): their class
// operator new and delete go through BlockCache<T>.
#pragma once

#include <pthread.h>

#include <cstddef>
#include <new>

namespace ctensor::core {

#ifndef CTENSOR_NO_CACHES

// Freed blocks of sizeof(T) kept for reuse by this thread, linked through their
// first word. Initial-exec TLS of plain data: touching it never allocates, not
// even on a thread's first call or when the library was dlopen()ed (dynamic TLS
// is allocated on first access and aborts the process when that fails). The
// blocks go back to the heap at thread exit through a pthread key, set when the
// thread keeps its first block; if setting it fails, blocks are not kept. A
// block freed on another thread joins that thread's cache.
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
    if (l.count < List::kMax && !l.closed) {
      if (!l.registered) l.registered = register_thread_exit(l);
      if (l.registered) {
        l.head = ::new (p) FreeBlock{l.head};
        ++l.count;
        return;
      }
    }
    ::operator delete(p);
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

  static void drain(void*) noexcept {
    List& l = list_;
    l.closed = true;
    while (FreeBlock* b = l.head) {
      l.head = b->next;
      ::operator delete(b);
    }
    l.count = 0;
  }

  // Created on first use; if no key is to be had, no thread keeps blocks.
  static bool register_thread_exit(List& l) noexcept {
    static pthread_key_t key;
    static const bool have_key = pthread_key_create(&key, drain) == 0;
    return have_key && pthread_setspecific(key, &l) == 0;
  }
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
};

#endif

}  // namespace ctensor::core
