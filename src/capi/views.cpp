// The view operations of the public header: argument checks live in the core.
#include "layout/views.hpp"
#include "guard.hpp"

using namespace ctensor;

extern "C" {

tensor_status_t tensor_as_strided(tensor_t** out, const tensor_t* t, int64_t ndim, const int64_t* sizes,
                                  const int64_t* strides, int64_t storage_offset) {
  return capi::produce(out, "as_strided", [&] {
    return core::as_strided("as_strided", capi::arg(t, "as_strided"), ndim, sizes, strides, storage_offset);
  });
}

tensor_status_t tensor_view(tensor_t** out, const tensor_t* t, int64_t ndim, const int64_t* sizes) {
  return capi::produce(out, "view", [&] { return core::view("view", capi::arg(t, "view"), ndim, sizes); });
}

tensor_status_t tensor_reshape(tensor_t** out, const tensor_t* t, int64_t ndim, const int64_t* sizes) {
  return capi::produce(out, "reshape",
                       [&] { return core::reshape("reshape", capi::arg(t, "reshape"), ndim, sizes); });
}

tensor_status_t tensor_transpose(tensor_t** out, const tensor_t* t, int64_t dim0, int64_t dim1) {
  return capi::produce(out, "transpose",
                       [&] { return core::transpose("transpose", capi::arg(t, "transpose"), dim0, dim1); });
}

tensor_status_t tensor_permute(tensor_t** out, const tensor_t* t, int64_t ndim, const int64_t* dims) {
  return capi::produce(out, "permute",
                       [&] { return core::permute("permute", capi::arg(t, "permute"), ndim, dims); });
}

tensor_status_t tensor_slice(tensor_t** out, const tensor_t* t, int64_t dim, int64_t start, int64_t stop,
                             int64_t step) {
  return capi::produce(out, "slice",
                       [&] { return core::slice("slice", capi::arg(t, "slice"), dim, start, stop, step); });
}

tensor_status_t tensor_select(tensor_t** out, const tensor_t* t, int64_t dim, int64_t index) {
  return capi::produce(out, "select",
                       [&] { return core::select("select", capi::arg(t, "select"), dim, index); });
}

tensor_status_t tensor_narrow(tensor_t** out, const tensor_t* t, int64_t dim, int64_t start, int64_t length) {
  return capi::produce(out, "narrow",
                       [&] { return core::narrow("narrow", capi::arg(t, "narrow"), dim, start, length); });
}

tensor_status_t tensor_expand(tensor_t** out, const tensor_t* t, int64_t ndim, const int64_t* sizes) {
  return capi::produce(out, "expand",
                       [&] { return core::expand("expand", capi::arg(t, "expand"), ndim, sizes); });
}

tensor_status_t tensor_broadcast_to(tensor_t** out, const tensor_t* t, int64_t ndim, const int64_t* sizes) {
  return capi::produce(out, "broadcast_to", [&] {
    return core::expand("broadcast_to", capi::arg(t, "broadcast_to"), ndim, sizes);
  });
}

tensor_status_t tensor_squeeze(tensor_t** out, const tensor_t* t, int64_t dim) {
  return capi::produce(out, "squeeze", [&] { return core::squeeze("squeeze", capi::arg(t, "squeeze"), dim); });
}

tensor_status_t tensor_unsqueeze(tensor_t** out, const tensor_t* t, int64_t dim) {
  return capi::produce(out, "unsqueeze",
                       [&] { return core::unsqueeze("unsqueeze", capi::arg(t, "unsqueeze"), dim); });
}

tensor_status_t tensor_flatten(tensor_t** out, const tensor_t* t, int64_t start_dim, int64_t end_dim) {
  return capi::produce(out, "flatten",
                       [&] { return core::flatten("flatten", capi::arg(t, "flatten"), start_dim, end_dim); });
}

tensor_status_t tensor_view_dtype(tensor_t** out, const tensor_t* t, tensor_dtype_t dtype) {
  return capi::produce(out, "view_dtype",
                       [&] { return core::view_dtype("view_dtype", capi::arg(t, "view_dtype"), dtype); });
}

}  // extern "C"
