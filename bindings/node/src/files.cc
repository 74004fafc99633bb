// Files: .npy and safetensors (mapped zero-copy unless a copy is asked for).
#include "common.h"

namespace ctn {

namespace {

// { copy, writable } to TENSOR_LOAD_* flags.
uint32_t LoadFlags(const Napi::Value &opts) {
  if (!opts.IsObject()) return 0;
  Napi::Object o = opts.As<Napi::Object>();
  return (OptBool(o, "copy") ? TENSOR_LOAD_COPY : 0u) | (OptBool(o, "writable") ? TENSOR_LOAD_WRITABLE : 0u);
}

Napi::Value LoadNpy(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  std::string path = ToPath(env, info[0]);
  tensor_t *out = nullptr;
  return Give(env, tensor_load_npy(&out, path.c_str(), LoadFlags(info[1])), out);
}

Napi::Value SaveNpy(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  tensor_t *t = Tensor::Handle(env, info[0], "saveNpy");
  std::string path = ToPath(env, info[1]);
  Check(env, tensor_save_npy(t, path.c_str()));
  return env.Undefined();
}

// A tensor over the storage reference `s` (taken over): `shape` (null: 1-d over all the
// bytes) of `dtype`, contiguous from offset 0, bounds-checked by tensor_from_storage.
Napi::Value OverStorage(Napi::Env env, tensor_storage_t *s, const Napi::Value &dtype_v, const Napi::Value &shape_v) {
  struct Hold {
    tensor_storage_t *s;
    ~Hold() { tensor_storage_release(s); }
  } hold{s};
  tensor_dtype_t dtype = dtype_v.IsUndefined() || dtype_v.IsNull() ? TENSOR_UINT8 : ToDtype(env, dtype_v);
  std::vector<int64_t> sizes;
  if (shape_v.IsUndefined() || shape_v.IsNull()) {
    size_t itemsize = tensor_dtype_size(dtype);
    sizes.push_back(itemsize == 0 ? 0 : static_cast<int64_t>(tensor_storage_nbytes(s) / itemsize));
  } else {
    sizes = ToInt64s(env, shape_v, "shape");
  }
  tensor_t *out = nullptr;
  return Give(env, tensor_from_storage(&out, s, dtype, static_cast<int64_t>(sizes.size()), sizes.data(), nullptr, 0),
              out);
}

uint32_t MapFlags(Napi::Env env, const Napi::Value &mode_v) {
  std::string mode = mode_v.IsString() ? mode_v.As<Napi::String>().Utf8Value() : "read";
  if (mode == "read") return TENSOR_MAP_READ;
  if (mode == "write") return TENSOR_MAP_WRITE;
  if (mode == "private") return TENSOR_MAP_PRIVATE;
  ThrowMisuse(env, TENSOR_E_INVALID, "map mode '" + mode + "' is not 'read', 'write' or 'private'");
}

// mapFile(path, offset, nbytes, mode, dtype, shape)
Napi::Value MapFile(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  std::string path = ToPath(env, info[0]);
  int64_t offset = ToInt64(env, info[1], "offset");
  int64_t nbytes = ToInt64(env, info[2], "nbytes");
  if (offset < 0 || nbytes < 0) ThrowMisuse(env, TENSOR_E_INVALID, "mapFile: offset and nbytes must be >= 0");
  tensor_storage_t *s = nullptr;
  Check(env, tensor_storage_map_file(&s, path.c_str(), static_cast<uint64_t>(offset), static_cast<uint64_t>(nbytes),
                                     MapFlags(env, info[3])));
  return OverStorage(env, s, info[4], info[5]);
}

// sharedTensor(nbytes, dtype, shape): zero-filled memory in an anonymous file.
Napi::Value SharedTensor(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  int64_t nbytes = ToInt64(env, info[0], "nbytes");
  if (nbytes < 0) ThrowMisuse(env, TENSOR_E_INVALID, "sharedTensor: nbytes must be >= 0");
  tensor_storage_t *s = nullptr;
  Check(env, tensor_storage_new_shared(&s, static_cast<size_t>(nbytes)));
  return OverStorage(env, s, info[1], info[2]);
}

// fromFd(fd, nbytes, mode, dtype, shape): maps a descriptor (duplicated; the caller
// keeps its own).
Napi::Value FromFd(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  int64_t fd = ToInt64(env, info[0], "fd");
  int64_t nbytes = ToInt64(env, info[1], "nbytes");
  if (nbytes < 0 || fd < INT32_MIN || fd > INT32_MAX) {
    ThrowMisuse(env, TENSOR_E_INVALID, "fromFd: fd out of range or nbytes < 0");
  }
  tensor_storage_t *s = nullptr;
  Check(env, tensor_storage_from_fd(&s, static_cast<int32_t>(fd), static_cast<size_t>(nbytes), MapFlags(env, info[2])));
  return OverStorage(env, s, info[3], info[4]);
}

// saveSafetensors(path, names[], tensors[], metaKeys[], metaValues[])
Napi::Value SaveSafetensors(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  std::string path = ToPath(env, info[0]);
  Napi::Array names = info[1].As<Napi::Array>();
  std::vector<const tensor_t *> tensors = Tensor::Handles(env, info[2], "saveSafetensors");
  Napi::Array keys = info[3].As<Napi::Array>();
  Napi::Array values = info[4].As<Napi::Array>();
  std::vector<std::string> strings;
  for (uint32_t i = 0; i < names.Length(); ++i) strings.push_back(names.Get(i).ToString().Utf8Value());
  for (uint32_t i = 0; i < keys.Length(); ++i) strings.push_back(keys.Get(i).ToString().Utf8Value());
  for (uint32_t i = 0; i < values.Length(); ++i) strings.push_back(values.Get(i).ToString().Utf8Value());
  std::vector<const char *> ptrs;
  for (const std::string &s : strings) ptrs.push_back(s.c_str());
  const char *const *name_ptrs = ptrs.data();
  const char *const *key_ptrs = name_ptrs + names.Length();
  const char *const *value_ptrs = key_ptrs + keys.Length();
  Check(env, tensor_safetensors_save(path.c_str(), static_cast<int64_t>(names.Length()), name_ptrs, tensors.data(),
                                     static_cast<int64_t>(keys.Length()), key_ptrs, value_ptrs));
  return env.Undefined();
}

// An open safetensors file. close() releases the handle (tensors got from it stay
// valid); otherwise the collector does.
class SafeTensors : public Napi::ObjectWrap<SafeTensors> {
 public:
  static Napi::Function Define(Napi::Env env) {
    Napi::Function ctor = DefineClass(env, "SafeTensors",
                                      {
                                          InstanceMethod<&SafeTensors::Keys>("keys"),
                                          InstanceMethod<&SafeTensors::Get>("get"),
                                          InstanceMethod<&SafeTensors::Metadata>("metadata"),
                                          InstanceMethod<&SafeTensors::Close>("close"),
                                          InstanceAccessor<&SafeTensors::Count>("count"),
                                          InstanceAccessor<&SafeTensors::Closed>("closed"),
                                      });
    EnvOf(env).safetensors_ctor = Napi::Persistent(ctor);
    return ctor;
  }

  // new SafeTensors(path, { copy, writable })
  explicit SafeTensors(const Napi::CallbackInfo &info) : Napi::ObjectWrap<SafeTensors>(info) {
    Napi::Env env = info.Env();
    std::string path = ToPath(env, info[0]);
    Check(env, tensor_safetensors_open(&st_, path.c_str(), LoadFlags(info[1])));
  }
  ~SafeTensors() override { tensor_safetensors_release(st_); }
  SafeTensors(const SafeTensors &) = delete;
  SafeTensors &operator=(const SafeTensors &) = delete;

 private:
  tensor_safetensors_t *Live(Napi::Env env) const {
    if (st_ == nullptr) ThrowMisuse(env, TENSOR_E_INVALID, "safetensors file used after close()");
    return st_;
  }

  Napi::Value Keys(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    tensor_safetensors_t *st = Live(env);
    int64_t n = tensor_safetensors_count(st);
    Napi::Array out = Napi::Array::New(env, static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) out.Set(static_cast<uint32_t>(i), tensor_safetensors_name(st, i));
    return out;
  }

  Napi::Value Get(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    std::string name = info[0].ToString().Utf8Value();
    tensor_t *out = nullptr;
    return Give(env, tensor_safetensors_get(&out, Live(env), name.c_str()), out);
  }

  // The __metadata__ value of `key`, or null.
  Napi::Value Metadata(const Napi::CallbackInfo &info) {
    Napi::Env env = info.Env();
    std::string key = info[0].ToString().Utf8Value();
    const char *value = tensor_safetensors_metadata(Live(env), key.c_str());
    return value ? Napi::Value(Napi::String::New(env, value)) : env.Null();
  }

  Napi::Value Close(const Napi::CallbackInfo &info) {
    tensor_safetensors_release(st_);
    st_ = nullptr;
    return info.Env().Undefined();
  }

  Napi::Value Count(const Napi::CallbackInfo &info) {
    return Napi::Number::New(info.Env(), static_cast<double>(tensor_safetensors_count(Live(info.Env()))));
  }

  Napi::Value Closed(const Napi::CallbackInfo &info) { return Napi::Boolean::New(info.Env(), st_ == nullptr); }

  tensor_safetensors_t *st_ = nullptr;
};

}  // namespace

void InitFiles(Napi::Env env, Napi::Object exports) {
  exports.Set("loadNpy", Napi::Function::New(env, LoadNpy));
  exports.Set("saveNpy", Napi::Function::New(env, SaveNpy));
  exports.Set("saveSafetensors", Napi::Function::New(env, SaveSafetensors));
  exports.Set("SafeTensors", SafeTensors::Define(env));
  exports.Set("mapFile", Napi::Function::New(env, MapFile));
  exports.Set("sharedTensor", Napi::Function::New(env, SharedTensor));
  exports.Set("fromFd", Napi::Function::New(env, FromFd));
}

}  // namespace ctn
