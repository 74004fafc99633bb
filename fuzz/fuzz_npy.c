/* tensor_load_npy on arbitrary file contents, with each load flag: a malformed
   file is refused with a status and a message, never read past its end; a
   loaded tensor lies inside its storage and can be copied. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint32_t f;
  char path[64];
  const int fd = fuzz_file(data, size, &f, path);
  if (fd < 0) return 0;
  tensor_t *t = NULL;
  const tensor_status_t st = tensor_load_npy(&t, path, f);
  if (st == TENSOR_OK) {
    check_in_bounds(t);
    tensor_t *c = NULL;
    if (tensor_numel(t) <= 4096) {
      FUZZ_CHECK(tensor_clone(&c, t) == TENSOR_OK, "clone of a loaded array");
      tensor_release(c);
    }
    tensor_release(t);
  } else {
    FUZZ_CHECK(t == NULL && tensor_last_error()[0] != '\0', "refusal without message (%s)", tensor_status_name(st));
  }
  close(fd);
  return 0;
}
