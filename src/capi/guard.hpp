// The C boundary: handle conversion, argument helpers and the guards that turn
// every C++ exception into a status code plus a thread-local message. Argument
// checks live in the core; an entry point names its op once and passes it on.
#pragma once

#include <new>
#include <utility>
#include <vector>

#include "error.hpp"
#include "memory/storage.hpp"
#include "layout/tensor.hpp"
#include "ctensor.h"

namespace ctensor::capi {

// Records a copy of `message` as this thread's last error and returns `status`.
// Never fails: if no buffer can be had for the copy, its first 63 bytes are
// kept (ending in "..."), so the message still starts with the op's name.
tensor_status_t record_error(core::Status status, const char* message) noexcept;
// As record_error with "op: what" or "op: what: detail", formatted without
// allocating (cut at 511 characters).
tensor_status_t record_error(core::Status status, const char* op, const char* what,
                             const char* detail = nullptr) noexcept;
// Records a core error thrown under `op`. Every out-of-memory message names the
// op: one that does not start with it (the allocator's "cannot allocate N
// bytes") becomes "op: out of memory: ...", and a message that could not be
// formatted "op: out of memory while formatting the message".
tensor_status_t record_core_error(const core::Error& e, const char* op) noexcept;
// At library unload: this thread's message buffer is freed (its exit may run no
// pthread key destructor: the main thread's never does) and no thread keeps one.
void release_last_error_at_unload() noexcept;
// This thread's last error message ("" if none).
const char* last_error_text() noexcept;

// C handles are the core objects themselves; the C structs are never defined.
inline tensor_t* to_handle(core::Tensor* t) noexcept { return reinterpret_cast<tensor_t*>(t); }
inline core::Tensor* from_handle(const tensor_t* t) noexcept {
  return reinterpret_cast<core::Tensor*>(const_cast<tensor_t*>(t));
}
inline tensor_storage_t* to_handle(core::Storage* s) noexcept {
  return reinterpret_cast<tensor_storage_t*>(s);
}
inline core::Storage* from_handle(const tensor_storage_t* s) noexcept {
  return reinterpret_cast<core::Storage*>(const_cast<tensor_storage_t*>(s));
}

// The tensor behind a handle argument named `name`; Error(Invalid) if NULL.
inline core::Tensor& arg(const tensor_t* t, const char* op, const char* name = "tensor") {
  if (!t) core::fail(core::Status::Invalid, op, ": ", name, " is NULL");
  return *from_handle(t);
}

// The storage behind a handle argument; Error(Invalid) if NULL.
inline core::Ref<core::Storage> arg(tensor_storage_t* s, const char* op) {
  if (!s) core::fail(core::Status::Invalid, op, ": storage is NULL");
  return core::Ref<core::Storage>::share(from_handle(s));
}

// The n >= 1 tensors of a C array argument named `name` (e.g. "tensors"), as
// core tensors; Error(Invalid) if the array or one of them is NULL, or n < 1.
inline std::vector<const core::Tensor*> arg_list(const tensor_t* const* list, int64_t n, const char* op,
                                                 const char* name) {
  if (!list) core::fail(core::Status::Invalid, op, ": ", name, " is NULL");
  if (n < 1) core::fail(core::Status::Invalid, op, ": expected a non-empty list of ", name, ", got n = ", n);
  std::vector<const core::Tensor*> tensors(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    if (!list[i]) core::fail(core::Status::Invalid, op, ": ", name, "[", i, "] is NULL");
    tensors[static_cast<size_t>(i)] = from_handle(list[i]);
  }
  return tensors;
}

// Runs `body(op)` and converts any exception into a status. Nothing escapes.
// Exceptions that are not ours are internal errors.
template <typename Body>
tensor_status_t guarded(const char* op, Body&& body) noexcept {
  try {
    body(op);
    return TENSOR_OK;
  } catch (const core::Error& e) {
    return record_core_error(e, op);
  } catch (const std::bad_alloc&) {
    return record_error(core::Status::NoMem, op, "out of memory");
  } catch (const std::exception& e) {
    return record_error(core::Status::Internal, op, "internal error", e.what());
  } catch (...) {
    return record_error(core::Status::Internal, op, "unknown internal error");
  }
}

// What a producer hands the caller: a core reference becomes its C handle;
// a plain pointer (a DLPack managed tensor) is passed through.
template <typename T>
auto hand_over(core::Ref<T> ref) noexcept {
  return to_handle(ref.leak());
}
template <typename T>
T* hand_over(T* p) noexcept {
  return p;
}

// For functions whose result is a new reference through `out`: checks `out`,
// NULLs it, runs `make(op)` and hands the result over.
template <typename Handle, typename Make>
tensor_status_t produce(Handle** out, const char* op, Make&& make) noexcept {
  if (!out)
    return guarded(op, [](const char* name) { core::fail(core::Status::Invalid, name, ": out is NULL"); });
  *out = nullptr;
  return guarded(op, [&](const char* name) { *out = hand_over(make(name)); });
}

// For functions that give several new references, snprintf-style: `make(op)`
// returns a std::vector of core references; their number goes to *count, and
// they go to out[0 .. count) when `capacity` holds them (the rest of out up to
// capacity is NULLed). out NULL with capacity 0 only asks for the count.
// Capacity too small is Invalid, with *count still the number needed; on any
// failure out[0 .. capacity) is NULL.
template <typename Make>
tensor_status_t produce_many(tensor_t** out, int64_t capacity, int64_t* count, const char* op,
                             Make&& make) noexcept {
  return guarded(op, [&](const char* name) {
    if (out)
      for (int64_t i = 0; i < capacity; ++i) out[i] = nullptr;
    if (!count) core::fail(core::Status::Invalid, name, ": count is NULL");
    *count = 0;
    if (capacity < 0) core::fail(core::Status::Invalid, name, ": negative capacity ", capacity);
    if (!out && capacity > 0) core::fail(core::Status::Invalid, name, ": out is NULL with capacity ", capacity);
    auto pieces = make(name);
    const auto n = static_cast<int64_t>(pieces.size());
    *count = n;
    if (!out) return;  // the count alone was asked for
    if (n > capacity)
      core::fail(core::Status::Invalid, name, ": ", n, " results do not fit in out's capacity of ", capacity);
    for (int64_t i = 0; i < n; ++i) out[i] = hand_over(std::move(pieces[static_cast<size_t>(i)]));
  });
}

}  // namespace ctensor::capi
