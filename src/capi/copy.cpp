// Copies: contiguous, clone, copy, to, fill, and the copy engine's thread setting.
#include "engine/copy.hpp"

#include "engine/parallel.hpp"
#include "guard.hpp"

using namespace ctensor;
using core::Status;

extern "C" {

tensor_status_t tensor_contiguous(tensor_t** out, tensor_t* t) {
  return capi::produce(out, "contiguous", [&] {
    const core::Tensor& src = capi::arg(t, "contiguous");
    if (src.is_contiguous()) return core::Ref<core::Tensor>::share(capi::from_handle(t));
    return core::contiguous_copy("contiguous", src, src.dtype());
  });
}

tensor_status_t tensor_clone(tensor_t** out, const tensor_t* t) {
  return capi::produce(out, "clone", [&] {
    const core::Tensor& src = capi::arg(t, "clone");
    return core::contiguous_copy("clone", src, src.dtype());
  });
}

tensor_status_t tensor_copy(tensor_t* dst, const tensor_t* src) {
  return capi::guarded([&] {
    core::copy_into("copy", capi::arg(dst, "copy", "dst"), capi::arg(src, "copy", "src"));
  });
}

tensor_status_t tensor_to(tensor_t** out, tensor_t* t, tensor_dtype_t dtype, int32_t copy) {
  return capi::produce(out, "to", [&] {
    const core::Tensor& src = capi::arg(t, "to");
    core::require_known_dtype(dtype, "to");
    if (copy != TENSOR_COPY_IF_NEEDED && copy != TENSOR_COPY_ALWAYS && copy != TENSOR_COPY_NEVER)
      core::fail(Status::Invalid, "to: unknown copy mode ", copy,
                 " (expected TENSOR_COPY_IF_NEEDED 0, TENSOR_COPY_ALWAYS 1 or TENSOR_COPY_NEVER 2)");
    if (copy != TENSOR_COPY_ALWAYS && dtype == src.dtype())
      return core::Ref<core::Tensor>::share(capi::from_handle(t));
    if (copy == TENSOR_COPY_NEVER)
      core::fail(Status::Copy, "to: converting ", core::dtype_info(src.dtype())->name, " to ",
                 core::dtype_info(dtype)->name, " needs a copy but the copy mode is TENSOR_COPY_NEVER");
    return core::contiguous_copy("to", src, dtype);
  });
}

tensor_status_t tensor_fill(tensor_t* dst, double value) {
  return capi::guarded([&] { core::fill("fill", capi::arg(dst, "fill", "dst"), value); });
}

tensor_status_t tensor_set_num_threads(int32_t n) {
  return capi::guarded([&] {
    if (n < 1) core::fail(Status::Invalid, "set_num_threads: n is ", n, ", expected at least 1");
    core::set_num_threads(n);
  });
}

int32_t tensor_get_num_threads(void) { return core::num_threads(); }

}  // extern "C"
