"""clamp/clip, where, argmax/argmin, cumsum/cumprod and softmax/log_softmax
from Python against PyTorch 1.13: methods, ctensor.* functions, keywords,
number and tensor bounds, in-place clamp_, out= and PyTorch's errors. The C
library's values are tested exhaustively by tests/differential/
test_new_ops_torch.py; these tests check the binding's surface."""
import math
import warnings

import pytest
import torch

import ctensor
from binding_helpers import dtype_name

warnings.filterwarnings("ignore")

VALUES = [[1.5, -0.25, float("nan")], [-2.0, 7.0, 7.0]]


def pair(values, dtype="float32"):
    return ctensor.tensor(values, dtype=getattr(ctensor, dtype)), torch.tensor(values, dtype=getattr(torch, dtype))


def flat(x):
    if isinstance(x, list):
        for y in x:
            yield from flat(y)
    else:
        yield x


def same(c, t, rtol=0.0):
    assert isinstance(c, ctensor.Tensor)
    assert tuple(c.shape) == tuple(t.shape)
    assert dtype_name(c.dtype) == dtype_name(t.dtype)
    for g, w in zip(flat(c.tolist()), flat(t.tolist())):
        if isinstance(w, float) and math.isnan(w):
            assert math.isnan(g)
        else:
            assert g == w or abs(g - w) <= rtol * abs(w), (c.tolist(), t.tolist())


def test_clamp_number_and_tensor_bounds():
    c, t = pair(VALUES)
    same(c.clamp(0, 2), t.clamp(0, 2))
    same(c.clamp(min=0.5), t.clamp(min=0.5))
    same(c.clamp(max=1), t.clamp(max=1))
    same(c.clip(-1, 1), t.clip(-1, 1))
    same(ctensor.clamp(c, 0, 2), torch.clamp(t, 0, 2))
    same(ctensor.clip(c, max=0), torch.clip(t, max=0))
    lo_c, lo_t = pair([0.0, 1.0, 2.0])
    same(c.clamp(lo_c), t.clamp(lo_t))
    same(c.clamp(lo_c, lo_c + 1), t.clamp(lo_t, lo_t + 1))
    i_c, i_t = pair([[1, 5, -3]], "int8")
    same(i_c.clamp(0, 2), i_t.clamp(0, 2))
    same(i_c.clamp(0, 2.5), i_t.clamp(0, 2.5))


def test_clamp_in_place_and_out():
    c, t = pair(VALUES)
    assert c.clamp_(0, 1) is c
    same(c, t.clamp_(0, 1))
    c, t = pair(VALUES)
    out_c, out_t = ctensor.zeros(2, 3), torch.zeros(2, 3)
    assert ctensor.clamp(c, -1, 1, out=out_c) is out_c
    same(out_c, torch.clamp(t, -1, 1, out=out_t))
    # a castable out= dtype is taken (tensor_binary_into's rule; PyTorch 1.13's clamp wants float32 here)
    wide = ctensor.zeros(2, 3, dtype=ctensor.float64)
    same(ctensor.clamp(c, -1, 1, out=wide), torch.clamp(t, -1, 1).double())
    with pytest.raises(RuntimeError):
        ctensor.clamp(c)
    with pytest.raises(RuntimeError):
        ctensor.clamp(ctensor.tensor([1j]), 0, 1)
    with pytest.raises(TypeError):
        c.clamp("a")


def test_where():
    c, t = pair(VALUES)
    cond_c, cond_t = c > 0, t > 0
    same(ctensor.where(cond_c, c, 0.0), torch.where(cond_t, t, 0.0))
    same(ctensor.where(cond_c, c, -c), torch.where(cond_t, t, -t))
    same(c.where(cond_c, -c), t.where(cond_t, -t))
    i_c, i_t = pair([[1, 2, 3]], "int32")
    same(ctensor.where(cond_c, i_c, c), torch.where(cond_t, i_t, t))
    same(ctensor.where(cond_c, 1, 2.5), torch.where(cond_t, 1, 2.5))
    out = ctensor.zeros(2, 3)
    assert ctensor.where(cond_c, c, 0.0, out=out) is out
    same(out, torch.where(cond_t, t, 0.0))
    with pytest.raises(RuntimeError):
        ctensor.where(c, c, c)


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_argmax_argmin(name):
    c, t = pair(VALUES)
    same(getattr(c, name)(), getattr(t, name)())
    for dim in (0, 1, -1):
        for keepdim in (False, True):
            same(getattr(c, name)(dim, keepdim), getattr(t, name)(dim, keepdim))
            same(getattr(ctensor, name)(c, dim=dim, keepdim=keepdim), getattr(torch, name)(t, dim=dim, keepdim=keepdim))
    same(getattr(c, name)(keepdim=True), getattr(t, name)(keepdim=True))
    out = ctensor.zeros(2, dtype=ctensor.int64)
    assert getattr(ctensor, name)(c, 1, out=out) is out
    same(out, getattr(torch, name)(t, 1))
    with pytest.raises(RuntimeError):
        getattr(ctensor, name)(c, 1, out=ctensor.zeros(2, dtype=ctensor.int32))
    with pytest.raises(RuntimeError):
        getattr(ctensor.zeros(0), name)()
    with pytest.raises(RuntimeError):
        getattr(ctensor.tensor([True]), name)()


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_cumsum_cumprod(name):
    for dtype in ("int8", "bool", "float32", "float64", "bfloat16"):
        vals = [[1, 0, 3], [2, 5, 7]] if dtype != "bool" else [[True, False], [True, True]]
        c, t = pair(vals, dtype)
        for dim in (0, 1, -1):
            same(getattr(c, name)(dim), getattr(t, name)(dim), rtol=1e-6)
            same(getattr(ctensor, name)(c, dim), getattr(torch, name)(t, dim), rtol=1e-6)
    c, t = pair([[1, 2], [3, 4]], "int32")
    same(c.cumsum(1, dtype=ctensor.float64), t.cumsum(1, dtype=torch.float64))
    out = ctensor.zeros(2, 2, dtype=ctensor.int64)
    assert getattr(ctensor, name)(c, 0, out=out) is out
    same(out, getattr(torch, name)(t, 0))
    with pytest.raises(RuntimeError):
        c.cumsum(2)


@pytest.mark.parametrize("name", ["softmax", "log_softmax"])
def test_softmax(name):
    c, t = pair([[1.0, 2.0, 3.0], [1000.0, 1000.0, -float("inf")]])
    for dim in (0, 1, -1):
        same(getattr(c, name)(dim), getattr(t, name)(dim), rtol=1e-6)
        same(getattr(ctensor, name)(c, dim), getattr(torch, name)(t, dim), rtol=1e-6)
    same(getattr(c, name)(1, ctensor.float64), getattr(t, name)(1, torch.float64), rtol=1e-12)
    i_c, i_t = pair([[1, 2]], "int64")
    same(getattr(i_c, name)(1, dtype=ctensor.float32), getattr(i_t, name)(1, dtype=torch.float32), rtol=1e-6)
    with pytest.raises(RuntimeError):
        getattr(i_c, name)(1)
    out = ctensor.zeros(2, 3)
    assert getattr(ctensor, name)(c, 1, out=out) is out
    same(out, getattr(torch, name)(t, 1), rtol=1e-6)
