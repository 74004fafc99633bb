"""Operators and math methods against PyTorch 1.13: every dtype with Python
numbers of every kind on both sides (PyTorch's wrapped-number promotion),
tensor pairs, in-place operators, reductions, cat/stack/equal/allclose and
result_type. Values must be equal (float16/bfloat16: both compute in float32
and round once); pow allows 4 units in the last place."""
import itertools
import math
import operator
import warnings

import pytest
import torch

import ctensor
from binding_helpers import dtype_name

warnings.filterwarnings("ignore")

DTYPES = ["uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128", "bool"]
NUMBERS = [True, 0, 3, -2, 300, 2.5, -0.75, float("inf"), 1 + 2j]
OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "**": operator.pow,
       "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt,
       ">=": operator.ge}
EPS = {"float16": 2 ** -10, "bfloat16": 2 ** -7, "float32": 2 ** -23, "float64": 2 ** -52,
       "complex64": 2 ** -23, "complex128": 2 ** -52}


def sample(dtype):
    values = [[1, 0, 3], [-2, 5, 7]] if dtype != "bool" else [[True, False, True], [False, True, True]]
    if dtype.startswith("uint"):
        values = [[1, 0, 3], [2, 5, 255]]
    if dtype in EPS:
        values = [[1.5, -0.25, 3.0], [-2.0, 0.0, 7.125]]
    t = torch.tensor(values, dtype=getattr(torch, dtype))
    return ctensor.tensor(values, dtype=getattr(ctensor, dtype)), t


def outcome(fn):
    try:
        return fn(), None
    except (RuntimeError, TypeError, ZeroDivisionError) as e:
        return None, e


def same(c, t, op="+", ulps=None, rtol=None):
    assert tuple(c.shape) == tuple(t.shape)
    assert dtype_name(c.dtype) == dtype_name(t.dtype), (dtype_name(c.dtype), t.dtype)
    got, want = c.tolist(), t.tolist()
    flat_g = list(_flatten(got))
    flat_w = list(_flatten(want))
    if ulps is None:
        ulps = 4 if op == "**" else 0
    tol = rtol if rtol is not None else ulps * EPS.get(dtype_name(c.dtype), 0)
    for g, w in zip(flat_g, flat_w):
        if isinstance(w, complex) or isinstance(g, complex):
            g, w = complex(g), complex(w)
            ok = all(_close(x, y, 0) for x, y in ((g.real, w.real), (g.imag, w.imag))) or abs(g - w) <= tol * abs(w)
            # x / 0 and 0 ** -n: C99's infinities where PyTorch's complex arithmetic gives NaN
            ok |= op in ("/", "**") and math.isnan(w.real) and not math.isfinite(abs(g))
            # x ** 0 is 1 (PyTorch's tensor-tensor complex pow gives NaN at 0 ** 0)
            ok |= op == "**" and math.isnan(w.real) and g == 1
        else:
            ok = _close(g, w, tol)
        assert ok, (got, want)


def _close(g, w, tol):
    if isinstance(w, float) and math.isnan(w):
        return isinstance(g, float) and math.isnan(g)
    return g == w or abs(g - w) <= tol * abs(w)


def _flatten(x):
    if isinstance(x, list):
        for y in x:
            yield from _flatten(y)
    else:
        yield x


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", list(OPS))
def test_operators_with_python_numbers(dtype, op):
    c, t = sample(dtype)
    f = OPS[op]
    for number in NUMBERS:
        if "complex" in dtype or isinstance(number, complex):
            if isinstance(number, float) and math.isinf(number):
                continue  # torch's alpha * b turns inf into inf + nan*j
        if dtype == "float16" and isinstance(number, complex):
            continue  # torch gives complex32, which ctensor has not (complex64)
        for left in (True, False):
            want, err = outcome(lambda: f(t, number) if left else f(number, t))
            if err is not None and "without overflow" in str(err):
                continue  # torch range-checks pow's Python-number exponent
            got, cerr = outcome(lambda: f(c, number) if left else f(number, c))
            if err is not None:
                assert cerr is not None, (dtype, op, number, left, err)
                assert type(cerr) is type(err) or isinstance(cerr, RuntimeError), (cerr, err)
                continue
            assert cerr is None, (dtype, op, number, left, cerr)
            # torch computes number / t as reciprocal(t) * number (two roundings): 2 ulps;
            # float16/bfloat16 round the reciprocal to their own precision first.
            reverse_div = op == "/" and not left
            narrow = dtype in ("float16", "bfloat16")
            same(got, want, op, ulps=2 if reverse_div else None, rtol=2 ** -6 if reverse_div and narrow else None)


@pytest.mark.parametrize("a,b", list(itertools.combinations_with_replacement(DTYPES, 2)))
def test_operators_between_tensors(a, b):
    ca, ta = sample(a)
    cb, tb = sample(b)
    cb, tb = cb[0], tb[0]  # broadcast a row
    for op, f in OPS.items():
        if "float16" in (a, b) and ("complex64" in (a, b) or "complex128" in (a, b)):
            continue  # complex32 in torch
        want, err = outcome(lambda: f(ta, tb))
        got, cerr = outcome(lambda: f(ca, cb))
        if err is not None:
            assert cerr is not None, (a, b, op, err)
            continue
        assert cerr is None, (a, b, op, cerr)
        same(got, want, op)


@pytest.mark.parametrize("dtype", DTYPES)
def test_unary(dtype):
    c, t = sample(dtype)
    for f in (operator.neg, abs, operator.pos):
        want, err = outcome(lambda: f(t))
        got, cerr = outcome(lambda: f(c))
        assert (err is None) == (cerr is None), (dtype, f, err, cerr)
        if err is None:
            same(got, want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/="])
def test_in_place(dtype, op):
    f = {"+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv}[op]
    for other in (2, 0.5, True, "row"):
        c, t = sample(dtype)
        cr, tr = (sample(dtype)[0][1], sample(dtype)[1][1]) if other == "row" else (other, other)
        before = c
        want, err = outcome(lambda: f(t, tr))
        got, cerr = outcome(lambda: f(c, cr))
        assert (err is None) == (cerr is None), (dtype, op, other, err, cerr)
        if err is None:
            assert got is before  # in place: the same tensor object
            same(got, want, op[0])


@pytest.mark.parametrize("dtype", DTYPES)
def test_reductions(dtype):
    c, t = sample(dtype)
    for name in ["sum", "mean", "prod", "amax", "amin"]:
        for kwargs in [{}, {"dim": 0}, {"dim": 1, "keepdim": True}, {"dim": (0, 1)}, {"dim": -1}]:
            if name == "prod" and isinstance(kwargs.get("dim"), tuple):
                continue  # torch.prod takes one dim
            want, err = outcome(lambda: getattr(t, name)(**kwargs))
            if err is not None and "not implemented for" in str(err) and dtype in ("float16", "bfloat16"):
                want, err = getattr(t.float(), name)(**kwargs).to(t.dtype), None
            got, cerr = outcome(lambda: getattr(c, name)(**kwargs))
            assert (err is None) == (cerr is None), (dtype, name, kwargs, err, cerr)
            if err is None:
                same(got, want)
    for name in ["max", "min"]:
        want, err = outcome(lambda: getattr(t, name)())
        got, cerr = outcome(lambda: getattr(c, name)())
        assert (err is None) == (cerr is None)
        if err is None:
            same(got, want)
            assert got.item() == want.item()


def test_sum_dtype_and_errors():
    c = ctensor.tensor([1, 2, 3], dtype=ctensor.int8)
    assert c.sum().dtype == ctensor.int64
    assert c.sum(dtype=ctensor.float64).dtype == ctensor.float64
    with pytest.raises(RuntimeError):
        c.mean()
    with pytest.raises(RuntimeError):
        ctensor.tensor([]).max()
    with pytest.raises(RuntimeError):
        c.sum((0, 0))
    with pytest.raises(NotImplementedError):
        c.max(0)
    assert ctensor.tensor([1.0, 2.0]).max(ctensor.tensor([3.0, 0.0])).tolist() == [3.0, 2.0]


def test_functions():
    a, ta = sample("float32")
    b, tb = sample("int64")
    assert ctensor.cat([a, b]).tolist() == torch.cat([ta, tb]).tolist()
    assert ctensor.cat((a, b), dim=1).tolist() == torch.cat((ta, tb), dim=1).tolist()
    assert ctensor.stack([a, a], 2).tolist() == torch.stack([ta, ta], 2).tolist()
    assert ctensor.cat([a, b]).dtype == ctensor.float32
    assert ctensor.equal(a, a) and not ctensor.equal(a, a + 1)
    assert ctensor.allclose(a, a + 1e-9) and not ctensor.allclose(a, a + 1)
    assert ctensor.allclose(a, a + 0.5, atol=1.0)
    assert ctensor.result_type(b, 2.5) == ctensor.float32
    assert ctensor.result_type(ctensor.tensor([1], dtype=ctensor.int8), 300) == ctensor.int8
    assert ctensor.result_type(2, 2.5) == ctensor.float32
    assert ctensor.add(a, 1).tolist() == (ta + 1).tolist()
    assert ctensor.maximum(a, b).tolist() == torch.maximum(ta, tb).tolist()
    with pytest.raises(TypeError):
        ctensor.cat([a, 1])
    with pytest.raises(RuntimeError):
        ctensor.cat([a, ctensor.tensor([1.0])])
    with pytest.raises(TypeError):
        a.add("x")
    assert (a == "x") is False


def test_python_number_range():
    c = ctensor.tensor([1, 2])
    with pytest.raises(RuntimeError):
        c + 2 ** 70
    assert (ctensor.tensor([1], dtype=ctensor.uint8) == 257).tolist() == [True]


def test_item_and_scalars():
    c = ctensor.tensor([[2.5]])
    assert c.item() == 2.5 and (c + 1).item() == 3.5
    assert ctensor.tensor(3).sum().item() == 3


def test_numpy_reductions_call_the_tensor_methods():
    """np.sum(t) & co. call t.sum(axis=..., dtype=..., out=None): NumPy's spelling
    is accepted (torch 1.13 refuses it), out= other than None is refused."""
    import numpy as np

    t = ctensor.arange(-3, 3).view(2, 3)
    assert np.sum(t).item() == -3
    assert np.sum(t, axis=1, keepdims=True).tolist() == [[-6], [3]]
    assert np.max(t).item() == 2 and np.min(t).item() == -3
    assert np.max(t, axis=0).tolist() == [0, 1, 2]
    assert np.mean(t.double()).item() == -0.5
    assert np.prod(t + 4, axis=0).tolist() == [4, 10, 18]
    with pytest.raises(TypeError):
        t.sum(out=t)
    with pytest.raises(TypeError):
        t.sum(0, axis=0)
