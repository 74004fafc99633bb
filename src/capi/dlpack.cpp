// tensor_device and DLPack exchange. Export hands out a managed tensor that holds
// a tensor reference; import wraps the producer's memory in a storage whose release
// runs the producer's deleter. Neither copies elements or touches device memory.
#include <algorithm>
#include <memory>

#include "interop/dlpack.hpp"
#include "layout/shape.hpp"
#include "guard.hpp"

using namespace ctensor;
using core::Status;

namespace {

// What an exported managed tensor owns; reached from the struct via manager_ctx.
template <typename Managed>
struct Export {
  Managed managed{};
  core::Ref<core::Tensor> tensor;
  std::unique_ptr<int64_t[]> dims;  // shape then strides

  static void deleter(Managed* self) noexcept { delete static_cast<Export*>(self->manager_ctx); }
};

template <typename Managed>
Managed* export_tensor(core::Tensor& t) {
  auto e = std::make_unique<Export<Managed>>();
  const int64_t n = t.ndim();
  e->dims = std::make_unique<int64_t[]>(static_cast<size_t>(2 * n + 1));  // +1: never NULL
  std::copy(t.sizes(), t.sizes() + n, e->dims.get());
  std::copy(t.strides(), t.strides() + n, e->dims.get() + n);
  e->tensor = core::Ref<core::Tensor>::share(&t);

  const core::Device device = t.storage()->device();
  const core::DLPackType type = core::dlpack_type(t.dtype());
  DLTensor& dl = e->managed.dl_tensor;
  dl.data = t.data();  // as PyTorch: element [0,...,0] with byte_offset 0
  dl.device.device_type = static_cast<DLDeviceType>(device.type);
  dl.device.device_id = device.id;
  dl.ndim = static_cast<int32_t>(n);
  dl.dtype.code = type.code;
  dl.dtype.bits = type.bits;
  dl.dtype.lanes = 1;
  dl.shape = e->dims.get();
  dl.strides = e->dims.get() + n;
  dl.byte_offset = 0;
  e->managed.manager_ctx = e.get();
  e->managed.deleter = &Export<Managed>::deleter;
  return &e.release()->managed;
}

// Storage release callback of an imported managed tensor.
template <typename Managed>
void call_deleter(void* ctx) {
  auto* m = static_cast<Managed*>(ctx);
  if (m->deleter) m->deleter(m);
}

// Builds the tensor; takes ownership of m only once nothing can fail any more.
template <typename Managed>
core::Ref<core::Tensor> import_tensor(const char* op, Managed* m, bool readonly) {
  const DLTensor& dl = m->dl_tensor;
  const int64_t ndim = dl.ndim;
  core::check_sizes(op, ndim, dl.shape);
  if (dl.dtype.lanes != 1)
    core::fail(Status::DType, op, ": dtype lanes ", dl.dtype.lanes, " (vector types) are not supported");
  const std::optional<core::DType> dtype = core::dtype_from_dlpack(dl.dtype.code, dl.dtype.bits);
  if (!dtype)
    core::fail(Status::DType, op, ": DLPack dtype code ", int{dl.dtype.code}, " with ", int{dl.dtype.bits},
               " bits has no ctensor dtype");
  const int64_t numel = core::checked_numel(op, ndim, dl.shape);
  if (numel > 0 && !dl.data) core::fail(Status::Invalid, op, ": data is NULL for ", numel, " elements");

  int64_t compact[core::kMaxDims];
  const int64_t* strides = dl.strides;
  if (!strides) {
    core::contiguous_strides(ndim, dl.shape, compact);
    strides = compact;
  }
  const core::ByteWindow w =
      core::addressed_bytes(op, reinterpret_cast<uintptr_t>(dl.data), dl.byte_offset, ndim, dl.shape,
                            strides, core::dtype_size(*dtype));
  const core::Device device{static_cast<int32_t>(dl.device.device_type), dl.device.device_id};
  auto storage = core::Storage::wrap(reinterpret_cast<void*>(w.base), w.nbytes, readonly,
                                     &call_deleter<Managed>, m, device);
  try {
    return core::Tensor::make(storage, *dtype, ndim, dl.shape, strides, w.storage_offset);
  } catch (...) {
    storage->forget_release();  // on failure the caller keeps m
    throw;
  }
}

// Runs `make` (returning a new Managed*) with the facade's out/NULL/guard rules.
template <typename Managed, typename Make>
tensor_status_t produce_managed(Managed** out, const char* op, Make&& make) noexcept {
  if (!out) return capi::record_error(Status::Invalid, (std::string(op) + ": out is NULL").c_str());
  *out = nullptr;
  return capi::guarded([&] { *out = make(); });
}

}  // namespace

extern "C" {

void tensor_device(const tensor_t* t, int32_t* device_type, int32_t* device_id) {
  const core::Device d = t ? capi::from_handle(t)->storage()->device() : core::Device{0, -1};
  if (device_type) *device_type = d.type;
  if (device_id) *device_id = d.id;
}

tensor_status_t tensor_to_dlpack(DLManagedTensorVersioned** out, tensor_t* t, uint32_t flags) {
  return produce_managed(out, "to_dlpack", [&] {
    core::Tensor& tensor = capi::arg(t, "to_dlpack");
    if (flags != 0) core::fail(Status::Invalid, "to_dlpack: flags ", flags, " are reserved and must be 0");
    DLManagedTensorVersioned* m = export_tensor<DLManagedTensorVersioned>(tensor);
    m->version.major = DLPACK_MAJOR_VERSION;
    m->version.minor = DLPACK_MINOR_VERSION;
    m->flags = tensor.readonly() ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
    return m;
  });
}

tensor_status_t tensor_to_dlpack_legacy(DLManagedTensor** out, tensor_t* t) {
  return produce_managed(out, "to_dlpack_legacy", [&] {
    core::Tensor& tensor = capi::arg(t, "to_dlpack_legacy");
    if (tensor.readonly())
      core::fail(Status::ReadOnly,
                 "to_dlpack_legacy: the tensor is read-only and legacy DLPack cannot say so; use tensor_to_dlpack");
    return export_tensor<DLManagedTensor>(tensor);
  });
}

tensor_status_t tensor_from_dlpack(tensor_t** out, DLManagedTensorVersioned* m) {
  return capi::produce(out, "from_dlpack", [&] {
    if (!m) core::fail(Status::Invalid, "from_dlpack: managed tensor is NULL");
    if (m->version.major != DLPACK_MAJOR_VERSION)
      core::fail(Status::Unsupported, "from_dlpack: DLPack version ", m->version.major, ".", m->version.minor,
                 " is not supported (major version must be ", DLPACK_MAJOR_VERSION, ")");
    return import_tensor("from_dlpack", m, (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0);
  });
}

tensor_status_t tensor_from_dlpack_legacy(tensor_t** out, DLManagedTensor* m) {
  return capi::produce(out, "from_dlpack_legacy", [&] {
    if (!m) core::fail(Status::Invalid, "from_dlpack_legacy: managed tensor is NULL");
    return import_tensor("from_dlpack_legacy", m, false);
  });
}

}  // extern "C"
