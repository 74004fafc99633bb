"""Differential tests of clamp, where, argmax/argmin, cumsum/cumprod and
softmax/log_softmax (and their _into forms) against PyTorch 1.13.

Operands are random strided views (contiguous, transposed, reversed with
negative strides, broadcast with zero strides, overlapping, offset; see
math_helpers.random_view) of PyTorch's dtypes, with NaN, infinities and
repeated values mixed in; bounds and branches are tensors of other dtypes and
shapes that broadcast, or Python numbers (wrapped numbers). Each case checks
that ctensor fails exactly where PyTorch raises, and otherwise the dtype, the
shape and the values.

PyTorch 1.13 has no float16 CPU kernel for clamp with tensor bounds, cumsum,
cumprod or softmax: ctensor's float16 results are checked against PyTorch's in
float32, rounded to float16; so are bfloat16 softmax results (PyTorch's bfloat16
kernel spreads NaN across lanes).

Tolerances: clamp, where, argmax/argmin and integer cumsum/cumprod are exact.
Float cumsum/cumprod keep the running value as PyTorch's CPU kernel does
(float64 for float32), so they agree to a few units in the last place of the
dtype (PyTorch vectorises differently). softmax and log_softmax allow 8 units
in the last place (different exp/log routines), relative to the largest
magnitude of the lane for log_softmax.
"""
import ctypes
import warnings

import numpy as np
import pytest
import torch

from ctensor_ctypes import STATUS, Tensor, check, int64_array, lib
from math_helpers import (FROM_TORCH, STORE, TORCH, from_array, new_ref, random_view, scalar, status_of,
                          storage_array, to_array, to_torch, torch_to_numpy)

warnings.filterwarnings("ignore")
torch.set_num_threads(1)

OK = STATUS["TENSOR_OK"]
ALL_DIMS = -2 ** 63
REAL = [0, 1, 2, 3, 4, 5, 6, 7, 15]
EVERY = REAL + [9, 10, 11]


def special_values(vals, dtype, rng):
    """vals with some NaN/inf (float dtypes) and repeated elements."""
    vals = np.array(vals, dtype=np.complex128 if dtype in (9, 10) else np.float64)
    flat = vals.reshape(-1)
    if flat.size > 1:
        flat[rng.integers(flat.size, size=flat.size // 4 + 1)] = flat[0]
    if dtype in (5, 6, 7, 15) and flat.size > 2:
        picks = rng.integers(flat.size, size=2)
        flat[picks[0]] = [np.nan, np.inf, -np.inf][rng.integers(3)]
        if rng.random() < 0.3:
            flat[picks[1]] = np.nan
    return vals


def view_of(shape, dtype, rng, specials=True):
    """A random ctensor view of `shape` and the torch tensor of its values."""
    t, vals = random_view(shape, dtype, rng)
    if specials:
        vals = special_values(vals, dtype, rng)
        t = from_array(storage_array(vals, dtype), dtype)
        if rng.random() < 0.5 and len(shape) >= 1:  # and a strided copy of it
            t = strided_copy(t, vals, dtype, rng)
    return t, to_torch(vals, dtype)


def strided_copy(t, vals, dtype, rng):
    """The same values behind a transposed-and-reversed layout."""
    shape = vals.shape
    perm = list(rng.permutation(len(shape)))
    stored = np.flip(np.transpose(vals, perm), axis=0).copy()
    base = from_array(storage_array(stored, dtype), dtype)
    sizes = [shape[d] for d in range(len(shape))]
    # element index of vals[i...] in `stored`: stored is C-contiguous over perm'd dims, dim 0 flipped
    st = [0] * len(shape)
    s = 1
    for k in reversed(range(len(shape))):
        st[perm[k]] = s
        s *= max(stored.shape[k], 1)
    offset = 0
    if stored.shape[0] > 0:
        offset = st[perm[0]] * (stored.shape[0] - 1)
    st[perm[0]] = -st[perm[0]]
    return new_ref(lib.tensor_as_strided, base.handle, len(sizes), int64_array(sizes), int64_array(st), offset)


def random_shape(rng, min_ndim=0):
    return [int(s) for s in rng.choice([1, 2, 3, 4, 7], size=int(rng.integers(min_ndim, 4)))]


def outcome(fn):
    try:
        return fn(), None
    except (RuntimeError, IndexError, TypeError) as e:
        return None, e


def run(fn, *args):
    out = ctypes.c_void_p()
    st = fn(ctypes.byref(out), *args)
    return st, (Tensor(out.value) if st == OK else None)


def assert_same(got, want, exact=True, ulps=0, lane_axis=None):
    assert got.dtype == FROM_TORCH[want.dtype], (got.dtype, want.dtype)
    assert got.shape == tuple(want.shape), (got.shape, want.shape)
    g, w = to_array(got), torch_to_numpy(want)
    if exact:
        np.testing.assert_array_equal(g, w)
        return
    wide = np.complex128 if np.iscomplexobj(w) else np.float64
    g64, w64 = g.astype(wide), w.astype(wide)
    eps = {torch.float32: 2.0 ** -23, torch.float64: 2.0 ** -52, torch.bfloat16: 2.0 ** -7, torch.float16: 2.0 ** -10,
           torch.complex64: 2.0 ** -23, torch.complex128: 2.0 ** -52}[want.dtype]
    scale = np.abs(w64)
    if lane_axis is not None and w64.size:
        scale = np.maximum(scale, np.max(np.abs(np.where(np.isfinite(w64), w64, 0)), axis=lane_axis, keepdims=True))
    same = (g64 == w64) | (np.isnan(g64) & np.isnan(w64))
    close = np.abs(g64 - w64) <= ulps * eps * np.maximum(scale, np.finfo(np.float64).tiny)
    assert np.all(same | close), (g, w)


# ---- clamp -------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(40))
def test_clamp(seed):
    rng = np.random.default_rng(seed)
    for _ in range(12):
        shape = random_shape(rng)
        d = EVERY[rng.integers(len(EVERY))]
        a, ta = view_of(shape, d, rng)
        kind = rng.integers(4)
        if kind == 0:  # number bounds (one may be absent)
            lo, hi = sorted(float(x) for x in rng.standard_normal(2) * 20)
            if rng.random() < 0.5:
                lo, hi = int(lo), int(hi)
            if rng.random() < 0.1:
                lo = float("nan")
            lo, hi = [(None if rng.random() < 0.25 else v) for v in (lo, hi)]
            bounds_ct = [scalar(v) if v is not None else None for v in (lo, hi)]
            want, err = outcome(lambda: torch.clamp(ta, lo, hi))
        else:  # tensor bounds of other dtypes and broadcast shapes
            bounds_ct, bounds_t = [], []
            for _b in range(2):
                if rng.random() < 0.25:
                    bounds_ct.append(None)
                    bounds_t.append(None)
                    continue
                bd = REAL[rng.integers(len(REAL))] if rng.random() < 0.5 else d
                bshape = shape[int(rng.integers(0, len(shape) + 1)):] if rng.random() < 0.5 else shape
                bshape = [1 if rng.random() < 0.3 else s for s in bshape]
                bt, btt = view_of(bshape, bd, rng)
                bounds_ct.append(bt)
                bounds_t.append(btt)
            want, err = outcome(lambda: torch.clamp(ta, *bounds_t))
            lo, hi = bounds_t
        if err is not None and "'Half'" in str(err):  # PyTorch 1.13's CPU clamp has no float16 kernel
            up = [b.float() if isinstance(b, torch.Tensor) and b.dtype == torch.float16 else b for b in (ta, lo, hi)]
            want, err = torch.clamp(*up).half(), None
        handles = [b.handle if b is not None else None for b in bounds_ct]
        st, got = run(lib.tensor_clamp, a.handle, *handles)
        if err is not None:
            assert st != OK, (d, shape, str(err))
            continue
        assert st == OK, (d, shape, lib.tensor_last_error())
        assert_same(got, want)


def test_clamp_into_and_in_place():
    rng = np.random.default_rng(5)
    a, ta = view_of([3, 4], 6, rng)
    dst = from_array(np.zeros((3, 4)), 7)
    lo, hi = scalar(-1.0), scalar(1.0)
    check(lib.tensor_clamp_into(dst.handle, a.handle, lo.handle, hi.handle))
    want = torch.clamp(ta, -1.0, 1.0).double()
    np.testing.assert_array_equal(to_array(dst), want.numpy())
    c = from_array(storage_array(torch_to_numpy(ta), 6), 6)
    check(lib.tensor_clamp_into(c.handle, c.handle, lo.handle, None))
    np.testing.assert_array_equal(to_array(c), torch.clamp(ta, min=-1.0).numpy())


# ---- where -------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(40))
def test_where(seed):
    rng = np.random.default_rng(1000 + seed)
    for _ in range(12):
        shape = random_shape(rng)
        cshape = [1 if rng.random() < 0.3 else s for s in shape[int(rng.integers(0, len(shape) + 1)):]]
        cd = [11, 11, 11, 0][rng.integers(4)]
        cvals = rng.integers(0, 2, size=cshape)
        cond = from_array(storage_array(cvals, cd), cd)
        tcond = torch.from_numpy(cvals.astype(np.uint8 if cd == 0 else np.bool_))
        branches_ct, branches_t = [], []
        for _b in range(2):
            if rng.random() < 0.2:
                # (numbers within every dtype's range: PyTorch refuses a number its dtype
                # cannot hold, ctensor converts it as a copy does; see docs/math.md)
                v = [True, 3, -2.5, 100][rng.integers(4)]
                branches_ct.append(scalar(v))
                branches_t.append(v)
                continue
            bd = EVERY[rng.integers(len(EVERY))]
            bshape = [1 if rng.random() < 0.2 else s for s in shape[int(rng.integers(0, len(shape) + 1)):]]
            bt, btt = view_of(bshape, bd, rng)
            branches_ct.append(bt)
            branches_t.append(btt)
        if not any(isinstance(b, torch.Tensor) for b in branches_t):
            branches_t[0] = torch.tensor(branches_t[0])  # torch.where(cond, number, number) is not 1.13's
            branches_ct[0] = from_array(storage_array(np.array(branches_t[0].item()), FROM_TORCH[branches_t[0].dtype]),
                                        FROM_TORCH[branches_t[0].dtype])
        want, err = outcome(lambda: torch.where(tcond, *branches_t))
        if want is not None and want.dtype == torch.complex32:  # float16 with complex: ctensor's complex64
            up = [b.float() if isinstance(b, torch.Tensor) and b.dtype == torch.float16 else b for b in branches_t]
            want = torch.where(tcond, *up)
        st, got = run(lib.tensor_where, cond.handle, branches_ct[0].handle, branches_ct[1].handle)
        if err is not None:
            assert st != OK, str(err)
            continue
        assert st == OK, lib.tensor_last_error()
        assert_same(got, want)


def test_where_refuses_other_conditions():
    for d in [1, 3, 6]:
        cond = from_array(np.zeros(3, dtype=STORE[d]), d)
        x = from_array(np.zeros(3, dtype=np.float32), 6)
        assert status_of(lib.tensor_where, cond.handle, x.handle, x.handle) == STATUS["TENSOR_E_DTYPE"]
        with pytest.raises(RuntimeError):
            torch.where(torch.zeros(3, dtype=TORCH[d]), torch.zeros(3), torch.zeros(3))


# ---- argmax / argmin -----------------------------------------------------------

@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("seed", range(30))
def test_arg_extreme(op, seed):
    rng = np.random.default_rng(2000 + seed)
    for _ in range(10):
        shape = random_shape(rng)
        if rng.random() < 0.1 and shape:
            shape[0] = 0
        d = EVERY[rng.integers(len(EVERY))]
        a, ta = view_of(shape, d, rng)
        keepdim = int(rng.random() < 0.5)
        dim = None if rng.random() < 0.3 else int(rng.integers(-max(len(shape), 1), max(len(shape), 1)))
        want, err = outcome(lambda: getattr(torch, op)(ta, dim, bool(keepdim)))
        st, got = run(getattr(lib, "tensor_" + op), a.handle, ALL_DIMS if dim is None else dim, keepdim)
        if err is not None:
            assert st != OK, (op, d, shape, dim, str(err))
            continue
        assert st == OK, (op, d, shape, dim, lib.tensor_last_error())
        assert_same(got, want)
        dst = new_ref(lib.tensor_zeros, len(want.shape), int64_array(list(want.shape)), 4)
        check(getattr(lib, "tensor_" + op + "_into")(dst.handle, a.handle, ALL_DIMS if dim is None else dim, keepdim))
        np.testing.assert_array_equal(to_array(dst), want.numpy())


# ---- cumsum / cumprod, softmax / log_softmax --------------------------------------

def lane_case(op, rng, specials, upcast):
    """One random call of the lane op `op` (cumsum, ..., log_softmax): its input
    dtype, shape and dim, ctensor's status and result, and PyTorch's result (in
    float32 and rounded back for the dtypes in `upcast`), or None where PyTorch
    raises (then ctensor must fail too)."""
    shape = random_shape(rng)
    d = EVERY[rng.integers(len(EVERY))]
    a, ta = view_of(shape, d, rng, specials=rng.random() < specials)
    dim = int(rng.integers(-max(len(shape), 1), max(len(shape), 1)))
    st, got = run(getattr(lib, "tensor_" + op), a.handle, dim)
    if d in upcast:
        return d, shape, dim, st, got, getattr(torch, op)(ta.float(), dim).to(ta.dtype)
    want, err = outcome(lambda: getattr(torch, op)(ta, dim))
    if err is not None:
        assert st == STATUS["TENSOR_E_DTYPE"], (op, d, str(err))
    return d, shape, dim, st, got, want


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
@pytest.mark.parametrize("seed", range(30))
def test_cumulative(op, seed):
    rng = np.random.default_rng(3000 + seed)
    for _ in range(10):
        # float16: PyTorch 1.13 refuses it here; ctensor computes it in float32 and rounds
        d, shape, dim, st, got, want = lane_case(op, rng, 0.5, upcast=(5,))
        if want is None:
            continue
        assert st == OK, (op, d, shape, lib.tensor_last_error())
        exact = d not in (5, 6, 7, 9, 10, 15)
        assert_same(got, want, exact=exact, ulps=4 * max(shape + [1]) if op == "cumprod" else 4)


@pytest.mark.parametrize("op", ["softmax", "log_softmax"])
@pytest.mark.parametrize("seed", range(30))
def test_softmax(op, seed):
    rng = np.random.default_rng(4000 + seed)
    for _ in range(10):
        # float16: no PyTorch 1.13 CPU kernel; bfloat16: its kernel along a dim other than the
        # last gives NaN in lanes next to a NaN (a lane [59.75, -150, -101.5] among others
        # holding NaN gave [nan, nan, nan])
        d, shape, dim, st, got, want = lane_case(op, rng, 0.4, upcast=(5, 15))
        if want is None:
            continue
        assert st == OK, (op, d, lib.tensor_last_error())
        lane = (dim % len(shape)) if shape else None
        assert_same(got, want, exact=False, ulps=8 if d in (6, 7) else 2,
                    lane_axis=lane if op == "log_softmax" else None)


def test_softmax_is_stable_for_large_inputs():
    x = np.array([[1000.0, 999.0, -1000.0], [-1e30, 0.0, 1e30]], dtype=np.float32)
    t = from_array(x, 6)
    got = new_ref(lib.tensor_softmax, t.handle, 1)
    np.testing.assert_allclose(to_array(got), torch.softmax(torch.from_numpy(x), 1).numpy(), rtol=1e-6)
    got = new_ref(lib.tensor_log_softmax, t.handle, 1)
    np.testing.assert_allclose(to_array(got), torch.log_softmax(torch.from_numpy(x), 1).numpy(), rtol=1e-6)
