"""ctensor.frombuffer: sharing, read-only exporters, the export held until the
last view is gone, and torch's argument checks (same exception types)."""
import array
import gc
import mmap
import weakref

import numpy
import re

import pytest
import torch

import ctensor


class Exporter(bytearray):
    """A buffer exporter that can be watched with a weakref."""


def test_writable_exporter_shares_both_ways():
    b = bytearray(b"\x01\x02\x03\x04")
    t = ctensor.frombuffer(b, dtype=ctensor.uint8)
    assert t.tolist() == [1, 2, 3, 4] and not t.is_readonly
    t[1] = 20
    b[2] = 30
    assert b == bytearray(b"\x01\x14\x1e\x04") and t.tolist() == [1, 20, 30, 4]
    assert t.data_ptr() == ctensor.frombuffer(b, dtype=ctensor.uint8).data_ptr()


@pytest.mark.parametrize("make", [
    lambda: b"\x00" * 8,
    lambda: memoryview(bytearray(8)).toreadonly(),
    lambda: _readonly_array(),
])
def test_readonly_exporter_gives_readonly_tensor(make):
    buf = make()
    t = ctensor.frombuffer(buf, dtype=ctensor.int16)
    assert t.is_readonly and t.tolist() == [0, 0, 0, 0]
    with pytest.raises(ValueError, match="read-only"):
        t[0] = 1
    with pytest.raises(ValueError):
        t.fill_(2)
    with pytest.raises(ValueError):
        t[1:].copy_(ctensor.ones(3, dtype=ctensor.int16))
    view = t.view(2, 2).t()
    assert view.is_readonly
    with pytest.raises(ValueError):
        view[0, 0] = 5
    assert t.tolist() == [0, 0, 0, 0]
    assert not t.clone().is_readonly  # every copy is writable


def _readonly_array():
    a = numpy.zeros(8, numpy.uint8)
    a.flags.writeable = False
    return a


def test_offset_and_count_as_torch():
    data = bytes(range(16))
    for kwargs in [{}, {"count": 2}, {"offset": 4}, {"offset": 4, "count": 1}, {"count": -5, "offset": 8}]:
        t = ctensor.frombuffer(data, dtype=ctensor.int32, **kwargs)
        expected = torch.frombuffer(bytearray(data), dtype=torch.int32, **kwargs)
        assert t.tolist() == expected.tolist()
    base = ctensor.frombuffer(data, dtype=ctensor.uint8)
    assert ctensor.frombuffer(data, dtype=ctensor.uint8, offset=3).data_ptr() == base.data_ptr() + 3


@pytest.mark.parametrize("kwargs", [
    {"count": 0}, {"offset": -1}, {"offset": 8}, {"count": 3}, {"offset": 1}, {"count": 1, "offset": 6},
])
def test_bad_offset_or_count_raise_like_torch(kwargs):
    with pytest.raises(ValueError) as expected:
        torch.frombuffer(bytearray(8), dtype=torch.int32, **kwargs)
    with pytest.raises(type(expected.value)) as got:
        ctensor.frombuffer(bytearray(8), dtype=ctensor.int32, **kwargs)
    # ctensor's own message, naming the values torch's names
    assert re.findall(r"\d+", str(got.value)) == re.findall(r"\d+", str(expected.value))


def test_other_argument_errors():
    with pytest.raises(ValueError):
        ctensor.frombuffer(bytearray(), dtype=ctensor.int32)
    with pytest.raises(ValueError, match="buffer protocol"):
        ctensor.frombuffer([1, 2], dtype=ctensor.int32)
    with pytest.raises(TypeError, match="dtype"):
        ctensor.frombuffer(b"abcd")
    for strided in (numpy.zeros((4, 4))[:, ::2], memoryview(bytearray(16))[::2]):
        with pytest.raises(RuntimeError):  # not readable as contiguous bytes; torch: RuntimeError too
            torch.frombuffer(strided, dtype=torch.uint8)
        with pytest.raises(RuntimeError, match="contiguous"):
            ctensor.frombuffer(strided, dtype=ctensor.uint8)


def test_numpy_array_and_array_module_exporters():
    a = numpy.arange(4, dtype=numpy.float32)
    t = ctensor.frombuffer(a, dtype=ctensor.float32)
    assert t.data_ptr() == a.ctypes.data
    t[0] = 7
    assert a[0] == 7
    arr = array.array("d", [1.5, 2.5])
    assert ctensor.frombuffer(arr, dtype=ctensor.float64).tolist() == [1.5, 2.5]


def test_exporter_outlives_python_references_until_last_view():
    exporter = Exporter(b"\x05\x00\x00\x00\x06\x00\x00\x00")
    watch = weakref.ref(exporter)
    t = ctensor.frombuffer(exporter, dtype=ctensor.int32)
    view = t[1:]
    del exporter, t
    gc.collect()
    assert watch() is not None  # the held export keeps it
    assert view.tolist() == [6]
    view[0] = 9
    assert watch()[4] == 9
    del view
    gc.collect()
    assert watch() is None  # released with the last view


def test_bytearray_cannot_be_resized_under_a_tensor():
    b = bytearray(8)
    t = ctensor.frombuffer(b, dtype=ctensor.uint8)
    v = t[2:4]
    del t
    with pytest.raises(BufferError):
        b.extend(b"more")
    del v
    b.extend(b"more")  # no export left
    assert len(b) == 12


def test_mmap_cannot_be_closed_under_a_tensor(tmp_path):
    path = tmp_path / "data.bin"
    path.write_bytes(bytes(range(8)))
    with open(path, "r+b") as f:
        m = mmap.mmap(f.fileno(), 0)
    t = ctensor.frombuffer(m, dtype=ctensor.uint8)
    t[0] = 100
    with pytest.raises(BufferError):
        m.close()
    del t
    m.flush()
    m.close()
    assert path.read_bytes()[0] == 100
    with open(path, "rb") as f:
        ro = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    r = ctensor.frombuffer(ro, dtype=ctensor.uint8)
    assert r.is_readonly and r[0].item() == 100
    with pytest.raises(ValueError):
        r[0] = 1
    del r
    ro.close()
