/* DLPack import of arbitrary managed tensors, 1.x and legacy: whatever the
   struct says, the import either fails without calling the deleter or gives a
   tensor whose storage covers exactly the bytes its elements address (computed
   here independently), with the struct's shape, and the deleter runs exactly
   once at release. Elements are only touched when the described bytes lie in
   memory this target owns (and the device is CPU). */
#include "fuzz_common.h"

static int deleted;
static void delete_versioned(DLManagedTensorVersioned *m) { (void)m; ++deleted; }
static void delete_legacy(DLManagedTensor *m) { (void)m; ++deleted; }

enum { kPool = 256 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  reader r = {data, size};
  static uint8_t pool[kPool];
  int64_t shape[70], strides[70];
  DLTensor dl;
  memset(&dl, 0, sizeof dl);
  const uint8_t nd = take_u8(&r);
  dl.ndim = nd < 200 ? nd % 8 : (int32_t)(int8_t)nd * 3; /* small, or negative / past 64 */
  const int64_t cap = dl.ndim > 0 && dl.ndim <= 70 ? dl.ndim : 0;
  for (int64_t d = 0; d < cap; ++d) {
    shape[d] = take_u8(&r) & 1 ? take_i64(&r) : take_u8(&r) % 4;
    strides[d] = take_u8(&r) & 1 ? take_i64(&r) : (int64_t)(int8_t)take_u8(&r) % 5;
  }
  const uint8_t how = take_u8(&r);
  dl.shape = how & 1 ? shape : NULL;
  dl.strides = how & 2 ? strides : NULL;
  dl.byte_offset = how & 4 ? take_u64(&r) : take_u8(&r) % 16;
  dl.dtype.code = take_u8(&r) % 8;
  dl.dtype.bits = take_u8(&r) & 1 ? take_u8(&r) : (uint8_t)(8u << (take_u8(&r) % 5));
  dl.dtype.lanes = take_u8(&r) == 3 ? take_u8(&r) : 1;
  const int cpu = take_u8(&r) % 4 != 0;
  dl.device.device_type = cpu ? kDLCPU : (DLDeviceType)(take_u8(&r) % 20);
  dl.device.device_id = (int32_t)(int8_t)take_u8(&r);
  const uint8_t where = take_u8(&r) % 4;
  dl.data = where == 0 ? NULL : where == 1 ? (void *)(uintptr_t)take_u64(&r) : pool + take_u8(&r) % 64;
  const int legacy = take_u8(&r) & 1;

  DLManagedTensorVersioned mv;
  DLManagedTensor ml;
  memset(&mv, 0, sizeof mv);
  memset(&ml, 0, sizeof ml);
  mv.dl_tensor = ml.dl_tensor = dl;
  mv.version.major = take_u8(&r) == 5 ? take_u8(&r) : 1;
  mv.version.minor = take_u8(&r);
  mv.flags = take_u64(&r);
  mv.deleter = delete_versioned;
  ml.deleter = delete_legacy;

  deleted = 0;
  tensor_t *t = NULL;
  const tensor_status_t st = legacy ? tensor_from_dlpack_legacy(&t, &ml) : tensor_from_dlpack(&t, &mv);
  if (st != TENSOR_OK) {
    FUZZ_CHECK(t == NULL && deleted == 0, "failed import (%s) touched out or the deleter", tensor_status_name(st));
    return 0;
  }
  FUZZ_CHECK(tensor_ndim(t) == dl.ndim, "ndim");
  const size_t item = tensor_dtype_size(tensor_dtype(t));
  FUZZ_CHECK(item * 8 == dl.dtype.bits || (tensor_dtype(t) == TENSOR_BOOL && dl.dtype.bits == 8), "dtype bits");
  /* the addressed bytes, from the struct itself */
  __int128 lo = 0, hi = 0, numel = 1;
  for (int64_t d = 0; d < dl.ndim; ++d) {
    FUZZ_CHECK(tensor_sizes(t)[d] == dl.shape[d], "size %lld", (long long)d);
    numel *= dl.shape[d];
    if (numel > INT64_MAX) numel = INT64_MAX;
  }
  int64_t compact = 1;
  for (int64_t d = dl.ndim - 1; d >= 0 && numel > 0; --d) {
    const int64_t stride = dl.strides ? dl.strides[d] : compact;
    const __int128 reach = (__int128)(dl.shape[d] - 1) * stride * (__int128)item;
    if (reach < 0) lo += reach; else hi += reach;
    compact *= dl.shape[d];
  }
  const __int128 first = (__int128)(uintptr_t)dl.data + dl.byte_offset + lo;
  if (numel > 0) {
    FUZZ_CHECK((__int128)(uintptr_t)tensor_storage_data(tensor_storage(t)) == first, "storage start");
    FUZZ_CHECK((__int128)tensor_storage_nbytes(tensor_storage(t)) == hi - lo + item, "storage size");
    check_in_bounds(t);
  } else {
    FUZZ_CHECK(tensor_storage_nbytes(tensor_storage(t)) == 0, "empty view with storage bytes");
  }
  int32_t type, id;
  tensor_device(t, &type, &id);
  FUZZ_CHECK(type == (int32_t)dl.device.device_type && id == dl.device.device_id, "device");
  const uint8_t *start = tensor_storage_data(tensor_storage(t));
  const int inside = cpu && numel > 0 && start >= pool && start + tensor_storage_nbytes(tensor_storage(t)) <= pool + kPool;
  if (inside && numel <= 4096) {
    tensor_t *c = NULL;
    FUZZ_CHECK(tensor_contiguous(&c, t) == TENSOR_OK, "contiguous");
    tensor_release(c);
  }
  FUZZ_CHECK(deleted == 0, "deleter ran early");
  tensor_release(t);
  FUZZ_CHECK(deleted == 1, "deleter ran %d times", deleted);
  return 0;
}
