"""What the package takes from the C API instead of computing itself (issue 27):
each test fails on a binding that keeps its own copy of the rule."""
import itertools

import numpy as np
import pytest
import torch

import ctensor

DTYPES = [ctensor.uint8, ctensor.int8, ctensor.int16, ctensor.int32, ctensor.int64, ctensor.float16,
          ctensor.float32, ctensor.float64, ctensor.complex64, ctensor.complex128, ctensor.bool,
          ctensor.bfloat16, ctensor.uint16, ctensor.uint32, ctensor.uint64]


def test_promote_types_uint64_with_int64_raises_as_addition_does():
    a, b = ctensor.zeros(1, dtype=ctensor.uint64), ctensor.zeros(1, dtype=ctensor.int64)
    with pytest.raises(RuntimeError) as added:
        a + b
    with pytest.raises(RuntimeError) as promoted:
        ctensor.promote_types(ctensor.uint64, ctensor.int64)
    assert "no integer dtype holds both uint64 and int64" in str(added.value)
    assert "no integer dtype holds both uint64 and int64" in str(promoted.value)


@pytest.mark.parametrize("a, b", list(itertools.product(DTYPES, DTYPES)))
def test_promote_types_agrees_with_result_type(a, b):
    x, y = ctensor.zeros(1, dtype=a), ctensor.zeros(1, dtype=b)
    try:
        want = ctensor.result_type(x, y)
    except RuntimeError:
        with pytest.raises(RuntimeError):
            ctensor.promote_types(a, b)
        return
    assert ctensor.promote_types(a, b) == want


def test_tensor_data_promotes_with_the_library_table():
    assert ctensor.tensor([np.uint32(1), np.int32(-1)]).dtype == ctensor.int64
    with pytest.raises(RuntimeError, match="no integer dtype holds both"):
        ctensor.tensor([np.uint64(1), np.int64(-1)])
    assert ctensor.tensor([np.uint64(1), np.int64(-1)], dtype=ctensor.int64).tolist() == [1, -1]


# ---- fill_ with internal overlap (tensor_fill_element) ------------------------------

@pytest.mark.parametrize("value", [7, 2.5, True])
def test_fill_of_an_expanded_tensor_sets_its_one_element(value):
    base = ctensor.zeros(3)
    base[:1].expand(4).fill_(value)
    assert base.tolist() == [float(value), 0.0, 0.0]


def test_fill_of_overlapping_as_strided_sets_every_place():
    base = ctensor.zeros(6, dtype=ctensor.int32)
    view = base.as_strided((3, 3), (1, 1), 1)  # places 1..5, each seen up to 3 times
    view.fill_(9)
    assert base.tolist() == [0, 9, 9, 9, 9, 9]
    assert view.tolist() == [[9] * 3] * 3


def test_fill_of_overlapping_view_refuses_out_of_range_values():
    base = ctensor.zeros(2, dtype=ctensor.uint8)
    with pytest.raises(RuntimeError, match="cannot be converted to type uint8_t without overflow"):
        base[:1].expand(3).fill_(256)
    assert base.tolist() == [0, 0]


# ---- checked scalar conversion (tensor_scalar_convert_*) ----------------------------

@pytest.mark.parametrize("name, value", [
    ("uint8", 255), ("uint8", 256), ("uint8", -1), ("uint8", -256), ("uint8", 3.7), ("int8", -128), ("int8", 128),
    ("int64", 2.5), ("int32", 3e9), ("int32", float("nan")), ("float16", 65504), ("float16", 70000.0),
    ("float16", float("inf")), ("bfloat16", 1e39), ("float32", 1 + 2j), ("float32", 3 + 0j),
    ("complex64", 1 + 2j), ("complex64", 1e39 + 0j), ("bool", 2.5), ("bool", 0.0)])
def test_fill_checks_ranges_as_torch(name, value):
    expected = torch.zeros(2, dtype=getattr(torch, name))
    t = ctensor.zeros(2, dtype=getattr(ctensor, name))
    try:
        expected.fill_(value)
    except RuntimeError as e:
        assert "without overflow" in str(e)
        with pytest.raises(RuntimeError, match="without overflow"):
            t.fill_(value)
        assert t.tolist() == [0, 0]
        return
    t.fill_(value)
    assert t.tolist() == expected.tolist()


def test_fill_of_uint64_beyond_int64_is_exact():
    t = ctensor.zeros(1, dtype=ctensor.uint64)
    t.fill_(1e19)
    assert t.tolist() == [10 ** 19]


# ---- safe_open reads the handle only ----------------------------------------------

def test_safe_open_keys_and_metadata_come_from_the_opened_file(tmp_path):
    path = tmp_path / "m.safetensors"
    ctensor.save_file({"a": ctensor.zeros(2)}, str(path), metadata={"format": "pt", "v": "1"})
    with ctensor.safe_open(str(path), "pt") as f:
        new = tmp_path / "new.safetensors"
        ctensor.save_file({"b": ctensor.ones(3), "c": ctensor.ones(1)}, str(new), metadata={"v": "2"})
        new.replace(path)  # atomically, as writers of model files do
        assert f.keys() == ["a"]
        assert f.metadata() == {"format": "pt", "v": "1"}
        assert f.get_tensor("a").tolist() == [0.0, 0.0]
    with ctensor.safe_open(str(path), "pt") as f:
        assert f.keys() == ["b", "c"] and f.metadata() == {"v": "2"}
