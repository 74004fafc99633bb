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
}

}  // namespace ctn
