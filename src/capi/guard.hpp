// The C boundary: handle conversion, argument helpers and the guard that turns
// every C++ exception into a status code plus a thread-local message.
#pragma once

#include <new>
#include <utility>

#include "error.hpp"
#include "memory/storage.hpp"
#include "layout/tensor.hpp"
#include "ctensor.h"

namespace ctensor::capi {

// Records `message` as this thread's last error and returns `status`.
tensor_status_t record_error(core::Status status, const char* message) noexcept;
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

// Runs `body` and converts any exception into a status. Nothing escapes.
template <typename Body>
tensor_status_t guarded(Body&& body) noexcept {
  try {
    body();
    return TENSOR_OK;
  } catch (const core::Error& e) {
    return record_error(e.status(), e.what());
  } catch (const std::bad_alloc&) {
    return record_error(core::Status::NoMem, "out of memory");
  } catch (const std::exception& e) {
    return record_error(core::Status::Unsupported, e.what());
  } catch (...) {
    return record_error(core::Status::Unsupported, "unknown internal error");
  }
}

// For functions whose result is a new reference through `out`: checks `out`,
// NULLs it, runs `make` (returning core::Ref<T>) and hands the reference over.
template <typename Handle, typename Make>
tensor_status_t produce(Handle** out, const char* op, Make&& make) noexcept {
  if (!out) return record_error(core::Status::Invalid, (std::string(op) + ": out is NULL").c_str());
  *out = nullptr;
  return guarded([&] {
    auto ref = make();
    *out = to_handle(ref.leak());
  });
}

}  // namespace ctensor::capi
