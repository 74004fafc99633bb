"""ctensor._capi, the package's ctypes layer over the libctensor the extension is
linked against: handles to Tensor objects and back, and check() raising what the
extension raises for the same status (errors.c's one mapping)."""
import ctypes
import gc

import pytest

import ctensor
from ctensor import _C, _capi

lib = _capi.lib


def test_the_library_is_the_extensions():
    t = ctensor.arange(6).view(2, 3)[:, 1:]
    assert lib.tensor_ndim(t._handle) == 2
    assert tuple(lib.tensor_sizes(t._handle)[i] for i in range(2)) == tuple(t.shape)
    assert tuple(lib.tensor_strides(t._handle)[i] for i in range(2)) == t.stride()
    assert lib.tensor_data(t._handle) == t.data_ptr()


def test_from_handle_takes_over_one_reference():
    t = ctensor.arange(4.0)
    alias = _C._from_handle(lib.tensor_retain(t._handle))
    assert alias._handle == t._handle and alias.data_ptr() == t.data_ptr()
    del alias
    gc.collect()
    assert t.tolist() == [0.0, 1.0, 2.0, 3.0]  # the alias released only its own reference
    made = _capi.tensor(lib.tensor_clone, t._handle)
    assert made.tolist() == t.tolist() and made.data_ptr() != t.data_ptr()
    with pytest.raises(ValueError, match="NULL"):
        _C._from_handle(0)


@pytest.mark.parametrize("status, exc", [(1, RuntimeError), (3, IndexError), (8, ValueError), (12, OSError),
                                         (14, NotImplementedError)])
def test_check_raises_as_the_extension(status, exc):
    lib.tensor_clone(None, None)  # leaves a message in this thread's last error
    message = lib.tensor_last_error().decode()
    with pytest.raises(exc) as raised:
        _capi.check(status)
    assert str(raised.value) == message
    _capi.check(0)


def test_check_matches_the_c_paths():
    """The same failure raised by C (a method) and by Python (check) is alike."""
    t = ctensor.zeros(2, 3)
    with pytest.raises(RuntimeError) as from_c:
        t.view(4)
    sizes = (ctypes.c_int64 * 1)(4)
    out = ctypes.c_void_p()
    view = ctypes.CDLL(_C.__file__).tensor_view  # a handle of its own: _capi's prototypes stay as they are
    view.restype, view.argtypes = ctypes.c_int32, [ctypes.POINTER(ctypes.c_void_p), ctypes.c_void_p, ctypes.c_int64,
                                                    ctypes.POINTER(ctypes.c_int64)]
    with pytest.raises(RuntimeError) as from_python:
        _capi.check(view(ctypes.byref(out), t._handle, 1, sizes))
    assert str(from_python.value) == str(from_c.value)


def test_dtype_tables_name_every_dtype():
    assert _capi.DTYPES[_capi.CODES[ctensor.float32]] is ctensor.float32
    assert set(_capi.DTYPES.values()) >= {ctensor.bool, ctensor.uint8, ctensor.int64, ctensor.bfloat16,
                                          ctensor.complex128}
