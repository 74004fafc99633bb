"""tensor_index against NumPy's basic indexing on random arrays and random index
tuples (integers, slices with any step, None, one Ellipsis): the same sizes,
byte strides and first-element address, and a refusal wherever NumPy refuses."""
import ctypes
import random

import numpy as np
import pytest

from ctensor_ctypes import Tensor, i32, int64_array, lib

INT, SLICE, NEWAXIS, ELLIPSIS, BOOL = 0, 1, 2, 3, 4
INT64_MAX, INT64_MIN = 2**63 - 1, -2**63

_storage_new = lib.tensor_storage_new
_storage_data = lib.tensor_storage_data
_storage_release = lib.tensor_storage_release
_from_storage = lib.tensor_from_storage
_index = lib.tensor_index


def encode(items):
    kinds, values = [], []
    for item in items:
        if item is None:
            kinds.append(NEWAXIS); values += [0, 0, 0]
        elif item is Ellipsis:
            kinds.append(ELLIPSIS); values += [0, 0, 0]
        elif isinstance(item, bool):
            kinds.append(BOOL); values += [int(item), 0, 0]
        elif isinstance(item, int):
            kinds.append(INT); values += [item, 0, 0]
        else:
            step = 1 if item.step is None else item.step
            start = item.start if item.start is not None else (INT64_MAX if step < 0 else 0)
            stop = item.stop if item.stop is not None else (INT64_MIN if step < 0 else INT64_MAX)
            kinds.append(SLICE); values += [start, stop, step]
    return (i32 * max(len(kinds), 1))(*kinds), int64_array(values)


def random_item(rng):
    r = rng.random()
    if r < 0.3:
        return rng.randint(-5, 4)
    if r < 0.75:
        pick = lambda: rng.choice([None, 0, 1, 2, -1, -3, 7, -9])
        return slice(pick(), pick(), rng.choice([None, 1, 2, 3, -1, -2, -4]))
    if r < 0.88:
        return None
    return Ellipsis  # (bools: NumPy merges them as advanced indices; torch's rule is tested in C)


@pytest.mark.parametrize("seed", range(3))
def test_index_matches_numpy(seed):
    rng = random.Random(seed)
    nbytes = 1 << 14
    storage = ctypes.c_void_p()
    assert _storage_new(ctypes.byref(storage), nbytes) == 0
    base_addr = _storage_data(storage)
    base = np.ctypeslib.as_array(ctypes.cast(base_addr, ctypes.POINTER(ctypes.c_uint8)), (nbytes,))
    compared = 0
    for _ in range(1500):
        ndim = rng.randint(0, 4)
        sizes = [rng.randint(0, 5) for _ in range(ndim)]
        strides = [rng.choice([1, 2, 3, 7, -1, -5]) for _ in range(ndim)]
        offset = nbytes // 2
        out = ctypes.c_void_p()
        assert _from_storage(ctypes.byref(out), storage, 0, ndim, int64_array(sizes), int64_array(strides), offset) == 0
        t = Tensor(out.value)
        a = np.lib.stride_tricks.as_strided(base[offset:], sizes, strides) if ndim else base[offset:offset + 1].reshape(())
        items = [random_item(rng) for _ in range(rng.randint(0, 5))]
        if items.count(Ellipsis) > 1:
            items = [x for x in items if x is not Ellipsis] + [Ellipsis]
        kinds, values = encode(items)
        res = ctypes.c_void_p(1)
        status = _index(ctypes.byref(res), t.handle, len(items), kinds, values)
        # a trailing Ellipsis changes nothing but makes NumPy give a 0-dim view, not a scalar
        idx = tuple(items) if Ellipsis in items else tuple(items) + (Ellipsis,)
        try:
            want = a[idx]
        except IndexError:
            assert status != 0, f"{sizes} {strides} {items}: NumPy refuses, ctensor gives a view"
            assert res.value is None
            continue
        assert status == 0, f"{sizes} {strides} {items}: {lib.tensor_last_error()}"
        got = Tensor(res.value)
        what = f"{sizes} {strides} {items}"
        assert got.shape == want.shape, what
        nonunit = [d for d in range(len(want.shape)) if want.shape[d] > 1]
        assert [got.strides[d] for d in nonunit] == [want.strides[d] for d in nonunit], what
        if want.size:
            assert lib.tensor_data(got.handle) == want.ctypes.data, what
        compared += 1
    assert compared > 600  # the rest were refusals, checked above
    _storage_release(storage)
