#include "dtype/convert.hpp"


#include "dtype/cast_rules.hpp"
#include "dtype/cast_simd.hpp"
#include "error.hpp"

namespace ctensor::core {

namespace {

constexpr CastTable kPortableTable = make_cast_table<PortableKernel, LibraryRules>();
constexpr CastTable kPortableTorchX86Table = make_cast_table<PortableKernel, TorchX86Rules>();

// Chosen once, on first use, by the CPU's features.
const CastTable& active_table(Conversion conversion) noexcept {
  static const CastTable* const library = [] {
    const CastTable* simd = simd_cast_table(Conversion::Library);
    return simd ? simd : &kPortableTable;
  }();
  static const CastTable* const torch_x86 = [] {
    const CastTable* simd = simd_cast_table(Conversion::TorchX86);
    return simd ? simd : &kPortableTorchX86Table;
  }();
  return conversion == Conversion::TorchX86 ? *torch_x86 : *library;
}

}  // namespace

CastKernel cast_kernel(DType from, DType to, Conversion conversion) noexcept {
  const int i = cast_index(from), j = cast_index(to);
  if (i < 0 || j < 0) return nullptr;
  return active_table(conversion)[i * kNumCastDTypes + j];
}

void convert_from_double(double value, DType to, void* dst) noexcept {
  if (CastKernel kernel = cast_kernel(dtype::Float64, to))
    kernel(reinterpret_cast<const char*>(&value), 0, static_cast<char*>(dst), 0, 1);
}

void convert_elements(const char* op, void* dst, DType dst_dtype, const void* src, DType src_dtype, int64_t count) {
  require_known_dtype(dst_dtype, op);
  require_known_dtype(src_dtype, op);
  if (count < 0) fail(Status::Invalid, op, ": count is ", count, ", expected at least 0");
  if (count == 0) return;
  if (!dst || !src) fail(Status::Invalid, op, ": ", dst ? "src" : "dst", " is NULL for ", count, " elements");
  const auto dst_size = static_cast<int64_t>(dtype_size(dst_dtype)), src_size = static_cast<int64_t>(dtype_size(src_dtype));
  int64_t dst_bytes, src_bytes;
  if (__builtin_mul_overflow(count, dst_size, &dst_bytes) || __builtin_mul_overflow(count, src_size, &src_bytes))
    fail(Status::Overflow, op, ": ", count, " elements overflow the byte count");
  const auto d = reinterpret_cast<uintptr_t>(dst), s = reinterpret_cast<uintptr_t>(src);
  if (d < s + static_cast<uint64_t>(src_bytes) && s < d + static_cast<uint64_t>(dst_bytes))
    fail(Status::Overlap, op, ": the destination's ", dst_bytes, " bytes overlap the source's ", src_bytes);
  cast_kernel(src_dtype, dst_dtype)(static_cast<const char*>(src), src_size, static_cast<char*>(dst), dst_size,
                                    count);
}

}  // namespace ctensor::core
