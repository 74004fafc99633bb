// Memory overlap between and within strided views: the rules writes follow
// (tensor_copy's rule for internal overlap, in ctensor.h).
#pragma once

#include "layout/tensor.hpp"

namespace ctensor::core {

// Sorted by |stride|, each dim of size > 1 must step past the span of all
// smaller ones; zero strides and interleavings fail the test.
bool has_internal_overlap(const Tensor& t) noexcept;
// Error(Overlap) where has_internal_overlap.
void require_no_internal_overlap(const char* op, const Tensor& t);

// Whether the bytes two non-empty tensors address may intersect.
bool may_overlap(const Tensor& a, const Tensor& b);

// Whether every element of `dst` is the very element of `src` at the same index,
// src's strides given broadcast to dst's shape.
bool same_elements(const Tensor& dst, const Tensor& src, const int64_t* src_strides);

}  // namespace ctensor::core
