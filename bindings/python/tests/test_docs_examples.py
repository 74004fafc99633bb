"""The examples of PyTorch's documentation for frombuffer and asarray, with
ctensor in place of torch (the autograd ones are left out: no autograd)."""
import array

import numpy
import pytest

import ctensor


def test_frombuffer_int32_example():
    a = array.array('i', [1, 2, 3])
    t = ctensor.frombuffer(a, dtype=ctensor.int32)
    assert repr(t) == "tensor([1, 2, 3], dtype=ctensor.int32)"  # torch's docs elide the dtype
    t[0] = -1
    assert a == array.array('i', [-1, 2, 3])


def test_frombuffer_reinterprets_bytes_example():
    a = array.array('b', [-1, 0, 0, 0])
    assert repr(ctensor.frombuffer(a, dtype=ctensor.int32)) == "tensor([255], dtype=ctensor.int32)"


def test_asarray_shares_tensor_example():
    a = ctensor.tensor([1, 2, 3])
    b = ctensor.asarray(a)
    assert a.data_ptr() == b.data_ptr()
    c = ctensor.asarray(a, copy=True)
    assert a.data_ptr() != c.data_ptr()


def test_asarray_numpy_example():
    arr = numpy.array([1, 2, 3])
    t1 = ctensor.asarray(arr)
    assert arr.__array_interface__['data'][0] == t1.data_ptr()
    t2 = ctensor.asarray(arr, dtype=ctensor.float32)
    assert arr.__array_interface__['data'][0] != t2.data_ptr()


def test_asarray_numpy_scalar_example():
    assert repr(ctensor.asarray(numpy.float64(0.5))) == "tensor(0.5000, dtype=ctensor.float64)"


def test_requires_grad_is_a_clear_error():
    with pytest.raises(NotImplementedError, match="autograd"):
        ctensor.asarray([1.0], requires_grad=True)
    with pytest.raises(NotImplementedError, match="autograd"):
        ctensor.frombuffer(bytearray(4), dtype=ctensor.float32, requires_grad=True)
