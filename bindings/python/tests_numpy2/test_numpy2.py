"""NumPy 2.x: __array__(dtype=None, copy=None), np.asarray(t, copy=False) that
raises when a copy is needed, DLPack 1.x both ways (versioned capsules,
read-only flags, copy and device requests), and ufuncs giving tensors back."""
import pickle
import warnings

import numpy as np
import pytest

import ctensor


@pytest.fixture(autouse=True)
def warnings_are_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. NumPy 2's DeprecationWarning for an old __array__ signature
        yield


def test_asarray_shares_and_copy_false_allows_sharing():
    t = ctensor.arange(6.0).view(2, 3)
    for a in (np.asarray(t), np.asarray(t, copy=False), np.asarray(t, dtype=np.float32, copy=False),
              t.__array__(), t.__array__(copy=False), t.__array__(np.float32, copy=False)):
        assert a.ctypes.data == t.data_ptr() and a.shape == (2, 3) and a.dtype == np.float32


def test_copy_false_raises_when_a_copy_is_needed():
    t = ctensor.arange(6.0)
    with pytest.raises(ValueError):
        np.asarray(t, dtype=np.float64, copy=False)
    with pytest.raises(ValueError):
        t.__array__(np.float64, copy=False)


def test_copies():
    t = ctensor.arange(6.0)
    for a in (np.array(t), np.array(t, copy=True), t.__array__(copy=True), np.asarray(t, dtype=np.float64),
              t.__array__(np.float64), t.__array__("f8", copy=None)):
        assert a.ctypes.data != t.data_ptr() and a.tolist() == t.tolist()


def test_bfloat16_has_no_numpy_dtype():
    with pytest.raises(TypeError):
        np.asarray(ctensor.ones(2, dtype=ctensor.bfloat16))


class Recorder:
    """Passes __dlpack__ through and records how NumPy called it."""

    def __init__(self, t):
        self.t, self.calls = t, []

    def __dlpack__(self, **kwargs):
        self.calls.append(kwargs)
        return self.t.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


def test_numpy_from_dlpack_takes_a_versioned_capsule_zero_copy():
    t = ctensor.arange(12, dtype=ctensor.int32).view(3, 4)[:, ::-2]  # negative strides: DLPack 1.x only
    rec = Recorder(t)
    a = np.from_dlpack(rec)
    assert tuple(rec.calls[0]["max_version"]) >= (1, 0)
    assert a.ctypes.data == t.data_ptr() and a.tolist() == t.tolist()
    assert a.strides == tuple(s * 4 for s in t.stride())
    t[0, 0] = 100  # (NumPy marks arrays from DLPack read-only, its own included)
    assert a[0, 0] == 100
    assert "dltensor_versioned" in repr(t.__dlpack__(max_version=(1, 0)))


def test_read_only_both_ways():
    ro = ctensor.frombuffer(b"abcd", dtype=ctensor.uint8)
    a = np.from_dlpack(ro)
    assert not a.flags.writeable and a.tolist() == [97, 98, 99, 100]
    arr = np.arange(4.0)
    arr.flags.writeable = False
    t = ctensor.from_dlpack(arr)
    assert t.is_readonly and t.data_ptr() == arr.ctypes.data
    with pytest.raises(ValueError):
        t[0] = 1


def test_copy_and_device_requests():
    t = ctensor.arange(6.0)
    c = np.from_dlpack(t, copy=True)
    assert c.ctypes.data != t.data_ptr() and c.tolist() == t.tolist()
    assert np.from_dlpack(t, copy=False).ctypes.data == t.data_ptr()
    assert np.from_dlpack(t, device="cpu").ctypes.data == t.data_ptr()


def test_ctensor_from_numpy_dlpack_zero_copy():
    arr = np.arange(24.0).reshape(2, 3, 4).transpose(2, 0, 1)[::2]
    t = ctensor.from_dlpack(arr)
    assert t.data_ptr() == arr.ctypes.data and t.tolist() == arr.tolist()
    assert t.stride() == tuple(s // 8 for s in arr.strides)
    for dtype in (np.bool_, np.int8, np.uint16, np.int64, np.float16, np.complex128):
        a = np.ones(3, dtype=dtype)
        assert ctensor.from_dlpack(a).tolist() == a.tolist()


def test_from_numpy_keeps_numpy_strides():
    for a in (np.zeros((2, 0, 3)), np.zeros((3, 4, 5))[2:, 1, 3:], np.zeros((1, 4))):
        assert ctensor.from_numpy(a).stride() == tuple(s // a.itemsize for s in a.strides)


def test_ufuncs_give_tensors_and_reductions_scalars():
    t = ctensor.arange(-3, 3)
    r = np.abs(t)
    assert isinstance(r, ctensor.Tensor) and r.tolist() == [3, 2, 1, 0, 1, 2]
    assert isinstance(np.add(t, 1), ctensor.Tensor)
    assert np.sum(t) == -3


def test_numpy2_arrays_pickle_into_tensors_and_back():
    t = ctensor.from_numpy(np.arange(8.0))
    buffers = []
    u = pickle.loads(pickle.dumps(t, protocol=5, buffer_callback=buffers.append), buffers=buffers)
    assert u.data_ptr() == t.data_ptr()
