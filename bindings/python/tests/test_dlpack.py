"""DLPack through capsules: zero-copy exchange with PyTorch 1.13 and NumPy 1.24
both ways, versioned capsules, consumption renames, deleters and lifetimes."""
import ctypes
import gc
import weakref

import numpy
import pytest
import torch
import torch.utils.dlpack

import ctensor

_get_name = ctypes.pythonapi.PyCapsule_GetName
_get_name.restype = ctypes.c_char_p
_get_name.argtypes = [ctypes.py_object]


class Exporter(bytearray):
    """A buffer exporter that can be watched with a weakref."""


def watched_tensor():
    exporter = Exporter(numpy.arange(6, dtype=numpy.float32).tobytes())
    return ctensor.frombuffer(exporter, dtype=ctensor.float32).view(2, 3), weakref.ref(exporter)


def test_device():
    assert ctensor.zeros(2).__dlpack_device__() == (1, 0)


def test_ctensor_to_torch_is_zero_copy_and_keeps_memory_alive():
    t, watch = watched_tensor()
    x = torch.from_dlpack(t)
    assert x.data_ptr() == t.data_ptr() and tuple(x.shape) == (2, 3) and x.stride() == t.stride()
    x[0, 1] = 10
    assert t[0, 1].item() == 10
    del t
    gc.collect()
    assert watch() is not None and x.tolist() == [[0, 10, 2], [3, 4, 5]]
    del x
    gc.collect()
    assert watch() is None


def test_strided_views_to_torch():
    t = ctensor.arange(12, dtype=ctensor.int64).view(3, 4).t()[1:]
    x = torch.utils.dlpack.from_dlpack(t.__dlpack__())
    assert x.data_ptr() == t.data_ptr() and x.stride() == t.stride() and x.tolist() == t.tolist()


def test_torch_to_ctensor_both_ways_of_asking():
    src = torch.arange(6, dtype=torch.float64).view(2, 3).t()
    for c in [ctensor.from_dlpack(src), ctensor.from_dlpack(torch.utils.dlpack.to_dlpack(src))]:
        assert c.data_ptr() == src.data_ptr() and c.stride() == src.stride() and c.tolist() == src.tolist()
        c[0, 0] = -1
        assert src[0, 0].item() == -1
    src_ptr = src.data_ptr()
    c = ctensor.from_dlpack(src)
    del src
    gc.collect()
    assert c.data_ptr() == src_ptr and c[1, 0].item() == 1.0


def test_numpy_both_ways():
    a = numpy.arange(6, dtype=numpy.int32).reshape(2, 3)
    c = ctensor.from_dlpack(a)
    assert c.data_ptr() == a.ctypes.data and c.tolist() == a.tolist()
    t = ctensor.arange(6, dtype=ctensor.int16).view(3, 2)[:, 1]
    b = numpy.from_dlpack(t)
    assert b.ctypes.data == t.data_ptr() and b.tolist() == t.tolist()
    del t
    gc.collect()
    assert b.tolist() == [1, 3, 5]


def test_capsules_are_consumed_once_and_renamed():
    cap = torch.utils.dlpack.to_dlpack(torch.arange(3))
    assert _get_name(cap) == b"dltensor"
    assert ctensor.from_dlpack(cap).tolist() == [0, 1, 2]
    assert _get_name(cap) == b"used_dltensor"
    with pytest.raises(RuntimeError, match="consumed only once"):
        ctensor.from_dlpack(cap)
    own = ctensor.arange(3).__dlpack__()
    assert _get_name(own) == b"dltensor"
    torch.utils.dlpack.from_dlpack(own)
    assert _get_name(own) == b"used_dltensor"


def test_exporter_returning_no_capsule_is_named():
    class NotAnExporter:
        def __dlpack__(self, **kwargs):
            return [1, 2, 3]

    with pytest.raises(TypeError, match=r"NotAnExporter.__dlpack__\(\) returned list, not a DLPack capsule"):
        ctensor.from_dlpack(NotAnExporter())


def test_capsule_of_another_kind_is_named():
    other = ctypes.pythonapi.PyCapsule_New
    other.restype = ctypes.py_object
    other.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    target = ctypes.c_int(0)
    cap = other(ctypes.addressof(target), b"not_dltensor", None)
    with pytest.raises(RuntimeError, match='capsule named "not_dltensor" is not a DLPack capsule'):
        ctensor.from_dlpack(cap)


def test_versioned_capsules():
    t, watch = watched_tensor()
    cap = t.__dlpack__(max_version=(1, 0))
    assert _get_name(cap) == b"dltensor_versioned"
    c = ctensor.from_dlpack(cap)
    assert _get_name(cap) == b"used_dltensor_versioned"
    assert c.data_ptr() == t.data_ptr() and c.tolist() == t.tolist()
    assert _get_name(t.__dlpack__(max_version=(0, 8))) == b"dltensor"
    del t, cap
    gc.collect()
    assert watch() is not None
    del c
    gc.collect()
    assert watch() is None


def test_unconsumed_capsule_runs_the_deleter():
    t, watch = watched_tensor()
    legacy, versioned = t.__dlpack__(), t.__dlpack__(max_version=(1, 0))
    del t
    gc.collect()
    assert watch() is not None
    del legacy
    gc.collect()
    assert watch() is not None
    del versioned
    gc.collect()
    assert watch() is None


def test_readonly_and_negative_strides():
    ro = ctensor.frombuffer(b"\x01\x02", dtype=ctensor.uint8)
    with pytest.raises(BufferError, match="read-only"):
        ro.__dlpack__()
    back = ctensor.from_dlpack(ro.__dlpack__(max_version=(1, 0)))
    assert back.is_readonly and back.data_ptr() == ro.data_ptr()
    with pytest.raises(ValueError):
        back[0] = 3
    copied = ctensor.from_dlpack(ro.__dlpack__(copy=True))
    assert not copied.is_readonly and copied.data_ptr() != ro.data_ptr()
    rev = ctensor.arange(4)[::-1]
    with pytest.raises(BufferError, match="negative"):
        rev.__dlpack__()
    same = ctensor.from_dlpack(rev.__dlpack__(max_version=(1, 0)))
    assert same.stride() == (-1,) and same.data_ptr() == rev.data_ptr() and same.tolist() == [3, 2, 1, 0]


def test_export_arguments():
    t = ctensor.arange(3)
    assert ctensor.from_dlpack(t.__dlpack__(dl_device=(1, 0))).data_ptr() == t.data_ptr()
    with pytest.raises(BufferError):
        t.__dlpack__(dl_device=(2, 0))
    assert ctensor.from_dlpack(t.__dlpack__(stream=None)).tolist() == [0, 1, 2]
    assert ctensor.from_dlpack(t.__dlpack__(copy=True)).data_ptr() != t.data_ptr()
    with pytest.raises(RuntimeError):  # as torch.from_dlpack([1, 2])
        ctensor.from_dlpack([1, 2])
    with pytest.raises(RuntimeError):
        torch.from_dlpack([1, 2])
    assert ctensor.asarray(torch.utils.dlpack.to_dlpack(torch.ones(2))).tolist() == [1.0, 1.0]


class _DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                ("ndim", ctypes.c_int32), ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class _Versioned(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64), ("dl_tensor", _DLTensor)]


@pytest.mark.parametrize("device_type,device_id,name", [(2, 0, "cuda:0"), (10, 1, "hip:1"), (12, 0, "dlpack12:0")])
@pytest.mark.parametrize("code,bits,suffix", [(2, 32, ""), (0, 8, ", dtype=ctensor.int8")])
def test_memory_on_another_device_is_never_touched(device_type, device_id, name, code, bits, suffix):
    shape = (ctypes.c_int64 * 2)(2, 3)
    managed = _Versioned(1, 0, None, None, 0,
                         _DLTensor(0x10000, device_type, device_id, 2, code, bits, 1, shape, None, 0))
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
    t = ctensor.from_dlpack(new_capsule(ctypes.addressof(managed), b"dltensor_versioned", None))
    assert t.__dlpack_device__() == (device_type, device_id) and str(t.device) == name
    assert (t.device.type, t.device.index) == (name.split(":")[0], device_id)
    assert t.shape == (2, 3) and t.stride() == (3, 1)
    v = t.t()[1:]  # metadata-only operations work
    assert v.shape == (2, 2) and v.__dlpack_device__() == (device_type, device_id)
    assert repr(t) == f"tensor(..., device='{name}', size=(2, 3){suffix})"
    assert repr(v[0]) == f"tensor(..., device='{name}', size=(2,){suffix})"
    for access in (t.tolist, lambda: t[0, 0].item(), lambda: t.fill_(1.0), t.clone, lambda: t == 1):
        with pytest.raises(RuntimeError):
            access()
    with pytest.raises(BufferError):
        memoryview(t)
    with pytest.raises(TypeError):
        t.numpy()
    with pytest.raises(BufferError):
        t.__dlpack__(dl_device=(1, 0))
    del t, v


def test_utils_dlpack_like_torchs():
    import ctensor.utils.dlpack as cdl
    cap = ctensor.utils.dlpack.to_dlpack(ctensor.arange(3))
    assert type(cap).__name__ == "PyCapsule" and cdl.from_dlpack(cap).tolist() == [0, 1, 2]
    dev = ctensor.arange(3).__dlpack_device__()
    assert repr(dev) == repr(torch.arange(3).__dlpack_device__()) and dev == (1, 0)
    assert repr(cdl.DLDeviceType.kDLCPU) == repr(torch.utils.dlpack.DLDeviceType.kDLCPU)
