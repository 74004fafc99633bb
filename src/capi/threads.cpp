// What a host runtime needs around threads: giving the calling thread's cached
// blocks back, and the caches' release when the library is unloaded.
#include "guard.hpp"
#include "layout/tensor.hpp"
#include "memory/storage.hpp"

using namespace ctensor;

namespace {

// Runs at exit() (after every atexit handler and C++ static destructor; the
// library is linked -z nodelete, so dlclose() does not unload it): the exiting
// thread's cached blocks and message buffer go back (the main thread's exit
// runs no pthread key destructor), and no thread keeps either any more.
__attribute__((destructor)) void release_caches_at_unload() {
  core::BlockCache<core::Tensor>::unload();
  core::BlockCache<core::Storage>::unload();
  capi::release_last_error_at_unload();
}

}  // namespace

extern "C" {

void tensor_thread_release_caches(void) {
  core::BlockCache<core::Tensor>::release_thread();
  core::BlockCache<core::Storage>::release_thread();
}

}  // extern "C"
