/*
 * ctensor.h - the public C API of libctensor.
 *
 * ctensor gives C (and every language with a C FFI) PyTorch's memory model:
 * refcounted byte storages, tensors that are strided views (dtype, sizes,
 * strides, storage offset) onto them, zero-copy import of foreign memory,
 * bounds-checked views and a copy engine with dtype conversion.
 *
 * Conventions (see also docs/conventions.md):
 *  - Every fallible function returns a tensor_status_t (TENSOR_OK == 0) and
 *    writes its result through its first parameter, `out`. On failure `*out`
 *    is set to NULL, nothing leaks, and nothing the caller passed is taken over.
 *  - tensor_last_error() gives the message of the last failed call on the
 *    calling thread; successful calls leave it unchanged.
 *  - Every handle given out through `out` is a new reference that the caller
 *    releases with tensor_release()/tensor_storage_release(). Getters borrow.
 *  - Sizes, strides and storage offsets are int64_t counted in elements (as in
 *    PyTorch); byte counts are size_t. `dim` arguments may be negative.
 *  - A tensor's metadata never changes after creation. Handles may be shared
 *    between threads; retain/release are atomic. Concurrent writes to the same
 *    elements are the caller's to synchronise.
 *
 * Stability: everything in this header is stable ABI from the version in its
 * @since tag, except the "Experimental" section at the end, whose signatures
 * may still change within 0.x; it is declared only when the includer defines
 * CTENSOR_EXPERIMENTAL before including this header. Status and dtype values
 * never change.
 */
#ifndef CTENSOR_H
#define CTENSOR_H

#include <stddef.h>
#include <stdint.h>

#include "ctensor_dlpack.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Marks every exported declaration. */
#if defined(_WIN32) && defined(CTENSOR_BUILDING)
#define CTENSOR_API __declspec(dllexport)
#elif defined(__GNUC__) && defined(CTENSOR_BUILDING)
#define CTENSOR_API __attribute__((visibility("default")))
#else
#define CTENSOR_API
#endif

/* ------------------------------------------------------------------------- */
/* Version                                                                    */
/* ------------------------------------------------------------------------- */

#define CTENSOR_VERSION_MAJOR 0
#define CTENSOR_VERSION_MINOR 2
#define CTENSOR_VERSION_PATCH 0
/** MAJOR*10000 + MINOR*100 + PATCH, comparable with tensor_version_number(). */
#define CTENSOR_VERSION_NUMBER \
  (CTENSOR_VERSION_MAJOR * 10000 + CTENSOR_VERSION_MINOR * 100 + CTENSOR_VERSION_PATCH)

/** The library's version as "MAJOR.MINOR.PATCH" (static string). @since 0.1 */
CTENSOR_API const char *tensor_version_string(void);
/** The library's CTENSOR_VERSION_NUMBER, to compare against the header's. @since 0.1 */
CTENSOR_API int32_t tensor_version_number(void);

/* ------------------------------------------------------------------------- */
/* Status codes                                                               */
/* ------------------------------------------------------------------------- */

/** Result of every fallible call. The values below are fixed forever. */
typedef int32_t tensor_status_t;

#define TENSOR_OK 0              /**< success */
#define TENSOR_E_INVALID 1       /**< bad argument: NULL, negative size, dim out of range, unknown dtype, step 0 */
#define TENSOR_E_NOMEM 2         /**< allocation failed */
#define TENSOR_E_BOUNDS 3        /**< a view or index would reach outside its storage or dimension */
#define TENSOR_E_SHAPE 4         /**< shapes do not match, cannot broadcast, or bad -1 use */
#define TENSOR_E_STRIDE 5        /**< view impossible with these strides (reshape would copy) */
#define TENSOR_E_DTYPE 6         /**< dtype not allowed here */
#define TENSOR_E_OVERFLOW 7      /**< size, stride, offset or byte-count arithmetic overflows */
#define TENSOR_E_READONLY 8      /**< write into read-only memory */
#define TENSOR_E_OVERLAP 9       /**< write destination may have internal overlap */
#define TENSOR_E_DEVICE 10       /**< element access on memory that is not on the CPU */
#define TENSOR_E_COPY 11         /**< a copy is needed but the caller forbade it */
#define TENSOR_E_IO 12           /**< operating-system I/O error, with the system's reason: from the file and
                                      shared-memory functions (tensor_storage_map_file, tensor_storage_new_shared, tensor_storage_move_to_shared, tensor_storage_from_fd, tensor_load_npy, tensor_load_npy_with, tensor_save_npy, tensor_safetensors_open, tensor_safetensors_open_with, tensor_safetensors_save) */
#define TENSOR_E_FORMAT 13       /**< malformed file or foreign structure: from the readers (tensor_load_npy, tensor_load_npy_with, tensor_safetensors_open, tensor_safetensors_open_with) and the Arrow importers of ctensor_arrow.h (tensor_from_arrow, tensor_from_arrow_device, tensor_from_arrow_variable_shape) */
#define TENSOR_E_UNSUPPORTED 14  /**< valid request this version cannot do */
#define TENSOR_E_INTERNAL 15     /**< a bug inside ctensor (an unexpected internal failure); the message says where */
#define TENSOR_E_CANCELLED 16    /**< the caller's callback asked to stop: from the loads with a progress callback (tensor_load_npy_with, tensor_safetensors_open_with) */

/**
 * The message of the last failed call on this thread, e.g.
 * "as_strided: view needs storage bytes [0, 4100) but storage has 4096 bytes".
 * Returns "" if no call has failed on this thread. The string is owned by the
 * library and stays valid until the next failing call on the same thread.
 * It is always the last failed call's own message, and it always starts with
 * the function's name without the prefix ("zeros: out of memory: cannot
 * allocate 4096 bytes"): when memory runs out while that message is built, it
 * is "<name>: out of memory while formatting the message"; while it is kept,
 * its first 60 bytes followed by "..." (the status is still the call's own).
 * Never allocates. Thread-safe (thread-local).
 * @since 0.1
 */
CTENSOR_API const char *tensor_last_error(void);

/**
 * The name of a status code as spelled above ("TENSOR_OK", "TENSOR_E_BOUNDS", ...),
 * or NULL for an unknown value. Static string. @since 0.1
 */
CTENSOR_API const char *tensor_status_name(tensor_status_t status);

/* ------------------------------------------------------------------------- */
/* Data types                                                                 */
/* ------------------------------------------------------------------------- */

/** Element type; values equal PyTorch's c10::ScalarType. */
typedef int32_t tensor_dtype_t;

#define TENSOR_UINT8 0
#define TENSOR_INT8 1
#define TENSOR_INT16 2
#define TENSOR_INT32 3
#define TENSOR_INT64 4
#define TENSOR_FLOAT16 5
#define TENSOR_FLOAT32 6
#define TENSOR_FLOAT64 7
#define TENSOR_COMPLEX64 9
#define TENSOR_COMPLEX128 10
#define TENSOR_BOOL 11
#define TENSOR_BFLOAT16 15
#define TENSOR_UINT16 27
#define TENSOR_UINT32 28
#define TENSOR_UINT64 29

/** Size in bytes of one element of `dtype`; 0 if `dtype` is unknown. @since 0.1 */
CTENSOR_API size_t tensor_dtype_size(tensor_dtype_t dtype);

/**
 * PyTorch's name of `dtype` without the "torch." prefix ("uint8", "float32",
 * "bfloat16", "complex64", "bool", ...); NULL if unknown. Static string. @since 0.1
 */
CTENSOR_API const char *tensor_dtype_name(tensor_dtype_t dtype);

/** Kinds of dtype, in PyTorch's type-promotion order (bool < integer < float < complex). */
#define TENSOR_KIND_BOOL 0    /**< bool */
#define TENSOR_KIND_INT 1     /**< signed and unsigned integers */
#define TENSOR_KIND_FLOAT 2   /**< float16, bfloat16, float32, float64 */
#define TENSOR_KIND_COMPLEX 3 /**< complex64, complex128 */

/**
 * The kind of `dtype`: TENSOR_KIND_BOOL, _INT, _FLOAT or _COMPLEX; -1 if `dtype`
 * is unknown (so this also tells known dtypes apart). @since 0.2
 */
CTENSOR_API int32_t tensor_dtype_kind(tensor_dtype_t dtype);

/**
 * torch.dtype.is_signed: 1 for the signed integers and every float and complex
 * dtype; 0 for bool, the unsigned integers and an unknown dtype. @since 0.2
 */
CTENSOR_API int32_t tensor_dtype_is_signed(tensor_dtype_t dtype);

/*
 * Conversion rules. tensor_copy, tensor_to, tensor_fill (a float64 source) and
 * tensor_convert convert elements identically on every platform and code path:
 *  - to bool: x != 0 (NaN is true; a complex is true if either part is non-zero).
 *    A bool source byte reads as true when non-zero; bool results are 0 or 1.
 *  - integer to integer: keeps the low bits (two's complement wrapping).
 *  - float to integer: truncates toward zero; NaN gives 0; values outside the
 *    target's range and +-inf saturate to its minimum or maximum.
 *  - to float16 / bfloat16: the exact source value rounded once to nearest even
 *    (overflow gives +-inf); to float32 / float64: one rounding to nearest even;
 *    widening between floats is exact.
 *  - complex to real: the real part, then as above; real to complex: imaginary +0.
 *  - NaN stays NaN with its sign; narrowing to float16/bfloat16 keeps the top
 *    payload bits and makes it quiet.
 * docs/conversions.md gives examples and where PyTorch 1.13 and NumPy differ.
 */

/* ------------------------------------------------------------------------- */
/* Limits and flags                                                           */
/* ------------------------------------------------------------------------- */

/** Most dimensions a tensor may have. */
#define TENSOR_MAX_DIMS 64
/** Storage flag: writes through any view of the storage fail with TENSOR_E_READONLY. */
#define TENSOR_READONLY 1u
/** tensor_slice bound standing for "the open end" (INT64_MIN stands for the other). */
#define TENSOR_SLICE_END INT64_MAX
/** tensor_squeeze dim meaning "every size-1 dim". */
#define TENSOR_ALL_DIMS INT64_MIN
/** tensor_to copy modes (torch.asarray's copy=None/True/False). */
#define TENSOR_COPY_IF_NEEDED 0
#define TENSOR_COPY_ALWAYS 1
#define TENSOR_COPY_NEVER 2

/** Opaque refcounted byte buffer. */
typedef struct tensor_storage tensor_storage_t;
/** Opaque refcounted strided view onto a storage. */
typedef struct tensor tensor_t;

/**
 * Called exactly once with `ctx` when the last reference to a wrapped storage
 * goes away, on whichever thread drops it. Must not call back into ctensor
 * with the storage being released.
 */
typedef void (*tensor_release_fn)(void *ctx);

/* ------------------------------------------------------------------------- */
/* Storage                                                                    */
/* ------------------------------------------------------------------------- */

/**
 * Allocates an owned, zero-filled, writable CPU storage of `nbytes` bytes,
 * 64-byte aligned (`nbytes` 0 is allowed).
 * @param out receives a new reference.
 * @return TENSOR_OK; TENSOR_E_INVALID if out is NULL; TENSOR_E_NOMEM.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_storage_new(tensor_storage_t **out, size_t nbytes);

/**
 * Wraps `nbytes` bytes of caller memory at `data` without copying.
 * `release(ctx)` runs exactly once when the last reference is gone (`release`
 * may be NULL); on failure it is not called and nothing is taken over.
 * @param out receives the new storage (a new reference), or NULL on failure.
 * @param data the caller's memory (may be NULL only when nbytes is 0).
 * @param release called as release(ctx) once the storage is gone; may be NULL.
 * @param flags 0 or TENSOR_READONLY.
 * @return TENSOR_OK; TENSOR_E_INVALID (out NULL, data NULL with nbytes > 0,
 *         unknown flag bits); TENSOR_E_NOMEM.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_storage_wrap(tensor_storage_t **out, void *data, size_t nbytes,
                                                uint32_t flags, tensor_release_fn release,
                                                void *ctx);

/** First byte of the storage (borrowed); NULL if s is NULL. @since 0.1 */
CTENSOR_API void *tensor_storage_data(const tensor_storage_t *s);
/** Size of the storage in bytes; 0 if s is NULL. @since 0.1 */
CTENSOR_API size_t tensor_storage_nbytes(const tensor_storage_t *s);
/** 1 if the storage is read-only, else 0 (0 for NULL). @since 0.1 */
CTENSOR_API int32_t tensor_storage_is_readonly(const tensor_storage_t *s);
/** Adds a reference and returns `s`; accepts NULL. Thread-safe. @since 0.1 */
CTENSOR_API tensor_storage_t *tensor_storage_retain(tensor_storage_t *s);
/** Drops a reference; the last one frees the storage. Accepts NULL. Thread-safe. @since 0.1 */
CTENSOR_API void tensor_storage_release(tensor_storage_t *s);
/** Current reference count (each tensor on the storage holds one); 0 for NULL. @since 0.1 */
CTENSOR_API int64_t tensor_storage_refcount(const tensor_storage_t *s);

/**
 * Pins the storage's memory where it is: tensor_storage_move_to_shared refuses a
 * pinned storage, so a consumer that keeps the data pointer (a binding's buffer
 * export, an array viewing the memory) never sees it freed under it. Pins count;
 * each one is undone by one tensor_storage_unpin. The library pins the storage of
 * every DLPack and Arrow export itself, until the export's deleter or release runs.
 * A pin does not hold a reference. Accepts NULL. Thread-safe.
 * @since 0.2
 */
CTENSOR_API void tensor_storage_pin(tensor_storage_t *s);
/** Undoes one tensor_storage_pin of `s`. Accepts NULL. Thread-safe. @since 0.2 */
CTENSOR_API void tensor_storage_unpin(tensor_storage_t *s);

/* ------------------------------------------------------------------------- */
/* Creation                                                                   */
/* ------------------------------------------------------------------------- */

/**
 * A tensor viewing storage `s` (which gains a reference; the caller keeps its own).
 * `strides` NULL means contiguous. Checked like tensor_as_strided: every element
 * the view addresses must lie inside the storage.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param s the storage to view (borrowed; the tensor takes its own reference).
 * @param sizes ndim sizes in elements; strides ndim strides in elements, or NULL.
 * @param storage_offset offset of element [0,...,0] in elements (>= 0).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/s, ndim outside [0, 64], sizes NULL
 *         with ndim > 0, negative size, unknown dtype); TENSOR_E_BOUNDS;
 *         TENSOR_E_OVERFLOW; TENSOR_E_NOMEM.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_from_storage(tensor_t **out, tensor_storage_t *s,
                                                tensor_dtype_t dtype, int64_t ndim,
                                                const int64_t *sizes, const int64_t *strides,
                                                int64_t storage_offset);

/**
 * torch.frombuffer: a 1-D tensor sharing `buffer`. `offset` is in bytes, `count`
 * in elements (negative: everything after `offset`). The new storage starts at
 * `buffer + offset`, so tensor_data() == buffer + offset. `release(ctx)` runs
 * once when the last view is gone; never on failure.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param buffer, nbytes the caller's memory and its length in bytes.
 * @param count elements to view (negative: all after offset); offset in bytes.
 * @param release called as release(ctx) once the last view is gone; may be NULL.
 * @param flags 0 or TENSOR_READONLY (every write then fails with TENSOR_E_READONLY).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/buffer, nbytes 0, offset < 0,
 *         offset >= nbytes, count 0, remainder not a multiple of the element size,
 *         offset + count*size > nbytes, unknown dtype or flags);
 *         TENSOR_E_OVERFLOW (count*size overflows, or with count < 0 the
 *         nbytes - offset bytes exceed INT64_MAX); TENSOR_E_NOMEM.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_from_buffer(tensor_t **out, void *buffer, size_t nbytes,
                                               tensor_dtype_t dtype, int64_t count,
                                               int64_t offset, uint32_t flags,
                                               tensor_release_fn release, void *ctx);

/**
 * A new contiguous tensor whose contents are unspecified (not zero-filled).
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param ndim, sizes the shape (sizes may be NULL when ndim is 0).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out, bad ndim, NULL sizes with ndim > 0,
 *         negative size, unknown dtype); TENSOR_E_OVERFLOW; TENSOR_E_NOMEM.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_empty(tensor_t **out, int64_t ndim, const int64_t *sizes,
                                         tensor_dtype_t dtype);

/** As tensor_empty, but zero-filled. @return as tensor_empty. @since 0.1 */
CTENSOR_API tensor_status_t tensor_zeros(tensor_t **out, int64_t ndim, const int64_t *sizes,
                                         tensor_dtype_t dtype);

/**
 * A new contiguous tensor holding a copy of numel*itemsize bytes at `data`
 * (C order). `data` may be NULL only when the tensor has no elements.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param data numel*itemsize bytes in C order, copied.
 * @return as tensor_empty.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_from_data(tensor_t **out, const void *data, int64_t ndim,
                                             const int64_t *sizes, tensor_dtype_t dtype);

/* ------------------------------------------------------------------------- */
/* Inspection (all borrow; arrays live as long as the tensor; NULL-safe)      */
/* ------------------------------------------------------------------------- */

/** Number of dimensions (0 for a scalar tensor or NULL). @since 0.1 */
CTENSOR_API int64_t tensor_ndim(const tensor_t *t);
/** Sizes, ndim entries (borrowed; non-NULL even for 0-dim, NULL for NULL t). @since 0.1 */
CTENSOR_API const int64_t *tensor_sizes(const tensor_t *t);
/** Strides in elements, ndim entries (borrowed, as tensor_sizes). @since 0.1 */
CTENSOR_API const int64_t *tensor_strides(const tensor_t *t);
/** Offset of element [0,...,0] from the storage start, in elements. @since 0.1 */
CTENSOR_API int64_t tensor_storage_offset(const tensor_t *t);
/** Element type (-1 for NULL). @since 0.1 */
CTENSOR_API tensor_dtype_t tensor_dtype(const tensor_t *t);
/** Number of elements (product of sizes; 1 for 0-dim; 0 for NULL). @since 0.1 */
CTENSOR_API int64_t tensor_numel(const tensor_t *t);
/** Address of element [0,...,0]: storage data + offset*itemsize (borrowed). @since 0.1 */
CTENSOR_API void *tensor_data(const tensor_t *t);
/** The storage viewed (borrowed: retain it to keep it). @since 0.1 */
CTENSOR_API tensor_storage_t *tensor_storage(const tensor_t *t);
/** 1 if contiguous by PyTorch's rule (size-1 dims' strides ignored; empty is contiguous). @since 0.1 */
CTENSOR_API int32_t tensor_is_contiguous(const tensor_t *t);
/** 1 if the tensor's storage is read-only. @since 0.1 */
CTENSOR_API int32_t tensor_is_readonly(const tensor_t *t);
/** Adds a reference and returns `t`; accepts NULL. Thread-safe. @since 0.1 */
CTENSOR_API tensor_t *tensor_retain(tensor_t *t);
/** Drops a reference; the last one frees the tensor and its storage reference. Accepts NULL. @since 0.1 */
CTENSOR_API void tensor_release(tensor_t *t);
/** Current reference count of the tensor handle; 0 for NULL. @since 0.1 */
CTENSOR_API int64_t tensor_refcount(const tensor_t *t);

/* ------------------------------------------------------------------------- */
/* Views: share the storage; the input is never changed; *out is a new ref.   */
/* Common failures: TENSOR_E_INVALID (NULL out/t, dim out of range),          */
/* TENSOR_E_NOMEM.                                                            */
/* ------------------------------------------------------------------------- */

/**
 * torch.as_strided onto t's storage. `strides` NULL means contiguous. Sizes must be
 * >= 0; strides may be negative or zero; every element addressed must lie inside
 * the storage (a view with no elements always succeeds).
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param t the input tensor (borrowed; never changed).
 * @param strides ndim strides in elements, or NULL for contiguous.
 * @param storage_offset in elements, from the start of t's storage.
 * @return TENSOR_OK; TENSOR_E_INVALID (bad ndim, negative size, NULL sizes);
 *         TENSOR_E_BOUNDS; TENSOR_E_OVERFLOW (extent or byte arithmetic, or an
 *         element count beyond int64; sizes with a 0 among them have no elements
 *         and never overflow, in any order).
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_as_strided(tensor_t **out, const tensor_t *t, int64_t ndim,
                                              const int64_t *sizes, const int64_t *strides,
                                              int64_t storage_offset);

/**
 * Tensor.view(sizes): one size may be -1 (inferred).
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param t the input tensor (borrowed; never changed).
 * @param ndim, sizes the new shape; one size may be -1.
 * @return TENSOR_OK; TENSOR_E_SHAPE (numel mismatch, several -1, ambiguous -1);
 *         TENSOR_E_STRIDE (strides do not allow a view); TENSOR_E_INVALID (size < -1);
 *         TENSOR_E_OVERFLOW (product of sizes overflows).
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_view(tensor_t **out, const tensor_t *t, int64_t ndim,
                                        const int64_t *sizes);

/**
 * Tensor.reshape(sizes): a view where possible, else a new contiguous copy
 * (which needs a readable CPU tensor: TENSOR_E_DEVICE otherwise).
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param t the input tensor (borrowed; never changed).
 * @param ndim, sizes the new shape; one size may be -1.
 * @return as tensor_view, without TENSOR_E_STRIDE.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_reshape(tensor_t **out, const tensor_t *t, int64_t ndim,
                                           const int64_t *sizes);

/**
 * Swaps two dims.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param t the input tensor (borrowed; never changed).
 * @param dim0, dim1 the dims to swap (negative counts from the end).
 * @return TENSOR_OK; TENSOR_E_INVALID.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_transpose(tensor_t **out, const tensor_t *t, int64_t dim0,
                                             int64_t dim1);

/**
 * Reorders dims: result dim i is input dim dims[i]. `ndim` must equal t's.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param t the input tensor (borrowed; never changed).
 * @param dims ndim distinct dims (negative counts from the end).
 * @return TENSOR_OK; TENSOR_E_INVALID (wrong ndim, dim out of range, repeated dim).
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_permute(tensor_t **out, const tensor_t *t, int64_t ndim,
                                           const int64_t *dims);

/**
 * t[start:stop:step] along `dim` with Python's clamping; step may be negative
 * (a reversed view). INT64_MAX / INT64_MIN stand for open ends: [::-1] is
 * (TENSOR_SLICE_END, INT64_MIN, -1).
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param t the input tensor (borrowed; never changed).
 * @param dim the dim to slice; start, stop, step as Python's t[start:stop:step].
 * @return TENSOR_OK; TENSOR_E_INVALID (step 0, 0-dim t, dim out of range);
 *         TENSOR_E_OVERFLOW (offset arithmetic of an empty result with huge strides).
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_slice(tensor_t **out, const tensor_t *t, int64_t dim,
                                         int64_t start, int64_t stop, int64_t step);

/**
 * t.select(dim, index), removing `dim`; negative index counts from the end.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param t the input tensor (borrowed; never changed).
 * @return TENSOR_OK; TENSOR_E_BOUNDS (index out of range); TENSOR_E_INVALID;
 *         TENSOR_E_OVERFLOW (as tensor_slice).
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_select(tensor_t **out, const tensor_t *t, int64_t dim,
                                          int64_t index);

/**
 * t.narrow(dim, start, length); negative start counts from the end.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param t the input tensor (borrowed; never changed).
 * @return TENSOR_OK; TENSOR_E_BOUNDS (start or start+length out of range);
 *         TENSOR_E_INVALID (negative length, 0-dim t, dim out of range);
 *         TENSOR_E_OVERFLOW (as tensor_slice).
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_narrow(tensor_t **out, const tensor_t *t, int64_t dim,
                                          int64_t start, int64_t length);

/**
 * t.expand(sizes): size-1 dims (and new leading dims) get stride 0; -1 keeps a size.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param t the input tensor (borrowed; never changed).
 * @param ndim, sizes the target shape (-1 keeps a size).
 * @return TENSOR_OK; TENSOR_E_SHAPE (impossible sizes, fewer dims than t, -1 in a
 *         new leading dim); TENSOR_E_INVALID (size < -1, bad ndim);
 *         TENSOR_E_OVERFLOW (product of sizes overflows).
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_expand(tensor_t **out, const tensor_t *t, int64_t ndim,
                                          const int64_t *sizes);

/** torch.broadcast_to: identical to tensor_expand. @since 0.1 */
CTENSOR_API tensor_status_t tensor_broadcast_to(tensor_t **out, const tensor_t *t, int64_t ndim,
                                                const int64_t *sizes);

/**
 * Removes dim `dim` if its size is 1 (otherwise the view is unchanged);
 * TENSOR_ALL_DIMS removes every size-1 dim.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param t the input tensor (borrowed; never changed).
 * @param dim the dim to remove, or TENSOR_ALL_DIMS.
 * @return TENSOR_OK; TENSOR_E_INVALID.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_squeeze(tensor_t **out, const tensor_t *t, int64_t dim);

/**
 * Inserts a size-1 dim at `dim` (range [-ndim-1, ndim]).
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param t the input tensor (borrowed; never changed).
 * @return TENSOR_OK; TENSOR_E_INVALID.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_unsqueeze(tensor_t **out, const tensor_t *t, int64_t dim);

/**
 * torch.flatten(t, start_dim, end_dim): a view where possible, else a copy (as
 * tensor_reshape). A 0-dim t gives shape [1].
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param t the input tensor (borrowed; never changed).
 * @param start_dim, end_dim the inclusive range of dims to merge.
 * @return TENSOR_OK; TENSOR_E_INVALID (dims out of range, start after end).
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_flatten(tensor_t **out, const tensor_t *t, int64_t start_dim,
                                           int64_t end_dim);

/**
 * Tensor.view(dtype) with PyTorch 1.13's rules: equal element sizes just relabel;
 * otherwise the last dim must have stride 1 and its size, the storage offset and
 * the other strides must be divisible as needed.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param t the input tensor (borrowed; never changed).
 * @param dtype the dtype to reinterpret the bytes as.
 * @return TENSOR_OK; TENSOR_E_INVALID (unknown dtype); TENSOR_E_SHAPE (0-dim t,
 *         last size not divisible); TENSOR_E_STRIDE (last stride not 1, offset or
 *         strides not divisible).
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_view_dtype(tensor_t **out, const tensor_t *t,
                                              tensor_dtype_t dtype);

/** @name Basic indexing: the kinds of index items of tensor_index. */
/** An integer: values[3i] is the index (negative counts from the end); removes the dim. */
#define TENSOR_INDEX_INT 0
/** A slice: values[3i], [3i+1], [3i+2] are start, stop, step as in tensor_slice
    (TENSOR_SLICE_END / INT64_MIN for the open ends). */
#define TENSOR_INDEX_SLICE 1
/** None / np.newaxis: a new dim of size 1. */
#define TENSOR_INDEX_NEWAXIS 2
/** `...`: stands for the dims that no integer or slice names. */
#define TENSOR_INDEX_ELLIPSIS 3
/** A bool: values[3i] is 1 (a new dim of size 1) or 0 (a new dim of size 0). */
#define TENSOR_INDEX_BOOL 4

/**
 * t[item_0, ..., item_{n-1}] with NumPy/PyTorch basic indexing (integers, negative
 * integers, slices with any step, new axes, bools, ellipses) in one pass: one new
 * view, no intermediate tensors. Item i is `kinds[i]` (a TENSOR_INDEX_* value) with
 * its numbers in `values[3*i]`, `values[3*i+1]`, `values[3*i+2]` (three slots per
 * item whatever its kind; unused slots are ignored), so the ABI is two plain arrays.
 * Items apply from the left as the chain tensor_select / tensor_slice /
 * tensor_unsqueeze would, giving the same sizes, strides, offset and errors; an
 * ellipsis skips the dims no integer or slice names (several ellipses each skip
 * them, as PyTorch; NumPy allows one). Dims after the last item stay as they are.
 * `n` may be 0 (a new view of t); kinds and values may then be NULL.
 * @param out    receives the new view (a new reference), NULL on failure.
 * @param t      the tensor indexed (borrowed).
 * @param n      number of index items, >= 0.
 * @param kinds  n item kinds.
 * @param values 3*n numbers.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments, n < 0, an unknown kind, a bool
 *         value other than 0/1, more integers and slices than t has dims, a slice
 *         step of 0, too many dims); TENSOR_E_BOUNDS (an integer out of range);
 *         TENSOR_E_OVERFLOW (offset arithmetic); TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_index(tensor_t **out, const tensor_t *t, int64_t n,
                                         const int32_t *kinds, const int64_t *values);

/* ------------------------------------------------------------------------- */
/* Copies. Element access needs CPU memory (else TENSOR_E_DEVICE).           */
/* ------------------------------------------------------------------------- */

/**
 * If t is contiguous, *out is t with one more reference; else a new contiguous,
 * writable copy.
 * @param out receives t itself (one more reference) or a new tensor.
 * @param t the input tensor.
 * @return TENSOR_OK; TENSOR_E_INVALID; TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_contiguous(tensor_t **out, tensor_t *t);

/** A new contiguous, writable copy of t. @return as tensor_contiguous. @since 0.1 */
CTENSOR_API tensor_status_t tensor_clone(tensor_t **out, const tensor_t *t);

/**
 * dst[...] = src: broadcasts src to dst's shape and converts dtype (see
 * "Conversion rules" above); correct when src and dst share memory.
 * @param dst the destination (written in place).
 * @param src the source (read; may share memory with dst).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL); TENSOR_E_SHAPE (src cannot broadcast
 *         to dst, including src with more dims); TENSOR_E_READONLY (dst read-only);
 *         TENSOR_E_OVERLAP (dst has internal overlap, e.g. a zero stride);
 *         TENSOR_E_DEVICE; TENSOR_E_NOMEM. An empty dst always succeeds when
 *         src broadcasts to it (nothing is written, so no read-only, overlap or
 *         device check); a src that does not broadcast is still TENSOR_E_SHAPE.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_copy(tensor_t *dst, const tensor_t *src);

/**
 * t converted to `dtype` following torch.asarray's copy rule:
 * TENSOR_COPY_IF_NEEDED shares when the dtype matches (then *out may be t with one
 * more reference), TENSOR_COPY_ALWAYS always copies, TENSOR_COPY_NEVER fails with
 * TENSOR_E_COPY when a copy is needed. Copies are new contiguous, writable tensors.
 * @param out receives t itself (one more reference) or a new tensor.
 * @param t the input tensor.
 * @param copy TENSOR_COPY_IF_NEEDED, TENSOR_COPY_ALWAYS or TENSOR_COPY_NEVER.
 * @return TENSOR_OK; TENSOR_E_INVALID (unknown dtype or mode); TENSOR_E_COPY;
 *         TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_to(tensor_t **out, tensor_t *t, tensor_dtype_t dtype,
                                      int32_t copy);

/**
 * Sets every element of dst to `value`, converted as a copy from a float64 scalar.
 * @param dst the destination (written in place).
 * @param value converted as a float64 source.
 * @return as tensor_copy.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_fill(tensor_t *dst, double value);

/**
 * Sets every element of dst to the one element at `element` (dst's dtype, native
 * byte order, any alignment), as PyTorch's fill_: unlike tensor_fill and
 * tensor_copy, dst may have internal overlap (expanded, or as_strided with
 * elements in common), since every write is the same value; every element of dst
 * ends up the value. An empty dst always succeeds.
 * @param dst the destination (written in place).
 * @param element tensor_dtype_size(tensor_dtype(dst)) bytes, e.g. written by
 *        tensor_scalar_convert_int64 and its sisters; may lie inside dst's memory.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL dst or element); TENSOR_E_READONLY;
 *         TENSOR_E_DEVICE.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_fill_element(tensor_t *dst, const void *element);

/**
 * Checked conversion of a number into one element of `dtype`, as PyTorch converts
 * a Python number argument (fill values, torch.tensor(data, dtype=...), t[i] = v):
 * a value outside the dtype's range is TENSOR_E_OVERFLOW with PyTorch's message
 * ("value cannot be converted to type uint8_t without overflow"), where
 * tensor_fill and tensor_copy would wrap or saturate. The ranges: an integer dtype
 * holds its minimum to maximum, and a negative integer whose magnitude is at most
 * an unsigned dtype's maximum (it wraps, as in PyTorch: -1 gives 255 in uint8); a
 * float (not NaN) must lie in [min, max] of the integer dtype; float16, bfloat16,
 * float32 and complex64 hold every value of magnitude at most their largest finite
 * one (inf and NaN included); bool holds every number. In range, the value converts
 * as a copy does (integers wrap into the unsigned dtypes, floats truncate toward
 * zero, float16/bfloat16 round once to nearest even).
 * @param out receives tensor_dtype_size(dtype) bytes (native byte order; any
 *        alignment); unchanged on failure.
 * @param dtype the element's dtype.
 * @param value the number (bool values as 0 and 1).
 * @return TENSOR_OK; TENSOR_E_INVALID (out NULL, unknown dtype); TENSOR_E_OVERFLOW
 *         (the value is out of the dtype's range).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_scalar_convert_int64(void *out, tensor_dtype_t dtype, int64_t value);
/**
 * As tensor_scalar_convert_int64, a float64 number.
 * @return TENSOR_OK; TENSOR_E_INVALID (out NULL, unknown dtype); TENSOR_E_OVERFLOW
 *         (NaN or out of range for an integer dtype; finite and beyond the largest
 *         finite value of a float or complex dtype).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_scalar_convert_float64(void *out, tensor_dtype_t dtype, double value);
/**
 * As tensor_scalar_convert_float64, a complex128 number re + im*i: into a complex
 * dtype both parts are checked; into bool it is re != 0 (PyTorch reads a complex
 * Scalar's real part there); into any other dtype a non-zero im is
 * TENSOR_E_OVERFLOW, else re converts as a float64.
 * @return TENSOR_OK; TENSOR_E_INVALID (out NULL, unknown dtype); TENSOR_E_OVERFLOW.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_scalar_convert_complex128(void *out, tensor_dtype_t dtype, double re,
                                                             double im);

/* ------------------------------------------------------------------------- */
/* Devices and DLPack exchange (structs from ctensor_dlpack.h)                */
/* Exported tensors are zero-copy; imported memory is never copied either.    */
/* ------------------------------------------------------------------------- */

/**
 * Where t's memory lives, as a DLPack device (DLDeviceType value and index).
 * Storages made by ctensor are kDLCPU/0; tensors imported through DLPack keep
 * the producer's device. NULL t gives device type 0 (no device) and id -1.
 * Either out pointer may be NULL. Thread-safe.
 * @since 0.1
 */
CTENSOR_API void tensor_device(const tensor_t *t, int32_t *device_type, int32_t *device_id);

/**
 * Exports t as a DLPack 1.x managed tensor without copying. The result holds a
 * reference to t (the caller keeps its own) until its deleter runs; whoever holds
 * *out must call (*out)->deleter(*out) exactly once, from any thread. data points
 * at element [0,...,0] with byte_offset 0; shape and strides are always filled
 * (negative and zero strides as they are, a size-1 dim's stride as 1, as
 * PyTorch exports it) and owned by the result; flags has
 * DLPACK_FLAG_BITMASK_READ_ONLY for read-only tensors; version is {1, minor}.
 * @param out receives the managed tensor; its deleter must be called once.
 * @param t the tensor to export.
 * @param flags reserved, must be 0.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/t, non-zero flags); TENSOR_E_NOMEM.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_to_dlpack(DLManagedTensorVersioned **out, tensor_t *t,
                                             uint32_t flags);

/**
 * As tensor_to_dlpack, as a pre-1.0 DLManagedTensor for older consumers (such
 * as PyTorch 1.13 and NumPy 1.x). That format cannot say "read-only", so a
 * read-only tensor is refused (as NumPy refuses to export read-only arrays).
 * @param out receives the managed tensor; its deleter must be called once.
 * @param t the tensor to export.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/t); TENSOR_E_READONLY (t is
 *         read-only); TENSOR_E_NOMEM.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_to_dlpack_legacy(DLManagedTensor **out, tensor_t *t);

/**
 * A tensor viewing the memory `m` describes, without copying. On success ctensor
 * owns m and calls m->deleter(m) (if not NULL) exactly once, when the last tensor
 * or storage viewing it is released, on whichever thread releases it. On failure
 * nothing is taken: m is untouched and the caller still calls its deleter.
 * NULL strides mean compact row-major; byte_offset is honoured; the storage covers
 * exactly the bytes the view addresses (so later views stay bounds-checked);
 * DLPACK_FLAG_BITMASK_READ_ONLY gives a read-only storage. kDLCPU, kDLCUDAHost and
 * kDLCUDAManaged memory is CPU-accessible; any other device is recorded
 * (tensor_device) and its memory is never touched: views and metadata work,
 * element access fails with TENSOR_E_DEVICE.
 * Accepted dtypes: kDLInt 8/16/32/64, kDLUInt 8/16/32/64, kDLFloat 16/32/64,
 * kDLBfloat 16, kDLComplex 64/128, kDLBool 8, all with lanes 1.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param m the producer's managed tensor; taken over only on success.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/m, ndim outside [0, 64], NULL
 *         shape with ndim > 0, negative size, NULL data with elements);
 *         TENSOR_E_UNSUPPORTED (m->version.major != 1); TENSOR_E_DTYPE (lanes
 *         != 1, unknown code or bits); TENSOR_E_OVERFLOW (extents or addresses
 *         overflow); TENSOR_E_NOMEM.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_from_dlpack(tensor_t **out, DLManagedTensorVersioned *m);

/**
 * As tensor_from_dlpack for a pre-1.0 DLManagedTensor (no version, no flags:
 * the result is writable).
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param m the producer's managed tensor; taken over only on success.
 * @return as tensor_from_dlpack, without TENSOR_E_UNSUPPORTED.
 * @since 0.1
 */
CTENSOR_API tensor_status_t tensor_from_dlpack_legacy(tensor_t **out, DLManagedTensor *m);

/* ------------------------------------------------------------------------- */
/* Threads.                                                                   */
/* ------------------------------------------------------------------------- */

/**
 * Sets how many threads a large operation may use, the calling thread
 * included: copies (tensor_contiguous, tensor_clone, tensor_copy, tensor_to,
 * tensor_fill, tensor_cat, tensor_stack, the experimental tensor_copy_with and
 * tensor_to_with, and the copies made by reshape/flatten), element-wise math
 * (tensor_add to tensor_ge, tensor_binary_into, tensor_neg, tensor_abs,
 * tensor_unary, tensor_unary_into and its named ops, the experimental
 * conjugates), reductions (tensor_sum, tensor_mean, tensor_prod,
 * tensor_amax, tensor_amin) and tensor_index_gather. An operation takes one
 * thread per 2 MiB of its result (copies, element-wise math, gathers) or of its
 * input (reductions), up to n, so operations under 2 MiB never leave the
 * calling thread. Worker threads are started on first use and live until the
 * library is unloaded. While one operation uses the workers, a concurrent one
 * from another thread runs on its own thread only. The setting is
 * process-wide; results are identical, bit for bit, for every n (a reduction
 * into one element is cut into pieces of its own pairwise tree, whichever
 * threads reduce them).
 * @param n the thread count (>= 1).
 * @return TENSOR_OK; TENSOR_E_INVALID if n < 1.
 * Thread-safe. @since 0.1
 */
CTENSOR_API tensor_status_t tensor_set_num_threads(int32_t n);

/**
 * The thread count set by tensor_set_num_threads. Until a program sets one, the
 * default: the environment variable CTENSOR_NUM_THREADS when it holds a
 * positive integer (read once, at the first operation that asks), else the
 * number of CPUs the process may run on (its affinity mask).
 * Thread-safe. @since 0.1
 */
CTENSOR_API int32_t tensor_get_num_threads(void);

/**
 * Gives the calling thread's cached blocks back to the heap. Released tensors
 * and storages leave their small control blocks (up to 64 of each) in a cache
 * of the thread that releases them, for the next view or wrap to reuse. A
 * thread's cache is freed when the thread exits, and the cache of the thread
 * that unloads the library (or calls exit()) when the library is unloaded, so
 * a leak checker sees nothing at exit; a host runtime that keeps threads alive
 * calls this to give the memory back sooner (e.g. before a heap snapshot, or
 * when a thread goes idle). Tensors released later on this thread are cached
 * again. See docs/conventions.md, "Runtime embedders".
 * Thread-safe (acts on the calling thread only); never fails. @since 0.2
 */
CTENSOR_API void tensor_thread_release_caches(void);

/* ------------------------------------------------------------------------- */
/* Files and shared memory (docs/files.md). Paths are UTF-8 (bytes passed to  */
/* the operating system as they are). Every descriptor ctensor opens is       */
/* close-on-exec and is closed with the last reference to its storage.        */
/* ------------------------------------------------------------------------- */

/** tensor_storage_map_file / tensor_storage_from_fd flags (exactly one; TENSOR_MAP_READ may
    accompany the others). */
#define TENSOR_MAP_READ 1u    /**< read-only, shared: the storage is read-only */
#define TENSOR_MAP_WRITE 2u   /**< read-write, shared: writes reach the file (and every other mapping) */
#define TENSOR_MAP_PRIVATE 4u /**< read-write, copy-on-write: writes stay in this process */

/** Load flags of tensor_load_npy and tensor_safetensors_open (0: map read-only, zero-copy). */
#define TENSOR_LOAD_COPY 1u     /**< read into owned, writable memory; the file is not kept mapped */
#define TENSOR_LOAD_WRITABLE 2u /**< map copy-on-write: zero-copy, writable, writes never reach the file */

/**
 * Maps bytes [offset, offset + nbytes) of the file at `path` (nbytes 0: to the end
 * of the file) as a storage, without reading it. `offset` need not be page-aligned.
 * The range is checked against the file's size now, so no page past its end is
 * ever mapped; the file is unmapped when the last reference goes. A file that
 * another process truncates while mapped still raises SIGBUS on access, as with
 * any mapping: ctensor's own writers replace files by renaming instead.
 * The storage is not fd-backed (tensor_storage_fd gives -1): no descriptor is held.
 * @param flags TENSOR_MAP_READ (read-only storage), TENSOR_MAP_WRITE (opens the file
 *        read-write) or TENSOR_MAP_PRIVATE.
 * @param out receives a new reference.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/path, bad flags); TENSOR_E_IO (cannot
 *         open or map the file, with the system's reason; not a regular file);
 *         TENSOR_E_BOUNDS (offset past the end, the range passes the end, or it is
 *         empty, e.g. an empty file); TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_storage_map_file(tensor_storage_t **out, const char *path,
                                                    uint64_t offset, uint64_t nbytes,
                                                    uint32_t flags);

/**
 * A zero-filled, writable storage of `nbytes` bytes (0 allowed) in anonymous shared
 * memory (Linux memfd_create), for sharing between processes: pass
 * tensor_storage_fd() to another process (fork, or a Unix socket's SCM_RIGHTS) and
 * map it there with tensor_storage_from_fd. The memory is sealed against shrinking,
 * so no holder of the descriptor can make another's mapping fault.
 * @param out receives a new reference (fd-backed).
 * @return TENSOR_OK; TENSOR_E_INVALID (out NULL); TENSOR_E_IO (memfd_create, ftruncate,
 *         sealing or mmap failed); TENSOR_E_NOMEM; TENSOR_E_OVERFLOW (nbytes > INT64_MAX).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_storage_new_shared(tensor_storage_t **out, size_t nbytes);

/**
 * The descriptor behind an fd-backed storage (from tensor_storage_new_shared or
 * tensor_storage_from_fd), or -1 for any other storage and for NULL. Borrowed: it is
 * closed with the storage's last reference; dup() it to keep it longer. @since 0.2
 */
CTENSOR_API int32_t tensor_storage_fd(const tensor_storage_t *s);

/**
 * Moves the storage's bytes into new anonymous shared memory (as
 * tensor_storage_new_shared; read-only if the storage is), in place: the storage
 * keeps its identity and every tensor viewing it, however made, reads and writes
 * the shared memory from then on (as PyTorch's share_memory_). Its old memory is
 * released during the call (a wrapped storage's release callback runs then). Does
 * nothing to an fd-backed storage (tensor_storage_fd >= 0).
 * Not thread-safe with respect to the storage's memory: no other thread may use
 * the storage (through any tensor, or an address got before) during the call, and
 * addresses got before it (tensor_data, tensor_storage_data) are no longer valid
 * after it. PyTorch's share_memory_ has the same rule. A storage whose address
 * has been handed to a consumer that keeps it is refused instead: see
 * tensor_storage_pin.
 * @param s the storage (not taken over).
 * @return TENSOR_OK; TENSOR_E_INVALID (s NULL, or pinned: exported through DLPack,
 *         Arrow or a binding's buffer); TENSOR_E_DEVICE (memory not on the CPU);
 *         TENSOR_E_UNSUPPORTED (a file mapped read-write: in shared memory its writes
 *         would no longer reach the file); TENSOR_E_IO (memfd_create, ftruncate,
 *         sealing, mmap or mprotect failed); TENSOR_E_NOMEM; TENSOR_E_OVERFLOW.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_storage_move_to_shared(tensor_storage_t *s);

/**
 * Maps the first `nbytes` bytes (0: all of them) of the file or shared memory behind
 * descriptor `fd`. The descriptor is duplicated (close-on-exec): the caller keeps and
 * closes its own; the storage is fd-backed and closes its duplicate with its last
 * reference. An empty descriptor with nbytes 0 gives an empty storage.
 * @param flags as tensor_storage_map_file (TENSOR_MAP_WRITE needs a writable descriptor).
 * @param out receives a new reference.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out, fd < 0, bad flags); TENSOR_E_IO (fd
 *         not open, not a regular file or memfd, mmap refused); TENSOR_E_BOUNDS (nbytes
 *         more than the descriptor's size); TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_storage_from_fd(tensor_storage_t **out, int32_t fd,
                                                   size_t nbytes, uint32_t flags);

/**
 * Loads a NumPy .npy file (format versions 1.0, 2.0 and 3.0). Dtypes: '|b1', '|u1',
 * '|i1', '<i2' .. '<i8', '<u2' .. '<u8', '<f2', '<f4', '<f8', '<c8', '<c16' ('=' and
 * '>' orders too). Fortran-order arrays become strided (column-major) views, not
 * copies. With flags 0 the data is mapped read-only (zero-copy; the tensor is
 * read-only); TENSOR_LOAD_WRITABLE maps it copy-on-write; TENSOR_LOAD_COPY reads it
 * into owned memory. Big-endian data, and data whose offset in the file is not a
 * multiple of its element size (files from NumPy older than 1.9 may be), is read
 * into owned memory (byte-swapped) whatever the flags. Bytes after the array are
 * ignored, as NumPy does.
 * @param out receives a new reference (contiguous for C order).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/path, unknown flags); TENSOR_E_IO;
 *         TENSOR_E_FORMAT (no magic, unknown version, header longer than NumPy's
 *         limit of 10000 bytes, malformed header dict, shape overflow, file shorter
 *         than its data); TENSOR_E_DTYPE (object, string, structured or other
 *         dtypes ctensor lacks); TENSOR_E_UNSUPPORTED (more than 64 dims);
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_load_npy(tensor_t **out, const char *path, uint32_t flags);

/**
 * A load's progress report: `done_bytes` of `total_bytes` have been read. Called
 * only by loads that read a file into memory (TENSOR_LOAD_COPY, or data that must
 * be copied whatever the flags), and only when total_bytes is at least the
 * options' progress_min_bytes; mapped loads read nothing up front and never call
 * it. The calls come from the thread that called the load, one at a time, with
 * done_bytes never decreasing: first (0, total), then as the reading goes on, at
 * most about every 20 ms, and last (total, total) when every byte is in memory.
 * The callback must not call the load it reports on, nor unwind (throw, longjmp)
 * through ctensor.
 * @param user the options' progress_user, as it was given.
 * @return 0 to go on; any other value cancels the load, which then returns
 *         TENSOR_E_CANCELLED having freed everything it made (no further call).
 * @since 0.2
 */
typedef int32_t (*tensor_progress_fn)(void *user, uint64_t done_bytes, uint64_t total_bytes);

/**
 * Options of tensor_load_npy_with and tensor_safetensors_open_with. Versioned as
 * the kernel's extensible structs: set struct_size to sizeof(tensor_load_options_t)
 * and every field you do not use to 0 (e.g. `tensor_load_options_t o = {0};
 * o.struct_size = sizeof o;`): all zero means the defaults of tensor_load_npy.
 * A later version only adds fields at the end, so a program compiled against
 * this header keeps working with later libraries; a larger struct from a later
 * header is accepted by this library when its extra fields are all zero.
 */
typedef struct tensor_load_options {
  size_t struct_size;            /**< sizeof(tensor_load_options_t) of the caller's header */
  tensor_progress_fn progress;   /**< progress callback, or NULL for none */
  void *progress_user;           /**< passed to progress as it is */
  uint64_t progress_min_bytes;   /**< report only reads of at least this many bytes (0: every read) */
  int32_t num_threads;           /**< threads a copy-mode read may use, the caller's included (0: tensor_get_num_threads(); more is capped to it) */
} tensor_load_options_t;

/**
 * As tensor_load_npy, with options: a progress callback that may cancel, and the
 * threads a copy-mode read uses. A copy-mode read is cut into chunks of 8 MiB
 * that up to num_threads threads (one per 64 MiB of data) read with pread
 * straight into the tensor's memory; the bytes are the same for every thread
 * count and equal the mapped load's.
 * @param out receives a new reference, or NULL on failure.
 * @param options `options` NULL means the defaults; else read as documented at
 *        tensor_load_options_t.
 * @return as tensor_load_npy; also TENSOR_E_INVALID (options->struct_size smaller
 *         than the first version's tensor_load_options_t, num_threads < 0);
 *         TENSOR_E_UNSUPPORTED (options from a later header with a field this
 *         library does not know set); TENSOR_E_CANCELLED (the progress callback
 *         returned non-zero; nothing is kept).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_load_npy_with(tensor_t **out, const char *path, uint32_t flags,
                                                 const tensor_load_options_t *options);

/**
 * Saves t (any strides) as a .npy file in C order, with the header NumPy 1.24's
 * np.save writes (format 1.0, padded to 64 bytes), to
 * exactly `path` (no ".npy" is appended). The file is written to a temporary file
 * beside it, flushed and renamed over `path`: readers never see a partial file, and
 * on failure `path` is unchanged and the temporary removed.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL t/path); TENSOR_E_DTYPE (bfloat16, which
 *         .npy cannot describe: use tensor_safetensors_save, or convert to float32);
 *         TENSOR_E_DEVICE (not CPU memory); TENSOR_E_IO (with the system's reason, e.g.
 *         "No space left on device"); TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_save_npy(const tensor_t *t, const char *path);

/** An open safetensors file: its header, and its data mapped (or read) once. */
typedef struct tensor_safetensors tensor_safetensors_t;

/**
 * Opens a safetensors file and validates it as the reference implementation does:
 * the header length (8 bytes, little-endian) is at most 100,000,000 and within the
 * file; the header is UTF-8 JSON object text (trailing spaces allowed) without
 * duplicate keys; each tensor has a known dtype ("BOOL", "U8", "I8", "I16", "U16",
 * "F16", "BF16", "I32", "U32", "F32", "F64", "I64", "U64", "C64", "F8_E5M2",
 * "F8_E4M3", "F8_E8M0"), a shape of non-negative integers and data_offsets
 * [begin, end] with end - begin == numel * itemsize; sorted by offset the tensors
 * tile the data from 0 to the end of the file (no gap, no overlap, nothing after);
 * "__metadata__" maps strings to strings. Beyond the reference, names, metadata
 * keys and values holding a NUL character (an escaped zero in the JSON) are
 * refused: the handle gives them out as C strings, where "a<NUL>b" would read as
 * "a" (and a get of "a" could find another tensor). No byte outside the file is
 * ever read.
 * The data is mapped read-only (flags 0: tensors are read-only), copy-on-write
 * (TENSOR_LOAD_WRITABLE) or read into owned memory (TENSOR_LOAD_COPY), once.
 * @param out receives the handle; release it with tensor_safetensors_release.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/path, unknown flags); TENSOR_E_IO;
 *         TENSOR_E_FORMAT (any violation above, with the reason and the tensor's
 *         name); TENSOR_E_OVERFLOW (a size product overflows); TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_safetensors_open(tensor_safetensors_t **out, const char *path,
                                                    uint32_t flags);

/**
 * As tensor_safetensors_open, with the options of tensor_load_npy_with: with
 * TENSOR_LOAD_COPY the data section is read in chunks on up to num_threads
 * threads, reporting to the progress callback (total_bytes: the data section's
 * size), which may cancel.
 * @param out receives the handle (release it with tensor_safetensors_release), or
 *        NULL on failure.
 * @param options `options` NULL means the defaults; else read as documented at
 *        tensor_load_options_t.
 * @return as tensor_safetensors_open; also TENSOR_E_INVALID (options->struct_size
 *         smaller than the first version's tensor_load_options_t, num_threads < 0);
 *         TENSOR_E_UNSUPPORTED (options from a later header with a field this
 *         library does not know set); TENSOR_E_CANCELLED (the progress callback
 *         returned non-zero; nothing is kept).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_safetensors_open_with(tensor_safetensors_t **out, const char *path,
                                                         uint32_t flags,
                                                         const tensor_load_options_t *options);

/** Frees the handle (accepts NULL); tensors got from it stay valid (they hold the data). @since 0.2 */
CTENSOR_API void tensor_safetensors_release(tensor_safetensors_t *st);

/** Number of tensors in the file (0 for NULL). @since 0.2 */
CTENSOR_API int64_t tensor_safetensors_count(const tensor_safetensors_t *st);

/**
 * Name of tensor `index` in [0, count), in the order of the file's header; NULL out
 * of range or for NULL st. Borrowed: valid until tensor_safetensors_release. @since 0.2
 */
CTENSOR_API const char *tensor_safetensors_name(const tensor_safetensors_t *st, int64_t index);

/**
 * The tensor called `name`: a contiguous view sharing the file's one data storage
 * (zero-copy), whose offset is in elements. A tensor whose bytes are not aligned to
 * its element size in the file (never the case in files written by
 * tensor_safetensors_save or the safetensors package, which align every tensor) is
 * copied instead into its own aligned, writable storage.
 * @param out receives a new reference.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/st/name, no such tensor);
 *         TENSOR_E_DTYPE (an F8_* dtype, which ctensor lacks); TENSOR_E_UNSUPPORTED
 *         (more than 64 dims); TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_safetensors_get(tensor_t **out, const tensor_safetensors_t *st,
                                                   const char *name);

/**
 * The "__metadata__" value for `key`, or NULL if absent (or NULL st/key). Borrowed:
 * valid until tensor_safetensors_release. @since 0.2
 */
CTENSOR_API const char *tensor_safetensors_metadata(const tensor_safetensors_t *st,
                                                    const char *key);

/** Number of "__metadata__" pairs in the file's header (0 for NULL st or none). @since 0.2 */
CTENSOR_API int64_t tensor_safetensors_metadata_count(const tensor_safetensors_t *st);

/**
 * Key of metadata pair `index` in [0, tensor_safetensors_metadata_count), in the
 * order of the file's header (its value: tensor_safetensors_metadata); NULL out of
 * range or for NULL st. Read once, at open, from the header the handle holds, so a
 * file replaced on disk since does not change it. Borrowed: valid until
 * tensor_safetensors_release. @since 0.2
 */
CTENSOR_API const char *tensor_safetensors_metadata_key(const tensor_safetensors_t *st, int64_t index);

/**
 * Writes n tensors (any strides; stored in C order) named names[i], and n_meta
 * metadata pairs, as a safetensors file, atomically as tensor_save_npy does. The
 * layout is the reference implementation's: "__metadata__" first (omitted when
 * n_meta is 0), tensors ordered by dtype width (widest first) then name, so each
 * starts at a multiple of its element size; the header is padded with spaces to a
 * multiple of 8 bytes.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL path, n or n_meta < 0, NULL arrays or
 *         entries, duplicate names or keys, the name "__metadata__", strings that are
 *         not UTF-8); TENSOR_E_DTYPE (complex128, which safetensors lacks);
 *         TENSOR_E_DEVICE; TENSOR_E_IO; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_safetensors_save(const char *path, int64_t n,
                                                    const char *const *names,
                                                    const tensor_t *const *tensors, int64_t n_meta,
                                                    const char *const *meta_keys,
                                                    const char *const *meta_values);
/* Math (see docs/math.md). Element access needs CPU memory (else            */
/* TENSOR_E_DEVICE); inputs may be read-only and have any strides (negative, */
/* zero, overlapping). Results are new, writable tensors.                    */
/*                                                                           */
/* Type promotion is PyTorch's torch.result_type: categories bool < integer  */
/* < float < complex; tensors with dims outrank 0-dim tensors, which outrank */
/* wrapped numbers (the tensor_scalar_* tensors, standing for Python         */
/* numbers); a lower-ranked operand only changes the dtype when its category */
/* is higher. So int8 + scalar int gives int8, float16 + scalar float gives  */
/* float16, int32 + scalar float gives float32 (the default float). Dtypes of */
/* one rank promote as torch.promote_types; uint16/uint32/uint64 take their  */
/* place by value range (uint16 with int16 gives int32, uint32 with int32    */
/* int64); uint64 with a signed integer has no integer result and is         */
/* TENSOR_E_DTYPE (PyTorch 2.x refuses it too). float16 with a complex       */
/* number gives complex64 (PyTorch's complex32 is not a ctensor dtype).       */
/* float16 and bfloat16 compute in float32 and round once, as PyTorch's CPU  */
/* kernels.                                                                  */
/*                                                                           */
/* Output layout of the element-wise ops (binary ops, neg/abs, clamp,        */
/* where): PyTorch's TensorIterator rule applied to the magnitudes of the    */
/* inputs' strides. When every input has the result's shape and all are      */
/* contiguous, the result is contiguous; when all are 4-d and contiguous in  */
/* channels-last order, it is too; when all are non-overlapping and dense    */
/* with the same stride magnitudes, it has those strides; otherwise          */
/* its dims are ordered by the inputs' strides (the first input whose        */
/* non-zero strides differ decides each pair of dims, equal strides put the  */
/* smaller size inside, dims no input orders keep C order) and it is dense   */
/* in that order. So a reversed input (negative strides) gives the layout    */
/* of its forward twin: a[::-1] + b[::-1] is contiguous. Size-1 dims keep    */
/* their strides in the comparison and size-0 dims enter the products as     */
/* PyTorch's do (an empty result can have stride 0). Reductions, argmax/     */
/* argmin, cumsum/cumprod and softmax give contiguous results, as PyTorch.   */
/* ------------------------------------------------------------------------- */

/** Binary operations, for tensor_binary_into. */
typedef int32_t tensor_op_t;
#define TENSOR_OP_ADD 0
#define TENSOR_OP_SUB 1
#define TENSOR_OP_MUL 2
#define TENSOR_OP_DIV 3
#define TENSOR_OP_POW 4
#define TENSOR_OP_MAXIMUM 5
#define TENSOR_OP_MINIMUM 6
#define TENSOR_OP_EQ 7
#define TENSOR_OP_NE 8
#define TENSOR_OP_LT 9
#define TENSOR_OP_LE 10
#define TENSOR_OP_GT 11
#define TENSOR_OP_GE 12

/**
 * A wrapped number: a new 0-dim tensor holding `value` (bool: value != 0; int64,
 * float64, complex128) that promotes as a Python number does in PyTorch (see
 * above). Views of it are ordinary 0-dim tensors.
 * @return TENSOR_OK; TENSOR_E_INVALID (out NULL); TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_scalar_bool(tensor_t **out, int32_t value);
/** As tensor_scalar_bool, an int64 wrapped number. @since 0.2 */
CTENSOR_API tensor_status_t tensor_scalar_int64(tensor_t **out, int64_t value);
/** As tensor_scalar_bool, a float64 wrapped number (promotes as float32 would). @since 0.2 */
CTENSOR_API tensor_status_t tensor_scalar_float64(tensor_t **out, double value);
/** As tensor_scalar_bool, a complex128 wrapped number (promotes as complex64 would). @since 0.2 */
CTENSOR_API tensor_status_t tensor_scalar_complex128(tensor_t **out, double re, double im);

/**
 * torch.result_type(a, b): the dtype binary ops compute in (before div's and
 * comparisons' own rules).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL); TENSOR_E_DTYPE (uint64 with a
 *         signed integer).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_result_type(tensor_dtype_t *out, const tensor_t *a, const tensor_t *b);

/**
 * torch.promote_types(a, b): the dtype two tensors of dtypes a and b (both with
 * dims, or both 0-dim) compute in; the table the binary ops use, so
 * tensor_promote_types(&d, x, y) fails exactly when tensor_result_type fails for
 * tensors of dtypes x and y. Symmetric; a with itself gives a.
 * @param out receives the promoted dtype (-1 on failure).
 * @return TENSOR_OK; TENSOR_E_INVALID (out NULL, unknown dtype); TENSOR_E_DTYPE
 *         (uint64 with a signed integer: no integer dtype holds both).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_promote_types(tensor_dtype_t *out, tensor_dtype_t a, tensor_dtype_t b);

/**
 * Element-wise a + b in a new tensor: a and b broadcast (NumPy's rules) and are
 * converted to their result type, which is the result's dtype. The result's
 * strides follow PyTorch's (the inputs' memory order; contiguous when they are).
 * Integers wrap on overflow (two's complement); bool + bool is logical or.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL); TENSOR_E_SHAPE (no broadcast);
 *         TENSOR_E_DTYPE (no result type, or one the op refuses: see each);
 *         TENSOR_E_OVERFLOW; TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_add(tensor_t **out, const tensor_t *a, const tensor_t *b);
/** a - b, as tensor_add; a bool operand is TENSOR_E_DTYPE (as PyTorch). @since 0.2 */
CTENSOR_API tensor_status_t tensor_sub(tensor_t **out, const tensor_t *a, const tensor_t *b);
/** a * b, as tensor_add; bool * bool is logical and. @since 0.2 */
CTENSOR_API tensor_status_t tensor_mul(tensor_t **out, const tensor_t *a, const tensor_t *b);
/**
 * True division a / b, as tensor_add, except that bool and integer result types
 * compute in float32 (the default float): 1 / 0 is inf, 0 / 0 is NaN, never an
 * error. float16/bfloat16/float32/float64/complex keep their dtype.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_div(tensor_t **out, const tensor_t *a, const tensor_t *b);
/**
 * a ** b, as tensor_add. Integer powers are exact by repeated squaring and wrap
 * on overflow; a negative integer exponent gives PyTorch's results: 1 for base
 * 1, 1 or -1 for base -1 (even or odd exponent), 0 for every other base (0 too).
 * A negative wrapped-number (tensor_scalar_int64) exponent of an integer tensor
 * is TENSOR_E_INVALID, as PyTorch's "Integers to negative integer powers are not
 * allowed". A bool result type is TENSOR_E_DTYPE.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_pow(tensor_t **out, const tensor_t *a, const tensor_t *b);
/** torch.maximum, as tensor_add: NaN wins; bool is logical or; complex is TENSOR_E_DTYPE. @since 0.2 */
CTENSOR_API tensor_status_t tensor_maximum(tensor_t **out, const tensor_t *a, const tensor_t *b);
/** torch.minimum, as tensor_maximum (bool: logical and). @since 0.2 */
CTENSOR_API tensor_status_t tensor_minimum(tensor_t **out, const tensor_t *a, const tensor_t *b);
/**
 * a == b: a bool tensor, compared in the result type (so a uint8 tensor equals
 * 257 where it holds 1, as in PyTorch: the number is converted first). NaN is
 * unequal to everything. Otherwise as tensor_add.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_eq(tensor_t **out, const tensor_t *a, const tensor_t *b);
/** a != b, as tensor_eq. @since 0.2 */
CTENSOR_API tensor_status_t tensor_ne(tensor_t **out, const tensor_t *a, const tensor_t *b);
/** a < b, as tensor_eq; a complex result type is TENSOR_E_DTYPE. @since 0.2 */
CTENSOR_API tensor_status_t tensor_lt(tensor_t **out, const tensor_t *a, const tensor_t *b);
/** a <= b, as tensor_lt. @since 0.2 */
CTENSOR_API tensor_status_t tensor_le(tensor_t **out, const tensor_t *a, const tensor_t *b);
/** a > b, as tensor_lt. @since 0.2 */
CTENSOR_API tensor_status_t tensor_gt(tensor_t **out, const tensor_t *a, const tensor_t *b);
/** a >= b, as tensor_lt. @since 0.2 */
CTENSOR_API tensor_status_t tensor_ge(tensor_t **out, const tensor_t *a, const tensor_t *b);

/**
 * dst = op(a, b) with PyTorch's out= rules: dst must have the broadcast shape
 * of a and b (ctensor never resizes), the op computes in its usual dtype, and
 * that dtype must be castable to dst's (torch.can_cast: never complex into a
 * real dtype, float into an integer, or non-bool into bool); the values are
 * then converted as tensor_copy converts. dst may be a or b itself (in-place
 * a += b is tensor_binary_into(a, TENSOR_OP_ADD, a, b)); any other overlap
 * between dst and an input is handled by reading a snapshot of that input.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL, unknown op); TENSOR_E_SHAPE;
 *         TENSOR_E_DTYPE; TENSOR_E_READONLY (dst read-only); TENSOR_E_OVERLAP
 *         (dst has internal overlap, as tensor_copy); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM. An empty dst with valid operands does nothing.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_binary_into(tensor_t *dst, tensor_op_t op, const tensor_t *a,
                                               const tensor_t *b);

/**
 * -a in a new tensor of a's dtype and shape (integers wrap: -INT_MIN is
 * INT_MIN, unsigned values wrap modulo 2^bits).
 * @return TENSOR_OK; TENSOR_E_INVALID; TENSOR_E_DTYPE (bool, as PyTorch);
 *         TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_neg(tensor_t **out, const tensor_t *a);
/**
 * |a| in a new tensor: complex gives its real dtype (the modulus), other
 * dtypes keep theirs (abs(INT_MIN) is INT_MIN, as PyTorch).
 * @return as tensor_neg (bool is TENSOR_E_DTYPE, as PyTorch).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_abs(tensor_t **out, const tensor_t *a);

/** Unary operations, for tensor_unary and tensor_unary_into. */
typedef int32_t tensor_unary_op_t;
#define TENSOR_UOP_NEG 0
#define TENSOR_UOP_ABS 1
#define TENSOR_UOP_EXP 2
#define TENSOR_UOP_EXP2 3
#define TENSOR_UOP_EXPM1 4
#define TENSOR_UOP_LOG 5
#define TENSOR_UOP_LOG2 6
#define TENSOR_UOP_LOG10 7
#define TENSOR_UOP_LOG1P 8
#define TENSOR_UOP_SQRT 9
#define TENSOR_UOP_RSQRT 10
#define TENSOR_UOP_SIN 11
#define TENSOR_UOP_COS 12
#define TENSOR_UOP_TAN 13
#define TENSOR_UOP_ASIN 14
#define TENSOR_UOP_ACOS 15
#define TENSOR_UOP_ATAN 16
#define TENSOR_UOP_SINH 17
#define TENSOR_UOP_COSH 18
#define TENSOR_UOP_TANH 19
#define TENSOR_UOP_SIGMOID 20
#define TENSOR_UOP_RELU 21
#define TENSOR_UOP_GELU 22
#define TENSOR_UOP_ERF 23
#define TENSOR_UOP_FLOOR 24
#define TENSOR_UOP_CEIL 25
#define TENSOR_UOP_ROUND 26
#define TENSOR_UOP_TRUNC 27
#define TENSOR_UOP_FRAC 28
#define TENSOR_UOP_SIGN 29
#define TENSOR_UOP_RECIPROCAL 30
#define TENSOR_UOP_SQUARE 31
#define TENSOR_UOP_ISNAN 32
#define TENSOR_UOP_ISINF 33
#define TENSOR_UOP_ISFINITE 34
#define TENSOR_UOP_LOGICAL_NOT 35
#define TENSOR_UOP_BITWISE_NOT 36

/**
 * op(a) in a new tensor of a's shape, laid out as tensor_add lays out its
 * result; a may have any strides and be read-only. The result dtype follows
 * PyTorch 1.13: the floating-point functions (exp to sigmoid, erf, reciprocal)
 * give the default float (float32) for bool and integer inputs and keep float16,
 * bfloat16, float32, float64 and complex dtypes; neg, abs, relu, floor, ceil,
 * round, trunc, sign and square keep integer dtypes; isnan, isinf, isfinite and
 * logical_not give bool; bitwise_not takes only bool and integers. Each op's
 * function below names the dtypes it refuses (TENSOR_E_DTYPE, as PyTorch does).
 * float16 and bfloat16 compute in float32 and round once (PyTorch 1.13's CPU
 * kernels refuse float16 for many of these; ctensor computes them). NaN, +-inf
 * and signed zeros follow IEEE 754 and PyTorch. Accuracy for float32 and float64
 * is stated per function: the bound holds where the CPU has AVX2 or AVX-512
 * (SLEEF's vector functions, chosen at run time); elsewhere the C library's
 * functions run. Complex values use the C++ library's std::complex functions.
 * @param op a TENSOR_UOP_* value.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments, unknown op);
 *         TENSOR_E_DTYPE (a dtype the op refuses); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_unary(tensor_t **out, tensor_unary_op_t op, const tensor_t *a);

/**
 * dst = op(a) with PyTorch's out= rules, as tensor_binary_into: dst must have
 * a's shape (ctensor never resizes), the op's result dtype must be castable to
 * dst's (torch.can_cast), and the values are then converted as tensor_copy
 * converts. dst may be a itself (in place: tensor_unary_into(a, TENSOR_UOP_EXP,
 * a) is a.exp_()); any other overlap between dst and a reads a snapshot of a.
 * @param op a TENSOR_UOP_* value.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL, unknown op); TENSOR_E_SHAPE;
 *         TENSOR_E_DTYPE (a dtype the op refuses, or a result not castable to
 *         dst's dtype); TENSOR_E_READONLY (dst read-only); TENSOR_E_OVERLAP (dst
 *         has internal overlap, as tensor_copy); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 *         An empty dst with a valid operand does nothing.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_unary_into(tensor_t *dst, tensor_unary_op_t op, const tensor_t *a);

/**
 * e^a, element-wise in a new tensor (tensor_unary with TENSOR_UOP_EXP). bool
 * and integers give float32. float32/float64: within 1.0 ULP (SLEEF u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_exp(tensor_t **out, const tensor_t *a);

/**
 * 2^a, element-wise in a new tensor (tensor_unary with TENSOR_UOP_EXP2). bool
 * and integers give float32. float32/float64: within 1.0 ULP (SLEEF u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DTYPE
 *         (complex); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_exp2(tensor_t **out, const tensor_t *a);

/**
 * e^a - 1, element-wise in a new tensor (tensor_unary with TENSOR_UOP_EXPM1).
 * bool and integers give float32. float32/float64: within 1.0 ULP (SLEEF u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DTYPE
 *         (complex); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_expm1(tensor_t **out, const tensor_t *a);

/**
 * the natural logarithm (log 0 is -inf, negatives give NaN), element-wise in a
 * new tensor (tensor_unary with TENSOR_UOP_LOG). bool and integers give
 * float32. float32/float64: within 1.0 ULP (SLEEF u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_log(tensor_t **out, const tensor_t *a);

/**
 * the base-2 logarithm, element-wise in a new tensor (tensor_unary with
 * TENSOR_UOP_LOG2). bool and integers give float32. float32/float64: within 1.0
 * ULP (SLEEF u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_log2(tensor_t **out, const tensor_t *a);

/**
 * the base-10 logarithm, element-wise in a new tensor (tensor_unary with
 * TENSOR_UOP_LOG10). bool and integers give float32. float32/float64: within
 * 1.0 ULP (SLEEF u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_log10(tensor_t **out, const tensor_t *a);

/**
 * log(1 + a), element-wise in a new tensor (tensor_unary with
 * TENSOR_UOP_LOG1P). bool and integers give float32. float32/float64: within
 * 1.0 ULP (SLEEF u10; beyond 1e30 (float32) or 1e300 (float64), log(a), where
 * SLEEF's log1p and PyTorch 1.13's vector path give inf from ~1e38 / ~1e307).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DTYPE
 *         (complex); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_log1p(tensor_t **out, const tensor_t *a);

/**
 * the square root (sqrt(-0) is -0, negatives give NaN), element-wise in a new
 * tensor (tensor_unary with TENSOR_UOP_SQRT). bool and integers give float32.
 * float32/float64: within 0.5 ULP (correctly rounded).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_sqrt(tensor_t **out, const tensor_t *a);

/**
 * 1 / sqrt(a), element-wise in a new tensor (tensor_unary with
 * TENSOR_UOP_RSQRT). bool and integers give float32. float32/float64: within
 * 1.5 ULP (a rounded square root, then a rounded division).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_rsqrt(tensor_t **out, const tensor_t *a);

/**
 * the sine, element-wise in a new tensor (tensor_unary with TENSOR_UOP_SIN).
 * bool and integers give float32. float32/float64: within 1.0 ULP (SLEEF u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_sin(tensor_t **out, const tensor_t *a);

/**
 * the cosine, element-wise in a new tensor (tensor_unary with TENSOR_UOP_COS).
 * bool and integers give float32. float32/float64: within 1.0 ULP (SLEEF u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_cos(tensor_t **out, const tensor_t *a);

/**
 * the tangent, element-wise in a new tensor (tensor_unary with TENSOR_UOP_TAN).
 * bool and integers give float32. float32/float64: within 1.0 ULP (SLEEF u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_tan(tensor_t **out, const tensor_t *a);

/**
 * the arcsine (|a| > 1 gives NaN), element-wise in a new tensor (tensor_unary
 * with TENSOR_UOP_ASIN). bool and integers give float32. float32/float64:
 * within 1.0 ULP (SLEEF u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_asin(tensor_t **out, const tensor_t *a);

/**
 * the arccosine (|a| > 1 gives NaN), element-wise in a new tensor (tensor_unary
 * with TENSOR_UOP_ACOS). bool and integers give float32. float32/float64:
 * within 1.0 ULP (SLEEF u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_acos(tensor_t **out, const tensor_t *a);

/**
 * the arctangent, element-wise in a new tensor (tensor_unary with
 * TENSOR_UOP_ATAN). bool and integers give float32. float32/float64: within 1.0
 * ULP (SLEEF u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_atan(tensor_t **out, const tensor_t *a);

/**
 * the hyperbolic sine, element-wise in a new tensor (tensor_unary with
 * TENSOR_UOP_SINH). bool and integers give float32. float32/float64: within
 * 1.0 ULP (SLEEF u10) for |a| <= 88 (float32) or 709 (float64), 2.5 ULP beyond.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_sinh(tensor_t **out, const tensor_t *a);

/**
 * the hyperbolic cosine, element-wise in a new tensor (tensor_unary with
 * TENSOR_UOP_COSH). bool and integers give float32. float32/float64: within
 * 1.0 ULP (SLEEF u10) for |a| <= 88 (float32) or 709 (float64), 2.5 ULP beyond.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_cosh(tensor_t **out, const tensor_t *a);

/**
 * the hyperbolic tangent, element-wise in a new tensor (tensor_unary with
 * TENSOR_UOP_TANH). bool and integers give float32. float32/float64: within 3.5
 * ULP (SLEEF u35, twice as fast as its u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_tanh(tensor_t **out, const tensor_t *a);

/**
 * 1 / (1 + e^-a), element-wise in a new tensor (tensor_unary with
 * TENSOR_UOP_SIGMOID). bool and integers give float32. float32/float64: within
 * 2.0 ULP (SLEEF u10 exp, then a rounded addition and division).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_sigmoid(tensor_t **out, const tensor_t *a);

/**
 * max(a, 0), keeping NaN and -0 (as PyTorch's clamp_min), element-wise in a new
 * tensor (tensor_unary with TENSOR_UOP_RELU). Integers keep their dtype. Exact.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DTYPE (bool,
 *         complex); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_relu(tensor_t **out, const tensor_t *a);

/**
 * a/2 * (1 + erf(a / sqrt 2)), PyTorch's default (erf) form, element-wise in a
 * new tensor (tensor_unary with TENSOR_UOP_GELU). float32/float64: within 3 ULP
 * for a > -1 (SLEEF u10 erf); below, 1 + erf cancels and relative accuracy is
 * lost, as in PyTorch's own formula.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DTYPE (bool,
 *         integers, complex); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_gelu(tensor_t **out, const tensor_t *a);

/**
 * the error function, element-wise in a new tensor (tensor_unary with
 * TENSOR_UOP_ERF). bool and integers give float32. float32/float64: within 1.0
 * ULP (SLEEF u10).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DTYPE
 *         (complex); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_erf(tensor_t **out, const tensor_t *a);

/**
 * rounded down, element-wise in a new tensor (tensor_unary with
 * TENSOR_UOP_FLOOR). Integers are returned as they are. Exact.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DTYPE (bool,
 *         complex); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_floor(tensor_t **out, const tensor_t *a);

/**
 * rounded up, element-wise in a new tensor (tensor_unary with TENSOR_UOP_CEIL).
 * Integers are returned as they are. Exact.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DTYPE (bool,
 *         complex); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_ceil(tensor_t **out, const tensor_t *a);

/**
 * rounded to the nearest integer, halves to even (as PyTorch), element-wise in
 * a new tensor (tensor_unary with TENSOR_UOP_ROUND). Integers are returned as
 * they are. Exact.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DTYPE (bool,
 *         complex); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_round(tensor_t **out, const tensor_t *a);

/**
 * rounded toward zero, element-wise in a new tensor (tensor_unary with
 * TENSOR_UOP_TRUNC). Integers are returned as they are. Exact.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DTYPE (bool,
 *         complex); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_trunc(tensor_t **out, const tensor_t *a);

/**
 * a - trunc(a), with a's sign (inf gives NaN), element-wise in a new tensor
 * (tensor_unary with TENSOR_UOP_FRAC). Exact.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DTYPE (bool,
 *         integers, complex); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_frac(tensor_t **out, const tensor_t *a);

/**
 * -1, 0 or 1 (NaN and both zeros give +0; bool stays bool), element-wise in a
 * new tensor (tensor_unary with TENSOR_UOP_SIGN). Integers and bool keep their
 * dtype. Exact.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DTYPE
 *         (complex, as PyTorch 1.13); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_sign(tensor_t **out, const tensor_t *a);

/**
 * 1 / a, element-wise in a new tensor (tensor_unary with
 * TENSOR_UOP_RECIPROCAL). bool and integers give float32. float32/float64:
 * within 0.5 ULP (correctly rounded).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_reciprocal(tensor_t **out, const tensor_t *a);

/**
 * a * a (integers wrap; bool gives int64, as PyTorch's pow(a, 2)), element-wise
 * in a new tensor (tensor_unary with TENSOR_UOP_SQUARE). Every dtype keeps its
 * own but bool. float32/float64: within 0.5 ULP (correctly rounded).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_square(tensor_t **out, const tensor_t *a);

/**
 * whether a is NaN (complex: either part), as bool, element-wise in a new
 * tensor (tensor_unary with TENSOR_UOP_ISNAN).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_isnan(tensor_t **out, const tensor_t *a);

/**
 * whether a is +-inf (complex: either part), as bool, element-wise in a new
 * tensor (tensor_unary with TENSOR_UOP_ISINF).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_isinf(tensor_t **out, const tensor_t *a);

/**
 * whether a is neither NaN nor +-inf (complex: both parts), as bool, element-
 * wise in a new tensor (tensor_unary with TENSOR_UOP_ISFINITE).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_isfinite(tensor_t **out, const tensor_t *a);

/**
 * a == 0 (complex: both parts), as bool, element-wise in a new tensor
 * (tensor_unary with TENSOR_UOP_LOGICAL_NOT).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_logical_not(tensor_t **out, const tensor_t *a);

/**
 * ~a (bool: not a), in a's dtype, element-wise in a new tensor (tensor_unary
 * with TENSOR_UOP_BITWISE_NOT).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments); TENSOR_E_DTYPE (float,
 *         complex); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_bitwise_not(tensor_t **out, const tensor_t *a);

/**
 * torch.sum(t, dims, keepdim): a new contiguous tensor reducing `dims` (ndims of
 * them, negative counted from the end, each at most once; ndims 0 reduces every
 * dim, as PyTorch's empty dim list); keepdim 1 keeps them as size 1. bool and
 * integer inputs give int64 (wrapping on overflow; uint64 values are summed
 * modulo 2^64), others keep their dtype; float16/bfloat16 accumulate in
 * float32. Floating sums are pairwise: for n elements reduced,
 * |computed - exact| <= (ceil(log2 n) + 32) * eps * sum|x_i|
 * (eps = 2^-24 for float32/float16/bfloat16 accumulation, 2^-53 for float64;
 * plus the final rounding to float16/bfloat16), whatever the layout.
 * An empty reduction gives 0.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/t, dims NULL with ndims > 0,
 *         ndims < 0, dim out of range or repeated, keepdim not 0/1);
 *         TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_sum(tensor_t **out, const tensor_t *t, int64_t ndims,
                                       const int64_t *dims, int32_t keepdim);
/**
 * torch.mean, as tensor_sum divided by the count reduced, in t's dtype, which
 * must be float or complex (else TENSOR_E_DTYPE); an empty reduction gives NaN.
 * float16/bfloat16 divide in float32 and round once (PyTorch rounds the sum
 * first, so its results can differ by one unit in the last place).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_mean(tensor_t **out, const tensor_t *t, int64_t ndims,
                                        const int64_t *dims, int32_t keepdim);
/** torch.prod, as tensor_sum (an empty reduction gives 1; not pairwise). @since 0.2 */
CTENSOR_API tensor_status_t tensor_prod(tensor_t **out, const tensor_t *t, int64_t ndims,
                                        const int64_t *dims, int32_t keepdim);
/**
 * torch.amax: the largest element over `dims`, in t's dtype (NaN wins; bool is
 * any). A reduced dim of size 0 (or every dim of an empty t) is TENSOR_E_SHAPE;
 * complex is TENSOR_E_DTYPE. Otherwise as tensor_sum.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_amax(tensor_t **out, const tensor_t *t, int64_t ndims,
                                        const int64_t *dims, int32_t keepdim);
/** torch.amin, as tensor_amax (bool is all). @since 0.2 */
CTENSOR_API tensor_status_t tensor_amin(tensor_t **out, const tensor_t *t, int64_t ndims,
                                        const int64_t *dims, int32_t keepdim);

/**
 * The single element of t (numel 1, any ndim) converted to float64 with the
 * conversion rules of tensor_copy (complex: the real part).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL); TENSOR_E_SHAPE (numel != 1);
 *         TENSOR_E_DEVICE.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_item_float64(double *out, const tensor_t *t);
/**
 * As tensor_item_float64, converted to int64 (floats truncate toward zero and
 * saturate, NaN gives 0; uint64 above INT64_MAX wraps).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_item_int64(int64_t *out, const tensor_t *t);

/**
 * torch.cat: a new contiguous tensor joining the n tensors along `dim` (range of
 * the first tensor with dims), in their promoted dtype (torch.promote_types over
 * all). Every tensor needs the same ndim and equal sizes except along dim; 1-D
 * tensors of size 0 are skipped (PyTorch's legacy rule).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/tensors or element, n < 1, dim
 *         out of range, a 0-dim tensor); TENSOR_E_SHAPE (ndim or sizes differ);
 *         TENSOR_E_DTYPE (no common dtype); TENSOR_E_OVERFLOW; TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_cat(tensor_t **out, int64_t n, const tensor_t *const *tensors,
                                       int64_t dim);
/**
 * torch.stack: the n tensors (all the same shape, 0-dim allowed) joined along a
 * new dim `dim` (range [-ndim-1, ndim]), promoted as tensor_cat.
 * @return as tensor_cat (TENSOR_E_SHAPE when shapes differ).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_stack(tensor_t **out, int64_t n, const tensor_t *const *tensors,
                                         int64_t dim);

/**
 * torch.equal: *out is 1 if a and b have the same sizes and every pair of
 * elements compares equal in their result type (NaN never does), else 0.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL); TENSOR_E_DTYPE (no result type);
 *         TENSOR_E_DEVICE.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_equal(int32_t *out, const tensor_t *a, const tensor_t *b);
/**
 * torch.allclose: *out is 1 if, for every pair of elements of a and b
 * (broadcast), a == b, or both are NaN and equal_nan is 1, or |a - b| is finite
 * and <= atol + rtol * |b|; else 0. a and b must have the same dtype (as
 * PyTorch). The test is evaluated in float64 (complex128 for complex), which
 * is exact for integers (PyTorch subtracts integers in their own dtype, which
 * can wrap); for float inputs the result differs from PyTorch's only when
 * |a - b| lies within rounding of the tolerance.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL, rtol or atol negative or NaN,
 *         equal_nan not 0/1); TENSOR_E_SHAPE (no broadcast); TENSOR_E_DTYPE
 *         (dtypes differ); TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_allclose(int32_t *out, const tensor_t *a, const tensor_t *b, double rtol,
                                            double atol, int32_t equal_nan);

/**
 * torch.clamp(a, min, max) in a new tensor: min(max(a, min), max) element-wise.
 * `min` may be NULL (no lower bound) and `max` may be NULL (no upper bound),
 * but not both. The bounds are tensors or
 * wrapped numbers (tensor_scalar_*); a, min and max broadcast together and
 * compute in their result type (torch.result_type over the three: int8 with
 * a scalar int bound stays int8, with a scalar float bound gives float32).
 * A NaN element of a stays NaN; a NaN bound gives NaN, except a NaN wrapped
 * number as the only bound, which PyTorch's clamp_min/clamp_max pass over
 * (a is returned converted); min > max gives max.
 * The result is laid out as the binary ops' (see above). clip is the same op.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param a the input (borrowed); min, max the bounds (borrowed).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/a, min and max both NULL);
 *         TENSOR_E_SHAPE (no broadcast); TENSOR_E_DTYPE (complex input or
 *         bound, a bool result type with both bounds as in PyTorch, or no
 *         result type; with one bound bool is logical or/and);
 *         TENSOR_E_OVERFLOW; TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_clamp(tensor_t **out, const tensor_t *a, const tensor_t *min,
                                         const tensor_t *max);
/**
 * dst = clamp(a, min, max) with tensor_binary_into's out= rules: dst has the
 * broadcast shape, the result type can be cast to dst's dtype; dst may be a
 * itself (in-place clamp_) or overlap any input. As for tensor_clamp,
 * `min` may be NULL and `max` may be NULL, but not both.
 * @return as tensor_clamp; also TENSOR_E_INVALID (dst NULL), TENSOR_E_SHAPE
 *         (dst's shape), TENSOR_E_DTYPE (no cast), TENSOR_E_READONLY,
 *         TENSOR_E_OVERLAP (dst has internal overlap).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_clamp_into(tensor_t *dst, const tensor_t *a, const tensor_t *min,
                                              const tensor_t *max);
/**
 * torch.where(cond, a, b) in a new tensor: a where cond is true, else b;
 * cond, a and b broadcast together, a and b are converted to their result
 * type (torch.result_type(a, b); either may be a wrapped number). cond must
 * be bool or uint8 (non-zero is true; PyTorch 1.13 still takes uint8). The
 * result is laid out as the binary ops' over cond, a and b.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL); TENSOR_E_SHAPE (no broadcast);
 *         TENSOR_E_DTYPE (cond of another dtype, no result type);
 *         TENSOR_E_OVERFLOW; TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_where(tensor_t **out, const tensor_t *cond, const tensor_t *a,
                                         const tensor_t *b);
/**
 * dst = where(cond, a, b) with the out= rules of tensor_clamp_into.
 * @return as tensor_where and tensor_clamp_into.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_where_into(tensor_t *dst, const tensor_t *cond, const tensor_t *a,
                                              const tensor_t *b);
/**
 * torch.argmax(t, dim, keepdim): a new contiguous int64 tensor of the index of
 * the first largest element along `dim` (negative counts from the end; a 0-dim
 * t takes 0 or -1 and gives 0). dim TENSOR_ALL_DIMS searches the flattened
 * tensor (C order) and gives a 0-dim result, or with keepdim 1 one of t's ndim
 * with every size 1. NaN is larger than every number (the first NaN wins).
 * @param keepdim 1 keeps the reduced dim as size 1, 0 drops it.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out/t, dim out of range, keepdim
 *         not 0/1); TENSOR_E_SHAPE (the reduced dim has size 0, or
 *         TENSOR_ALL_DIMS over no elements, as PyTorch's error);
 *         TENSOR_E_DTYPE (bool or complex, as PyTorch, which does not check
 *         when the result is empty or `dim` has size 1: zeros then);
 *         TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_argmax(tensor_t **out, const tensor_t *t, int64_t dim, int32_t keepdim);
/** torch.argmin, as tensor_argmax (NaN is smaller than every number). @since 0.2 */
CTENSOR_API tensor_status_t tensor_argmin(tensor_t **out, const tensor_t *t, int64_t dim, int32_t keepdim);
/**
 * dst = argmax(t, dim, keepdim): dst must have the result's shape and, as
 * PyTorch's out=, dtype int64.
 * @return as tensor_argmax; also TENSOR_E_INVALID (dst NULL), TENSOR_E_SHAPE
 *         (dst's shape), TENSOR_E_DTYPE (dst not int64), TENSOR_E_READONLY,
 *         TENSOR_E_OVERLAP (dst has internal overlap).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_argmax_into(tensor_t *dst, const tensor_t *t, int64_t dim,
                                               int32_t keepdim);
/** dst = argmin(t, dim, keepdim), as tensor_argmax_into. @since 0.2 */
CTENSOR_API tensor_status_t tensor_argmin_into(tensor_t *dst, const tensor_t *t, int64_t dim,
                                               int32_t keepdim);
/**
 * torch.cumsum(t, dim): a new contiguous tensor of t's shape whose element k
 * along `dim` is the sum of elements 0..k. bool and integer inputs give int64
 * (wrapping on overflow), other dtypes keep theirs. The running sum is kept
 * as PyTorch's CPU kernel keeps it: in float64 for float32 and float64, in
 * complex128 for complex, in float32 for float16 and bfloat16 (PyTorch 1.13
 * refuses float16 here; ctensor computes it as bfloat16), and each element is
 * rounded once. There is no dtype argument: convert first (tensor_to).
 * @param dim the dim (negative counts from the end; 0 or -1 for a 0-dim t).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL, dim out of range);
 *         TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_cumsum(tensor_t **out, const tensor_t *t, int64_t dim);
/** torch.cumprod, as tensor_cumsum (the running product). @since 0.2 */
CTENSOR_API tensor_status_t tensor_cumprod(tensor_t **out, const tensor_t *t, int64_t dim);
/**
 * dst = cumsum(t, dim) with the out= rules of tensor_clamp_into (the result
 * dtype must be castable to dst's).
 * @return as tensor_cumsum and tensor_clamp_into.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_cumsum_into(tensor_t *dst, const tensor_t *t, int64_t dim);
/** dst = cumprod(t, dim), as tensor_cumsum_into. @since 0.2 */
CTENSOR_API tensor_status_t tensor_cumprod_into(tensor_t *dst, const tensor_t *t, int64_t dim);
/**
 * torch.softmax(t, dim): a new contiguous tensor of t's dtype and shape,
 * exp(x - max) / sum(exp(x - max)) along `dim` (the max subtracted, so large
 * inputs do not overflow). A lane holding NaN or +inf, or only -inf, gives NaN,
 * as PyTorch. float16 and bfloat16 compute in float32 and round once (PyTorch
 * 1.13 refuses float16 here); float32 in float32, float64 in float64.
 * @param dim the dim (negative counts from the end; 0 or -1 for a 0-dim t).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL, dim out of range);
 *         TENSOR_E_DTYPE (not a floating dtype, as PyTorch); TENSOR_E_DEVICE;
 *         TENSOR_E_NOMEM.
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_softmax(tensor_t **out, const tensor_t *t, int64_t dim);
/** torch.log_softmax: x - max - log(sum(exp(x - max))), as tensor_softmax. @since 0.2 */
CTENSOR_API tensor_status_t tensor_log_softmax(tensor_t **out, const tensor_t *t, int64_t dim);
/**
 * dst = softmax(t, dim): dst must have t's shape and, as PyTorch's out=, t's
 * dtype.
 * @return as tensor_softmax; also TENSOR_E_INVALID (dst NULL), TENSOR_E_SHAPE
 *         (dst's shape), TENSOR_E_DTYPE (dst's dtype), TENSOR_E_READONLY,
 *         TENSOR_E_OVERLAP (dst has internal overlap).
 * @since 0.2
 */
CTENSOR_API tensor_status_t tensor_softmax_into(tensor_t *dst, const tensor_t *t, int64_t dim);
/** dst = log_softmax(t, dim), as tensor_softmax_into. @since 0.2 */
CTENSOR_API tensor_status_t tensor_log_softmax_into(tensor_t *dst, const tensor_t *t, int64_t dim);

/* ------------------------------------------------------------------------- */
/* Experimental (as zstd's experimental section): exported, documented and   */
/* tested like the rest, but a 0.x minor release may still change their       */
/* signatures or behaviour. Everything above this section is stable.          */
/* Declared only for an includer that opts in by defining CTENSOR_EXPERIMENTAL */
/* before including ctensor.h (as zstd's ZSTD_STATIC_LINKING_ONLY).           */
/* ------------------------------------------------------------------------- */
#ifdef CTENSOR_EXPERIMENTAL

/**
 * at::from_blob: a tensor viewing caller memory of any strides, without copying.
 * `data` is the address of element [0,...,0] (so tensor_data() == data); strides
 * are in elements and may be negative or zero; `strides` NULL means contiguous. The new
 * storage covers exactly the bytes the view addresses, so later views stay
 * bounds-checked. `release(ctx)` runs once when the last view is gone; never on
 * failure. No alignment is required.
 * @param out receives the new tensor (a new reference), or NULL on failure.
 * @param data address of element [0,...,0] (may be NULL only without elements).
 * @param strides ndim strides in elements, or NULL for contiguous.
 * @param release called as release(ctx) once the last view is gone; may be NULL.
 * @param flags 0 or TENSOR_READONLY.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out, unknown dtype or flags, ndim
 *         outside [0, 64], NULL sizes with ndim > 0, negative size, NULL data with
 *         elements); TENSOR_E_OVERFLOW (element count, extents or addresses
 *         overflow); TENSOR_E_NOMEM.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_from_blob(tensor_t **out, void *data, tensor_dtype_t dtype, int64_t ndim,
                                             const int64_t *sizes, const int64_t *strides, uint32_t flags,
                                             tensor_release_fn release, void *ctx);

/**
 * Converts `count` contiguous elements at `src` (dtype `src_dtype`) into `dst`
 * (dtype `dst_dtype`) by the conversion rules above, exactly as tensor_copy
 * would; neither buffer needs alignment. For reading or writing single
 * elements without making tensors (e.g. any element as a float64).
 * @param dst, dst_dtype where to write count elements, and their dtype.
 * @param src, src_dtype what to read, and its dtype.
 * @return TENSOR_OK; TENSOR_E_INVALID (unknown dtype, count < 0, NULL dst or src
 *         with count > 0); TENSOR_E_OVERFLOW (count * element size overflows);
 *         TENSOR_E_OVERLAP (the two byte ranges overlap).
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_convert(void *dst, tensor_dtype_t dst_dtype, const void *src,
                                           tensor_dtype_t src_dtype, int64_t count);

/**
 * Tensor.diagonal(offset, dim1, dim2): a view of the diagonal of dims dim1 and
 * dim2 (removed) as a new last dim, of stride stride(dim1) + stride(dim2).
 * `offset` > 0 is above the main diagonal, < 0 below; an empty diagonal keeps t's
 * storage offset, as PyTorch's.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments, fewer than 2 dims, a dim
 *         out of range, dim1 == dim2); TENSOR_E_OVERFLOW; TENSOR_E_NOMEM.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_diagonal(tensor_t **out, const tensor_t *t, int64_t offset, int64_t dim1,
                                            int64_t dim2);

/**
 * Tensor.unfold(dim, size, step): sliding windows. Dim `dim` becomes the window
 * count (size(dim) - size) / step + 1 with stride step * stride(dim), and a new
 * last dim of `size` walks one window. A 0-dim tensor gives a 1-d result.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments, dim out of range, size < 0,
 *         step <= 0, 64 dims already); TENSOR_E_SHAPE (size > size(dim));
 *         TENSOR_E_NOMEM.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_unfold(tensor_t **out, const tensor_t *t, int64_t dim, int64_t size,
                                          int64_t step);

/**
 * torch.movedim(t, source, destination): dims source[i] move to destination[i]
 * (n of each, distinct after wrapping); the other dims keep their order. Also
 * moveaxis; swapdims/swapaxes are tensor_transpose.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments, n out of range, a dim out of
 *         range or repeated); TENSOR_E_NOMEM.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_movedim(tensor_t **out, const tensor_t *t, int64_t n, const int64_t *source,
                                           const int64_t *destination);

/**
 * Tensor.unflatten(dim, sizes): dim `dim` split into n dims of `sizes` (one may be
 * -1, inferred), as a view (tensor_view's rules for the strides).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments, n <= 0, a size < -1, a dim
 *         out of range, a 0-dim t, more than 64 dims); TENSOR_E_SHAPE (the sizes do
 *         not multiply up to size(dim), several -1); TENSOR_E_NOMEM.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_unflatten(tensor_t **out, const tensor_t *t, int64_t dim, int64_t n,
                                             const int64_t *sizes);

/**
 * torch.atleast_1d / atleast_2d / atleast_3d for min_dims 1, 2, 3: t itself as a
 * new view when it has min_dims dims or more; otherwise a 0-dim t viewed as [1],
 * [1, 1] or [1, 1, 1], a 1-d (n) as (1, n) or (1, n, 1), a 2-d (m, n) as (m, n, 1).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL arguments, min_dims not 1, 2 or 3);
 *         TENSOR_E_NOMEM.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_atleast(tensor_t **out, const tensor_t *t, int64_t min_dims);

/**
 * The splits: views of consecutive pieces of dim `dim`, as PyTorch's. They give
 * several new references, snprintf-style: the number of pieces goes to *count,
 * and the pieces to out[0 .. *count) when `capacity` holds them (out[*count ..
 * capacity) is set to NULL). `out` NULL with capacity 0 asks only for the count.
 *  - tensor_split: pieces of split_size elements, the last one shorter (split_size
 *    0 only for a dim of size 0, which gives one empty piece);
 *  - tensor_split_with_sizes: n pieces of sizes[i], which must sum to size(dim);
 *  - tensor_chunk: pieces of ceil(size(dim) / chunks), so possibly fewer than
 *    `chunks` (a dim of size 0 gives `chunks` empty pieces);
 *  - tensor_tensor_split: exactly `sections` pieces, the first size(dim) % sections
 *    of them one longer (np.array_split);
 *  - tensor_tensor_split_indices: n + 1 pieces cut at indices[i] (clamped and
 *    wrapped as slice bounds; a cut before the previous one gives an empty piece).
 * @param out      capacity handles to fill, or NULL with capacity 0.
 * @param capacity how many handles out holds.
 * @param count    receives the number of pieces (also when capacity is too small).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL count or t, out NULL with capacity > 0,
 *         capacity too small, a 0-dim t, dim out of range, split_size < 0, or 0 for a
 *         non-empty dim, chunks or sections <= 0, a negative size, n < 0);
 *         TENSOR_E_SHAPE (split sizes that do not sum to size(dim)); TENSOR_E_NOMEM.
 *         On failure out[0 .. capacity) is NULL.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_split(tensor_t **out, int64_t capacity, int64_t *count, const tensor_t *t,
                                         int64_t split_size, int64_t dim);
/** See tensor_split. @since 0.2 (experimental) */
CTENSOR_API tensor_status_t tensor_split_with_sizes(tensor_t **out, int64_t capacity, int64_t *count,
                                                    const tensor_t *t, int64_t n, const int64_t *sizes,
                                                    int64_t dim);
/** See tensor_split. @since 0.2 (experimental) */
CTENSOR_API tensor_status_t tensor_chunk(tensor_t **out, int64_t capacity, int64_t *count, const tensor_t *t,
                                         int64_t chunks, int64_t dim);
/** See tensor_split. @since 0.2 (experimental) */
CTENSOR_API tensor_status_t tensor_tensor_split(tensor_t **out, int64_t capacity, int64_t *count,
                                                const tensor_t *t, int64_t sections, int64_t dim);
/** See tensor_split; `indices` may be NULL when n is 0. @since 0.2 (experimental) */
CTENSOR_API tensor_status_t tensor_tensor_split_indices(tensor_t **out, int64_t capacity, int64_t *count,
                                                        const tensor_t *t, int64_t n, const int64_t *indices,
                                                        int64_t dim);

/**
 * torch.broadcast_tensors: views of the n tensors expanded (tensor_expand's strides)
 * to the shape they broadcast to together (dims aligned from the right, sizes equal
 * or 1). out[0 .. n) receive new references; on failure they are all NULL.
 * @param out     n handles to fill.
 * @param tensors n tensors (borrowed); `tensors` may be NULL when n is 0.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out, a NULL tensor, n < 0);
 *         TENSOR_E_SHAPE (the shapes do not broadcast; the message names the two);
 *         TENSOR_E_NOMEM.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_broadcast_tensors(tensor_t **out, int64_t n, const tensor_t *const *tensors);

/**
 * torch.conj_physical: the complex conjugates of a's values in a new tensor
 * (laid out as tensor_neg's result); a tensor of any other dtype gives a itself
 * (*out is a with one more reference), as PyTorch's.
 * @param out receives the result (a new reference), or NULL on failure.
 * @param a the input (borrowed; may be read-only, any strides).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out or a); TENSOR_E_DEVICE (complex a
 *         not in CPU memory); TENSOR_E_NOMEM.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_conj_physical(tensor_t **out, const tensor_t *a);

/**
 * torch.conj, for a library without a conjugate bit: as tensor_conj_physical,
 * but a complex result is read-only and laid out as tensor_empty_like's
 * TENSOR_PRESERVE_FORMAT (as PyTorch's resolve_conj() lays out the view). PyTorch returns a lazy conjugate view whose
 * writes reach `a`; here the values are computed, and a write into them fails
 * with TENSOR_E_READONLY instead of silently missing `a`. Use
 * tensor_conj_physical for a writable copy.
 * @return as tensor_conj_physical.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_conj(tensor_t **out, const tensor_t *a);

/**
 * Whether t views conjugates that tensor_conj computed, where PyTorch would have
 * a lazy conjugate view with its conjugate bit set: 1 for tensor_conj's complex
 * results and every view of them, 0 for anything else (copies and op results of
 * them included, as PyTorch's resolved tensors; tensor_conj of such a tensor too,
 * as PyTorch's conjugate of a conjugate view), and 0 for NULL. Bindings use it
 * where PyTorch refuses a conjugate view (its numpy()).
 * @since 0.2 (experimental)
 */
CTENSOR_API int32_t tensor_is_conj(const tensor_t *t);

/* ---- Memory formats and conversion policies (experimental) -------------- */
/* What PyTorch's bindings need beyond the C conventions above: tensors made */
/* "like" another keeping its layout, and PyTorch's own conversion results.  */

/** Memory formats: the layout of a tensor made like t (torch.preserve_format, torch.contiguous_format). */
#define TENSOR_PRESERVE_FORMAT 0   /**< t's strides if t is non-overlapping and dense, else t's dim order, dense */
#define TENSOR_CONTIGUOUS_FORMAT 1 /**< C order */

/*
 * Conversion policies of tensor_copy_with and tensor_to_with.
 * TENSOR_CONVERT_LIBRARY is the "Conversion rules" above (what tensor_copy and
 * tensor_to do). TENSOR_CONVERT_TORCH_X86 gives PyTorch 1.13's results on x86-64,
 * bit for bit except NaN payloads, and differs from the library's rules only in:
 *  - float/complex -> int8, int16, int32: truncation to a 32-bit integer, whose
 *    NaN and out-of-range result is INT32_MIN, then the low bits (cvttsd2si):
 *    1e10 -> int16 0, 300.5 -> int8 44, NaN -> int32 INT32_MIN;
 *  - float/complex -> uint8, int64: the same through a 64-bit integer (INT64_MIN):
 *    -3.7 -> uint8 253, 256.0 -> uint8 0, inf -> int64 INT64_MIN;
 *  - float64, complex128, int32, int64 -> float16/bfloat16: rounded to float32
 *    first, then again (c10::Half and c10::BFloat16 are made from a float):
 *    float64 1 + 2^-11 + 2^-40 -> float16 1.0, int32 2^24 + 2^16 + 1 -> bfloat16 2^24;
 *  - complex -> bool: the real part alone (0+1j -> false).
 * float16/bfloat16 sources convert as their float32 value; complex ones by their
 * real part. uint16/uint32/uint64 (not PyTorch 1.13 dtypes) keep the library's rules.
 * Both run at the copy engine's speed (vector kernels included).
 */
#define TENSOR_CONVERT_LIBRARY 0u
#define TENSOR_CONVERT_TORCH_X86 1u

/**
 * torch.empty_like(t, dtype=dtype, memory_format=...): a new writable tensor of
 * t's shape in `dtype`, uninitialised. TENSOR_PRESERVE_FORMAT gives PyTorch's
 * strides exactly: t's own strides when t is non-overlapping and dense (PyTorch's
 * is_non_overlapping_and_dense: t has no elements, or the strides of its dims of
 * size >= 2, sorted, are 1, size, size * size', ...; a size-1 dim may have any
 * stride, kept as it is), else dense strides in t's dims' order by stride
 * magnitude (negative strides by their magnitude, ties by size, zero-stride dims
 * where they are, as at::infer_dense_strides). TENSOR_CONTIGUOUS_FORMAT gives C
 * order. t's elements are not read (any device, any dtype).
 * @param out receives the new tensor (a new reference), NULL on failure.
 * @param t the tensor whose shape and layout are taken (borrowed).
 * @param dtype the new tensor's dtype.
 * @param memory_format TENSOR_PRESERVE_FORMAT or TENSOR_CONTIGUOUS_FORMAT.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out or t, unknown dtype or memory
 *         format); TENSOR_E_OVERFLOW (the byte count); TENSOR_E_NOMEM.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_empty_like(tensor_t **out, const tensor_t *t, tensor_dtype_t dtype,
                                              int32_t memory_format);

/** As tensor_empty_like, zero-filled (torch.zeros_like). @since 0.2 (experimental) */
CTENSOR_API tensor_status_t tensor_zeros_like(tensor_t **out, const tensor_t *t, tensor_dtype_t dtype,
                                              int32_t memory_format);

/**
 * tensor_copy converting by a policy: dst[...] = src, broadcast, with src's
 * elements converted to dst's dtype by `conversion`.
 * @param dst the destination (written in place).
 * @param src the source (read; may share memory with dst).
 * @param conversion TENSOR_CONVERT_LIBRARY or TENSOR_CONVERT_TORCH_X86.
 * @return as tensor_copy, and TENSOR_E_INVALID for an unknown conversion.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_copy_with(tensor_t *dst, const tensor_t *src, uint32_t conversion);

/**
 * tensor_to with a layout and a policy (Tensor.to(dtype, copy=..., memory_format=...)):
 * t converted to `dtype` by `conversion`, under tensor_to's copy modes (the
 * memory format does not decide whether to copy: a matching dtype shares t
 * under TENSOR_COPY_IF_NEEDED whatever its layout); a copy is a new writable
 * tensor laid out as tensor_empty_like's `memory_format` gives.
 * tensor_to(out, t, dtype, copy) is tensor_to_with(out, t, dtype, copy,
 * TENSOR_CONTIGUOUS_FORMAT, TENSOR_CONVERT_LIBRARY), and t.clone(memory_format=...)
 * is tensor_to_with(out, t, tensor_dtype(t), TENSOR_COPY_ALWAYS, memory_format, any).
 * @param out receives t itself (one more reference) or a new tensor.
 * @param t the input tensor.
 * @param dtype the result's dtype.
 * @param copy TENSOR_COPY_IF_NEEDED, TENSOR_COPY_ALWAYS or TENSOR_COPY_NEVER.
 * @param memory_format TENSOR_PRESERVE_FORMAT or TENSOR_CONTIGUOUS_FORMAT.
 * @param conversion TENSOR_CONVERT_LIBRARY or TENSOR_CONVERT_TORCH_X86.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out or t, unknown dtype, mode, memory
 *         format or conversion); TENSOR_E_COPY; TENSOR_E_DEVICE; TENSOR_E_NOMEM.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_to_with(tensor_t **out, tensor_t *t, tensor_dtype_t dtype, int32_t copy,
                                           int32_t memory_format, uint32_t conversion);

/* ---- end of memory formats and conversion policies ---------------------- */

/* ------------------------------------------------------------------------- */
/* Experimental: advanced indexing (integer index tensors and masks)          */
/* ------------------------------------------------------------------------- */

/**
 * Advanced indexing with integer index tensors, as a copy: NumPy's and
 * PyTorch's t[..., i0, ..., i1, ...], where index tensor indices[k] picks
 * positions along dim dims[k] of t. The n index tensors broadcast together
 * (dims aligned from the right) to a shape B. The result is t's shape with the
 * indexed dims taken out and B's dims put in: where the first indexed dim was
 * when the indexed dims are adjacent (dims[k + 1] == dims[k] + 1), else in
 * front (NumPy's rule, which PyTorch follows). Its element at B-coordinate b
 * and other coordinates c is t's element at indices[k][b] on dim dims[k] and c
 * on the other dims. Basic items (ints, slices, new axes) index a view first
 * (tensor_index); a boolean mask over dims [d, d + m) is the m columns of
 * tensor_nonzero(mask), used on dims d, ..., d + m - 1.
 *
 * Index tensors may have any integer dtype and any strides; negative values
 * count from the end of their dim. uint8 index tensors hold indices too, as in
 * NumPy (PyTorch reads a uint8 index tensor as a mask, deprecated since 1.2: a
 * binding that wants this passes it through tensor_nonzero). Every index is
 * checked, also where the result has no elements. The result is a new
 * contiguous tensor of t's dtype; bool elements are stored as 0/1, as
 * tensor_copy stores them.
 * @param out     receives the result (a new reference), or NULL on failure.
 * @param t       the tensor indexed (borrowed).
 * @param n       the number of index tensors, 1 to t's ndim.
 * @param dims    the n dims they index, strictly ascending once negative dims
 *                are wrapped.
 * @param indices the n index tensors (borrowed).
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out, t, dims, indices or index
 *         tensor, n outside [1, ndim], a dim out of range, dims not ascending,
 *         a result of more than 64 dims); TENSOR_E_DTYPE (an index tensor whose
 *         dtype is not an integer one; bool masks go through tensor_nonzero);
 *         TENSOR_E_SHAPE (the index tensors do not broadcast; the message names
 *         their shapes); TENSOR_E_BOUNDS (an index outside its dim; the message
 *         names the first in C order of B for the lowest k, e.g. "index 5 is out
 *         of bounds for dimension 0 with size 3"); TENSOR_E_OVERFLOW (the
 *         result's element count); TENSOR_E_DEVICE (t or an index tensor is not
 *         in CPU memory); TENSOR_E_NOMEM.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_index_gather(tensor_t **out, const tensor_t *t, int64_t n, const int64_t *dims,
                                                const tensor_t *const *indices);

/**
 * Assignment through advanced indexing, t[..., i0, ..., i1, ...] = values
 * (PyTorch's index_put_ without accumulate): `values`, broadcast (dims
 * aligned from the right) to the shape tensor_index_gather would give, is
 * written into the elements of t that tensor_index_gather would read, converted
 * to t's dtype by the conversion rules, as tensor_copy converts. Values and
 * index tensors that share memory with t are read as they were before the call
 * (PyTorch refuses such index tensors; NumPy 1.24 reads them while it writes,
 * and crashes when a write makes one out of range). An element that
 * several positions name is written in C order of the broadcast index shape,
 * so the last of them wins (PyTorch leaves this unspecified; here it is fixed).
 * There is no accumulating form. Every check, every index included, comes
 * before the first write, so a refused call leaves t unchanged. When the indexing
 * result has no elements nothing is written and, as with tensor_copy into an
 * empty tensor, only the arguments, shapes and indices are checked.
 * @param t       the tensor written (borrowed): writable, no internal overlap.
 * @param n, dims, indices as tensor_index_gather's.
 * @param values  the values (borrowed), of any dtype.
 * @return TENSOR_OK; TENSOR_E_INVALID, TENSOR_E_DTYPE, TENSOR_E_BOUNDS,
 *         TENSOR_E_OVERFLOW as tensor_index_gather (NULL values too);
 *         TENSOR_E_SHAPE (the index tensors do not broadcast, or values does not
 *         broadcast to the indexing result); TENSOR_E_READONLY (t is read-only,
 *         as tensor_copy); TENSOR_E_OVERLAP (t has internal overlap, e.g. an
 *         expanded view, as tensor_copy); TENSOR_E_DEVICE (t, values or an index
 *         tensor is not in CPU memory); TENSOR_E_NOMEM.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_index_put(tensor_t *t, int64_t n, const int64_t *dims,
                                             const tensor_t *const *indices, const tensor_t *values);

/**
 * torch.nonzero(t) (NumPy's argwhere): the coordinates of t's non-zero
 * elements in C order, one row each, as a new contiguous int64 tensor of
 * [count, ndim] (a 0-dim t gives [1, 0] or [0, 0]). Non-zero is the conversion
 * rule to bool: x != 0, so NaN counts and -0.0 does not, complex counts if
 * either part is non-zero. Column d (tensor_select(&c, out, 1, d)) indexes
 * dim d: the columns are a mask's index tensors for tensor_index_gather.
 * @return TENSOR_OK; TENSOR_E_INVALID (NULL out or t); TENSOR_E_DEVICE (t is
 *         not in CPU memory); TENSOR_E_NOMEM.
 * @since 0.2 (experimental)
 */
CTENSOR_API tensor_status_t tensor_nonzero(tensor_t **out, const tensor_t *t);

#endif /* CTENSOR_EXPERIMENTAL */

#ifdef __cplusplus
}
#endif

#endif /* CTENSOR_H */
