// Shared pieces of the Node-API addon: per-environment state (one per main thread or
// worker), status-to-exception plumbing, argument conversion and the Tensor wrapper.
// Only the public header ctensor.h is used.
#ifndef CTENSOR_NODE_COMMON_H
#define CTENSOR_NODE_COMMON_H

#include <ctensor.h>
#include <napi.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace ctn {

// Where a foreign ArrayBuffer's reference goes back when the storage that borrowed
// its memory is released. A napi_ref may only be deleted on its environment's
// thread; a release on another thread is queued to that thread through a
// thread-safe function. `alive` turns false when the environment shuts down; the
// references it still holds are then dropped with the environment.
struct RefHome {
  std::mutex mu;
  bool alive = true;
  napi_env env = nullptr;
  napi_threadsafe_function tsfn = nullptr;
  std::thread::id js_thread;
};

// Per-environment state, kept as the environment's instance data (a worker has its own).
struct EnvData {
  Napi::FunctionReference tensor_ctor;
  Napi::FunctionReference safetensors_ctor;
  Napi::FunctionReference make_error;  // (status, message) => CTensorError subclass instance
  bool external_buffers = true;        // false: the runtime refuses external ArrayBuffers
  std::shared_ptr<RefHome> home;
};

EnvData &EnvOf(Napi::Env env);

// Throws the CTensorError subclass for `status` with tensor_last_error() (read first,
// before anything else can fail on this thread).
[[noreturn]] void ThrowStatus(Napi::Env env, tensor_status_t status);
// Throws a CTensorError for a binding-level misuse (a released handle, a wrong kind of
// argument for a tensor) with the status that the C library gives for the same mistake.
[[noreturn]] void ThrowMisuse(Napi::Env env, tensor_status_t status, const std::string &message);

inline void Check(Napi::Env env, tensor_status_t status) {
  if (status != TENSOR_OK) ThrowStatus(env, status);
}

// Argument conversion: integers from Numbers (exact integers) or BigInts.
int64_t ToInt64(Napi::Env env, const Napi::Value &v, const char *what);
double ToDouble(Napi::Env env, const Napi::Value &v, const char *what);
std::vector<int64_t> ToInt64s(Napi::Env env, const Napi::Value &v, const char *what);
tensor_dtype_t ToDtype(Napi::Env env, const Napi::Value &v);
std::string ToPath(Napi::Env env, const Napi::Value &v);
// Argument i as an integer; missing, undefined or null gives `fallback` (the first
// form throws instead).
int64_t IntArg(const Napi::CallbackInfo &info, size_t i, const char *what, int64_t fallback);
int64_t IntArg(const Napi::CallbackInfo &info, size_t i, const char *what);
bool OptBool(const Napi::Object &opts, const char *key);
Napi::Array FromInt64s(Napi::Env env, const int64_t *values, int64_t n);

inline Napi::Value Give(Napi::Env env, tensor_status_t status, tensor_t *&out);

// A JS object around one tensor_t reference. `release()` drops the reference at once;
// otherwise the garbage collector's finalizer does. Every method on a released
// tensor throws.
class Tensor : public Napi::ObjectWrap<Tensor> {
 public:
  static Napi::Function Define(Napi::Env env);
  // A new JS Tensor taking over the reference `t` (released if the wrapping fails).
  static Napi::Object Wrap(Napi::Env env, tensor_t *t);
  // The live handle of a JS Tensor argument (borrowed; throws for anything else).
  static tensor_t *Handle(Napi::Env env, const Napi::Value &v, const char *what);
  static std::vector<const tensor_t *> Handles(Napi::Env env, const Napi::Value &v, const char *what);

  explicit Tensor(const Napi::CallbackInfo &info);
  ~Tensor() override;
  Tensor(const Tensor &) = delete;
  Tensor &operator=(const Tensor &) = delete;

 private:
  tensor_t *Live(Napi::Env env) const;
  // Every method but release() goes through this: a released tensor throws before
  // any argument is looked at.
  template <Napi::Value (Tensor::*Method)(const Napi::CallbackInfo &)>
  Napi::Value LiveCall(const Napi::CallbackInfo &info) {
    Live(info.Env());
    return (this->*Method)(info);
  }
  void Drop();

  // Inspection and lifetime (tensor.cc).
  Napi::Value Dtype(const Napi::CallbackInfo &info);
  Napi::Value Shape(const Napi::CallbackInfo &info);
  Napi::Value Strides(const Napi::CallbackInfo &info);
  Napi::Value StorageOffset(const Napi::CallbackInfo &info);
  Napi::Value Ndim(const Napi::CallbackInfo &info);
  Napi::Value Numel(const Napi::CallbackInfo &info);
  Napi::Value IsContiguous(const Napi::CallbackInfo &info);
  Napi::Value IsReadonly(const Napi::CallbackInfo &info);
  Napi::Value Released(const Napi::CallbackInfo &info);
  Napi::Value Refcount(const Napi::CallbackInfo &info);
  Napi::Value StorageInfo(const Napi::CallbackInfo &info);
  Napi::Value Device(const Napi::CallbackInfo &info);
  Napi::Value Release(const Napi::CallbackInfo &info);
  Napi::Value Data(const Napi::CallbackInfo &info);
  Napi::Value StorageBuffer(const Napi::CallbackInfo &info);
  Napi::Value Item(const Napi::CallbackInfo &info);

  // Views (views.cc).
  Napi::Value AsStrided(const Napi::CallbackInfo &info);
  Napi::Value View(const Napi::CallbackInfo &info);
  Napi::Value Reshape(const Napi::CallbackInfo &info);
  Napi::Value Transpose(const Napi::CallbackInfo &info);
  Napi::Value Permute(const Napi::CallbackInfo &info);
  Napi::Value Slice(const Napi::CallbackInfo &info);
  Napi::Value Select(const Napi::CallbackInfo &info);
  Napi::Value Narrow(const Napi::CallbackInfo &info);
  Napi::Value Expand(const Napi::CallbackInfo &info);
  Napi::Value BroadcastTo(const Napi::CallbackInfo &info);
  Napi::Value Squeeze(const Napi::CallbackInfo &info);
  Napi::Value Unsqueeze(const Napi::CallbackInfo &info);
  Napi::Value Flatten(const Napi::CallbackInfo &info);
  Napi::Value ViewDtype(const Napi::CallbackInfo &info);
  Napi::Value Diagonal(const Napi::CallbackInfo &info);
  Napi::Value Unfold(const Napi::CallbackInfo &info);
  Napi::Value Movedim(const Napi::CallbackInfo &info);
  Napi::Value Unflatten(const Napi::CallbackInfo &info);
  Napi::Value Atleast(const Napi::CallbackInfo &info);
  Napi::Value Index(const Napi::CallbackInfo &info);
  Napi::Value Split(const Napi::CallbackInfo &info);
  Napi::Value Chunk(const Napi::CallbackInfo &info);

  // A function of one tensor giving a new one (clone, neg, exp, ..., nonzero).
  template <tensor_status_t (*Fn)(tensor_t **, const tensor_t *)>
  Napi::Value Unary(const Napi::CallbackInfo &info) {
    tensor_t *out = nullptr;
    return Give(info.Env(), Fn(&out, Live(info.Env())), out);
  }

  // A function along one dim (cumsum, cumprod, softmax, log_softmax).
  template <tensor_status_t (*Fn)(tensor_t **, const tensor_t *, int64_t)>
  Napi::Value DimOp(const Napi::CallbackInfo &info) {
    tensor_t *out = nullptr;
    return Give(info.Env(), Fn(&out, Live(info.Env()), IntArg(info, 0, "dim")), out);
  }

  // argmax/argmin(dim = all, keepdim = false).
  template <tensor_status_t (*Fn)(tensor_t **, const tensor_t *, int64_t, int32_t)>
  Napi::Value ArgOp(const Napi::CallbackInfo &info) {
    tensor_t *out = nullptr;
    int32_t keepdim = info.Length() > 1 && info[1].ToBoolean().Value() ? 1 : 0;
    return Give(info.Env(), Fn(&out, Live(info.Env()), IntArg(info, 0, "dim", TENSOR_ALL_DIMS), keepdim), out);
  }

  Napi::Value Clamp(const Napi::CallbackInfo &info);
  Napi::Value Where(const Napi::CallbackInfo &info);

  // Copies (math.cc).
  Napi::Value Contiguous(const Napi::CallbackInfo &info);
  Napi::Value Copy(const Napi::CallbackInfo &info);
  Napi::Value To(const Napi::CallbackInfo &info);
  Napi::Value Fill(const Napi::CallbackInfo &info);

  // Math (math.cc).
  Napi::Value Binary(const Napi::CallbackInfo &info);
  Napi::Value Conj(const Napi::CallbackInfo &info);
  Napi::Value Reduce(const Napi::CallbackInfo &info);

  tensor_t *t_ = nullptr;
  napi_env env_ = nullptr;
  int64_t accounted_ = 0;  // bytes reported to V8 as external memory
};

// A tensor_t reference owned by C++ code for the length of one call (scalars made
// from JS numbers, intermediate results).
class Owned {
 public:
  Owned() = default;
  explicit Owned(tensor_t *t) : t_(t) {}
  ~Owned() { tensor_release(t_); }
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  tensor_t **out() { return &t_; }
  tensor_t *get() const { return t_; }
  tensor_t *take() {
    tensor_t *t = t_;
    t_ = nullptr;
    return t;
  }

 private:
  tensor_t *t_ = nullptr;
};

// Checks `status` and wraps the new reference `out` in a Tensor. `out` is taken by
// reference: it is read after the call that fills it (argument order is unspecified).
inline Napi::Value Give(Napi::Env env, tensor_status_t status, tensor_t *&out) {
  Check(env, status);
  return Tensor::Wrap(env, out);
}

// An array of Tensors taking over every reference in `handles` (all released if
// wrapping one fails).
Napi::Array WrapAll(Napi::Env env, std::vector<tensor_t *> &handles);

// A tensor argument that may also be a JS number, bigint or boolean (made a 0-dim
// "wrapped number" tensor, which promotes like a Python scalar in PyTorch).
const tensor_t *TensorOrScalar(Napi::Env env, const Napi::Value &v, Owned &holder, const char *what);

// Module functions, registered by each file on `exports`.
void InitCreation(Napi::Env env, Napi::Object exports);
void InitMath(Napi::Env env, Napi::Object exports);
void InitFiles(Napi::Env env, Napi::Object exports);

}  // namespace ctn

#endif
