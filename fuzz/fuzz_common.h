/* Shared by the fuzz targets: a byte reader and the invariants every tensor
   the library hands out must keep. Only the public header is used. */
#ifndef CTENSOR_FUZZ_COMMON_H
#define CTENSOR_FUZZ_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ctensor.h"

/* A finding: print and abort, so libFuzzer saves the input. */
#define FUZZ_CHECK(cond, ...)                                           \
  do {                                                                  \
    if (!(cond)) {                                                      \
      fprintf(stderr, "%s:%d: invariant %s broken: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                     \
      fprintf(stderr, " (last error: %s)\n", tensor_last_error());      \
      abort();                                                          \
    }                                                                   \
  } while (0)

typedef struct {
  const uint8_t *p;
  size_t n;
} reader;

static inline uint8_t take_u8(reader *r) {
  if (r->n == 0) return 0;
  --r->n;
  return *r->p++;
}

static inline uint64_t take_u64(reader *r) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= (uint64_t)take_u8(r) << (8 * i);
  return v;
}

/* Small numbers mostly, and now and then the extremes that break arithmetic. */
static inline int64_t take_i64(reader *r) {
  const uint8_t kind = take_u8(r);
  switch (kind % 8) {
    case 0: return (int64_t)take_u64(r);
    case 1: return INT64_MAX - (int64_t)(take_u8(r) % 4);
    case 2: return INT64_MIN + (int64_t)(take_u8(r) % 4);
    case 3: return (int64_t)1 << (take_u8(r) % 63);
    default: return (int64_t)(int8_t)take_u8(r);
  }
}

static const tensor_dtype_t kAllDtypes[] = {
    TENSOR_UINT8,   TENSOR_INT8,      TENSOR_INT16,      TENSOR_INT32, TENSOR_INT64,
    TENSOR_FLOAT16, TENSOR_FLOAT32,   TENSOR_FLOAT64,    TENSOR_COMPLEX64,
    TENSOR_COMPLEX128, TENSOR_BOOL,   TENSOR_BFLOAT16,   TENSOR_UINT16, TENSOR_UINT32,
    TENSOR_UINT64};
#define N_DTYPES (sizeof kAllDtypes / sizeof *kAllDtypes)

/* A known dtype mostly; sometimes any int32 (unknown ones must be refused). */
static inline tensor_dtype_t take_dtype(reader *r) {
  const uint8_t b = take_u8(r);
  if (b == 255) return (tensor_dtype_t)take_u64(r);
  return kAllDtypes[b % N_DTYPES];
}

/* Every element a tensor with elements addresses lies inside its storage. */
static inline void check_in_bounds(const tensor_t *t) {
  const int64_t nd = tensor_ndim(t);
  FUZZ_CHECK(nd >= 0 && nd <= TENSOR_MAX_DIMS, "ndim %lld", (long long)nd);
  const int64_t *sizes = tensor_sizes(t), *strides = tensor_strides(t);
  __int128 lo = tensor_storage_offset(t), hi = lo, numel = 1;
  for (int64_t d = 0; d < nd; ++d) {
    FUZZ_CHECK(sizes[d] >= 0, "size %lld at dim %lld", (long long)sizes[d], (long long)d);
    numel *= sizes[d];
    if (numel > INT64_MAX) numel = INT64_MAX; /* only zero matters past here */
  }
  FUZZ_CHECK(numel == 0 || numel == tensor_numel(t), "numel %lld", (long long)tensor_numel(t));
  if (numel == 0) return;
  for (int64_t d = 0; d < nd; ++d) {
    const __int128 reach = (__int128)(sizes[d] - 1) * strides[d];
    if (reach < 0) lo += reach; else hi += reach;
  }
  const size_t item = tensor_dtype_size(tensor_dtype(t));
  const __int128 nbytes = tensor_storage_nbytes(tensor_storage(t));
  FUZZ_CHECK(lo >= 0 && (hi + 1) * (__int128)item <= nbytes, "elements [%lld, %lld] of %zu bytes outside %lld bytes",
             (long long)lo, (long long)hi, item, (long long)nbytes);
}

/* Byte offset (from the storage start) of the element at linear C-order index i. */
static inline int64_t element_offset(const tensor_t *t, int64_t i) {
  const int64_t nd = tensor_ndim(t);
  const int64_t *sizes = tensor_sizes(t), *strides = tensor_strides(t);
  int64_t off = tensor_storage_offset(t);
  for (int64_t d = nd - 1; d >= 0; --d) {
    off += (i % sizes[d]) * strides[d];
    i /= sizes[d];
  }
  return off * (int64_t)tensor_dtype_size(tensor_dtype(t));
}

/* The elements of a CPU tensor in C order, gathered by hand (bool as 0/1). */
static inline uint8_t *gather(const tensor_t *t) {
  const int64_t n = tensor_numel(t);
  const size_t item = tensor_dtype_size(tensor_dtype(t));
  uint8_t *out = malloc(n > 0 ? (size_t)n * item : 1);
  const uint8_t *base = tensor_storage_data(tensor_storage(t));
  for (int64_t i = 0; i < n; ++i) {
    memcpy(out + (size_t)i * item, base + element_offset(t, i), item);
    if (tensor_dtype(t) == TENSOR_BOOL) out[i] = out[i] != 0;
  }
  return out;
}

/* A parser target's input: the first byte picks the load flags, the rest is the
   file, in a memory file named by *path (/proc/self/fd/N). Returns the
   descriptor for the caller to close, or -1 (nothing to do). */
static inline int fuzz_file(const uint8_t *data, size_t size, uint32_t *flags, char path[64]) {
  if (size == 0) return -1;
  const uint32_t choices[] = {0, TENSOR_LOAD_COPY, TENSOR_LOAD_WRITABLE};
  *flags = choices[data[0] % 3];
  const int fd = memfd_create("fuzz-input", MFD_CLOEXEC);
  if (fd < 0) return -1;
  if (write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
    close(fd);
    return -1;
  }
  snprintf(path, 64, "/proc/self/fd/%d", fd);
  return fd;
}

#endif
