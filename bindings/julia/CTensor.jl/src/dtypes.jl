# ctensor dtypes and the Julia element types they map to.

"""
    BFloat16

ctensor's bfloat16 (the upper 16 bits of a Float32) as a 16-bit bits type, so that
bfloat16 tensors can be read and written element by element. `Float32(x)` and
`Float64(x)` widen exactly; there is no arithmetic and no rounding conversion to
BFloat16: convert tensors with `to(t, BFloat16)` / `to(t, Float32)`, which use
ctensor's rounding. `reinterpret(UInt16, x)` gives the bits.
"""
primitive type BFloat16 16 end

Base.Float32(x::BFloat16) = reinterpret(Float32, UInt32(reinterpret(UInt16, x)) << 16)
Base.Float64(x::BFloat16) = Float64(Float32(x))
Base.show(io::IO, x::BFloat16) = print(io, "BFloat16(", Float32(x), ")")

# dtype values equal PyTorch's ScalarType (TENSOR_UINT8 = 0, ...). Bool is one byte, as
# ctensor's bool; complex types are two floats, as C's.
const DTYPES = (UInt8 => 0, Int8 => 1, Int16 => 2, Int32 => 3, Int64 => 4, Float16 => 5,
                Float32 => 6, Float64 => 7, ComplexF32 => 9, ComplexF64 => 10, Bool => 11,
                BFloat16 => 15, UInt16 => 27, UInt32 => 28, UInt64 => 29)
const DTYPE_OF = Dict{Type,Int32}(T => Int32(d) for (T, d) in DTYPES)
const TYPE_OF = Dict{Int32,Type}(Int32(d) => T for (T, d) in DTYPES)

"""
    dtype_of(T) -> Int32

ctensor's dtype value for the Julia element type `T`; a `CTensorError` with
`TENSOR_E_DTYPE` for a type ctensor has no dtype for (`Int128`, `String`, ...).
"""
function dtype_of(T::Type)
    dtype = get(DTYPE_OF, T, nothing)
    dtype === nothing && throw(CTensorError(TENSOR_E_DTYPE, "no ctensor dtype for Julia type $T"))
    return dtype
end

# Every dtype the library hands out is in the table.
julia_type(dtype::Int32) = TYPE_OF[dtype]
