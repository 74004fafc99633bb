// Runs a loop nest: picks the kernel for its innermost dims and spreads large
// nests over the thread pool.
#pragma once

#include <cstddef>

#include "dtype/convert.hpp"
#include "engine/iterate.hpp"

namespace ctensor::core {

// dst[...] = src over `nest`. `cast` converts each element (nullptr: same
// dtype, plain copies of `dst_item`-byte elements).
void execute(LoopNest nest, size_t dst_item, CastKernel cast);

}  // namespace ctensor::core
