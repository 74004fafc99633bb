/* tensor_from_buffer with arbitrary arguments over a buffer of exactly nbytes
   (so ASan sees any access past it): success gives a 1-D view at buffer+offset
   inside the buffer whose release callback runs exactly once; failure takes
   nothing over and never calls it. */
#include "fuzz_common.h"

static int released;
static void count_release(void *ctx) {
  (void)ctx;
  ++released;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  reader r = {data, size};
  const size_t nbytes = take_u8(&r) % 200;
  const tensor_dtype_t dtype = take_dtype(&r);
  const int64_t count = take_i64(&r), offset = take_i64(&r);
  uint32_t flags = take_u8(&r) & 1 ? TENSOR_READONLY : 0;
  if (take_u8(&r) == 7) flags = (uint32_t)take_u64(&r);
  uint8_t *buffer = nbytes ? malloc(nbytes) : NULL;
  for (size_t i = 0; i < nbytes; ++i) buffer[i] = (uint8_t)i;
  void *arg = buffer;
  if (take_u8(&r) == 9) arg = NULL;

  released = 0;
  tensor_t *t = (tensor_t *)&released; /* must become NULL on failure */
  const tensor_status_t st = tensor_from_buffer(&t, arg, nbytes, dtype, count, offset, flags, count_release, NULL);
  if (st != TENSOR_OK) {
    FUZZ_CHECK(t == NULL, "out not NULL after %s", tensor_status_name(st));
    FUZZ_CHECK(released == 0, "release ran on failure");
    FUZZ_CHECK(tensor_last_error()[0] != '\0', "no message for %s", tensor_status_name(st));
  } else {
    const size_t item = tensor_dtype_size(dtype);
    FUZZ_CHECK(tensor_ndim(t) == 1 && tensor_dtype(t) == dtype, "shape/dtype");
    FUZZ_CHECK(offset >= 0 && (size_t)offset < nbytes, "offset %lld accepted", (long long)offset);
    FUZZ_CHECK((uint8_t *)tensor_data(t) == buffer + offset, "data pointer");
    FUZZ_CHECK((size_t)tensor_numel(t) * item <= nbytes - (size_t)offset, "view past the buffer");
    FUZZ_CHECK(count < 0 || tensor_numel(t) == count, "count");
    FUZZ_CHECK(tensor_is_readonly(t) == ((flags & TENSOR_READONLY) != 0), "read-only flag");
    check_in_bounds(t);
    tensor_t *c = NULL;
    FUZZ_CHECK(tensor_clone(&c, t) == TENSOR_OK, "clone");
    uint8_t *want = gather(t);
    FUZZ_CHECK(memcmp(tensor_data(c), want, (size_t)tensor_numel(t) * item) == 0, "clone differs");
    free(want);
    tensor_release(c);
    FUZZ_CHECK(released == 0, "released early");
    tensor_release(t);
    FUZZ_CHECK(released == 1, "release ran %d times", released);
  }
  free(buffer);
  return 0;
}
