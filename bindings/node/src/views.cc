// Views: each returns a new Tensor sharing the input's storage.
#include "common.h"

namespace ctn {

namespace {

// The pieces of a split, as an array of Tensors (the count asked for first).
template <typename Call>
Napi::Value Pieces(Napi::Env env, Call call) {
  int64_t count = 0;
  Check(env, call(nullptr, 0, &count));
  std::vector<tensor_t *> pieces(static_cast<size_t>(count), nullptr);
  Check(env, call(pieces.data(), count, &count));
  return WrapAll(env, pieces);
}

}  // namespace

Napi::Value Tensor::AsStrided(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  std::vector<int64_t> sizes = ToInt64s(env, info[0], "asStrided sizes");
  std::vector<int64_t> strides;
  bool has_strides = info.Length() > 1 && !info[1].IsNull() && !info[1].IsUndefined();
  if (has_strides) strides = ToInt64s(env, info[1], "asStrided strides");
  if (has_strides && strides.size() != sizes.size()) {
    ThrowMisuse(env, TENSOR_E_INVALID, "asStrided: " + std::to_string(sizes.size()) + " sizes but " +
                                           std::to_string(strides.size()) + " strides");
  }
  int64_t offset = IntArg(info, 2, "asStrided storageOffset", tensor_storage_offset(Live(env)));
  tensor_t *out = nullptr;
  return Give(env, tensor_as_strided(&out, Live(env), static_cast<int64_t>(sizes.size()), sizes.data(),
                                     has_strides ? strides.data() : nullptr, offset),
              out);
}

Napi::Value Tensor::View(const Napi::CallbackInfo &info) {
  std::vector<int64_t> sizes = ToInt64s(info.Env(), info[0], "view sizes");
  tensor_t *out = nullptr;
  return Give(info.Env(), tensor_view(&out, Live(info.Env()), static_cast<int64_t>(sizes.size()), sizes.data()), out);
}

Napi::Value Tensor::Reshape(const Napi::CallbackInfo &info) {
  std::vector<int64_t> sizes = ToInt64s(info.Env(), info[0], "reshape sizes");
  tensor_t *out = nullptr;
  return Give(info.Env(), tensor_reshape(&out, Live(info.Env()), static_cast<int64_t>(sizes.size()), sizes.data()),
              out);
}

Napi::Value Tensor::Transpose(const Napi::CallbackInfo &info) {
  tensor_t *out = nullptr;
  return Give(info.Env(),
              tensor_transpose(&out, Live(info.Env()), IntArg(info, 0, "transpose dim0"), IntArg(info, 1, "transpose dim1")),
              out);
}

Napi::Value Tensor::Permute(const Napi::CallbackInfo &info) {
  std::vector<int64_t> dims = ToInt64s(info.Env(), info[0], "permute dims");
  tensor_t *out = nullptr;
  return Give(info.Env(), tensor_permute(&out, Live(info.Env()), static_cast<int64_t>(dims.size()), dims.data()), out);
}

// slice(dim, start, stop, step): null/undefined start and stop are the open ends.
Napi::Value Tensor::Slice(const Napi::CallbackInfo &info) {
  int64_t step = IntArg(info, 3, "slice step", 1);
  int64_t start = IntArg(info, 1, "slice start", step < 0 ? TENSOR_SLICE_END : 0);
  int64_t stop = IntArg(info, 2, "slice stop", step < 0 ? INT64_MIN : TENSOR_SLICE_END);
  tensor_t *out = nullptr;
  return Give(info.Env(), tensor_slice(&out, Live(info.Env()), IntArg(info, 0, "slice dim"), start, stop, step), out);
}

Napi::Value Tensor::Select(const Napi::CallbackInfo &info) {
  tensor_t *out = nullptr;
  return Give(info.Env(),
              tensor_select(&out, Live(info.Env()), IntArg(info, 0, "select dim"), IntArg(info, 1, "select index")), out);
}

Napi::Value Tensor::Narrow(const Napi::CallbackInfo &info) {
  tensor_t *out = nullptr;
  return Give(info.Env(),
              tensor_narrow(&out, Live(info.Env()), IntArg(info, 0, "narrow dim"), IntArg(info, 1, "narrow start"),
                            IntArg(info, 2, "narrow length")),
              out);
}

Napi::Value Tensor::Expand(const Napi::CallbackInfo &info) {
  std::vector<int64_t> sizes = ToInt64s(info.Env(), info[0], "expand sizes");
  tensor_t *out = nullptr;
  return Give(info.Env(), tensor_expand(&out, Live(info.Env()), static_cast<int64_t>(sizes.size()), sizes.data()), out);
}

Napi::Value Tensor::BroadcastTo(const Napi::CallbackInfo &info) {
  std::vector<int64_t> sizes = ToInt64s(info.Env(), info[0], "broadcastTo sizes");
  tensor_t *out = nullptr;
  return Give(info.Env(),
              tensor_broadcast_to(&out, Live(info.Env()), static_cast<int64_t>(sizes.size()), sizes.data()), out);
}

// squeeze() squeezes every size-1 dim; squeeze(dim) only that one.
Napi::Value Tensor::Squeeze(const Napi::CallbackInfo &info) {
  tensor_t *out = nullptr;
  return Give(info.Env(), tensor_squeeze(&out, Live(info.Env()), IntArg(info, 0, "squeeze dim", TENSOR_ALL_DIMS)),
              out);
}

Napi::Value Tensor::Unsqueeze(const Napi::CallbackInfo &info) {
  tensor_t *out = nullptr;
  return Give(info.Env(), tensor_unsqueeze(&out, Live(info.Env()), IntArg(info, 0, "unsqueeze dim")), out);
}

Napi::Value Tensor::Flatten(const Napi::CallbackInfo &info) {
  tensor_t *out = nullptr;
  return Give(info.Env(),
              tensor_flatten(&out, Live(info.Env()), IntArg(info, 0, "flatten startDim", 0),
                             IntArg(info, 1, "flatten endDim", -1)),
              out);
}

Napi::Value Tensor::ViewDtype(const Napi::CallbackInfo &info) {
  tensor_t *out = nullptr;
  return Give(info.Env(), tensor_view_dtype(&out, Live(info.Env()), ToDtype(info.Env(), info[0])), out);
}

Napi::Value Tensor::Diagonal(const Napi::CallbackInfo &info) {
  tensor_t *out = nullptr;
  return Give(info.Env(),
              tensor_diagonal(&out, Live(info.Env()), IntArg(info, 0, "diagonal offset", 0),
                              IntArg(info, 1, "diagonal dim1", 0), IntArg(info, 2, "diagonal dim2", 1)),
              out);
}

Napi::Value Tensor::Unfold(const Napi::CallbackInfo &info) {
  tensor_t *out = nullptr;
  return Give(info.Env(),
              tensor_unfold(&out, Live(info.Env()), IntArg(info, 0, "unfold dim"), IntArg(info, 1, "unfold size"),
                            IntArg(info, 2, "unfold step")),
              out);
}

Napi::Value Tensor::Movedim(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  std::vector<int64_t> source = ToInt64s(env, info[0], "movedim source");
  std::vector<int64_t> destination = ToInt64s(env, info[1], "movedim destination");
  if (source.size() != destination.size()) {
    ThrowMisuse(env, TENSOR_E_INVALID, "movedim: " + std::to_string(source.size()) + " source dims but " +
                                           std::to_string(destination.size()) + " destination dims");
  }
  tensor_t *out = nullptr;
  return Give(env,
              tensor_movedim(&out, Live(env), static_cast<int64_t>(source.size()), source.data(), destination.data()),
              out);
}

Napi::Value Tensor::Unflatten(const Napi::CallbackInfo &info) {
  std::vector<int64_t> sizes = ToInt64s(info.Env(), info[1], "unflatten sizes");
  tensor_t *out = nullptr;
  return Give(info.Env(),
              tensor_unflatten(&out, Live(info.Env()), IntArg(info, 0, "unflatten dim"),
                               static_cast<int64_t>(sizes.size()), sizes.data()),
              out);
}

Napi::Value Tensor::Atleast(const Napi::CallbackInfo &info) {
  tensor_t *out = nullptr;
  return Give(info.Env(), tensor_atleast(&out, Live(info.Env()), IntArg(info, 0, "atleast minDims")), out);
}

// index(items): NumPy basic indexing in one view. An item is an integer, null (a new
// axis), '...' (an ellipsis), a boolean, or { start, stop, step } (a slice; missing
// ends are open).
Napi::Value Tensor::Index(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  if (!info[0].IsArray()) throw Napi::TypeError::New(env, "index: expected an array of index items");
  Napi::Array items = info[0].As<Napi::Array>();
  std::vector<int32_t> kinds(items.Length());
  std::vector<int64_t> values(3 * static_cast<size_t>(items.Length()), 0);
  for (uint32_t i = 0; i < items.Length(); ++i) {
    Napi::Value item = items.Get(i);
    int64_t *v = &values[3 * i];
    if (item.IsNull() || item.IsUndefined()) {
      kinds[i] = TENSOR_INDEX_NEWAXIS;
    } else if (item.IsString() && item.As<Napi::String>().Utf8Value() == "...") {
      kinds[i] = TENSOR_INDEX_ELLIPSIS;
    } else if (item.IsBoolean()) {
      kinds[i] = TENSOR_INDEX_BOOL;
      v[0] = item.As<Napi::Boolean>().Value() ? 1 : 0;
    } else if (item.IsObject()) {
      Napi::Object slice = item.As<Napi::Object>();
      auto field = [&](const char *key, int64_t fallback) {
        Napi::Value f = slice.Get(key);
        return f.IsUndefined() || f.IsNull() ? fallback : ToInt64(env, f, key);
      };
      kinds[i] = TENSOR_INDEX_SLICE;
      v[2] = field("step", 1);
      v[0] = field("start", v[2] < 0 ? TENSOR_SLICE_END : 0);
      v[1] = field("stop", v[2] < 0 ? INT64_MIN : TENSOR_SLICE_END);
    } else {
      kinds[i] = TENSOR_INDEX_INT;
      v[0] = ToInt64(env, item, "index");
    }
  }
  tensor_t *out = nullptr;
  return Give(env, tensor_index(&out, Live(env), static_cast<int64_t>(kinds.size()), kinds.data(), values.data()), out);
}

// split(size, dim) pieces of `size` (the last may be smaller); split([sizes], dim).
Napi::Value Tensor::Split(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  tensor_t *t = Live(env);
  int64_t dim = IntArg(info, 1, "split dim", 0);
  if (info[0].IsArray()) {
    std::vector<int64_t> sizes = ToInt64s(env, info[0], "split sizes");
    return Pieces(env, [&](tensor_t **out, int64_t cap, int64_t *count) {
      return tensor_split_with_sizes(out, cap, count, t, static_cast<int64_t>(sizes.size()), sizes.data(), dim);
    });
  }
  int64_t size = IntArg(info, 0, "split size");
  return Pieces(env, [&](tensor_t **out, int64_t cap, int64_t *count) {
    return tensor_split(out, cap, count, t, size, dim);
  });
}

// chunk(chunks, dim): torch.chunk; tensorSplit(sections | [indices], dim): torch.tensor_split.
Napi::Value Tensor::Chunk(const Napi::CallbackInfo &info) {
  Napi::Env env = info.Env();
  tensor_t *t = Live(env);
  bool tensor_split_mode = info.Length() > 2 && info[2].ToBoolean().Value();
  int64_t dim = IntArg(info, 1, "chunk dim", 0);
  if (tensor_split_mode && info[0].IsArray()) {
    std::vector<int64_t> indices = ToInt64s(env, info[0], "tensorSplit indices");
    return Pieces(env, [&](tensor_t **out, int64_t cap, int64_t *count) {
      return tensor_tensor_split_indices(out, cap, count, t, static_cast<int64_t>(indices.size()), indices.data(), dim);
    });
  }
  int64_t n = IntArg(info, 0, "chunk count");
  return Pieces(env, [&](tensor_t **out, int64_t cap, int64_t *count) {
    return tensor_split_mode ? tensor_tensor_split(out, cap, count, t, n, dim) : tensor_chunk(out, cap, count, t, n, dim);
  });
}

}  // namespace ctn
