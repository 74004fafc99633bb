// Tensor metadata: a dtype, sizes, strides and an offset onto a shared storage.
// Immutable after creation, so handles can be shared across threads freely.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "dtype/dtype.hpp"
#include "memory/block_cache.hpp"
#include "memory/refcount.hpp"
#include "memory/storage.hpp"

namespace ctensor::core {

class Tensor final : public RefCounted<Tensor> {
 public:
  // Builds a tensor without checks: callers have validated bounds and sizes.
  // strides nullptr means contiguous.
  static Ref<Tensor> make(Ref<Storage> storage, DType dtype, int64_t ndim, const int64_t* sizes,
                          const int64_t* strides, int64_t storage_offset);

  // Checked like as_strided: Invalid/Bounds/Overflow on bad sizes or out-of-storage views.
  static Ref<Tensor> make_checked(const char* op, Ref<Storage> storage, DType dtype, int64_t ndim,
                                  const int64_t* sizes, const int64_t* strides,
                                  int64_t storage_offset);

  // New owned tensor (zero-filled if `zeroed`), contiguous, or with `strides`
  // that lay the sizes out densely in some dim order (memory formats).
  static Ref<Tensor> allocate(const char* op, DType dtype, int64_t ndim, const int64_t* sizes,
                              bool zeroed, const int64_t* strides = nullptr);

  // tensor_from_data: a new contiguous tensor holding a copy of `data` (C order).
  static Ref<Tensor> from_data(const char* op, const void* data, int64_t ndim, const int64_t* sizes,
                               DType dtype);

  // A view of foreign memory (at::from_blob) whose element [0,...,0] is at
  // data + byte_offset, strides nullptr meaning contiguous; its storage wraps
  // exactly the bytes the view addresses. Invalid (bad sizes or dtype, data NULL
  // with elements), Overflow. On failure release is never called.
  static Ref<Tensor> from_blob(const char* op, void* data, uint64_t byte_offset, DType dtype, int64_t ndim,
                               const int64_t* sizes, const int64_t* strides, bool readonly, ReleaseFn release,
                               void* ctx, Device device = {});

  // tensor_from_buffer (torch.frombuffer): a 1-D view of caller memory, checked as
  // the public header lists. On failure release is never called.
  static Ref<Tensor> from_buffer(const char* op, void* buffer, size_t nbytes, DType dtype, int64_t count,
                                 int64_t offset, bool readonly, ReleaseFn release, void* ctx);

  // A new 0-dim tensor holding the element at `value` and marked as a wrapped
  // number (a Python scalar in PyTorch's type promotion). Views of it are not.
  static Ref<Tensor> wrapped_number(DType dtype, const void* value);

  int64_t ndim() const noexcept { return ndim_; }
  const int64_t* sizes() const noexcept { return dims_; }
  const int64_t* strides() const noexcept { return dims_ + ndim_; }
  int64_t size(int64_t d) const noexcept { return dims_[d]; }
  int64_t stride(int64_t d) const noexcept { return dims_[ndim_ + d]; }
  int64_t storage_offset() const noexcept { return offset_; }
  DType dtype() const noexcept { return dtype_; }
  size_t itemsize() const noexcept { return itemsize_; }
  int64_t numel() const noexcept { return numel_; }
  bool is_contiguous() const noexcept { return contiguous_; }
  bool readonly() const noexcept { return storage_->readonly(); }
  bool is_wrapped_number() const noexcept { return wrapped_number_; }
  Storage* storage() const noexcept { return storage_.get(); }
  const Ref<Storage>& storage_ref() const noexcept { return storage_; }
  // Address of element [0, ..., 0].
  // Wrapping arithmetic: an empty view may carry any offset, and its address is
  // only reported, never dereferenced.
  char* data() const noexcept {
    const uint64_t byte_offset = static_cast<uint64_t>(offset_) * itemsize_;
    return reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(storage_->data()) + byte_offset);
  }

  // Element access guards: Device if the storage is not CPU memory, ReadOnly for writes.
  void require_readable(const char* op) const;
  void require_writable(const char* op) const;

  // Tensors come from a small per-thread cache of freed blocks (BlockCache:
  // views are made and dropped often).
  static void* operator new(size_t size) { return BlockCache<Tensor>::take(size); }
  static void operator delete(void* p) noexcept { BlockCache<Tensor>::give(p); }

 private:
  Tensor(Ref<Storage> storage, DType dtype, int64_t ndim, int64_t offset) noexcept;

  static constexpr int64_t kInlineDims = 6;

  Ref<Storage> storage_;
  DType dtype_;
  int64_t ndim_;
  int64_t offset_;
  int64_t numel_ = 1;
  size_t itemsize_;
  bool contiguous_ = true;
  bool wrapped_number_ = false;
  int64_t* dims_;  // sizes then strides: points into inline_dims_ or heap_dims_
  int64_t inline_dims_[2 * kInlineDims];
  std::unique_ptr<int64_t[]> heap_dims_;
};

}  // namespace ctensor::core
