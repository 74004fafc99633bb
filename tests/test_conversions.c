/* Dtype conversions (ctensor.h's "Conversion rules") through tensor_to, tensor_copy,
   tensor_fill and tensor_convert, and PyTorch's x86 results (TENSOR_CONVERT_TORCH_X86)
   through tensor_to_with and tensor_copy_with: hand-derived expectations for the edge
   values of every rule, run over contiguous buffers of lengths around the vector
   widths and over strided views. */
#include <math.h>
#include <stdio.h>

#include "common.h"

/* One element of any dtype, compared over tensor_dtype_size bytes. */
typedef union {
  uint8_t u8;
  int8_t i8;
  int16_t i16;
  int32_t i32;
  int64_t i64;
  uint16_t u16; /* also float16 and bfloat16 bits */
  uint32_t u32;
  uint64_t u64;
  float f32;
  double f64;
  float c64[2];
  double c128[2];
  unsigned char bytes[16];
} value_t;

typedef struct {
  tensor_dtype_t from;
  value_t in;
  tensor_dtype_t to;
  value_t out;
} conv_case_t;

#define U8(x) {.u8 = (x)}
#define I8(x) {.i8 = (x)}
#define I16(x) {.i16 = (x)}
#define I32(x) {.i32 = (x)}
#define I64(x) {.i64 = (x)}
#define U16(x) {.u16 = (x)}
#define U32(x) {.u32 = (x)}
#define U64(x) {.u64 = (x)}
#define F32(x) {.f32 = (x)}
#define F64(x) {.f64 = (x)}
#define C64(re, im) {.c64 = {(re), (im)}}
#define C128(re, im) {.c128 = {(re), (im)}}
#define BITS16(x) {.u16 = (x)}
#define BITS32(x) {.u32 = (x)}
#define BITS64(x) {.u64 = (x)}

#define UINT8 TENSOR_UINT8
#define INT8 TENSOR_INT8
#define INT16 TENSOR_INT16
#define INT32 TENSOR_INT32
#define INT64 TENSOR_INT64
#define UINT16 TENSOR_UINT16
#define UINT32 TENSOR_UINT32
#define UINT64 TENSOR_UINT64
#define FLOAT16 TENSOR_FLOAT16
#define BFLOAT16 TENSOR_BFLOAT16
#define FLOAT32 TENSOR_FLOAT32
#define FLOAT64 TENSOR_FLOAT64
#define COMPLEX64 TENSOR_COMPLEX64
#define COMPLEX128 TENSOR_COMPLEX128
#define BOOL TENSOR_BOOL

static const conv_case_t kCases[] = {
    /* float -> integer: truncation toward zero, NaN -> 0, saturation */
    {FLOAT64, F64(NAN), INT8, I8(0)},
    {FLOAT64, F64(NAN), INT64, I64(0)},
    {FLOAT64, F64(-NAN), UINT64, U64(0)},
    {FLOAT64, F64(INFINITY), INT8, I8(127)},
    {FLOAT64, F64(INFINITY), UINT8, U8(255)},
    {FLOAT64, F64(INFINITY), INT16, I16(32767)},
    {FLOAT64, F64(INFINITY), UINT16, U16(65535)},
    {FLOAT64, F64(INFINITY), INT32, I32(INT32_MAX)},
    {FLOAT64, F64(INFINITY), UINT32, U32(UINT32_MAX)},
    {FLOAT64, F64(INFINITY), INT64, I64(INT64_MAX)},
    {FLOAT64, F64(INFINITY), UINT64, U64(UINT64_MAX)},
    {FLOAT64, F64(-INFINITY), INT8, I8(-128)},
    {FLOAT64, F64(-INFINITY), UINT8, U8(0)},
    {FLOAT64, F64(-INFINITY), INT64, I64(INT64_MIN)},
    {FLOAT64, F64(-INFINITY), UINT64, U64(0)},
    {FLOAT64, F64(9223372036854775808.0), INT64, I64(INT64_MAX)},
    {FLOAT64, F64(9223372036854775808.0), UINT64, U64(9223372036854775808u)},
    {FLOAT64, F64(9223372036854774784.0), INT64, I64(9223372036854774784)},
    {FLOAT64, F64(-9223372036854775808.0), INT64, I64(INT64_MIN)},
    {FLOAT64, F64(-9223372036854777856.0), INT64, I64(INT64_MIN)},
    {FLOAT64, F64(18446744073709551616.0), UINT64, U64(UINT64_MAX)},
    {FLOAT64, F64(18446744073709549568.0), UINT64, U64(18446744073709549568u)},
    {FLOAT64, F64(-1.0), UINT8, U8(0)},
    {FLOAT64, F64(-0.9), UINT8, U8(0)},
    {FLOAT64, F64(-1.0), UINT64, U64(0)},
    {FLOAT64, F64(127.9), INT8, I8(127)},
    {FLOAT64, F64(128.0), INT8, I8(127)},
    {FLOAT64, F64(-128.9), INT8, I8(-128)},
    {FLOAT64, F64(-129.0), INT8, I8(-128)},
    {FLOAT64, F64(300.7), INT8, I8(127)},
    {FLOAT64, F64(255.9), UINT8, U8(255)},
    {FLOAT64, F64(256.0), UINT8, U8(255)},
    {FLOAT64, F64(65536.0), UINT16, U16(65535)},
    {FLOAT64, F64(-32769.0), INT16, I16(-32768)},
    {FLOAT64, F64(2147483647.9), INT32, I32(INT32_MAX)},
    {FLOAT64, F64(2147483648.0), INT32, I32(INT32_MAX)},
    {FLOAT64, F64(-2147483648.9), INT32, I32(INT32_MIN)},
    {FLOAT64, F64(4294967295.5), UINT32, U32(UINT32_MAX)},
    {FLOAT64, F64(4294967296.0), UINT32, U32(UINT32_MAX)},
    {FLOAT64, F64(-3.7), INT32, I32(-3)},
    {FLOAT64, F64(-0.0), INT32, I32(0)},
    {FLOAT32, F32(9223372036854775808.0f), INT64, I64(INT64_MAX)},
    {FLOAT32, F32(18446744073709551616.0f), UINT64, U64(UINT64_MAX)},
    {FLOAT32, F32(2147483648.0f), INT32, I32(INT32_MAX)},
    {FLOAT32, F32(2147483520.0f), INT32, I32(2147483520)},
    {FLOAT32, F32(-2147483904.0f), INT32, I32(INT32_MIN)},
    {FLOAT32, F32(NAN), INT32, I32(0)},
    {FLOAT32, F32(-INFINITY), INT16, I16(-32768)},
    {FLOAT32, F32(4294967296.0f), UINT32, U32(UINT32_MAX)},
    {FLOAT32, F32(-5.5f), INT64, I64(-5)},
    {FLOAT16, BITS16(0x7c00), INT16, I16(32767)},
    {FLOAT16, BITS16(0x7bff), INT16, I16(32767)},
    {FLOAT16, BITS16(0x7bff), UINT16, U16(65504)},
    {FLOAT16, BITS16(0x7bff), INT8, I8(127)},
    {FLOAT16, BITS16(0xfbff), UINT8, U8(0)},
    {FLOAT16, BITS16(0x7e00), INT64, I64(0)},
    {FLOAT16, BITS16(0xc0c0), INT32, I32(-2)}, /* -2.375 */
    {BFLOAT16, BITS16(0x7f80), INT64, I64(INT64_MAX)},
    {BFLOAT16, BITS16(0xff80), UINT32, U32(0)},
    {BFLOAT16, BITS16(0x7fc0), INT32, I32(0)},
    {BFLOAT16, BITS16(0x3fc0), INT32, I32(1)},
    {BFLOAT16, BITS16(0x5f80), UINT64, U64(UINT64_MAX)}, /* 2^64 */
    {COMPLEX128, C128(1e300, 5.0), INT32, I32(INT32_MAX)},
    {COMPLEX64, C64(-2.5f, 7.0f), INT8, I8(-2)},
    {COMPLEX128, C128(-7.9, 1.0), INT16, I16(-7)},

    /* integer -> integer wraps */
    {INT64, I64(0x123456789), INT8, I8(-119)},
    {INT64, I64(0x123456789), UINT8, U8(0x89)},
    {INT64, I64(0x123456789), INT16, I16(0x6789)},
    {INT64, I64(0x123456789), UINT16, U16(0x6789)},
    {INT64, I64(0x123456789), INT32, I32(0x23456789)},
    {INT64, I64(0x123456789), UINT32, U32(0x23456789)},
    {INT64, I64(-1), UINT8, U8(255)},
    {INT64, I64(-1), UINT16, U16(65535)},
    {INT64, I64(-1), UINT32, U32(UINT32_MAX)},
    {INT64, I64(-1), UINT64, U64(UINT64_MAX)},
    {UINT64, U64(UINT64_MAX), INT64, I64(-1)},
    {UINT64, U64(UINT64_MAX), INT8, I8(-1)},
    {UINT64, U64(0x8000000000000000u), INT64, I64(INT64_MIN)},
    {INT32, I32(-129), INT8, I8(127)},
    {INT32, I32(256), UINT8, U8(0)},
    {INT16, I16(-32768), UINT8, U8(0)},
    {UINT16, U16(65535), INT16, I16(-1)},
    {UINT32, U32(0x80000000u), INT32, I32(INT32_MIN)},
    {UINT8, U8(200), INT8, I8(-56)},
    {INT8, I8(-56), UINT64, U64(UINT64_MAX - 55)},
    {INT8, I8(-1), INT64, I64(-1)},
    {UINT32, U32(UINT32_MAX), INT64, I64(4294967295)},

    /* -> bool is x != 0 */
    {FLOAT64, F64(NAN), BOOL, U8(1)},
    {FLOAT64, F64(-0.0), BOOL, U8(0)},
    {FLOAT64, F64(1e-300), BOOL, U8(1)},
    {FLOAT32, F32(-INFINITY), BOOL, U8(1)},
    {FLOAT16, BITS16(0x8000), BOOL, U8(0)},
    {FLOAT16, BITS16(0x0001), BOOL, U8(1)},
    {BFLOAT16, BITS16(0x0001), BOOL, U8(1)},
    {BFLOAT16, BITS16(0x8000), BOOL, U8(0)},
    {COMPLEX64, C64(0.0f, 1.0f), BOOL, U8(1)},
    {COMPLEX64, C64(0.0f, 0.0f), BOOL, U8(0)},
    {COMPLEX64, C64(-0.0f, -0.0f), BOOL, U8(0)},
    {COMPLEX128, C128(NAN, 0.0), BOOL, U8(1)},
    {COMPLEX128, C128(0.0, -1e-300), BOOL, U8(1)},
    {INT64, I64(256), BOOL, U8(1)},
    {INT8, I8(-1), BOOL, U8(1)},
    {UINT8, U8(0), BOOL, U8(0)},
    {UINT64, U64(0x8000000000000000u), BOOL, U8(1)},

    /* bool -> number is 0 or 1; any non-zero byte reads as true */
    {BOOL, U8(1), FLOAT16, BITS16(0x3c00)},
    {BOOL, U8(1), BFLOAT16, BITS16(0x3f80)},
    {BOOL, U8(1), FLOAT32, F32(1.0f)},
    {BOOL, U8(1), COMPLEX128, C128(1.0, 0.0)},
    {BOOL, U8(1), INT64, I64(1)},
    {BOOL, U8(0), FLOAT64, F64(0.0)},
    {BOOL, U8(2), UINT8, U8(1)},
    {BOOL, U8(0xff), INT32, I32(1)},
    {BOOL, U8(0x80), FLOAT64, F64(1.0)},
    {BOOL, U8(0x10), FLOAT16, BITS16(0x3c00)},

    /* -> float16: one rounding to nearest even */
    {FLOAT32, F32(0x1.002p0f), FLOAT16, BITS16(0x3c00)}, /* 1 + 2^-11: tie, even */
    {FLOAT32, F32(0x1.006p0f), FLOAT16, BITS16(0x3c02)}, /* 1 + 3*2^-11: tie, up */
    {FLOAT32, F32(65504.0f), FLOAT16, BITS16(0x7bff)},
    {FLOAT32, F32(65519.99609375f), FLOAT16, BITS16(0x7bff)},
    {FLOAT32, F32(65520.0f), FLOAT16, BITS16(0x7c00)},
    {FLOAT32, F32(-65520.0f), FLOAT16, BITS16(0xfc00)},
    {FLOAT32, F32(0x1p-24f), FLOAT16, BITS16(0x0001)},
    {FLOAT32, F32(0x1p-25f), FLOAT16, BITS16(0x0000)}, /* tie */
    {FLOAT32, BITS32(0x33000001), FLOAT16, BITS16(0x0001)}, /* just above 2^-25 */
    {FLOAT32, F32(0x1.8p-24f), FLOAT16, BITS16(0x0002)}, /* tie */
    {FLOAT32, F32(-0x1p-25f), FLOAT16, BITS16(0x8000)},
    {FLOAT32, F32(0x1p-14f), FLOAT16, BITS16(0x0400)},
    {FLOAT32, F32(0x1.ffcp-15f), FLOAT16, BITS16(0x0400)}, /* 1023.5 * 2^-24: tie */
    {FLOAT32, F32(0x1.ff8p-15f), FLOAT16, BITS16(0x03ff)}, /* 1023 * 2^-24 */
    {FLOAT32, BITS32(0x7fc00000), FLOAT16, BITS16(0x7e00)},
    {FLOAT32, BITS32(0xffc00000), FLOAT16, BITS16(0xfe00)},
    {FLOAT32, BITS32(0x7f800001), FLOAT16, BITS16(0x7e00)}, /* signalling: made quiet */
    {FLOAT32, F32(INFINITY), FLOAT16, BITS16(0x7c00)},
    {FLOAT32, F32(-0.0f), FLOAT16, BITS16(0x8000)},
    {FLOAT32, F32(3.40282346638528859812e+38f), FLOAT16, BITS16(0x7c00)},
    {FLOAT32, F32(1e-45f), FLOAT16, BITS16(0x0000)},
    {FLOAT64, F64(0x1.002p0 + 0x1p-40), FLOAT16, BITS16(0x3c01)}, /* not via float */
    {FLOAT64, F64(0x1p-25 + 0x1p-60), FLOAT16, BITS16(0x0001)},       /* not via float */
    {FLOAT64, F64(65519.999999), FLOAT16, BITS16(0x7bff)},
    {FLOAT64, F64(65520.0), FLOAT16, BITS16(0x7c00)},
    {FLOAT64, F64(1e300), FLOAT16, BITS16(0x7c00)},
    {FLOAT64, F64(NAN), FLOAT16, BITS16(0x7e00)},
    {FLOAT64, F64(-INFINITY), FLOAT16, BITS16(0xfc00)},
    {FLOAT64, F64(5e-324), FLOAT16, BITS16(0x0000)},
    {FLOAT64, F64(-5e-324), FLOAT16, BITS16(0x8000)},
    {COMPLEX128, C128(0x1.002p0 + 0x1p-40, 7.0), FLOAT16, BITS16(0x3c01)},
    {INT64, I64(2049), FLOAT16, BITS16(0x6800)},
    {INT64, I64(2051), FLOAT16, BITS16(0x6802)},
    {INT64, I64(65519), FLOAT16, BITS16(0x7bff)},
    {INT64, I64(65520), FLOAT16, BITS16(0x7c00)},
    {INT64, I64(INT64_MAX), FLOAT16, BITS16(0x7c00)},
    {INT64, I64(INT64_MIN), FLOAT16, BITS16(0xfc00)},
    {UINT64, U64(UINT64_MAX), FLOAT16, BITS16(0x7c00)},
    {INT32, I32(-2049), FLOAT16, BITS16(0xe800)},
    {UINT8, U8(255), FLOAT16, BITS16(0x5bf8)},
    {INT8, I8(-128), FLOAT16, BITS16(0xd800)},
    {BFLOAT16, BITS16(0x3f81), FLOAT16, BITS16(0x3c08)},
    {BFLOAT16, BITS16(0x4780), FLOAT16, BITS16(0x7c00)},
    {BFLOAT16, BITS16(0x477f), FLOAT16, BITS16(0x7bf8)},

    /* -> bfloat16: one rounding to nearest even */
    {FLOAT32, F32(0x1.01p0f), BFLOAT16, BITS16(0x3f80)}, /* 1 + 2^-8: tie, even */
    {FLOAT32, F32(0x1.03p0f), BFLOAT16, BITS16(0x3f82)}, /* 1 + 3*2^-8: tie, up */
    {FLOAT32, BITS32(0x3f808001), BFLOAT16, BITS16(0x3f81)},
    {FLOAT32, BITS32(0x7f7fffff), BFLOAT16, BITS16(0x7f80)},
    {FLOAT32, BITS32(0x7f7f8000), BFLOAT16, BITS16(0x7f80)},
    {FLOAT32, BITS32(0x7f7f7fff), BFLOAT16, BITS16(0x7f7f)},
    {FLOAT32, BITS32(0x00010000), BFLOAT16, BITS16(0x0001)}, /* subnormals */
    {FLOAT32, BITS32(0x00008000), BFLOAT16, BITS16(0x0000)},
    {FLOAT32, BITS32(0x00018000), BFLOAT16, BITS16(0x0002)},
    {FLOAT32, BITS32(0x80008001), BFLOAT16, BITS16(0x8001)},
    {FLOAT32, BITS32(0x7fc00000), BFLOAT16, BITS16(0x7fc0)},
    {FLOAT32, BITS32(0x7f800001), BFLOAT16, BITS16(0x7fc0)}, /* not rounded to inf */
    {FLOAT32, BITS32(0xff800001), BFLOAT16, BITS16(0xffc0)},
    {FLOAT32, BITS32(0x7fffffff), BFLOAT16, BITS16(0x7fff)}, /* not rounded to 0 */
    {FLOAT32, F32(-INFINITY), BFLOAT16, BITS16(0xff80)},
    {FLOAT64, F64(0x1.01p0 + 0x1p-40), BFLOAT16, BITS16(0x3f81)}, /* not via float */
    {FLOAT64, F64(3.4e38), BFLOAT16, BITS16(0x7f80)},
    {FLOAT64, F64(3.39e38), BFLOAT16, BITS16(0x7f7f)},
    {FLOAT64, F64(1e39), BFLOAT16, BITS16(0x7f80)},
    {FLOAT64, F64(-1e300), BFLOAT16, BITS16(0xff80)},
    {FLOAT64, F64(1e-300), BFLOAT16, BITS16(0x0000)},
    {FLOAT64, F64(0x1p-134 + 0x1p-160), BFLOAT16, BITS16(0x0001)},
    {FLOAT64, F64(NAN), BFLOAT16, BITS16(0x7fc0)},
    {INT64, I64(0x4040000000000001), BFLOAT16, BITS16(0x5e81)},  /* 2^62+2^54+1 */
    {INT64, I64(0x4040000000000000), BFLOAT16, BITS16(0x5e80)},  /* tie, even */
    {INT64, I64(-0x4040000000000001), BFLOAT16, BITS16(0xde81)},
    {UINT64, U64(UINT64_MAX), BFLOAT16, BITS16(0x5f80)},
    {INT32, I32(16842753), BFLOAT16, BITS16(0x4b81)}, /* 2^24+2^16+1 */
    {INT32, I32(INT32_MAX), BFLOAT16, BITS16(0x4f00)},
    {UINT32, U32(UINT32_MAX), BFLOAT16, BITS16(0x4f80)},
    {INT16, I16(257), BFLOAT16, BITS16(0x4380)},
    {INT16, I16(259), BFLOAT16, BITS16(0x4382)},
    {COMPLEX128, C128(0x1.01p0 + 0x1p-40, 0.0), BFLOAT16, BITS16(0x3f81)},
    {FLOAT16, BITS16(0x3c01), BFLOAT16, BITS16(0x3f80)},
    {FLOAT16, BITS16(0x3e01), BFLOAT16, BITS16(0x3fc0)},
    {FLOAT16, BITS16(0x0001), BFLOAT16, BITS16(0x3380)},
    {FLOAT16, BITS16(0x7e00), BFLOAT16, BITS16(0x7fc0)},
    {FLOAT16, BITS16(0xfc00), BFLOAT16, BITS16(0xff80)},

    /* float16/bfloat16 widen exactly */
    {FLOAT16, BITS16(0x0001), FLOAT32, BITS32(0x33800000)},
    {FLOAT16, BITS16(0x03ff), FLOAT64, F64(1023.0 * 0x1p-24)},
    {FLOAT16, BITS16(0x7bff), FLOAT32, F32(65504.0f)},
    {FLOAT16, BITS16(0x7c00), FLOAT64, F64(INFINITY)},
    {FLOAT16, BITS16(0x8000), FLOAT32, BITS32(0x80000000)},
    {FLOAT16, BITS16(0x7e00), FLOAT32, BITS32(0x7fc00000)},
    {FLOAT16, BITS16(0xc0c0), COMPLEX128, C128(-2.375, 0.0)},
    {BFLOAT16, BITS16(0x0001), FLOAT32, BITS32(0x00010000)},
    {BFLOAT16, BITS16(0x7f7f), FLOAT64, F64(3.3895313892515355e38)},
    {BFLOAT16, BITS16(0xff80), FLOAT32, F32(-INFINITY)},
    {BFLOAT16, BITS16(0x8000), FLOAT64, BITS64(0x8000000000000000u)},

    /* integer -> float: the hardware's single rounding */
    {INT64, I64(9007199254740993), FLOAT64, F64(9007199254740992.0)},
    {UINT64, U64(UINT64_MAX), FLOAT32, F32(18446744073709551616.0f)},
    {UINT64, U64(UINT64_MAX), FLOAT64, F64(18446744073709551616.0)},
    {INT32, I32(16777217), FLOAT32, F32(16777216.0f)},
    {UINT64, U64(0x8000008000000001u), FLOAT32, F32(9223373136366403584.0f)},
    {INT64, I64(0x4040000000000001), COMPLEX64, C64(4629700416936869888.0f, 0.0f)},
    {INT32, I32(INT32_MIN), FLOAT64, F64(-2147483648.0)},

    /* float <-> float and complex */
    {FLOAT64, F64(1e39), FLOAT32, F32(INFINITY)},
    {FLOAT64, F64(1.0 + 0x1p-24), FLOAT32, F32(1.0f)},
    {FLOAT64, F64(1.0 + 0x1p-24 + 0x1p-50), FLOAT32, F32(0x1.000002p0f)},
    {FLOAT64, F64(1e-46), FLOAT32, F32(0.0f)},
    {FLOAT32, BITS32(0x00000001), FLOAT64, F64(0x1p-149)},
    {FLOAT64, F64(2.5), COMPLEX64, C64(2.5f, 0.0f)},
    {FLOAT64, F64(-0.0), COMPLEX128, C128(-0.0, 0.0)},
    {COMPLEX128, C128(1.0 + 0x1p-30, -3.0), COMPLEX64, C64(1.0f, -3.0f)},
    {COMPLEX64, C64(1.5f, 2.5f), FLOAT64, F64(1.5)},
    {COMPLEX64, C64(1.5f, NAN), COMPLEX128, C128(1.5, NAN)},
    {COMPLEX128, C128(65520.0, 1.0), COMPLEX64, C64(65520.0f, 1.0f)},
};

enum { kNumCases = sizeof kCases / sizeof kCases[0] };

/* TENSOR_CONVERT_TORCH_X86 */
static const conv_case_t kTorchX86Cases[] = {
    /* float -> int8/int16/int32 through a 32-bit truncation (INT32_MIN for NaN
       and out of range), keeping the low bits */
    {FLOAT64, F64(NAN), INT32, I32(INT32_MIN)},
    {FLOAT64, F64(-NAN), INT8, I8(0)},
    {FLOAT64, F64(INFINITY), INT32, I32(INT32_MIN)},
    {FLOAT64, F64(-INFINITY), INT16, I16(0)},
    {FLOAT64, F64(1e10), INT16, I16(0)},
    {FLOAT64, F64(1e10), INT32, I32(INT32_MIN)},
    {FLOAT64, F64(2147483648.0), INT32, I32(INT32_MIN)},
    {FLOAT64, F64(2147483647.9), INT32, I32(INT32_MAX)},
    {FLOAT64, F64(-2147483648.9), INT32, I32(INT32_MIN)},
    {FLOAT64, F64(-2147483649.0), INT32, I32(INT32_MIN)},
    {FLOAT64, F64(300.7), INT8, I8(44)},
    {FLOAT64, F64(128.0), INT8, I8(-128)},
    {FLOAT64, F64(-129.0), INT8, I8(127)},
    {FLOAT64, F64(40000.5), INT16, I16(-25536)},
    {FLOAT64, F64(-3.7), INT32, I32(-3)},
    {FLOAT32, F32(3e9f), INT32, I32(INT32_MIN)},
    {FLOAT32, F32(2147483520.0f), INT32, I32(2147483520)},
    {FLOAT32, F32(-2147483648.0f), INT32, I32(INT32_MIN)},
    {FLOAT32, F32(NAN), INT16, I16(0)},
    {FLOAT16, BITS16(0x7c00), INT16, I16(0)},   /* inf */
    {FLOAT16, BITS16(0x7bff), INT16, I16(-32)}, /* 65504 = 0xffe0 */
    {FLOAT16, BITS16(0x7bff), INT8, I8(-32)},
    {BFLOAT16, BITS16(0x7fc0), INT32, I32(INT32_MIN)},
    {BFLOAT16, BITS16(0x4f80), INT32, I32(INT32_MIN)}, /* 2^32 */
    {COMPLEX128, C128(1e300, 5.0), INT32, I32(INT32_MIN)},
    {COMPLEX64, C64(300.5f, 1.0f), INT8, I8(44)},
    /* float -> uint8/int64 through a 64-bit truncation (INT64_MIN) */
    {FLOAT64, F64(-3.7), UINT8, U8(253)},
    {FLOAT64, F64(300.0), UINT8, U8(44)},
    {FLOAT64, F64(256.0), UINT8, U8(0)},
    {FLOAT64, F64(-1.0), UINT8, U8(255)},
    {FLOAT64, F64(NAN), UINT8, U8(0)},
    {FLOAT64, F64(4294967551.0), UINT8, U8(255)}, /* 2^32 + 255 */
    {FLOAT64, F64(9223372036854775808.0), INT64, I64(INT64_MIN)},
    {FLOAT64, F64(9223372036854774784.0), INT64, I64(9223372036854774784)},
    {FLOAT64, F64(-9223372036854777856.0), INT64, I64(INT64_MIN)},
    {FLOAT64, F64(INFINITY), INT64, I64(INT64_MIN)},
    {FLOAT64, F64(NAN), INT64, I64(INT64_MIN)},
    {FLOAT32, F32(1e19f), INT64, I64(INT64_MIN)},
    {FLOAT32, F32(-200.5f), UINT8, U8(56)},
    {FLOAT16, BITS16(0xfbff), UINT8, U8(32)}, /* -65504 */
    {FLOAT16, BITS16(0x7c00), UINT8, U8(0)},
    {COMPLEX128, C128(-3.7, 9.0), UINT8, U8(253)},
    /* uint16/uint32/uint64 (no PyTorch 1.13 dtypes) keep the library's rule */
    {FLOAT64, F64(-1.0), UINT16, U16(0)},
    {FLOAT64, F64(1e10), UINT32, U32(UINT32_MAX)},
    {FLOAT64, F64(NAN), UINT64, U64(0)},
    /* float64, complex128, int32, int64 -> float16/bfloat16 round through float32 */
    {FLOAT64, F64(0x1.002p0 + 0x1p-40), FLOAT16, BITS16(0x3c00)},
    {FLOAT64, F64(0x1p-25 + 0x1p-60), FLOAT16, BITS16(0x0000)},
    {FLOAT64, F64(65519.999999), FLOAT16, BITS16(0x7c00)},
    {FLOAT64, F64(1.5), FLOAT16, BITS16(0x3e00)},
    {FLOAT64, F64(NAN), FLOAT16, BITS16(0x7e00)},
    {FLOAT64, F64(0x1.01p0 + 0x1p-40), BFLOAT16, BITS16(0x3f80)},
    {FLOAT64, F64(-1e300), BFLOAT16, BITS16(0xff80)},
    {COMPLEX128, C128(0x1.002p0 + 0x1p-40, 7.0), FLOAT16, BITS16(0x3c00)},
    {COMPLEX128, C128(0x1.01p0 + 0x1p-40, 0.0), BFLOAT16, BITS16(0x3f80)},
    {INT32, I32(16842753), BFLOAT16, BITS16(0x4b80)}, /* 2^24+2^16+1 */
    {INT64, I64(0x4040000000000001), BFLOAT16, BITS16(0x5e80)},
    {INT64, I64(2051), FLOAT16, BITS16(0x6802)},
    {UINT64, U64(UINT64_MAX), BFLOAT16, BITS16(0x5f80)},
    {UINT32, U32(16842753), BFLOAT16, BITS16(0x4b81)}, /* not a 1.13 dtype: once */
    {FLOAT32, F32(0x1.01p0f), BFLOAT16, BITS16(0x3f80)},
    /* complex -> bool: the real part alone */
    {COMPLEX64, C64(0.0f, 1.0f), BOOL, U8(0)},
    {COMPLEX64, C64(-0.0f, 0.0f), BOOL, U8(0)},
    {COMPLEX64, C64(2.0f, 0.0f), BOOL, U8(1)},
    {COMPLEX128, C128(0.0, -1e-300), BOOL, U8(0)},
    {COMPLEX128, C128(NAN, 0.0), BOOL, U8(1)},
    /* everything else as the library's rules */
    {FLOAT64, F64(NAN), BOOL, U8(1)},
    {FLOAT64, F64(1e39), FLOAT32, F32(INFINITY)},
    {INT64, I64(0x123456789), INT8, I8(-119)},
    {BOOL, U8(0xff), INT32, I32(1)},
    {COMPLEX128, C128(1.0 + 0x1p-30, -3.0), COMPLEX64, C64(1.0f, -3.0f)},
};

enum { kNumTorchX86Cases = sizeof kTorchX86Cases / sizeof kTorchX86Cases[0] };

static size_t size_of(tensor_dtype_t d) { return tensor_dtype_size(d); }

/* Writes `size` little-endian bytes as hex, most significant first. */
static const char *hex(const unsigned char *bytes, size_t size, char *buf) {
  for (size_t b = 0; b < size; ++b) sprintf(buf + 2 * b, "%02x", bytes[size - 1 - b]);
  return buf;
}

/* Asserts `n` converted elements at `data` (`stride` elements apart) equal the
   expected outputs of cases[k % m]. */
static void expect_elements(const conv_case_t *const *cases, int64_t m, const void *data,
                            int64_t n, int64_t stride, const char *how) {
  const size_t size = size_of(cases[0]->to);
  for (int64_t k = 0; k < n; ++k) {
    const conv_case_t *c = cases[k % m];
    const unsigned char *got = (const unsigned char *)data + k * stride * (int64_t)size;
    char in[40], out[40], want[40];
    ck_assert_msg(memcmp(got, c->out.bytes, size) == 0,
                  "%s %s -> %s, element %lld of %lld: 0x%s gave 0x%s, expected 0x%s", how,
                  tensor_dtype_name(c->from), tensor_dtype_name(c->to), (long long)k,
                  (long long)n, hex(c->in.bytes, size_of(c->from), in), hex(got, size, out),
                  hex(c->out.bytes, size, want));
  }
}

/* A table of cases and the policy they hold under. */
typedef struct {
  const conv_case_t *cases;
  int n;
  uint32_t conversion;
} case_table_t;

static const case_table_t kLibrary = {kCases, kNumCases, TENSOR_CONVERT_LIBRARY};
static const case_table_t kTorchX86 = {kTorchX86Cases, kNumTorchX86Cases, TENSOR_CONVERT_TORCH_X86};

/* The cases of `table` converting from -> to, in table order; returns how many. */
static int64_t cases_for(const case_table_t *table, tensor_dtype_t from, tensor_dtype_t to, const conv_case_t **out) {
  int64_t m = 0;
  for (int i = 0; i < table->n; ++i)
    if (table->cases[i].from == from && table->cases[i].to == to) out[m++] = &table->cases[i];
  return m;
}

/* tensor_to(TENSOR_COPY_ALWAYS) under the library's rules, tensor_to_with under another policy. */
static tensor_status_t to_dtype(tensor_t **out, tensor_t *t, tensor_dtype_t dtype, uint32_t conversion) {
  if (conversion == TENSOR_CONVERT_LIBRARY) return tensor_to(out, t, dtype, TENSOR_COPY_ALWAYS);
  return tensor_to_with(out, t, dtype, TENSOR_COPY_ALWAYS, TENSOR_CONTIGUOUS_FORMAT, conversion);
}

/* tensor_copy under the library's rules, tensor_copy_with under another policy. */
static tensor_status_t copy_to(tensor_t *dst, const tensor_t *src, uint32_t conversion) {
  if (conversion == TENSOR_CONVERT_LIBRARY) return tensor_copy(dst, src);
  return tensor_copy_with(dst, src, conversion);
}

/* A buffer of n source elements cycling through the cases' inputs, every `stride`
   elements (the gaps zeroed). */
static void *source_buffer(const conv_case_t *const *cases, int64_t m, int64_t n, int64_t stride) {
  const size_t size = size_of(cases[0]->from);
  unsigned char *buf = calloc((size_t)(n * stride + 1), size);
  ck_assert_ptr_nonnull(buf);
  for (int64_t k = 0; k < n; ++k) memcpy(buf + k * stride * (int64_t)size, cases[k % m]->in.bytes, size);
  return buf;
}

static const int64_t kLengths[] = {1, 7, 8, 9, 15, 16, 17, 31, 33, 1003};

/* Contiguous tensor_to: the vector kernels and their scalar tails. */
static void check_contiguous(const conv_case_t *const *cases, int64_t m, uint32_t conversion) {
  for (size_t l = 0; l < sizeof kLengths / sizeof kLengths[0]; ++l) {
    const int64_t n = kLengths[l];
    void *buf = source_buffer(cases, m, n, 1);
    tensor_t *src = NULL, *dst = NULL;
    ck_ok(tensor_from_data(&src, buf, 1, &n, cases[0]->from));
    ck_ok(to_dtype(&dst, src, cases[0]->to, conversion));
    ck_assert_int_eq(tensor_dtype(dst), cases[0]->to);
    expect_elements(cases, m, tensor_data(dst), n, 1, "contiguous");
    tensor_release(dst);
    tensor_release(src);
    free(buf);
  }
}

/* tensor_to of a reversed view reading every second element (stride -2). */
static void check_strided_source(const conv_case_t *const *cases, int64_t m, uint32_t conversion) {
  const int64_t n = 17, len = 2 * n;
  const size_t size = size_of(cases[0]->from);
  unsigned char *buf = calloc((size_t)len, size);
  ck_assert_ptr_nonnull(buf);
  /* The view [::-2] visits positions len-1, len-3, ...: element k at len-1-2k. */
  for (int64_t k = 0; k < n; ++k) memcpy(buf + (len - 1 - 2 * k) * (int64_t)size, cases[k % m]->in.bytes, size);
  tensor_t *base = NULL, *view = NULL, *dst = NULL;
  ck_ok(tensor_from_data(&base, buf, 1, &len, cases[0]->from));
  ck_ok(tensor_slice(&view, base, 0, TENSOR_SLICE_END, INT64_MIN, -2));
  ck_assert_int_eq(tensor_strides(view)[0], -2);
  ck_ok(to_dtype(&dst, view, cases[0]->to, conversion));
  expect_elements(cases, m, tensor_data(dst), n, 1, "strided source");
  tensor_release(dst);
  tensor_release(view);
  tensor_release(base);
  free(buf);
}

/* tensor_copy into every third element of a zeroed destination; the gaps stay 0. */
static void check_strided_destination(const conv_case_t *const *cases, int64_t m, uint32_t conversion) {
  const int64_t n = 9, len = 3 * n, stride = 3;
  void *buf = source_buffer(cases, m, n, 1);
  tensor_t *src = NULL, *base = NULL, *dst = NULL;
  ck_ok(tensor_from_data(&src, buf, 1, &n, cases[0]->from));
  ck_ok(tensor_zeros(&base, 1, &len, cases[0]->to));
  ck_ok(tensor_as_strided(&dst, base, 1, &n, &stride, 1));
  ck_ok(copy_to(dst, src, conversion));
  const unsigned char *bytes = tensor_data(base);
  const size_t size = size_of(cases[0]->to);
  expect_elements(cases, m, bytes + size, n, 3, "strided destination");
  for (int64_t k = 0; k < len; ++k)
    if (k % 3 != 1)
      for (size_t b = 0; b < size; ++b) ck_assert_int_eq(bytes[k * (int64_t)size + (int64_t)b], 0);
  tensor_release(dst);
  tensor_release(base);
  tensor_release(src);
  free(buf);
}

typedef void (*check_fn)(const conv_case_t *const *, int64_t, uint32_t);

/* Runs every distinct (from, to) pair of a table once, all its cases together so
   that neighbouring vector lanes hold different values. */
static void for_each_pair(const case_table_t *table, check_fn check) {
  const conv_case_t *group[kNumCases + kNumTorchX86Cases];
  const conv_case_t *c = table->cases;
  for (int i = 0; i < table->n; ++i) {
    int first = 1;
    for (int j = 0; j < i && first; ++j) first = !(c[j].from == c[i].from && c[j].to == c[i].to);
    if (!first) continue;
    const int64_t m = cases_for(table, c[i].from, c[i].to, group);
    check(group, m, table->conversion);
  }
}

START_TEST(test_edge_values_contiguous) { for_each_pair(&kLibrary, check_contiguous); }
END_TEST

START_TEST(test_edge_values_strided_source) { for_each_pair(&kLibrary, check_strided_source); }
END_TEST

/* TENSOR_CONVERT_TORCH_X86 through tensor_to_with and tensor_copy_with, as above. */
START_TEST(test_torch_x86_edge_values) {
  for_each_pair(&kTorchX86, check_contiguous);
  for_each_pair(&kTorchX86, check_strided_source);
  for_each_pair(&kTorchX86, check_strided_destination);
}
END_TEST

/* tensor_convert between raw buffers gives what tensor_to gives; the destination
   starts one byte into its buffer, so that nothing is aligned. */
static void check_convert(const conv_case_t *const *cases, int64_t m, uint32_t conversion) {
  ck_assert_uint_eq(conversion, TENSOR_CONVERT_LIBRARY);
  for (size_t l = 0; l < sizeof kLengths / sizeof kLengths[0]; ++l) {
    const int64_t n = kLengths[l];
    void *buf = source_buffer(cases, m, n, 1);
    unsigned char *out = calloc((size_t)n + 1, size_of(cases[0]->to));
    ck_assert_ptr_nonnull(out);
    ck_ok(tensor_convert(out + 1, cases[0]->to, buf, cases[0]->from, n));
    expect_elements(cases, m, out + 1, n, 1, "tensor_convert");
    free(out);
    free(buf);
  }
}

START_TEST(test_edge_values_convert) { for_each_pair(&kLibrary, check_convert); }
END_TEST

START_TEST(test_convert_rejections) {
  double d[4] = {1, 2, 3, 4};
  float f[4] = {0};
  ck_status(tensor_convert(f, 8, d, TENSOR_FLOAT64, 4), TENSOR_E_INVALID);
  ck_status(tensor_convert(f, TENSOR_FLOAT32, d, -1, 4), TENSOR_E_INVALID);
  ck_status(tensor_convert(f, TENSOR_FLOAT32, d, TENSOR_FLOAT64, -1), TENSOR_E_INVALID);
  ck_status(tensor_convert(NULL, TENSOR_FLOAT32, d, TENSOR_FLOAT64, 1), TENSOR_E_INVALID);
  ck_status(tensor_convert(f, TENSOR_FLOAT32, NULL, TENSOR_FLOAT64, 1), TENSOR_E_INVALID);
  ck_status(tensor_convert(f, TENSOR_FLOAT32, d, TENSOR_FLOAT64, INT64_MAX / 4), TENSOR_E_OVERFLOW);
  /* float64 -> float32 in place, and one element into the next: both overlap */
  ck_status(tensor_convert(d, TENSOR_FLOAT32, d, TENSOR_FLOAT64, 4), TENSOR_E_OVERLAP);
  ck_status(tensor_convert((char *)d + 4, TENSOR_FLOAT32, d, TENSOR_FLOAT64, 1), TENSOR_E_OVERLAP);
  ck_assert(f[0] == 0 && d[0] == 1);
  ck_ok(tensor_convert(NULL, TENSOR_FLOAT32, NULL, TENSOR_FLOAT64, 0));
  ck_ok(tensor_convert((char *)d + 8, TENSOR_FLOAT64, d, TENSOR_FLOAT64, 1)); /* adjacent, not overlapping */
  ck_assert(d[1] == 1);
}
END_TEST

START_TEST(test_edge_values_strided_destination) { for_each_pair(&kLibrary, check_strided_destination); }
END_TEST

/* Outputs of 8 MiB and more are written by streaming kernels (whole 64-byte lines,
   scalar heads and tails): the edge values at every lane position, into a fresh
   result and into a destination that starts 1 element past a line boundary,
   against the expected bits. Compared with memcmp first (valgrind runs this). */
static void expect_fast(const conv_case_t *const *cases, int64_t m, const unsigned char *got,
                        int64_t n, const char *how) {
  const size_t size = size_of(cases[0]->to);
  for (int64_t k = 0; k < n; ++k)
    if (memcmp(got + k * (int64_t)size, cases[k % m]->out.bytes, size) != 0)
      expect_elements(cases, m, got + k * (int64_t)size, 1, 1, how);
}

static void check_streamed(const conv_case_t *const *cases, int64_t m, uint32_t conversion) {
  const size_t out = size_of(cases[0]->to);
  const int64_t n = (int64_t)(((size_t)8 << 20) / out) + 45; /* not a multiple of any block */
  void *buf = source_buffer(cases, m, n, 1);
  tensor_t *src = NULL, *fresh = NULL, *base = NULL, *dst = NULL;
  const int32_t threads = tensor_get_num_threads();
  ck_ok(tensor_set_num_threads(1));
  ck_ok(tensor_from_data(&src, buf, 1, &n, cases[0]->from));
  ck_ok(to_dtype(&fresh, src, cases[0]->to, conversion));
  expect_fast(cases, m, tensor_data(fresh), n, "streamed");
  const int64_t len = n + 2, one = 1;
  ck_ok(tensor_zeros(&base, 1, &len, cases[0]->to));
  ck_ok(tensor_as_strided(&dst, base, 1, &n, &one, 1));
  ck_ok(copy_to(dst, src, conversion));
  const unsigned char *bytes = tensor_data(base);
  expect_fast(cases, m, bytes + out, n, "streamed, offset 1");
  for (size_t b = 0; b < out; ++b) {
    ck_assert_int_eq(bytes[b], 0);
    ck_assert_int_eq(bytes[(size_t)(n + 1) * out + b], 0);
  }
  /* two threads: each streams its own chunk, with its own head and tail */
  memset(tensor_data(base), 0, (size_t)len * out);
  ck_ok(tensor_set_num_threads(2));
  ck_ok(copy_to(dst, src, conversion));
  ck_ok(tensor_set_num_threads(threads));
  expect_fast(cases, m, bytes + out, n, "streamed, offset 1, two threads");
  for (size_t b = 0; b < out; ++b) {
    ck_assert_int_eq(bytes[b], 0);
    ck_assert_int_eq(bytes[(size_t)(n + 1) * out + b], 0);
  }
  tensor_release(dst);
  tensor_release(base);
  tensor_release(fresh);
  tensor_release(src);
  free(buf);
}

/* The pairs with streaming kernels: float32 <-> float16/bfloat16, int32 -> float64. */
START_TEST(test_edge_values_streamed) {
  const tensor_dtype_t pairs[][2] = {{FLOAT32, FLOAT16}, {FLOAT32, BFLOAT16}, {FLOAT16, FLOAT32},
                                     {BFLOAT16, FLOAT32}, {INT32, FLOAT64}};
  const conv_case_t *group[kNumCases];
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
    const int64_t m = cases_for(&kLibrary, pairs[p][0], pairs[p][1], group);
    ck_assert_msg(m > 0, "no cases for %s -> %s", tensor_dtype_name(pairs[p][0]),
                  tensor_dtype_name(pairs[p][1]));
    check_streamed(group, m, TENSOR_CONVERT_LIBRARY);
  }
}
END_TEST

/* PyTorch's conversions over 8 MiB outputs, split between two threads, as the
   library's above (these pairs have no streaming kernel: a vector loop, and F16C
   staging from and to float16). */
START_TEST(test_torch_x86_large_outputs) {
  const tensor_dtype_t pairs[][2] = {{FLOAT64, INT32}, {FLOAT16, INT16}, {FLOAT64, FLOAT16}};
  const conv_case_t *group[kNumTorchX86Cases];
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
    const int64_t m = cases_for(&kTorchX86, pairs[p][0], pairs[p][1], group);
    ck_assert_msg(m > 0, "no cases for %s -> %s", tensor_dtype_name(pairs[p][0]),
                  tensor_dtype_name(pairs[p][1]));
    check_streamed(group, m, TENSOR_CONVERT_TORCH_X86);
  }
}
END_TEST

/* Bad policies are refused; the checks of tensor_copy and tensor_to stay. */
START_TEST(test_conversion_policy_rejections) {
  const int64_t n = 3;
  const double values[3] = {-3.7, NAN, 300.0};
  tensor_t *src = NULL, *dst = NULL, *out = NULL, *ro = NULL;
  ck_ok(tensor_from_data(&src, values, 1, &n, FLOAT64));
  ck_ok(tensor_zeros(&dst, 1, &n, UINT8));
  ck_status(tensor_copy_with(dst, src, 2), TENSOR_E_INVALID);
  ck_status(tensor_copy_with(dst, src, 0x80000000u), TENSOR_E_INVALID);
  ck_status(tensor_copy_with(NULL, src, TENSOR_CONVERT_TORCH_X86), TENSOR_E_INVALID);
  ck_status(tensor_to_with(&out, src, UINT8, TENSOR_COPY_ALWAYS, TENSOR_PRESERVE_FORMAT, 2), TENSOR_E_INVALID);
  ck_assert_ptr_null(out);
  ck_status(tensor_to_with(&out, src, UINT8, TENSOR_COPY_ALWAYS, 2, TENSOR_CONVERT_TORCH_X86), TENSOR_E_INVALID);
  ck_status(tensor_to_with(&out, src, UINT8, 3, TENSOR_PRESERVE_FORMAT, TENSOR_CONVERT_TORCH_X86), TENSOR_E_INVALID);
  ck_status(tensor_to_with(&out, src, 8, TENSOR_COPY_ALWAYS, TENSOR_PRESERVE_FORMAT, TENSOR_CONVERT_TORCH_X86),
            TENSOR_E_INVALID);
  ck_status(tensor_to_with(&out, src, UINT8, TENSOR_COPY_NEVER, TENSOR_PRESERVE_FORMAT, TENSOR_CONVERT_TORCH_X86),
            TENSOR_E_COPY);
  ck_assert_ptr_null(out);
  const uint8_t *d = tensor_data(dst);
  ck_assert(d[0] == 0 && d[1] == 0 && d[2] == 0);
  /* a read-only destination is refused before anything is converted */
  uint8_t frozen[3] = {7, 7, 7};
  ck_ok(tensor_from_blob(&ro, frozen, UINT8, 1, &n, NULL, TENSOR_READONLY, NULL, NULL));
  ck_status(tensor_copy_with(ro, src, TENSOR_CONVERT_TORCH_X86), TENSOR_E_READONLY);
  ck_assert(frozen[0] == 7 && frozen[1] == 7 && frozen[2] == 7);
  /* both policies on the same values */
  ck_ok(tensor_copy_with(dst, src, TENSOR_CONVERT_LIBRARY));
  ck_assert(d[0] == 0 && d[1] == 0 && d[2] == 255);
  ck_ok(tensor_copy_with(dst, src, TENSOR_CONVERT_TORCH_X86));
  ck_assert(d[0] == 253 && d[1] == 0 && d[2] == 44);
  tensor_release(ro);
  tensor_release(dst);
  tensor_release(src);
}
END_TEST

/* A source sharing the destination's memory is copied through a snapshot, which
   keeps the policy: float32 elements rewritten in place as int32. */
START_TEST(test_torch_x86_through_overlap) {
  const int64_t n = 4;
  const float values[4] = {NAN, -2.5f, 3e9f, 7.9f};
  tensor_t *floats = NULL, *ints = NULL;
  ck_ok(tensor_from_data(&floats, values, 1, &n, FLOAT32));
  ck_ok(tensor_from_storage(&ints, tensor_storage(floats), INT32, 1, &n, NULL, 0));
  ck_ok(tensor_copy_with(ints, floats, TENSOR_CONVERT_TORCH_X86));
  const int32_t *got = tensor_data(ints);
  ck_assert_int_eq(got[0], INT32_MIN);
  ck_assert_int_eq(got[1], -2);
  ck_assert_int_eq(got[2], INT32_MIN);
  ck_assert_int_eq(got[3], 7);
  tensor_release(ints);
  tensor_release(floats);
}
END_TEST

/* tensor_fill converts like a copy from a float64 scalar. */
START_TEST(test_fill_converts_from_float64) {
  const int64_t n = 17;
  for (int i = 0; i < kNumCases; ++i) {
    const conv_case_t *c = &kCases[i];
    if (c->from != FLOAT64) continue;
    tensor_t *t = NULL;
    ck_ok(tensor_empty(&t, 1, &n, c->to));
    ck_ok(tensor_fill(t, c->in.f64));
    expect_elements(&c, 1, tensor_data(t), n, 1, "fill");
    tensor_release(t);
  }
}
END_TEST

/* tensor_scalar_convert_*: PyTorch's checked ranges, then a copy's conversion. */
START_TEST(test_scalar_convert_checks_ranges) {
  unsigned char buf[17];
  uint8_t u8;
  ck_ok(tensor_scalar_convert_int64(&u8, UINT8, 255));
  ck_assert_uint_eq(u8, 255);
  ck_ok(tensor_scalar_convert_int64(&u8, UINT8, -1)); /* wraps, as in PyTorch */
  ck_assert_uint_eq(u8, 255);
  u8 = 7;
  ck_status(tensor_scalar_convert_int64(&u8, UINT8, 256), TENSOR_E_OVERFLOW);
  ck_assert_str_eq(tensor_last_error(), "scalar_convert: value cannot be converted to type uint8_t without overflow");
  ck_assert_uint_eq(u8, 7); /* unchanged */
  ck_status(tensor_scalar_convert_int64(&u8, UINT8, -256), TENSOR_E_OVERFLOW);
  int8_t i8;
  ck_ok(tensor_scalar_convert_int64(&i8, INT8, -128));
  ck_assert_int_eq(i8, -128);
  ck_status(tensor_scalar_convert_int64(&i8, INT8, 128), TENSOR_E_OVERFLOW);
  int64_t i64;
  ck_ok(tensor_scalar_convert_int64(&i64, INT64, INT64_MIN));
  ck_assert(i64 == INT64_MIN);
  ck_ok(tensor_scalar_convert_float64(&i64, INT64, -2.75));
  ck_assert_int_eq(i64, -2);
  int32_t i32;
  ck_status(tensor_scalar_convert_float64(&i32, INT32, 3e9), TENSOR_E_OVERFLOW);
  ck_assert_str_eq(tensor_last_error(), "scalar_convert: value cannot be converted to type int without overflow");
  ck_status(tensor_scalar_convert_float64(&i32, INT32, NAN), TENSOR_E_OVERFLOW);
  ck_status(tensor_scalar_convert_float64(&u8, UINT8, -0.5), TENSOR_E_OVERFLOW);
  uint64_t u64;
  ck_ok(tensor_scalar_convert_float64(&u64, UINT64, 1e19)); /* beyond int64, exact */
  ck_assert(u64 == 10000000000000000000ull);
  uint16_t h;
  ck_ok(tensor_scalar_convert_int64(&h, FLOAT16, 65504));
  ck_assert_uint_eq(h, 0x7bff);
  ck_status(tensor_scalar_convert_int64(&h, FLOAT16, 65505), TENSOR_E_OVERFLOW);
  ck_assert_str_eq(tensor_last_error(), "scalar_convert: value cannot be converted to type at::Half without overflow");
  ck_status(tensor_scalar_convert_float64(&h, BFLOAT16, 1e39), TENSOR_E_OVERFLOW);
  ck_ok(tensor_scalar_convert_float64(&h, FLOAT16, INFINITY));
  ck_assert_uint_eq(h, 0x7c00);
  float f;
  ck_status(tensor_scalar_convert_complex128(&f, FLOAT32, 1.0, 2.0), TENSOR_E_OVERFLOW);
  ck_assert_str_eq(tensor_last_error(), "scalar_convert: value cannot be converted to type float without overflow");
  ck_ok(tensor_scalar_convert_complex128(&f, FLOAT32, 3.0, 0.0));
  ck_assert(f == 3.0f);
  float c[2];
  ck_ok(tensor_scalar_convert_complex128(c, COMPLEX64, 1.5, -2.0));
  ck_assert(c[0] == 1.5f && c[1] == -2.0f);
  ck_status(tensor_scalar_convert_complex128(c, COMPLEX64, 1.0, 1e39), TENSOR_E_OVERFLOW);
  uint8_t b;
  ck_ok(tensor_scalar_convert_complex128(&b, BOOL, 0.0, 2.0)); /* bool reads the real part */
  ck_assert_uint_eq(b, 0);
  ck_ok(tensor_scalar_convert_float64(&b, BOOL, 1e300));
  ck_assert_uint_eq(b, 1);
  ck_ok(tensor_scalar_convert_int64(buf + 1, COMPLEX128, -3)); /* any alignment */
  double d[2];
  memcpy(d, buf + 1, sizeof d);
  ck_assert(d[0] == -3.0 && d[1] == 0.0);
  ck_status(tensor_scalar_convert_int64(NULL, INT8, 1), TENSOR_E_INVALID);
  ck_status(tensor_scalar_convert_int64(buf, 8, 1), TENSOR_E_INVALID);
  ck_status(tensor_scalar_convert_float64(buf, -1, 1.0), TENSOR_E_INVALID);
  ck_status(tensor_scalar_convert_complex128(NULL, COMPLEX64, 1.0, 0.0), TENSOR_E_INVALID);
}
END_TEST

static const tensor_dtype_t kAllDTypes[] = {UINT8, INT8, INT16, INT32, INT64, FLOAT16, FLOAT32,
                                            FLOAT64, COMPLEX64, COMPLEX128, BOOL, BFLOAT16,
                                            UINT16, UINT32, UINT64};
enum { kNumDTypes = sizeof kAllDTypes / sizeof kAllDTypes[0] };

/* The small integer v (0 <= v <= 100) stored as dtype d; for bool, v != 0. */
static value_t small_value(tensor_dtype_t d, int v) {
  value_t x;
  memset(&x, 0, sizeof x);
  switch (d) {
    case UINT8: x.u8 = (uint8_t)v; break;
    case INT8: x.i8 = (int8_t)v; break;
    case INT16: x.i16 = (int16_t)v; break;
    case INT32: x.i32 = v; break;
    case INT64: x.i64 = v; break;
    case UINT16: x.u16 = (uint16_t)v; break;
    case UINT32: x.u32 = (uint32_t)v; break;
    case UINT64: x.u64 = (uint64_t)v; break;
    case FLOAT32: x.f32 = (float)v; break;
    case FLOAT64: x.f64 = v; break;
    case COMPLEX64: x.c64[0] = (float)v; break;
    case COMPLEX128: x.c128[0] = v; break;
    case BOOL: x.u8 = v != 0; break;
    case FLOAT16: x.u16 = v == 0 ? 0 : v == 1 ? 0x3c00 : 0x5640; break;  /* 100 = 0x5640 */
    case BFLOAT16: x.u16 = v == 0 ? 0 : v == 1 ? 0x3f80 : 0x42c8; break; /* 100 = 0x42c8 */
    default: ck_abort_msg("unknown dtype %d", d);
  }
  return x;
}

/* All 225 pairs on values every dtype holds exactly, contiguous and strided. */
START_TEST(test_every_pair_small_values) {
  static const int kValues[] = {0, 1, 100, 1, 0, 100, 100, 1, 0};
  const int64_t n = sizeof kValues / sizeof kValues[0];
  for (int i = 0; i < kNumDTypes; ++i) {
    for (int j = 0; j < kNumDTypes; ++j) {
      const tensor_dtype_t from = kAllDTypes[i], to = kAllDTypes[j];
      conv_case_t cases[sizeof kValues / sizeof kValues[0]];
      const conv_case_t *ptrs[sizeof kValues / sizeof kValues[0]];
      for (int64_t k = 0; k < n; ++k) {
        const int v = from == BOOL ? kValues[k] != 0 : kValues[k];
        cases[k].from = from;
        cases[k].to = to;
        cases[k].in = small_value(from, v);
        cases[k].out = small_value(to, to == BOOL ? v != 0 : v);
        ptrs[k] = &cases[k];
      }
      check_contiguous(ptrs, n, TENSOR_CONVERT_LIBRARY);
      check_strided_source(ptrs, n, TENSOR_CONVERT_LIBRARY);
      check_strided_destination(ptrs, n, TENSOR_CONVERT_LIBRARY);
      check_contiguous(ptrs, n, TENSOR_CONVERT_TORCH_X86); /* small values: no policy differs */
    }
  }
}
END_TEST

/* Empty tensors convert for every pair. */
START_TEST(test_every_pair_empty) {
  const int64_t zero = 0;
  for (int i = 0; i < kNumDTypes; ++i) {
    for (int j = 0; j < kNumDTypes; ++j) {
      tensor_t *src = NULL, *dst = NULL;
      ck_ok(tensor_empty(&src, 1, &zero, kAllDTypes[i]));
      ck_ok(tensor_to(&dst, src, kAllDTypes[j], TENSOR_COPY_ALWAYS));
      ck_assert_int_eq(tensor_numel(dst), 0);
      ck_assert_int_eq(tensor_dtype(dst), kAllDTypes[j]);
      tensor_release(dst);
      tensor_release(src);
    }
  }
}
END_TEST

/* Large integer boundaries: the values next to 2^63 and 2^64 as float64. */
START_TEST(test_float64_near_64_bit_limits) {
  const double kTwo63 = 9223372036854775808.0, kTwo64 = 18446744073709551616.0;
  const double values[] = {kTwo63, nextafter(kTwo63, 0), -kTwo63, nextafter(-kTwo63, -INFINITY),
                           kTwo64, nextafter(kTwo64, 0)};
  const int64_t n = 6;
  tensor_t *src = NULL, *as_i64 = NULL, *as_u64 = NULL;
  ck_ok(tensor_from_data(&src, values, 1, &n, FLOAT64));
  ck_ok(tensor_to(&as_i64, src, INT64, TENSOR_COPY_ALWAYS));
  ck_ok(tensor_to(&as_u64, src, UINT64, TENSOR_COPY_ALWAYS));
  const int64_t *i = tensor_data(as_i64);
  const uint64_t *u = tensor_data(as_u64);
  ck_assert_int_eq(i[0], INT64_MAX);
  ck_assert_int_eq(i[1], INT64_MAX - 1023);
  ck_assert_int_eq(i[2], INT64_MIN);
  ck_assert_int_eq(i[3], INT64_MIN);
  ck_assert_int_eq(i[4], INT64_MAX);
  ck_assert_int_eq(i[5], INT64_MAX);
  ck_assert_uint_eq(u[0], 9223372036854775808u);
  ck_assert_uint_eq(u[1], 9223372036854774784u);
  ck_assert_uint_eq(u[2], 0);
  ck_assert_uint_eq(u[3], 0);
  ck_assert_uint_eq(u[4], UINT64_MAX);
  ck_assert_uint_eq(u[5], UINT64_MAX - 2047);
  tensor_release(as_u64);
  tensor_release(as_i64);
  tensor_release(src);
}
END_TEST

static Suite *conversions_suite(void) {
  Suite *s = suite_create("conversions");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_edge_values_contiguous);
  tcase_add_test(tc, test_edge_values_strided_source);
  tcase_add_test(tc, test_edge_values_strided_destination);
  tcase_add_test(tc, test_edge_values_convert);
  tcase_add_test(tc, test_convert_rejections);
  tcase_add_test(tc, test_edge_values_streamed);
  tcase_add_test(tc, test_torch_x86_edge_values);
  tcase_add_test(tc, test_torch_x86_large_outputs);
  tcase_add_test(tc, test_conversion_policy_rejections);
  tcase_add_test(tc, test_torch_x86_through_overlap);
  tcase_add_test(tc, test_fill_converts_from_float64);
  tcase_add_test(tc, test_scalar_convert_checks_ranges);
  tcase_add_test(tc, test_every_pair_small_values);
  tcase_add_test(tc, test_every_pair_empty);
  tcase_add_test(tc, test_float64_near_64_bit_limits);
  suite_add_tcase(s, tc);
  return s;
}

int main(void) { return run_suite(conversions_suite()); }
