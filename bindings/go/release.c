// Storages over Go memory, whose release callback reaches Go through a
// cgo.Handle, and loads whose progress callback does.
#include "shim.h"

#include "_cgo_export.h"

static void ct_release_go(void *ctx) { ctensorReleaseGo((uintptr_t)ctx); }

ct_result ct_storage_wrap_go(void *data, size_t nbytes, uint32_t flags, uintptr_t handle) {
  tensor_storage_t *out = NULL;
  tensor_status_t status = tensor_storage_wrap(&out, data, nbytes, flags, ct_release_go, (void *)handle);
  return ct_finish(status, out);
}

static int32_t ct_progress_go(void *user, uint64_t done, uint64_t total) {
  return ctensorProgressGo((uintptr_t)user, done, total);
}

static tensor_load_options_t ct_load_options(uintptr_t progress, uint64_t min_bytes, int32_t threads) {
  tensor_load_options_t o;
  memset(&o, 0, sizeof o);
  o.struct_size = sizeof o;
  o.progress = progress ? ct_progress_go : NULL;
  o.progress_user = (void *)progress;
  o.progress_min_bytes = min_bytes;
  o.num_threads = threads;
  return o;
}

ct_result ct_load_npy_with_go(const char *path, uint32_t flags, uintptr_t progress, uint64_t min_bytes,
                              int32_t threads) {
  const tensor_load_options_t o = ct_load_options(progress, min_bytes, threads);
  tensor_t *out = NULL;
  return ct_finish(tensor_load_npy_with(&out, path, flags, &o), out);
}

ct_result ct_safetensors_open_with_go(const char *path, uint32_t flags, uintptr_t progress, uint64_t min_bytes,
                                      int32_t threads) {
  const tensor_load_options_t o = ct_load_options(progress, min_bytes, threads);
  tensor_safetensors_t *out = NULL;
  return ct_finish(tensor_safetensors_open_with(&out, path, flags, &o), out);
}
