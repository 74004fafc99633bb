/*
 * ctensor_dlpack.h - DLPack 1.x exchange structures used by ctensor.h.
 *
 * These definitions follow the public DLPack specification
 * (https://dmlc.github.io/dlpack/latest/) and are binary-compatible with its
 * dlpack.h: same names, field order, field types and values. ctensor.h includes
 * this header, so programs get the DLPack types without any other dependency.
 *
 * A program that also uses the official dlpack.h must include it *before*
 * ctensor.h (or this header):
 *  - dlpack.h 1.x (it defines DLPACK_MAJOR_VERSION): its definitions are used
 *    and nothing is redefined here;
 *  - dlpack.h 0.x (it defines DLPACK_VERSION but no versioned API, as PyTorch
 *    1.13's ATen/dlpack.h): its DLTensor/DLManagedTensor are used and only the
 *    1.x additions (DLPackVersion, DLManagedTensorVersioned, the flag bits) are
 *    added here.
 * Including the official header afterwards redefines the types and fails to
 * compile.
 *
 * C99 and C++ clean; no functions are declared here.
 */
#ifndef CTENSOR_DLPACK_H
#define CTENSOR_DLPACK_H

#include <stddef.h>
#include <stdint.h>

#if defined(DLPACK_MAJOR_VERSION)
/* The official DLPack >= 1.0 header is already included: use its definitions. */
#if DLPACK_MAJOR_VERSION != 1
#error "ctensor speaks DLPack 1.x; the included dlpack.h has another major version"
#endif

#else /* no official 1.x header */

#ifdef __cplusplus
extern "C" {
#endif

#if !defined(DLPACK_VERSION)
/* No official header at all: the whole DLPack 1.0 ABI. */

/** Major version of the DLPack ABI these definitions follow. */
#define DLPACK_MAJOR_VERSION 1
/** Minor version: 1.0. */
#define DLPACK_MINOR_VERSION 0

/** Where the bytes of a tensor live (values fixed by DLPack). */
#ifdef __cplusplus
typedef enum : int32_t {
#else
typedef enum {
#endif
  kDLCPU = 1,          /**< host memory */
  kDLCUDA = 2,         /**< CUDA device memory */
  kDLCUDAHost = 3,     /**< pinned host memory (cudaMallocHost); CPU-accessible */
  kDLOpenCL = 4,
  kDLVulkan = 7,
  kDLMetal = 8,
  kDLVPI = 9,
  kDLROCM = 10,
  kDLROCMHost = 11,
  kDLExtDev = 12,
  kDLCUDAManaged = 13, /**< CUDA managed (unified) memory; CPU-accessible */
  kDLOneAPI = 14,
  kDLWebGPU = 15,
  kDLHexagon = 16,
  kDLMAIA = 17
} DLDeviceType;

/** A device: its type and its index (0 for CPU memory). */
typedef struct {
  DLDeviceType device_type;
  int32_t device_id;
} DLDevice;

/** Kind of element in DLDataType.code. */
typedef enum {
  kDLInt = 0U,
  kDLUInt = 1U,
  kDLFloat = 2U,
  kDLOpaqueHandle = 3U,
  kDLBfloat = 4U,
  kDLComplex = 5U, /**< interleaved real, imaginary (C99 / std::complex layout) */
  kDLBool = 6U     /**< one byte per element */
} DLDataTypeCode;

/** Element type: code (a DLDataTypeCode), bits per lane, lanes (1 for scalars). */
typedef struct {
  uint8_t code;
  uint8_t bits;
  uint16_t lanes;
} DLDataType;

/**
 * A strided view of memory that manages nothing. Element i (a multi-index) is at
 * (char *)data + byte_offset + sum(i[d] * strides[d]) * bits/8; strides are in
 * elements and may be NULL (compact row-major).
 */
typedef struct {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;
  uint64_t byte_offset;
} DLTensor;

/**
 * Pre-1.0 exchange structure. Whoever holds it calls deleter(self) exactly once
 * when done (deleter may be NULL).
 */
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

#endif /* !DLPACK_VERSION */

/* The 1.x additions, also needed on top of an official 0.x header. */

/** ABI version of a DLManagedTensorVersioned; a different major means another layout. */
typedef struct {
  uint32_t major;
  uint32_t minor;
} DLPackVersion;

/** DLManagedTensorVersioned.flags bit: the memory must not be written. */
#define DLPACK_FLAG_BITMASK_READ_ONLY (1UL << 0UL)
/** DLManagedTensorVersioned.flags bit: the producer made a copy the consumer owns alone. */
#define DLPACK_FLAG_BITMASK_IS_COPIED (1UL << 1UL)

/**
 * DLPack 1.x exchange structure; `version` comes first so a consumer can check
 * it before touching anything else. Whoever holds it calls deleter(self) exactly
 * once when done (deleter may be NULL).
 */
typedef struct DLManagedTensorVersioned {
  DLPackVersion version;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;

#ifdef __cplusplus
}
#endif

#endif /* DLPACK_MAJOR_VERSION */

#endif /* CTENSOR_DLPACK_H */
