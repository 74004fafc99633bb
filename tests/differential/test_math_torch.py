"""Differential tests of the math API (promotion, binary and unary ops,
reductions, cat/stack, equal/allclose, item) against PyTorch 1.13 and NumPy.

Operands are random strided views (contiguous, transposed, reversed with
negative strides, broadcast with zero strides, overlapping, offset) of random
shapes that broadcast against each other, over every dtype pair. PyTorch 1.13
has no uint16/uint32/uint64: their promotion follows the rule documented in
ctensor.h (NumPy's integer lattice by value range, uint64 with a signed integer
refused, a float operand's dtype wins as in PyTorch 2.x) and their values are
checked against NumPy. Fixed seeds keep every run identical.

Tolerances: integer, bool and comparison results are exact; float add, sub,
mul, div, maximum and minimum of real dtypes are exact (both compute in the
dtype, or in float32 for float16/bfloat16, and round once); pow and complex
mul/div allow 4 units in the last place of the dtype (different libm
routines and complex formulas).
"""
import ctypes
import itertools
import math
import warnings

import numpy as np
import pytest
import torch

from ctensor_ctypes import STATUS, CtensorError, Tensor, check, i32, i64, int64_array, lib
from math_helpers import (ALL, COMPLEX, FLOATS, FROM_TORCH, INTS, NAMES, OPS, REDUCTIONS, STORE, TORCH,
                          UNSIGNED_WIDE, from_array, kind, new_ref, random_view, result_type, scalar,
                          status_of, storage_array, to_array, to_torch, torch_to_numpy, values_for,
                          zero_dim)

warnings.filterwarnings("ignore")
torch.set_num_threads(1)

OK = STATUS["TENSOR_OK"]
INVALID = STATUS["TENSOR_E_INVALID"]
SHAPE = STATUS["TENSOR_E_SHAPE"]
DTYPE = STATUS["TENSOR_E_DTYPE"]
READONLY = STATUS["TENSOR_E_READONLY"]
OVERLAP = STATUS["TENSOR_E_OVERLAP"]
COMPARISONS = {"eq", "ne", "lt", "le", "gt", "ge"}
EPS = {5: 2.0 ** -10, 15: 2.0 ** -7, 6: 2.0 ** -23, 7: 2.0 ** -52, 9: 2.0 ** -23, 10: 2.0 ** -52}


# ---- promotion ------------------------------------------------------------------

def np_int_promote(a, b):
    return {np.dtype(STORE[d]): d for d in INTS}[np.promote_types(STORE[a], STORE[b])]


def promote(a, b):
    """torch.promote_types, extended to uint16/32/64 as ctensor.h documents;
    None where there is no result (uint64 with a signed integer)."""
    if a in TORCH and b in TORCH:
        r = torch.promote_types(TORCH[a], TORCH[b])
        return 9 if r == torch.complex32 else {v: k for k, v in TORCH.items()}[r]
    if a == b:
        return a
    ka, kb = kind(a), kind(b)
    if ka != kb:
        hi, lo = (a, b) if ka > kb else (b, a)
        return 10 if kind(hi) == 3 and lo == 7 else hi
    if ka == 1:
        if 29 in (a, b) and ({a, b} & {1, 2, 3, 4}):
            return None
        return np_int_promote(a, b)
    return None  # not reached: the float and complex lattices are torch's


def combine(higher, lower):
    """PyTorch's combine_categories."""
    if higher is None:
        return lower
    if lower is None:
        return higher
    if kind(higher) == 3:
        return higher
    if kind(lower) == 3:
        if kind(higher) == 2:
            return 10 if higher == 7 else 9
        return lower
    if kind(higher) == 2:
        return higher
    if higher == 11 or kind(lower) == 2:
        return promote(higher, lower)
    return higher


RANKS = ["dim", "zero", "wrapped"]
WRAPPED_DTYPE = {bool: 11, int: 4, float: 6, complex: 9}  # as result_type sees Python numbers


def expected_result_type(da, ra, db, rb):
    slots = {"dim": None, "zero": None, "wrapped": None}
    for d, r in ((da, ra), (db, rb)):
        if slots[r] is None:
            slots[r] = d
        else:
            p = promote(slots[r], d)
            if p is None:
                return None
            slots[r] = p
    inner = combine(slots["zero"], slots["wrapped"])
    return combine(slots["dim"], inner)


def make_operand(d, rank, rng):
    if rank == "dim":
        return from_array(storage_array(values_for(d, 3, rng, small=True).reshape(3), d), d)
    if rank == "zero":
        return zero_dim(values_for(d, 1, rng, small=True)[0], d)
    py = {11: True, 4: 2, 7: 2.5, 10: 1.5 + 2j}[d]
    return scalar(py)


def torch_operand(d, rank):
    if rank == "dim":
        return torch.ones(3, dtype=TORCH[d])
    if rank == "zero":
        return torch.ones((), dtype=TORCH[d])
    return {11: True, 4: 2, 7: 2.5, 10: 1.5 + 2j}[d]


@pytest.mark.parametrize("a,b", list(itertools.product(ALL, ALL)))
def test_result_type_of_tensors(a, b):
    rng = np.random.default_rng(a * 100 + b)
    for ra, rb in [("dim", "dim"), ("dim", "zero"), ("zero", "dim"), ("zero", "zero")]:
        ta, tb = make_operand(a, ra, rng), make_operand(b, rb, rng)
        if a in TORCH and b in TORCH:
            r = torch.result_type(torch_operand(a, ra), torch_operand(b, rb))
            expected = 9 if r == torch.complex32 else {v: k for k, v in TORCH.items()}[r]
        else:
            expected = expected_result_type(a, ra, b, rb)
        out = i32()
        st = lib.tensor_result_type(ctypes.byref(out), ta.handle, tb.handle)
        if expected is None:
            assert st == DTYPE, (NAMES[a], ra, NAMES[b], rb)
        else:
            assert st == OK and out.value == expected, (NAMES[a], ra, NAMES[b], rb, out.value, expected)


@pytest.mark.parametrize("a,b", list(itertools.product(ALL, ALL)))
def test_promote_types(a, b):
    """tensor_promote_types is torch.promote_types (the documented extension for
    the unsigned types), refusing exactly the pairs that tensor_result_type refuses."""
    expected = promote(a, b)
    out = i32()
    st = lib.tensor_promote_types(ctypes.byref(out), a, b)
    if expected is None:
        assert st == DTYPE and out.value == -1, (NAMES[a], NAMES[b])
    else:
        assert st == OK and out.value == expected, (NAMES[a], NAMES[b], out.value, expected)


@pytest.mark.parametrize("a", ALL)
@pytest.mark.parametrize("number", [True, 3, 2.5, 1 + 2j])
def test_result_type_with_wrapped_numbers(a, number):
    rng = np.random.default_rng(a)
    wrapped = scalar(number)
    for rank in ["dim", "zero"]:
        t = make_operand(a, rank, rng)
        if a in TORCH:
            r = torch.result_type(torch_operand(a, rank), number)
            expected = 9 if r == torch.complex32 else {v: k for k, v in TORCH.items()}[r]
        else:
            expected = expected_result_type(a, rank, WRAPPED_DTYPE[type(number)], "wrapped")
        assert result_type(t, wrapped) == expected, (NAMES[a], rank, number)
        assert result_type(wrapped, t) == expected
    # two wrapped numbers
    assert result_type(wrapped, scalar(1)) == {bool: 4, int: 4, float: 6, complex: 9}[type(number)]


# ---- binary ops -----------------------------------------------------------------

def broadcast_shapes(rng):
    nd = int(rng.integers(0, 4))
    shape = [int(rng.integers(1, 5)) for _ in range(nd)]
    a = [s if rng.random() < 0.7 else 1 for s in shape]
    b = [s if rng.random() < 0.7 else 1 for s in shape]
    b = b[int(rng.integers(0, nd + 1)):]
    return a, b


def torch_or_error(fn):
    try:
        return fn(), None
    except (RuntimeError, IndexError) as e:
        return None, e


def torch_binary(op, x, y):
    if op == "pow":
        return torch.pow(x, y)
    return getattr(torch, op)(x, y)


def powi(base, exp, bits, signed):
    """PyTorch's integer pow: squaring with wrapping; negative exponents give
    1 for base 1, +-1 for base -1 and 0 otherwise."""
    base, exp = int(base), int(exp)
    if exp < 0:
        return 1 if base == 1 else ((-1 if exp % 2 else 1) if base == -1 else 0)
    r = pow(base, exp, 2 ** bits)
    return r - 2 ** bits if signed and r >= 2 ** (bits - 1) else r


def numpy_binary(op, x, y, rt):
    """The op computed in NumPy in result type rt (for uint16/32/64 operands);
    float results in float64 (compared with a tolerance)."""
    if op == "div":
        rt = 6 if kind(rt) <= 1 else rt
    npt = STORE[rt] if kind(rt) <= 1 else (np.complex128 if kind(rt) == 3 else np.float64)
    xa, ya = x.astype(npt), y.astype(npt)
    if op == "pow" and kind(rt) <= 1:
        info = np.iinfo(STORE[rt])
        f = np.frompyfunc(lambda b, e: powi(b, e, info.bits, info.min < 0), 2, 1)
        return np.asarray(f(xa, ya)).astype(STORE[rt])
    if kind(rt) >= 2:  # inputs and result rounded to the float dtype, the op in float64
        xa, ya = round_to(xa, rt), round_to(ya, rt)
    f = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "pow": np.power,
         "maximum": np.maximum, "minimum": np.minimum, "eq": np.equal, "ne": np.not_equal, "lt": np.less,
         "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}[op]
    with np.errstate(all="ignore"):
        r = f(xa, ya)
    return round_to(r, rt) if kind(rt) >= 2 and op not in COMPARISONS else r


def round_to(v, rt):
    """Float64/complex128 values rounded to float dtype rt (and widened back)."""
    v = np.asarray(v)
    if rt == 15:
        return torch.from_numpy(v.astype(np.float64).reshape(-1)).to(torch.bfloat16).double().numpy().reshape(v.shape)
    with np.errstate(all="ignore"):
        return v.astype(STORE[rt]).astype(np.complex128 if rt in COMPLEX else np.float64)


def pow_exponent_size(va, vb):
    """|y log x| per result element of x ** y: the size of the exponent that exp()
    gets, whose rounding (eps |y log x|) every complex power carries."""
    with np.errstate(all="ignore"):
        z = np.abs(np.asarray(vb, np.complex128) * np.log(np.asarray(va, np.complex128)))
    return np.where(np.isfinite(z), z, 0.0)


def assert_values(op, got, want, rt, ulps=None, exponent_size=None):
    if rt in FLOATS or rt in COMPLEX:
        exact = op not in ("pow",) and not (rt in COMPLEX and op in ("mul", "div"))
        if ulps is None:
            ulps = 0 if exact else (64 if rt in COMPLEX and op == "pow" else 4)
        tol = ulps * EPS[rt]
        g, w = got.astype(np.complex128), want.astype(np.complex128)
        mag = np.abs(np.real(w)) + np.abs(np.imag(w))
        if rt in COMPLEX and op == "pow":
            # exp(y * log x) carries the rounding of y * log x, of size |log|result||,
            # into the result: the bound grows with it (results far from 1, huge or tiny)
            with np.errstate(divide="ignore"):
                growth = np.abs(np.log2(np.where(mag > 0, mag, 1.0))) / 16
            if exponent_size is not None:  # a phase or log far from 0 with a modest |result|
                growth = np.maximum(growth, exponent_size / 11)
            tol = tol * np.maximum(1.0, growth)
        for part in (np.real, np.imag):
            gp, wp = part(g), part(w)
            same = (gp == wp) | (np.isnan(gp) & np.isnan(wp))
            close = np.abs(gp - wp) <= tol * np.maximum(np.abs(wp), mag)
            if rt in COMPLEX and op == "pow":  # subnormal results: a few steps of the smallest spacing
                close |= np.abs(gp - wp) <= ulps * np.finfo(STORE[rt]).smallest_subnormal
            if rt in COMPLEX and op == "div":  # x / 0: C99's infinities where PyTorch gives NaN
                close |= np.isnan(wp) & ~np.isfinite(gp)
            assert np.all(same | close), (op, NAMES[rt], got, want)
    else:
        np.testing.assert_array_equal(got, want)


def check_binary(op, a, b, seed, layouts=None):
    rng = np.random.default_rng(seed)
    sa, sb = broadcast_shapes(rng)
    ta, va = random_view(sa, a, rng)
    tb, vb = random_view(sb, b, rng)
    if op == "pow":  # small exponents keep integer powers meaningful
        tb, vb = random_view(sb, b, rng, "contiguous")
        vb = values_for(b, int(np.prod(sb)) if sb else 1, rng, small=True).reshape(sb)
        tb = from_array(storage_array(vb, b), b)
        vb = to_array(tb)
    out = ctypes.c_void_p()
    st = getattr(lib, "tensor_" + op)(ctypes.byref(out), ta.handle, tb.handle)
    if a in TORCH and b in TORCH:
        xa, xb = to_torch(va, a), to_torch(vb, b)
        if a == 5 and b in COMPLEX or b == 5 and a in COMPLEX:  # torch: complex32; ctensor: complex64
            xa, xb = (xa.float() if a == 5 else xa), (xb.float() if b == 5 else xb)
        want, err = torch_or_error(lambda: torch_binary(op, xa, xb))
        if err is not None:
            assert st == DTYPE, (op, NAMES[a], NAMES[b], str(err), st)
            return
        assert st == OK, (op, NAMES[a], NAMES[b], lib.tensor_last_error())
        res = Tensor(out.value)
        assert res.dtype == {v: k for k, v in TORCH.items()}[want.dtype], (op, NAMES[a], NAMES[b])
        assert res.shape == tuple(want.shape)
        assert_values(op, to_array(res), torch_to_numpy(want), res.dtype,
                      exponent_size=pow_exponent_size(va, vb) if op == "pow" else None)
    else:
        rt = expected_result_type(a, "dim" if sa else "zero", b, "dim" if sb else "zero")
        bad = rt is None or (op == "sub" and 11 in (a, b)) or (op in ("maximum", "minimum", "lt", "le", "gt", "ge") and kind(rt) == 3)
        if bad:
            assert st == DTYPE, (op, NAMES[a], NAMES[b], st)
            return
        assert st == OK, (op, NAMES[a], NAMES[b], lib.tensor_last_error())
        res = Tensor(out.value)
        want = numpy_binary(op, va, vb, rt)
        expected_dtype = 11 if op in COMPARISONS else (6 if op == "div" and kind(rt) <= 1 else rt)
        assert res.dtype == expected_dtype, (op, NAMES[a], NAMES[b], res.dtype)
        if kind(expected_dtype) >= 2:  # converted to the float dtype first, then computed: 2 ulps
            assert_values(op, to_array(res), np.asarray(want), res.dtype,
                          ulps=2 if op != "pow" else (64 if kind(expected_dtype) == 3 else 8),
                          exponent_size=pow_exponent_size(va, vb) if op == "pow" else None)
        else:
            assert_values(op, to_array(res), np.asarray(want).astype(STORE[expected_dtype]), res.dtype)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("a,b", list(itertools.product(ALL, ALL)))
def test_binary_op_every_dtype_pair(op, a, b):
    check_binary(op, a, b, seed=hash((op, a, b)) % 2 ** 32)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "reversed", "broadcast", "overlapping", "offset"])
def test_binary_op_layouts(op, layout):
    for seed, d in enumerate([6, 4, 5, 15, 10, 0]):
        rng = np.random.default_rng(seed)
        shape = [int(rng.integers(1, 6)) for _ in range(3)]
        ta, va = random_view(shape, d, rng, layout)
        tb, vb = random_view(shape[1:], d, rng, layout)
        st = status_of(getattr(lib, "tensor_" + op), ta.handle, tb.handle)
        want, err = torch_or_error(lambda: torch_binary(op, to_torch(va, d), to_torch(vb, d)))
        if err is not None:
            assert st == DTYPE
            continue
        res = new_ref(getattr(lib, "tensor_" + op), ta.handle, tb.handle)
        assert_values(op, to_array(res), torch_to_numpy(want), res.dtype)


def test_binary_output_strides_follow_torch():
    base = torch.arange(24, dtype=torch.float32)
    cases = [((2, 3, 4), (12, 4, 1), (4,), (1,)), ((3, 4), (1, 3), (3, 4), (1, 3)),
             ((3, 4), (1, 3), (1,), (1,)), ((4, 3), (1, 4), (4, 3), (3, 1)),
             ((2, 3, 4), (1, 2, 6), (3, 1), (1, 1)), ((3, 1), (1, 1), (1, 3), (1, 1))]
    for sa, ta_strides, sb, tb_strides in cases:
        xa = torch.as_strided(base, sa, ta_strides)
        xb = torch.as_strided(base, sb, tb_strides)
        ct_base = from_array(base.numpy(), 6)
        ca = new_ref(lib.tensor_as_strided, ct_base.handle, len(sa), int64_array(sa), int64_array(ta_strides), 0)
        cb = new_ref(lib.tensor_as_strided, ct_base.handle, len(sb), int64_array(sb), int64_array(tb_strides), 0)
        res = new_ref(lib.tensor_add, ca.handle, cb.handle)
        want = xa + xb
        assert res.shape == tuple(want.shape) and res.strides == want.stride(), (sa, ta_strides, sb, tb_strides)
        unary = new_ref(lib.tensor_neg, ca.handle)
        assert unary.strides == (-xa).stride()


NUMBERS = [True, False, 0, 3, -7, 1000, 2 ** 40, 2.5, -0.1, 1e10, float("inf"), float("nan"), 1 + 2j, -0.5j]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("a", [d for d in ALL if d in TORCH])
def test_binary_op_with_wrapped_numbers(op, a):
    rng = np.random.default_rng(a)
    ta, va = random_view([2, 3], a, rng)
    xa = to_torch(va, a)
    for number in NUMBERS:
        for left in (True, False):
            x, y = (xa, number) if left else (number, xa)
            ca, cb = (ta, scalar(number)) if left else (scalar(number), ta)
            xs = x.float() if isinstance(x, torch.Tensor) and a == 5 and isinstance(number, complex) else x
            ys = y.float() if isinstance(y, torch.Tensor) and a == 5 and isinstance(number, complex) else y
            want, err = torch_or_error(lambda: torch_binary(op, xs if isinstance(xs, torch.Tensor) else torch.tensor(xs),
                                                            ys if isinstance(ys, torch.Tensor) else torch.tensor(ys))
                                       if False else getattr(xs, "__" + {"add": "add", "sub": "sub", "mul": "mul",
                                                                           "div": "truediv", "pow": "pow",
                                                                           "eq": "eq", "ne": "ne", "lt": "lt",
                                                                           "le": "le", "gt": "gt", "ge": "ge",
                                                                           "maximum": "", "minimum": ""}[op] + "__")(ys)
                                       if op not in ("maximum", "minimum") else getattr(torch, op)(
                                           xs if isinstance(xs, torch.Tensor) else torch.tensor(xs, dtype=torch.result_type(ys, xs) if False else None),
                                           ys if isinstance(ys, torch.Tensor) else torch.tensor(ys)))
            if op in ("maximum", "minimum"):
                continue  # torch.maximum takes no Python numbers; covered with 0-dim tensors above
            if want is NotImplemented:
                continue
            if a in COMPLEX and isinstance(number, float) and not math.isfinite(number):
                continue  # torch adds alpha * b, which turns inf into inf + nan*j; ctensor keeps inf + 0j
            if err is not None and "without overflow" in str(err):
                continue  # torch checks Python-number exponents of pow against the dtype; ctensor's are tensors
            st = status_of(getattr(lib, "tensor_" + op), ca.handle, cb.handle)
            if err is not None:
                assert st != OK, (op, NAMES[a], number, left, str(err))
                continue
            assert st == OK, (op, NAMES[a], number, left, lib.tensor_last_error())
            res = new_ref(getattr(lib, "tensor_" + op), ca.handle, cb.handle)
            want_dtype = {v: k for k, v in TORCH.items()}[want.dtype]
            assert res.dtype == want_dtype, (op, NAMES[a], number, left, NAMES[res.dtype])
            assert_values(op, to_array(res), torch_to_numpy(want), res.dtype)


# ---- binary_into ----------------------------------------------------------------

OP_CODE = {op: i for i, op in enumerate(OPS)}


@pytest.mark.parametrize("op", ["add", "div", "mul", "eq", "pow", "maximum"])
@pytest.mark.parametrize("out_dtype", ALL)
def test_binary_into_out_dtypes(op, out_dtype):
    rng = np.random.default_rng(out_dtype)
    for a, b in [(6, 6), (4, 4), (4, 6), (11, 11), (9, 7), (5, 15)]:
        ta, va = random_view([3, 4], a, rng)
        tb, vb = random_view([4], b, rng)
        dst = from_array(np.zeros((3, 4), STORE[out_dtype]), out_dtype)
        st = lib.tensor_binary_into(dst.handle, OP_CODE[op], ta.handle, tb.handle)
        fresh = ctypes.c_void_p()
        st_fresh = getattr(lib, "tensor_" + op)(ctypes.byref(fresh), ta.handle, tb.handle)
        if st_fresh != OK:
            assert st == st_fresh
            continue
        res = Tensor(fresh.value)
        if out_dtype in TORCH:
            r = torch.empty((3, 4), dtype=TORCH[out_dtype])
            _, err = torch_or_error(lambda: getattr(torch, op)(to_torch(va, a), to_torch(vb, b), out=r))
            assert (st == OK) == (err is None), (op, NAMES[a], NAMES[b], NAMES[out_dtype], st, err)
        if st != OK:
            assert st == DTYPE
            continue
        # computed in the op's dtype, then converted as tensor_copy converts
        expected = from_array(np.zeros((3, 4), STORE[out_dtype]), out_dtype)
        check(lib.tensor_copy(expected.handle, res.handle))
        np.testing.assert_array_equal(to_array(dst), to_array(expected))


def test_binary_into_in_place_and_overlap():
    rng = np.random.default_rng(7)
    vals = rng.standard_normal(16).astype(np.float32)
    a = from_array(vals.reshape(4, 4), 6)
    b = from_array(np.ones(4, np.float32), 6)
    check(lib.tensor_binary_into(a.handle, OP_CODE["add"], a.handle, b.handle))  # a += b
    np.testing.assert_array_equal(to_array(a), vals.reshape(4, 4) + 1)
    check(lib.tensor_binary_into(a.handle, OP_CODE["mul"], b.handle, a.handle))  # a = b * a
    np.testing.assert_array_equal(to_array(a), vals.reshape(4, 4) + 1)
    # dst = a row of a broadcast into all of a: the row is read from a snapshot
    before = to_array(a)
    row = new_ref(lib.tensor_as_strided, a.handle, 1, int64_array([4]), int64_array([1]), 4)
    check(lib.tensor_binary_into(a.handle, OP_CODE["add"], a.handle, row.handle))
    np.testing.assert_array_equal(to_array(a), before + before[1])
    # dst is a reversed view of a: partial overlap, snapshot again
    before = to_array(a)
    rev = new_ref(lib.tensor_as_strided, a.handle, 2, int64_array([4, 4]), int64_array([-4, 1]), 12)
    check(lib.tensor_binary_into(a.handle, OP_CODE["sub"], rev.handle, b.handle))
    np.testing.assert_array_equal(to_array(a), before[::-1] - 1)
    # a destination with internal overlap, a wrong shape, read-only
    overl = new_ref(lib.tensor_as_strided, a.handle, 2, int64_array([4, 4]), int64_array([1, 1]), 0)
    assert lib.tensor_binary_into(overl.handle, OP_CODE["add"], b.handle, b.handle) == SHAPE
    assert lib.tensor_binary_into(overl.handle, OP_CODE["add"], a.handle, b.handle) == OVERLAP
    assert lib.tensor_binary_into(b.handle, OP_CODE["add"], a.handle, b.handle) == SHAPE
    assert lib.tensor_binary_into(a.handle, 13, a.handle, b.handle) == INVALID
    assert lib.tensor_binary_into(a.handle, -1, a.handle, b.handle) == INVALID
    ia = from_array(np.zeros((4, 4), np.int64), 4)
    assert lib.tensor_binary_into(ia.handle, OP_CODE["add"], a.handle, b.handle) == DTYPE  # float into int
    assert lib.tensor_binary_into(ia.handle, OP_CODE["div"], ia.handle, ia.handle) == DTYPE


# ---- unary ------------------------------------------------------------------------

@pytest.mark.parametrize("op", ["neg", "abs"])
@pytest.mark.parametrize("a", ALL)
def test_unary(op, a):
    rng = np.random.default_rng(a)
    shape = [int(rng.integers(0, 4)) for _ in range(int(rng.integers(0, 4)))]
    t, v = random_view(shape, a, rng)
    st = status_of(getattr(lib, "tensor_" + op), t.handle)
    if a in TORCH:
        want, err = torch_or_error(lambda: getattr(torch, op)(to_torch(v, a)))
        if err is not None:
            assert st == DTYPE
            return
        want_dtype, want_vals = {vv: k for k, vv in TORCH.items()}[want.dtype], torch_to_numpy(want)
    else:
        want_dtype = a
        with np.errstate(all="ignore"):
            want_vals = -v if op == "neg" else v  # unsigned: neg wraps, abs is the value
    res = new_ref(getattr(lib, "tensor_" + op), t.handle)
    assert res.dtype == want_dtype and res.shape == tuple(shape)
    if a in COMPLEX and op == "abs":
        np.testing.assert_allclose(to_array(res), want_vals, rtol=4 * EPS[a])
    else:
        np.testing.assert_array_equal(to_array(res), want_vals)


# ---- reductions ---------------------------------------------------------------------

def random_dims(nd, rng):
    k = int(rng.integers(0, nd + 1))
    dims = list(rng.permutation(nd)[:k])
    return [int(d) - nd if rng.random() < 0.3 else int(d) for d in dims]


def numpy_reduce(op, v, dims, keepdim, dtype):
    axis = tuple(d % v.ndim for d in dims) if dims else None
    if v.ndim == 0:
        axis = None
    if op in ("sum", "prod"):
        acc = v.astype(np.int64) if dtype in INTS or dtype == 11 else v
        with np.errstate(all="ignore"):
            return (np.sum if op == "sum" else np.prod)(acc, axis=axis, keepdims=keepdim)
    return (np.amax if op == "amax" else np.amin)(v, axis=axis, keepdims=keepdim)


@pytest.mark.parametrize("op", REDUCTIONS)
@pytest.mark.parametrize("a", ALL)
@pytest.mark.parametrize("seed", range(6))
def test_reductions(op, a, seed):
    rng = np.random.default_rng(seed * 1000 + a)
    nd = int(rng.integers(0, 5))
    shape = [int(rng.integers(0 if seed == 5 else 1, 6)) for _ in range(nd)]
    t, v = random_view(shape, a, rng)
    if a in FLOATS + COMPLEX and op == "prod":  # keep products finite
        t, v = random_view(shape, a, rng, "contiguous")
        v = (1 + values_for(a, v.size, rng, small=True).reshape(v.shape) / 40)
        t = from_array(storage_array(v, a), a)
        v = to_array(t)
    dims = random_dims(nd, rng)
    keepdim = int(rng.integers(0, 2))
    fn = getattr(lib, "tensor_" + op)
    st = status_of(fn, t.handle, len(dims), int64_array(dims) if dims else None, keepdim)
    if a in TORCH:
        x = to_torch(v, a)
        want, err = torch_or_error(lambda: torch_reduce(op, x, dims, bool(keepdim)))
        if err is not None and "not implemented for" in str(err) and a in (5, 15):  # torch 1.13 lacks some
            want, err = torch_reduce(op, x.float(), dims, bool(keepdim)).to(x.dtype), None  # float16/bfloat16 kernels
        if err is not None:
            assert st in (DTYPE, SHAPE), (op, NAMES[a], shape, dims, str(err))
            return
        assert st == OK, (op, NAMES[a], shape, dims, lib.tensor_last_error())
        res = new_ref(fn, t.handle, len(dims), int64_array(dims) if dims else None, keepdim)
        assert res.dtype == {vv: k for k, vv in TORCH.items()}[want.dtype], (op, NAMES[a])
        assert res.shape == tuple(want.shape), (op, shape, dims, keepdim)
        got, exp = to_array(res), torch_to_numpy(want)
    else:
        if op == "mean":
            assert st == DTYPE
            return
        empty = (v.size == 0 and not dims) or any(shape[d] == 0 for d in dims)
        if op in ("amax", "amin") and empty:
            assert st == SHAPE
            return
        assert st == OK, lib.tensor_last_error()
        res = new_ref(fn, t.handle, len(dims), int64_array(dims) if dims else None, keepdim)
        got, exp = to_array(res), numpy_reduce(op, v, dims, bool(keepdim), a)
        assert got.shape == np.shape(exp)
    if a in FLOATS + COMPLEX:
        tol = {"sum": 40, "mean": 40, "prod": 40}.get(op, 0) * EPS[a]
        scale = np.abs(v).max() * max(v.size, 1) if v.size else 1.0
        assert np.all((np.abs(got - exp) <= tol * max(scale, 1e-30) + (EPS[a] * np.abs(exp) if op == "mean" else 0))
                      | (np.isnan(got) & np.isnan(exp)) | (got == exp)), (op, NAMES[a], got, exp)
    else:
        np.testing.assert_array_equal(got, exp)


def torch_reduce(op, x, dims, keepdim):
    if op == "prod":
        return _prod_all(x, dims, keepdim)
    if dims or op in ("amax", "amin"):
        return getattr(torch, op)(x, dim=dims, keepdim=keepdim)
    r = getattr(torch, op)(x)
    return r.reshape([1] * x.ndim) if keepdim else r


def _prod_all(x, dims, keepdim):
    """torch.prod takes one dim at a time: reduce each (highest first) or all."""
    if not dims:
        r = torch.prod(x)
        return r.reshape([1] * x.ndim) if keepdim else r
    for d in sorted({d % max(x.ndim, 1) for d in dims}, reverse=True):
        x = torch.prod(x, d if x.ndim else 0, keepdim=bool(keepdim))
    return x


def test_reduction_errors():
    t = from_array(np.zeros((2, 3), np.float32), 6)
    for op in REDUCTIONS:
        fn = getattr(lib, "tensor_" + op)
        assert status_of(fn, t.handle, 2, int64_array([0, -2]), 0) == INVALID  # repeated
        assert status_of(fn, t.handle, 1, int64_array([2]), 0) == INVALID
        assert status_of(fn, t.handle, 1, None, 0) == INVALID
        assert status_of(fn, t.handle, -1, None, 0) == INVALID
        assert status_of(fn, t.handle, 0, None, 2) == INVALID
    e = from_array(np.zeros((0, 3), np.float32), 6)
    assert status_of(lib.tensor_amax, e.handle, 0, None, 0) == SHAPE
    assert status_of(lib.tensor_amin, e.handle, 1, int64_array([0]), 0) == SHAPE
    assert new_ref(lib.tensor_amax, e.handle, 1, int64_array([1]), 0).shape == (0,)
    i = from_array(np.zeros(3, np.int32), 3)
    assert status_of(lib.tensor_mean, i.handle, 0, None, 0) == DTYPE
    c = from_array(np.zeros(3, np.complex64), 9)
    assert status_of(lib.tensor_amax, c.handle, 0, None, 0) == DTYPE
    m = new_ref(lib.tensor_mean, e.handle, 0, None, 0)
    assert math.isnan(to_array(m))


def pairwise_bound(n, eps, abs_sum):
    return (math.ceil(math.log2(max(n, 2))) + 32) * eps * abs_sum


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_float_sum_is_pairwise(threads):
    # Large enough for threads, which change no bit of any result.
    before = lib.tensor_get_num_threads()
    check(lib.tensor_set_num_threads(threads))
    try:
        check_float_sum_is_pairwise()
    finally:
        check(lib.tensor_set_num_threads(before))


def check_float_sum_is_pairwise():
    # 2^25 ones (a zero-stride view): a running float32 sum stops at 2^24.
    one = from_array(np.ones(1, np.float32), 6)
    ones = new_ref(lib.tensor_as_strided, one.handle, 1, int64_array([2 ** 25]), int64_array([0]), 0)
    assert to_array(new_ref(lib.tensor_sum, ones.handle, 0, None, 0)) == 2.0 ** 25
    rows = new_ref(lib.tensor_as_strided, one.handle, 2, int64_array([2 ** 13, 2 ** 12]), int64_array([0, 0]), 0)
    np.testing.assert_array_equal(to_array(new_ref(lib.tensor_sum, rows.handle, 1, int64_array([0]), 0)), 2.0 ** 13)
    # The stated bound on random data of every layout the kernels treat differently.
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((1024, 1536)) + 0.5).astype(np.float32)
    exact = x.astype(np.float64)
    t = from_array(x, 6)
    tt = new_ref(lib.tensor_as_strided, t.handle, 2, int64_array([1536, 1024]), int64_array([1, 1536]), 0)
    sl = new_ref(lib.tensor_as_strided, t.handle, 2, int64_array([1024, 1535]), int64_array([1536, 1]), 1)
    for view, ex in [(t, exact), (tt, exact.T), (sl, exact[:, 1:])]:
        for dims in ([], [0], [1]):
            got = to_array(new_ref(lib.tensor_sum, view.handle, len(dims), int64_array(dims) if dims else None, 0))
            axis = tuple(dims) if dims else None
            want = ex.sum(axis=axis)
            n = ex.size if not dims else ex.shape[dims[0]]
            bound = pairwise_bound(n, 2.0 ** -24, np.abs(ex).sum(axis=axis))
            assert np.all(np.abs(got - want) <= bound), (dims, np.abs(got - want).max())
    # float16 accumulates in float32 and rounds once
    h = from_array(np.full(4096, 0.1, np.float16), 5)
    got = float(to_array(new_ref(lib.tensor_sum, h.handle, 0, None, 0)))
    assert got == float(np.float16(np.float32(np.float16(0.1)) * 4096))


def documented_run_sum(x):
    """A contiguous run summed as docs/math.md states: blocks of 512 elements over 16
    lanes (element i of a block into lane i % 16, in order), blocks combined pairwise
    lane by lane (a run of n > 512 splits after a whole number of blocks, the first
    half rounded up), then the lanes pairwise."""
    def lanes(v):
        if len(v) > 512:
            half = (len(v) // 2 + 511) // 512 * 512
            return lanes(v[:half]) + lanes(v[half:])
        lane = np.zeros(16, v.dtype)
        full = len(v) // 16 * 16
        for i in range(0, full, 16):
            lane += v[i:i + 16]
        lane[:len(v) - full] += v[full:]
        return lane
    lane = lanes(x)
    while len(lane) > 1:
        lane = lane[:len(lane) // 2] + lane[len(lane) // 2:]
    return lane[0]


@pytest.mark.parametrize("threads", [1, 2])
def test_float_sum_order_is_the_documented_one(threads):
    # Bit for bit, on lengths around the block sizes and long runs split over threads.
    before = lib.tensor_get_num_threads()
    check(lib.tensor_set_num_threads(threads))
    try:
        rng = np.random.default_rng(5)
        for dtype, code in ((np.float32, 6), (np.float64, 7)):
            for n in (1, 15, 17, 511, 512, 513, 527, 1023, 1024, 1025, 1537, 3000, 4096, 5003, 2 ** 20 + 77):
                x = (rng.standard_normal(n) * 10.0 ** rng.integers(-4, 5, n)).astype(dtype)
                t = from_array(x, code)
                got = to_array(new_ref(lib.tensor_sum, t.handle, 0, None, 0))
                assert got.tobytes() == documented_run_sum(x).tobytes(), (dtype, n)
            rows = rng.standard_normal((5, 1300)).astype(dtype)
            t = from_array(rows, code)
            got = to_array(new_ref(lib.tensor_sum, t.handle, 1, int64_array([1]), 0))
            assert got.tobytes() == np.array([documented_run_sum(r) for r in rows]).tobytes()
    finally:
        check(lib.tensor_set_num_threads(before))


# ---- item, cat, stack, equal, allclose ----------------------------------------------

@pytest.mark.parametrize("a", ALL)
def test_item(a):
    rng = np.random.default_rng(a)
    v = values_for(a, 1, rng)
    t = from_array(storage_array(v, a).reshape(1, 1), a)
    f, i = ctypes.c_double(), i64()
    check(lib.tensor_item_float64(ctypes.byref(f), t.handle))
    check(lib.tensor_item_int64(ctypes.byref(i), t.handle))
    x = to_array(t).reshape(())
    assert f.value == np.real(x).astype(np.float64) or (math.isnan(f.value) and np.isnan(x))
    if a in INTS or a == 11:
        assert i.value == int(np.array(x).astype(np.int64))
    else:
        assert i.value == int(np.real(x)) if abs(np.real(x)) < 2 ** 62 else True
    two = from_array(storage_array(values_for(a, 2, rng), a), a)
    assert lib.tensor_item_float64(ctypes.byref(f), two.handle) == SHAPE
    assert lib.tensor_item_int64(ctypes.byref(i), two.handle) == SHAPE


def handles(ts):
    return (ctypes.c_void_p * len(ts))(*[t.handle.value for t in ts])


@pytest.mark.parametrize("seed", range(40))
def test_cat_and_stack(seed):
    rng = np.random.default_rng(seed)
    nd = int(rng.integers(1, 4))
    shape = [int(rng.integers(0, 4)) for _ in range(nd)]
    dim = int(rng.integers(-nd, nd))
    dts = [ALL[int(rng.integers(len(ALL)))] for _ in range(int(rng.integers(1, 4)))]
    if not all(d in TORCH for d in dts):
        dts = [d if d in TORCH else 4 for d in dts]
    parts, views = [], []
    for d in dts:
        s = list(shape)
        s[dim] = int(rng.integers(0, 4))
        t, v = random_view(s, d, rng)
        parts.append(to_torch(v, d))
        views.append(t)
    want, err = torch_or_error(lambda: torch.cat(parts, dim))
    out = ctypes.c_void_p()
    st = lib.tensor_cat(ctypes.byref(out), len(views), handles(views), dim)
    if err is not None:
        assert st in (DTYPE, SHAPE), str(err)
    else:
        res = Tensor(out.value)
        assert st == OK and res.shape == tuple(want.shape) and res.dtype == {v: k for k, v in TORCH.items()}[want.dtype]
        np.testing.assert_array_equal(to_array(res), torch_to_numpy(want))
    # stack: equal shapes
    same = []
    for d in dts:
        t, v = random_view(shape, d, rng)
        same.append((t, to_torch(v, d)))
    sdim = int(rng.integers(-nd - 1, nd + 1))
    want = torch.stack([p for _, p in same], sdim)
    res = new_ref(lib.tensor_stack, len(same), handles([t for t, _ in same]), sdim)
    assert res.shape == tuple(want.shape)
    np.testing.assert_array_equal(to_array(res), torch_to_numpy(want))


def test_cat_stack_errors():
    a = from_array(np.zeros((2, 3), np.float32), 6)
    b = from_array(np.zeros((2, 4), np.float32), 6)
    c = from_array(np.zeros((2, 3, 1), np.float32), 6)
    z = from_array(np.zeros((), np.float32), 6)
    e = from_array(np.zeros((0,), np.float32), 6)
    assert status_of(lib.tensor_cat, 2, handles([a, b]), 0) == SHAPE
    assert new_ref(lib.tensor_cat, 2, handles([a, b]), 1).shape == (2, 7)
    assert status_of(lib.tensor_cat, 2, handles([a, c]), 0) == SHAPE
    assert status_of(lib.tensor_cat, 2, handles([a, z]), 0) == INVALID
    assert status_of(lib.tensor_cat, 0, handles([a]), 0) == INVALID
    assert status_of(lib.tensor_cat, 1, None, 0) == INVALID
    assert status_of(lib.tensor_cat, 2, handles([a, a]), 2) == INVALID
    assert new_ref(lib.tensor_cat, 3, handles([e, a, e]), 0).shape == (2, 3)  # legacy empty
    assert new_ref(lib.tensor_cat, 2, handles([e, e]), 0).shape == (0,)
    assert status_of(lib.tensor_stack, 2, handles([a, b]), 0) == SHAPE
    assert status_of(lib.tensor_stack, 2, handles([a, a]), 3) == INVALID
    assert new_ref(lib.tensor_stack, 2, handles([z, z]), 0).shape == (2,)
    u = from_array(np.zeros((2, 3), np.uint64), 29)
    i = from_array(np.zeros((2, 3), np.int8), 1)
    assert status_of(lib.tensor_cat, 2, handles([u, i]), 0) == DTYPE


@pytest.mark.parametrize("seed", range(30))
def test_equal_and_allclose(seed):
    rng = np.random.default_rng(seed)
    d = [6, 7, 5, 15, 4, 11, 9, 0][seed % 8]
    shape = [int(rng.integers(1, 4)) for _ in range(int(rng.integers(0, 3)))]
    ta, va = random_view(shape, d, rng)
    mode = seed % 3
    if mode == 0:
        vb = va.copy()
    elif mode == 1:
        vb = va + (1e-6 * va if d in FLOATS + COMPLEX else 0)
    else:
        vb = values_for(d, va.size, rng).reshape(va.shape)
    tb = from_array(storage_array(vb, d), d)
    vb = to_array(tb)
    xa, xb = to_torch(va, d), to_torch(vb, d)
    eq = i32()
    check(lib.tensor_equal(ctypes.byref(eq), ta.handle, tb.handle))
    assert eq.value == int(torch.equal(xa, xb))
    for rtol, atol, equal_nan in [(1e-5, 1e-8, 0), (0.0, 0.0, 0), (1e-2, 1e-3, 1), (0.5, 0, 0)]:
        if d in COMPLEX and equal_nan:
            continue  # torch refuses; ctensor supports it (NaN in either part)
        close = i32()
        check(lib.tensor_allclose(ctypes.byref(close), ta.handle, tb.handle, rtol, atol, equal_nan))
        assert close.value == int(torch.allclose(xa, xb, rtol, atol, bool(equal_nan))), (NAMES[d], rtol, atol)


def test_equal_and_allclose_rules():
    a = from_array(np.array([1.0, float("nan")], np.float32), 6)
    b = from_array(np.array([1.0, float("nan")], np.float64), 7)
    r = i32()
    check(lib.tensor_equal(ctypes.byref(r), a, a.handle) if False else lib.tensor_equal(ctypes.byref(r), a.handle, a.handle))
    assert r.value == 0  # NaN != NaN
    one_f = from_array(np.ones(2, np.float32), 6)
    one_d = from_array(np.ones(2, np.float64), 7)
    check(lib.tensor_equal(ctypes.byref(r), one_f.handle, one_d.handle))
    assert r.value == 1  # compared in the result type, as torch.equal
    one_3 = from_array(np.ones(3, np.float32), 6)
    check(lib.tensor_equal(ctypes.byref(r), one_f.handle, one_3.handle))
    assert r.value == 0
    check(lib.tensor_allclose(ctypes.byref(r), a.handle, a.handle, 1e-5, 1e-8, 1))
    assert r.value == 1
    assert lib.tensor_allclose(ctypes.byref(r), a.handle, b.handle, 1e-5, 1e-8, 0) == DTYPE
    assert lib.tensor_allclose(ctypes.byref(r), a.handle, a.handle, -1.0, 0.0, 0) == INVALID
    assert lib.tensor_allclose(ctypes.byref(r), a.handle, a.handle, float("nan"), 0.0, 0) == INVALID
    assert lib.tensor_allclose(ctypes.byref(r), a.handle, one_3.handle, 0.0, 0.0, 0) == SHAPE
    # integers: exact difference (PyTorch's int8 subtraction would wrap)
    x = from_array(np.array([100], np.int8), 1)
    y = from_array(np.array([-100], np.int8), 1)
    check(lib.tensor_allclose(ctypes.byref(r), x.handle, y.handle, 0.0, 100.0, 0))
    assert r.value == 0


@pytest.mark.parametrize("d", [6, 7, 5, 10, 0, 11])
def test_transposed_inputs_across_tiles(d):
    """Inputs laid out across the output's order go through transposed tiles
    (128 x 64 elements): sizes that leave partial tiles on both edges."""
    rng = np.random.default_rng(d)
    x = storage_array(values_for(d, 200 * 150, rng, small=True).reshape(200, 150), d)
    y = storage_array(values_for(d, 150 * 200, rng, small=True).reshape(150, 200), d)
    tx, ty = from_array(x, d), from_array(y, d)
    tyt = new_ref(lib.tensor_as_strided, ty.handle, 2, int64_array([200, 150]), int64_array([1, 200]), 0)
    res = new_ref(lib.tensor_add if d != 11 else lib.tensor_mul, tx.handle, tyt.handle)
    want = torch_binary("add" if d != 11 else "mul", to_torch(to_array(tx), d), to_torch(to_array(ty), d).t())
    assert_values("add", to_array(res), torch_to_numpy(want), res.dtype)
    if d != 11:
        neg = new_ref(lib.tensor_neg, tyt.handle)
        np.testing.assert_array_equal(to_array(neg), torch_to_numpy(-to_torch(to_array(ty), d).t()))


# ---- inputs of another dtype, converted through the iterator's buffers ---------

MIXED = [(6, 5), (3, 7), (5, 15), (11, 6), (1, 4), (0, 7), (6, 10)]


@pytest.mark.parametrize("a,b", MIXED)
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "reversed", "broadcast", "overlapping", "offset"])
def test_mixed_dtypes_over_many_buffers(a, b, layout):
    """An input whose dtype is not the op's is converted a few KiB at a time as
    the loops go: shapes of several buffers' worth per row, every layout, both
    operand orders, against PyTorch."""
    rng = np.random.default_rng(hash((a, b, layout)) % 2 ** 32)
    shape = [3, 2100]
    ta, va = random_view(shape, a, rng, layout)
    tb, vb = random_view(shape[1:], b, rng, "reversed" if layout == "broadcast" else layout)
    for op in ("add", "mul", "lt", "maximum"):
        for (x, vx, dx), (y, vy, dy) in [((ta, va, a), (tb, vb, b)), ((tb, vb, b), (ta, va, a))]:
            want, err = torch_or_error(lambda: torch_binary(op, to_torch(vx, dx), to_torch(vy, dy)))
            st = status_of(getattr(lib, "tensor_" + op), x.handle, y.handle)
            if err is not None:
                assert st == DTYPE, (op, NAMES[dx], NAMES[dy])
                continue
            res = new_ref(getattr(lib, "tensor_" + op), x.handle, y.handle)
            assert res.dtype == FROM_TORCH[want.dtype] and res.shape == tuple(want.shape)
            assert_values(op, to_array(res), torch_to_numpy(want), res.dtype)


@pytest.mark.parametrize("threads", [1, 2])
def test_mixed_dtypes_split_across_threads(threads):
    """Large enough for the pool to split it: each thread converts its own part."""
    rng = np.random.default_rng(threads)
    n = 1 << 20
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float16)
    i = rng.integers(-1000, 1000, n).astype(np.int32)
    d = rng.standard_normal(n)
    old = lib.tensor_get_num_threads()
    check(lib.tensor_set_num_threads(threads))
    try:
        tx, ty, ti, td = from_array(x, 6), from_array(y, 5), from_array(i, 3), from_array(d, 7)
        np.testing.assert_array_equal(to_array(new_ref(lib.tensor_add, tx.handle, ty.handle)),
                                      (torch.from_numpy(x) + torch.from_numpy(y)).numpy())
        np.testing.assert_array_equal(to_array(new_ref(lib.tensor_sub, ti.handle, td.handle)),
                                      (torch.from_numpy(i) - torch.from_numpy(d)).numpy())
    finally:
        check(lib.tensor_set_num_threads(old))


def test_mixed_dtypes_into_overlapping_outputs():
    """binary_into whose float32 destination shares memory with an int32 input
    (a view of the same bytes), converted through buffers: exactly the same
    elements (in place) read each element before writing it; a partial overlap
    reads a snapshot."""
    rng = np.random.default_rng(11)
    n = 3000
    vals = rng.integers(-50, 50, n).astype(np.int32)
    fv = rng.standard_normal(n).astype(np.float32)
    other = from_array(fv, 6)
    ti, tf = torch.from_numpy(vals), torch.from_numpy(fv)

    def dst_and_int_view():
        ints = from_array(vals.copy(), 3)
        return ints, new_ref(lib.tensor_view_dtype, ints.handle, 6)

    ints, dst = dst_and_int_view()  # the same elements
    check(lib.tensor_binary_into(dst.handle, OP_CODE["add"], ints.handle, other.handle))
    np.testing.assert_array_equal(to_array(dst), (ti + tf).numpy())
    ints, dst = dst_and_int_view()  # the input reversed over the destination
    rev = new_ref(lib.tensor_as_strided, ints.handle, 1, int64_array([n]), int64_array([-1]), n - 1)
    check(lib.tensor_binary_into(dst.handle, OP_CODE["mul"], rev.handle, other.handle))
    np.testing.assert_array_equal(to_array(dst), (ti.flip(0) * tf).numpy())
    ints, dst = dst_and_int_view()  # the input shifted by 100 elements under the destination
    part = new_ref(lib.tensor_as_strided, dst.handle, 1, int64_array([n - 100]), int64_array([1]), 100)
    src = new_ref(lib.tensor_as_strided, ints.handle, 1, int64_array([n - 100]), int64_array([1]), 0)
    head = new_ref(lib.tensor_as_strided, other.handle, 1, int64_array([n - 100]), int64_array([1]), 0)
    check(lib.tensor_binary_into(part.handle, OP_CODE["sub"], src.handle, head.handle))
    np.testing.assert_array_equal(to_array(part), (ti[:n - 100] - tf[:n - 100]).numpy())


def test_mixed_dtypes_clamp_and_where():
    """clamp and where convert their inputs of other dtypes through the same buffers."""
    rng = np.random.default_rng(12)
    shape = [5, 1700]
    ta, va = random_view(shape, 3, rng, "reversed")
    tlo, vlo = random_view(shape[1:], 5, rng, "broadcast")
    thi, vhi = random_view(shape, 7, rng, "transposed")
    got = new_ref(lib.tensor_clamp, ta.handle, tlo.handle, thi.handle)
    want = torch.clamp(to_torch(va, 3).float(), to_torch(vlo, 5).float(), to_torch(vhi, 7)).numpy()
    np.testing.assert_array_equal(to_array(got), want)
    lo = scalar(-0.5)  # (held: a temporary's handle would be released before the call)
    got = new_ref(lib.tensor_clamp, ta.handle, lo.handle, None)
    np.testing.assert_array_equal(to_array(got), torch.clamp(to_torch(va, 3), -0.5).numpy())
    cond_vals = rng.integers(0, 2, shape[1:]).astype(np.bool_)
    cond = from_array(cond_vals, 11)
    got = new_ref(lib.tensor_where, cond.handle, ta.handle, thi.handle)
    want = torch.where(torch.from_numpy(cond_vals), to_torch(va, 3), to_torch(vhi, 7)).numpy()
    np.testing.assert_array_equal(to_array(got), want)


def test_clamp_into_directly_and_through_a_result():
    """clamp_into writes straight into a destination of the result's dtype that
    overlaps no input (or is the input, in place); a partial overlap or another
    dtype goes through a computed result."""
    rng = np.random.default_rng(13)
    n = 5000
    vals = (rng.standard_normal(n) * 3).astype(np.float32)
    want = torch.clamp(torch.from_numpy(vals), -1.0, 1.0).numpy()
    lo, hi = scalar(-1.0), scalar(1.0)
    a = from_array(vals.copy(), 6)
    for d in (6, 7):
        dst = from_array(np.zeros(n, STORE[d]), d)
        check(lib.tensor_clamp_into(dst.handle, a.handle, lo.handle, hi.handle))
        np.testing.assert_array_equal(to_array(dst), want.astype(STORE[d]))
    rev = new_ref(lib.tensor_as_strided, a.handle, 1, int64_array([n]), int64_array([-1]), n - 1)
    check(lib.tensor_clamp_into(a.handle, rev.handle, lo.handle, hi.handle))  # dst is the input reversed
    np.testing.assert_array_equal(to_array(a), want[::-1])
    check(lib.tensor_clamp_into(a.handle, a.handle, lo.handle, None))  # in place
    np.testing.assert_array_equal(to_array(a), np.maximum(want[::-1], -1.0))


def assert_same_with_zero_signs(got, want, err_msg):
    """Equal values (NaN where NaN), and the same sign on every zero."""
    np.testing.assert_array_equal(got, want, err_msg=err_msg)
    zeros = want == 0
    np.testing.assert_array_equal(np.signbit(got[zeros]), np.signbit(want[zeros]), err_msg=err_msg)


@pytest.mark.parametrize("n", [1000 + 3, (3 << 20) + 37])
@pytest.mark.parametrize("d", [6, 7])
def test_clamp_number_bounds_vector_forms(d, n):
    """clamp with number bounds over float32 and float64: outputs of 8 MiB or
    more are stored with streaming stores (from the vector form where the CPU
    has one), smaller ones with plain stores; the same values as PyTorch's, for
    NaN, infinite and signed-zero elements and bounds, a NaN bound, min > max,
    one bound absent, and an output that starts mid cache line."""
    rng = np.random.default_rng(14)
    vals = (rng.standard_normal(n) * 3).astype(STORE[d])
    for special in (np.nan, np.inf, -np.inf, 0.0, -0.0):
        vals[rng.integers(n, size=100)] = special
    a = from_array(vals, d)
    ta = torch.from_numpy(vals)
    for lo_v, hi_v in ((-1.0, 1.0), (2.0, -2.0), (None, 0.5), (-0.25, None), (np.nan, 1.0), (None, np.nan),
                       (0.0, None), (-0.0, None), (None, 0.0), (None, -0.0), (-0.0, 0.0), (-np.inf, np.inf)):
        lo = scalar(lo_v) if lo_v is not None else None
        hi = scalar(hi_v) if hi_v is not None else None
        want = torch.clamp(ta, lo_v, hi_v).numpy()
        got = new_ref(lib.tensor_clamp, a.handle, lo.handle if lo else None, hi.handle if hi else None)
        assert_same_with_zero_signs(to_array(got), want, str((lo_v, hi_v)))
        dst = from_array(np.zeros(n + 1, STORE[d]), d)  # written from its element 1: not on a cache line
        tail = new_ref(lib.tensor_as_strided, dst.handle, 1, int64_array([n]), int64_array([1]), 1)
        check(lib.tensor_clamp_into(tail.handle, a.handle, lo.handle if lo else None, hi.handle if hi else None))
        assert_same_with_zero_signs(to_array(dst)[1:], want, str((lo_v, hi_v)))
        assert to_array(dst)[0] == 0


def test_clamp_large_outputs_streamed():
    """clamp's outputs of 8 MiB or more are stored with streaming stores along
    their dense runs, with tensor bounds too (the scalar loop, staged)."""
    rng = np.random.default_rng(14)
    n = (3 << 20) + 37  # 12 MiB of float32
    vals = (rng.standard_normal(n) * 3).astype(np.float32)
    vals[rng.integers(n, size=100)] = np.nan
    a = from_array(vals, 6)
    ta = torch.from_numpy(vals)
    lo_vals = (rng.standard_normal(n) - 1).astype(np.float32)
    hi_vals = (rng.standard_normal(n) + 1).astype(np.float32)
    lo_vals[rng.integers(n, size=50)] = np.nan
    tlo, thi = from_array(lo_vals, 6), from_array(hi_vals, 6)
    got = new_ref(lib.tensor_clamp, a.handle, tlo.handle, thi.handle)
    want = torch.clamp(ta, torch.from_numpy(lo_vals), torch.from_numpy(hi_vals)).numpy()
    np.testing.assert_array_equal(to_array(got), want)
