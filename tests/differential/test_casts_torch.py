"""Every dtype pair converted by tensor_to / tensor_copy, compared with PyTorch 1.13
and NumPy on random and special values.

Where those oracles are undefined or round twice, ctensor's rule (ctensor.h, "Conversion rules") is computed here
in exact arithmetic instead:
- float -> integer out of range, +-inf or NaN: saturate, NaN -> 0 (undefined in C++);
- -> float16/bfloat16: one round-to-nearest-even of the exact value (PyTorch goes
  through float32 first, e.g. int64 2**62 + 2**54 + 1 -> bfloat16); the model is
  itself checked against NumPy (float64 -> float16) and PyTorch (float32 -> bfloat16).
"""
import ctypes
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
import torch

from ctensor_ctypes import Tensor, check, from_numpy, int64_array, lib


COPY_ALWAYS = 1
UINT8, INT8, INT16, INT32, INT64 = 0, 1, 2, 3, 4
FLOAT16, FLOAT32, FLOAT64, COMPLEX64, COMPLEX128 = 5, 6, 7, 9, 10
BOOL, BFLOAT16, UINT16, UINT32, UINT64 = 11, 15, 27, 28, 29
ALL = [UINT8, INT8, INT16, INT32, INT64, FLOAT16, FLOAT32, FLOAT64, COMPLEX64, COMPLEX128,
       BOOL, BFLOAT16, UINT16, UINT32, UINT64]
INTS = {UINT8: np.uint8, INT8: np.int8, INT16: np.int16, INT32: np.int32, INT64: np.int64,
        UINT16: np.uint16, UINT32: np.uint32, UINT64: np.uint64}
# Storage dtype of each ctensor dtype in NumPy (bfloat16 as its bits).
STORAGE = {**INTS, FLOAT16: np.float16, FLOAT32: np.float32, FLOAT64: np.float64,
           COMPLEX64: np.complex64, COMPLEX128: np.complex128, BOOL: np.bool_,
           BFLOAT16: np.uint16}
TORCH = {UINT8: torch.uint8, INT8: torch.int8, INT16: torch.int16, INT32: torch.int32,
         INT64: torch.int64, FLOAT16: torch.float16, FLOAT32: torch.float32,
         FLOAT64: torch.float64, COMPLEX64: torch.complex64, COMPLEX128: torch.complex128,
         BOOL: torch.bool}
# Mantissa and exponent bits of the narrow float formats.
NARROW = {FLOAT16: (10, 5), BFLOAT16: (7, 8)}


# ---------------------------------------------------------------- source values

def special_floats():
    vals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 0.9999, -0.9999, 1.5, -1.5, 2.5, math.inf,
            -math.inf, math.nan, -math.nan, 65504.0, 65519.99, 65520.0, 65536.0, 2.0 ** -24,
            2.0 ** -25, 3 * 2.0 ** -26, 2.0 ** -14, 2.0 ** -133, 2.0 ** -134, 1e-45, 1e-310,
            3.3895313892515355e38, 3.4e38, 1e39, 1e300, 1 + 2.0 ** -11 + 2.0 ** -40,
            1 + 2.0 ** -8 + 2.0 ** -40, 1 + 2.0 ** -11, 1 + 2.0 ** -8, 1 + 3 * 2.0 ** -11]
    for bits in (7, 8, 15, 16, 31, 32, 63, 64):
        edge = 2.0 ** bits
        vals += [edge, -edge, edge - 1, -edge + 1, edge + 1, -edge - 1, edge - 0.5,
                 -edge - 0.5, np.nextafter(edge, 0), np.nextafter(-edge, -np.inf),
                 np.nextafter(edge, np.inf)]
        vals += [float(np.nextafter(np.float32(edge), np.float32(0))),
                 float(np.nextafter(np.float32(-edge), np.float32(-np.inf)))]
    return np.array(vals, np.float64)


def special_ints():
    vals = [0, 1, -1, 2, 127, 128, 255, 256, -128, -129, 2049, 2051, 65504, 65519, 65520,
            65535, 65536, 2 ** 24 + 1, 2 ** 24 + 2 ** 16 + 1, 2 ** 24 + 2 ** 16,
            2 ** 53 + 1, 2 ** 62 + 2 ** 54 + 1, 2 ** 62 + 2 ** 54, -(2 ** 62 + 2 ** 54 + 1),
            2 ** 63 + 2 ** 39 + 1, 2 ** 64 - 1]
    for bits in (7, 8, 15, 16, 31, 32, 63):
        vals += [2 ** bits - 1, 2 ** bits, -(2 ** bits), -(2 ** bits) - 1]
    return vals


def source_values(dtype, rng, n=1500):
    """A 1-D array in the storage dtype of `dtype`: specials plus random values."""
    if dtype == BOOL:
        return rng.integers(0, 2, n).astype(np.bool_)
    if dtype in INTS:
        info = np.iinfo(INTS[dtype])
        specials = [v for v in special_ints() if info.min <= v <= info.max]
        rand = rng.integers(info.min, info.max, n, dtype=INTS[dtype], endpoint=True)
        small = rng.integers(max(info.min, -300), min(info.max, 300), n, endpoint=True)
        return np.concatenate([np.array(specials, INTS[dtype]), rand, small.astype(INTS[dtype])])
    if dtype in (FLOAT16, BFLOAT16):
        bits = np.concatenate([rng.integers(0, 2 ** 16, n), np.arange(0, 2 ** 16, 97)])
        bits = bits.astype(np.uint16)
        return bits.view(np.float16) if dtype == FLOAT16 else bits
    if dtype in (FLOAT32, FLOAT64):
        ftype, utype = (np.float32, np.uint32) if dtype == FLOAT32 else (np.float64, np.uint64)
        with np.errstate(over="ignore"):
            specials = special_floats().astype(ftype)
        raw = rng.integers(0, np.iinfo(utype).max, n, dtype=utype, endpoint=True).view(ftype)
        scaled = (rng.standard_normal(n) * 10.0 ** rng.integers(-8, 21, n)).astype(ftype)
        return np.concatenate([specials, raw, scaled])
    part = FLOAT32 if dtype == COMPLEX64 else FLOAT64
    re, im = source_values(part, rng, n), source_values(part, rng, n)
    im = rng.permutation(im)
    im[: len(im) // 4] = 0  # complex -> bool must look at both parts
    re[len(re) // 4: len(re) // 2] = 0
    out = np.empty(len(re), STORAGE[dtype])
    out.real, out.imag = re, im
    return out


# ---------------------------------------------------------------- the oracle

def exact(value):
    """The exact value of a finite float or an int as a Fraction."""
    return Fraction(value) if isinstance(value, (int, np.integer)) else Fraction(float(value))


def round_narrow(value, mant, expbits):
    """Bits of `value` (int or float) rounded once to nearest even in a binary format
    with `mant` fraction bits and `expbits` exponent bits; NaN quiet, overflow inf."""
    inf = ((1 << expbits) - 1) << mant
    sign = (1 << (mant + expbits)) if (math.copysign(1.0, value) < 0 if isinstance(value, float)
                                       else value < 0) else 0
    if isinstance(value, float) and math.isnan(value):
        return sign | inf | (1 << (mant - 1))
    if isinstance(value, float) and math.isinf(value):
        return sign | inf
    mag = abs(exact(value))
    if mag == 0:
        return sign
    bias = (1 << (expbits - 1)) - 1
    e = mag.numerator.bit_length() - mag.denominator.bit_length()
    if Fraction(2) ** e > mag:
        e -= 1
    e = max(e, 1 - bias)
    q = mag / Fraction(2) ** (e - mant)  # significand in units of the last place
    n = math.floor(q)
    rem = q - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n % 2 == 1):
        n += 1
    if n < (1 << mant):
        return sign | n  # subnormal
    field = e + bias + (n >> (mant + 1))
    if field >= (1 << expbits) - 1:
        return sign | inf
    return sign | (field << mant) | (n & ((1 << mant) - 1))


def saturate(value, dtype):
    """ctensor's float -> integer rule for one value."""
    info = np.iinfo(INTS[dtype])
    if math.isnan(value):
        return 0
    if value >= 2.0 ** (info.bits - (info.min < 0)):
        return int(info.max)
    if value <= info.min:
        return int(info.min)
    return int(value)


def widened(x, dtype):
    """bfloat16 bits widened to float32 (exact); other arrays unchanged."""
    if dtype == BFLOAT16:
        return (x.astype(np.uint32) << 16).view(np.float32)
    return x


def expected(x, frm, to):
    """The reference result of converting `x` (storage dtype of frm) to `to`."""
    src = widened(x, frm)
    real = src.real if np.iscomplexobj(src) else src
    if to in NARROW:
        if frm == BOOL:
            real = real.astype(np.uint8)
        values = real.tolist()
        bits = [round_narrow(v, *NARROW[to]) for v in values]
        return np.array(bits, np.uint16).view(STORAGE[to])
    efrm = FLOAT32 if frm == BFLOAT16 else frm
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        # PyTorch 1.13 turns complex into bool by the real part alone: use NumPy there.
        if efrm in TORCH and to in TORCH and not (src.dtype.kind == "c" and to == BOOL):
            out = torch.from_numpy(np.ascontiguousarray(src)).to(TORCH[to]).numpy()
        else:
            out = src.astype(STORAGE[to])
    if to in INTS and real.dtype.kind == "f":
        out = out.copy()
        info = np.iinfo(INTS[to])
        with np.errstate(invalid="ignore"):
            whole = np.trunc(real.astype(np.float64))
        undefined = np.isnan(whole) | (whole >= 2.0 ** (info.bits - (info.min < 0))) | \
            (whole < info.min)
        for i in np.nonzero(undefined)[0]:
            out[i] = saturate(float(real[i]), to)
    return out


def same(actual, want, dtype):
    """Bit equality per element, except that any NaN matches any NaN."""
    actual, want = widened(actual, dtype), widened(want, dtype)
    if actual.dtype.kind not in "fc":
        return actual.view(np.uint8) == want.view(np.uint8) if actual.dtype == np.bool_ \
            else actual == want
    part = actual.real.dtype if actual.dtype.kind == "c" else actual.dtype
    a = np.ascontiguousarray(actual).view(part)
    w = np.ascontiguousarray(want).view(part)
    bits = np.dtype(f"u{part.itemsize}")
    ok = (a.view(bits) == w.view(bits)) | (np.isnan(a) & np.isnan(w))
    return ok.reshape(len(actual), -1).all(axis=1) if len(actual) else ok


# ---------------------------------------------------------------- ctensor calls

def read(t, dtype):
    n = lib.tensor_numel(t.handle)
    buf = (ctypes.c_uint8 * max(n * lib.tensor_dtype_size(dtype), 1)).from_address(t.data_ptr) \
        if n else b""
    return np.frombuffer(bytes(buf), STORAGE[dtype])[:n].copy()


def ctensor_to(x, frm, to):
    t = from_numpy(x, frm)
    out = ctypes.c_void_p()
    check(lib.tensor_to(ctypes.byref(out), t.handle, to, COPY_ALWAYS))
    return read(Tensor(out.value), to)


def ctensor_to_strided(x, frm, to):
    """Through a view reading every second element of a buffer, reversed."""
    doubled = np.repeat(x[::-1], 2)
    base = from_numpy(doubled, frm)
    view = ctypes.c_void_p()
    check(lib.tensor_as_strided(ctypes.byref(view), base.handle, 1, int64_array([len(x)]),
                                int64_array([2]), 0))
    view = Tensor(view.value)
    out = ctypes.c_void_p()
    check(lib.tensor_to(ctypes.byref(out), view.handle, to, COPY_ALWAYS))
    return read(Tensor(out.value), to)[::-1]


def ctensor_copy_into_strided(x, frm, to):
    """tensor_copy into every third element of a zeroed destination."""
    src = from_numpy(x, frm)
    dst_base = from_numpy(np.zeros(3 * len(x), STORAGE[to]), to)
    dst = ctypes.c_void_p()
    check(lib.tensor_as_strided(ctypes.byref(dst), dst_base.handle, 1, int64_array([len(x)]),
                                int64_array([3]), 1))
    dst = Tensor(dst.value)
    check(lib.tensor_copy(dst.handle, src.handle))
    return read(dst_base, to)[1::3]


def assert_same(actual, want, x, frm, to, how):
    ok = same(actual, want, to)
    if not ok.all():
        bad = np.nonzero(~ok)[0][:5]
        raise AssertionError(
            f"{how} {lib.tensor_dtype_name(frm).decode()} -> {lib.tensor_dtype_name(to).decode()}:"
            f" inputs {x[bad]!r} gave {actual[bad]!r}, expected {want[bad]!r}")


# ---------------------------------------------------------------- tests

@pytest.mark.parametrize("frm", ALL, ids=lambda d: lib.tensor_dtype_name(d).decode())
def test_every_pair_contiguous_and_strided(frm):
    rng = np.random.default_rng(frm)
    x = source_values(frm, rng)
    for to in ALL:
        want = expected(x, frm, to)
        assert_same(ctensor_to(x, frm, to), want, x, frm, to, "contiguous")
        assert_same(ctensor_to_strided(x, frm, to), want, x, frm, to, "strided source")
        assert_same(ctensor_copy_into_strided(x, frm, to), want, x, frm, to, "strided dst")


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 15, 16, 17, 31, 33, 1003])
@pytest.mark.parametrize("frm,to", [(FLOAT32, FLOAT16), (FLOAT16, FLOAT32),
                                    (FLOAT32, BFLOAT16), (BFLOAT16, FLOAT32),
                                    (INT32, FLOAT64), (FLOAT64, FLOAT32), (INT64, INT32),
                                    (UINT8, FLOAT32), (FLOAT32, INT32), (FLOAT64, INT64)])
def test_vector_tails(frm, to, n):
    x = np.resize(source_values(frm, np.random.default_rng(n)), n)
    assert_same(ctensor_to(x, frm, to), expected(x, frm, to), x, frm, to, f"n={n}")


@pytest.mark.parametrize("to", ALL, ids=lambda d: lib.tensor_dtype_name(d).decode())
def test_fill_converts_like_float64(to):
    x = source_values(FLOAT64, np.random.default_rng(100 + to), 60)
    want = expected(x, FLOAT64, to)
    for i, value in enumerate(x.tolist()):
        t = from_numpy(np.zeros(3, STORAGE[to]), to)
        check(lib.tensor_fill(t.handle, value))
        assert_same(read(t, to), np.repeat(want[i:i + 1], 3), x[i:i + 1].repeat(3), FLOAT64, to,
                    "fill")


def test_narrow_model_matches_numpy_float16():
    rng = np.random.default_rng(5)
    x = np.concatenate([source_values(FLOAT64, rng, 20000), special_floats()])
    with np.errstate(over="ignore"):
        want = x.astype(np.float16).view(np.uint16)
    got = np.array([round_narrow(v, 10, 5) for v in x.tolist()], np.uint16)
    nan = np.isnan(x)
    assert (got[~nan] == want[~nan]).all()


def test_narrow_model_matches_torch_bfloat16_from_float32():
    rng = np.random.default_rng(6)
    x = source_values(FLOAT32, rng, 20000)
    want = torch.from_numpy(x).to(torch.bfloat16).view(torch.int16).numpy().view(np.uint16)
    got = np.array([round_narrow(v, 7, 8) for v in x.tolist()], np.uint16)
    nan = np.isnan(x)
    assert (got[~nan] == want[~nan]).all()


def test_single_rounding_where_pytorch_rounds_twice():
    x = np.array([2 ** 62 + 2 ** 54 + 1], np.int64)
    assert ctensor_to(x, INT64, BFLOAT16)[0] == 0x5E81  # PyTorch: 0x5E80
    x = np.array([1 + 2.0 ** -11 + 2.0 ** -40])
    assert ctensor_to(x, FLOAT64, FLOAT16).view(np.uint16)[0] == 0x3C01  # PyTorch: 0x3C00
