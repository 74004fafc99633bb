"""The unary family in Python (Tensor.exp(), Tensor.exp_(), ctensor.exp(t, out=))
against PyTorch 1.13: result dtypes, values within torch.testing.assert_close's
defaults, the same refusals, in-place and out= rules."""
import math
import warnings

import pytest
import torch

import ctensor
from binding_helpers import dtype_name

warnings.filterwarnings("ignore")

NAMES = ["neg", "abs", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos",
         "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "relu", "gelu", "erf", "floor", "ceil",
         "round", "trunc", "frac", "sign", "reciprocal", "square", "isnan", "isinf", "isfinite", "logical_not",
         "bitwise_not"]
DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128"]
FLOAT_VALUES = [[0.0, -0.0, 0.5, -2.5, 1.0, 100.0], [float("nan"), float("inf"), -float("inf"), 1e-40, -0.75, 3.0]]


def values(dtype):
    if dtype == "bool":
        return [[True, False, True], [False, False, True]]
    if dtype.startswith("uint"):
        return [[0, 1, 2], [7, 200, 255]]
    if dtype.startswith("int"):
        return [[0, -1, 2], [-7, 100, 127]]
    if dtype.startswith("complex"):
        return [[0j, 1 + 1j, -0.5 + 2j], [3 - 1j, -2.5 + 0j, 0.25j]]
    return FLOAT_VALUES


def torch_fn(name):
    return torch.nn.functional.gelu if name == "gelu" else getattr(torch, name)


def torch_result(name, t):
    """PyTorch's result, or the exception it raises; float16 where PyTorch's CPU
    kernel lacks it: computed in float32, rounded once (as ctensor does)."""
    try:
        if t.dtype == torch.float16:
            r = torch_fn(name)(t.float())
            return (r.half() if r.is_floating_point() else r), None
        return torch_fn(name)(t), None
    except RuntimeError as e:
        return None, e


def as_torch(c):
    if dtype_name(c.dtype) == "bool":  # PyTorch 1.13's DLPack import has no bool
        return torch.tensor(c.tolist(), dtype=torch.bool)
    return torch.from_dlpack(c)


def check_same(c, want):
    assert dtype_name(c.dtype) == dtype_name(want.dtype)
    torch.testing.assert_close(as_torch(c), want, equal_nan=True)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", NAMES)
def test_functions_and_methods(name, dtype):
    data = values(dtype)
    c = ctensor.tensor(data, dtype=getattr(ctensor, dtype))
    t = torch.tensor(data, dtype=getattr(torch, dtype))
    want, error = torch_result(name, t)
    fn = getattr(ctensor, name)
    if error is not None:
        with pytest.raises(RuntimeError):
            fn(c)
        return
    check_same(fn(c), want)
    if name != "gelu":  # torch.nn.functional.gelu only: no Tensor method
        check_same(getattr(c, name)(), want)
        check_same(getattr(c.t(), name)(), torch_fn(name)(t.t()) if dtype != "float16" else want.t())


@pytest.mark.parametrize("name", [n for n in NAMES if n not in ("isnan", "isinf", "isfinite", "gelu")])
def test_in_place(name):
    c = ctensor.tensor(FLOAT_VALUES, dtype=ctensor.float32)
    t = torch.tensor(FLOAT_VALUES, dtype=torch.float32)
    if name == "bitwise_not":
        with pytest.raises(RuntimeError):
            c.bitwise_not_()
        return
    if name == "logical_not":  # a bool result can go into float32
        assert c.logical_not_() is c
        check_same(c, t.logical_not_())
        return
    r = getattr(c, name + "_")()
    assert r is c
    check_same(c, getattr(t, name + "_")())


def test_in_place_refuses_what_torch_refuses():
    c = ctensor.tensor([1, 2, 3], dtype=ctensor.int32)
    with pytest.raises(RuntimeError, match="can't be cast"):
        c.exp_()
    assert c.tolist() == [1, 2, 3]
    assert not hasattr(c, "isnan_") and not hasattr(torch.ones(1), "isnan_")
    assert not hasattr(c, "gelu") and not hasattr(torch.ones(1), "gelu")


def test_out():
    c = ctensor.tensor([[1, 4], [9, 16]], dtype=ctensor.int64)
    out = ctensor.empty(2, 2, dtype=ctensor.float64)
    r = ctensor.sqrt(c, out=out)
    assert r is out
    assert out.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    with pytest.raises(RuntimeError):
        ctensor.sqrt(c, out=ctensor.empty(3, dtype=ctensor.float64))
    with pytest.raises(RuntimeError):
        ctensor.sqrt(c, out=ctensor.empty(2, 2, dtype=ctensor.int64))
    with pytest.raises(TypeError):
        ctensor.sqrt(c, out=[1, 2])
    with pytest.raises(TypeError):
        ctensor.sqrt(2.0)
    # out aliasing part of the input reads a snapshot
    base = ctensor.tensor([1.0, 2.0, 3.0, 4.0])
    ctensor.square(base[:3], out=base[1:])
    assert base.tolist() == [1.0, 1.0, 4.0, 9.0]


def test_large_releases_the_gil_and_matches():
    x = torch.linspace(-20, 20, 1 << 20)
    c = ctensor.from_dlpack(x)
    for name in ["exp", "tanh", "sigmoid", "gelu", "log1p", "floor"]:
        check_same(getattr(ctensor, name)(c), torch_fn(name)(x))
    assert math.isclose(ctensor.exp(c)[-1].item(), math.exp(20), rel_tol=1e-6)
