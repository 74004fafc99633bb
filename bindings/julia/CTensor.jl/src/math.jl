# Math on tensors (the C API's unary family, clamp, where, argmax/argmin, cumsum/cumprod,
# softmax/log_softmax): each makes a new tensor, as PyTorch does, with its dtype rules
# (floating-point functions of Bool and integers give Float32, predicates give Bool, a
# dtype an op refuses raises TENSOR_E_DTYPE). Dims are 1-based as everywhere here.

# The unary family: PyTorch's name => the header's TENSOR_UOP_* code
# (tests/check_julia_ccalls.py checks the codes against the header).
const UNARY_OPS = (neg = 0, abs = 1, exp = 2, exp2 = 3, expm1 = 4, log = 5, log2 = 6, log10 = 7,
                   log1p = 8, sqrt = 9, rsqrt = 10, sin = 11, cos = 12, tan = 13, asin = 14, acos = 15,
                   atan = 16, sinh = 17, cosh = 18, tanh = 19, sigmoid = 20, relu = 21, gelu = 22, erf = 23,
                   floor = 24, ceil = 25, round = 26, trunc = 27, frac = 28, sign = 29, reciprocal = 30,
                   square = 31, isnan = 32, isinf = 33, isfinite = 34, logical_not = 35, bitwise_not = 36)

function unary_code(op::Symbol)
    haskey(UNARY_OPS, op) ||
        throw(CTensorError(TENSOR_E_INVALID, "unary: unknown op :$op (one of $(join(keys(UNARY_OPS), ", ")))"))
    return Int32(UNARY_OPS[op])
end

"""
    unary(t, op::Symbol)

`op(t)` element-wise in a new tensor of t's size, `op` one of `keys(CTensor.UNARY_OPS)`
(`:exp`, `:sqrt`, `:isnan`, ...); the same as op's own function (`unary(t, :exp) ==
exp(t)`). Bool and integer inputs to the floating-point functions give Float32.
"""
unary(t::Tensor, op::Symbol) = new_tensor(out -> LibCTensor.tensor_unary(out, unary_code(op), t))

"""
    unary!(dst, op::Symbol, a)

`dst = op(a)` (PyTorch's `out=`): dst has a's size and an element type op's result
converts to (TENSOR_E_DTYPE otherwise, e.g. Float32 into Int32); dst may be a itself.
Returns dst.
"""
function unary!(dst::Tensor, op::Symbol, a::Tensor)
    check(LibCTensor.tensor_unary_into(dst, unary_code(op), a))
    return dst
end

# Base's element-wise functions on a Tensor are PyTorch's, element by element (a Tensor is
# not an AbstractArray: exp(t) is torch.exp, not a matrix exponential).
for op in (:abs, :exp, :exp2, :expm1, :log, :log2, :log10, :log1p, :sqrt, :sin, :cos, :tan, :asin,
           :acos, :atan, :sinh, :cosh, :tanh, :floor, :ceil, :round, :trunc, :sign, :isnan, :isinf,
           :isfinite)
    @eval Base.$op(t::Tensor) = unary(t, $(QuoteNode(op)))
end
Base.:-(t::Tensor) = unary(t, :neg)
Base.:!(t::Tensor) = unary(t, :logical_not)
Base.:~(t::Tensor) = unary(t, :bitwise_not)

# The ops Base has no function for, exported under PyTorch's names.
for op in (:rsqrt, :sigmoid, :relu, :gelu, :erf, :frac, :reciprocal, :square, :logical_not, :bitwise_not)
    @eval $op(t::Tensor) = unary(t, $(QuoteNode(op)))
end

@doc "`1/sqrt(t)` element-wise (`unary(t, :rsqrt)`)." rsqrt
@doc "`1/(1+exp(-t))` element-wise (`unary(t, :sigmoid)`)." sigmoid
@doc "`max(t, 0)` element-wise; integers keep their type (`unary(t, :relu)`)." relu
@doc "PyTorch's exact (erf) GELU element-wise; floating types only (`unary(t, :gelu)`)." gelu
@doc "The error function element-wise (`unary(t, :erf)`)." erf
@doc "`t - trunc(t)` element-wise; floating types only (`unary(t, :frac)`)." frac
@doc "`1/t` element-wise (`unary(t, :reciprocal)`)." reciprocal
@doc "`t*t` element-wise; Bool gives Int64 (`unary(t, :square)`)." square
@doc "`t == 0` element-wise as Bool (also `!t`)." logical_not
@doc "`~t` element-wise (Bool: not); Bool and integers only (also `~t`)." bitwise_not

# A math operand: a Tensor as it is, or a Julia number as a wrapped number that promotes
# as a Python number does in PyTorch (an Int8 tensor with an Int bound stays Int8).
scalar_tensor(x::Bool) = new_tensor(out -> LibCTensor.tensor_scalar_bool(out, Int32(x)))
scalar_tensor(x::Integer) = new_tensor(out -> LibCTensor.tensor_scalar_int64(out, Int64(x)))
scalar_tensor(x::AbstractFloat) = new_tensor(out -> LibCTensor.tensor_scalar_float64(out, Float64(x)))

# f(handles...): each operand's tensor_t pointer (C_NULL for nothing); the wrapped numbers
# made for the call are closed afterwards.
function with_operands(f, xs...)
    made = Tensor[]
    operand(x::Nothing) = nothing
    operand(x::Tensor) = x
    operand(x::Real) = (t = scalar_tensor(x); push!(made, t); t)
    try
        ts = map(operand, xs)
        handles = map(t -> t === nothing ? C_NULL : Base.unsafe_convert(Ptr{Cvoid}, t), ts)
        return GC.@preserve ts f(handles...)
    finally
        foreach(close, made)
    end
end

const Bound = Union{Tensor,Real,Nothing}

"""
    clamp(t::Tensor, lo, hi)

PyTorch's `clamp` (`clip`): `min(max(t, lo), hi)` element-wise in a new tensor. Each bound
is a Tensor (broadcast with t), a number (promoting as a Python number: an Int8 tensor
with an `Int` bound stays Int8, with a `Float64` bound gives Float32) or `nothing` (no
bound; not both). NaN in t stays NaN; `lo > hi` gives hi.
"""
Base.clamp(t::Tensor, lo::Bound, hi::Bound) =
    with_operands(t, lo, hi) do a, l, h
        new_tensor(out -> LibCTensor.tensor_clamp(out, a, l, h))
    end

"""
    clamp!(t::Tensor, lo, hi)
    clamp!(dst::Tensor, t::Tensor, lo, hi)

`clamp` in place, or into dst (PyTorch's `out=`: dst has the broadcast size and a type the
result converts to). Returns the tensor written.
"""
Base.clamp!(t::Tensor, lo::Bound, hi::Bound) = clamp!(t, t, lo, hi)
function Base.clamp!(dst::Tensor, t::Tensor, lo::Bound, hi::Bound)
    with_operands(t, lo, hi) do a, l, h
        check(LibCTensor.tensor_clamp_into(dst, a, l, h))
    end
    return dst
end

"""
    where_cond(cond::Tensor, a, b)

PyTorch's `where` (`where` is a Julia keyword; the Rust binding has the same name): a
where cond is true, else b, in a new tensor; cond (Bool or UInt8), a and b broadcast, a
and b (Tensors or numbers) promote together.
"""
where_cond(cond::Tensor, a::Union{Tensor,Real}, b::Union{Tensor,Real}) =
    with_operands(cond, a, b) do c, x, y
        new_tensor(out -> LibCTensor.tensor_where(out, c, x, y))
    end

"""
    where_cond!(dst::Tensor, cond::Tensor, a, b)

`where_cond` into dst (PyTorch's `out=`). Returns dst.
"""
function where_cond!(dst::Tensor, cond::Tensor, a::Union{Tensor,Real}, b::Union{Tensor,Real})
    with_operands(cond, a, b) do c, x, y
        check(LibCTensor.tensor_where_into(dst, c, x, y))
    end
    return dst
end

# A 1-based dim (or nothing: every dim) as the C API's.
arg_dim(t::Tensor, dims::Nothing) = typemin(Int64)  # TENSOR_ALL_DIMS
arg_dim(t::Tensor, dims::Integer) = cdim(t, dims)

# The positions C gives are 0-based; Julia's are 1-based.
function one_based!(positions::Tensor)
    A = TensorArray(positions)
    for i in eachindex(A)
        A[i] += 1
    end
    return positions
end

"""
    argmax(t::Tensor; dims=nothing, keepdim=false)

A new Int64 tensor of the 1-based position of the first largest element along dim
`dims` (NaN counts as the largest), that dim dropped (kept as size 1 with `keepdim`);
`dims=nothing` searches all of t in ctensor's row-major order (a 0-dim result, or size
1 in every dim with `keepdim`), as `torch.argmax(t)`, plus 1. An empty search raises
TENSOR_E_SHAPE, Bool and complex tensors TENSOR_E_DTYPE.
"""
Base.argmax(t::Tensor; dims::Union{Integer,Nothing}=nothing, keepdim::Bool=false) =
    one_based!(new_tensor(out -> LibCTensor.tensor_argmax(out, t, arg_dim(t, dims), Int32(keepdim))))

"""
    argmin(t::Tensor; dims=nothing, keepdim=false)

As `argmax`, the first smallest (NaN counts as the smallest).
"""
Base.argmin(t::Tensor; dims::Union{Integer,Nothing}=nothing, keepdim::Bool=false) =
    one_based!(new_tensor(out -> LibCTensor.tensor_argmin(out, t, arg_dim(t, dims), Int32(keepdim))))

"""
    argmax!(dst::Tensor, t::Tensor; dims=nothing, keepdim=false)
    argmin!(dst::Tensor, t::Tensor; dims=nothing, keepdim=false)

`argmax`/`argmin` into dst, an Int64 tensor of the result's size. Returns dst.
"""
function argmax!(dst::Tensor, t::Tensor; dims::Union{Integer,Nothing}=nothing, keepdim::Bool=false)
    check(LibCTensor.tensor_argmax_into(dst, t, arg_dim(t, dims), Int32(keepdim)))
    return one_based!(dst)
end
function argmin!(dst::Tensor, t::Tensor; dims::Union{Integer,Nothing}=nothing, keepdim::Bool=false)
    check(LibCTensor.tensor_argmin_into(dst, t, arg_dim(t, dims), Int32(keepdim)))
    return one_based!(dst)
end

"""
    cumsum(t::Tensor; dims)
    cumprod(t::Tensor; dims)

The running sum (product) along dim `dims` in a new tensor; Bool and integers give Int64.
"""
Base.cumsum(t::Tensor; dims::Integer) = new_tensor(out -> LibCTensor.tensor_cumsum(out, t, cdim(t, dims)))
Base.cumprod(t::Tensor; dims::Integer) = new_tensor(out -> LibCTensor.tensor_cumprod(out, t, cdim(t, dims)))

"""
    cumsum!(dst::Tensor, t::Tensor; dims)
    cumprod!(dst::Tensor, t::Tensor; dims)

`cumsum`/`cumprod` into dst (t's size, a type the result converts to). Returns dst.
"""
function Base.cumsum!(dst::Tensor, t::Tensor; dims::Integer)
    check(LibCTensor.tensor_cumsum_into(dst, t, cdim(t, dims)))
    return dst
end
function Base.cumprod!(dst::Tensor, t::Tensor; dims::Integer)
    check(LibCTensor.tensor_cumprod_into(dst, t, cdim(t, dims)))
    return dst
end

"""
    softmax(t::Tensor; dims)
    logsoftmax(t::Tensor; dims)

PyTorch's `softmax` (`log_softmax`) along dim `dims`, in t's type (floating types only,
else TENSOR_E_DTYPE); the maximum is subtracted first, so large inputs do not overflow.
"""
softmax(t::Tensor; dims::Integer) = new_tensor(out -> LibCTensor.tensor_softmax(out, t, cdim(t, dims)))
logsoftmax(t::Tensor; dims::Integer) = new_tensor(out -> LibCTensor.tensor_log_softmax(out, t, cdim(t, dims)))

"""
    softmax!(dst::Tensor, t::Tensor; dims)
    logsoftmax!(dst::Tensor, t::Tensor; dims)

`softmax`/`logsoftmax` into dst, of t's size and type. Returns dst.
"""
function softmax!(dst::Tensor, t::Tensor; dims::Integer)
    check(LibCTensor.tensor_softmax_into(dst, t, cdim(t, dims)))
    return dst
end
function logsoftmax!(dst::Tensor, t::Tensor; dims::Integer)
    check(LibCTensor.tensor_log_softmax_into(dst, t, cdim(t, dims)))
    return dst
end
