// The binary ops' loops for the plain numbers, compiled with -mavx512f -mavx512dq -mavx512bw -mavx512vl and
// called only where the CPU has them (cpu.hpp); ops/binary_kernels.hpp has
// the loops, ops/binary_simd.inc the table.
#include "ops/binary_kernels.hpp"

#define CTENSOR_BINARY_TABLE kBinaryAvx512
#include "ops/binary_simd.inc"
