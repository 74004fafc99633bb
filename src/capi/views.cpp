// The view operations of the public header: argument checks live in the core.
#include "layout/views.hpp"
#include "guard.hpp"

using namespace ctensor;

extern "C" {

tensor_status_t tensor_as_strided(tensor_t** out, const tensor_t* t, int64_t ndim, const int64_t* sizes,
                                  const int64_t* strides, int64_t storage_offset) {
  return capi::produce(out, "as_strided", [&](const char* op) {
    return core::as_strided(op, capi::arg(t, op), ndim, sizes, strides, storage_offset);
  });
}

tensor_status_t tensor_view(tensor_t** out, const tensor_t* t, int64_t ndim, const int64_t* sizes) {
  return capi::produce(out, "view", [&](const char* op) {
    return core::view(op, capi::arg(t, op), ndim, sizes);
  });
}

tensor_status_t tensor_reshape(tensor_t** out, const tensor_t* t, int64_t ndim, const int64_t* sizes) {
  return capi::produce(out, "reshape", [&](const char* op) {
    return core::reshape(op, capi::arg(t, op), ndim, sizes);
  });
}

tensor_status_t tensor_transpose(tensor_t** out, const tensor_t* t, int64_t dim0, int64_t dim1) {
  return capi::produce(out, "transpose", [&](const char* op) {
    return core::transpose(op, capi::arg(t, op), dim0, dim1);
  });
}

tensor_status_t tensor_permute(tensor_t** out, const tensor_t* t, int64_t ndim, const int64_t* dims) {
  return capi::produce(out, "permute", [&](const char* op) {
    return core::permute(op, capi::arg(t, op), ndim, dims);
  });
}

tensor_status_t tensor_slice(tensor_t** out, const tensor_t* t, int64_t dim, int64_t start, int64_t stop,
                             int64_t step) {
  return capi::produce(out, "slice", [&](const char* op) {
    return core::slice(op, capi::arg(t, op), dim, start, stop, step);
  });
}

tensor_status_t tensor_select(tensor_t** out, const tensor_t* t, int64_t dim, int64_t index) {
  return capi::produce(out, "select", [&](const char* op) {
    return core::select(op, capi::arg(t, op), dim, index);
  });
}

tensor_status_t tensor_narrow(tensor_t** out, const tensor_t* t, int64_t dim, int64_t start, int64_t length) {
  return capi::produce(out, "narrow", [&](const char* op) {
    return core::narrow(op, capi::arg(t, op), dim, start, length);
  });
}

tensor_status_t tensor_expand(tensor_t** out, const tensor_t* t, int64_t ndim, const int64_t* sizes) {
  return capi::produce(out, "expand", [&](const char* op) {
    return core::expand(op, capi::arg(t, op), ndim, sizes);
  });
}

tensor_status_t tensor_broadcast_to(tensor_t** out, const tensor_t* t, int64_t ndim, const int64_t* sizes) {
  return capi::produce(out, "broadcast_to", [&](const char* op) {
    return core::expand(op, capi::arg(t, op), ndim, sizes);
  });
}

tensor_status_t tensor_squeeze(tensor_t** out, const tensor_t* t, int64_t dim) {
  return capi::produce(out, "squeeze", [&](const char* op) {
    return core::squeeze(op, capi::arg(t, op), dim);
  });
}

tensor_status_t tensor_unsqueeze(tensor_t** out, const tensor_t* t, int64_t dim) {
  return capi::produce(out, "unsqueeze", [&](const char* op) {
    return core::unsqueeze(op, capi::arg(t, op), dim);
  });
}

tensor_status_t tensor_flatten(tensor_t** out, const tensor_t* t, int64_t start_dim, int64_t end_dim) {
  return capi::produce(out, "flatten", [&](const char* op) {
    return core::flatten(op, capi::arg(t, op), start_dim, end_dim);
  });
}

tensor_status_t tensor_view_dtype(tensor_t** out, const tensor_t* t, tensor_dtype_t dtype) {
  return capi::produce(out, "view_dtype", [&](const char* op) {
    return core::view_dtype(op, capi::arg(t, op), dtype);
  });
}

}  // extern "C"
