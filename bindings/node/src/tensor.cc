// The Tensor class: lifetime, inspection and element data as ArrayBuffers over
// ctensor memory.
#include "common.h"

namespace ctn {

namespace {

// Memory V8 is told about for a tensor that alone owns a fresh storage, so that
// the collector runs as often as the real memory use asks.
int64_t SoleStorageBytes(tensor_t *t) {
  tensor_storage_t *s = tensor_storage(t);
  if (tensor_refcount(t) != 1 || tensor_storage_refcount(s) != 1) return 0;
  return static_cast<int64_t>(tensor_storage_nbytes(s));
}

void ReleaseStorage(napi_env, void *, void *hint) {
  tensor_storage_release(static_cast<tensor_storage_t *>(hint));
}

// An ArrayBuffer over the whole storage of t. Zero-copy: an external ArrayBuffer
// holding one storage reference, released by its finalizer. Where the runtime refuses
// external buffers (napi_no_external_buffers_allowed), or for a read-only storage
// (JS cannot make a TypedArray read-only, and a write into a read-only mapping would
// crash the process), a copy. `copied` says which.
Napi::ArrayBuffer StorageArrayBuffer(Napi::Env env, tensor_t *t, bool &copied) {
  tensor_storage_t *s = tensor_storage(t);
  size_t nbytes = tensor_storage_nbytes(s);
  void *data = tensor_storage_data(s);
  EnvData &ed = EnvOf(env);
  copied = true;
  if (nbytes > 0 && ed.external_buffers && tensor_storage_is_readonly(s) == 0) {
    napi_value buf = nullptr;
    tensor_storage_retain(s);
    napi_status st = napi_create_external_arraybuffer(env, data, nbytes, ReleaseStorage, s, &buf);
    if (st == napi_ok) {
      copied = false;
      return Napi::ArrayBuffer(env, buf);
    }
    tensor_storage_release(s);
    if (st != napi_no_external_buffers_allowed) NAPI_THROW_IF_FAILED(env, st, Napi::ArrayBuffer());
    ed.external_buffers = false;
  }
  Napi::ArrayBuffer copy = Napi::ArrayBuffer::New(env, nbytes);
  if (nbytes > 0) std::memcpy(copy.Data(), data, nbytes);
  return copy;
}

// The TypedArray type that shows `dtype`'s elements (complex: interleaved re, im;
// float16/bfloat16: raw bits as uint16; bool: bytes 0/1).
napi_typedarray_type ArrayType(tensor_dtype_t dtype, size_t &per_element) {
  per_element = 1;
  switch (dtype) {
    case TENSOR_UINT8: case TENSOR_BOOL: return napi_uint8_array;
    case TENSOR_INT8: return napi_int8_array;
    case TENSOR_INT16: return napi_int16_array;
    case TENSOR_UINT16: case TENSOR_FLOAT16: case TENSOR_BFLOAT16: return napi_uint16_array;
    case TENSOR_INT32: return napi_int32_array;
    case TENSOR_UINT32: return napi_uint32_array;
    case TENSOR_INT64: return napi_bigint64_array;
    case TENSOR_UINT64: return napi_biguint64_array;
    case TENSOR_FLOAT32: return napi_float32_array;
    case TENSOR_FLOAT64: return napi_float64_array;
    case TENSOR_COMPLEX64: per_element = 2; return napi_float32_array;
    case TENSOR_COMPLEX128: per_element = 2; return napi_float64_array;
    default: return napi_uint8_array;
  }
}

}  // namespace

Napi::Function Tensor::Define(Napi::Env env) {
  Napi::Function ctor = DefineClass(
      env, "Tensor",
      {
          InstanceAccessor<&Tensor::Dtype>("dtype"),
          InstanceAccessor<&Tensor::Shape>("shape"),
          InstanceAccessor<&Tensor::Strides>("strides"),
          InstanceAccessor<&Tensor::StorageOffset>("storageOffset"),
          InstanceAccessor<&Tensor::Ndim>("ndim"),
          InstanceAccessor<&Tensor::Numel>("numel"),
          InstanceAccessor<&Tensor::IsContiguous>("isContiguous"),
          InstanceAccessor<&Tensor::IsReadonly>("isReadonly"),
          InstanceAccessor<&Tensor::Released>("released"),
          InstanceAccessor<&Tensor::Refcount>("refcount"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::StorageInfo>>("storageInfo"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Device>>("device"),
          InstanceMethod<&Tensor::Release>("release"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Data>>("_data"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::StorageBuffer>>("_storageBuffer"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Item>>("item"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::AsStrided>>("asStrided"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::View>>("view"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Reshape>>("reshape"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Transpose>>("transpose"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Permute>>("permute"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Slice>>("slice"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Select>>("select"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Narrow>>("narrow"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Expand>>("expand"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::BroadcastTo>>("broadcastTo"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Squeeze>>("squeeze"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unsqueeze>>("unsqueeze"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Flatten>>("flatten"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::ViewDtype>>("viewDtype"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Diagonal>>("diagonal"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unfold>>("unfold"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Movedim>>("movedim"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unflatten>>("unflatten"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Atleast>>("atleast"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Index>>("index"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Split>>("split"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Chunk>>("chunk"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Contiguous>>("contiguous"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_clone>>>("clone"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Copy>>("copy_"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::To>>("to"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Fill>>("fill_"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Binary>>("_binary"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_neg>>>("neg"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_abs>>>("abs"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_exp>>>("exp"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_exp2>>>("exp2"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_expm1>>>("expm1"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_log>>>("log"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_log2>>>("log2"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_log10>>>("log10"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_log1p>>>("log1p"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_sqrt>>>("sqrt"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_rsqrt>>>("rsqrt"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_sin>>>("sin"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_cos>>>("cos"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_tan>>>("tan"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_asin>>>("asin"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_acos>>>("acos"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_atan>>>("atan"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_sinh>>>("sinh"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_cosh>>>("cosh"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_tanh>>>("tanh"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_sigmoid>>>("sigmoid"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_relu>>>("relu"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_gelu>>>("gelu"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_erf>>>("erf"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_floor>>>("floor"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_ceil>>>("ceil"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_round>>>("round"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_trunc>>>("trunc"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_frac>>>("frac"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_sign>>>("sign"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_reciprocal>>>("reciprocal"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_square>>>("square"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_isnan>>>("isnan"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_isinf>>>("isinf"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_isfinite>>>("isfinite"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_logical_not>>>("logicalNot"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_bitwise_not>>>("bitwiseNot"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::DimOp<tensor_cumsum>>>("cumsum"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::DimOp<tensor_cumprod>>>("cumprod"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::DimOp<tensor_softmax>>>("softmax"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::DimOp<tensor_log_softmax>>>("logSoftmax"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::ArgOp<tensor_argmax>>>("argmax"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::ArgOp<tensor_argmin>>>("argmin"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Clamp>>("clamp"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Where>>("where"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Conj>>("_conj"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Reduce>>("_reduce"),
          InstanceMethod<&Tensor::LiveCall<&Tensor::Unary<tensor_nonzero>>>("nonzero"),
      });
  EnvOf(env).tensor_ctor = Napi::Persistent(ctor);
  return ctor;
}

Napi::Object Tensor::Wrap(Napi::Env env, tensor_t *t) {
  Owned guard(t);
  Napi::Object obj = EnvOf(env).tensor_ctor.New({Napi::External<tensor_t>::New(env, t)});
  guard.take();
  return obj;
}

Tensor::Tensor(const Napi::CallbackInfo &info) : Napi::ObjectWrap<Tensor>(info), env_(info.Env()) {
  if (info.Length() != 1 || !info[0].IsExternal()) {
    throw Napi::TypeError::New(info.Env(),
                               "Tensor cannot be constructed directly; use ctensor.zeros, ctensor.fromTypedArray, ...");
  }
  t_ = info[0].As<Napi::External<tensor_t>>().Data();
  accounted_ = SoleStorageBytes(t_);
  // The plain C call: a constructor that threw here would leave the reference
  // owned twice (this object's destructor and Wrap's guard).
  int64_t ignored = 0;
  if (accounted_ > 0) napi_adjust_external_memory(env_, accounted_, &ignored);
}

Tensor::~Tensor() { Drop(); }

void Tensor::Drop() {
  if (t_ == nullptr) return;
  tensor_release(t_);
  t_ = nullptr;
  if (accounted_ > 0) {
    int64_t ignored = 0;
    napi_adjust_external_memory(env_, -accounted_, &ignored);
    accounted_ = 0;
  }
}

Napi::Array WrapAll(Napi::Env env, std::vector<tensor_t *> &handles) {
  Napi::Array out = Napi::Array::New(env, handles.size());
  for (size_t i = 0; i < handles.size(); ++i) {
    tensor_t *t = handles[i];
    handles[i] = nullptr;
    try {
      out.Set(static_cast<uint32_t>(i), Tensor::Wrap(env, t));
    } catch (...) {
      for (tensor_t *rest : handles) tensor_release(rest);
      throw;
    }
  }
  return out;
}

tensor_t *Tensor::Live(Napi::Env env) const {
  if (t_ == nullptr) ThrowMisuse(env, TENSOR_E_INVALID, "tensor used after release()");
  return t_;
}

tensor_t *Tensor::Handle(Napi::Env env, const Napi::Value &v, const char *what) {
  if (!v.IsObject() || !v.As<Napi::Object>().InstanceOf(EnvOf(env).tensor_ctor.Value())) {
    throw Napi::TypeError::New(env, std::string(what) + ": expected a Tensor");
  }
  return Unwrap(v.As<Napi::Object>())->Live(env);
}

std::vector<const tensor_t *> Tensor::Handles(Napi::Env env, const Napi::Value &v, const char *what) {
  if (!v.IsArray()) throw Napi::TypeError::New(env, std::string(what) + ": expected an array of Tensors");
  Napi::Array a = v.As<Napi::Array>();
  std::vector<const tensor_t *> out(a.Length());
  for (uint32_t i = 0; i < a.Length(); ++i) out[i] = Handle(env, a.Get(i), what);
  return out;
}

Napi::Value Tensor::Dtype(const Napi::CallbackInfo &info) {
  return Napi::String::New(info.Env(), tensor_dtype_name(tensor_dtype(Live(info.Env()))));
}

Napi::Value Tensor::Shape(const Napi::CallbackInfo &info) {
  tensor_t *t = Live(info.Env());
  return FromInt64s(info.Env(), tensor_sizes(t), tensor_ndim(t));
}

Napi::Value Tensor::Strides(const Napi::CallbackInfo &info) {
  tensor_t *t = Live(info.Env());
  return FromInt64s(info.Env(), tensor_strides(t), tensor_ndim(t));
}

Napi::Value Tensor::StorageOffset(const Napi::CallbackInfo &info) {
  return Napi::Number::New(info.Env(), static_cast<double>(tensor_storage_offset(Live(info.Env()))));
}

Napi::Value Tensor::Ndim(const Napi::CallbackInfo &info) {
  return Napi::Number::New(info.Env(), static_cast<double>(tensor_ndim(Live(info.Env()))));
}

Napi::Value Tensor::Numel(const Napi::CallbackInfo &info) {
  return Napi::Number::New(info.Env(), static_cast<double>(tensor_numel(Live(info.Env()))));
}

Napi::Value Tensor::IsContiguous(const Napi::CallbackInfo &info) {
  return Napi::Boolean::New(info.Env(), tensor_is_contiguous(Live(info.Env())) == 1);
}

Napi::Value Tensor::IsReadonly(const Napi::CallbackInfo &info) {
  return Napi::Boolean::New(info.Env(), tensor_is_readonly(Live(info.Env())) == 1);
}

Napi::Value Tensor::Released(const Napi::CallbackInfo &info) { return Napi::Boolean::New(info.Env(), t_ == nullptr); }

Napi::Value Tensor::Refcount(const Napi::CallbackInfo &info) {
  return Napi::Number::New(info.Env(), static_cast<double>(tensor_refcount(Live(info.Env()))));
}

// { nbytes, refcount, readonly, fd } of the tensor's storage.
Napi::Value Tensor::StorageInfo(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  tensor_storage_t *s = tensor_storage(Live(env));
  Napi::Object o = Napi::Object::New(env);
  o.Set("nbytes", static_cast<double>(tensor_storage_nbytes(s)));
  o.Set("refcount", static_cast<double>(tensor_storage_refcount(s)));
  o.Set("readonly", tensor_storage_is_readonly(s) == 1);
  o.Set("fd", tensor_storage_fd(s));
  return o;
}

// { type, id }: DLPack's device type (1 = CPU) and id.
Napi::Value Tensor::Device(const Napi::CallbackInfo &info) {
  int32_t type = 0;
  int32_t id = 0;
  tensor_device(Live(info.Env()), &type, &id);
  Napi::Object o = Napi::Object::New(info.Env());
  o.Set("type", type);
  o.Set("id", id);
  return o;
}

Napi::Value Tensor::Release(const Napi::CallbackInfo &info) {
  Drop();
  return info.Env().Undefined();
}

// The tensor's elements as a TypedArray over its storage (zero-copy where
// StorageArrayBuffer allows). Needs a contiguous tensor: a strided one has no
// TypedArray form (TENSOR_E_COPY: call contiguous() first, which copies).
Napi::Value Tensor::Data(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  tensor_t *t = Live(env);
  if (tensor_is_contiguous(t) != 1) {
    std::string strides;
    for (int64_t d = 0; d < tensor_ndim(t); ++d) strides += (d ? ", " : "") + std::to_string(tensor_strides(t)[d]);
    ThrowMisuse(env, TENSOR_E_COPY, "data: the tensor is not contiguous (strides [" + strides +
                                        "]); call contiguous() for a copy");
  }
  size_t per_element = 1;
  napi_typedarray_type type = ArrayType(tensor_dtype(t), per_element);
  size_t itemsize = tensor_dtype_size(tensor_dtype(t));
  bool copied = false;
  Napi::ArrayBuffer buf = StorageArrayBuffer(env, t, copied);
  size_t length = static_cast<size_t>(tensor_numel(t)) * per_element;
  size_t offset = length == 0 ? 0 : static_cast<size_t>(tensor_storage_offset(t)) * itemsize;
  napi_value arr = nullptr;
  NAPI_THROW_IF_FAILED(env, napi_create_typedarray(env, type, length, buf, offset, &arr), Napi::Value());
  return Napi::Value(env, arr);
}

// The whole storage as an ArrayBuffer (zero-copy as data()); { buffer, copied }.
Napi::Value Tensor::StorageBuffer(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  bool copied = false;
  Napi::ArrayBuffer buf = StorageArrayBuffer(env, Live(env), copied);
  Napi::Object o = Napi::Object::New(env);
  o.Set("buffer", buf);
  o.Set("copied", copied);
  return o;
}

// The single element: a boolean for bool, a BigInt for int64/uint64, else a number
// (complex: the real part, as tensor_item_float64).
Napi::Value Tensor::Item(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  tensor_t *t = Live(env);
  tensor_dtype_t dtype = tensor_dtype(t);
  if (dtype == TENSOR_INT64 || dtype == TENSOR_UINT64) {
    int64_t v = 0;
    Check(env, tensor_item_int64(&v, t));
    if (dtype == TENSOR_UINT64) return Napi::BigInt::New(env, static_cast<uint64_t>(v));
    return Napi::BigInt::New(env, v);
  }
  double v = 0;
  Check(env, tensor_item_float64(&v, t));
  if (dtype == TENSOR_BOOL) return Napi::Boolean::New(env, v != 0);
  return Napi::Number::New(env, v);
}

}  // namespace ctn
