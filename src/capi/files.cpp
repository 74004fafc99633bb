// Files and shared memory: mapped and fd-backed storages, .npy and safetensors.
#include "decode.hpp"
#include "guard.hpp"
#include "io/chunked_read.hpp"
#include "io/npy.hpp"
#include "io/safetensors.hpp"
#include "memory/mapped.hpp"

using namespace ctensor;
using core::Status;

namespace {

core::SafeTensors* from_handle(const tensor_safetensors_t* st) noexcept {
  return reinterpret_cast<core::SafeTensors*>(const_cast<tensor_safetensors_t*>(st));
}

}  // namespace

extern "C" {

tensor_status_t tensor_storage_map_file(tensor_storage_t** out, const char* path, uint64_t offset,
                                        uint64_t nbytes, uint32_t flags) {
  return capi::produce(out, "storage_map_file", [&](const char* op) {
    return core::map_file(op, path, offset, nbytes, capi::map_mode_arg(flags, op));
  });
}

tensor_status_t tensor_storage_new_shared(tensor_storage_t** out, size_t nbytes) {
  return capi::produce(out, "storage_new_shared", [&](const char*) { return core::new_shared(nbytes); });
}

int32_t tensor_storage_fd(const tensor_storage_t* s) {
  return s ? core::storage_fd(*capi::from_handle(s)) : -1;
}

tensor_status_t tensor_storage_move_to_shared(tensor_storage_t* s) {
  return capi::guarded("storage_move_to_shared", [&](const char* op) { core::move_to_shared(op, *capi::arg(s, op)); });
}

tensor_status_t tensor_storage_from_fd(tensor_storage_t** out, int32_t fd, size_t nbytes,
                                       uint32_t flags) {
  return capi::produce(out, "storage_from_fd", [&](const char* op) {
    return core::from_descriptor(fd, nbytes, capi::map_mode_arg(flags, op));
  });
}

tensor_status_t tensor_load_npy(tensor_t** out, const char* path, uint32_t flags) {
  return capi::produce(out, "load_npy",
                       [&](const char* op) { return core::load_npy(op, path, capi::load_options_arg(flags, op)); });
}

tensor_status_t tensor_load_npy_with(tensor_t** out, const char* path, uint32_t flags,
                                     const tensor_load_options_t* options) {
  return capi::produce(out, "load_npy_with", [&](const char* op) {
    return core::load_npy(op, path, capi::load_options_arg(flags, op, options));
  });
}

tensor_status_t tensor_save_npy(const tensor_t* t, const char* path) {
  return capi::guarded("save_npy", [&](const char* op) { core::save_npy(capi::arg(t, op), path); });
}

tensor_status_t tensor_safetensors_open(tensor_safetensors_t** out, const char* path, uint32_t flags) {
  return capi::produce(out, "safetensors_open", [&](const char* op) {
    return reinterpret_cast<tensor_safetensors_t*>(
        core::SafeTensors::open(op, path, capi::load_options_arg(flags, op)).release());
  });
}

tensor_status_t tensor_safetensors_open_with(tensor_safetensors_t** out, const char* path, uint32_t flags,
                                             const tensor_load_options_t* options) {
  return capi::produce(out, "safetensors_open_with", [&](const char* op) {
    return reinterpret_cast<tensor_safetensors_t*>(
        core::SafeTensors::open(op, path, capi::load_options_arg(flags, op, options)).release());
  });
}

void tensor_safetensors_release(tensor_safetensors_t* st) {
  delete from_handle(st);
}

int64_t tensor_safetensors_count(const tensor_safetensors_t* st) {
  return st ? from_handle(st)->count() : 0;
}

const char* tensor_safetensors_name(const tensor_safetensors_t* st, int64_t index) {
  return st ? from_handle(st)->name(index) : nullptr;
}

tensor_status_t tensor_safetensors_get(tensor_t** out, const tensor_safetensors_t* st, const char* name) {
  return capi::produce(out, "safetensors_get", [&](const char* op) {
    if (!st) core::fail(Status::Invalid, op, ": st is NULL");
    return from_handle(st)->get(name);
  });
}

const char* tensor_safetensors_metadata(const tensor_safetensors_t* st, const char* key) {
  return st ? from_handle(st)->metadata(key) : nullptr;
}

int64_t tensor_safetensors_metadata_count(const tensor_safetensors_t* st) {
  return st ? from_handle(st)->metadata_count() : 0;
}

const char* tensor_safetensors_metadata_key(const tensor_safetensors_t* st, int64_t index) {
  return st ? from_handle(st)->metadata_key(index) : nullptr;
}

tensor_status_t tensor_safetensors_save(const char* path, int64_t n, const char* const* names,
                                        const tensor_t* const* tensors, int64_t n_meta,
                                        const char* const* meta_keys, const char* const* meta_values) {
  return capi::guarded("safetensors_save", [&](const char*) {
    static_assert(sizeof(const tensor_t*) == sizeof(const core::Tensor*));
    // Handles are the core objects themselves (see guard.hpp).
    core::save_safetensors(path, n, names, reinterpret_cast<const core::Tensor* const*>(tensors),
                           n_meta, meta_keys, meta_values);
  });
}

}  // extern "C"
