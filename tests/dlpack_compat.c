/* ctensor.h after an official-style dlpack.h: it must reuse the official types
 * (no redefinition), add only what a 0.x header lacks, and exchange through them.
 * Compiled as C99 and (dlpack_compat.cpp) as C++. */
#if DLPACK_FIXTURE == 1
#include "official_v1.h"
#else
#include "official_v0.h"
#endif
#include "ctensor.h"

#include <stdio.h>

#define CHECK(cond)                                                     \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, #cond); \
      return 1;                                                         \
    }                                                                   \
  } while (0)

#if DLPACK_FIXTURE == 1
/* the fixture's own definitions are the ones in use */
static const DLDeviceType fixture_only = kDLTrn;
#if DLPACK_MINOR_VERSION != 1
#error "ctensor_dlpack.h replaced the official version macros"
#endif
#else
#ifdef DLPACK_MAJOR_VERSION
#error "over a 0.x header, ctensor_dlpack.h must not claim the 1.x version macros"
#endif
#endif

int main(void) {
#if DLPACK_FIXTURE == 1
  CHECK(fixture_only == 18);
#endif
  const int64_t sizes[2] = {2, 3};
  tensor_t *t = NULL, *back = NULL;
  CHECK(tensor_zeros(&t, 2, sizes, TENSOR_INT32) == TENSOR_OK);

  DLManagedTensorVersioned *m = NULL;
  CHECK(tensor_to_dlpack(&m, t, 0) == TENSOR_OK);
  CHECK(m->version.major == 1);
  CHECK(m->flags == 0);
  CHECK(m->dl_tensor.data == tensor_data(t));
  CHECK(m->dl_tensor.device.device_type == kDLCPU);
  CHECK(m->dl_tensor.ndim == 2 && m->dl_tensor.shape[1] == 3 && m->dl_tensor.strides[0] == 3);
  CHECK(m->dl_tensor.dtype.code == kDLInt && m->dl_tensor.dtype.bits == 32);
  CHECK(tensor_from_dlpack(&back, m) == TENSOR_OK);
  CHECK(tensor_data(back) == tensor_data(t));
  tensor_release(back);

  DLManagedTensor *legacy = NULL;
  CHECK(tensor_to_dlpack_legacy(&legacy, t) == TENSOR_OK);
  CHECK(legacy->dl_tensor.data == tensor_data(t) && legacy->dl_tensor.strides[1] == 1);
  CHECK(tensor_from_dlpack_legacy(&back, legacy) == TENSOR_OK);
  CHECK(tensor_numel(back) == 6);
  tensor_release(back);

  CHECK(tensor_refcount(t) == 1);
  tensor_release(t);
  return 0;
}
