// The one list of dtypes. Every table, switch and name in the library is
// generated from it (as c10's AT_FORALL_SCALAR_TYPES): adding a dtype is one
// line here, its public TENSOR_* value in ctensor.h, and its kernels.
//
// CTENSOR_FORALL_DTYPES(X) calls, for each dtype in table order,
//   X(Name, value, PUBLIC_MACRO, ElementType, Kind, is_signed, "name", DLCode, bits)
// Name          the core's constant dtype::Name
// value         its c10::ScalarType value, equal to PUBLIC_MACRO (checked in dtype.cpp)
// ElementType   the C++ type an element is stored as (dtype/cast_rules.hpp)
// Kind          DTypeKind: Bool, Int, Float or Complex (PyTorch's promotion category)
// is_signed     PyTorch's is_signed: true for signed integers and every float/complex
// "name"        PyTorch's name without "torch."
// DLCode, bits  DLPack's type code (kDL<DLCode>) and bits per element; size = bits / 8
#pragma once

#define CTENSOR_FORALL_DTYPES(X)                                                                    \
  X(UInt8,      0,  TENSOR_UINT8,      uint8_t,         Int,     false, "uint8",      UInt,    8)   \
  X(Int8,       1,  TENSOR_INT8,       int8_t,          Int,     true,  "int8",       Int,     8)   \
  X(Int16,      2,  TENSOR_INT16,      int16_t,         Int,     true,  "int16",      Int,     16)  \
  X(Int32,      3,  TENSOR_INT32,      int32_t,         Int,     true,  "int32",      Int,     32)  \
  X(Int64,      4,  TENSOR_INT64,      int64_t,         Int,     true,  "int64",      Int,     64)  \
  X(Float16,    5,  TENSOR_FLOAT16,    Half,            Float,   true,  "float16",    Float,   16)  \
  X(Float32,    6,  TENSOR_FLOAT32,    float,           Float,   true,  "float32",    Float,   32)  \
  X(Float64,    7,  TENSOR_FLOAT64,    double,          Float,   true,  "float64",    Float,   64)  \
  X(Complex64,  9,  TENSOR_COMPLEX64,  Complex<float>,  Complex, true,  "complex64",  Complex, 64)  \
  X(Complex128, 10, TENSOR_COMPLEX128, Complex<double>, Complex, true,  "complex128", Complex, 128) \
  X(Bool,       11, TENSOR_BOOL,       Bool8,           Bool,    false, "bool",       Bool,    8)   \
  X(BFloat16,   15, TENSOR_BFLOAT16,   BFloat16,        Float,   true,  "bfloat16",   Bfloat,  16)  \
  X(UInt16,     27, TENSOR_UINT16,     uint16_t,        Int,     false, "uint16",     UInt,    16)  \
  X(UInt32,     28, TENSOR_UINT32,     uint32_t,        Int,     false, "uint32",     UInt,    32)  \
  X(UInt64,     29, TENSOR_UINT64,     uint64_t,        Int,     false, "uint64",     UInt,    64)
