#include "ops/along_dim.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "engine/copy.hpp"
#include "layout/shape.hpp"
#include "ops/elements.hpp"

namespace ctensor::core {

namespace {

// A contiguous tensor seen as [outer, n, inner] around one dim: element (o, k, i)
// is at index (o * n + k) * inner + i.
struct Lanes {
  int64_t outer = 1, n = 1, inner = 1;
};

Lanes lanes_around(const Tensor& t, int64_t dim) noexcept {
  Lanes l;
  for (int64_t d = 0; d < t.ndim(); ++d) {
    if (d < dim) l.outer *= t.size(d);
    else if (d == dim) l.n = t.size(d);
    else l.inner *= t.size(d);
  }
  return l;
}

// t itself when contiguous, else a contiguous copy (the kernels below walk lanes).
Ref<Tensor> contiguous_input(const char* op, const Tensor& t) {
  if (t.is_contiguous()) return Ref<Tensor>::share(const_cast<Tensor*>(&t));
  return contiguous_copy(op, t, t.dtype());
}

template <class C>
bool is_nan_value(C x) noexcept {
  if constexpr (std::is_floating_point_v<C>) return std::isnan(x);
  else return false;
}

template <class T>
void arg_lanes(ArgOp op, const char* src, const Lanes& l, int64_t* out) {
  using C = compute_t<T>;
  std::vector<C> best(static_cast<size_t>(l.inner));
  for (int64_t o = 0; o < l.outer; ++o) {
    int64_t* idx = out + o * l.inner;
    const char* lane = src + static_cast<size_t>(o * l.n * l.inner) * sizeof(T);
    for (int64_t i = 0; i < l.inner; ++i) {
      best[i] = read_element<T>(lane + i * sizeof(T));
      idx[i] = 0;
    }
    for (int64_t k = 1; k < l.n; ++k) {
      const char* row = lane + static_cast<size_t>(k * l.inner) * sizeof(T);
      for (int64_t i = 0; i < l.inner; ++i) {
        const C v = read_element<T>(row + i * sizeof(T));
        const C b = best[i];
        if (is_nan_value(b)) continue;
        if (is_nan_value(v) || (op == ArgOp::Max ? v > b : v < b)) {
          best[i] = v;
          idx[i] = k;
        }
      }
    }
  }
}

// Accumulator of cumsum/cumprod for input storage type T (PyTorch's CPU acc_type).
template <class T>
struct ScanAcc {
  using C = compute_t<T>;
  using type = std::conditional_t<
      std::is_integral_v<C>, int64_t,
      std::conditional_t<std::is_same_v<C, float> && std::is_same_v<T, float>, double,
                         std::conditional_t<std::is_same_v<C, std::complex<float>>, std::complex<double>, C>>>;
};

template <class T>
using scan_out_t = std::conditional_t<std::is_integral_v<compute_t<T>>, int64_t, T>;

template <class T>
void scan_lanes(ScanOp op, const char* src, const Lanes& l, char* dst) {
  using Acc = typename ScanAcc<T>::type;
  using R = scan_out_t<T>;
  std::vector<Acc> acc(static_cast<size_t>(l.inner));
  for (int64_t o = 0; o < l.outer; ++o) {
    std::fill(acc.begin(), acc.end(), op == ScanOp::Sum ? Acc(0) : Acc(1));
    for (int64_t k = 0; k < l.n; ++k) {
      const int64_t at = (o * l.n + k) * l.inner;
      for (int64_t i = 0; i < l.inner; ++i) {
        const Acc v = static_cast<Acc>(read_element<T>(src + static_cast<size_t>(at + i) * sizeof(T)));
        Acc& a = acc[static_cast<size_t>(i)];
        if constexpr (std::is_integral_v<Acc>) a = op == ScanOp::Sum ? wrapping_add(a, v) : wrapping_mul(a, v);
        else a = op == ScanOp::Sum ? a + v : a * v;
        write_element<R>(dst + static_cast<size_t>(at + i) * sizeof(R), static_cast<compute_t<R>>(a));
      }
    }
  }
}

template <class T>
void softmax_lanes(bool log, const char* src, const Lanes& l, char* dst) {
  using C = compute_t<T>;  // float for float16/bfloat16/float32, double for float64
  std::vector<C> row(static_cast<size_t>(l.n));
  for (int64_t o = 0; o < l.outer; ++o)
    for (int64_t i = 0; i < l.inner; ++i) {
      const auto at = [&](int64_t k) { return static_cast<size_t>(((o * l.n + k) * l.inner + i)) * sizeof(T); };
      C max = -std::numeric_limits<C>::infinity();
      for (int64_t k = 0; k < l.n; ++k) {
        row[k] = read_element<T>(src + at(k));
        max = std::isnan(row[k]) || row[k] > max ? row[k] : max;
      }
      C sum = 0;
      for (int64_t k = 0; k < l.n; ++k) sum += std::exp(row[k] - max);
      const C log_sum = std::log(sum);
      for (int64_t k = 0; k < l.n; ++k) {
        const C shifted = row[k] - max;
        write_element<T>(dst + at(k), log ? shifted - log_sum : std::exp(shifted) / sum);
      }
    }
}

const char* arg_name(ArgOp op) noexcept { return op == ArgOp::Max ? "argmax" : "argmin"; }

}  // namespace

Ref<Tensor> arg_extreme(ArgOp op, const Tensor& t, std::optional<int64_t> dim, bool keepdim) {
  const char* name = arg_name(op);
  int64_t shape[kMaxDims];
  int64_t ndim = 0;
  Lanes lanes;
  if (!dim) {
    if (t.numel() == 0)
      fail(Status::Shape, name, ": expected a reduction dim to be specified for a tensor with no elements");
    if (keepdim) {
      ndim = t.ndim();
      std::fill(shape, shape + ndim, 1);
    }
    lanes.n = t.numel();
  } else {
    const int64_t d = wrap_dim(name, *dim, t.ndim());
    if (t.ndim() > 0 && t.size(d) == 0)
      fail(Status::Shape, name, ": expected reduction dim ", d, " to have non-zero size (sizes ",
           DimList{t.sizes(), t.ndim()}, ")");
    for (int64_t i = 0; i < t.ndim(); ++i)
      if (i != d || keepdim) shape[ndim++] = i == d ? 1 : t.size(i);
    lanes = lanes_around(t, d);
  }
  Ref<Tensor> out = Tensor::allocate(name, dtype::Int64, ndim, shape, false);
  // PyTorch runs no kernel, so checks no dtype, for an empty result or a named dim of size 1
  // (of a tensor with dims).
  if (out->numel() == 0) return out;
  if (dim && t.ndim() > 0 && lanes.n == 1) {
    std::memset(out->data(), 0, static_cast<size_t>(out->numel()) * sizeof(int64_t));
    return out;
  }
  const DTypeKind kind = dtype_info(t.dtype())->kind;
  if (kind == DTypeKind::Bool || kind == DTypeKind::Complex)
    fail(Status::DType, name, ": not implemented for ", dtype_info(t.dtype())->name, " (as in PyTorch)");
  t.require_readable(name);
  const Ref<Tensor> src = contiguous_input(name, t);
  dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<compute_t<T>, bool> && !is_complex<T>::value)
      arg_lanes<T>(op, src->data(), lanes, reinterpret_cast<int64_t*>(out->data()));
  });
  return out;
}

DType cumulative_dtype(DType d) noexcept {
  const DTypeKind kind = dtype_info(d)->kind;
  return kind == DTypeKind::Bool || kind == DTypeKind::Int ? dtype::Int64 : d;
}

namespace {

// A new contiguous tensor of t's shape in `dtype`, filled by kernel(T tag,
// contiguous input data, lanes around dim, output data) for t's storage type T.
template <class Kernel>
Ref<Tensor> along_dim(const char* name, const Tensor& t, int64_t dim, DType dtype, Kernel kernel) {
  const int64_t d = wrap_dim(name, dim, t.ndim());
  Ref<Tensor> out = Tensor::allocate(name, dtype, t.ndim(), t.sizes(), false);
  if (out->numel() == 0) return out;
  t.require_readable(name);
  const Ref<Tensor> src = contiguous_input(name, t);
  const Lanes lanes = t.ndim() == 0 ? Lanes{} : lanes_around(t, d);
  dispatch(t.dtype(), [&](auto tag) { kernel(tag, src->data(), lanes, out->data()); });
  return out;
}

}  // namespace

Ref<Tensor> cumulative(ScanOp op, const Tensor& t, int64_t dim) {
  return along_dim(op == ScanOp::Sum ? "cumsum" : "cumprod", t, dim, cumulative_dtype(t.dtype()),
                   [&](auto tag, const char* src, const Lanes& lanes, char* dst) {
                     scan_lanes<typename decltype(tag)::type>(op, src, lanes, dst);
                   });
}

Ref<Tensor> softmax(const Tensor& t, int64_t dim, bool log) {
  const char* name = log ? "log_softmax" : "softmax";
  if (dtype_info(t.dtype())->kind != DTypeKind::Float)
    fail(Status::DType, name, ": not implemented for ", dtype_info(t.dtype())->name,
         " (a floating dtype is needed, as in PyTorch)");
  return along_dim(name, t, dim, t.dtype(), [&](auto tag, const char* src, const Lanes& lanes, char* dst) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<compute_t<T>>) softmax_lanes<T>(log, src, lanes, dst);
  });
}

}  // namespace ctensor::core
