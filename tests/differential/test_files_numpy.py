"""tensor_load_npy / tensor_save_npy against NumPy 1.24: files np.save writes load
with NumPy's values, shapes and strides; files ctensor writes are byte for byte
what np.save writes and load back through np.load and np.memmap."""
import ctypes
import io

import numpy as np
import pytest

from ctensor_ctypes import NUMPY_DTYPES, STATUS, CtensorError, Tensor, check, from_numpy, lib


LOAD_COPY, LOAD_WRITABLE = 1, 2
CODE = {np.dtype(v): k for k, v in NUMPY_DTYPES.items() if v is not None}
DTYPES = sorted(CODE, key=str)
SHAPES = [(), (0,), (5,), (4, 7), (3, 0, 2), (2, 3, 4), (1, 1, 1, 1, 6)]


def sample(dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    if dtype == np.bool_:
        flat = rng.integers(0, 2, n).astype(np.bool_)
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        flat = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    elif dtype.kind == "c":
        flat = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    else:
        flat = (rng.standard_normal(n) * 100).astype(dtype)
    return flat.reshape(shape)


def load(path, flags=0):
    out = ctypes.c_void_p()
    check(lib.tensor_load_npy(ctypes.byref(out), str(path).encode(), flags))
    return Tensor(out.value)


def save(tensor, path):
    check(lib.tensor_save_npy(tensor.handle, str(path).encode()))


def status_of(fn):
    try:
        fn()
    except CtensorError as e:
        return e.status
    return 0


def npsave_bytes(array):
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_np_save_files_load_as_numpy_loads_them(tmp_path, dtype, shape):
    array = sample(dtype, shape)
    np.save(tmp_path / "a.npy", array)
    expected = np.load(tmp_path / "a.npy")
    for flags in (0, LOAD_COPY, LOAD_WRITABLE):
        t = load(tmp_path / "a.npy", flags)
        assert t.dtype == CODE[dtype]
        assert t.shape == expected.shape
        assert bool(lib.tensor_is_readonly(t.handle)) == (flags == 0 and array.size > 0)
        np.testing.assert_array_equal(t.numpy(), expected)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(4, 7), (2, 3, 4), (5,), (0, 3)], ids=str)
def test_fortran_order_loads_as_numpys_strides(tmp_path, dtype, shape):
    array = np.asfortranarray(sample(dtype, shape, 1))
    np.save(tmp_path / "f.npy", array)
    mm = np.load(tmp_path / "f.npy", mmap_mode="r")
    t = load(tmp_path / "f.npy")
    assert t.shape == mm.shape
    if array.size:
        assert tuple(s * dtype.itemsize for s in t.strides) == mm.strides
    np.testing.assert_array_equal(t.numpy(), mm)


@pytest.mark.parametrize("descr", [">i2", ">i4", ">u8", ">f2", ">f4", ">f8", ">c8", ">c16"])
def test_big_endian_is_byte_swapped(tmp_path, descr):
    array = sample(np.dtype(descr).newbyteorder("="), (3, 5), 2).astype(descr)
    np.save(tmp_path / "b.npy", array)
    t = load(tmp_path / "b.npy")
    assert not lib.tensor_is_readonly(t.handle)
    np.testing.assert_array_equal(t.numpy(), array)


@pytest.mark.parametrize("version", [(1, 0), (2, 0), (3, 0)])
def test_format_versions(tmp_path, version):
    array = sample(np.dtype(np.float32), (6, 2), 3)
    with open(tmp_path / "v.npy", "wb") as f:
        np.lib.format.write_array(f, array, version=version)
    t = load(tmp_path / "v.npy")  # kept alive: numpy() views its mapping
    np.testing.assert_array_equal(t.numpy(), array)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_saved_files_are_np_saves_bytes(tmp_path, dtype, shape):
    array = sample(dtype, shape, 4)
    save(from_numpy(array, CODE[dtype]), tmp_path / "c.npy")
    assert (tmp_path / "c.npy").read_bytes() == npsave_bytes(array)
    np.testing.assert_array_equal(np.load(tmp_path / "c.npy"), array)
    if array.size:
        np.testing.assert_array_equal(np.memmap(tmp_path / "c.npy", dtype=dtype, mode="r",
                                                offset=len(npsave_bytes(array)) - array.nbytes,
                                                shape=shape), array)
        np.testing.assert_array_equal(np.load(tmp_path / "c.npy", mmap_mode="r"), array)


def test_strided_views_save_in_c_order(tmp_path):
    array = sample(np.dtype(np.int32), (6, 8), 5)
    t = from_numpy(array, CODE[np.dtype(np.int32)])
    tt = ctypes.c_void_p()
    check(lib.tensor_transpose(ctypes.byref(tt), t.handle, 0, 1))
    tt = Tensor(tt.value)
    stepped = ctypes.c_void_p()
    check(lib.tensor_slice(ctypes.byref(stepped), tt.handle, 1, 5, -2**63, -2))  # [:, 5::-2]
    stepped = Tensor(stepped.value)
    save(stepped, tmp_path / "s.npy")
    expected = array.T[:, 5::-2]
    assert (tmp_path / "s.npy").read_bytes() == npsave_bytes(np.ascontiguousarray(expected))


def test_many_dims_header_like_numpy(tmp_path):
    array = np.zeros([1] * 31 + [3], np.uint8)
    save(from_numpy(array, CODE[np.dtype(np.uint8)]), tmp_path / "h.npy")
    assert (tmp_path / "h.npy").read_bytes() == npsave_bytes(array)


def test_header_over_numpys_limit_is_refused_by_both(tmp_path):
    array = np.zeros(3, np.float32)
    with open(tmp_path / "big.npy", "wb") as f:
        header = {"descr": "<f4", "fortran_order": False, "shape": (3,)}
        # pad the header dict far beyond 10000 bytes, as a hostile writer could
        np.lib.format._write_array_header(f, header, version=(2, 0))
    raw = (tmp_path / "big.npy").read_bytes()
    hlen = int.from_bytes(raw[8:12], "little")
    body = raw[12:12 + hlen].rstrip(b"\n") + b" " * 12000 + b"\n"
    (tmp_path / "big.npy").write_bytes(raw[:8] + len(body).to_bytes(4, "little") + body + array.tobytes())
    with pytest.raises(ValueError):
        np.load(tmp_path / "big.npy")
    assert status_of(lambda: load(tmp_path / "big.npy")) == STATUS["TENSOR_E_FORMAT"]


@pytest.mark.parametrize("array", [
    np.array(["ab", "c"]), np.array([b"x"]), np.array([1, None], dtype=object),
    np.zeros(2, dtype=[("a", "<f4"), ("b", "<i2")]), np.zeros(2, "datetime64[s]"), np.zeros(2, np.longdouble),
], ids=["str", "bytes", "object", "structured", "datetime", "longdouble"])
def test_dtypes_ctensor_lacks_are_refused(tmp_path, array):
    np.save(tmp_path / "x.npy", array, allow_pickle=True)
    assert status_of(lambda: load(tmp_path / "x.npy")) == STATUS["TENSOR_E_DTYPE"]


def test_truncated_np_save_files_are_format_errors(tmp_path):
    raw = npsave_bytes(sample(np.dtype(np.float64), (3, 3)))
    for cut in range(0, len(raw), 7):
        (tmp_path / "t.npy").write_bytes(raw[:cut])
        with pytest.raises(Exception):
            np.load(tmp_path / "t.npy")
        assert status_of(lambda: load(tmp_path / "t.npy")) == STATUS["TENSOR_E_FORMAT"]
