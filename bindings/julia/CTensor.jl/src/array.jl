# TensorArray: an AbstractArray over a tensor's elements, without copying.

"""
    TensorArray(t::Tensor)
    TensorArray{T}(t), TensorArray{T,N}(t)

An `AbstractArray{T,N}` view of t's elements: `size(A) == size(t)`,
`strides(A) == strides(t)` (elements; may be zero or negative) and `A[i, j]` is
ctensor's element `[i-1, j-1]`. Reads and writes go to t's memory. `T` and `N` must be
t's element type and ndims (`TENSOR_E_DTYPE` / `TENSOR_E_SHAPE` otherwise).

Every access checks its indices (`TENSOR_E_BOUNDS`, also under `@inbounds`), that `t`
is open (`TENSOR_E_INVALID`) and, for writes, that t is writable (`TENSOR_E_READONLY`).
`A` holds `t`, not a new reference: closing `t` ends `A` too.

It implements the strided-array interface (`strides`, `unsafe_convert(Ptr{T}, A)`,
`elsize`), so `LinearAlgebra.BLAS` functions accept it when its first stride is 1; the
pointer they get is not checked against read-only memory.
"""
struct TensorArray{T,N} <: AbstractArray{T,N}
    tensor::Tensor
    data::Ptr{T}
    size::NTuple{N,Int}
    strides::NTuple{N,Int}
    readonly::Bool
    function TensorArray{T,N}(t::Tensor) where {T,N}
        eltype(t) === T ||
            throw(CTensorError(TENSOR_E_DTYPE, "a $(dtype_name(t)) tensor viewed as $T elements"))
        ndims(t) == N ||
            throw(CTensorError(TENSOR_E_SHAPE, "a $(ndims(t))-dim tensor viewed as a $N-dim array"))
        return new{T,N}(t, Ptr{T}(pointer(t)), size(t), strides(t), is_readonly(t))
    end
end
TensorArray{T}(t::Tensor) where {T} = TensorArray{T,ndims(t)}(t)
TensorArray(t::Tensor) = TensorArray{eltype(t)}(t)

Base.size(A::TensorArray) = A.size
Base.strides(A::TensorArray) = A.strides
Base.elsize(::Type{<:TensorArray{T}}) where {T} = sizeof(T)

function Base.unsafe_convert(::Type{Ptr{T}}, A::TensorArray{T}) where {T}
    isopen(A.tensor) || throw_closed()
    return A.data
end

# Address of A[I...]. Checked always: the memory is ctensor's, and closing the tensor
# may have freed it.
function element_pointer(A::TensorArray{T,N}, I::NTuple{N,Int}) where {T,N}
    isopen(A.tensor) || throw_closed()
    all(ntuple(k -> 1 <= I[k] <= A.size[k], Val(N))) ||
        throw(CTensorError(TENSOR_E_BOUNDS, "index $I out of range for size $(A.size)"))
    offset = sum(ntuple(k -> (I[k] - 1) * A.strides[k], Val(N)); init=0)
    return A.data + offset * sizeof(T)
end

load(p::Ptr) = unsafe_load(p)
load(p::Ptr{Bool}) = unsafe_load(Ptr{UInt8}(p)) != 0x00  # any non-zero byte is true, as in ctensor

Base.getindex(A::TensorArray{T,N}, I::Vararg{Int,N}) where {T,N} =
    GC.@preserve A load(element_pointer(A, I))

function Base.setindex!(A::TensorArray{T,N}, value, I::Vararg{Int,N}) where {T,N}
    A.readonly && throw(CTensorError(TENSOR_E_READONLY, "write into a read-only tensor"))
    element = convert(T, value)
    GC.@preserve A unsafe_store!(element_pointer(A, I), element)
    return A
end
