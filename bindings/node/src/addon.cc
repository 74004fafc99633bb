// Module initialisation, per-environment state, errors and argument conversion.
#include <cmath>
#include <cstring>
#include <limits>

#include "common.h"

namespace ctn {

EnvData &EnvOf(Napi::Env env) { return *env.GetInstanceData<EnvData>(); }

void ThrowStatus(Napi::Env env, tensor_status_t status) {
  std::string message = tensor_last_error();
  EnvData &data = EnvOf(env);
  if (data.make_error.IsEmpty()) {
    throw Napi::Error::New(env, message);
  }
  Napi::Value err = data.make_error.Call({Napi::Number::New(env, status), Napi::String::New(env, message)});
  throw Napi::Error(env, err);
}

void ThrowMisuse(Napi::Env env, tensor_status_t status, const std::string &message) {
  EnvData &data = EnvOf(env);
  if (data.make_error.IsEmpty()) {
    throw Napi::Error::New(env, message);
  }
  Napi::Value err = data.make_error.Call({Napi::Number::New(env, status), Napi::String::New(env, message)});
  throw Napi::Error(env, err);
}

int64_t ToInt64(Napi::Env env, const Napi::Value &v, const char *what) {
  if (v.IsBigInt()) {
    bool lossless = false;
    int64_t value = v.As<Napi::BigInt>().Int64Value(&lossless);
    if (!lossless) throw Napi::RangeError::New(env, std::string(what) + ": BigInt does not fit in int64");
    return value;
  }
  if (v.IsNumber()) {
    double d = v.As<Napi::Number>().DoubleValue();
    // 2^63 is the first double past INT64_MAX; -2^63 is INT64_MIN exactly.
    if (std::trunc(d) != d || !(d >= -9223372036854775808.0 && d < 9223372036854775808.0)) {
      throw Napi::RangeError::New(env, std::string(what) + ": " + std::to_string(d) +
                                           " is not an integer in the int64 range");
    }
    return static_cast<int64_t>(d);
  }
  throw Napi::TypeError::New(env, std::string(what) + ": expected an integer (number or bigint)");
}

double ToDouble(Napi::Env env, const Napi::Value &v, const char *what) {
  if (v.IsNumber()) return v.As<Napi::Number>().DoubleValue();
  if (v.IsBoolean()) return v.As<Napi::Boolean>().Value() ? 1.0 : 0.0;
  if (v.IsBigInt()) {
    bool lossless = false;
    return static_cast<double>(v.As<Napi::BigInt>().Int64Value(&lossless));
  }
  throw Napi::TypeError::New(env, std::string(what) + ": expected a number");
}

std::vector<int64_t> ToInt64s(Napi::Env env, const Napi::Value &v, const char *what) {
  if (!v.IsArray()) throw Napi::TypeError::New(env, std::string(what) + ": expected an array of integers");
  Napi::Array a = v.As<Napi::Array>();
  std::vector<int64_t> out(a.Length());
  for (uint32_t i = 0; i < a.Length(); ++i) out[i] = ToInt64(env, a.Get(i), what);
  return out;
}

// dtype codes are PyTorch's ScalarType values; the largest is uint64 (29).
static constexpr int kMaxDtypeCode = 64;

tensor_dtype_t ToDtype(Napi::Env env, const Napi::Value &v) {
  if (v.IsString()) {
    std::string name = v.As<Napi::String>().Utf8Value();
    for (int code = 0; code < kMaxDtypeCode; ++code) {
      const char *n = tensor_dtype_name(code);
      if (n != nullptr && name == n) return code;
    }
    ThrowMisuse(env, TENSOR_E_INVALID, "unknown dtype '" + name + "'");
  }
  if (v.IsNumber()) return static_cast<tensor_dtype_t>(ToInt64(env, v, "dtype"));
  throw Napi::TypeError::New(env, "dtype: expected a dtype name such as 'float32'");
}

std::string ToPath(Napi::Env env, const Napi::Value &v) {
  if (!v.IsString()) throw Napi::TypeError::New(env, "path: expected a string");
  std::string path = v.As<Napi::String>().Utf8Value();
  if (path.find('\0') != std::string::npos) throw Napi::TypeError::New(env, "path: contains a NUL character");
  return path;
}

bool OptBool(const Napi::Object &opts, const char *key) {
  Napi::Value v = opts.Get(key);
  return !v.IsUndefined() && v.ToBoolean().Value();
}

Napi::Array FromInt64s(Napi::Env env, const int64_t *values, int64_t n) {
  Napi::Array a = Napi::Array::New(env, static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) a.Set(static_cast<uint32_t>(i), Napi::Number::New(env, static_cast<double>(values[i])));
  return a;
}

int64_t IntArg(const Napi::CallbackInfo &info, size_t i, const char *what, int64_t fallback) {
  if (info.Length() <= i || info[i].IsUndefined() || info[i].IsNull()) return fallback;
  return ToInt64(info.Env(), info[i], what);
}

int64_t IntArg(const Napi::CallbackInfo &info, size_t i, const char *what) {
  if (info.Length() <= i) throw Napi::TypeError::New(info.Env(), std::string(what) + ": missing argument");
  return ToInt64(info.Env(), info[i], what);
}

namespace {

// The thread-safe function's call: runs on the environment's thread with a
// reference that another thread gave back.
void DeleteRefOnJsThread(napi_env env, napi_value, void *, void *data) {
  auto ref = static_cast<napi_ref>(data);
  if (env != nullptr) napi_delete_reference(env, ref);
}

// Runs when the environment (the main thread's or a worker's) shuts down.
void ShutDownHome(void *arg) {
  // A worker's thread may be kept by Node for a while after its environment: give the
  // library's per-thread caches back now.
  tensor_thread_release_caches();
  auto *home = static_cast<std::shared_ptr<RefHome> *>(arg);
  {
    std::lock_guard<std::mutex> lock((*home)->mu);
    (*home)->alive = false;
    napi_release_threadsafe_function((*home)->tsfn, napi_tsfn_abort);
    (*home)->tsfn = nullptr;
  }
  delete home;
}

std::shared_ptr<RefHome> MakeHome(Napi::Env env) {
  auto home = std::make_shared<RefHome>();
  home->env = env;
  home->js_thread = std::this_thread::get_id();
  napi_value name = Napi::String::New(env, "ctensor buffer release");
  if (napi_create_threadsafe_function(env, nullptr, nullptr, name, 0, 1, nullptr, nullptr, nullptr,
                                      DeleteRefOnJsThread, &home->tsfn) != napi_ok) {
    throw Napi::Error::New(env, "ctensor: cannot create the thread-safe function for buffer releases");
  }
  // The queue must not keep the event loop (or a worker) alive on its own.
  napi_unref_threadsafe_function(env, home->tsfn);
  napi_add_env_cleanup_hook(env, ShutDownHome, new std::shared_ptr<RefHome>(home));
  return home;
}

Napi::Value SetErrorFactory(const Napi::CallbackInfo &info) {
  EnvOf(info.Env()).make_error = Napi::Persistent(info[0].As<Napi::Function>());
  return info.Env().Undefined();
}

// Lets the tests (and runtimes that announce it) take the copying path of data().
Napi::Value SetExternalBuffers(const Napi::CallbackInfo &info) {
  EnvOf(info.Env()).external_buffers = info[0].ToBoolean().Value();
  return info.Env().Undefined();
}

Napi::Value ExternalBuffers(const Napi::CallbackInfo &info) {
  return Napi::Boolean::New(info.Env(), EnvOf(info.Env()).external_buffers);
}

Napi::Value StatusName(const Napi::CallbackInfo &info) {
  const char *name = tensor_status_name(static_cast<tensor_status_t>(ToInt64(info.Env(), info[0], "status")));
  return name ? Napi::Value(Napi::String::New(info.Env(), name)) : info.Env().Null();
}

// { name, code, size, kind, signed } for every dtype the library knows.
Napi::Value Dtypes(const Napi::CallbackInfo &info) {
  static const char *const kinds[] = {"bool", "int", "float", "complex"};
  Napi::Env env = info.Env();
  Napi::Array out = Napi::Array::New(env);
  for (int code = 0; code < kMaxDtypeCode; ++code) {
    const char *name = tensor_dtype_name(code);
    if (name == nullptr) continue;
    Napi::Object d = Napi::Object::New(env);
    d.Set("name", name);
    d.Set("code", code);
    d.Set("size", static_cast<double>(tensor_dtype_size(code)));
    int32_t kind = tensor_dtype_kind(code);
    d.Set("kind", kind >= 0 && kind < 4 ? kinds[kind] : "unknown");
    d.Set("signed", tensor_dtype_is_signed(code) == 1);
    out.Set(out.Length(), d);
  }
  return out;
}

Napi::Value Version(const Napi::CallbackInfo &info) {
  Napi::Object v = Napi::Object::New(info.Env());
  v.Set("string", tensor_version_string());
  v.Set("number", tensor_version_number());
  v.Set("compiledNumber", CTENSOR_VERSION_NUMBER);
  return v;
}

Napi::Value SetNumThreads(const Napi::CallbackInfo &info) {
  Check(info.Env(), tensor_set_num_threads(static_cast<int32_t>(ToInt64(info.Env(), info[0], "n"))));
  return info.Env().Undefined();
}

// Gives this thread's cached control blocks back to the heap (before a heap snapshot,
// when a worker goes idle).
Napi::Value ReleaseThreadCaches(const Napi::CallbackInfo &info) {
  tensor_thread_release_caches();
  return info.Env().Undefined();
}

Napi::Value GetNumThreads(const Napi::CallbackInfo &info) {
  return Napi::Number::New(info.Env(), tensor_get_num_threads());
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  auto *data = new EnvData();
  env.SetInstanceData(data);
  data->home = MakeHome(env);
  if (tensor_version_number() < CTENSOR_VERSION_NUMBER) {
    throw Napi::Error::New(env, std::string("ctensor: the loaded libctensor ") + tensor_version_string() +
                                    " is older than the headers this addon was built with");
  }
  exports.Set("Tensor", Tensor::Define(env));
  exports.Set("setErrorFactory", Napi::Function::New(env, SetErrorFactory));
  exports.Set("setExternalBuffers", Napi::Function::New(env, SetExternalBuffers));
  exports.Set("externalBuffers", Napi::Function::New(env, ExternalBuffers));
  exports.Set("statusName", Napi::Function::New(env, StatusName));
  exports.Set("dtypes", Napi::Function::New(env, Dtypes));
  exports.Set("version", Napi::Function::New(env, Version));
  exports.Set("setNumThreads", Napi::Function::New(env, SetNumThreads));
  exports.Set("getNumThreads", Napi::Function::New(env, GetNumThreads));
  exports.Set("releaseThreadCaches", Napi::Function::New(env, ReleaseThreadCaches));
  InitCreation(env, exports);
  InitMath(env, exports);
  InitFiles(env, exports);
  return exports;
}

}  // namespace

}  // namespace ctn

static Napi::Object InitModule(Napi::Env env, Napi::Object exports) { return ctn::Init(env, exports); }

NODE_API_MODULE(ctensor_node, InitModule)
