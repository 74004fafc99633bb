"""The unary family (tensor_unary, tensor_unary_into and the named functions)
against PyTorch 1.13: result dtypes, refusals, and values over random inputs
with subnormals, +-inf, NaN, +-0 and the edges of each function's domain, in
contiguous, transposed, reversed and broadcast layouts, within
torch.testing.assert_close's default tolerances for the result dtype (NaN at the
same places; the sign of zero results where the function defines it)."""
import warnings

import numpy as np
import pytest
import torch

from ctensor_ctypes import STATUS, int64_array, lib
from math_helpers import (COMPLEX, FLOATS, FROM_TORCH, NAMES, STORE, TORCH, UNARY, from_array, new_ref,
                          status_of, storage_array, to_array)

warnings.filterwarnings("ignore")
CODE = {name: i for i, name in enumerate(UNARY)}
TORCH_DTYPES = sorted(TORCH)
# Where the sign of a zero result is not part of the function (PyTorch's own
# kernels differ between their vector and scalar paths there).
ZERO_SIGN_FREE = {"sigmoid", "gelu", "exp", "exp2", "cosh", "log", "log2", "log10", "acos"}


def torch_fn(name):
    return torch.nn.functional.gelu if name == "gelu" else getattr(torch, name)


def special_values(dtype, rng, n):
    """n values of a real float dtype: normals of several scales, and specials."""
    info = torch.finfo(TORCH[dtype])
    tiny = float(info.tiny)
    specials = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 1.0000001, -1.0000001, 0.5, -0.5, 2.5, -2.5,
                tiny, -tiny, tiny / 4, -tiny / 4, float(info.max), -float(info.max), 88.7, 89.0, -87.3, -104.0,
                709.0, 709.9, 710.0, 710.6, -745.0, 88.6, -89.3, 1e-30, -1e-30, 3.14159265, 1.5707963, 20.0, -20.0, 1e4, -1e4, 1e20, 2.0**24 + 1]
    v = np.concatenate([
        rng.standard_normal(n) * rng.choice([1e-3, 0.5, 3.0, 50.0, 1e3], n),
        rng.uniform(-1.2, 1.2, n),
        np.array(specials)])
    rng.shuffle(v)
    return v


def values(dtype, rng, n):
    if dtype == 11:
        return rng.integers(0, 2, n).astype(np.float64)
    if dtype in FLOATS:
        return special_values(dtype, rng, n)
    if dtype in COMPLEX:
        re, im = rng.standard_normal(n) * 2, rng.standard_normal(n) * 2
        re[:4], im[:4] = [0, 0.5, -1.5, 0], [0, 0, 0.25, -2]
        return re + 1j * im
    info = np.iinfo(STORE[dtype])
    lo, hi = (max(int(info.min), -300), min(int(info.max), 300)) if rng.random() < 0.5 else (int(info.min), int(info.max))
    return rng.integers(lo, hi, n, endpoint=True)


def layouts(vals, dtype):
    """(name, ctensor view, logical values) for a 2-D array of storage values."""
    m, n = vals.shape
    yield "contiguous", from_array(vals, dtype), vals
    base = from_array(np.ascontiguousarray(vals.T), dtype)
    yield "transposed", new_ref(lib.tensor_as_strided, base.handle, 2, int64_array([m, n]), int64_array([1, m]), 0), vals
    base = from_array(np.ascontiguousarray(vals[::-1, ::-1]), dtype)
    yield "reversed", new_ref(lib.tensor_as_strided, base.handle, 2, int64_array([m, n]), int64_array([-n, -1]),
                              m * n - 1), vals
    base = from_array(np.ascontiguousarray(vals[0]), dtype)
    yield "broadcast", new_ref(lib.tensor_as_strided, base.handle, 2, int64_array([m, n]), int64_array([0, 1]), 0), \
        np.broadcast_to(vals[0], (m, n))


def reference(name, x):
    """PyTorch's result; for float16 and bfloat16, PyTorch's float32 result rounded
    once (what ctensor documents: PyTorch 1.13 lacks many float16 CPU kernels, and
    its bfloat16 gelu rounds intermediates, up to 6% off)."""
    half = x.dtype in (torch.float16, torch.bfloat16)
    y = x.float() if half else x
    r = torch_fn(name)(y)
    if name in ("sinh", "cosh") and not r.is_complex():
        # PyTorch's vector path overflows early (SLEEF's bound), its scalar path
        # does not: the C library's float64 result, rounded, is the reference there.
        big = y.double().abs() > (88 if r.dtype == torch.float32 else 709)
        exact = torch.from_numpy(getattr(np, name)(y.double().numpy())).to(r.dtype)
        r = torch.where(big, exact, r)
    if name == "log1p" and not r.is_complex():
        # PyTorch's vector path (SLEEF) gives inf for finite x beyond ~1e38
        # (float32) and ~1e307 (float64): the C library's result there too.
        wrong = torch.isinf(r) & torch.isfinite(y)
        r = torch.where(wrong, torch.from_numpy(np.log1p(y.double().numpy())).to(r.dtype), r)
    return r.to(x.dtype) if half and r.is_floating_point() else r


def compare(name, got, want):
    got_t = torch.from_numpy(np.ascontiguousarray(got))
    if want.dtype == torch.bfloat16:  # to_array gives bfloat16 values as float32: exact back
        got_t = got_t.to(torch.bfloat16)
    assert got_t.dtype == want.dtype, (got_t.dtype, want.dtype)
    if want.dtype == torch.bool or not (want.is_floating_point() or want.is_complex()):
        assert torch.equal(got_t, want)
        return
    torch.testing.assert_close(got_t, want, equal_nan=True)
    if want.is_floating_point() and name not in ZERO_SIGN_FREE:
        zeros = (want == 0) & (got_t == 0)
        assert torch.equal(torch.signbit(got_t[zeros]), torch.signbit(want[zeros])), f"{name}: signs of zeros differ"


def as_torch(store, dtype):
    """Storage values (bfloat16 as its uint16 bits) as a torch tensor of dtype."""
    store = np.ascontiguousarray(store)
    if dtype == 15:
        return torch.from_numpy(store.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(store)


def torch_refuses(name, dtype):
    """Whether PyTorch refuses the dtype (float16 counts as accepted where it
    accepts float32)."""
    x = torch.ones(2, dtype=TORCH[dtype] if dtype != 5 else torch.float32)
    try:
        torch_fn(name)(x)
        return False
    except (RuntimeError, TypeError):
        return True


@pytest.mark.parametrize("dtype", TORCH_DTYPES, ids=lambda d: NAMES[d])
@pytest.mark.parametrize("name", UNARY)
def test_unary_matches_torch(name, dtype):
    rng = np.random.default_rng([CODE[name], dtype])
    if torch_refuses(name, dtype):
        a = from_array(storage_array(np.ones(3), dtype), dtype)
        assert status_of(getattr(lib, "tensor_" + name), a.handle) == STATUS["TENSOR_E_DTYPE"]
        assert status_of(lib.tensor_unary, CODE[name], a.handle) == STATUS["TENSOR_E_DTYPE"]
        return
    vals = values(dtype, rng, 150)
    m = 8
    vals = np.resize(vals, (m, (len(vals) + m - 1) // m))
    store = storage_array(vals, dtype)
    for layout, view, logical in layouts(store, dtype):
        x = as_torch(logical, dtype)
        want = reference(name, x)
        got = new_ref(getattr(lib, "tensor_" + name), view.handle)
        assert got.dtype == FROM_TORCH[want.dtype], (layout, NAMES[got.dtype], want.dtype)
        compare(name, to_array(got), want)
        by_code = new_ref(lib.tensor_unary, CODE[name], view.handle)
        assert np.array_equal(to_array(by_code), to_array(got), equal_nan=True)


@pytest.mark.parametrize("name", UNARY)
def test_in_place_and_into_match(name):
    """a.op_() and op(a, out=) on float32 (bool results convert into it, as
    torch.can_cast allows)."""
    rng = np.random.default_rng(CODE[name])
    vals = special_values(6, rng, 300).astype(np.float32)
    if name == "bitwise_not":  # refused for float32
        a = from_array(vals, 6)
        assert lib.tensor_unary_into(a.handle, CODE[name], a.handle) == STATUS["TENSOR_E_DTYPE"]
        return
    want = reference(name, torch.from_numpy(vals.copy()))
    if want.dtype == torch.bool:
        want = want.float()
    a = from_array(vals, 6)
    assert lib.tensor_unary_into(a.handle, CODE[name], a.handle) == 0, lib.tensor_last_error()
    compare(name, to_array(a), want)
    # into a float64 destination: computed in float32, then converted
    a = from_array(vals, 6)
    dst = from_array(np.zeros(vals.shape), 7)
    assert lib.tensor_unary_into(dst.handle, CODE[name], a.handle) == 0
    compare(name, to_array(dst).astype(np.float32), want)
    # a strided destination (every other element of a buffer)
    buf = from_array(np.zeros(2 * vals.size, np.float32), 6)
    dst = new_ref(lib.tensor_as_strided, buf.handle, 1, int64_array([vals.size]), int64_array([2]), 1)
    assert lib.tensor_unary_into(dst.handle, CODE[name], a.handle) == 0
    compare(name, to_array(dst), want)
    assert not to_array(buf)[0::2].any()


@pytest.mark.parametrize("name", ["exp", "log", "tanh", "sigmoid", "gelu", "sqrt", "neg", "floor", "relu", "square"])
@pytest.mark.parametrize("dtype", [5, 6, 7, 15], ids=lambda d: NAMES[d])
def test_long_runs_and_tails(name, dtype):
    """Lengths around the vector widths and the conversion blocks (every tail)."""
    rng = np.random.default_rng(7)
    for n in [1, 3, 7, 8, 9, 15, 16, 17, 31, 255, 256, 257, 1000, 70000]:
        vals = special_values(dtype, rng, n)[:n]
        store = storage_array(vals, dtype)
        x = as_torch(store, dtype)
        a = from_array(store, dtype)
        got = new_ref(getattr(lib, "tensor_" + name), a.handle)
        compare(name, to_array(got), reference(name, x))
