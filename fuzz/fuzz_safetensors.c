/* tensor_safetensors_open on arbitrary file contents: refused with a status and
   a message, or every tensor it lists can be got (or, for a dtype ctensor
   lacks, is refused with TENSOR_E_DTYPE), lies inside its storage and can be
   copied; names and metadata are readable strings. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  uint32_t f;
  char path[64];
  const int fd = fuzz_file(data, size, &f, path);
  if (fd < 0) return 0;
  tensor_safetensors_t *st = NULL;
  const tensor_status_t status = tensor_safetensors_open(&st, path, f);
  if (status != TENSOR_OK) {
    FUZZ_CHECK(st == NULL && tensor_last_error()[0] != '\0', "refusal without message");
    close(fd);
    return 0;
  }
  const int64_t n = tensor_safetensors_count(st);
  FUZZ_CHECK(n >= 0, "count %lld", (long long)n);
  for (int64_t i = 0; i < n; ++i) {
    const char *name = tensor_safetensors_name(st, i);
    FUZZ_CHECK(name != NULL, "tensor %lld has no name", (long long)i);
    tensor_t *t = NULL;
    const tensor_status_t got = tensor_safetensors_get(&t, st, name);
    if (got == TENSOR_E_DTYPE) { /* listed with a dtype ctensor lacks (F8_*): refused, with a message */
      FUZZ_CHECK(t == NULL && tensor_last_error()[0] != '\0', "dtype refusal of %s", name);
      continue;
    }
    FUZZ_CHECK(got == TENSOR_OK, "listed tensor %s cannot be got", name);
    check_in_bounds(t);
    if (tensor_numel(t) <= 4096) {
      tensor_t *c = NULL;
      FUZZ_CHECK(tensor_clone(&c, t) == TENSOR_OK, "clone of %s", name);
      tensor_release(c);
    }
    tensor_release(t);
  }
  (void)tensor_safetensors_metadata(st, "format");
  tensor_safetensors_release(st);
  close(fd);
  return 0;
}
