// Dtype queries: everything comes from the core's dtype table.
#include "dtype/dtype.hpp"
#include "ctensor.h"

using namespace ctensor;

extern "C" {

size_t tensor_dtype_size(tensor_dtype_t dtype) { return core::dtype_size(dtype); }

const char* tensor_dtype_name(tensor_dtype_t dtype) {
  const core::DTypeInfo* info = core::dtype_info(dtype);
  return info ? info->name : nullptr;
}

}  // extern "C"
