#include "dtype/dtype.hpp"

#include "error.hpp"

namespace ctensor::core {

void require_known_dtype(DType d, const char* what) {
  if (!dtype_known(d)) fail(Status::Invalid, what, ": unknown dtype ", d);
}

}  // namespace ctensor::core
