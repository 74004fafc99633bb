/*
 * ctensor_arrow.h - exchange with Apache Arrow through the Arrow C Data
 * Interface and the C Device Data Interface.
 *
 * The structs below are written from the Arrow specifications
 * (https://arrow.apache.org/docs/format/CDataInterface.html and
 * CDeviceDataInterface.html) with the guards the specifications prescribe
 * (ARROW_C_DATA_INTERFACE, ARROW_C_DEVICE_DATA_INTERFACE, ARROW_FLAG_*), so a
 * program may include Arrow's own abi.h, nanoarrow.h or another copy before or
 * after this header without a clash.
 *
 * What maps how (docs/arrow.md has the full table):
 *  - A tensor of ndim >= 2 is exported as the canonical extension type
 *    `arrow.fixed_shape_tensor`: dim 0 is the array's length (the batch), the
 *    other dims are each element's shape; the storage is FixedSizeList<value>.
 *    A layout that is a permutation of row-major elements with dense rows is
 *    exported without copying, the order given by the extension's
 *    "permutation"; anything else is copied (unless TENSOR_ARROW_NO_COPY).
 *  - A 1-d tensor is exported as a plain primitive array.
 *  - Formats: uint8 "C", int8 "c", int16 "s", uint16 "S", int32 "i",
 *    uint32 "I", int64 "l", uint64 "L", float16 "e", float32 "f", float64 "g",
 *    bool "b" (bit-packed: always a copy). Arrow has no bfloat16 and no complex
 *    type; ctensor's conventions are field-level extension types:
 *    bfloat16 is "S" (uint16 bits) with ARROW:extension:name
 *    "ctensor.bfloat16"; complex64/complex128 are FixedSizeList<"f"/"g">[2]
 *    (real, imaginary) with ARROW:extension:name "ctensor.complex64" /
 *    "ctensor.complex128". On import these names are required: a bare "S" is
 *    uint16 and a bare FixedSizeList of 2 floats is one more dim of size 2.
 *    A bfloat16 or complex tensor of ndim >= 2 is exported as nested
 *    FixedSizeLists (one per element dim, no extension type) with the name on
 *    the leaf field, because consumers rebuild the extension's storage type
 *    without its field metadata; zero-copy when contiguous, else copied.
 *  - Import (tensor_from_arrow) takes `arrow.fixed_shape_tensor` arrays,
 *    FixedSizeList arrays without an extension (nested FixedSizeLists give one
 *    dim each) and primitive arrays (1-d), without copying except for bool.
 *    `arrow.variable_shape_tensor` arrays give one tensor per row
 *    (tensor_from_arrow_variable_shape).
 *
 * C99 and C++ clean.
 */
#ifndef CTENSOR_ARROW_H
#define CTENSOR_ARROW_H

#include <stddef.h>
#include <stdint.h>

#include "ctensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------- */
/* Arrow C Data Interface structs (as the specification defines them)        */
/* ------------------------------------------------------------------------- */

#ifndef ARROW_C_DATA_INTERFACE
#define ARROW_C_DATA_INTERFACE

#define ARROW_FLAG_DICTIONARY_ORDERED 1
#define ARROW_FLAG_NULLABLE 2
#define ARROW_FLAG_MAP_KEYS_SORTED 4

/** A type description (format string, name, metadata, children). */
struct ArrowSchema {
  const char *format;
  const char *name;
  const char *metadata;
  int64_t flags;
  int64_t n_children;
  struct ArrowSchema **children;
  struct ArrowSchema *dictionary;
  void (*release)(struct ArrowSchema *);
  void *private_data;
};

/** An array's data: length, null count, offset, buffers and children. */
struct ArrowArray {
  int64_t length;
  int64_t null_count;
  int64_t offset;
  int64_t n_buffers;
  int64_t n_children;
  const void **buffers;
  struct ArrowArray **children;
  struct ArrowArray *dictionary;
  void (*release)(struct ArrowArray *);
  void *private_data;
};

#endif /* ARROW_C_DATA_INTERFACE */

#ifndef ARROW_C_DEVICE_DATA_INTERFACE
#define ARROW_C_DEVICE_DATA_INTERFACE

/** Where an array's buffers live; the values equal DLPack's DLDeviceType. */
typedef int32_t ArrowDeviceType;

#define ARROW_DEVICE_CPU 1
#define ARROW_DEVICE_CUDA 2
#define ARROW_DEVICE_CUDA_HOST 3
#define ARROW_DEVICE_OPENCL 4
#define ARROW_DEVICE_VULKAN 7
#define ARROW_DEVICE_METAL 8
#define ARROW_DEVICE_VPI 9
#define ARROW_DEVICE_ROCM 10
#define ARROW_DEVICE_ROCM_HOST 11
#define ARROW_DEVICE_EXT_DEV 12
#define ARROW_DEVICE_CUDA_MANAGED 13
#define ARROW_DEVICE_ONEAPI 14
#define ARROW_DEVICE_WEBGPU 15
#define ARROW_DEVICE_HEXAGON 16

/** An ArrowArray whose buffers are on a device, with the event to wait for. */
struct ArrowDeviceArray {
  struct ArrowArray array;
  int64_t device_id;
  ArrowDeviceType device_type;
  void *sync_event;
  int64_t reserved[3];
};

#endif /* ARROW_C_DEVICE_DATA_INTERFACE */

/* ------------------------------------------------------------------------- */
/* Arrow export                                                               */
/* ------------------------------------------------------------------------- */

/** tensor_to_arrow flag: refuse (TENSOR_E_COPY) instead of copying. */
#define TENSOR_ARROW_NO_COPY 1u

/**
 * Exports t as an Arrow array (see the mapping at the top of this header):
 * ndim >= 2 as `arrow.fixed_shape_tensor` of length sizes[0] whose extension
 * metadata is {"shape": [physical element shape]} plus "permutation" when the
 * elements are not row-major (bfloat16 and complex: nested FixedSizeLists,
 * see above); ndim 1 as a primitive array. Zero-copy (the
 * child's data buffer is tensor_data(t)) when every element dim of size > 1 has
 * a positive stride, they lay the elements out densely in some order and
 * consecutive rows are list_size elements apart; otherwise, and for bool
 * (bit-packed in Arrow), the elements are copied into new memory. The arrays
 * hold a reference to t (or to the copy) until the last of them is released;
 * the caller keeps its own reference. Arrow data must not be written: a
 * writable tensor written after export changes what consumers read.
 * On success the caller owns both structs and calls schema_out->release and
 * array_out->release once each (children and buffers are released by them;
 * a child moved out with its release callback may be released on its own).
 * On failure both structs are left with release NULL.
 * @param schema_out receives the type (format, name "", metadata, children).
 * @param array_out receives the data (offset 0, null count 0, no validity bitmaps).
 * @param t the tensor to export (ndim >= 1, memory the CPU can read).
 * @param flags 0 or TENSOR_ARROW_NO_COPY.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL schema_out/array_out/t, unknown
 *         flags); TENSOR_E_SHAPE (0-dim t); TENSOR_E_COPY (a copy is needed and
 *         TENSOR_ARROW_NO_COPY is set); TENSOR_E_DEVICE (t's memory is not
 *         CPU-accessible; use tensor_to_arrow_device); TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_to_arrow(struct ArrowSchema *schema_out, struct ArrowArray *array_out,
                                            tensor_t *t, uint32_t flags);

/**
 * As tensor_to_arrow, as an ArrowDeviceArray carrying t's device (tensor_device:
 * device_type and device_id, whose codes equal DLPack's), sync_event NULL and
 * reserved zeroed. Memory on any device is exported without copying when its
 * layout allows; a copy (bool, other layouts) needs CPU-accessible memory.
 * The caller calls array_out->array.release once.
 * @param schema_out receives the type.
 * @param array_out receives the data and its device.
 * @param t the tensor to export (ndim >= 1).
 * @param flags 0 or TENSOR_ARROW_NO_COPY.
 * @return as tensor_to_arrow; TENSOR_E_DEVICE only when a copy is needed and
 *         t's memory is not CPU-accessible.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_to_arrow_device(struct ArrowSchema *schema_out,
                                                   struct ArrowDeviceArray *array_out, tensor_t *t,
                                                   uint32_t flags);

/* ------------------------------------------------------------------------- */
/* Arrow import                                                               */
/* ------------------------------------------------------------------------- */

/**
 * A tensor viewing an Arrow array, without copying (bool excepted):
 * `arrow.fixed_shape_tensor` gives [length, *logical shape], logical dim i
 * being physical dim permutation[i] (its strides are the physical row-major
 * strides taken in that order); a FixedSizeList without extension gives
 * [length, list_size, ...] (one dim per nested FixedSizeList); a primitive
 * array gives [length]. The array's and its children's offsets are honoured.
 * The tensor is read-only (Arrow data is immutable); a bool tensor, unpacked
 * from Arrow's bits, is a writable copy.
 * Ownership: the schema is only read; the caller keeps it and releases it as
 * usual. The array is moved on success only: ctensor copies the struct,
 * marks the caller's struct released (array->release = NULL, as the C Data
 * Interface's move does) and calls the producer's release exactly once when
 * the last tensor or storage viewing it goes (for bool, whose bits are
 * unpacked into a new byte tensor, right away). On failure nothing is taken:
 * the array is untouched and the caller still releases it.
 * Validation (each refusal's message names the field): formats without a
 * dtype, extension metadata that is not the specification's JSON ("shape" a
 * list of non-negative integers, "permutation" a permutation of 0..ndim-1,
 * "dim_names" a list of ndim strings), a list size other than the shape's
 * product, n_buffers/n_children other than the format's, negative
 * length/offset, an offset + length beyond a child's length, NULL buffers for
 * elements, nulls (null_count > 0, or null_count -1 with a zero validity bit
 * in range), dictionaries, released (release NULL) structs. Buffers are
 * trusted to be as long as length and offset say (the C Data Interface
 * carries no buffer sizes).
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param schema the array's type.
 * @param array the producer's array; taken over (moved) only on success.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/schema/array, schema or array
 *         already released); TENSOR_E_FORMAT (malformed schema, metadata or
 *         array, nulls); TENSOR_E_DTYPE (a value format ctensor has no dtype
 *         for); TENSOR_E_UNSUPPORTED (valid Arrow that is no tensor here:
 *         dictionaries, other nested types, variable_shape_tensor);
 *         TENSOR_E_OVERFLOW (sizes overflow); TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_from_arrow(tensor_t **out, struct ArrowSchema *schema,
                                              struct ArrowArray *array);

/**
 * As tensor_from_arrow for an ArrowDeviceArray: the tensor records the
 * array's device (tensor_device). Memory that is not CPU-accessible is never
 * touched, so validity bitmaps with null_count -1 and bool arrays on such
 * devices are refused (TENSOR_E_UNSUPPORTED), as is a non-NULL sync_event
 * (ctensor cannot wait on it). The embedded array is moved as in
 * tensor_from_arrow (array->array.release is set to NULL on success).
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param schema the array's type.
 * @param array the producer's device array; taken over (moved) only on success.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/schema/array, released
 *         structs); TENSOR_E_FORMAT (as tensor_from_arrow, and a device_id
 *         beyond int32); TENSOR_E_DTYPE; TENSOR_E_UNSUPPORTED (as
 *         tensor_from_arrow, and what the CPU would have to read, sync_event);
 *         TENSOR_E_OVERFLOW; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_from_arrow_device(tensor_t **out, struct ArrowSchema *schema,
                                                     struct ArrowDeviceArray *array);

/**
 * The rows of an `arrow.variable_shape_tensor` array, one tensor per row, each
 * viewing the array's memory without copying (shape from the row's "shape"
 * field, the "permutation" of the extension metadata applied as in
 * tensor_from_arrow; bool is refused here). Storage: Struct{"data":
 * List or LargeList<value>, "shape": FixedSizeList<int32>[ndim]}.
 * *out is an array of *count new references allocated by ctensor: free it
 * with tensor_arrow_list_release. Ownership of schema and array as in
 * tensor_from_arrow: the array is moved on success (its release runs when the
 * last row's tensor goes; with no rows, right away), untouched on failure.
 * @param out receives the array of tensors (NULL when *count is 0 or on failure).
 * @param count receives the number of rows (0 on failure).
 * @param schema the array's type.
 * @param array the producer's array; taken over (moved) only on success.
 * @return as tensor_from_arrow; TENSOR_E_INVALID also for NULL count;
 *         TENSOR_E_FORMAT also for a row whose element count differs from
 *         its shape's product or whose shape has a negative size.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_from_arrow_variable_shape(tensor_t ***out, int64_t *count,
                                                             struct ArrowSchema *schema,
                                                             struct ArrowArray *array);

/**
 * Releases each of the count tensors of a list made by
 * tensor_from_arrow_variable_shape, then the list itself.
 * @param list the list (taken over); may be NULL (a no-op).
 * @param count the number of tensors in it.
 * @since 0.2
 */
CTENSOR_API void tensor_arrow_list_release(tensor_t **list, int64_t count);

#ifdef __cplusplus
}
#endif

#endif /* CTENSOR_ARROW_H */
