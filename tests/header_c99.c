/* Compiles ctensor.h as strict C99 (-std=c99 -pedantic -Werror) and checks that
   the header's version macros agree with the library it links against. */
#include "ctensor.h"
#include "ctensor.h" /* the include guard must make a second inclusion harmless */
#include "ctensor_arrow.h"
#include "ctensor_arrow.h"

#include <stdio.h>
#include <string.h>

int main(void) {
  char expected[32];
  tensor_storage_t *s = NULL;
  tensor_t *t = NULL;
  tensor_status_t status;
  tensor_release_fn release = NULL;

  (void)release;
  (void)t;
  sprintf(expected, "%d.%d.%d", CTENSOR_VERSION_MAJOR, CTENSOR_VERSION_MINOR, CTENSOR_VERSION_PATCH);
  if (tensor_version_number() != CTENSOR_VERSION_NUMBER) return 1;
  if (strcmp(tensor_version_string(), expected) != 0) return 1;
  status = tensor_storage_new(&s, 16);
  if (status != TENSOR_OK || tensor_storage_nbytes(s) != 16) return 1;
  tensor_storage_release(s);
  return TENSOR_MAX_DIMS == 64 && TENSOR_SLICE_END == INT64_MAX && TENSOR_ALL_DIMS == INT64_MIN ? 0 : 1;
}
