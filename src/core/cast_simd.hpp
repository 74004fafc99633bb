// Vectorised conversion kernels, picked at run time by the CPU's features.
#pragma once

#include "cast_rules.hpp"

namespace ctensor::core {

// A full table whose contiguous paths use the best vector instructions this CPU
// has (AVX2 + F16C on x86-64); nullptr when the CPU or the build has none.
const CastTable* simd_cast_table() noexcept;

}  // namespace ctensor::core
