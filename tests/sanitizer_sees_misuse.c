/* Built in ASan builds only, where each tensor is its own heap block (the free
   list is bypassed): a double release, or a use after release, of a tensor
   handle must be reported (Meson expects this program to fail). */
#include <stdio.h>
#include <string.h>

#include "ctensor.h"

int main(int argc, char **argv) {
  const int64_t sizes[1] = {4};
  tensor_t *t = NULL, *v = NULL;
  if (argc != 2 || tensor_zeros(&t, 1, sizes, TENSOR_FLOAT32) != TENSOR_OK) return 0;
  if (tensor_view(&v, t, 1, sizes) != TENSOR_OK) return 0;
  tensor_release(t);
  tensor_release(v);
  if (strcmp(argv[1], "double-release") == 0) {
    tensor_release(v);
  } else {
    printf("%lld\n", (long long)tensor_ndim(v));
  }
  return 0; /* reached only if the sanitizer saw nothing: the test fails */
}
