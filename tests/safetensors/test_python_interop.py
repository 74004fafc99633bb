"""ctensor.load_file/save_file/safe_open against the safetensors package's
functions of the same names: each reads what the other writes."""
import numpy as np
import pytest
import safetensors
import safetensors.numpy
import safetensors.torch
import torch

import ctensor

TORCH_DTYPES = [torch.float64, torch.float32, torch.float16, torch.bfloat16, torch.int64, torch.int32,
                torch.int16, torch.int8, torch.uint8, torch.bool]


def torch_sample(dtype, shape, seed):
    g = torch.Generator().manual_seed(seed)
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=g).bool()
    if dtype.is_floating_point:
        return (torch.randn(shape, generator=g) * 10).to(dtype)
    return torch.randint(-100 if dtype != torch.uint8 else 0, 100, shape, generator=g).to(dtype)


def as_torch(t):
    """ctensor -> torch through the bits (bfloat16 has no NumPy dtype)."""
    if t.dtype == ctensor.bfloat16:
        return torch.from_numpy(t.view(ctensor.int16).numpy().copy()).view(torch.bfloat16)
    return torch.from_numpy(t.numpy().copy())


def test_reference_files_load_in_ctensor(tmp_path):
    tensors = {f"{str(d)[6:]}_{i}": torch_sample(d, s, i)
               for i, s in enumerate([(), (0,), (3,), (2, 3, 4)]) for d in TORCH_DTYPES}
    safetensors.torch.save_file(tensors, tmp_path / "ref.safetensors", metadata={"format": "pt"})
    mine = ctensor.load_file(tmp_path / "ref.safetensors")
    theirs = safetensors.torch.load_file(tmp_path / "ref.safetensors")
    assert list(mine) == list(theirs)
    for k in tensors:
        assert torch.equal(as_torch(mine[k]), theirs[k]), k
    with ctensor.safe_open(tmp_path / "ref.safetensors", framework="pt") as f, \
            safetensors.safe_open(tmp_path / "ref.safetensors", framework="pt") as g:
        assert f.keys() == g.keys() and f.metadata() == g.metadata()
        assert torch.equal(as_torch(f.get_tensor("float32_3")), g.get_tensor("float32_3"))


def test_ctensor_files_load_in_the_reference(tmp_path):
    tensors = {f"{str(d)[6:]}_{i}": torch_sample(d, s, i)
               for i, s in enumerate([(), (0, 2), (5,), (3, 2)]) for d in TORCH_DTYPES}
    mine = {}
    for k, v in tensors.items():
        bits = v.view(torch.int16) if v.dtype == torch.bfloat16 else v
        t = ctensor.from_numpy(bits.numpy())
        mine[k] = t.view(ctensor.bfloat16) if v.dtype == torch.bfloat16 else t
    ctensor.save_file(mine, tmp_path / "c.safetensors", metadata={"source": "ctensor"})
    back = safetensors.torch.load_file(tmp_path / "c.safetensors")
    assert back.keys() == tensors.keys()
    for k in tensors:
        assert torch.equal(back[k], tensors[k]), k
    with safetensors.safe_open(tmp_path / "c.safetensors", framework="pt") as g:
        assert g.metadata() == {"source": "ctensor"}


def test_numpy_framework_matches_the_reference(tmp_path):
    arrays = {"a": np.arange(12, dtype=np.float32).reshape(3, 4), "b": np.array([True, False]),
              "c": np.zeros((0,), np.uint16)}
    safetensors.numpy.save_file(arrays, tmp_path / "n.safetensors")
    with ctensor.safe_open(tmp_path / "n.safetensors", framework="numpy") as f, \
            safetensors.safe_open(tmp_path / "n.safetensors", framework="numpy") as g:
        assert f.keys() == g.keys() and f.metadata() == g.metadata() is None
        for k in arrays:
            mine, theirs = f.get_tensor(k), g.get_tensor(k)
            assert isinstance(mine, np.ndarray) and mine.dtype == theirs.dtype
            np.testing.assert_array_equal(mine, theirs)


def test_strided_tensors_save_as_their_values(tmp_path):
    t = ctensor.arange(12).view(3, 4).t()[::2]
    ctensor.save_file({"t": t}, tmp_path / "s.safetensors")
    assert safetensors.torch.load_file(tmp_path / "s.safetensors")["t"].tolist() == t.tolist()
