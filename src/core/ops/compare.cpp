#include "ops/compare.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

#include "engine/tensor_iterator.hpp"
#include "ops/binary.hpp"
#include "ops/elements.hpp"

namespace ctensor::core {

namespace {

template <class C>
auto widen(C x) noexcept {
  if constexpr (std::is_same_v<C, std::complex<float>> || std::is_same_v<C, std::complex<double>>)
    return std::complex<double>(x.real(), x.imag());
  else
    return static_cast<double>(x);
}

bool any_nan(double x) noexcept { return std::isnan(x); }
bool any_nan(std::complex<double> x) noexcept { return std::isnan(x.real()) || std::isnan(x.imag()); }

}  // namespace

bool equal(const Tensor& a, const Tensor& b) {
  if (a.ndim() != b.ndim() || !std::equal(a.sizes(), a.sizes() + a.ndim(), b.sizes())) return false;
  const Ref<Tensor> eq = binary(BinaryOp::Eq, a, b);
  const auto* p = reinterpret_cast<const uint8_t*>(eq->data());  // fresh: dense, in some order
  return std::all_of(p, p + eq->numel(), [](uint8_t x) { return x != 0; });
}

bool allclose(const Tensor& a, const Tensor& b, double rtol, double atol, bool equal_nan) {
  if (!(rtol >= 0)) fail(Status::Invalid, "allclose: rtol must be greater than or equal to zero, but got ", rtol);
  if (!(atol >= 0)) fail(Status::Invalid, "allclose: atol must be greater than or equal to zero, but got ", atol);
  if (a.dtype() != b.dtype())
    fail(Status::DType, "allclose: a is ", dtype_name(a.dtype()), " but b is ", dtype_name(b.dtype()),
         " (both must have one dtype, as in PyTorch)");
  a.require_readable("allclose");
  b.require_readable("allclose");
  uint8_t close = 1;
  // A one-element output every dim reduces into: the loop ands into it.
  const TensorIterator it = TensorIteratorConfig()
                                .add_output(reinterpret_cast<char*>(&close), 0, nullptr, nullptr, 1)
                                .add_input(a)
                                .add_input(b)
                                .allow_reduction()
                                .build("allclose");
  dispatch(a.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    it.serial_for_each([&](char** data, const int64_t* s, int64_t n) {
      bool all = true;
      for (int64_t i = 0; i < n && all; ++i) {
        const auto x = widen(read_element<T>(data[1] + i * s[1])), y = widen(read_element<T>(data[2] + i * s[2]));
        const double diff = std::abs(x - y);
        all = x == y || (equal_nan && any_nan(x) && any_nan(y)) ||
              (std::isfinite(diff) && diff <= atol + rtol * std::abs(y));
      }
      if (!all) *data[0] = 0;
    });
  });
  return close != 0;
}

}  // namespace ctensor::core
