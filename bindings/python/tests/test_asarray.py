"""ctensor.asarray and ctensor.tensor: torch.asarray's share-or-copy rules and
torch's dtype inference."""
import numpy
import pytest
import torch

import ctensor
from binding_helpers import same_as_torch


def test_tensor_is_returned_itself_unless_a_copy_is_needed():
    a = ctensor.tensor([1, 2, 3])
    assert ctensor.asarray(a) is a
    assert ctensor.asarray(a, dtype=ctensor.int64) is a
    assert ctensor.asarray(a, copy=False) is a
    c = ctensor.asarray(a, copy=True)
    assert c.data_ptr() != a.data_ptr() and c.tolist() == [1, 2, 3]
    f = ctensor.asarray(a, dtype=ctensor.float32)
    assert f.dtype is ctensor.float32 and f.tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(ValueError):
        ctensor.asarray(a, dtype=ctensor.float32, copy=False)


def test_numpy_array_is_shared():
    arr = numpy.arange(6, dtype=numpy.int16).reshape(2, 3)
    t = ctensor.asarray(arr)
    assert t.data_ptr() == arr.ctypes.data and t.dtype is ctensor.int16 and t.shape == (2, 3)
    t[0, 0] = 10
    arr[1, 2] = 20
    assert arr[0, 0] == 10 and t[1, 2].item() == 20
    assert ctensor.asarray(arr, copy=False).data_ptr() == arr.ctypes.data
    assert ctensor.asarray(arr, copy=True).data_ptr() != arr.ctypes.data
    with pytest.raises(ValueError):
        ctensor.asarray(arr, dtype=ctensor.float32, copy=False)
    ro = numpy.ones(3)
    ro.flags.writeable = False
    r = ctensor.asarray(ro)
    assert r.is_readonly and r.data_ptr() == ro.ctypes.data


def test_numpy_scalars_are_0dim_copies_in_their_dtype():
    for value, name in [(numpy.float64(0.5), "float64"), (numpy.float32(1.5), "float32"),
                        (numpy.int8(-3), "int8"), (numpy.bool_(True), "bool"), (numpy.complex64(1j), "complex64")]:
        t = ctensor.asarray(value)
        assert t.ndim == 0 and repr(t.dtype) == "ctensor." + name and t.item() == value.item()
        with pytest.raises(ValueError):
            ctensor.asarray(value, copy=False)
    assert ctensor.asarray(numpy.float64(2.5), dtype=ctensor.int32).item() == 2


def test_dlpack_producers_are_shared():
    src = torch.arange(6, dtype=torch.float64).view(2, 3)
    t = ctensor.asarray(src)
    assert t.data_ptr() == src.data_ptr() and t.shape == (2, 3) and t.dtype is ctensor.float64
    src[0, 1] = 42
    assert t[0, 1].item() == 42
    assert ctensor.asarray(src, dtype=ctensor.float32).data_ptr() != src.data_ptr()


def test_buffer_objects_are_read_in_the_requested_dtype_default_float32():
    b = bytearray(8)
    t = ctensor.asarray(b)
    assert t.dtype is ctensor.float32 and t.tolist() == torch.asarray(bytearray(8)).tolist()
    t[0] = 1.0
    assert bytes(b[:4]) == numpy.float32(1.0).tobytes()
    i = ctensor.asarray(b, dtype=ctensor.int8)
    assert i.shape == (8,) and i.data_ptr() == t.data_ptr()
    ro = ctensor.asarray(b"\x01\x00", dtype=ctensor.int16)
    assert ro.tolist() == [1] and ro.is_readonly


@pytest.mark.filterwarnings("ignore:Creating a tensor from a list of numpy.ndarrays")
@pytest.mark.parametrize("data", [
    1, 2.5, True, 1j, -7, [1, 2, 3], [1.5, 2], [True, False], [True, 2], [1, 2.5j], [[1, 2], [3, 4]],
    [], [[]], [[], []], [[[1.0]], [[2.0]]], (1, 2), [numpy.float64(1.5)], [1, numpy.float32(2.5)],
    [numpy.int32(1), 2], [2**62, -1], [0.1, 1e-7], numpy.array([1, 2]), [numpy.array([1, 2]), numpy.array([3, 4])],
])
def test_data_like_torch(data):
    same_as_torch(ctensor.asarray(data), torch.asarray(data))
    same_as_torch(ctensor.tensor(data), torch.tensor(data))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "float16", "float64", "bool", "complex128"])
def test_data_with_dtype_like_torch(dtype):
    data = [[0, 1.75, -2.5], [3, 4, 5]]
    if dtype == "uint8":
        data = [[0, 1.75, 2.5], [3, 4, 5]]  # negative float to uint8 is undefined in torch
    same_as_torch(ctensor.asarray(data, dtype=getattr(ctensor, dtype)),
                  torch.asarray(data, dtype=getattr(torch, dtype)))


def test_sequences_cannot_be_aliased():
    with pytest.raises(ValueError, match="alias"):
        ctensor.asarray([1, 2], copy=False)


@pytest.mark.parametrize("data,exc", [
    ([[1, 2], [3]], ValueError), (["a"], ValueError), ("a", TypeError), (b"a", TypeError), ([1, [2]], TypeError), ([[1], 2], TypeError),
    ([2**64], RuntimeError), ([object()], RuntimeError), (object(), RuntimeError), ([b"a"], TypeError),
])
def test_bad_data_raises_like_torch(data, exc):
    with pytest.raises(exc):
        torch.tensor(data)
    with pytest.raises(exc):
        ctensor.tensor(data)


def test_tensor_always_copies():
    a = ctensor.arange(3)
    b = ctensor.tensor(a)
    assert b.data_ptr() != a.data_ptr() and b.tolist() == [0, 1, 2]
    arr = numpy.arange(3.0)
    c = ctensor.tensor(arr, dtype=ctensor.float32)
    assert c.data_ptr() != arr.ctypes.data and c.tolist() == [0.0, 1.0, 2.0]
    assert ctensor.tensor(numpy.arange(4)[::-2]).tolist() == [3, 1]
    fortran = numpy.asfortranarray(numpy.zeros((2, 3)))  # copies keep the layout, as torch's
    assert ctensor.tensor(fortran).stride() == torch.tensor(fortran).stride() == (1, 2)
    assert ctensor.asarray(fortran, dtype=ctensor.float32).stride() == (1, 2)
    src = torch.arange(3)
    d = ctensor.tensor(src)
    assert d.data_ptr() != src.data_ptr() and d.tolist() == [0, 1, 2]
    e = ctensor.zeros(3)
    e[:] = src  # any DLPack producer works as a value
    assert e.tolist() == [0.0, 1.0, 2.0]


def test_device_and_dtype_arguments():
    assert ctensor.asarray([1], device="cpu").tolist() == [1]
    with pytest.raises(RuntimeError):
        ctensor.asarray([1], device="cuda")
    assert ctensor.tensor([1, 2], dtype=float).dtype is ctensor.float64
    assert ctensor.tensor([1, 2], dtype=int).dtype is ctensor.int64
    with pytest.raises(TypeError):
        ctensor.tensor([1], dtype="float32")
