// The view operations of the public header: argument checks live in the core.
#include <vector>

#include "engine/copies.hpp"
#include "layout/views.hpp"
#include "decode.hpp"
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

tensor_status_t tensor_index(tensor_t** out, const tensor_t* t, int64_t n, const int32_t* kinds,
                             const int64_t* values) {
  return capi::produce(out, "index", [&](const char* op) {
    const core::Tensor& base = capi::arg(t, op);
    const capi::IndexKinds items(kinds, n, op);
    return core::index(op, base, n, items.data(), values);
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
    return core::squeeze(op, capi::arg(t, op), capi::dim_arg(dim));
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

tensor_status_t tensor_diagonal(tensor_t** out, const tensor_t* t, int64_t offset, int64_t dim1, int64_t dim2) {
  return capi::produce(out, "diagonal", [&](const char* op) {
    return core::diagonal(op, capi::arg(t, op), offset, dim1, dim2);
  });
}

tensor_status_t tensor_unfold(tensor_t** out, const tensor_t* t, int64_t dim, int64_t size, int64_t step) {
  return capi::produce(out, "unfold", [&](const char* op) {
    return core::unfold(op, capi::arg(t, op), dim, size, step);
  });
}

tensor_status_t tensor_movedim(tensor_t** out, const tensor_t* t, int64_t n, const int64_t* source,
                               const int64_t* destination) {
  return capi::produce(out, "movedim", [&](const char* op) {
    return core::movedim(op, capi::arg(t, op), n, source, destination);
  });
}

tensor_status_t tensor_unflatten(tensor_t** out, const tensor_t* t, int64_t dim, int64_t n, const int64_t* sizes) {
  return capi::produce(out, "unflatten", [&](const char* op) {
    return core::unflatten(op, capi::arg(t, op), dim, n, sizes);
  });
}

tensor_status_t tensor_atleast(tensor_t** out, const tensor_t* t, int64_t min_dims) {
  return capi::produce(out, "atleast", [&](const char* op) {
    return core::atleast(op, capi::arg(t, op), min_dims);
  });
}

tensor_status_t tensor_split(tensor_t** out, int64_t capacity, int64_t* count, const tensor_t* t,
                             int64_t split_size, int64_t dim) {
  return capi::produce_many(out, capacity, count, "split", [&](const char* op) {
    return core::split(op, capi::arg(t, op), split_size, dim);
  });
}

tensor_status_t tensor_split_with_sizes(tensor_t** out, int64_t capacity, int64_t* count, const tensor_t* t,
                                        int64_t n, const int64_t* sizes, int64_t dim) {
  return capi::produce_many(out, capacity, count, "split_with_sizes", [&](const char* op) {
    return core::split_with_sizes(op, capi::arg(t, op), n, sizes, dim);
  });
}

tensor_status_t tensor_chunk(tensor_t** out, int64_t capacity, int64_t* count, const tensor_t* t, int64_t chunks,
                             int64_t dim) {
  return capi::produce_many(out, capacity, count, "chunk", [&](const char* op) {
    return core::chunk(op, capi::arg(t, op), chunks, dim);
  });
}

tensor_status_t tensor_tensor_split(tensor_t** out, int64_t capacity, int64_t* count, const tensor_t* t,
                                    int64_t sections, int64_t dim) {
  return capi::produce_many(out, capacity, count, "tensor_split", [&](const char* op) {
    return core::tensor_split(op, capi::arg(t, op), sections, dim);
  });
}

tensor_status_t tensor_tensor_split_indices(tensor_t** out, int64_t capacity, int64_t* count, const tensor_t* t,
                                            int64_t n, const int64_t* indices, int64_t dim) {
  return capi::produce_many(out, capacity, count, "tensor_split_indices", [&](const char* op) {
    return core::tensor_split_indices(op, capi::arg(t, op), n, indices, dim);
  });
}

tensor_status_t tensor_broadcast_tensors(tensor_t** out, int64_t n, const tensor_t* const* tensors) {
  return capi::guarded("broadcast_tensors", [&](const char* op) {
    if (!out) core::fail(core::Status::Invalid, op, ": out is NULL");
    if (n > 0 && !tensors) core::fail(core::Status::Invalid, op, ": tensors is NULL with n ", n);
    for (int64_t k = 0; k < n; ++k) out[k] = nullptr;
    std::vector<const core::Tensor*> inputs;
    for (int64_t k = 0; k < n; ++k) inputs.push_back(&capi::arg(tensors[k], op));
    auto views = core::broadcast_tensors(op, n, inputs.data());
    for (int64_t k = 0; k < n; ++k) out[k] = capi::hand_over(std::move(views[static_cast<size_t>(k)]));
  });
}

}  // extern "C"
