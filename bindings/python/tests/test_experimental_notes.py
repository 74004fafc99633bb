"""Functions built on ctensor.h's experimental section (CTENSOR_EXPERIMENTAL) say so in
their docstrings; stable ones do not."""
import pytest

import ctensor

NOTE = "Note: experimental: built on ctensor's experimental C API (CTENSOR_EXPERIMENTAL)"

EXPERIMENTAL_METHODS = ["movedim", "moveaxis", "unfold", "split", "chunk", "tensor_split", "diagonal",
                        "unflatten", "conj", "conj_physical"]
EXPERIMENTAL_FUNCTIONS = ["broadcast_tensors", "hsplit", "vsplit", "dsplit", "atleast_1d", "atleast_2d",
                          "atleast_3d", "zeros_like", "ones_like", "empty_like", "full_like"]


@pytest.mark.parametrize("name", EXPERIMENTAL_METHODS)
def test_methods_over_experimental_calls_say_so(name):
    assert NOTE in getattr(ctensor.Tensor, name).__doc__
    if hasattr(ctensor, name):  # the module function forwarding to it
        assert NOTE in getattr(ctensor, name).__doc__


@pytest.mark.parametrize("name", EXPERIMENTAL_FUNCTIONS)
def test_functions_over_experimental_calls_say_so(name):
    assert NOTE in getattr(ctensor, name).__doc__


@pytest.mark.parametrize("name", ["view", "reshape", "transpose", "permute", "narrow", "select"])
def test_stable_ones_do_not(name):
    assert "experimental" not in (getattr(ctensor.Tensor, name).__doc__ or "")
    assert "experimental" not in (getattr(ctensor, name, None).__doc__ or "")
