#include "engine/iterate.hpp"

#include <algorithm>
#include <array>

namespace ctensor::core {

int64_t LoopNest::numel() const noexcept {
  int64_t n = 1;
  for (int32_t d = 0; d < ndim; ++d) n *= size[d];
  return n;
}

LoopNest LoopNest::slice_outer(int64_t begin, int64_t end) const noexcept {
  LoopNest part = *this;
  part.size[0] = end - begin;
  part.dst += begin * dst_stride[0];
  part.src += begin * src_stride[0];
  return part;
}

void LoopNest::move_to_second_innermost(int32_t d) noexcept {
  const int32_t to = ndim - 2;
  for (int64_t* a : {size, dst_stride, src_stride}) std::rotate(a + d, a + d + 1, a + to + 1);
}

LoopNest make_loop_nest(int64_t ndim, const int64_t* sizes, char* dst, const int64_t* dst_strides,
                        size_t dst_item, const char* src, const int64_t* src_strides,
                        size_t src_item) noexcept {
  struct Dim {
    int64_t size, dst, src;
  };
  std::array<Dim, kMaxDims> dims;
  int32_t n = 0;
  const auto di = static_cast<int64_t>(dst_item), si = static_cast<int64_t>(src_item);
  for (int64_t i = 0; i < ndim; ++i) {
    if (sizes[i] == 1) continue;
    Dim d{sizes[i], dst_strides[i] * di, src_strides[i] * si};
    if (d.dst < 0) {
      dst += (d.size - 1) * d.dst;
      src += (d.size - 1) * d.src;
      d.dst = -d.dst;
      d.src = -d.src;
    }
    dims[n++] = d;
  }
  // Outer to inner by destination stride (distinct: the destination has no
  // internal overlap).
  std::sort(dims.begin(), dims.begin() + n, [](const Dim& a, const Dim& b) { return a.dst > b.dst; });

  LoopNest nest;
  nest.dst = dst;
  nest.src = src;
  int32_t m = 0;
  for (int32_t i = 0; i < n; ++i) {
    const Dim& d = dims[i];
    // Merge into the previous (outer) dim when this one continues it in both tensors.
    if (m > 0 && nest.dst_stride[m - 1] == d.dst * d.size && nest.src_stride[m - 1] == d.src * d.size) {
      nest.size[m - 1] *= d.size;
      nest.dst_stride[m - 1] = d.dst;
      nest.src_stride[m - 1] = d.src;
      continue;
    }
    nest.size[m] = d.size;
    nest.dst_stride[m] = d.dst;
    nest.src_stride[m] = d.src;
    ++m;
  }
  if (m == 0) {  // a single element
    nest.size[0] = 1;
    nest.dst_stride[0] = di;
    nest.src_stride[0] = si;
    m = 1;
  }
  nest.ndim = m;
  return nest;
}

}  // namespace ctensor::core
