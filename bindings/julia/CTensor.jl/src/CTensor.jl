"""
    CTensor

Julia binding of libctensor (PyTorch's memory model in C): `Tensor` handles over
refcounted storages, zero-copy import of Julia arrays, bounds-checked views, copies with
dtype conversion, and `TensorArray`, an `AbstractArray` over a tensor's elements.

The library is found at load time: `ENV["CTENSOR_LIB"]` (a path), else `libctensor`
through the system loader, else in `pkg-config --variable=libdir ctensor`.
"""
module CTensor

using Libdl

export Tensor, TensorArray, CTensorError, BFloat16,
       as_strided, permute, slice, select, narrow, expand, broadcast_to, squeeze, unsqueeze,
       flatten, view_dtype, contiguous, clone, to, zeros_like, storage_offset, is_contiguous, is_readonly,
       index_gather, index_put!, nonzero, fill_checked!

# ctensor names that Base also has: CTensor.view(t, 2, 3) etc. are new functions, not
# methods of Base's (their meaning differs), and are not exported.
function view end
function reshape end
function transpose end
function zeros end

include("LibCTensor.jl")
include("errors.jl")
include("dtypes.jl")
include("tensor.jl")
include("array.jl")

const CTENSOR_VERSION_NUMBER = 200  # the header version this package is written against (0.2.0)

function find_library()
    path = get(ENV, "CTENSOR_LIB", "")
    isempty(path) || return Libdl.dlpath(Libdl.dlopen(path))
    for name in ("libctensor", "libctensor.so.0")  # the development link, then the soname
        handle = Libdl.dlopen(name; throw_error=false)
        handle === nothing || return Libdl.dlpath(handle)
    end
    if Sys.which("pkg-config") !== nothing
        libdir = readchomp(pipeline(ignorestatus(`pkg-config --variable=libdir ctensor`); stderr=devnull))
        handle = isempty(libdir) ? nothing : Libdl.dlopen(joinpath(libdir, "libctensor"); throw_error=false)
        handle === nothing || return Libdl.dlpath(handle)
    end
    error("libctensor not found: set CTENSOR_LIB to the path of libctensor.so, or install " *
          "ctensor where the system loader or pkg-config finds it")
end

function __init__()
    LibCTensor.LIBPATH[] = find_library()
    RELEASE_ROOT[] = @cfunction(drop_root, Cvoid, (Ptr{Cvoid},))
    loaded = LibCTensor.tensor_version_number()
    loaded >= CTENSOR_VERSION_NUMBER ||
        error("$(LibCTensor.LIBPATH[]) is ctensor $loaded, older than $CTENSOR_VERSION_NUMBER")
    return nothing
end

end # module CTensor
