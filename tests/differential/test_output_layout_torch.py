"""Differential test of the layout of the outputs element-wise ops allocate,
against PyTorch 1.13 (TensorIterator's fast set-up, compute_strides and
reorder_dimensions).

PyTorch has no negative strides; ctensor's rule (ctensor.h, Math) is PyTorch's
applied to the stride magnitudes, so the oracle for an operand with negative
strides is PyTorch on a view with the same sizes and the strides' magnitudes.
Operands are random views: dims allocated in a random order, sliced (strides
times 2 or 3), reversed (negative strides), broadcast (stride 0, size-1 dims,
fewer dims), size-0 and size-1 dims with any stride, 0-dim tensors and wrapped
numbers, of mixed dtypes. Reductions with keepdim (contiguous in PyTorch 1.13)
are checked the same way. Fixed seeds keep every run identical."""
import ctypes

import numpy as np
import pytest
import torch

from ctensor_ctypes import Tensor, check, int64_array, lib
from math_helpers import TORCH, new_ref, scalar

DTYPES = [0, 1, 2, 3, 4, 5, 6, 7, 9, 11, 15]
SIZES = [0, 1, 1, 2, 3, 5]



class Operand:
    """One random operand: a ctensor view (signed strides), the PyTorch view with
    the strides' magnitudes, or a Python number (a wrapped number on both sides)."""

    def __init__(self, shape, rng, allow_number=True):
        self.number = None
        if allow_number and rng.random() < 0.08:
            self.number = [True, 3, -2.5][rng.integers(3)]
            self.ct = scalar(self.number)
            self.torch = self.number
            return
        dtype = DTYPES[rng.integers(len(DTYPES))]
        nd = len(shape)
        perm = list(rng.permutation(nd)) if rng.random() < 0.5 else list(range(nd))
        strides = [0] * nd
        s = 1
        for d in reversed(perm):
            strides[d] = s
            s *= max(shape[d], 1) * (int(rng.integers(2, 4)) if rng.random() < 0.2 else 1)
        for d in range(nd):
            r = rng.random()
            if r < 0.1:
                strides[d] = 0  # expanded
            elif shape[d] <= 1 and r < 0.4:
                strides[d] = int(rng.integers(0, 40))  # any stride on a size-0/1 dim
            if rng.random() < 0.35:
                strides[d] = -strides[d]  # reversed
        offset = sum(-st * (sz - 1) for st, sz in zip(strides, shape) if st < 0 and sz > 0)
        extent = offset + sum(st * (sz - 1) for st, sz in zip(strides, shape) if st > 0 and sz > 0) + 1
        mags = [abs(st) for st in strides]
        base = torch.zeros(sum(m * (sz - 1) for m, sz in zip(mags, shape) if sz > 0) + 1, dtype=TORCH[dtype])
        self.torch = torch.as_strided(base, shape, mags)
        out = ctypes.c_void_p()
        check(lib.tensor_zeros(ctypes.byref(out), 1, int64_array([extent]), dtype))
        ct_base = Tensor(out.value)
        self.ct = new_ref(lib.tensor_as_strided, ct_base.handle, nd, int64_array(shape), int64_array(strides), offset)
        self.desc = (dtype, tuple(shape), tuple(strides))

    def __repr__(self):
        return repr(self.number) if self.number is not None else repr(self.desc)


def operand_shape(shape, rng):
    """A shape that broadcasts to `shape`: a suffix of it with some dims 1."""
    if rng.random() < 0.1:
        return []
    keep = len(shape) - int(rng.integers(0, len(shape) + 1)) if rng.random() < 0.3 else 0
    return [1 if rng.random() < 0.25 else s for s in shape[keep:]]


def random_shape(rng):
    return [SIZES[i] for i in rng.integers(len(SIZES), size=int(rng.integers(0, 5)))]


def torch_binary(op, a, b):
    fn = {"add": torch.add, "mul": torch.mul, "eq": torch.eq, "maximum": torch.maximum}[op]
    # A number as a 0-dim tensor (torch.maximum takes no numbers): 0-dim operands
    # take no part in the layout, wrapped or not.
    a, b = [x if isinstance(x, torch.Tensor) else torch.tensor(x) for x in (a, b)]
    return fn(a, b)


@pytest.mark.parametrize("op", ["add", "mul", "eq", "maximum"])
@pytest.mark.parametrize("seed", range(4))
def test_binary_output_layout(op, seed):
    rng = np.random.default_rng(100 * seed + len(op))
    checked = 0
    for _ in range(250):
        shape = random_shape(rng)
        a = Operand(operand_shape(shape, rng), rng)
        b = Operand(operand_shape(shape, rng), rng, allow_number=a.number is None)
        try:
            want = torch_binary(op, a.torch, b.torch)
        except RuntimeError:
            continue  # refused by PyTorch (complex maximum, ...): the math tests check ctensor refuses too
        res = new_ref(getattr(lib, "tensor_" + op), a.ct.handle, b.ct.handle)
        assert res.shape == tuple(want.shape), (a, b)
        assert res.strides == want.stride(), (op, a, b, res.strides, want.stride())
        checked += 1
    assert checked > 150


@pytest.mark.parametrize("seed", range(3))
def test_unary_output_layout(seed):
    rng = np.random.default_rng(7 + seed)
    for _ in range(200):
        a = Operand(random_shape(rng), rng, allow_number=False)
        if a.torch.dtype == torch.bool:
            continue
        res = new_ref(lib.tensor_neg, a.ct.handle)
        assert res.strides == torch.neg(a.torch).stride(), (a, res.strides)


@pytest.mark.parametrize("seed", range(3))
def test_reduction_keepdim_layout(seed):
    rng = np.random.default_rng(31 + seed)
    for _ in range(150):
        shape = random_shape(rng)
        if not shape:
            continue
        a = Operand(shape, rng, allow_number=False)
        dims = sorted({int(d) for d in rng.integers(len(shape), size=int(rng.integers(1, len(shape) + 1)))})
        res = new_ref(lib.tensor_sum, a.ct.handle, len(dims), int64_array(dims), 1)
        want = torch.sum(a.torch, dims, keepdim=True)
        assert res.shape == tuple(want.shape) and res.strides == want.stride(), (a, dims)


def test_the_issue_examples():
    # sub(a[::-1,::-1,::-1], b[::-1,::-1,::-1]) of shape [33,1,3]: contiguous, not [1,99,33].
    out = ctypes.c_void_p()
    check(lib.tensor_zeros(ctypes.byref(out), 1, int64_array([99]), 6))
    flat = Tensor(out.value)
    rev = new_ref(lib.tensor_as_strided, flat.handle, 3, int64_array([33, 1, 3]), int64_array([-3, -3, -1]), 98)
    res = new_ref(lib.tensor_sub, rev.handle, rev.handle)
    assert res.strides == (3, 3, 1)
    # add(int16[0,4].t(), int8 0-dim): as PyTorch.
    check(lib.tensor_zeros(ctypes.byref(out), 2, int64_array([0, 4]), 2))
    e = Tensor(out.value)
    et = new_ref(lib.tensor_as_strided, e.handle, 2, int64_array([4, 0]), int64_array([1, 4]), 0)
    check(lib.tensor_zeros(ctypes.byref(out), 0, None, 1))
    z = Tensor(out.value)
    want = torch.add(torch.zeros(0, 4, dtype=torch.int16).t(), torch.tensor(0, dtype=torch.int8))
    assert new_ref(lib.tensor_add, et.handle, z.handle).strides == want.stride()
