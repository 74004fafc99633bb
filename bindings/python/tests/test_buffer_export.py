"""Tensors as PEP 3118 exporters: memoryview, NumPy and bytes see any strided
tensor zero-copy; read-only is kept; the export keeps the tensor alive."""
import gc
import hashlib
import weakref

import numpy
import pytest

import torch

import ctensor

# NumPy's own codes: int64 is 'l' on LP64 (so arrays made from tensors are NumPy's default int
# type and print without "dtype=int64")
FORMATS = {"uint8": "B", "int8": "b", "int16": "h", "int32": "i", "int64": "l", "float16": "e", "float32": "f",
           "float64": "d", "complex64": "Zf", "complex128": "Zd", "bool": "?", "uint16": "H", "uint32": "I",
           "uint64": "L"}


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_formats_and_numpy_round_trip(name):
    t = ctensor.arange(6).to(getattr(ctensor, name)).view(2, 3)
    m = memoryview(t)
    assert m.format == FORMATS[name] and m.itemsize == t.element_size()
    assert m.shape == (2, 3) and m.strides == (3 * t.element_size(), t.element_size())
    a = numpy.asarray(m)
    assert a.ctypes.data == t.data_ptr() and a.tolist() == t.tolist()
    assert a.dtype.char == numpy.zeros(1, dtype=name).dtype.char and repr(t.numpy()) == repr(a)


def test_int64_arrays_print_as_numpys():
    assert repr(ctensor.arange(3).numpy()) == repr(torch.arange(3).numpy()) == "array([0, 1, 2])"
    assert repr(numpy.asarray(ctensor.arange(3))) == "array([0, 1, 2])"


def test_strided_and_reversed_exports():
    t = ctensor.arange(12, dtype=ctensor.int32).view(3, 4)
    for view in [t.t(), t[:, ::2], t[::-1], t[::-2, ::-3], t[1], t.expand(2, 3, 4), t[0, 0]]:
        m = memoryview(view)
        assert m.tolist() == view.tolist()
        assert m.strides == tuple(s * 4 for s in view.stride())
        assert numpy.asarray(view).ctypes.data == view.data_ptr()
        if view.numel() > 1:  # bytes(one-element int tensor) is bytes(int), as for torch
            assert bytes(view) == numpy.asarray(view.tolist(), numpy.int32).tobytes()
    assert not memoryview(t.t()).c_contiguous and memoryview(t).c_contiguous
    assert memoryview(t.t()).f_contiguous


def test_writes_through_a_memoryview():
    t = ctensor.zeros(2, 3, dtype=ctensor.int16)
    m = memoryview(t.t())
    m[2, 1] = 7
    assert t[1, 2].item() == 7


def test_readonly_tensor_exports_readonly():
    t = ctensor.frombuffer(b"\x01\x00\x02\x00", dtype=ctensor.int16)
    m = memoryview(t)
    assert m.readonly and m.tolist() == [1, 2]
    with pytest.raises(TypeError):
        m[0] = 5
    with pytest.raises(ValueError):
        numpy.asarray(t)[0] = 5


def test_consumers_that_need_contiguous_bytes_are_refused_strided_tensors():
    t = ctensor.arange(6, dtype=ctensor.uint8).view(2, 3).t()
    with pytest.raises(RuntimeError, match="C-contiguous"):  # frombuffer reports it as torch does
        ctensor.frombuffer(t, dtype=ctensor.uint8)
    with pytest.raises(BufferError):  # PyBUF_SIMPLE consumers get C order or nothing
        hashlib.sha256(t)
    assert hashlib.sha256(t.contiguous().view(-1)).digest() == hashlib.sha256(bytes(t)).digest()
    shared = ctensor.frombuffer(t.contiguous(), dtype=ctensor.uint8)
    assert shared.tolist() == [0, 3, 1, 4, 2, 5]


def test_frombuffer_of_a_tensor_shares_it():
    t = ctensor.zeros(4, dtype=ctensor.float32)
    b = ctensor.frombuffer(t, dtype=ctensor.uint8)
    assert b.data_ptr() == t.data_ptr() and b.numel() == 16
    b[0:4] = ctensor.tensor([0, 0, 128, 63], dtype=ctensor.uint8)  # 1.0f little-endian
    assert t[0].item() == 1.0


def test_bfloat16_has_no_format():
    t = ctensor.ones(2, dtype=ctensor.bfloat16)
    with pytest.raises(BufferError, match="bfloat16"):
        memoryview(t)
    assert memoryview(t.view(ctensor.int16)).tolist() == [16256, 16256]


def test_export_keeps_the_tensor_alive():
    t = ctensor.arange(4, dtype=ctensor.float64)
    watch = weakref.ref(t)
    m = memoryview(t)
    del t
    gc.collect()
    assert watch() is not None and m.tolist() == [0.0, 1.0, 2.0, 3.0]
    m.release()
    gc.collect()
    assert watch() is None
