// Runs a copy's iterator: picks the kernel for its inner dims and spreads large
// copies over the thread pool.
#pragma once

#include "dtype/cast_simd.hpp"
#include "dtype/convert.hpp"
#include "engine/tensor_iterator.hpp"

namespace ctensor::core {

// dst[...] = src over `it`, whose operand 0 is the destination and operand 1
// the source. `cast` converts each element (nullptr: same dtype, plain copies
// of itemsize(0)-byte elements); `stream_cast` is its streaming variant, or
// nullptr when it has none.
void execute(TensorIterator it, CastKernel cast, StreamCastKernel stream_cast);

}  // namespace ctensor::core
