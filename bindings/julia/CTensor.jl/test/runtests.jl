# Tests of the Julia binding: run with CTENSOR_LIB=/path/to/libctensor.so julia --project -e
# 'using Pkg; Pkg.test()' (see the README; these have not been run in this repository's CI).
# Expected sizes, strides and offsets are PyTorch 1.13's for the same views.
using CTensor
using CTensor: TENSOR_E_INVALID, TENSOR_E_BOUNDS, TENSOR_E_SHAPE, TENSOR_E_STRIDE,
               TENSOR_E_DTYPE, TENSOR_E_READONLY, TENSOR_E_OVERLAP, TENSOR_E_COPY, TENSOR_E_OVERFLOW
using LinearAlgebra
using Test

# Runs f, which must throw a CTensorError with `status` and a message; returns the error.
function expect_error(f, status)
    err = try
        f()
        nothing
    catch e
        e
    end
    @test err isa CTensorError
    if err isa CTensorError
        @test err.status == status
        @test !isempty(err.message)
    end
    return err
end

meta(t) = (size(t), strides(t), storage_offset(t))

# Collects garbage until the count of rooted arrays is `n` (finalizers run after a
# collection) or stops changing; returns the count.
function collect_roots(n=-1)
    count = CTensor.rooted_count()
    for _ in 1:10
        GC.gc(true)
        previous, count = count, CTensor.rooted_count()
        (count == n || (n < 0 && count == previous)) && break
    end
    return count
end

@testset "CTensor" begin

@testset "library" begin
    @test CTensor.version() >= v"0.1.0"
    @test CTensor.status_name(TENSOR_E_BOUNDS) == "TENSOR_E_BOUNDS"
    @test CTensor.status_name(99) == "unknown status 99"
end

@testset "dtypes" begin
    for T in (UInt8, Int8, Int16, Int32, Int64, Float16, Float32, Float64, ComplexF32,
              ComplexF64, Bool, BFloat16, UInt16, UInt32, UInt64)
        t = Tensor(undef, T, 2, 3)
        @test eltype(t) === T
        @test meta(t) == ((2, 3), (3, 1), 0)
        @test TensorArray(t) isa AbstractMatrix{T}
        close(t)
    end
    @test CTensor.dtype_name(CTensor.zeros(Float32, 1)) == "float32"
    @test CTensor.dtype_name(CTensor.zeros(BFloat16, 1)) == "bfloat16"
    expect_error(TENSOR_E_DTYPE) do
        Tensor(Int128[1, 2])
    end
    expect_error(TENSOR_E_DTYPE) do
        Tensor(undef, String, 2)
    end
end

@testset "new tensors" begin
    z = CTensor.zeros(Float64, 2, 3, 4)
    @test meta(z) == ((2, 3, 4), (12, 4, 1), 0)
    @test length(z) == 24 && ndims(z) == 3
    @test is_contiguous(z) && !is_readonly(z)
    @test Array(z) == zeros(2, 3, 4)
    s = CTensor.zeros(Int32)
    @test meta(s) == ((), (), 0) && length(s) == 1
    @test Array(s) == fill(Int32(0))
    @test sprint(show, CTensor.zeros(Float32, 2, 3)) ==
          "CTensor.Tensor(float32, size=(2, 3), strides=(3, 1), offset=0)"
    err = expect_error(TENSOR_E_INVALID) do
        Tensor(undef, Float32, 2, -1)
    end
    @test occursin("negative size -1", err.message)
    @test occursin("TENSOR_E_INVALID", sprint(showerror, err))
end

@testset "zero-copy import of a Julia Array" begin
    a = [1.0 3.0 5.0; 2.0 4.0 6.0]      # 2×3, column-major
    t = Tensor(a)
    @test meta(t) == ((2, 3), (1, 2), 0)
    @test pointer(t) == pointer(a)
    @test !is_contiguous(t)             # ctensor's contiguity is row-major
    A = TensorArray(t)
    @test A isa AbstractMatrix{Float64}
    @test size(A) == size(a) && strides(A) == strides(a)
    @test A == a
    A[2, 1] = 20.0
    @test a[2, 1] == 20.0               # writes through the tensor reach a
    a[1, 3] = -5.0
    @test A[1, 3] == -5.0               # and a's writes are seen through it
    c = Array(t)
    @test c == a && c isa Matrix{Float64}
    c[1, 1] = 100.0
    @test a[1, 1] == 1.0                # Array(t) is a copy

    a3 = reshape(collect(1.0:24.0), 2, 3, 4)
    @test meta(Tensor(a3)) == ((2, 3, 4), (1, 2, 6), 0)
    @test meta(Tensor(Int32[1, 2, 3])) == ((3,), (1,), 0)
    s = Tensor(fill(2.5))
    @test ndims(s) == 0 && TensorArray(s)[] == 2.5
    e = Tensor(zeros(Float32, 0, 3))
    @test size(e) == (0, 3) && length(e) == 0
    @test Array(e) == zeros(Float32, 0, 3)
    b = Tensor([true, false, true])
    @test eltype(b) === Bool && TensorArray(b) == [true, false, true]
    zc = ComplexF64[1 + 2im, 3 - 4im]
    @test Array(Tensor(zc)) == zc
    h = Float16[0.5, -2]
    @test Array(Tensor(h)) == h

    r = Tensor([1.0, 2.0]; readonly=true)
    @test is_readonly(r) && is_readonly(slice(r, 1, 1:1))   # views of read-only memory too
    @test !is_readonly(clone(r))                            # copies are writable
end

@testset "lifetimes and GC roots" begin
    base = collect_roots()              # earlier test sets' garbage finalized first
    t = Tensor(collect(1.0:6.0))        # nothing else references the array
    @test CTensor.rooted_count() == base + 1
    @test CTensor.storage_refcount(t) == 1 && CTensor.refcount(t) == 1
    v = slice(t, 1, 2:2:6)
    @test CTensor.storage_refcount(t) == 2
    close(t)
    close(t)                            # idempotent
    @test !isopen(t) && isopen(v)
    GC.gc(true)
    @test TensorArray(v) == [2.0, 4.0, 6.0]   # the view keeps the array alive
    @test CTensor.rooted_count() == base + 1
    close(v)
    @test CTensor.rooted_count() == base      # the last release ran the callback

    # Unclosed tensors are released by their finalizers.
    drop_views() = (slice(Tensor(collect(1:10)), 1, 1:2:9); Tensor([1.0]); nothing)
    drop_views()
    @test collect_roots(base) == base

    # One array imported twice: two storages, two roots.
    a = [1, 2, 3]
    t1, t2 = Tensor(a), Tensor(a)
    @test CTensor.rooted_count() == base + 2
    close(t1)
    @test CTensor.rooted_count() == base + 1 && TensorArray(t2) == a
    close(t2)
    @test CTensor.rooted_count() == base

    # A Vector viewed by ctensor keeps its memory: push! fails (Julia 1.10) or moves the
    # Vector to new memory (1.11+); the tensor still reads the old elements.
    w = [1.0, 2.0]
    tw = Tensor(w)
    try
        push!(w, 3.0)
    catch
    end
    @test TensorArray(tw) == [1.0, 2.0]
    close(tw)

    # Release on another thread (or task).
    tt = Tensor(collect(1.0:3.0))
    wait(Threads.@spawn close(tt))
    @test !isopen(tt) && CTensor.rooted_count() == base

    # contiguous() of a contiguous tensor is the same tensor_t, one more reference.
    z = CTensor.zeros(Float32, 4)
    c = contiguous(z)
    @test CTensor.refcount(z) == 2 && pointer(c) == pointer(z)
    close(c)
    @test CTensor.refcount(z) == 1

    # A failed view keeps nothing.
    u = Tensor([1.0, 2.0])
    expect_error(() -> as_strided(u, (3,), (1,)), TENSOR_E_BOUNDS)
    @test CTensor.storage_refcount(u) == 1
    close(u)
    @test CTensor.rooted_count() == base
end

@testset "views: sizes, strides, offsets" begin
    z = Tensor(undef, Float32, 2, 3, 4)
    @test meta(CTensor.transpose(z, 1, 3)) == ((4, 3, 2), (1, 4, 12), 0)
    @test meta(permute(z, 3, 1, 2)) == ((4, 2, 3), (1, 12, 4), 0)
    @test meta(slice(z, 3, 4:-2:1)) == ((2, 3, 2), (12, 4, -2), 3)
    @test meta(slice(z, 2, 2:3)) == ((2, 2, 4), (12, 4, 1), 4)
    @test meta(slice(z, 2, 1:0)) == ((2, 0, 4), (12, 4, 1), 0)
    @test meta(select(z, 2, 3)) == ((2, 4), (12, 1), 8)
    @test meta(narrow(z, 3, 2, 2)) == ((2, 3, 2), (12, 4, 1), 1)
    @test meta(narrow(z, 3, 5, 0)) == ((2, 3, 0), (12, 4, 1), 4)
    @test meta(unsqueeze(z, 2)) == ((2, 1, 3, 4), (12, 12, 4, 1), 0)
    @test meta(unsqueeze(z, 4)) == ((2, 3, 4, 1), (12, 4, 1, 1), 0)
    @test meta(squeeze(unsqueeze(z, 2))) == ((2, 3, 4), (12, 4, 1), 0)
    @test meta(squeeze(unsqueeze(z, 2), 2)) == ((2, 3, 4), (12, 4, 1), 0)
    @test meta(squeeze(z, 1)) == ((2, 3, 4), (12, 4, 1), 0)    # size 2: unchanged
    @test meta(flatten(z)) == ((24,), (1,), 0)
    @test meta(flatten(z, 2, 3)) == ((2, 12), (12, 1), 0)
    @test meta(flatten(CTensor.zeros(Float32))) == ((1,), (1,), 0)
    @test meta(CTensor.view(z, 6, 4)) == ((6, 4), (4, 1), 0)
    @test meta(CTensor.view(z, -1, 8)) == ((3, 8), (8, 1), 0)
    @test meta(CTensor.reshape(z, 4, 6)) == ((4, 6), (6, 1), 0)
    @test meta(view_dtype(z, Int32)) == ((2, 3, 4), (12, 4, 1), 0)
    @test meta(view_dtype(z, UInt8)) == ((2, 3, 16), (48, 16, 1), 0)
    @test meta(view_dtype(z, Float64)) == ((2, 3, 2), (6, 2, 1), 0)
    @test meta(as_strided(z, (2, 2), (1, 2); offset=1)) == ((2, 2), (1, 2), 1)
    @test meta(as_strided(z, (4, 6))) == ((4, 6), (6, 1), 0)
    e = Tensor(reshape([1.0, 2.0], 2, 1))      # strides (1, 2)
    @test meta(expand(e, 2, 3)) == ((2, 3), (1, 0), 0)
    @test meta(expand(e, 4, -1, 3)) == ((4, 2, 3), (0, 1, 0), 0)
    @test meta(broadcast_to(e, 4, 2, 3)) == ((4, 2, 3), (0, 1, 0), 0)
    # Views share the storage and leave the input alone.
    @test pointer(select(z, 1, 1)) == pointer(z)
    @test meta(z) == ((2, 3, 4), (12, 4, 1), 0)
end

@testset "views: elements match Julia indexing" begin
    a = reshape(collect(1.0:24.0), 2, 3, 4)
    t = Tensor(a)
    @test TensorArray(CTensor.transpose(t, 1, 3)) == permutedims(a, (3, 2, 1))
    @test TensorArray(permute(t, 3, 1, 2)) == permutedims(a, (3, 1, 2))
    @test TensorArray(slice(t, 3, 4:-2:1)) == a[:, :, 4:-2:1]
    @test TensorArray(slice(t, 3, 4:-1:1)) == a[:, :, 4:-1:1]
    @test TensorArray(slice(t, 2, 1:2:3)) == a[:, 1:2:3, :]
    @test TensorArray(select(t, 2, 3)) == a[:, 3, :]
    # t[...] is one tensor_index call: the same elements as Julia's own indexing
    @test TensorArray(t[2, 1:2:3, 4:-1:1]) == a[2, 1:2:3, 4:-1:1]
    @test TensorArray(t[:, 3]) == a[:, 3, :]
    @test TensorArray(t[1:2, :, 2]) == a[1:2, :, 2]
    @test meta(t[2, 3, 4]) == ((), (), 23)
    @test size(t[:, 1:0, :]) == (2, 0, 4)
    @test TensorArray(narrow(t, 3, 2, 2)) == a[:, :, 2:3]
    @test TensorArray(squeeze(Tensor(Base.reshape(a, 2, 1, 12)))) == Base.reshape(a, 2, 12)
    @test TensorArray(expand(Tensor(reshape([1.0, 2.0], 2, 1)), 2, 3)) == [1.0 1.0 1.0; 2.0 2.0 2.0]
    @test TensorArray(as_strided(t, (2, 2), (3, 1); offset=1)) == [a[2] a[3]; a[5] a[6]]
    # flatten, view and reshape take elements in ctensor's row-major order:
    rowmajor = vec(permutedims(a, (3, 2, 1)))
    @test Array(flatten(t)) == rowmajor                        # a copy: t is column-major
    @test pointer(CTensor.reshape(t, 24)) != pointer(t)
    @test Array(CTensor.reshape(t, 24)) == rowmajor
    @test Array(flatten(CTensor.transpose(Tensor(reshape(collect(1.0:6.0), 3, 2)), 1, 2))) ==
          collect(1.0:6.0)                                     # a view: row-major already
    # Writes through a view reach the array.
    TensorArray(select(t, 1, 2))[3, 4] = -1.0
    @test a[2, 3, 4] == -1.0
end

@testset "views: errors" begin
    z = Tensor(undef, Float32, 2, 3, 4)
    err = expect_error(() -> CTensor.transpose(z, 0, 1), TENSOR_E_INVALID)
    @test occursin("dim 0 out of range 1:3", err.message)
    expect_error(() -> CTensor.transpose(z, 1, 4), TENSOR_E_INVALID)
    expect_error(() -> permute(z, 1, 1, 2), TENSOR_E_INVALID)
    expect_error(() -> permute(z, 1, 2), TENSOR_E_INVALID)
    expect_error(() -> select(z, 1, 3), TENSOR_E_BOUNDS)
    expect_error(() -> select(z, 1, 0), TENSOR_E_BOUNDS)
    expect_error(() -> slice(z, 3, 0:2), TENSOR_E_BOUNDS)
    expect_error(() -> z[3, :], TENSOR_E_BOUNDS)
    expect_error(() -> z[:, 0:2], TENSOR_E_BOUNDS)
    expect_error(() -> z[1, 1, 1, 1], TENSOR_E_INVALID)
    expect_error(() -> slice(z, 3, 1:5), TENSOR_E_BOUNDS)
    expect_error(() -> slice(z, 3, 5:-1:1), TENSOR_E_BOUNDS)
    expect_error(() -> narrow(z, 3, 3, 3), TENSOR_E_BOUNDS)
    expect_error(() -> narrow(z, 3, 1, -1), TENSOR_E_INVALID)
    expect_error(() -> unsqueeze(z, 5), TENSOR_E_INVALID)
    err = expect_error(() -> CTensor.view(z, 5, 5), TENSOR_E_SHAPE)
    @test occursin("[5, 5]", err.message)
    expect_error(() -> CTensor.view(CTensor.transpose(z, 1, 2), 24), TENSOR_E_STRIDE)
    expect_error(() -> CTensor.reshape(z, -1, -1), TENSOR_E_SHAPE)
    expect_error(() -> expand(z, 3, 3, 4), TENSOR_E_SHAPE)
    expect_error(() -> view_dtype(CTensor.transpose(z, 1, 3), Float64), TENSOR_E_STRIDE)
    err = expect_error(() -> as_strided(z, (5, 5), (5, 1)), TENSOR_E_BOUNDS)
    @test occursin("storage has 96 bytes", err.message)
    expect_error(() -> as_strided(z, (2,), (1, 1)), TENSOR_E_INVALID)
    expect_error(() -> as_strided(z, (-1,)), TENSOR_E_INVALID)
    @test meta(z) == ((2, 3, 4), (12, 4, 1), 0)   # failures leave the input alone
end

@testset "TensorArray misuse" begin
    a = [1.0 2.0; 3.0 4.0]
    t = Tensor(a)
    A = TensorArray(t)
    err = expect_error(() -> A[3, 1], TENSOR_E_BOUNDS)
    @test occursin("(3, 1)", err.message)
    expect_error(() -> A[0, 1], TENSOR_E_BOUNDS)
    expect_error(() -> (A[1, 3] = 0.0), TENSOR_E_BOUNDS)
    expect_error(() -> (@inbounds A[3, 1]), TENSOR_E_BOUNDS)   # not elided
    @test_throws BoundsError A[5]                              # Base checks linear indices
    expect_error(() -> TensorArray{Float32}(t), TENSOR_E_DTYPE)
    expect_error(() -> TensorArray{Float64,3}(t), TENSOR_E_SHAPE)
    @test_throws InexactError (TensorArray(Tensor([1, 2]))[1] = 1.5)   # Julia's own conversion
    ro = TensorArray(Tensor([1.0, 2.0]; readonly=true))
    expect_error(() -> (ro[1] = 0.0), TENSOR_E_READONLY)
    @test ro[1] == 1.0
    close(t)
    @test sprint(show, t) == "CTensor.Tensor(closed)"
    expect_error(() -> A[1, 1], TENSOR_E_INVALID)
    expect_error(() -> (A[1, 1] = 0.0), TENSOR_E_INVALID)
    expect_error(() -> pointer(A), TENSOR_E_INVALID)
    expect_error(() -> size(t), TENSOR_E_INVALID)
    expect_error(() -> CTensor.transpose(t, 1, 2), TENSOR_E_INVALID)
    expect_error(() -> Array(t), TENSOR_E_INVALID)
    expect_error(() -> TensorArray(t), TENSOR_E_INVALID)
    @test a == [1.0 2.0; 3.0 4.0]
end

@testset "copies and conversions" begin
    a = [1.0 3.0 5.0; 2.0 4.0 6.0]
    t = Tensor(a)
    c = contiguous(t)
    @test meta(c) == ((2, 3), (3, 1), 0) && is_contiguous(c) && pointer(c) != pointer(t)
    @test TensorArray(c) == a
    k = clone(t)
    @test meta(k) == ((2, 3), (3, 1), 0) && TensorArray(k) == a && pointer(k) != pointer(a)

    dst = CTensor.zeros(Float64, 2, 3)
    @test copyto!(dst, Tensor([10.0 20.0 30.0])) === dst      # (1, 3) broadcasts over rows
    @test Array(dst) == [10.0 20.0 30.0; 10.0 20.0 30.0]
    copyto!(dst, Tensor(Int32[1 2 3; 4 5 6]))                # converts int32 -> float64
    @test Array(dst) == [1.0 2.0 3.0; 4.0 5.0 6.0]
    copyto!(t, dst)                                           # into the imported array
    @test a == [1.0 2.0 3.0; 4.0 5.0 6.0]
    expect_error(() -> copyto!(dst, CTensor.zeros(Float64, 2)), TENSOR_E_SHAPE)
    expect_error(() -> copyto!(expand(CTensor.zeros(Float64, 1), 3), CTensor.zeros(Float64, 3)),
                 TENSOR_E_OVERLAP)

    @test Array(to(Tensor([1.5, -2.7, 300.0, NaN]), Int32)) == Int32[1, -2, 300, 0]
    @test Array(to(Tensor([-1.5, 300.7]), UInt8)) == UInt8[0, 255]   # saturates
    @test Array(to(Tensor([0.0, 2.0, NaN]), Bool)) == [false, true, true]
    @test pointer(to(t, Float64)) == pointer(t)                      # shares
    copied = to(t, Float64; copy=true)
    @test pointer(copied) != pointer(t) && Array(copied) == a
    err = expect_error(() -> to(t, Float32; copy=false), TENSOR_E_COPY)
    @test occursin("TENSOR_COPY_NEVER", err.message)

    bf = to(Tensor(Float32[1.5, -2.0, 3.0]), BFloat16)
    @test eltype(bf) === BFloat16
    @test reinterpret(UInt16, TensorArray(bf)[1]) == 0x3fc0
    @test Float32.(TensorArray(bf)) == Float32[1.5, -2.0, 3.0]
    @test Array(to(bf, Float32)) == Float32[1.5, -2.0, 3.0]

    @test fill!(dst, 7) === dst
    @test Array(dst) == fill(7.0, 2, 3)
    i8 = Tensor(zeros(Int8, 2))
    fill!(i8, 300.7)
    @test Array(i8) == Int8[127, 127]
    ro = Tensor([1.0]; readonly=true)
    expect_error(() -> fill!(ro, 0), TENSOR_E_READONLY)
    expect_error(() -> copyto!(ro, Tensor([2.0])), TENSOR_E_READONLY)
    expect_error(() -> fill!(expand(CTensor.zeros(Float64, 1), 2), 1), TENSOR_E_OVERLAP)
    one = CTensor.zeros(UInt8, 1)
    @test fill_checked!(expand(one, 3), -1) isa Tensor  # overlap allowed; -1 wraps as in PyTorch
    @test Array(one) == UInt8[255]
    expect_error(() -> fill_checked!(one, 256), TENSOR_E_OVERFLOW)
    expect_error(() -> fill_checked!(one, 1 + 2im), TENSOR_E_OVERFLOW)
    c = CTensor.zeros(ComplexF64, 2)
    fill_checked!(c, 1.5 - 2im)
    @test Array(c) == ComplexF64[1.5 - 2im, 1.5 - 2im]
end

@testset "memory formats and conversion policies" begin
    a = [1.0 3.0 5.0; 2.0 4.0 6.0]          # column-major: strides (1, 2)
    t = Tensor(a)
    s = similar(t)                           # preserve_format keeps the layout
    @test meta(s) == ((2, 3), (1, 2), 0) && eltype(s) === Float64
    @test strides(similar(t, Int32; memory_format=:contiguous)) == (3, 1)
    z = zeros_like(t, Int16)
    @test strides(z) == (1, 2) && eltype(z) === Int16 && all(iszero, Array(z))
    @test strides(zeros_like(slice(t, 2, 3:-1:1))) == (1, 2)   # strides (1, -2): by magnitude
    k = to(t, Float32; copy=true, memory_format=:preserve)
    @test strides(k) == (1, 2) && Array(k) == Float32.(a)
    @test strides(to(t, Float32)) == (3, 1)                     # the default: row-major

    x = Tensor([-3.7, 300.0, NaN, 1e10])
    @test Array(to(x, UInt8; conversion=:torch_x86)) == UInt8[253, 44, 0, 0]
    @test Array(to(x, UInt8)) == UInt8[0, 255, 0, 255]          # the library saturates
    @test Array(to(x, Int32; conversion=:torch_x86)) == Int32[-3, 300, typemin(Int32), typemin(Int32)]
    dst = CTensor.zeros(UInt8, 4)
    @test copyto!(dst, x; conversion=:torch_x86) === dst
    @test Array(dst) == UInt8[253, 44, 0, 0]
    expect_error(() -> similar(t; memory_format=:channels_last), TENSOR_E_INVALID)
    expect_error(() -> copyto!(dst, x; conversion=:numpy), TENSOR_E_INVALID)
end

@testset "strided BLAS paths" begin
    a = [1.0 2.0; 3.0 4.0; 5.0 6.0]     # 3×2
    b = [1.0 0.0 2.0; 0.0 1.0 3.0]      # 2×3
    cm = zeros(3, 3)
    A, B, C = TensorArray(Tensor(a)), TensorArray(Tensor(b)), TensorArray(Tensor(cm))
    @test Base.unsafe_convert(Ptr{Float64}, A) == pointer(a)
    @test Base.elsize(typeof(A)) == 8
    BLAS.gemm!('N', 'N', 1.0, A, B, 0.0, C)
    @test cm ≈ a * b
    # A row-major ctensor matrix transposed is column-major: BLAS takes it as it is.
    r = CTensor.zeros(Float64, 2, 3)    # strides (3, 1)
    copyto!(r, Tensor(b))
    Rt = TensorArray(CTensor.transpose(r, 1, 2))
    @test size(Rt) == (3, 2) && strides(Rt) == (1, 3)
    y = zeros(3)
    BLAS.gemv!('N', 1.0, Rt, [1.0, 10.0], 0.0, y)
    @test y ≈ permutedims(b) * [1.0, 10.0]
end

@testset "advanced indexing" begin
    a = [1 2 3; 4 5 6]
    t = Tensor(a)
    @test Array(index_gather(t, (1,), [2, 1])) == a[[2, 1], :]
    @test Array(index_gather(t, (2,), [3, 3])) == a[:, [3, 3]]
    @test Array(index_gather(t, (1, 2), [1, 2], [3, 1])) == [a[1, 3], a[2, 1]]  # paired, not every combination
    z = reshape(collect(1:24), 2, 3, 4)
    r = index_gather(Tensor(z), (1, 3), [1, 2], [4, 1])                       # separated dims lead
    @test size(r) == (2, 3) && Array(r) == [z[i, j, k] for (i, k) in ((1, 4), (2, 1)), j in 1:3]
    m = Tensor([true false true; false true false])
    @test nonzero(m) == [1 1; 1 3; 2 2]                                          # row-major order
    @test Array(index_gather(t, 1:2, eachcol(nonzero(m))...)) == [1, 3, 5]
    expect_error(() -> index_gather(t, (1,), [3]), TENSOR_E_BOUNDS)
    expect_error(() -> index_gather(t, (1, 2), [1, 2], [1, 2, 3]), TENSOR_E_SHAPE)
    expect_error(() -> index_gather(t, (2, 1), [1], [1]), TENSOR_E_INVALID)
    u = CTensor.zeros(Float64, 5)
    index_put!(u, Tensor([7.0, 8.0, 9.0]), (1,), [2, 4, 2])                      # the last of two writes wins
    @test Array(u) == [0.0, 9.0, 0.0, 8.0, 0.0]
    frozen = Tensor([1.0, 2.0]; readonly=true)
    expect_error(() -> index_put!(frozen, Tensor([5.0]), (1,), [1]), TENSOR_E_READONLY)
end

@testset "copy threads" begin
    n = CTensor.num_threads()
    CTensor.set_num_threads(2)
    @test CTensor.num_threads() == 2
    big = CTensor.zeros(Float32, 1024, 1024)           # 4 MiB: large enough to split
    fill!(big, 1.5)
    @test all(==(1.5f0), Array(contiguous(CTensor.transpose(big, 1, 2))))
    CTensor.set_num_threads(n)
    expect_error(() -> CTensor.set_num_threads(0), TENSOR_E_INVALID)
end

end # @testset "CTensor"
