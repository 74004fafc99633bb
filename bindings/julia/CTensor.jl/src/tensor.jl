# The Tensor handle: one owned reference to a ctensor tensor_t, and every operation on it.

struct Owned end  # marks a handle whose reference the new Tensor takes over

"""
    Tensor

One reference to a ctensor tensor (`tensor_t *`): dtype, sizes, strides and storage
offset over a refcounted storage. Made by `Tensor(a::Array)` (zero-copy),
`Tensor(undef, T, dims...)`, `CTensor.zeros(T, dims...)`, and by every view and copy
function. `close(t)` drops the reference now (idempotent); otherwise a finalizer drops
it. A closed tensor raises `CTensorError` (`TENSOR_E_INVALID`) on every use.

Sizes, strides and `dims` follow ctensor's order, so dim `d` here is ctensor's dim
`d - 1`; strides count elements. A new contiguous tensor is row-major (strides
`(n, 1)` for `n` columns), an imported Julia `Array` is column-major (strides `(1, m)`).
"""
mutable struct Tensor
    @atomic handle::Ptr{Cvoid}
    Tensor(handle::Ptr{Cvoid}, ::Owned) = finalizer(close, new(handle))
end

"""
    close(t::Tensor)

Releases `t`'s reference now; later calls do nothing. Views made from `t` stay valid.
Do not close a tensor while another task is using it.
"""
function Base.close(t::Tensor)
    handle = @atomicswap t.handle = C_NULL
    LibCTensor.tensor_release(handle)  # NULL (already closed) is a no-op
    return nothing
end

Base.isopen(t::Tensor) = (@atomic t.handle) != C_NULL

# Passing a Tensor to a ccall passes its tensor_t * and keeps it alive during the call.
function Base.unsafe_convert(::Type{Ptr{Cvoid}}, t::Tensor)
    handle = @atomic t.handle
    handle == C_NULL && throw_closed()
    return handle
end

# Calls f(out), a ctensor function with an `out` parameter, and owns the new reference.
function new_tensor(f)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(f(out))
    return Tensor(out[], Owned())
end

int64s(xs) = Int64[xs...]

const TENSOR_READONLY = UInt32(1)  # storage flag: every write through any view fails

# ---------------------------------------------------------------------------------------
# Zero-copy import of Julia arrays

# Julia objects whose memory ctensor views, by the key passed to C as the release `ctx`.
# The release callback (drop_root) removes an entry exactly once, when the last view of
# the storage is gone, on the thread that drops it (a finalizer's, or close's). A
# SpinLock never switches tasks (allowed in finalizers) and holds off finalizers on this
# thread while taken, so the callback cannot run into a lock its own thread holds.
const ROOTS = Dict{UInt,Any}()
const ROOTS_LOCK = Threads.SpinLock()
const NEXT_ROOT = Ref{UInt}(0)
const RELEASE_ROOT = Ref{Ptr{Cvoid}}(C_NULL)  # @cfunction(drop_root, ...), made in __init__

function add_root(x)
    lock(ROOTS_LOCK) do
        key = NEXT_ROOT[] += 1
        ROOTS[key] = x
        return key
    end
end

# The tensor_release_fn: must not throw (it returns into C).
function drop_root(ctx::Ptr{Cvoid})
    lock(ROOTS_LOCK) do
        delete!(ROOTS, UInt(ctx))
    end
    return nothing
end

"""
    rooted_count() -> Int

How many imported Julia arrays ctensor is keeping alive (for lifetime tests).
"""
rooted_count() = lock(() -> length(ROOTS), ROOTS_LOCK)

"""
    Tensor(a::Array; readonly=false)

A tensor sharing `a`'s memory, without copying: sizes `size(a)`, strides `strides(a)`
(column-major, so an m×n matrix has strides `(1, m)` and `A[i, j]` of
`TensorArray(Tensor(a))` is `a[i, j]`). `a` stays alive until the last tensor viewing
its memory is released, whatever happens to the Julia variables; a `Vector` cannot
move its memory under them (on Julia 1.10 `resize!`/`push!` on it fail from then on, as
after any `reshape`; on later versions they move `a` to new memory and the tensors keep
the old one). `readonly=true` makes
every ctensor write through any view fail with `TENSOR_E_READONLY`.
Element types: see `dtype_of`; others raise `TENSOR_E_DTYPE`.
"""
function Tensor(a::Array{T}; readonly::Bool=false) where {T}
    dtype = dtype_of(T)
    # The root is a reshaped alias: it holds a's buffer (on 1.11+, its Memory), and on
    # 1.10 marks it shared so that a Vector cannot be resized under ctensor.
    key = add_root(Base.reshape(a, length(a), 1))
    storage = Ref{Ptr{Cvoid}}(C_NULL)
    status = LibCTensor.tensor_storage_wrap(storage, pointer(a), sizeof(a),
                                            readonly ? TENSOR_READONLY : UInt32(0),
                                            RELEASE_ROOT[], Ptr{Cvoid}(key))
    if status != TENSOR_OK
        err = last_error(status)                # read the message before anything else
        drop_root(Ptr{Cvoid}(key))              # a failed wrap never calls the callback
        throw(err)
    end
    # The tensor takes its own storage reference; ours goes either way (if no tensor was
    # made, that runs the callback and drops the root).
    try
        return new_tensor(out -> LibCTensor.tensor_from_storage(
            out, storage[], dtype, ndims(a), int64s(size(a)), int64s(Base.strides(a)), 0))
    finally
        LibCTensor.tensor_storage_release(storage[])
    end
end

# ---------------------------------------------------------------------------------------
# New tensors

"""
    Tensor(undef, T, dims...)

A new contiguous (row-major) tensor of element type `T`; its contents are unspecified.
"""
Tensor(::UndefInitializer, ::Type{T}, dims::Integer...) where {T} =
    new_tensor(out -> LibCTensor.tensor_empty(out, length(dims), int64s(dims), dtype_of(T)))

"""
    CTensor.zeros(T, dims...)

A new zero-filled contiguous (row-major) tensor. Not exported (it is not `Base.zeros`).
"""
zeros(::Type{T}, dims::Integer...) where {T} =
    new_tensor(out -> LibCTensor.tensor_zeros(out, length(dims), int64s(dims), dtype_of(T)))

# ---------------------------------------------------------------------------------------
# Inspection (a tensor's metadata never changes)

Base.ndims(t::Tensor) = Int(LibCTensor.tensor_ndim(t))
Base.length(t::Tensor) = Int(LibCTensor.tensor_numel(t))
Base.eltype(t::Tensor) = julia_type(LibCTensor.tensor_dtype(t))

# sizes/strides arrays are borrowed from t: keep t alive while reading them.
function int64_tuple(getter, t::Tensor)
    GC.@preserve t begin
        values = getter(t)
        ntuple(i -> Int(unsafe_load(values, i)), ndims(t))
    end
end
Base.size(t::Tensor) = int64_tuple(LibCTensor.tensor_sizes, t)
Base.strides(t::Tensor) = int64_tuple(LibCTensor.tensor_strides, t)

"""
    storage_offset(t) -> Int

Elements between the start of t's storage and element `[1, 1, ...]` (a count, not an index).
"""
storage_offset(t::Tensor) = Int(LibCTensor.tensor_storage_offset(t))

"""
    pointer(t::Tensor) -> Ptr{Cvoid}

Address of element `[1, 1, ...]`; valid while `t` (or another view of its storage) is
open and reachable: use it inside `GC.@preserve t`.
"""
Base.pointer(t::Tensor) = LibCTensor.tensor_data(t)

is_contiguous(t::Tensor) = LibCTensor.tensor_is_contiguous(t) == 1
is_readonly(t::Tensor) = LibCTensor.tensor_is_readonly(t) == 1

"""
    dtype_name(t) -> String

PyTorch's name of t's dtype (`"float32"`, `"bfloat16"`, ...).
"""
dtype_name(t::Tensor) = unsafe_string(LibCTensor.tensor_dtype_name(LibCTensor.tensor_dtype(t)))

"""
    refcount(t), storage_refcount(t) -> Int

References to t's `tensor_t` (1: this Tensor) and to its storage (one per tensor on it).
"""
refcount(t::Tensor) = Int(LibCTensor.tensor_refcount(t))
storage_refcount(t::Tensor) =
    GC.@preserve t Int(LibCTensor.tensor_storage_refcount(LibCTensor.tensor_storage(t)))

function Base.show(io::IO, t::Tensor)
    isopen(t) || return print(io, "CTensor.Tensor(closed)")
    print(io, "CTensor.Tensor(", dtype_name(t), ", size=", size(t), ", strides=", strides(t),
          ", offset=", storage_offset(t), ")")
end

# ---------------------------------------------------------------------------------------
# Views: a new Tensor on the same storage; the input is unchanged. Dims and indices are
# 1-based and checked here (so messages speak Julia); sizes may use -1 where ctensor does.

function zero_based(i::Integer, n::Integer, what::String, status::Int32)
    1 <= i <= n || throw(CTensorError(status, "$what $i out of range 1:$n"))
    return Int64(i - 1)
end
cdim(t::Tensor, d::Integer) = zero_based(d, ndims(t), "dim", TENSOR_E_INVALID)
dim_size(t::Tensor, d::Integer) = size(t)[cdim(t, d) + 1]

"""
    as_strided(t, sizes, strides=nothing; offset=0)

torch.as_strided on t's storage: `strides` `nothing` means contiguous, `offset` counts
elements from the storage start. Every addressed element must lie in the storage
(`TENSOR_E_BOUNDS` otherwise).
"""
function as_strided(t::Tensor, sizes, strides=nothing; offset::Integer=0)
    strides === nothing || length(strides) == length(sizes) ||
        throw(CTensorError(TENSOR_E_INVALID, "$(length(sizes)) sizes but $(length(strides)) strides"))
    strides_arg = strides === nothing ? Ptr{Int64}(C_NULL) : int64s(strides)
    return new_tensor(out -> LibCTensor.tensor_as_strided(out, t, length(sizes), int64s(sizes),
                                                         strides_arg, offset))
end

"""
    CTensor.view(t, sizes...)

Tensor.view: same elements in ctensor's (row-major) order, one size may be -1;
`TENSOR_E_STRIDE` when t's strides do not allow it (`CTensor.reshape` copies then).
Not exported (it is not `Base.view`).
"""
view(t::Tensor, sizes::Integer...) =
    new_tensor(out -> LibCTensor.tensor_view(out, t, length(sizes), int64s(sizes)))

"""
    CTensor.reshape(t, sizes...)

Tensor.reshape: a view where possible, else a contiguous copy. The element order is
ctensor's (row-major), not Julia's. Not exported (it is not `Base.reshape`).
"""
reshape(t::Tensor, sizes::Integer...) =
    new_tensor(out -> LibCTensor.tensor_reshape(out, t, length(sizes), int64s(sizes)))

"""
    CTensor.transpose(t, d0, d1)

Swaps dims `d0` and `d1`. Not exported (it is not `Base.transpose`).
"""
transpose(t::Tensor, d0::Integer, d1::Integer) =
    new_tensor(out -> LibCTensor.tensor_transpose(out, t, cdim(t, d0), cdim(t, d1)))

"""
    permute(t, dims...)

Result dim `i` is t's dim `dims[i]`, as `permutedims(a, dims)`.
"""
permute(t::Tensor, dims::Integer...) =
    new_tensor(out -> LibCTensor.tensor_permute(out, t, length(dims), Int64[cdim(t, d) for d in dims]))

"""
    slice(t, dim, range)

The elements `range` (for example `2:3`, `5:-1:1`, `1:2:n`) along `dim`, as `a[:, range]`
selects columns. The range must lie in `1:size` (`TENSOR_E_BOUNDS`).
"""
function slice(t::Tensor, dim::Integer, r::AbstractRange{<:Integer})
    start, stop, stride = slice_bounds(r, dim_size(t, dim), dim)
    return new_tensor(out -> LibCTensor.tensor_slice(out, t, cdim(t, dim), start, stop, stride))
end

# Kinds of tensor_index items (TENSOR_INDEX_* in ctensor.h).
const INDEX_INT = Int32(0)
const INDEX_SLICE = Int32(1)

# ctensor's slice bounds for a 1-based range inside 1:n (stop exclusive, 0-based).
function slice_bounds(r::AbstractRange{<:Integer}, n::Integer, dim::Integer)
    isempty(r) || (1 <= minimum(r) && maximum(r) <= n) ||
        throw(CTensorError(TENSOR_E_BOUNDS, "range $r out of range 1:$n of dim $dim"))
    isempty(r) && return (Int64(0), Int64(0), Int64(1))
    # going down to element 1 needs the open end
    stop = step(r) > 0 ? last(r) : (last(r) >= 2 ? last(r) - 2 : typemin(Int64))
    return (Int64(first(r) - 1), Int64(stop), Int64(step(r)))
end

"""
    t[i, 2:5, :, 10:-2:1]

A view of `t` (a new `Tensor`, not elements: use `TensorArray` for those) made by one
`tensor_index` call: an integer selects and removes its dim, a range keeps the elements
it names, `:` keeps the whole dim; dims after the last index stay as they are. Indices
are 1-based and checked (`TENSOR_E_BOUNDS`).
"""
function Base.getindex(t::Tensor, I::Union{Integer,AbstractRange{<:Integer},Colon}...)
    length(I) <= ndims(t) ||
        throw(CTensorError(TENSOR_E_INVALID, "$(length(I)) indices for a tensor with $(ndims(t)) dims"))
    kinds = Vector{Int32}(undef, length(I))
    values = Base.zeros(Int64, 3 * length(I))
    dims = size(t)
    for (k, i) in enumerate(I)
        if i isa Integer
            kinds[k] = INDEX_INT
            values[3k - 2] = zero_based(i, dims[k], "index", TENSOR_E_BOUNDS)
        else
            kinds[k] = INDEX_SLICE
            values[3k - 2:3k] .= i isa Colon ? (0, typemax(Int64), 1) : slice_bounds(i, dims[k], k)
        end
    end
    return new_tensor(out -> LibCTensor.tensor_index(out, t, length(I), kinds, values))
end

"""
    select(t, dim, i)

Element `i` of `dim`, removing the dim (as `a[i, :]` for dim 1).
"""
select(t::Tensor, dim::Integer, i::Integer) =
    new_tensor(out -> LibCTensor.tensor_select(out, t, cdim(t, dim),
                                               zero_based(i, dim_size(t, dim), "index", TENSOR_E_BOUNDS)))

"""
    narrow(t, dim, start, length)

Elements `start:start+length-1` of `dim`.
"""
narrow(t::Tensor, dim::Integer, start::Integer, length::Integer) =
    new_tensor(out -> LibCTensor.tensor_narrow(out, t, cdim(t, dim),
                                               zero_based(start, dim_size(t, dim) + 1, "start", TENSOR_E_BOUNDS),
                                               length))

"""
    expand(t, sizes...), broadcast_to(t, sizes...)

Size-1 dims (and new leading dims) repeat with stride 0; -1 keeps a size.
"""
expand(t::Tensor, sizes::Integer...) =
    new_tensor(out -> LibCTensor.tensor_expand(out, t, length(sizes), int64s(sizes)))
broadcast_to(t::Tensor, sizes::Integer...) =
    new_tensor(out -> LibCTensor.tensor_broadcast_to(out, t, length(sizes), int64s(sizes)))

"""
    squeeze(t), squeeze(t, dim)

Removes every size-1 dim, or `dim` if its size is 1.
"""
squeeze(t::Tensor) = new_tensor(out -> LibCTensor.tensor_squeeze(out, t, typemin(Int64)))
squeeze(t::Tensor, dim::Integer) = new_tensor(out -> LibCTensor.tensor_squeeze(out, t, cdim(t, dim)))

"""
    unsqueeze(t, dim)

Inserts a size-1 dim so that it becomes dim `dim` (`1:ndims(t)+1`).
"""
unsqueeze(t::Tensor, dim::Integer) =
    new_tensor(out -> LibCTensor.tensor_unsqueeze(out, t, zero_based(dim, ndims(t) + 1, "dim", TENSOR_E_INVALID)))

"""
    flatten(t), flatten(t, start_dim, end_dim)

torch.flatten: merges dims `start_dim:end_dim` (all of them by default; a 0-dim tensor
gives size (1,)), in ctensor's row-major order; a view where possible, else a copy.
"""
flatten(t::Tensor) = new_tensor(out -> LibCTensor.tensor_flatten(out, t, 0, -1))
flatten(t::Tensor, start_dim::Integer, end_dim::Integer) =
    new_tensor(out -> LibCTensor.tensor_flatten(out, t, cdim(t, start_dim), cdim(t, end_dim)))

"""
    view_dtype(t, T)

Tensor.view(dtype): the same bytes as elements of type `T` (PyTorch 1.13's rules).
"""
view_dtype(t::Tensor, ::Type{T}) where {T} =
    new_tensor(out -> LibCTensor.tensor_view_dtype(out, t, dtype_of(T)))

# ---------------------------------------------------------------------------------------
# Copies

"""
    contiguous(t)

`t` itself (a new Tensor on the same tensor_t) if it is contiguous, else a row-major copy.
"""
contiguous(t::Tensor) = new_tensor(out -> LibCTensor.tensor_contiguous(out, t))

"""
    clone(t)

A new contiguous, writable copy.
"""
clone(t::Tensor) = new_tensor(out -> LibCTensor.tensor_clone(out, t))

# Memory formats (`memory_format=`) and conversion policies (`conversion=`), as symbols;
# the values are the header's (experimental) TENSOR_*_FORMAT and TENSOR_CONVERT_*.
const TENSOR_PRESERVE_FORMAT = Int32(0)
const TENSOR_CONTIGUOUS_FORMAT = Int32(1)
const TENSOR_CONVERT_LIBRARY = UInt32(0)
const TENSOR_CONVERT_TORCH_X86 = UInt32(1)

memory_format_code(f::Symbol) =
    f === :preserve ? TENSOR_PRESERVE_FORMAT : f === :contiguous ? TENSOR_CONTIGUOUS_FORMAT :
    throw(CTensorError(TENSOR_E_INVALID, "memory_format must be :preserve or :contiguous, not :$f"))
conversion_code(c::Symbol) =
    c === :library ? TENSOR_CONVERT_LIBRARY : c === :torch_x86 ? TENSOR_CONVERT_TORCH_X86 :
    throw(CTensorError(TENSOR_E_INVALID, "conversion must be :library or :torch_x86, not :$c"))

"""
    similar(t::Tensor, T=eltype(t); memory_format=:preserve)

A new tensor of t's size and element type `T`, uninitialised (torch.empty_like).
`memory_format=:preserve` gives PyTorch's strides: t's own when t is dense (or empty),
else dense strides in t's dims' stride order (a column-major t stays column-major);
`:contiguous` gives row-major. Reads no elements.
"""
Base.similar(t::Tensor, ::Type{T}=eltype(t); memory_format::Symbol=:preserve) where {T} =
    new_tensor(out -> LibCTensor.tensor_empty_like(out, t, dtype_of(T), memory_format_code(memory_format)))

"""
    zeros_like(t::Tensor, T=eltype(t); memory_format=:preserve)

As `similar`, zero-filled (torch.zeros_like).
"""
zeros_like(t::Tensor, ::Type{T}=eltype(t); memory_format::Symbol=:preserve) where {T} =
    new_tensor(out -> LibCTensor.tensor_zeros_like(out, t, dtype_of(T), memory_format_code(memory_format)))

"""
    copyto!(dst::Tensor, src::Tensor; conversion=:library)

`dst[...] = src` as PyTorch's `dst.copy_(src)`: broadcasts `src` to dst's size and
converts the dtype, by ctensor's rules (`:library`) or as PyTorch 1.13 on x86-64 does
(`:torch_x86`: float to integer through a 32- or 64-bit truncation keeping the low bits,
`-3.7` to `UInt8` 253; Float64 to Float16/BFloat16 through Float32). Errors:
`TENSOR_E_SHAPE`, `TENSOR_E_READONLY`, `TENSOR_E_OVERLAP` (dst has repeated elements,
such as an expanded view).
"""
function Base.copyto!(dst::Tensor, src::Tensor; conversion::Symbol=:library)
    check(LibCTensor.tensor_copy_with(dst, src, conversion_code(conversion)))
    return dst
end

"""
    to(t, T; copy=nothing, memory_format=:contiguous, conversion=:library)

t converted to element type `T`, with torch.asarray's copy rule: `nothing` shares
when `T` is t's type, `true` always copies, `false` raises `TENSOR_E_COPY` when a copy
is needed. A copy is laid out as `memory_format` says (see `similar`) and converted as
`conversion` says (see `copyto!`).
"""
function to(t::Tensor, ::Type{T}; copy::Union{Nothing,Bool}=nothing, memory_format::Symbol=:contiguous,
            conversion::Symbol=:library) where {T}
    mode = copy === nothing ? Int32(0) : copy ? Int32(1) : Int32(2)
    format, how = memory_format_code(memory_format), conversion_code(conversion)
    return new_tensor(out -> LibCTensor.tensor_to_with(out, t, dtype_of(T), mode, format, how))
end

"""
    fill!(t::Tensor, x::Real)

Sets every element to `x`, converted from a Float64 (so integers beyond 2^53 round).
"""
function Base.fill!(t::Tensor, x::Real)
    check(LibCTensor.tensor_fill(t, Float64(x)))
    return t
end

"""
    fill_checked!(t::Tensor, x::Number)

PyTorch's `fill_`: every element becomes `x`, range-checked into t's dtype by the
library (`TENSOR_E_OVERFLOW` with PyTorch's message where `fill!` would wrap or
saturate; -1 into UInt8 wraps, as in PyTorch). Unlike `fill!`, `t` may have internal
overlap (an expanded view): each place ends up the value.
"""
function fill_checked!(t::Tensor, x::Number)
    element = Ref((0.0, 0.0))  # room for the widest element (complex128)
    GC.@preserve element begin
        p = Ptr{Cvoid}(Base.unsafe_convert(Ptr{Tuple{Float64,Float64}}, element))
        dtype = LibCTensor.tensor_dtype(t)
        check(x isa Complex ? LibCTensor.tensor_scalar_convert_complex128(p, dtype, Float64(real(x)), Float64(imag(x))) :
              x isa Union{Integer,Bool} ? LibCTensor.tensor_scalar_convert_int64(p, dtype, Int64(x)) :
              LibCTensor.tensor_scalar_convert_float64(p, dtype, Float64(x)))
        check(LibCTensor.tensor_fill_element(t, p))
    end
    return t
end

"""
    Array(t::Tensor)

A new Julia `Array` with t's size and element type holding a copy of its elements
(`Array(t)[i, j]` is ctensor's element `[i-1, j-1]`), made by ctensor's copy engine.
"""
function Base.Array(t::Tensor)
    a = Array{eltype(t)}(undef, size(t))
    dst = Tensor(a)
    try
        copyto!(dst, t)
    finally
        close(dst)
    end
    return a
end

# ---------------------------------------------------------------------------------------
# Advanced indexing: copies through integer index arrays, with NumPy's rules (the C
# API's tensor_index_gather / tensor_index_put / tensor_nonzero)

# Integer element types of index arrays (Bool is an Integer too, but a mask is not
# positions: see nonzero).
const IndexInteger = Union{Signed,Unsigned}

# The 0-based dims and, per index array, a tensor of its 0-based Int64 positions,
# checked here so that messages speak Julia.
function index_arguments(t::Tensor, dims, indices)
    length(dims) == length(indices) ||
        throw(CTensorError(TENSOR_E_INVALID, "$(length(dims)) dims for $(length(indices)) index arrays"))
    cdims = Int64[cdim(t, d) for d in dims]
    tensors = [Tensor(map(i -> zero_based(i, dim_size(t, d), "index", TENSOR_E_BOUNDS), a))
               for (d, a) in zip(dims, indices)]
    return cdims, tensors
end

# f(handles): the tensors' tensor_t pointers as a C array, the tensors closed afterwards.
function with_handles(f, tensors)
    try
        handles = Ptr{Cvoid}[Base.unsafe_convert(Ptr{Cvoid}, x) for x in tensors]
        return GC.@preserve tensors f(handles)
    finally
        foreach(close, tensors)
    end
end

"""
    index_gather(t, dims, indices...)

NumPy's and PyTorch's advanced indexing, `t[..., i1, ..., i2, ...]`, as a new tensor:
`indices[k]` is an array of 1-based positions along dim `dims[k]` (dims ascending). The
index arrays broadcast together as NumPy broadcasts (sizes aligned from the right, in
ctensor's order); their dims take the indexed dims' place when those are adjacent, else
lead the result. Unlike Julia's `a[I, J]` (every combination), `index_gather(t, (1, 2),
I, J)` pairs `I[k]` with `J[k]`. A position outside its dim raises `TENSOR_E_BOUNDS`,
index arrays that do not broadcast `TENSOR_E_SHAPE`. A mask indexes through `nonzero`.
"""
function index_gather(t::Tensor, dims, indices::AbstractArray{<:IndexInteger}...)
    cdims, tensors = index_arguments(t, dims, indices)
    return with_handles(tensors) do handles
        new_tensor(out -> LibCTensor.tensor_index_gather(out, t, length(handles), cdims, handles))
    end
end

"""
    index_put!(t, values, dims, indices...)

`t[..., i1, ..., i2, ...] = values` with `index_gather`'s index: `values` (a `Tensor`)
broadcast to `index_gather`'s result size and converted to t's element type. Where
several positions name one element, the last (in ctensor's order of the broadcast index
arrays) wins. Every position is checked before anything is written. Errors also
`TENSOR_E_READONLY`, `TENSOR_E_OVERLAP` (t has repeated elements, as an expanded view).
"""
function index_put!(t::Tensor, values::Tensor, dims, indices::AbstractArray{<:IndexInteger}...)
    cdims, tensors = index_arguments(t, dims, indices)
    with_handles(tensors) do handles
        check(LibCTensor.tensor_index_put(t, length(handles), cdims, handles, values))
    end
    return t
end

"""
    nonzero(t) -> Matrix{Int64}

The 1-based positions of t's non-zero elements (`x != 0`: NaN counts), one row each, in
ctensor's row-major order: a `count × ndims(t)` matrix. Its columns index as the mask
does: `index_gather(t, 1:ndims(t), eachcol(nonzero(m))...)` is NumPy's `t[m]`.
"""
function nonzero(t::Tensor)
    coords = new_tensor(out -> LibCTensor.tensor_nonzero(out, t))
    try
        return Array(coords) .+ 1
    finally
        close(coords)
    end
end

# ---------------------------------------------------------------------------------------
# Library-wide

"""
    set_num_threads(n), num_threads()

How many threads large copies, element-wise ops and reductions use
(process-wide; results never depend on it). The default is `CTENSOR_NUM_THREADS`
when it holds a positive integer, else the number of CPUs the process may run on.
"""
set_num_threads(n::Integer) = check(LibCTensor.tensor_set_num_threads(n))
num_threads() = Int(LibCTensor.tensor_get_num_threads())

"""
    version() -> VersionNumber

The loaded library's version.
"""
version() = VersionNumber(unsafe_string(LibCTensor.tensor_version_string()))
