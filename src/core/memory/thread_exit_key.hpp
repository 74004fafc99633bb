// A pthread key whose destructor gives a thread's state back when the thread
// exits, made once (as a function-local static) and deleted when the library
// is unloaded, since its destructor is the library's code.
#pragma once

#include <pthread.h>

namespace ctensor::core {

class ThreadExitKey {
 public:
  explicit ThreadExitKey(void (*at_thread_exit)(void*)) noexcept
      : valid_(pthread_key_create(&key_, at_thread_exit) == 0) {}
  // Whether at_thread_exit(value) will run when this thread exits.
  bool set(void* value) noexcept { return valid_ && pthread_setspecific(key_, value) == 0; }
  // At unload: no thread runs at_thread_exit any more, and set() fails.
  void remove() noexcept {
    if (valid_) pthread_key_delete(key_);
    valid_ = false;
  }

 private:
  pthread_key_t key_;
  bool valid_;
};

}  // namespace ctensor::core
