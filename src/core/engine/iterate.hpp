// Loop nests for the copy engine: a destination and a source walked together,
// with dims merged and ordered so that the innermost loop is the longest run
// the destination allows.
#pragma once

#include <cstddef>
#include <cstdint>

#include "layout/shape.hpp"

namespace ctensor::core {

struct LoopNest {
  int32_t ndim = 0;  // dims outer -> inner; at least 1
  int64_t size[kMaxDims];
  int64_t dst_stride[kMaxDims];  // bytes
  int64_t src_stride[kMaxDims];  // bytes; 0 on broadcast dims
  char* dst = nullptr;           // element [0, ..., 0]
  const char* src = nullptr;

  int64_t numel() const noexcept;
  // Restricts dim 0 to [begin, end).
  LoopNest slice_outer(int64_t begin, int64_t end) const noexcept;
  // Moves dim `d` to position ndim - 2 (just outside the innermost dim).
  void move_to_second_innermost(int32_t d) noexcept;
};

// The nest for dst[...] = src over a non-empty shape. Strides are in elements,
// src's already broadcast to the shape (0 on broadcast dims). The destination
// must not overlap itself, so the nest may visit elements in any order: size-1
// dims are dropped, negative destination strides are flipped (moving both base
// pointers), dims are sorted by destination stride and adjacent dims that are
// contiguous in both tensors are merged.
LoopNest make_loop_nest(int64_t ndim, const int64_t* sizes, char* dst, const int64_t* dst_strides,
                        size_t dst_item, const char* src, const int64_t* src_strides,
                        size_t src_item) noexcept;

}  // namespace ctensor::core
