// The numbers of the C API that stand for choices (flag words, modes, op codes,
// keepdim) decoded into the core's enums and options: the core never sees a
// public TENSOR_* code. Each decoder names the entry point and the bad value:
// Error(Invalid).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "ctensor.h"
#include "ctensor_arrow.h"
#include "dtype/convert.hpp"
#include "engine/copies.hpp"
#include "error.hpp"
#include "io/load_options.hpp"
#include "layout/memory_format.hpp"
#include "layout/views.hpp"
#include "memory/mapped.hpp"

namespace ctensor::capi {

// A keepdim (or other 0/1 switch) argument named `name`.
inline bool bool_arg(int32_t value, const char* op, const char* name = "keepdim") {
  if (value != 0 && value != 1) core::fail(core::Status::Invalid, op, ": ", name, " is ", value, ", expected 0 or 1");
  return value == 1;
}

// A dim argument that may be TENSOR_ALL_DIMS: no dim (every dim) for it.
inline std::optional<int64_t> dim_arg(int64_t dim) noexcept {
  if (dim == TENSOR_ALL_DIMS) return std::nullopt;
  return dim;
}

// A TENSOR_COPY_* value.
inline core::CopyMode copy_mode_arg(int32_t copy, const char* op) {
  switch (copy) {
    case TENSOR_COPY_IF_NEEDED: return core::CopyMode::IfNeeded;
    case TENSOR_COPY_ALWAYS: return core::CopyMode::Always;
    case TENSOR_COPY_NEVER: return core::CopyMode::Never;
    default:
      core::fail(core::Status::Invalid, op, ": unknown copy mode ", copy,
                 " (expected TENSOR_COPY_IF_NEEDED 0, TENSOR_COPY_ALWAYS 1 or TENSOR_COPY_NEVER 2)");
  }
}

// A TENSOR_*_FORMAT value.
inline core::MemoryFormat memory_format_arg(int32_t value, const char* op) {
  if (value == TENSOR_PRESERVE_FORMAT) return core::MemoryFormat::Preserve;
  if (value == TENSOR_CONTIGUOUS_FORMAT) return core::MemoryFormat::Contiguous;
  core::fail(core::Status::Invalid, op, ": unknown memory format ", value,
             " (expected TENSOR_PRESERVE_FORMAT 0 or TENSOR_CONTIGUOUS_FORMAT 1)");
}

// A TENSOR_CONVERT_* value.
inline core::Conversion conversion_arg(uint32_t value, const char* op) {
  if (value == TENSOR_CONVERT_LIBRARY) return core::Conversion::Library;
  if (value == TENSOR_CONVERT_TORCH_X86) return core::Conversion::TorchX86;
  core::fail(core::Status::Invalid, op, ": unknown conversion ", value,
             " (expected TENSOR_CONVERT_LIBRARY 0 or TENSOR_CONVERT_TORCH_X86 1)");
}

// Storage and buffer flags (0 or TENSOR_READONLY): whether the memory is read-only.
inline bool readonly_arg(uint32_t flags, const char* op) {
  if (flags & ~TENSOR_READONLY)
    core::fail(core::Status::Invalid, op, ": unknown flags ", flags, " (expected 0 or TENSOR_READONLY 1)");
  return (flags & TENSOR_READONLY) != 0;
}

// Map flags: exactly one of TENSOR_MAP_READ, _WRITE, _PRIVATE (READ may accompany
// the other two).
inline core::MapMode map_mode_arg(uint32_t flags, const char* op) {
  switch (flags) {
    case TENSOR_MAP_READ: return core::MapMode::Read;
    case TENSOR_MAP_WRITE:
    case TENSOR_MAP_READ | TENSOR_MAP_WRITE: return core::MapMode::Write;
    case TENSOR_MAP_PRIVATE:
    case TENSOR_MAP_READ | TENSOR_MAP_PRIVATE: return core::MapMode::Private;
    default:
      core::fail(core::Status::Invalid, op, ": flags ", flags,
                 " must be TENSOR_MAP_READ, TENSOR_MAP_WRITE or TENSOR_MAP_PRIVATE");
  }
}

// The first version of tensor_load_options_t ends after num_threads.
constexpr size_t kLoadOptionsV1 = offsetof(tensor_load_options_t, num_threads) + sizeof(int32_t);

// A load's TENSOR_LOAD_* flags and tensor_load_options_t (NULL: the defaults)
// as the core's LoadOptions. A larger struct from a later header is accepted
// when the fields this library does not know are all zero, as the kernel's
// extensible structs are.
inline core::LoadOptions load_options_arg(uint32_t flags, const char* op,
                                          const tensor_load_options_t* options = nullptr) {
  if (flags & ~(TENSOR_LOAD_COPY | TENSOR_LOAD_WRITABLE))
    core::fail(core::Status::Invalid, op, ": unknown flags ", flags,
               " (expected 0, TENSOR_LOAD_COPY or TENSOR_LOAD_WRITABLE)");
  core::LoadOptions decoded;
  decoded.copy = (flags & TENSOR_LOAD_COPY) != 0;
  decoded.writable = (flags & TENSOR_LOAD_WRITABLE) != 0;
  if (!options) return decoded;
  if (options->struct_size < kLoadOptionsV1)
    core::fail(core::Status::Invalid, op, ": options->struct_size ", options->struct_size,
               " is smaller than tensor_load_options_t's first version (", kLoadOptionsV1, " bytes)");
  const auto* bytes = reinterpret_cast<const unsigned char*>(options);
  for (size_t i = sizeof(tensor_load_options_t); i < options->struct_size; ++i)
    if (bytes[i] != 0)
      core::fail(core::Status::Unsupported, op, ": options->struct_size is ", options->struct_size,
                 " and byte ", i, " is set: a field of a later tensor_load_options_t this library (",
                 sizeof(tensor_load_options_t), " bytes) does not know");
  if (options->num_threads < 0)
    core::fail(core::Status::Invalid, op, ": options->num_threads ", options->num_threads, " is negative");
  decoded.progress = options->progress;
  decoded.progress_user = options->progress_user;
  decoded.progress_min_bytes = options->progress_min_bytes;
  decoded.num_threads = options->num_threads;
  return decoded;
}

// A reserved flag word: 0.
inline void reserved_arg(uint32_t flags, const char* op) {
  if (flags != 0) core::fail(core::Status::Invalid, op, ": flags ", flags, " are reserved and must be 0");
}

// tensor_to_arrow's flags (0 or TENSOR_ARROW_NO_COPY): whether a copy is refused.
inline bool arrow_no_copy_arg(uint32_t flags, const char* op) {
  if (flags & ~TENSOR_ARROW_NO_COPY)
    core::fail(core::Status::Invalid, op, ": unknown flags ", flags, " (expected 0 or TENSOR_ARROW_NO_COPY 1)");
  return (flags & TENSOR_ARROW_NO_COPY) != 0;
}

// tensor_index's item kinds (TENSOR_INDEX_*). NULL kinds stay NULL and n <= 0
// decodes to nothing: the core refuses what is wrong with them.
class IndexKinds {
 public:
  IndexKinds(const int32_t* kinds, int64_t n, const char* op) {
    if (!kinds) return;
    core::IndexKind* out = inline_;
    if (n > kInline) {
      heap_.resize(static_cast<size_t>(n));
      out = heap_.data();
    }
    for (int64_t i = 0; i < n; ++i) out[i] = decode(kinds[i], i, op);
    data_ = out;
  }
  IndexKinds(const IndexKinds&) = delete;
  IndexKinds& operator=(const IndexKinds&) = delete;
  const core::IndexKind* data() const noexcept { return data_; }

 private:
  static core::IndexKind decode(int32_t kind, int64_t i, const char* op) {
    switch (kind) {
      case TENSOR_INDEX_INT: return core::IndexKind::Int;
      case TENSOR_INDEX_SLICE: return core::IndexKind::Slice;
      case TENSOR_INDEX_NEWAXIS: return core::IndexKind::NewAxis;
      case TENSOR_INDEX_ELLIPSIS: return core::IndexKind::Ellipsis;
      case TENSOR_INDEX_BOOL: return core::IndexKind::Bool;
      default: core::fail(core::Status::Invalid, op, ": unknown index kind ", kind, " at position ", i);
    }
  }

  static constexpr int64_t kInline = 16;
  core::IndexKind inline_[kInline];
  std::vector<core::IndexKind> heap_;
  const core::IndexKind* data_ = nullptr;
};

}  // namespace ctensor::capi
