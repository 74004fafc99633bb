"""ctypes glue for the math differential tests: the math prototypes, tensors
made from NumPy/PyTorch data (any dtype, bfloat16 included) laid out as random
strided views (transposed, reversed, broadcast with zero strides, overlapping),
and results read back as NumPy arrays."""
import ctypes
import random

import numpy as np
import torch

from ctensor_ctypes import P, STATUS, Tensor, check, i32, int64_array, lib

OPS = ["add", "sub", "mul", "div", "pow", "maximum", "minimum", "eq", "ne", "lt", "le", "gt", "ge"]
REDUCTIONS = ["sum", "mean", "prod", "amax", "amin"]
# TENSOR_UOP_* order: the index is the op code (ctensor_ctypes declares the functions).
UNARY = ["neg", "abs", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos",
         "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "relu", "gelu", "erf", "floor", "ceil",
         "round", "trunc", "frac", "sign", "reciprocal", "square", "isnan", "isinf", "isfinite", "logical_not",
         "bitwise_not"]


ALL = [0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 15, 27, 28, 29]
NAMES = {0: "uint8", 1: "int8", 2: "int16", 3: "int32", 4: "int64", 5: "float16", 6: "float32",
         7: "float64", 9: "complex64", 10: "complex128", 11: "bool", 15: "bfloat16", 27: "uint16",
         28: "uint32", 29: "uint64"}
TORCH = {0: torch.uint8, 1: torch.int8, 2: torch.int16, 3: torch.int32, 4: torch.int64,
         5: torch.float16, 6: torch.float32, 7: torch.float64, 9: torch.complex64,
         10: torch.complex128, 11: torch.bool, 15: torch.bfloat16}
FROM_TORCH = {v: k for k, v in TORCH.items()}
# NumPy storage of each dtype (bfloat16 as its uint16 bits).
STORE = {0: np.uint8, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.int64, 5: np.float16,
         6: np.float32, 7: np.float64, 9: np.complex64, 10: np.complex128, 11: np.bool_,
         15: np.uint16, 27: np.uint16, 28: np.uint32, 29: np.uint64}
UNSIGNED_WIDE = [27, 28, 29]
INTS = [0, 1, 2, 3, 4, 27, 28, 29]
FLOATS = [5, 6, 7, 15]
COMPLEX = [9, 10]


def kind(d):
    if d == 11:
        return 0
    if d in INTS:
        return 1
    if d in FLOATS:
        return 2
    return 3


def new_ref(fn, *args):
    """Calls fn(&out, *args) and wraps *out; raises CtensorError on failure."""
    out = ctypes.c_void_p()
    check(fn(ctypes.byref(out), *args))
    return Tensor(out.value)


def status_of(fn, *args):
    out = ctypes.c_void_p()
    st = fn(ctypes.byref(out), *args)
    if out.value:
        lib.tensor_release(out)
    return st


def bf16_bits(values):
    """float32 values rounded to bfloat16, as their bits."""
    values = np.asarray(values, dtype=np.float32)
    flat = torch.from_numpy(values.reshape(-1).copy()).to(torch.bfloat16).view(torch.int16).numpy()
    return flat.view(np.uint16).reshape(values.shape)


def bf16_values(bits):
    return (bits.astype(np.uint32) << 16).view(np.float32)


def storage_array(values, dtype):
    """values (any NumPy array) as the storage array of ctensor dtype `dtype`."""
    if dtype == 15:
        return bf16_bits(values)
    return np.asarray(values).astype(STORE[dtype])


def from_array(arr, dtype):
    """A contiguous ctensor tensor of `dtype` holding `arr` (a storage array)."""
    arr = np.require(arr, requirements="C")  # keeps 0-dim arrays 0-dim
    return new_ref(lib.tensor_from_data, arr.ctypes.data_as(P), arr.ndim, int64_array(arr.shape), dtype)


def to_array(t):
    """A NumPy copy of t's elements (bfloat16 as float32 values)."""
    c = new_ref(lib.tensor_clone, t.handle)
    dtype = c.dtype
    n = int(np.prod(c.shape)) if c.shape else 1
    item = np.dtype(STORE[dtype]).itemsize
    raw = ctypes.string_at(c.data_ptr, n * item) if n else b""
    arr = np.frombuffer(raw, dtype=STORE[dtype]).copy()
    return (bf16_values(arr) if dtype == 15 else arr).reshape(c.shape)


def values_for(dtype, n, rng, small=False):
    """n random values of a dtype (float64/complex128 NumPy), with some specials."""
    if dtype == 11:
        return rng.integers(0, 2, n).astype(np.float64)
    if dtype in INTS:
        info = np.iinfo(STORE[dtype])
        if small:
            lo, hi = max(int(info.min), -6), min(int(info.max), 6)
        else:
            lo, hi = int(info.min), int(info.max)
        v = rng.integers(lo, hi, n, endpoint=True, dtype=np.int64 if dtype != 29 else np.uint64)
        return v
    scale = 4.0 if small else 100.0
    v = rng.standard_normal(n) * scale
    if dtype in COMPLEX:
        v = v + 1j * rng.standard_normal(n) * scale
    return v


def random_view(shape, dtype, rng, layout=None):
    """A ctensor view of `shape` (random layout) and the NumPy storage values of
    its elements in C order (bfloat16 as float32 values)."""
    layouts = ["contiguous", "transposed", "reversed", "broadcast", "overlapping", "offset"]
    layout = layout or layouts[rng.integers(len(layouts))]
    nd = len(shape)
    if layout == "transposed" and nd >= 2:
        perm = list(rng.permutation(nd))
    else:
        perm = list(range(nd))
    sizes = list(shape)
    strides = [0] * nd
    s = 1
    for d in reversed(perm):
        strides[d] = s
        s *= max(sizes[d], 1)
    if layout == "broadcast":
        for d in range(nd):
            if rng.random() < 0.5:
                strides[d] = 0
    if layout == "overlapping" and nd >= 1:
        d = int(rng.integers(nd))
        strides[d] = max(1, strides[d] // 2) if strides[d] > 1 else 0
    if layout == "reversed":
        for d in range(nd):
            if rng.random() < 0.6:
                strides[d] = -strides[d]
    offset = 0
    for d in range(nd):
        if strides[d] < 0 and sizes[d] > 0:
            offset += -strides[d] * (sizes[d] - 1)
    if layout == "offset":
        offset += 3
    extent = offset + sum(st * (sz - 1) for st, sz in zip(strides, sizes) if st > 0 and sz > 0) + 1
    base_vals = values_for(dtype, extent, rng)
    base = storage_array(base_vals, dtype)
    base_t = from_array(base, dtype)
    view = new_ref(lib.tensor_as_strided, base_t.handle, nd, int64_array(sizes), int64_array(strides), offset)
    item = base.itemsize
    vals = np.lib.stride_tricks.as_strided(base[offset:], shape=sizes, strides=[st * item for st in strides]) \
        if all(st >= 0 for st in strides) else _gather(base, sizes, strides, offset)
    vals = np.array(vals)
    if dtype == 15:
        vals = bf16_values(vals.reshape(-1)).reshape(vals.shape)
    return view, vals


def _gather(base, sizes, strides, offset):
    idx = np.full(sizes, offset, dtype=np.int64)
    for d, (sz, st) in enumerate(zip(sizes, strides)):
        shape = [1] * len(sizes)
        shape[d] = sz
        idx = idx + (np.arange(sz) * st).reshape(shape)
    return base[idx]


def to_torch(vals, dtype):
    """Element values (as from random_view) as a torch tensor of `dtype`."""
    vals = np.asarray(vals)
    if dtype == 15:
        return torch.from_numpy(vals.astype(np.float32).reshape(-1)).to(torch.bfloat16).reshape(vals.shape)
    return torch.from_numpy(vals.astype(STORE[dtype]).reshape(-1)).reshape(vals.shape)


def torch_to_numpy(t):
    if t.dtype == torch.bfloat16:
        return t.float().numpy()
    return t.numpy()


def scalar(value):
    """A ctensor wrapped number for a Python number."""
    if isinstance(value, bool):
        return new_ref(lib.tensor_scalar_bool, int(value))
    if isinstance(value, int):
        return new_ref(lib.tensor_scalar_int64, value)
    if isinstance(value, float):
        return new_ref(lib.tensor_scalar_float64, value)
    return new_ref(lib.tensor_scalar_complex128, value.real, value.imag)


def result_type(a, b):
    out = i32()
    check(lib.tensor_result_type(ctypes.byref(out), a.handle, b.handle))
    return out.value


def zero_dim(value, dtype):
    return from_array(storage_array(np.array(value), dtype), dtype)
