#include "interop/dlpack.hpp"

#include <algorithm>
#include <cstdint>
#include <memory>

#include "error.hpp"
#include "layout/shape.hpp"

namespace ctensor::core {

namespace {

struct Mapping {
  DType dtype;
  DLPackType type;
};

#define CTENSOR_DLPACK_MAPPING(Name, value, macro, T, kind, is_signed, name, dl_code, bits) \
  {dtype::Name, {kDL##dl_code, bits}},
constexpr Mapping kMappings[] = {CTENSOR_FORALL_DTYPES(CTENSOR_DLPACK_MAPPING)};
#undef CTENSOR_DLPACK_MAPPING

// What an exported managed tensor owns; reached from the struct via manager_ctx.
template <typename Managed>
struct Export {
  Managed managed{};
  Ref<Tensor> tensor;
  MemoryPin pin;  // the consumer keeps dl_tensor.data
  std::unique_ptr<int64_t[]> dims;  // shape then strides

  static void deleter(Managed* self) noexcept { delete static_cast<Export*>(self->manager_ctx); }
};

template <typename Managed>
Managed* export_tensor(Tensor& t) {
  auto e = std::make_unique<Export<Managed>>();
  const int64_t n = t.ndim();
  e->dims = std::make_unique<int64_t[]>(static_cast<size_t>(2 * n + 1));  // +1: never NULL
  std::copy(t.sizes(), t.sizes() + n, e->dims.get());
  // A size-1 dim's stride addresses nothing; exported as 1, as PyTorch does
  // (consumers that test contiguity from strides then see what they expect).
  for (int64_t i = 0; i < n; i++) e->dims[static_cast<size_t>(n + i)] = t.sizes()[i] == 1 ? 1 : t.strides()[i];
  e->tensor = Ref<Tensor>::share(&t);
  e->pin = MemoryPin(t.storage());

  const Device device = t.storage()->device();
  const DLPackType type = dlpack_type(t.dtype());
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

// Builds the tensor; ownership of m passes only once nothing can fail any more.
template <typename Managed>
Ref<Tensor> import_tensor(const char* op, Managed* m, bool readonly) {
  const DLTensor& dl = m->dl_tensor;
  const int64_t ndim = dl.ndim;
  check_sizes(op, ndim, dl.shape);
  if (dl.dtype.lanes != 1)
    fail(Status::DType, op, ": dtype lanes ", dl.dtype.lanes, " (vector types) are not supported");
  const std::optional<DType> dtype = dtype_from_dlpack(dl.dtype.code, dl.dtype.bits);
  if (!dtype)
    fail(Status::DType, op, ": DLPack dtype code ", int{dl.dtype.code}, " with ", int{dl.dtype.bits},
         " bits has no ctensor dtype");
  const Device device{static_cast<int32_t>(dl.device.device_type), dl.device.device_id};
  return Tensor::from_blob(op, dl.data, dl.byte_offset, *dtype, ndim, dl.shape, dl.strides, readonly,
                           &call_deleter<Managed>, m, device);
}

}  // namespace

DLPackType dlpack_type(DType d) noexcept {
  for (const Mapping& m : kMappings)
    if (m.dtype == d) return m.type;
  return {kDLUInt, 0};  // unreachable for known dtypes; bits 0 matches nothing
}

std::optional<DType> dtype_from_dlpack(uint8_t code, uint8_t bits) noexcept {
  for (const Mapping& m : kMappings)
    if (m.type.code == code && m.type.bits == bits) return m.dtype;
  return std::nullopt;
}

DLManagedTensorVersioned* export_dlpack(Tensor& t) {
  DLManagedTensorVersioned* m = export_tensor<DLManagedTensorVersioned>(t);
  m->version.major = DLPACK_MAJOR_VERSION;
  m->version.minor = DLPACK_MINOR_VERSION;
  m->flags = t.readonly() ? DLPACK_FLAG_BITMASK_READ_ONLY : 0;
  return m;
}

DLManagedTensor* export_dlpack_legacy(const char* op, Tensor& t) {
  if (t.readonly())
    fail(Status::ReadOnly, op, ": the tensor is read-only and legacy DLPack cannot say so; use tensor_to_dlpack");
  return export_tensor<DLManagedTensor>(t);
}

Ref<Tensor> import_dlpack(const char* op, DLManagedTensorVersioned* m) {
  if (!m) fail(Status::Invalid, op, ": managed tensor is NULL");
  if (m->version.major != DLPACK_MAJOR_VERSION)
    fail(Status::Unsupported, op, ": DLPack version ", m->version.major, ".", m->version.minor,
         " is not supported (major version must be ", DLPACK_MAJOR_VERSION, ")");
  return import_tensor(op, m, (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0);
}

Ref<Tensor> import_dlpack_legacy(const char* op, DLManagedTensor* m) {
  if (!m) fail(Status::Invalid, op, ": managed tensor is NULL");
  return import_tensor(op, m, false);
}

}  // namespace ctensor::core
