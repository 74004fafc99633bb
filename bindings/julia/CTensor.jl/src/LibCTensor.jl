# Raw declarations: one Julia function per C function of include/ctensor.h that the
# package uses, with the header's parameter order and types. Nothing here checks a
# status or manages a reference; src/tensor.jl does. tests/check_julia_ccalls.py
# compares every ccall below with the header.
module LibCTensor

# The path of the loaded libctensor, set once by CTensor.__init__ (see find_library).
const LIBPATH = Ref("")
libctensor() = LIBPATH[]

# Handles (tensor_t *, tensor_storage_t *) are Ptr{Cvoid}; `out` parameters are
# Ptr{Ptr{Cvoid}}; strings are Ptr{UInt8} because some may be NULL.

tensor_version_number() = ccall((:tensor_version_number, libctensor()), Int32, ())
tensor_version_string() = ccall((:tensor_version_string, libctensor()), Ptr{UInt8}, ())
tensor_last_error() = ccall((:tensor_last_error, libctensor()), Ptr{UInt8}, ())
tensor_status_name(status) = ccall((:tensor_status_name, libctensor()), Ptr{UInt8}, (Int32,), status)
tensor_dtype_name(dtype) = ccall((:tensor_dtype_name, libctensor()), Ptr{UInt8}, (Int32,), dtype)

tensor_storage_wrap(out, data, nbytes, flags, release, ctx) =
    ccall((:tensor_storage_wrap, libctensor()), Int32,
          (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Csize_t, UInt32, Ptr{Cvoid}, Ptr{Cvoid}),
          out, data, nbytes, flags, release, ctx)
tensor_storage_release(s) = ccall((:tensor_storage_release, libctensor()), Cvoid, (Ptr{Cvoid},), s)
tensor_storage_refcount(s) = ccall((:tensor_storage_refcount, libctensor()), Int64, (Ptr{Cvoid},), s)

tensor_from_storage(out, s, dtype, ndim, sizes, strides, storage_offset) =
    ccall((:tensor_from_storage, libctensor()), Int32,
          (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int32, Int64, Ptr{Int64}, Ptr{Int64}, Int64),
          out, s, dtype, ndim, sizes, strides, storage_offset)
tensor_empty(out, ndim, sizes, dtype) =
    ccall((:tensor_empty, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Int64, Ptr{Int64}, Int32),
          out, ndim, sizes, dtype)
tensor_zeros(out, ndim, sizes, dtype) =
    ccall((:tensor_zeros, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Int64, Ptr{Int64}, Int32),
          out, ndim, sizes, dtype)

tensor_ndim(t) = ccall((:tensor_ndim, libctensor()), Int64, (Ptr{Cvoid},), t)
tensor_sizes(t) = ccall((:tensor_sizes, libctensor()), Ptr{Int64}, (Ptr{Cvoid},), t)
tensor_strides(t) = ccall((:tensor_strides, libctensor()), Ptr{Int64}, (Ptr{Cvoid},), t)
tensor_storage_offset(t) = ccall((:tensor_storage_offset, libctensor()), Int64, (Ptr{Cvoid},), t)
tensor_dtype(t) = ccall((:tensor_dtype, libctensor()), Int32, (Ptr{Cvoid},), t)
tensor_numel(t) = ccall((:tensor_numel, libctensor()), Int64, (Ptr{Cvoid},), t)
tensor_data(t) = ccall((:tensor_data, libctensor()), Ptr{Cvoid}, (Ptr{Cvoid},), t)
tensor_storage(t) = ccall((:tensor_storage, libctensor()), Ptr{Cvoid}, (Ptr{Cvoid},), t)
tensor_is_contiguous(t) = ccall((:tensor_is_contiguous, libctensor()), Int32, (Ptr{Cvoid},), t)
tensor_is_readonly(t) = ccall((:tensor_is_readonly, libctensor()), Int32, (Ptr{Cvoid},), t)
tensor_release(t) = ccall((:tensor_release, libctensor()), Cvoid, (Ptr{Cvoid},), t)
tensor_refcount(t) = ccall((:tensor_refcount, libctensor()), Int64, (Ptr{Cvoid},), t)

tensor_as_strided(out, t, ndim, sizes, strides, storage_offset) =
    ccall((:tensor_as_strided, libctensor()), Int32,
          (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Ptr{Int64}, Ptr{Int64}, Int64),
          out, t, ndim, sizes, strides, storage_offset)
tensor_view(out, t, ndim, sizes) =
    ccall((:tensor_view, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Ptr{Int64}),
          out, t, ndim, sizes)
tensor_reshape(out, t, ndim, sizes) =
    ccall((:tensor_reshape, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Ptr{Int64}),
          out, t, ndim, sizes)
tensor_transpose(out, t, dim0, dim1) =
    ccall((:tensor_transpose, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Int64),
          out, t, dim0, dim1)
tensor_permute(out, t, ndim, dims) =
    ccall((:tensor_permute, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Ptr{Int64}),
          out, t, ndim, dims)
tensor_slice(out, t, dim, start, stop, step) =
    ccall((:tensor_slice, libctensor()), Int32,
          (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Int64, Int64, Int64), out, t, dim, start, stop, step)
tensor_index(out, t, n, kinds, values) =
    ccall((:tensor_index, libctensor()), Int32,
          (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Ptr{Int32}, Ptr{Int64}), out, t, n, kinds, values)
tensor_select(out, t, dim, index) =
    ccall((:tensor_select, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Int64),
          out, t, dim, index)
tensor_narrow(out, t, dim, start, length) =
    ccall((:tensor_narrow, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Int64, Int64),
          out, t, dim, start, length)
tensor_expand(out, t, ndim, sizes) =
    ccall((:tensor_expand, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Ptr{Int64}),
          out, t, ndim, sizes)
tensor_broadcast_to(out, t, ndim, sizes) =
    ccall((:tensor_broadcast_to, libctensor()), Int32,
          (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Ptr{Int64}), out, t, ndim, sizes)
tensor_squeeze(out, t, dim) =
    ccall((:tensor_squeeze, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64), out, t, dim)
tensor_unsqueeze(out, t, dim) =
    ccall((:tensor_unsqueeze, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64), out, t, dim)
tensor_flatten(out, t, start_dim, end_dim) =
    ccall((:tensor_flatten, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Int64),
          out, t, start_dim, end_dim)
tensor_view_dtype(out, t, dtype) =
    ccall((:tensor_view_dtype, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int32), out, t, dtype)

tensor_contiguous(out, t) =
    ccall((:tensor_contiguous, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}), out, t)
tensor_clone(out, t) = ccall((:tensor_clone, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}), out, t)
tensor_fill(dst, value) = ccall((:tensor_fill, libctensor()), Int32, (Ptr{Cvoid}, Cdouble), dst, value)
tensor_fill_element(dst, element) =
    ccall((:tensor_fill_element, libctensor()), Int32, (Ptr{Cvoid}, Ptr{Cvoid}), dst, element)
tensor_scalar_convert_int64(out, dtype, value) =
    ccall((:tensor_scalar_convert_int64, libctensor()), Int32, (Ptr{Cvoid}, Int32, Int64), out, dtype, value)
tensor_scalar_convert_float64(out, dtype, value) =
    ccall((:tensor_scalar_convert_float64, libctensor()), Int32, (Ptr{Cvoid}, Int32, Cdouble), out, dtype, value)
tensor_scalar_convert_complex128(out, dtype, re, im) =
    ccall((:tensor_scalar_convert_complex128, libctensor()), Int32, (Ptr{Cvoid}, Int32, Cdouble, Cdouble),
          out, dtype, re, im)

# Memory formats and conversion policies (experimental in the C API).
tensor_empty_like(out, t, dtype, memory_format) =
    ccall((:tensor_empty_like, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int32, Int32),
          out, t, dtype, memory_format)
tensor_zeros_like(out, t, dtype, memory_format) =
    ccall((:tensor_zeros_like, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int32, Int32),
          out, t, dtype, memory_format)
tensor_copy_with(dst, src, conversion) =
    ccall((:tensor_copy_with, libctensor()), Int32, (Ptr{Cvoid}, Ptr{Cvoid}, UInt32), dst, src, conversion)
tensor_to_with(out, t, dtype, copy, memory_format, conversion) =
    ccall((:tensor_to_with, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int32, Int32, Int32, UInt32),
          out, t, dtype, copy, memory_format, conversion)
tensor_index_gather(out, t, n, dims, indices) =
    ccall((:tensor_index_gather, libctensor()), Int32,
          (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}, Int64, Ptr{Int64}, Ptr{Ptr{Cvoid}}), out, t, n, dims, indices)
tensor_index_put(t, n, dims, indices, values) =
    ccall((:tensor_index_put, libctensor()), Int32,
          (Ptr{Cvoid}, Int64, Ptr{Int64}, Ptr{Ptr{Cvoid}}, Ptr{Cvoid}), t, n, dims, indices, values)
tensor_nonzero(out, t) =
    ccall((:tensor_nonzero, libctensor()), Int32, (Ptr{Ptr{Cvoid}}, Ptr{Cvoid}), out, t)

tensor_set_num_threads(n) = ccall((:tensor_set_num_threads, libctensor()), Int32, (Int32,), n)
tensor_get_num_threads() = ccall((:tensor_get_num_threads, libctensor()), Int32, ())

end # module LibCTensor
