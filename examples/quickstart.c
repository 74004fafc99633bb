/*
 * quickstart.c - ctensor in one page.
 *
 * Wraps a caller's buffer without copying, takes a strided view of it (a
 * transpose made with tensor_as_strided), materialises the view with
 * tensor_contiguous, and shows the error of a view that reaches outside its
 * storage. Build against an installed ctensor with:
 *     cc -std=c99 quickstart.c $(pkg-config --cflags --libs ctensor)
 */
#include <stdio.h>
#include <stdlib.h>

#include "ctensor.h"

/* Runs when the last tensor viewing the buffer is released. */
static void buffer_released(void *ctx) { printf("release callback: %s\n", (const char *)ctx); }

static void print_tensor(const char *label, const tensor_t *t) {
  int64_t d, i;
  printf("%s: sizes [", label);
  for (d = 0; d < tensor_ndim(t); ++d) printf("%s%lld", d ? ", " : "", (long long)tensor_sizes(t)[d]);
  printf("] strides [");
  for (d = 0; d < tensor_ndim(t); ++d) printf("%s%lld", d ? ", " : "", (long long)tensor_strides(t)[d]);
  printf("] contiguous %d\n", (int)tensor_is_contiguous(t));
  if (tensor_is_contiguous(t)) {
    const float *v = (const float *)tensor_data(t);
    printf("  values:");
    for (i = 0; i < tensor_numel(t); ++i) printf(" %g", v[i]);
    printf("\n");
  }
}

static int check(tensor_status_t status, const char *what) {
  if (status == TENSOR_OK) return 0;
  fprintf(stderr, "%s failed: %s: %s\n", what, tensor_status_name(status), tensor_last_error());
  return 1;
}

int main(void) {
  /* A 2x3 matrix in caller memory, row-major. */
  float buffer[6] = {1, 2, 3, 4, 5, 6};
  const int64_t sizes2x3[2] = {2, 3};
  const int64_t sizes3x2[2] = {3, 2};
  const int64_t transposed_strides[2] = {1, 3};
  const int64_t row_strides[2] = {3, 1};
  tensor_t *flat = NULL, *matrix = NULL, *transposed = NULL, *packed = NULL, *bad = NULL;
  tensor_status_t status;

  printf("ctensor %s\n", tensor_version_string());

  /* Zero-copy: the tensor shares `buffer`; the callback runs when the last view goes. */
  if (check(tensor_from_buffer(&flat, buffer, sizeof buffer, TENSOR_FLOAT32, -1, 0, 0,
                               buffer_released, "caller buffer no longer used"),
            "tensor_from_buffer"))
    return EXIT_FAILURE;
  printf("tensor_data == buffer: %s\n", tensor_data(flat) == (void *)buffer ? "yes" : "no");

  /* Views are new handles onto the same storage; the input is never changed. */
  if (check(tensor_as_strided(&matrix, flat, 2, sizes2x3, row_strides, 0), "tensor_as_strided") ||
      check(tensor_as_strided(&transposed, flat, 2, sizes3x2, transposed_strides, 0),
            "tensor_as_strided"))
    return EXIT_FAILURE;
  print_tensor("matrix", matrix);
  print_tensor("transposed view", transposed);

  /* A contiguous copy of the transpose (a contiguous input would just be retained). */
  if (check(tensor_contiguous(&packed, transposed), "tensor_contiguous")) return EXIT_FAILURE;
  print_tensor("contiguous copy", packed);

  /* Views are bounds-checked: 2x3 elements from offset 1 need 7 floats, there are 6. */
  status = tensor_as_strided(&bad, flat, 2, sizes2x3, row_strides, 1);
  printf("out-of-bounds view: %s (%s), out is %s\n", tensor_status_name(status), tensor_last_error(),
         bad == NULL ? "NULL" : "set");

  /* Release order does not matter: each view holds the storage. */
  tensor_release(flat);
  tensor_release(matrix);
  tensor_release(packed);
  tensor_release(transposed); /* the last view of `buffer`: the callback runs here */
  return status == TENSOR_E_BOUNDS ? EXIT_SUCCESS : EXIT_FAILURE;
}
