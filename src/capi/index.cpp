// Advanced indexing: gathering and writing through integer index tensors, and
// nonzero for masks. Argument checks live in the core.
#include "guard.hpp"
#include "ops/gather.hpp"

using namespace ctensor;

extern "C" {

tensor_status_t tensor_index_gather(tensor_t** out, const tensor_t* t, int64_t n, const int64_t* dims,
                                    const tensor_t* const* indices) {
  return capi::produce(out, "index_gather", [&](const char* op) {
    const core::Tensor& input = capi::arg(t, op);
    core::check_index_count(op, input, n);
    const auto list = capi::arg_list(indices, n, op, "indices");
    return core::index_gather(op, input, n, dims, list.data());
  });
}

tensor_status_t tensor_index_put(tensor_t* t, int64_t n, const int64_t* dims, const tensor_t* const* indices,
                                 const tensor_t* values) {
  return capi::guarded("index_put", [&](const char* op) {
    const core::Tensor& target = capi::arg(t, op);
    core::check_index_count(op, target, n);
    const auto list = capi::arg_list(indices, n, op, "indices");
    core::index_put(op, target, n, dims, list.data(), capi::arg(values, op, "values"));
  });
}

tensor_status_t tensor_nonzero(tensor_t** out, const tensor_t* t) {
  return capi::produce(out, "nonzero", [&](const char* op) { return core::nonzero(op, capi::arg(t, op)); });
}

}  // extern "C"
