// Storages over Go memory: their release callback reaches Go through a cgo.Handle.
#include "shim.h"

#include "_cgo_export.h"

static void ct_release_go(void *ctx) { ctensorReleaseGo((uintptr_t)ctx); }

ct_result ct_storage_wrap_go(void *data, size_t nbytes, uint32_t flags, uintptr_t handle) {
  tensor_storage_t *out = NULL;
  tensor_status_t status = tensor_storage_wrap(&out, data, nbytes, flags, ct_release_go, (void *)handle);
  return ct_finish(status, out);
}
