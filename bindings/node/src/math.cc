// Copies, conversions and math.
#include <cmath>

#include "common.h"

namespace ctn {

const tensor_t *TensorOrScalar(Napi::Env env, const Napi::Value &v, Owned &holder, const char *what) {
  tensor_status_t status;
  if (v.IsBoolean()) {
    status = tensor_scalar_bool(holder.out(), v.As<Napi::Boolean>().Value() ? 1 : 0);
  } else if (v.IsBigInt()) {
    status = tensor_scalar_int64(holder.out(), ToInt64(env, v, what));
  } else if (v.IsNumber()) {
    // A JS number is a Python float in PyTorch's promotion unless it is integral.
    double d = v.As<Napi::Number>().DoubleValue();
    bool integral = std::trunc(d) == d && d >= -9007199254740992.0 && d <= 9007199254740992.0;
    status = integral ? tensor_scalar_int64(holder.out(), static_cast<int64_t>(d))
                      : tensor_scalar_float64(holder.out(), d);
  } else {
    return Tensor::Handle(env, v, what);
  }
  Check(env, status);
  return holder.get();
}

namespace {

// The op names of tensor_binary_into, in TENSOR_OP_* order.
const char *const kOps[] = {"add", "sub", "mul", "div", "pow", "maximum", "minimum",
                            "eq", "ne", "lt", "le", "gt", "ge"};
using BinaryFn = tensor_status_t (*)(tensor_t **, const tensor_t *, const tensor_t *);
const BinaryFn kBinary[] = {tensor_add, tensor_sub, tensor_mul, tensor_div, tensor_pow,
                            tensor_maximum, tensor_minimum, tensor_eq, tensor_ne, tensor_lt,
                            tensor_le, tensor_gt, tensor_ge};

tensor_op_t OpCode(Napi::Env env, const Napi::Value &v) {
  std::string name = v.As<Napi::String>().Utf8Value();
  for (size_t i = 0; i < sizeof(kOps) / sizeof(kOps[0]); ++i) {
    if (name == kOps[i]) return static_cast<tensor_op_t>(i);
  }
  ThrowMisuse(env, TENSOR_E_INVALID, "unknown binary op '" + name + "'");
}

// The op names of tensor_unary and tensor_unary_into, in TENSOR_UOP_* order.
const char *const kUnaryOps[] = {"neg", "abs", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "relu", "gelu", "erf", "floor", "ceil", "round", "trunc", "frac", "sign", "reciprocal", "square", "isnan", "isinf", "isfinite", "logicalNot", "bitwiseNot"};

tensor_unary_op_t UnaryCode(Napi::Env env, const Napi::Value &v) {
  std::string name = v.ToString().Utf8Value();
  for (size_t i = 0; i < sizeof(kUnaryOps) / sizeof(kUnaryOps[0]); ++i) {
    if (name == kUnaryOps[i]) return static_cast<tensor_unary_op_t>(i);
  }
  ThrowMisuse(env, TENSOR_E_INVALID, "unknown unary op '" + name + "'");
}

// unary(op, a): op(a) by name.
Napi::Value Unary(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  tensor_unary_op_t op = UnaryCode(env, info[0]);
  tensor_t *out = nullptr;
  return Give(env, tensor_unary(&out, op, Tensor::Handle(env, info[1], "unary")), out);
}

// unaryInto(dst, op, a): dst = op(a) under PyTorch's out= rules; returns dst.
Napi::Value UnaryInto(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  tensor_t *dst = Tensor::Handle(env, info[0], "unaryInto dst");
  tensor_unary_op_t op = UnaryCode(env, info[1]);
  Check(env, tensor_unary_into(dst, op, Tensor::Handle(env, info[2], "unaryInto a")));
  return info[0];
}

Napi::Value BinaryInto(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  tensor_t *dst = Tensor::Handle(env, info[0], "binaryInto dst");
  tensor_op_t op = OpCode(env, info[1]);
  Owned ha, hb;
  const tensor_t *a = TensorOrScalar(env, info[2], ha, "binaryInto a");
  const tensor_t *b = TensorOrScalar(env, info[3], hb, "binaryInto b");
  Check(env, tensor_binary_into(dst, op, a, b));
  return info[0];
}

Napi::Value ResultType(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  Owned ha, hb;
  const tensor_t *a = TensorOrScalar(env, info[0], ha, "resultType a");
  const tensor_t *b = TensorOrScalar(env, info[1], hb, "resultType b");
  tensor_dtype_t out = 0;
  Check(env, tensor_result_type(&out, a, b));
  return Napi::String::New(env, tensor_dtype_name(out));
}

Napi::Value Equal(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  int32_t out = 0;
  Check(env, tensor_equal(&out, Tensor::Handle(env, info[0], "equal a"), Tensor::Handle(env, info[1], "equal b")));
  return Napi::Boolean::New(env, out == 1);
}

// allclose(a, b, rtol, atol, equalNan)
Napi::Value Allclose(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  int32_t out = 0;
  Check(env, tensor_allclose(&out, Tensor::Handle(env, info[0], "allclose a"), Tensor::Handle(env, info[1], "allclose b"),
                             ToDouble(env, info[2], "rtol"), ToDouble(env, info[3], "atol"),
                             info[4].ToBoolean().Value() ? 1 : 0));
  return Napi::Boolean::New(env, out == 1);
}

// copyWith(dst, src, torchX86): tensor_copy_with under a conversion policy.
Napi::Value CopyWith(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  uint32_t conversion = info[2].ToBoolean().Value() ? TENSOR_CONVERT_TORCH_X86 : TENSOR_CONVERT_LIBRARY;
  Check(env, tensor_copy_with(Tensor::Handle(env, info[0], "copyWith dst"), Tensor::Handle(env, info[1], "copyWith src"),
                              conversion));
  return info[0];
}

// The arguments (t, dims, indices) that indexGather and indexPut share.
struct IndexArgs {
  tensor_t *t;
  std::vector<int64_t> dims;
  std::vector<const tensor_t *> indices;
};

IndexArgs ReadIndexArgs(const Napi::CallbackInfo &info, const std::string &what) {
  Napi::Env env = info.Env();
  IndexArgs args{Tensor::Handle(env, info[0], what.c_str()), ToInt64s(env, info[1], (what + " dims").c_str()),
                 Tensor::Handles(env, info[2], (what + " indices").c_str())};
  if (args.dims.size() != args.indices.size()) ThrowMisuse(env, TENSOR_E_INVALID, what + ": one dim per index tensor");
  return args;
}

// indexGather(t, dims, indices)
Napi::Value IndexGather(const Napi::CallbackInfo &info) {
  IndexArgs a = ReadIndexArgs(info, "indexGather");
  tensor_t *out = nullptr;
  return Give(info.Env(),
              tensor_index_gather(&out, a.t, static_cast<int64_t>(a.dims.size()), a.dims.data(), a.indices.data()), out);
}

// indexPut(t, dims, indices, values): returns t.
Napi::Value IndexPut(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  IndexArgs a = ReadIndexArgs(info, "indexPut");
  Owned hv;
  const tensor_t *values = TensorOrScalar(env, info[3], hv, "indexPut values");
  Check(env, tensor_index_put(a.t, static_cast<int64_t>(a.dims.size()), a.dims.data(), a.indices.data(), values));
  return info[0];
}

}  // namespace

Napi::Value Tensor::Contiguous(const Napi::CallbackInfo &info) {
  tensor_t *out = nullptr;
  return Give(info.Env(), tensor_contiguous(&out, Live(info.Env())), out);
}

// copy_(src): this[...] = src, broadcast and converted. Returns this.
Napi::Value Tensor::Copy(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  Owned holder;
  Check(env, tensor_copy(Live(env), TensorOrScalar(env, info[0], holder, "copy_ src")));
  return info.This();
}

// to(dtype, copy = 'ifNeeded' | 'always' | 'never', preserveFormat?, torchX86?)
Napi::Value Tensor::To(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  tensor_dtype_t dtype = ToDtype(env, info[0]);
  std::string mode = info.Length() > 1 && info[1].IsString() ? info[1].As<Napi::String>().Utf8Value() : "ifNeeded";
  int32_t copy = mode == "always" ? TENSOR_COPY_ALWAYS : mode == "never" ? TENSOR_COPY_NEVER : TENSOR_COPY_IF_NEEDED;
  if (mode != "always" && mode != "never" && mode != "ifNeeded") {
    ThrowMisuse(env, TENSOR_E_INVALID, "to: copy mode '" + mode + "' is not 'ifNeeded', 'always' or 'never'");
  }
  bool preserve = info.Length() > 2 && info[2].ToBoolean().Value();
  bool torch = info.Length() > 3 && info[3].ToBoolean().Value();
  tensor_t *out = nullptr;
  if (!preserve && !torch) return Give(env, tensor_to(&out, Live(env), dtype, copy), out);
  return Give(env,
              tensor_to_with(&out, Live(env), dtype, copy, preserve ? TENSOR_PRESERVE_FORMAT : TENSOR_CONTIGUOUS_FORMAT,
                             torch ? TENSOR_CONVERT_TORCH_X86 : TENSOR_CONVERT_LIBRARY),
              out);
}

Napi::Value Tensor::Fill(const Napi::CallbackInfo &info) {
  Check(info.Env(), tensor_fill(Live(info.Env()), ToDouble(info.Env(), info[0], "fill_ value")));
  return info.This();
}

// _binary(op, other): this op other, with other a Tensor or a JS scalar.
Napi::Value Tensor::Binary(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  tensor_op_t op = OpCode(env, info[0]);
  Owned holder;
  const tensor_t *other = TensorOrScalar(env, info[1], holder, kOps[op]);
  bool reflected = info.Length() > 2 && info[2].ToBoolean().Value();
  tensor_t *out = nullptr;
  tensor_t *self = Live(env);
  return Give(env, reflected ? kBinary[op](&out, other, self) : kBinary[op](&out, self, other), out);
}

// _conj(physical)
Napi::Value Tensor::Conj(const Napi::CallbackInfo &info) {
  tensor_t *out = nullptr;
  bool physical = info[0].ToBoolean().Value();
  return Give(info.Env(), physical ? tensor_conj_physical(&out, Live(info.Env())) : tensor_conj(&out, Live(info.Env())),
              out);
}

// _reduce(name, dims | null, keepdim)
Napi::Value Tensor::Reduce(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  using ReduceFn = tensor_status_t (*)(tensor_t **, const tensor_t *, int64_t, const int64_t *, int32_t);
  std::string name = info[0].As<Napi::String>().Utf8Value();
  ReduceFn fn = name == "sum"    ? tensor_sum
                : name == "mean" ? tensor_mean
                : name == "prod" ? tensor_prod
                : name == "amax" ? tensor_amax
                : name == "amin" ? tensor_amin
                                 : nullptr;
  if (fn == nullptr) ThrowMisuse(env, TENSOR_E_INVALID, "unknown reduction '" + name + "'");
  std::vector<int64_t> dims;
  bool all = info[1].IsNull() || info[1].IsUndefined();
  if (!all) dims = info[1].IsArray() ? ToInt64s(env, info[1], "dims") : std::vector<int64_t>{ToInt64(env, info[1], "dim")};
  int32_t keepdim = info[2].ToBoolean().Value() ? 1 : 0;
  tensor_t *out = nullptr;
  return Give(env, fn(&out, Live(env), static_cast<int64_t>(dims.size()), all ? nullptr : dims.data(), keepdim), out);
}

// clamp(min, max): either bound may be null/undefined (not both); a bound is a Tensor or
// a JS scalar.
Napi::Value Tensor::Clamp(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  Owned hmin, hmax;
  auto bound = [&](size_t i, Owned &holder, const char *what) -> const tensor_t * {
    if (info.Length() <= i || info[i].IsNull() || info[i].IsUndefined()) return nullptr;
    return TensorOrScalar(env, info[i], holder, what);
  };
  const tensor_t *lo = bound(0, hmin, "clamp min");
  const tensor_t *hi = bound(1, hmax, "clamp max");
  tensor_t *out = nullptr;
  return Give(env, tensor_clamp(&out, Live(env), lo, hi), out);
}

// cond.where(a, b): a where cond is true, else b (torch.where(cond, a, b)).
Napi::Value Tensor::Where(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  Owned ha, hb;
  const tensor_t *a = TensorOrScalar(env, info[0], ha, "where a");
  const tensor_t *b = TensorOrScalar(env, info[1], hb, "where b");
  tensor_t *out = nullptr;
  return Give(env, tensor_where(&out, Live(env), a, b), out);
}

void InitMath(Napi::Env env, Napi::Object exports) {
  exports.Set("binaryInto", Napi::Function::New(env, BinaryInto));
  exports.Set("unary", Napi::Function::New(env, Unary));
  exports.Set("unaryInto", Napi::Function::New(env, UnaryInto));
  exports.Set("resultType", Napi::Function::New(env, ResultType));
  exports.Set("equal", Napi::Function::New(env, Equal));
  exports.Set("allclose", Napi::Function::New(env, Allclose));
  exports.Set("copyWith", Napi::Function::New(env, CopyWith));
  exports.Set("indexGather", Napi::Function::New(env, IndexGather));
  exports.Set("indexPut", Napi::Function::New(env, IndexPut));
}

}  // namespace ctn
