/* Another copy of the Arrow C Data Interface structs (as Arrow's abi.h or
   nanoarrow.h define them, with the specification's guards) included before
   ctensor_arrow.h: the guards must make the two copies coexist, and ctensor's
   functions must take the other copy's types. Compiled -std=c99 -pedantic -Werror. */
#include <stdint.h>

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE
#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4
struct ArrowSchema {
  const char *format;
  const char *name;
  const char *metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema **children;
  struct ArrowSchema *dictionary;
  void (*release)(struct ArrowSchema *);
  void *private_data;
};
struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void **buffers;
  struct ArrowArray **children;
  struct ArrowArray *dictionary;
  void (*release)(struct ArrowArray *);
  void *private_data;
};
#endif

#include "ctensor_arrow.h"

int main(void) {
  const int64_t n = 4;
  tensor_t *t = NULL, *back = NULL;
  struct ArrowSchema schema;
  struct ArrowArray array;
  if (tensor_zeros(&t, 1, &n, TENSOR_INT32) != TENSOR_OK) return 1;
  if (tensor_to_arrow(&schema, &array, t, 0) != TENSOR_OK) return 1;
  if (tensor_from_arrow(&back, &schema, &array) != TENSOR_OK) return 1;
  schema.release(&schema);
  tensor_release(back);
  tensor_release(t);
  return ARROW_FLAG_NULLABLE == 2 && ARROW_DEVICE_CUDA == 2 ? 0 : 1;
}
