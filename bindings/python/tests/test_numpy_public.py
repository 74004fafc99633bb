"""NumPy through its public interfaces only: from_numpy reads a plain ndarray
through the inline accessors of NumPy's public C API headers (PyArray_DATA,
PyArray_DIMS, PyArray_STRIDES, PyArray_FLAGS, PyArray_DESCR: what
torch.from_numpy reads too, not the Python-level __array_struct__ or
__array_interface__) and everything else through the buffer protocol, never
through a struct of its own; the extension imports and works without NumPy;
and the fast path of tuples of ints and slices (t[2, 1:5]) gives what the
general indexing path gives."""
import os
import random
import re
import subprocess
import sys

import numpy as np
import pytest
import torch

import ctensor

NUMPY_C = os.path.join(os.path.dirname(__file__), "..", "src", "numpy.c")


def test_numpy_c_uses_numpys_public_header_and_no_struct_of_its_own():
    with open(NUMPY_C) as f:
        source = f.read()
    assert "#include <numpy/ndarraytypes.h>" in source
    assert "PyObject_HEAD" not in source and not re.search(r"\btypedef struct\b", source)
    for accessor in ("PyArray_DATA", "PyArray_DIMS", "PyArray_STRIDES", "PyArray_FLAGS", "PyArray_DESCR"):
        assert accessor + "(" in source


class Overrides(np.ndarray):
    """An ndarray subclass whose Python-level array protocols lie and count reads."""
    reads = 0
    other = np.arange(6, dtype=np.float32)

    @property
    def __array_struct__(self):
        type(self).reads += 1
        return self.other.__array_struct__

    @property
    def __array_interface__(self):
        type(self).reads += 1
        raise RuntimeError("not read")


def test_from_numpy_reads_the_array_itself_as_torch_does():
    base = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = base[:, ::2].view(Overrides)
    t, r = ctensor.from_numpy(a), torch.from_numpy(a)
    assert Overrides.reads == 0
    assert t.tolist() == r.tolist() == base[:, ::2].tolist()
    assert t.stride() == r.stride() == (4, 2) and t.data_ptr() == r.data_ptr() == a.ctypes.data
    direct_read = ctensor._C._numpy_direct_read
    assert direct_read() is True
    try:  # the buffer protocol reads the same array
        direct_read(False)
        b = ctensor.from_numpy(a)
    finally:
        direct_read(True)
    assert (b.tolist(), b.stride(), b.data_ptr()) == (t.tolist(), t.stride(), t.data_ptr())
    a[0, 0] = 7  # shared memory, the array kept alive by the tensor
    del a, base
    assert t[0, 0].item() == 7


def test_the_extension_imports_and_works_without_numpy():
    # python -S: no site-packages, so no NumPy; ctensor from where this run imports it
    where = os.path.dirname(os.path.dirname(os.path.abspath(ctensor.__file__)))
    code = (f"import sys; sys.path.insert(0, {where!r}); import ctensor\n"
            "t = ctensor.asarray([[1, 2], [3, 4]]).t()\n"
            "try:\n    ctensor.from_numpy(memoryview(b'ab'))\nexcept TypeError as e:\n    err = str(e)\n"
            "print(t.tolist(), ctensor._C._numpy_direct_read(), 'numpy' in sys.modules, err)")
    out = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[[1, 3], [2, 4]] False False expected np.ndarray (got memoryview)"


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
