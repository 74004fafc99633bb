"""The Arrow PyCapsule interface without any Arrow library: a tensor is its own
producer, so ctensor.from_arrow(t) goes through the capsules and the C importer.
(bindings/python/tests_arrow tests pyarrow, polars, DuckDB and nanoarrow.)"""
import ctypes

import pytest

import ctensor

DTYPES = [ctensor.uint8, ctensor.int8, ctensor.int16, ctensor.int32, ctensor.int64, ctensor.float16, ctensor.float32,
          ctensor.float64, ctensor.complex64, ctensor.complex128, ctensor.bool, ctensor.bfloat16, ctensor.uint16,
          ctensor.uint32, ctensor.uint64]


def capsule_name(capsule):
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype = ctypes.c_char_p
    get_name.argtypes = [ctypes.py_object]
    return get_name(capsule).decode()


@pytest.mark.parametrize("dtype", DTYPES)
def test_roundtrip_every_dtype(dtype):
    base = ctensor.tensor([i % 7 for i in range(24)]).reshape(2, 3, 4).to(dtype)
    for t in (base, base.transpose(1, 2), base[1:], base[:, :, ::2], base[0, 0]):
        back = ctensor.from_arrow(t)
        assert back.dtype == t.dtype
        assert back.shape == t.shape
        assert back.tolist() == t.tolist()
        if dtype != ctensor.bool and t.is_contiguous():
            assert back.data_ptr() == t.data_ptr()


def test_capsules():
    t = ctensor.zeros(2, 3)
    assert capsule_name(t.__arrow_c_schema__()) == "arrow_schema"
    schema, array = t.__arrow_c_array__()
    assert (capsule_name(schema), capsule_name(array)) == ("arrow_schema", "arrow_array")
    schema, array = t.__arrow_c_device_array__(requested_schema=None)
    assert capsule_name(array) == "arrow_device_array"
    assert ctensor.from_arrow(_Producer(schema, array)).tolist() == t.tolist()
    with pytest.raises(NotImplementedError):
        t.__arrow_c_device_array__(stream=3)
    with pytest.raises(TypeError):
        t.__arrow_c_array__(requested_schema=5)


class _Producer:
    def __init__(self, schema, array):
        self.capsules = (schema, array)

    def __arrow_c_device_array__(self, requested_schema=None, **kwargs):
        return self.capsules


def test_import_keeps_memory_and_is_readonly():
    t = ctensor.arange(6.0).reshape(3, 2)
    back = ctensor.from_arrow(t)
    del t
    row = back[2]
    del back
    assert row.tolist() == [4.0, 5.0]
    with pytest.raises(ValueError):
        row.fill_(1.0)


def test_refusals():
    with pytest.raises(RuntimeError, match="0-dim"):
        ctensor.tensor(3.0).__arrow_c_array__()
    with pytest.raises(TypeError, match="no Arrow PyCapsule interface"):
        ctensor.from_arrow([1, 2, 3])
    t = ctensor.zeros(2, 3)
    with pytest.raises(ValueError, match="variable_shape_tensor"):
        ctensor.from_arrow_variable_shape(t)
