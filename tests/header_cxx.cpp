// Compiles ctensor.h as C++ (built as C++11 and as C++17, -pedantic -Werror):
// the extern "C" guards must give C linkage, and the macros must be usable.
#include "ctensor.h"
#include "ctensor_arrow.h"

#include <cstring>
#include <type_traits>

static_assert(std::is_same<tensor_status_t, int32_t>::value, "tensor_status_t is int32_t");
static_assert(std::is_same<tensor_dtype_t, int32_t>::value, "tensor_dtype_t is int32_t");
static_assert(TENSOR_E_UNSUPPORTED == 14, "status values are fixed");
static_assert(TENSOR_E_INTERNAL == 15, "status values are fixed");
static_assert(TENSOR_E_CANCELLED == 16, "status values are fixed");
static_assert(TENSOR_UINT64 == 29, "dtype values are fixed");
static_assert(sizeof(ArrowArray) == 80 && sizeof(ArrowSchema) == 72, "Arrow C Data Interface layout (64-bit)");
static_assert(sizeof(ArrowDeviceArray) == 128, "Arrow C Device Data Interface layout (64-bit)");

int main() {
  // Taking the address with a C function-pointer type checks the declared signatures.
  tensor_status_t (*make)(tensor_t**, int64_t, const int64_t*, tensor_dtype_t) = &tensor_zeros;
  void (*drop)(tensor_t*) = &tensor_release;
  const int64_t sizes[2] = {2, 3};
  tensor_t* t = nullptr;
  if (make(&t, 2, sizes, TENSOR_FLOAT32) != TENSOR_OK) return 1;
  const bool ok = tensor_numel(t) == 6 && tensor_version_number() == CTENSOR_VERSION_NUMBER &&
                  std::strlen(tensor_version_string()) > 0;
  drop(t);
  return ok ? 0 : 1;
}
