"""NumPy through its public interfaces only: from_numpy reads an ndarray through
__array_struct__ (the array interface's C struct) or the buffer protocol, never
through NumPy's own structs; and the fast path of tuples of ints and slices
(t[2, 1:5]) gives what the general indexing path gives."""
import random

import numpy as np
import pytest
import torch

import ctensor


class CountedStruct(np.ndarray):
    """An ndarray subclass that counts reads of its array-struct export."""
    reads = 0

    @property
    def __array_struct__(self):
        type(self).reads += 1
        return np.ndarray.__array_struct__.__get__(self)


def test_from_numpy_reads_the_public_array_struct():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)[:, ::2].view(CountedStruct)
    t = ctensor.from_numpy(a)
    assert CountedStruct.reads == 1
    assert t.tolist() == a.tolist() and t.stride() == (4, 2) and t.data_ptr() == a.ctypes.data
    a[0, 0] = 7  # shared memory, the array kept alive by the tensor
    assert t[0, 0].item() == 7


def test_the_array_struct_decides_what_is_read():
    # What the exporter's public interface says is what the tensor shares.
    other = np.arange(6, dtype=np.int64)

    class Redirected(np.ndarray):
        @property
        def __array_struct__(self):
            return other.__array_struct__

    a = np.zeros(3, np.int64).view(Redirected)
    assert ctensor.from_numpy(a).tolist() == [0, 1, 2, 3, 4, 5]


def test_an_array_struct_that_fails_raises():
    class Broken(np.ndarray):
        @property
        def __array_struct__(self):
            raise RuntimeError("no struct here")

    with pytest.raises(RuntimeError, match="no struct here"):
        ctensor.from_numpy(np.zeros(2).view(Broken))


def test_non_ndarray_exporters_are_accepted_by_asarray():
    # torch.asarray's rule for other buffer exporters: their bytes, as the dtype asked for
    raw = bytearray(np.arange(4, dtype=np.float64).tobytes())
    t = ctensor.asarray(memoryview(raw), dtype=ctensor.float64)
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]
    t[1] = 10.0
    assert np.frombuffer(raw, np.float64)[1] == 10.0
    assert ctensor.asarray(np.float32(2.5)).dtype is ctensor.float32  # a NumPy scalar: its buffer export


def test_fresh_arrays_of_every_dtype_and_flag():
    for dtype in ["?", "b", "B", "h", "H", "i", "I", "q", "Q", "e", "f", "d", "F", "D"]:
        a = (np.arange(24) % 5).astype(dtype).reshape(2, 3, 4)[:, ::-1]
        t, r = ctensor.from_numpy(a), ctensor.from_numpy(a.copy())
        assert t.tolist() == r.tolist() == a.tolist()
        assert t.stride() == tuple(s // a.itemsize for s in a.strides) and not t.is_readonly
        a.flags.writeable = False
        assert ctensor.from_numpy(a).is_readonly


class Tup(tuple):
    """A tuple subclass: the general indexing path, never the fast one."""


def outcome(fn):
    try:
        t = fn()
    except Exception as e:  # noqa: BLE001 - the comparison is the point
        return type(e), str(e)
    return t.shape, t.stride(), t.storage_offset(), t.tolist()


def test_tuples_of_ints_and_slices_match_the_general_path_and_torch():
    rng = random.Random(30)
    c = ctensor.arange(120).reshape(2, 3, 4, 5)
    r = torch.arange(120).reshape(2, 3, 4, 5)

    def item():
        if rng.random() < 0.4:
            return rng.randint(-6, 6)
        return slice(rng.choice([None, -7, -2, 0, 1, 3, 9]), rng.choice([None, -9, -1, 0, 2, 4, 8]),
                     rng.choice([None, 1, 2, 3, -1, -2, 0]))

    for _ in range(400):
        index = tuple(item() for _ in range(rng.randint(0, 5)))
        fast, general = outcome(lambda: c[index]), outcome(lambda: c[Tup(index)])
        assert fast == general, index
        if not isinstance(fast[0], type) and all(not isinstance(i, slice) or (i.step or 1) > 0 for i in index):
            e = r[index]
            assert fast == (e.shape, e.stride(), e.storage_offset(), e.tolist()), index


def test_fast_tuple_index_errors():
    t = ctensor.zeros(2, 3)
    with pytest.raises(IndexError):
        t[2, 0]
    with pytest.raises(IndexError, match="too many indices"):
        t[0, 0, 0]
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        t[0, ::0]
    with pytest.raises((OverflowError, IndexError)):
        t[0, 2**70]


def test_broadcast_tensors_in_python_as_in_c():
    a, b = ctensor.arange(3).reshape(3, 1), ctensor.zeros(4, dtype=ctensor.int64)
    for got in (ctensor.broadcast_tensors(a, b), ctensor.broadcast_tensors([a, b])):
        assert [(t.shape, t.stride()) for t in got] == [((3, 4), (1, 0)), ((3, 4), (0, 1))]
        assert got[0].data_ptr() == a.data_ptr() and got[1].data_ptr() == b.data_ptr()
    assert ctensor.broadcast_tensors() == torch.broadcast_tensors() == ()
    with pytest.raises(TypeError, match=r"expected Tensor as element 1, but got numpy.ndarray"):
        ctensor.broadcast_tensors(a, np.zeros(4))
    with pytest.raises(RuntimeError):
        ctensor.broadcast_tensors(ctensor.zeros(2), ctensor.zeros(3))
    assert ctensor.broadcast_tensors.__module__ == "ctensor"
