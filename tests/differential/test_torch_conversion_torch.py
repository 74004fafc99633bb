"""TENSOR_CONVERT_TORCH_X86 against PyTorch 1.13 itself: every pair of PyTorch's
dtypes (bfloat16 included) through tensor_to_with and tensor_copy_with, on random
bits, scaled random values and the special values of test_casts_torch (NaN, inf,
out-of-range, rounding ties), from contiguous, reversed strided and transposed
sources and into a strided destination. Bit equality, except that any NaN matches
any NaN (PyTorch's NaN payloads are not part of the policy).

Run: CTENSOR_LIB=build-test/src/libctensor.so /usr/bin/python3 -m pytest tests/differential/test_torch_conversion_torch.py -q
"""
import ctypes
import warnings

import numpy as np
import pytest
import torch

from ctensor_ctypes import (COPY_ALWAYS, CONVERT_LIBRARY, CONVERT_TORCH_X86, PRESERVE_FORMAT, Tensor,
                            check, from_numpy, int64_array, lib)
from test_casts_torch import (BFLOAT16, BOOL, COMPLEX64, COMPLEX128, FLOAT16, FLOAT32, FLOAT64, INT8, INT16, INT32,
                              INT64, STORAGE, TORCH, UINT8, read, same, source_values)


TORCH_DTYPES = [UINT8, INT8, INT16, INT32, INT64, FLOAT16, FLOAT32, FLOAT64, COMPLEX64, COMPLEX128, BOOL, BFLOAT16]
TORCH_OF = {**TORCH, BFLOAT16: torch.bfloat16}


def name(d):
    return lib.tensor_dtype_name(d).decode()


def as_torch(x, dtype):
    """The storage-dtype array x as a torch tensor of `dtype` (bfloat16 from its bits)."""
    if dtype == BFLOAT16:
        return torch.from_numpy(x.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(x)


def from_torch(t, dtype):
    if dtype == BFLOAT16:
        return t.view(torch.int16).numpy().view(np.uint16)
    return t.numpy()


def torch_converts(x, frm, to):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Casting complex values to real discards the imaginary part"
        return from_torch(as_torch(np.ascontiguousarray(x), frm).to(TORCH_OF[to]), to)


def assert_same(got, want, x, frm, to, how):
    ok = same(got, want, to)
    if not ok.all():
        bad = np.nonzero(~ok)[0][:5]
        raise AssertionError(f"{how} {name(frm)} -> {name(to)}: inputs {x[bad]!r} gave {got[bad]!r}, "
                             f"expected {want[bad]!r}")


def made(fn, *args):
    out = ctypes.c_void_p()
    check(fn(ctypes.byref(out), *args))
    return Tensor(out.value)


def to_with(t, to, conversion=CONVERT_TORCH_X86):
    out = ctypes.c_void_p()
    check(lib.tensor_to_with(ctypes.byref(out), t.handle, to, COPY_ALWAYS, PRESERVE_FORMAT, conversion))
    return Tensor(out.value)


def strided(base, n, stride, offset):
    out = ctypes.c_void_p()
    check(lib.tensor_as_strided(ctypes.byref(out), base.handle, 1, int64_array([n]), int64_array([stride]), offset))
    return Tensor(out.value)


@pytest.mark.parametrize("frm", TORCH_DTYPES, ids=name)
def test_every_torch_pair(frm):
    rng = np.random.default_rng(1000 + frm)
    x = source_values(frm, rng, 3000)
    n = len(x)
    for to in TORCH_DTYPES:
        want = torch_converts(x, frm, to)
        assert_same(read(to_with(from_numpy(x, frm), to), to), want, x, frm, to, "contiguous")
        # every second element of a reversed buffer: a negative-stride source
        doubled = from_numpy(np.repeat(x[::-1], 2), frm)
        reversed_view = strided(doubled, n, -2, 2 * n - 2)
        assert_same(read(to_with(reversed_view, to), to), want, x, frm, to, "reversed source")
        # into every third element of a zeroed destination
        dst_base, src = from_numpy(np.zeros(3 * n, STORAGE[to]), to), from_numpy(x, frm)
        dst = strided(dst_base, n, 3, 1)
        check(lib.tensor_copy_with(dst.handle, src.handle, CONVERT_TORCH_X86))
        assert_same(read(dst_base, to)[1::3], want, x, frm, to, "strided destination")


@pytest.mark.parametrize("frm", [FLOAT16, BFLOAT16, FLOAT32, FLOAT64, COMPLEX64, COMPLEX128, INT32, INT64],
                         ids=name)
def test_transposed_sources_keep_their_layout(frm):
    """A transposed source converts into its own layout (preserve_format), as x.to(dtype)."""
    x = source_values(frm, np.random.default_rng(2000 + frm), 1200)[:1200].reshape(30, 40)
    src = from_numpy(x, frm)
    transposed = made(lib.tensor_transpose, src.handle, 0, 1)
    for to in [UINT8, INT8, INT16, INT32, INT64, FLOAT16, BFLOAT16, BOOL]:
        got = to_with(transposed, to)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = as_torch(x, frm).t().to(TORCH_OF[to])
        assert got.strides == want.stride() == (1, 40)
        in_order = read(made(lib.tensor_clone, got.handle), to)  # C order
        assert_same(in_order, from_torch(want.contiguous(), to).reshape(-1), x.T.reshape(-1), frm, to, "transposed")


def test_library_policy_is_tensor_to():
    """TENSOR_CONVERT_LIBRARY through tensor_to_with gives tensor_to's (saturating) values."""
    x = np.array([-3.7, 300.0, np.nan, 1e10, -1e10], np.float64)
    got = read(to_with(from_numpy(x, FLOAT64), UINT8, CONVERT_LIBRARY), UINT8)
    assert got.tolist() == [0, 255, 0, 255, 0]
    assert read(to_with(from_numpy(x, FLOAT64), UINT8), UINT8).tolist() == [253, 44, 0, 0, 0]
