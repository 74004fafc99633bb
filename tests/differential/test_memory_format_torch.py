"""tensor_empty_like, tensor_zeros_like and tensor_to_with's memory formats against
PyTorch 1.13: the strides of torch.empty_like(x), torch.zeros_like(x), x.clone() and
x.to(dtype) (torch.preserve_format) on random views (permutes, transposes, step
slices, expanded zero strides, unsqueezed size-1 dims, size-0 dims, overlapping
as_strided layouts), and C order for torch.contiguous_format.

PyTorch has no negative strides; for those (negative-step slices made through
tensor_slice) the reference is `preserve_strides` below, c10's rule written out,
which is itself checked against PyTorch on every random view first.

Run: CTENSOR_LIB=build-test/src/libctensor.so /usr/bin/python3 -m pytest tests/differential/test_memory_format_torch.py -q
"""
import ctypes
import random

import numpy as np
import pytest
import torch

from ctensor_ctypes import (COPY_ALWAYS, COPY_IF_NEEDED, CONTIGUOUS_FORMAT, CONVERT_TORCH_X86,
                            PRESERVE_FORMAT, Tensor, check, from_numpy, int64_array, lib)


FLOAT32, FLOAT64, INT16 = 6, 7, 2
BASE = 4096
INT64_MIN, SLICE_END = -(2 ** 63), 2 ** 63 - 1


def preserve_strides(sizes, strides):
    """torch.empty_like's strides: kept when non-overlapping and dense (or empty),
    else dense in the dims' order by stride magnitude (at::infer_dense_strides)."""
    n = len(sizes)
    if 0 in sizes:
        return tuple(strides)
    big = sorted((d for d in range(n) if sizes[d] >= 2), key=lambda d: strides[d])
    expected, dense = 1, True
    for d in big:
        dense &= strides[d] == expected
        expected *= sizes[d]
    if dense:
        return tuple(strides)
    order = list(range(n - 1, -1, -1))  # innermost first

    def outside(a, b):  # 1: a belongs outside b, -1: inside, 0: undecided
        sa, sb = abs(strides[a]), abs(strides[b])
        if sa == 0 or sb == 0:
            return 0
        if sa != sb:
            return -1 if sa < sb else 1
        return 1 if sizes[a] > sizes[b] else 0

    for i in range(1, n):
        moving = i
        for j in range(i - 1, -1, -1):
            c = outside(order[j], order[moving])
            if c < 0:
                break
            if c > 0:
                order[j], order[moving] = order[moving], order[j]
                moving = j
    out, stride = [0] * n, 1
    for d in order:
        out[d] = stride
        stride *= sizes[d] if sizes[d] > 1 else 1
    return tuple(out)


def random_view(rng, base):
    """A random view of the 1-D torch tensor `base`."""
    if rng.random() < 0.15:  # any as_strided layout, overlapping ones included
        ndim = rng.randint(1, 4)
        sizes = [rng.choice([0, 1, 2, 3, 4]) if rng.random() < 0.2 else rng.randint(1, 5) for _ in range(ndim)]
        strides = [rng.choice([0, 1, 1, 2, 3, 5, 7, 12, 20]) for _ in range(ndim)]
        return base.as_strided(sizes, strides, rng.randint(0, 10))
    ndim = rng.randint(0, 5)
    sizes = [rng.choice([0, 1]) if rng.random() < 0.15 else rng.randint(2, 5) for _ in range(ndim)]
    x = base[:int(np.prod(sizes))].view(sizes)
    for _ in range(rng.randint(0, 4)):
        kind = rng.choice(["permute", "transpose", "slice", "expand", "unsqueeze"])
        if x.ndim == 0 and kind != "unsqueeze":
            continue
        if kind == "permute":
            p = list(range(x.ndim))
            rng.shuffle(p)
            x = x.permute(*p)
        elif kind == "transpose":
            x = x.transpose(rng.randrange(x.ndim), rng.randrange(x.ndim))
        elif kind == "slice":
            d = rng.randrange(x.ndim)
            index = [slice(None)] * x.ndim
            index[d] = slice(rng.randint(0, 1), None, rng.choice([1, 2, 3]))
            x = x[tuple(index)]
        elif kind == "expand":
            x = x.expand(*[s if s != 1 or rng.random() < 0.4 else rng.randint(2, 4) for s in x.shape])
        elif x.ndim < 6:
            x = x.unsqueeze(rng.randint(0, x.ndim))
    return x


def ctensor_view(ct_base, sizes, strides, offset):
    out = ctypes.c_void_p()
    check(lib.tensor_as_strided(ctypes.byref(out), ct_base.handle, len(sizes), int64_array(sizes),
                                int64_array(strides), offset))
    return Tensor(out.value)


def made(fn, *args):
    out = ctypes.c_void_p()
    check(fn(ctypes.byref(out), *args))
    return Tensor(out.value)


def values(t):
    return np.array(t.numpy(), copy=True)


def views(seed, n):
    rng = random.Random(seed)
    base = torch.arange(BASE, dtype=torch.float32)
    for _ in range(n):
        yield random_view(rng, base)


@pytest.fixture(scope="module")
def ct_base():
    return from_numpy(np.arange(BASE, dtype=np.float32), FLOAT32)


@pytest.mark.parametrize("seed", range(8))
def test_like_tensors_and_copies_match_torch(seed, ct_base):
    for x in views(seed, 250):
        sizes, strides = tuple(x.shape), x.stride()
        t = ctensor_view(ct_base, sizes, strides, x.storage_offset())
        case = (sizes, strides)
        assert preserve_strides(sizes, strides) == torch.empty_like(x).stride(), case
        assert made(lib.tensor_empty_like, t.handle, FLOAT32, PRESERVE_FORMAT).strides == \
            torch.empty_like(x).stride(), case
        zeros = made(lib.tensor_zeros_like, t.handle, INT16, PRESERVE_FORMAT)
        assert zeros.strides == torch.zeros_like(x, dtype=torch.int16).stride(), case
        assert not values(zeros).any()
        contiguous = made(lib.tensor_empty_like, t.handle, FLOAT64, CONTIGUOUS_FORMAT)
        assert contiguous.strides == torch.empty_like(x, memory_format=torch.contiguous_format).stride(), case
        clone = made(lib.tensor_to_with, t.handle, FLOAT32, COPY_ALWAYS, PRESERVE_FORMAT, CONVERT_TORCH_X86)
        assert clone.strides == x.clone().stride(), case
        assert np.array_equal(values(clone), x.numpy()), case
        wide = made(lib.tensor_to_with, t.handle, FLOAT64, COPY_IF_NEEDED, PRESERVE_FORMAT, CONVERT_TORCH_X86)
        assert wide.strides == x.to(torch.float64).stride(), case
        assert np.array_equal(values(wide), x.to(torch.float64).numpy()), case


def flipped(t, rng):
    """t with a few dims reversed (and maybe stepped) by tensor_slice."""
    for d in range(t.ndim):
        if rng.random() < 0.5:
            t = made(lib.tensor_slice, t.handle, d, SLICE_END, INT64_MIN, rng.choice([-1, -1, -2]))
    return t


@pytest.mark.parametrize("seed", range(4))
def test_negative_strides_follow_their_magnitudes(seed, ct_base):
    rng = random.Random(100 + seed)
    for x in views(200 + seed, 250):
        t = flipped(ctensor_view(ct_base, tuple(x.shape), x.stride(), x.storage_offset()), rng)
        case = (t.shape, t.strides)
        want = preserve_strides(t.shape, t.strides)
        assert made(lib.tensor_empty_like, t.handle, FLOAT32, PRESERVE_FORMAT).strides == want, case
        clone = made(lib.tensor_to_with, t.handle, FLOAT32, COPY_ALWAYS, PRESERVE_FORMAT, CONVERT_TORCH_X86)
        assert clone.strides == want, case
        assert np.array_equal(values(clone), values(t)), case


def test_negative_stride_examples():
    """Hand-checked: magnitudes order the dims; a dense layout with a reversed
    size >= 2 dim is not dense (c10 compares the signed strides)."""
    assert preserve_strides((5,), (-1,)) == (1,)
    assert preserve_strides((3, 4), (4, -1)) == (4, 1)
    assert preserve_strides((4, 3), (-1, 4)) == (1, 4)
    assert preserve_strides((2, 1, 3), (3, -5, 1)) == (3, -5, 1)
