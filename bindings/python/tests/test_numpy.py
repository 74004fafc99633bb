"""from_numpy / Tensor.numpy(): zero-copy both ways, negative strides,
read-only kept, lifetimes linked; __array_interface__."""
import gc
import weakref

import numpy
import pytest
import torch

import ctensor
from binding_helpers import torch_repr

NUMPY_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
                "float16", "float32", "float64", "complex64", "complex128"]


@pytest.mark.parametrize("name", NUMPY_DTYPES)
def test_from_numpy_shares_every_dtype(name):
    a = (numpy.arange(12) % 5).astype(name).reshape(3, 4)
    t = ctensor.from_numpy(a)
    assert t.dtype is getattr(ctensor, name)
    assert t.data_ptr() == a.ctypes.data
    assert t.shape == a.shape and t.stride() == tuple(s // a.itemsize for s in a.strides)
    assert t.tolist() == a.tolist()
    back = t.numpy()
    assert back.dtype == a.dtype and back.ctypes.data == a.ctypes.data and (back == a).all()


@pytest.mark.parametrize("index", [
    (slice(None, None, -1),), (slice(None), slice(None, None, -2)), (slice(1, None, 2), slice(None, None, -1)),
    (slice(None, None, -3), 1),
])
def test_negative_strides_both_ways(index):
    base = numpy.arange(60, dtype=numpy.float32).reshape(6, 10)
    a = base[index]
    t = ctensor.from_numpy(a)
    assert t.data_ptr() == a.ctypes.data
    assert t.stride() == tuple(s // 4 for s in a.strides)
    assert t.tolist() == a.tolist()
    back = t.numpy()
    assert back.strides == a.strides and back.ctypes.data == a.ctypes.data
    t.fill_(-1)
    assert (a == -1).all() and (base == -1).sum() == a.size


def test_positive_strides_match_torch():
    a = numpy.arange(24, dtype=numpy.int32).reshape(2, 3, 4).transpose(2, 0, 1)[1:, :, ::2]
    t, r = ctensor.from_numpy(a), torch.from_numpy(a)
    assert t.shape == tuple(r.shape) and t.stride() == r.stride()
    assert t.storage_offset() == r.storage_offset() and t.data_ptr() == r.data_ptr()
    assert repr(t) == torch_repr(r)


def test_readonly_stays_readonly():
    a = numpy.arange(4.0)
    a.flags.writeable = False
    t = ctensor.from_numpy(a)
    assert t.is_readonly
    with pytest.raises(ValueError, match="read-only"):
        t[0] = 1
    back = t.numpy()
    assert not back.flags.writeable
    with pytest.raises(ValueError):
        back[0] = 1
    w = ctensor.frombuffer(b"\x00" * 8, dtype=ctensor.float32).numpy()
    assert not w.flags.writeable


def test_numpy_array_keeps_tensor_alive():
    t = ctensor.arange(5, dtype=ctensor.float64)
    watch = weakref.ref(t)
    a = t.numpy()
    del t
    gc.collect()
    assert watch() is not None
    assert a.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0]
    del a
    gc.collect()
    assert watch() is None


def test_tensor_keeps_numpy_array_alive():
    a = numpy.arange(5, dtype=numpy.int64)
    watch = weakref.ref(a)
    t = ctensor.from_numpy(a)[1:]
    del a
    gc.collect()
    assert watch() is not None and t.tolist() == [1, 2, 3, 4]
    del t
    gc.collect()
    assert watch() is None


def test_zero_dim_and_empty_arrays():
    z = ctensor.from_numpy(numpy.array(2.5))
    assert z.ndim == 0 and z.item() == 2.5 and z.numpy().shape == ()
    e = ctensor.from_numpy(numpy.zeros((0, 3), numpy.int16))
    assert e.shape == (0, 3) and e.numel() == 0 and repr(e) == "tensor([], size=(0, 3), dtype=ctensor.int16)"
    assert e.numpy().shape == (0, 3)


def test_rejections():
    with pytest.raises(TypeError, match="np.ndarray"):
        ctensor.from_numpy([1, 2])
    with pytest.raises(TypeError):
        ctensor.from_numpy(numpy.array(["a"]))
    with pytest.raises(TypeError):
        ctensor.from_numpy(numpy.zeros(2, numpy.longdouble))
    with pytest.raises(ValueError, match="byte order"):
        ctensor.from_numpy(numpy.zeros(2, ">i4"))
    odd = numpy.lib.stride_tricks.as_strided(numpy.zeros(8, numpy.int32), shape=(3,), strides=(6,))
    with pytest.raises(ValueError, match="multiple"):
        ctensor.from_numpy(odd)
    with pytest.raises(TypeError, match="BFloat16"):
        ctensor.zeros(2, dtype=ctensor.bfloat16).numpy()


def test_array_interface():
    t = ctensor.arange(12, dtype=ctensor.int16).view(3, 4).t()
    iface = t.__array_interface__
    assert iface["shape"] == (4, 3) and iface["typestr"] == "<i2" and iface["strides"] == (2, 8)
    assert iface["data"] == (t.data_ptr(), False) and iface["version"] == 3

    class Holder:  # only the interface: NumPy must go through it
        def __init__(self, t):
            self.__array_interface__ = t.__array_interface__
            self.t = t

    a = numpy.asarray(Holder(t))
    assert a.ctypes.data == t.data_ptr() and a.tolist() == t.tolist()
    ro = ctensor.frombuffer(b"\x00\x00", dtype=ctensor.int16)
    assert ro.__array_interface__["data"][1] is True
