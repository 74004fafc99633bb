#include "dtype/dtype.hpp"

#include "error.hpp"
#include "ctensor.h"

namespace ctensor::core {

#define CTENSOR_DTYPE_MATCHES(Name, value, macro, ...) \
  static_assert(dtype::Name == (macro), #macro " differs between dtype/dtype_list.hpp and ctensor.h");
CTENSOR_FORALL_DTYPES(CTENSOR_DTYPE_MATCHES)
#undef CTENSOR_DTYPE_MATCHES
static_assert(static_cast<int32_t>(DTypeKind::Bool) == TENSOR_KIND_BOOL &&
                  static_cast<int32_t>(DTypeKind::Int) == TENSOR_KIND_INT &&
                  static_cast<int32_t>(DTypeKind::Float) == TENSOR_KIND_FLOAT &&
                  static_cast<int32_t>(DTypeKind::Complex) == TENSOR_KIND_COMPLEX,
              "DTypeKind differs from ctensor.h's TENSOR_KIND_*");

void require_known_dtype(DType d, const char* what) {
  if (!dtype_known(d)) fail(Status::Invalid, what, ": unknown dtype ", d);
}

}  // namespace ctensor::core
