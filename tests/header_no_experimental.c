/* An includer that does not define CTENSOR_EXPERIMENTAL sees none of the header's
   experimental section: its own, incompatible declarations of an experimental
   function and macro compile (they would conflict with the header's), and a
   stable function is still declared. Compiled with -Werror. */
#undef CTENSOR_EXPERIMENTAL
#include "ctensor.h"

static int tensor_from_blob(double x) { return x > 0; }
#define TENSOR_CONVERT_TORCH_X86 "not the header's"

int main(void) {
  const char *mine = TENSOR_CONVERT_TORCH_X86;
  return tensor_from_blob(1.0) == 1 && mine[0] == 'n' && tensor_dtype_size(TENSOR_FLOAT32) == 4 ? 0 : 1;
}
