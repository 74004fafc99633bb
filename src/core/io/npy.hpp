// NumPy's .npy format, versions 1.0, 2.0 and 3.0.
#pragma once

#include <cstdint>

#include "io/load_options.hpp"
#include "layout/tensor.hpp"

namespace ctensor::core {

// tensor_load_npy_with: see include/ctensor.h for what is accepted and refused;
// messages start with `op`.
Ref<Tensor> load_npy(const char* op, const char* path, const LoadOptions& options);

// tensor_save_npy: C order, header as NumPy 1.24 writes it, atomically.
void save_npy(const Tensor& t, const char* path);

}  // namespace ctensor::core
