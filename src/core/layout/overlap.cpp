#include "layout/overlap.hpp"

#include <algorithm>
#include <cstdlib>

#include "error.hpp"
#include "layout/shape.hpp"

namespace ctensor::core {

bool has_internal_overlap(const Tensor& t) noexcept {
  struct Dim {
    int64_t size, stride;
  };
  Dim dims[kMaxDims];
  int64_t n = 0;
  for (int64_t i = 0; i < t.ndim(); ++i)
    if (t.size(i) > 1) dims[n++] = {t.size(i), std::llabs(t.stride(i))};
  std::sort(dims, dims + n, [](const Dim& a, const Dim& b) { return a.stride < b.stride; });
  int64_t span = 0;  // bounded by the storage size, so it cannot overflow
  for (int64_t i = 0; i < n; ++i) {
    if (dims[i].stride <= span) return true;
    span += (dims[i].size - 1) * dims[i].stride;
  }
  return false;
}

void require_no_internal_overlap(const char* op, const Tensor& t) {
  if (has_internal_overlap(t))
    fail(Status::Overlap, op, ": destination of sizes ", DimList{t.sizes(), t.ndim()}, " and strides ",
         DimList{t.strides(), t.ndim()}, " has internal overlap (more than one element refers to the same memory)");
}

namespace {

struct ByteRange {
  uintptr_t lo, hi;
};

ByteRange byte_range(const Tensor& t) {
  const Extent e = element_extent("overlap", t.ndim(), t.sizes(), t.strides());
  const auto item = static_cast<int64_t>(t.itemsize());
  const auto base = reinterpret_cast<uintptr_t>(t.data());
  return {base + e.lo * item, base + (e.hi + 1) * item};
}

}  // namespace

bool may_overlap(const Tensor& a, const Tensor& b) {
  // By address, not by storage: different storages may wrap the same memory.
  const ByteRange ra = byte_range(a), rb = byte_range(b);
  return ra.lo < rb.hi && rb.lo < ra.hi;
}

bool same_elements(const Tensor& dst, const Tensor& src, const int64_t* src_strides) {
  if (dst.data() != src.data() || dst.itemsize() != src.itemsize()) return false;
  for (int64_t i = 0; i < dst.ndim(); ++i)
    if (dst.size(i) > 1 && dst.stride(i) != src_strides[i]) return false;
  return true;
}

}  // namespace ctensor::core
