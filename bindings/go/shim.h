/*
 * shim.h - the C half of the Go binding.
 *
 * The last-error message is thread-local and a goroutine may move to another
 * thread between two cgo calls, so every fallible function is called through a
 * ct_* wrapper that calls it and copies the message in the same C call. The
 * wrappers return a ct_result by value, so no Go pointer is handed to C for
 * the result. Adding a function to the binding is one CT_OUT or CT_STATUS line
 * here and one Go method.
 */
#ifndef CTENSOR_GO_SHIM_H
#define CTENSOR_GO_SHIM_H

#include <stdlib.h>
#include <string.h>

#include <ctensor.h>
#include <ctensor_arrow.h>

typedef struct {
  void *out;              /* the new reference on success, else NULL */
  tensor_status_t status; /* TENSOR_OK or the failure's status */
  char *message;          /* on failure a malloc'd copy of tensor_last_error(), else NULL */
} ct_result;

static inline ct_result ct_finish(tensor_status_t status, void *out) {
  ct_result r = {out, status, NULL};
  if (status != TENSOR_OK) r.message = strdup(tensor_last_error());
  return r;
}

/* ct_NAME(params) for a function tensor_NAME(&out, args...) giving a new reference. */
#define CT_OUT(name, type, params, ...)                                \
  static inline ct_result ct_##name params {                           \
    type *out = NULL;                                                  \
    tensor_status_t status = tensor_##name(&out, __VA_ARGS__);         \
    return ct_finish(status, out);                                     \
  }

/* ct_NAME(params) for a function tensor_NAME(args...) that only returns a status. */
#define CT_STATUS(name, params, ...) \
  static inline ct_result ct_##name params { return ct_finish(tensor_##name(__VA_ARGS__), NULL); }


/* Storage and creation */
CT_OUT(storage_new, tensor_storage_t, (size_t nbytes), nbytes)
CT_OUT(from_storage, tensor_t,
       (tensor_storage_t * s, tensor_dtype_t dtype, int64_t ndim, const int64_t *sizes, const int64_t *strides,
        int64_t offset),
       s, dtype, ndim, sizes, strides, offset)
CT_OUT(empty, tensor_t, (int64_t ndim, const int64_t *sizes, tensor_dtype_t dtype), ndim, sizes, dtype)
CT_OUT(zeros, tensor_t, (int64_t ndim, const int64_t *sizes, tensor_dtype_t dtype), ndim, sizes, dtype)
CT_OUT(from_data, tensor_t, (const void *data, int64_t ndim, const int64_t *sizes, tensor_dtype_t dtype),
       data, ndim, sizes, dtype)

/* Views */
CT_OUT(as_strided, tensor_t,
       (const tensor_t *t, int64_t ndim, const int64_t *sizes, const int64_t *strides, int64_t offset), t, ndim,
       sizes, strides, offset)
CT_OUT(view, tensor_t, (const tensor_t *t, int64_t ndim, const int64_t *sizes), t, ndim, sizes)
CT_OUT(reshape, tensor_t, (const tensor_t *t, int64_t ndim, const int64_t *sizes), t, ndim, sizes)
CT_OUT(transpose, tensor_t, (const tensor_t *t, int64_t d0, int64_t d1), t, d0, d1)
CT_OUT(permute, tensor_t, (const tensor_t *t, int64_t ndim, const int64_t *dims), t, ndim, dims)
CT_OUT(slice, tensor_t, (const tensor_t *t, int64_t dim, int64_t start, int64_t stop, int64_t step),
       t, dim, start, stop, step)
CT_OUT(select, tensor_t, (const tensor_t *t, int64_t dim, int64_t index), t, dim, index)
CT_OUT(narrow, tensor_t, (const tensor_t *t, int64_t dim, int64_t start, int64_t length), t, dim,
       start, length)
CT_OUT(expand, tensor_t, (const tensor_t *t, int64_t ndim, const int64_t *sizes), t, ndim, sizes)
CT_OUT(broadcast_to, tensor_t, (const tensor_t *t, int64_t ndim, const int64_t *sizes), t, ndim, sizes)
CT_OUT(squeeze, tensor_t, (const tensor_t *t, int64_t dim), t, dim)
CT_OUT(unsqueeze, tensor_t, (const tensor_t *t, int64_t dim), t, dim)
CT_OUT(flatten, tensor_t, (const tensor_t *t, int64_t start, int64_t end), t, start, end)
CT_OUT(view_dtype, tensor_t, (const tensor_t *t, tensor_dtype_t dtype), t, dtype)
CT_OUT(index, tensor_t, (const tensor_t *t, int64_t n, const int32_t *kinds, const int64_t *values), t, n,
       kinds, values)

/* Files and shared memory */
CT_OUT(storage_map_file, tensor_storage_t, (const char *path, uint64_t offset, uint64_t nbytes, uint32_t flags),
       path, offset, nbytes, flags)
CT_OUT(storage_new_shared, tensor_storage_t, (size_t nbytes), nbytes)
CT_OUT(storage_from_fd, tensor_storage_t, (int32_t fd, size_t nbytes, uint32_t flags), fd, nbytes, flags)
CT_OUT(load_npy, tensor_t, (const char *path, uint32_t flags), path, flags)
CT_STATUS(save_npy, (const tensor_t *t, const char *path), t, path)
CT_OUT(safetensors_open, tensor_safetensors_t, (const char *path, uint32_t flags), path, flags)
CT_OUT(safetensors_get, tensor_t, (const tensor_safetensors_t *st, const char *name), st, name)
CT_STATUS(safetensors_save,
          (const char *path, int64_t n, const char *const *names, const tensor_t *const *tensors, int64_t n_meta,
           const char *const *meta_keys, const char *const *meta_values),
          path, n, names, tensors, n_meta, meta_keys, meta_values)

/* Math */
CT_OUT(scalar_bool, tensor_t, (int32_t value), value)
CT_OUT(scalar_int64, tensor_t, (int64_t value), value)
CT_OUT(scalar_float64, tensor_t, (double value), value)
CT_OUT(scalar_complex128, tensor_t, (double re, double im), re, im)
#define CT_BINARY(name) CT_OUT(name, tensor_t, (const tensor_t *a, const tensor_t *b), a, b)
CT_BINARY(add)
CT_BINARY(sub)
CT_BINARY(mul)
CT_BINARY(div)
CT_BINARY(pow)
CT_BINARY(maximum)
CT_BINARY(minimum)
CT_BINARY(eq)
CT_BINARY(ne)
CT_BINARY(lt)
CT_BINARY(le)
CT_BINARY(gt)
CT_BINARY(ge)
CT_STATUS(binary_into, (tensor_t * dst, tensor_op_t op, const tensor_t *a, const tensor_t *b), dst, op, a, b)
CT_OUT(unary, tensor_t, (tensor_unary_op_t op, const tensor_t *a), op, a)
CT_STATUS(unary_into, (tensor_t * dst, tensor_unary_op_t op, const tensor_t *a), dst, op, a)
CT_OUT(clamp, tensor_t, (const tensor_t *a, const tensor_t *min, const tensor_t *max), a, min, max)
CT_STATUS(clamp_into, (tensor_t * dst, const tensor_t *a, const tensor_t *min, const tensor_t *max), dst, a, min,
          max)
CT_OUT(where, tensor_t, (const tensor_t *cond, const tensor_t *a, const tensor_t *b), cond, a, b)
CT_STATUS(where_into, (tensor_t * dst, const tensor_t *cond, const tensor_t *a, const tensor_t *b), dst, cond, a,
          b)
#define CT_ARG(name) CT_OUT(name, tensor_t, (const tensor_t *t, int64_t dim, int32_t keepdim), t, dim, keepdim)
#define CT_ARG_INTO(name) \
  CT_STATUS(name, (tensor_t * dst, const tensor_t *t, int64_t dim, int32_t keepdim), dst, t, dim, keepdim)
CT_ARG(argmax)
CT_ARG(argmin)
CT_ARG_INTO(argmax_into)
CT_ARG_INTO(argmin_into)
#define CT_ALONG(name) CT_OUT(name, tensor_t, (const tensor_t *t, int64_t dim), t, dim)
#define CT_ALONG_INTO(name) CT_STATUS(name, (tensor_t * dst, const tensor_t *t, int64_t dim), dst, t, dim)
CT_ALONG(cumsum)
CT_ALONG(cumprod)
CT_ALONG(softmax)
CT_ALONG(log_softmax)
CT_ALONG_INTO(cumsum_into)
CT_ALONG_INTO(cumprod_into)
CT_ALONG_INTO(softmax_into)
CT_ALONG_INTO(log_softmax_into)
#define CT_REDUCTION(name)                                                                        \
  CT_OUT(name, tensor_t, (const tensor_t *t, int64_t ndims, const int64_t *dims, int32_t keepdim), t, ndims, \
         dims, keepdim)
CT_REDUCTION(sum)
CT_REDUCTION(mean)
CT_REDUCTION(prod)
CT_REDUCTION(amax)
CT_REDUCTION(amin)
CT_OUT(cat, tensor_t, (int64_t n, const tensor_t *const *tensors, int64_t dim), n, tensors, dim)
CT_OUT(stack, tensor_t, (int64_t n, const tensor_t *const *tensors, int64_t dim), n, tensors, dim)

/* ct_NAME(params) for a function tensor_NAME(&value, args...) that writes a number. */
#define CT_VALUE(name, type, params, ...)                                  \
  typedef struct {                                                         \
    type value;                                                            \
    tensor_status_t status;                                                \
    char *message;                                                         \
  } ct_##name##_result;                                                    \
  static inline ct_##name##_result ct_##name params {                      \
    ct_##name##_result r = {0, TENSOR_OK, NULL};                           \
    r.status = tensor_##name(&r.value, __VA_ARGS__);                       \
    if (r.status != TENSOR_OK) r.message = strdup(tensor_last_error());    \
    return r;                                                              \
  }
CT_VALUE(item_float64, double, (const tensor_t *t), t)
CT_VALUE(item_int64, int64_t, (const tensor_t *t), t)
CT_VALUE(result_type, tensor_dtype_t, (const tensor_t *a, const tensor_t *b), a, b)
CT_VALUE(promote_types, tensor_dtype_t, (tensor_dtype_t a, tensor_dtype_t b), a, b)
CT_VALUE(equal, int32_t, (const tensor_t *a, const tensor_t *b), a, b)
CT_VALUE(allclose, int32_t, (const tensor_t *a, const tensor_t *b, double rtol, double atol, int32_t equal_nan), a,
         b, rtol, atol, equal_nan)

/* Copies */
CT_OUT(contiguous, tensor_t, (tensor_t * t), t)
CT_OUT(clone, tensor_t, (const tensor_t *t), t)
CT_OUT(to, tensor_t, (tensor_t * t, tensor_dtype_t dtype, int32_t copy), t, dtype, copy)
CT_STATUS(copy, (tensor_t * dst, const tensor_t *src), dst, src)
CT_STATUS(fill, (tensor_t * dst, double value), dst, value)
CT_STATUS(fill_element, (tensor_t * dst, const void *element), dst, element)
CT_STATUS(scalar_convert_int64, (void *out, tensor_dtype_t dtype, int64_t value), out, dtype, value)
CT_STATUS(scalar_convert_float64, (void *out, tensor_dtype_t dtype, double value), out, dtype, value)
CT_STATUS(scalar_convert_complex128, (void *out, tensor_dtype_t dtype, double re, double im), out, dtype, re, im)
/* DLPack */
CT_OUT(to_dlpack, DLManagedTensorVersioned, (tensor_t * t), t, 0)
CT_OUT(from_dlpack, tensor_t, (DLManagedTensorVersioned * m), m)

/* Arrow C Data Interface */
CT_STATUS(to_arrow, (struct ArrowSchema * schema, struct ArrowArray *array, tensor_t *t, uint32_t flags), schema,
          array, t, flags)
CT_OUT(from_arrow, tensor_t, (struct ArrowSchema * schema, struct ArrowArray *array), schema, array)

/* Settings */
CT_STATUS(set_num_threads, (int32_t n), n)

/* The experimental section of ctensor.h, declared only with CTENSOR_EXPERIMENTAL,
   which the files built with the ctensor_experimental tag define (experimental.go). */
#ifdef CTENSOR_EXPERIMENTAL
/* Views */
CT_OUT(diagonal, tensor_t, (const tensor_t *t, int64_t offset, int64_t dim1, int64_t dim2), t, offset, dim1,
       dim2)
CT_OUT(unfold, tensor_t, (const tensor_t *t, int64_t dim, int64_t size, int64_t step), t, dim, size, step)
CT_OUT(movedim, tensor_t, (const tensor_t *t, int64_t n, const int64_t *source, const int64_t *destination),
       t, n, source, destination)
CT_OUT(unflatten, tensor_t, (const tensor_t *t, int64_t dim, int64_t n, const int64_t *sizes), t, dim, n,
       sizes)
CT_OUT(atleast, tensor_t, (const tensor_t *t, int64_t min_dims), t, min_dims)

/* Splits: several new references, snprintf-style. ct_NAME asks for the count,
   then fills a malloc'd array of that many handles (freed by the caller). */
typedef struct {
  tensor_t **pieces;
  int64_t count;
  tensor_status_t status;
  char *message;
} ct_pieces;

static inline ct_pieces ct_finish_pieces(tensor_status_t status, tensor_t **pieces, int64_t count) {
  ct_pieces r = {pieces, count, status, NULL};
  if (status != TENSOR_OK) {
    free(pieces);
    r.pieces = NULL;
    r.count = 0;
    r.message = strdup(tensor_last_error());
  }
  return r;
}

#define CT_PIECES(name, params, ...)                                               \
  static inline ct_pieces ct_##name params {                                       \
    int64_t count = 0;                                                             \
    tensor_status_t status = tensor_##name(NULL, 0, &count, __VA_ARGS__);          \
    if (status != TENSOR_OK) return ct_finish_pieces(status, NULL, 0);             \
    tensor_t **pieces = (tensor_t **)calloc(count > 0 ? count : 1, sizeof *pieces); \
    if (pieces == NULL) {                                                          \
      ct_pieces r = {NULL, 0, TENSOR_E_NOMEM, strdup(#name ": out of memory")};    \
      return r;                                                                    \
    }                                                                              \
    status = tensor_##name(pieces, count, &count, __VA_ARGS__);                    \
    return ct_finish_pieces(status, pieces, count);                                \
  }

CT_PIECES(split, (const tensor_t *t, int64_t split_size, int64_t dim), t, split_size, dim)
CT_PIECES(split_with_sizes, (const tensor_t *t, int64_t n, const int64_t *sizes, int64_t dim), t, n, sizes,
          dim)
CT_PIECES(chunk, (const tensor_t *t, int64_t chunks, int64_t dim), t, chunks, dim)
CT_PIECES(tensor_split, (const tensor_t *t, int64_t sections, int64_t dim), t, sections, dim)
CT_PIECES(tensor_split_indices, (const tensor_t *t, int64_t n, const int64_t *indices, int64_t dim), t, n,
          indices, dim)

/* Math */
CT_OUT(conj, tensor_t, (const tensor_t *a), a)
CT_OUT(conj_physical, tensor_t, (const tensor_t *a), a)

/* Advanced indexing */
CT_OUT(index_gather, tensor_t, (const tensor_t *t, int64_t n, const int64_t *dims, const tensor_t *const *indices),
       t, n, dims, indices)
CT_STATUS(index_put,
          (tensor_t * t, int64_t n, const int64_t *dims, const tensor_t *const *indices, const tensor_t *values), t,
          n, dims, indices, values)
CT_OUT(nonzero, tensor_t, (const tensor_t *t), t)

/* Copies with a memory format or a conversion policy (experimental) */
CT_OUT(empty_like, tensor_t, (const tensor_t *t, tensor_dtype_t dtype, int32_t memory_format), t, dtype,
       memory_format)
CT_OUT(zeros_like, tensor_t, (const tensor_t *t, tensor_dtype_t dtype, int32_t memory_format), t, dtype,
       memory_format)
CT_OUT(to_with, tensor_t,
       (tensor_t * t, tensor_dtype_t dtype, int32_t copy, int32_t memory_format, uint32_t conversion), t, dtype,
       copy, memory_format, conversion)
CT_STATUS(copy_with, (tensor_t * dst, const tensor_t *src, uint32_t conversion), dst, src, conversion)
CT_STATUS(convert, (void *dst, tensor_dtype_t dst_dtype, const void *src, tensor_dtype_t src_dtype, int64_t count),
          dst, dst_dtype, src, src_dtype, count)

#endif /* CTENSOR_EXPERIMENTAL */

/* Storage over Go memory: release.c's callback drops the cgo.Handle `handle`. */
ct_result ct_storage_wrap_go(void *data, size_t nbytes, uint32_t flags, uintptr_t handle);
/* tensor_load_npy_with / tensor_safetensors_open_with whose progress callback
   reaches Go through a cgo.Handle (0: no callback). */
ct_result ct_load_npy_with_go(const char *path, uint32_t flags, uintptr_t progress, uint64_t min_bytes,
                              int32_t threads);
ct_result ct_safetensors_open_with_go(const char *path, uint32_t flags, uintptr_t progress, uint64_t min_bytes,
                                      int32_t threads);

#endif
