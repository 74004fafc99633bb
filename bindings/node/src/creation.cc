// Creating tensors: new memory, copies of JS data, and zero-copy wraps of JS
// TypedArrays.
#include <cstring>

#include "common.h"

namespace ctn {

namespace {

// The dtype a TypedArray's elements have unless the caller names another.
tensor_dtype_t NaturalDtype(napi_typedarray_type type) {
  switch (type) {
    case napi_int8_array: return TENSOR_INT8;
    case napi_uint8_array: case napi_uint8_clamped_array: return TENSOR_UINT8;
    case napi_int16_array: return TENSOR_INT16;
    case napi_uint16_array: return TENSOR_UINT16;
    case napi_int32_array: return TENSOR_INT32;
    case napi_uint32_array: return TENSOR_UINT32;
    case napi_float32_array: return TENSOR_FLOAT32;
    case napi_float64_array: return TENSOR_FLOAT64;
    case napi_bigint64_array: return TENSOR_INT64;
    case napi_biguint64_array: return TENSOR_UINT64;
    default: return TENSOR_UINT8;
  }
}

struct ArrayInfo {
  void *data = nullptr;
  size_t nbytes = 0;
  tensor_dtype_t dtype = TENSOR_UINT8;
  napi_value buffer = nullptr;
};

// A TypedArray argument (or DataView, read as bytes) and the dtype to read it as.
ArrayInfo ReadArray(Napi::Env env, const Napi::Value &v, const Napi::Value &dtype) {
  ArrayInfo a;
  if (v.IsTypedArray()) {
    napi_typedarray_type type;
    size_t length = 0;
    size_t offset = 0;
    NAPI_THROW_IF_FAILED(env, napi_get_typedarray_info(env, v, &type, &length, &a.data, &a.buffer, &offset), a);
    a.nbytes = v.As<Napi::TypedArray>().ByteLength();
    a.dtype = NaturalDtype(type);
  } else if (v.IsDataView()) {
    size_t offset = 0;
    NAPI_THROW_IF_FAILED(env, napi_get_dataview_info(env, v, &a.nbytes, &a.data, &a.buffer, &offset), a);
  } else {
    throw Napi::TypeError::New(env, "expected a TypedArray (Float32Array, BigInt64Array, ...) or a DataView");
  }
  if (!dtype.IsUndefined() && !dtype.IsNull()) a.dtype = ToDtype(env, dtype);
  return a;
}

// The JS buffer a wrapped storage borrows, and where its reference goes back.
struct BufferHold {
  std::shared_ptr<RefHome> home;
  napi_ref ref;
};

// tensor_release_fn of a wrapped TypedArray's storage: drops the reference that kept
// the ArrayBuffer alive. On its own JS thread (every release that JS code causes:
// release(), a finalizer) directly; on any other thread through the thread-safe
// function; after the environment has shut down there is nothing left to drop.
void ReleaseBuffer(void *ctx) {
  auto *hold = static_cast<BufferHold *>(ctx);
  std::shared_ptr<RefHome> home = std::move(hold->home);
  napi_ref ref = hold->ref;
  delete hold;
  std::lock_guard<std::mutex> lock(home->mu);
  if (!home->alive) return;
  if (std::this_thread::get_id() == home->js_thread) {
    napi_delete_reference(home->env, ref);
  } else {
    napi_call_threadsafe_function(home->tsfn, ref, napi_tsfn_nonblocking);
  }
}

Napi::Value Empty(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  std::vector<int64_t> sizes = ToInt64s(env, info[0], "empty sizes");
  tensor_dtype_t dtype = info.Length() > 1 && !info[1].IsUndefined() ? ToDtype(env, info[1]) : TENSOR_FLOAT32;
  bool zero = info.Length() > 2 && info[2].ToBoolean().Value();
  tensor_t *out = nullptr;
  auto make = zero ? tensor_zeros : tensor_empty;
  return Give(env, make(&out, static_cast<int64_t>(sizes.size()), sizes.data(), dtype), out);
}

// fromData(typedArray, shape, dtype?): a new tensor holding a copy of the elements.
Napi::Value FromData(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ArrayInfo a = ReadArray(env, info[0], info[2]);
  std::vector<int64_t> sizes = ToInt64s(env, info[1], "fromData shape");
  // The bytes the shape needs must be what the array holds; shapes the library refuses
  // (a negative size, an overflowing count) go to it unread, for its status and message.
  uint64_t need = tensor_dtype_size(a.dtype);
  bool refused = need == 0;
  for (int64_t size : sizes) refused = refused || size < 0;
  for (int64_t size : sizes) {
    if (!refused && __builtin_mul_overflow(need, static_cast<uint64_t>(size), &need)) refused = true;
  }
  if (!refused && need != a.nbytes) {
    ThrowMisuse(env, TENSOR_E_SHAPE, "fromData: shape needs " + std::to_string(need) + " bytes of " +
                                         tensor_dtype_name(a.dtype) + " but the array has " +
                                         std::to_string(a.nbytes));
  }
  tensor_t *out = nullptr;
  return Give(env, tensor_from_data(&out, a.data, static_cast<int64_t>(sizes.size()), sizes.data(), a.dtype), out);
}

// fromTypedArray(typedArray, dtype?, readonly?): a 1-d tensor over the array's own
// memory (no copy). The ArrayBuffer stays alive, through a reference, until the last
// view of the storage is released.
Napi::Value FromTypedArray(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  ArrayInfo a = ReadArray(env, info[0], info[1]);
  uint32_t flags = info.Length() > 2 && info[2].ToBoolean().Value() ? TENSOR_READONLY : 0;
  if (a.nbytes == 0) {
    // tensor_from_buffer refuses an empty buffer; an empty tensor shares nothing.
    int64_t zero = 0;
    tensor_t *out = nullptr;
    Check(env, tensor_empty(&out, 1, &zero, a.dtype));
    return Tensor::Wrap(env, out);
  }
  auto *hold = new BufferHold{EnvOf(env).home, nullptr};
  if (napi_create_reference(env, a.buffer, 1, &hold->ref) != napi_ok) {
    delete hold;
    throw Napi::Error::New(env, "fromTypedArray: cannot reference the ArrayBuffer");
  }
  tensor_t *out = nullptr;
  tensor_status_t status = tensor_from_buffer(&out, a.data, a.nbytes, a.dtype, -1, 0, flags, ReleaseBuffer, hold);
  if (status != TENSOR_OK) {
    std::string message = tensor_last_error();
    napi_delete_reference(env, hold->ref);
    delete hold;
    ThrowMisuse(env, status, message);
  }
  return Tensor::Wrap(env, out);
}

// scalar(value, kind): a 0-dim wrapped-number tensor; kind 'bool', 'int', 'float'
// or 'complex' (value then [re, im]).
Napi::Value Scalar(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  std::string kind = info[1].As<Napi::String>().Utf8Value();
  tensor_t *out = nullptr;
  tensor_status_t status;
  if (kind == "bool") {
    status = tensor_scalar_bool(&out, info[0].ToBoolean().Value() ? 1 : 0);
  } else if (kind == "int") {
    status = tensor_scalar_int64(&out, ToInt64(env, info[0], "scalar"));
  } else if (kind == "complex") {
    Napi::Array parts = info[0].As<Napi::Array>();
    status = tensor_scalar_complex128(&out, ToDouble(env, parts.Get(0u), "scalar re"),
                                      ToDouble(env, parts.Get(1u), "scalar im"));
  } else {
    status = tensor_scalar_float64(&out, ToDouble(env, info[0], "scalar"));
  }
  return Give(env, status, out);
}

// emptyLike(t, dtype?, preserveFormat?, zero?)
Napi::Value EmptyLike(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  tensor_t *t = Tensor::Handle(env, info[0], "emptyLike");
  tensor_dtype_t dtype = info.Length() > 1 && !info[1].IsUndefined() && !info[1].IsNull() ? ToDtype(env, info[1])
                                                                                          : tensor_dtype(t);
  int32_t format = info.Length() > 2 && info[2].ToBoolean().Value() ? TENSOR_PRESERVE_FORMAT : TENSOR_CONTIGUOUS_FORMAT;
  bool zero = info.Length() > 3 && info[3].ToBoolean().Value();
  tensor_t *out = nullptr;
  auto make = zero ? tensor_zeros_like : tensor_empty_like;
  return Give(env, make(&out, t, dtype, format), out);
}

Napi::Value Join(const Napi::CallbackInfo &info, bool stack) {
  Napi::Env env = info.Env();
  std::vector<const tensor_t *> tensors = Tensor::Handles(env, info[0], stack ? "stack" : "cat");
  int64_t dim = IntArg(info, 1, "dim", 0);
  tensor_t *out = nullptr;
  auto join = stack ? tensor_stack : tensor_cat;
  return Give(env, join(&out, static_cast<int64_t>(tensors.size()), tensors.data(), dim), out);
}

Napi::Value Cat(const Napi::CallbackInfo &info) { return Join(info, false); }
Napi::Value Stack(const Napi::CallbackInfo &info) { return Join(info, true); }

Napi::Value BroadcastTensors(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  std::vector<const tensor_t *> tensors = Tensor::Handles(env, info[0], "broadcastTensors");
  std::vector<tensor_t *> outs(tensors.size(), nullptr);
  Check(env, tensor_broadcast_tensors(outs.data(), static_cast<int64_t>(tensors.size()), tensors.data()));
  return WrapAll(env, outs);
}

}  // namespace

void InitCreation(Napi::Env env, Napi::Object exports) {
  exports.Set("empty", Napi::Function::New(env, Empty));
  exports.Set("fromData", Napi::Function::New(env, FromData));
  exports.Set("fromTypedArray", Napi::Function::New(env, FromTypedArray));
  exports.Set("scalar", Napi::Function::New(env, Scalar));
  exports.Set("emptyLike", Napi::Function::New(env, EmptyLike));
  exports.Set("cat", Napi::Function::New(env, Cat));
  exports.Set("stack", Napi::Function::New(env, Stack));
  exports.Set("broadcastTensors", Napi::Function::New(env, BroadcastTensors));
}

}  // namespace ctn
