"""tensor_safetensors_* against the reference `safetensors` package: files it
writes open in ctensor with its names, order, metadata and values; files ctensor
writes are byte for byte what it writes and load back through it; files it
refuses, ctensor refuses too."""
import ctypes
import json
import struct

import numpy as np
import pytest
import safetensors
import safetensors.numpy
import safetensors.torch
import torch

from ctensor_ctypes import NUMPY_DTYPES, STATUS, CtensorError, P, PP, Tensor, check, from_numpy, i32, lib

c_str = ctypes.c_char_p

CODE = {np.dtype(v): k for k, v in NUMPY_DTYPES.items() if v is not None}
BF16 = 15
# The dtypes safetensors.numpy handles.
DTYPES = [np.dtype(d) for d in (np.float64, np.float32, np.float16, np.int64, np.uint64, np.int32,
                                np.uint32, np.int16, np.uint16, np.int8, np.uint8, np.bool_)]
SHAPES = [(), (0,), (3,), (2, 3, 4), (1, 0, 5)]


class File:
    def __init__(self, path, flags=0):
        handle = ctypes.c_void_p()
        check(lib.tensor_safetensors_open(ctypes.byref(handle), str(path).encode(), flags))
        self.handle = handle

    def close(self):
        lib.tensor_safetensors_release(self.handle)

    def names(self):
        return [lib.tensor_safetensors_name(self.handle, i).decode()
                for i in range(lib.tensor_safetensors_count(self.handle))]

    def get(self, name):
        out = ctypes.c_void_p()
        check(lib.tensor_safetensors_get(ctypes.byref(out), self.handle, name.encode()))
        return Tensor(out.value)

    def metadata(self, key):
        value = lib.tensor_safetensors_metadata(self.handle, key.encode())
        return None if value is None else value.decode()


def save(path, tensors, metadata=None):
    names = list(tensors)
    metadata = metadata or {}
    keys, values = list(metadata), list(metadata.values())
    check(lib.tensor_safetensors_save(
        str(path).encode(), len(names), (c_str * max(len(names), 1))(*[n.encode() for n in names]),
        (P * max(len(names), 1))(*[tensors[n].handle for n in names]), len(keys),
        (c_str * max(len(keys), 1))(*[k.encode() for k in keys]),
        (c_str * max(len(keys), 1))(*[v.encode() for v in values])))


def status_of(fn):
    try:
        fn()
    except CtensorError as e:
        return e.status
    return 0


def sample(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(np.bool_).reshape(shape)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True).reshape(shape)
    return (rng.standard_normal(n) * 50).astype(dtype).reshape(shape)


def as_numpy(t):
    """A NumPy view of a tensor with non-negative strides on a storage of mixed dtypes."""
    dt = np.dtype(NUMPY_DTYPES[t.dtype])
    if 0 in t.shape:
        return np.zeros(t.shape, dt)
    extent = 1 + sum((n - 1) * s for n, s in zip(t.shape, t.strides))
    flat = np.frombuffer((ctypes.c_uint8 * (extent * dt.itemsize)).from_address(t.data_ptr), dt)
    return np.lib.stride_tricks.as_strided(flat, t.shape, tuple(s * dt.itemsize for s in t.strides))


def header_of(path):
    raw = path.read_bytes()
    n = struct.unpack("<Q", raw[:8])[0]
    return json.loads(raw[8:8 + n], object_pairs_hook=list)


def test_reference_files_open_with_names_order_metadata_and_values(tmp_path):
    arrays = {f"{d.name}_{i}": sample(d, s, i) for i, s in enumerate(SHAPES) for d in DTYPES}
    safetensors.numpy.save_file(arrays, tmp_path / "ref.safetensors", metadata={"format": "np", "x": "é"})
    in_file_order = [k for k, _ in header_of(tmp_path / "ref.safetensors") if k != "__metadata__"]
    for flags in (0, 1, 2):
        f = File(tmp_path / "ref.safetensors", flags)
        assert f.names() == in_file_order
        assert f.metadata("format") == "np" and f.metadata("x") == "é" and f.metadata("y") is None
        views = {name: f.get(name) for name in arrays}
        f.close()  # tensors outlive the handle
        storages = {lib.tensor_storage(t.handle) for t in views.values()}
        assert len(storages) == 1  # one mapped (or read) data storage for all
        for name, array in arrays.items():
            t = views[name]
            assert t.dtype == CODE[array.dtype] and t.shape == array.shape
            if array.size:
                assert t.data_ptr % array.dtype.itemsize == 0
            np.testing.assert_array_equal(as_numpy(t), array)


def test_reference_bfloat16_and_torch_files(tmp_path):
    tensors = {"w": torch.randn(4, 5).to(torch.bfloat16), "b": torch.arange(7, dtype=torch.int64),
               "h": torch.randn(3).half()}
    safetensors.torch.save_file(tensors, tmp_path / "pt.safetensors", metadata={"format": "pt"})
    f = File(tmp_path / "pt.safetensors")
    w = f.get("w")
    assert w.dtype == BF16 and w.shape == (4, 5)
    bits = np.ctypeslib.as_array((ctypes.c_uint16 * 20).from_address(w.data_ptr))
    assert bits.tolist() == tensors["w"].view(torch.int16).flatten().numpy().astype(np.uint16).tolist()
    np.testing.assert_array_equal(as_numpy(f.get("b")), tensors["b"].numpy())
    np.testing.assert_array_equal(as_numpy(f.get("h")), tensors["h"].numpy())
    f.close()


@pytest.mark.parametrize("metadata", [None, {"format": "pt"}])
def test_saved_files_are_the_references_bytes(tmp_path, metadata):
    arrays = {"z": sample(np.dtype(np.int8), (3,), 1), "a": sample(np.dtype(np.float32), (2, 2), 2),
              "m": sample(np.dtype(np.float64), (5,), 3), "e": np.zeros((0, 4), np.int16),
              "s": sample(np.dtype(np.uint16), (), 4), "b": sample(np.dtype(np.bool_), (7,), 5)}
    save(tmp_path / "c.safetensors", {k: from_numpy(v, CODE[v.dtype]) for k, v in arrays.items()}, metadata)
    assert (tmp_path / "c.safetensors").read_bytes() == safetensors.numpy.save(arrays, metadata=metadata)
    back = safetensors.numpy.load_file(tmp_path / "c.safetensors")
    assert back.keys() == arrays.keys()
    for k in arrays:
        np.testing.assert_array_equal(back[k], arrays[k])
    with safetensors.safe_open(tmp_path / "c.safetensors", framework="numpy") as f:
        assert f.metadata() == metadata


def test_saved_bfloat16_loads_in_torch(tmp_path):
    ref = torch.randn(3, 4).to(torch.bfloat16)
    t = from_numpy(ref.view(torch.int16).numpy(), CODE[np.dtype(np.int16)])
    view = ctypes.c_void_p()
    lib.tensor_view_dtype.restype = i32
    lib.tensor_view_dtype.argtypes = [PP, P, i32]
    check(lib.tensor_view_dtype(ctypes.byref(view), t.handle, BF16))
    save(tmp_path / "bf.safetensors", {"w": Tensor(view.value)})
    assert torch.equal(safetensors.torch.load_file(tmp_path / "bf.safetensors")["w"], ref)


def file_bytes(header, data=b""):
    text = header if isinstance(header, bytes) else json.dumps(header, separators=(",", ":")).encode()
    return struct.pack("<Q", len(text)) + text + data


def tensor(dtype, shape, begin, end):
    return {"dtype": dtype, "shape": shape, "data_offsets": [begin, end]}


MALICIOUS = {
    "too small": b"\x01\x02",
    "header past the end": struct.pack("<Q", 100) + b"{}",
    "header over 100,000,000": struct.pack("<Q", 100_000_001) + b"{}" * 8,
    "huge header length": struct.pack("<Q", 2**64 - 1) + b"{}",
    "json error": file_bytes(b'{"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}', b"\0" * 4),
    "not utf-8": file_bytes(b'{"\xff":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}}', b"\0"),
    "not an object": file_bytes(b"[]"),
    "unknown dtype": file_bytes({"x": tensor("F31", [1], 0, 4)}, b"\0" * 4),
    "gap": file_bytes({"x": tensor("F32", [1], 4, 8)}, b"\0" * 8),
    "overlap": file_bytes({"x": tensor("F32", [2], 0, 8), "y": tensor("F32", [2], 4, 12)}, b"\0" * 12),
    "bytes after the data": file_bytes({"x": tensor("F32", [1], 0, 4)}, b"\0" * 5),
    "data short": file_bytes({"x": tensor("F32", [2], 0, 8)}, b"\0" * 7),
    "size mismatch": file_bytes({"x": tensor("F32", [3], 0, 8)}, b"\0" * 8),
    "end before begin": file_bytes({"x": tensor("F32", [0], 4, 0), "y": tensor("U8", [4], 0, 4)}, b"\0" * 4),
    "negative dim": file_bytes({"x": tensor("F32", [-1], 0, 4)}, b"\0" * 4),
    "metadata not strings": file_bytes({"__metadata__": {"a": 1}}),
    "numel overflow": file_bytes({"x": tensor("F64", [2**32, 2**32], 0, 0)}),
    "bytes overflow": file_bytes({"x": tensor("F64", [2**62], 0, 0)}),
}


@pytest.mark.parametrize("name", list(MALICIOUS))
def test_files_the_reference_refuses_are_refused(tmp_path, name):
    path = tmp_path / "bad.safetensors"
    path.write_bytes(MALICIOUS[name])
    with pytest.raises(Exception):
        with safetensors.safe_open(path, framework="numpy") as f:
            f.keys()
    assert status_of(lambda: File(path)) in (STATUS["TENSOR_E_FORMAT"], STATUS["TENSOR_E_OVERFLOW"])


def test_duplicate_names_are_refused(tmp_path):
    path = tmp_path / "dup.safetensors"
    header = b'{"x":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"x":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}}'
    path.write_bytes(file_bytes(header, b"\1\2"))
    assert status_of(lambda: File(path)) == STATUS["TENSOR_E_FORMAT"]
