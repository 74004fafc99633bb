"""from_numpy's two ways in: plain ndarrays read through the inline accessors of
NumPy's public C API headers (PyArray_DATA, PyArray_DIMS, PyArray_STRIDES,
PyArray_FLAGS, PyArray_DESCR; no API table, the fields NumPy 1.x and 2.x share)
and everything else through the buffer protocol. Both must give the same
tensors and the same errors; the direct read must keep the array alive and
refuse nothing the buffer path allowed. ctensor._C._numpy_direct_read(False)
forces the buffer path."""
import gc
import mmap
import sys
import warnings
import weakref

import numpy as np
import pytest
import torch

import ctensor

direct_read = ctensor._C._numpy_direct_read

DTYPES = ["bool", "uint8", "int8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
# Every NumPy type number ctensor reads, by its C name (long and long long are
# different type numbers of one size; intc and int32 are one).
C_TYPES = [np.bool_, np.byte, np.ubyte, np.short, np.ushort, np.intc, np.uintc, np.int_, np.uint,
           np.longlong, np.ulonglong, np.half, np.single, np.double, np.csingle, np.cdouble]


@pytest.fixture(autouse=True)
def direct_read_restored():
    yield
    direct_read(True)


def buffer_path(fn):
    """fn() with every array going through the buffer protocol."""
    direct_read(False)
    try:
        return fn()
    finally:
        direct_read(True)


def outcome(fn):
    """What fn() gives: the tensor's description, or the exception's type and text."""
    try:
        t = fn()
    except Exception as e:  # noqa: BLE001 - the comparison is the point
        return type(e), str(e)
    return describe(t)


def describe(t):
    s = t.untyped_storage()
    return (t.dtype, tuple(t.shape), t.stride(), t.storage_offset(), t.data_ptr(), t.is_readonly,
            s.data_ptr(), s.nbytes(), t.tolist())


def assert_paths_agree(make):
    """from_numpy(make()) the same both ways (a fresh array for each)."""
    direct = outcome(lambda: ctensor.from_numpy(make()))
    buffered = outcome(lambda: buffer_path(lambda: ctensor.from_numpy(make())))
    if isinstance(direct[0], type):  # an exception
        assert direct == buffered
    else:  # different arrays: all but the addresses
        assert without_addresses(direct) == without_addresses(buffered)
    return direct


def without_addresses(d):
    dtype, shape, stride, offset, ptr, readonly, storage_ptr, nbytes, values = d
    return dtype, shape, stride, offset, ptr - storage_ptr, readonly, nbytes, values


def test_the_direct_read_is_on_with_this_numpy():
    assert direct_read() is True
    assert direct_read(False) is False and direct_read() is False  # stays off until asked
    assert direct_read(True) is True


@pytest.mark.parametrize("ctype", C_TYPES, ids=lambda c: c.__name__)
def test_every_type_number_both_ways(ctype):
    a = (np.arange(24) % 7).astype(ctype).reshape(2, 3, 4)
    for view in (a, a[:, ::-1, 1::2], a.transpose(2, 0, 1), a[1], a[0, 0, 0:0]):
        t = ctensor.from_numpy(view)
        u = buffer_path(lambda: ctensor.from_numpy(view))
        assert describe(t) == describe(u)
        assert t.stride() == tuple(s // a.itemsize for s in view.strides)
        assert t.data_ptr() == (view.ctypes.data if view.size else 0)


SHAPED = [
    lambda: np.array(2.5),
    lambda: np.array(7, dtype=np.int8),
    lambda: np.zeros((2, 0, 3)),
    lambda: np.zeros((0,), np.uint16),
    lambda: np.zeros((1, 4), np.float32),
    lambda: np.zeros((4, 1), np.float32).T,
    lambda: np.zeros((3, 4, 5), np.int64)[2:, 1, 3:],
    lambda: np.zeros((2, 3, 4), order="F")[:, :1],
    lambda: np.zeros((5, 0)).T,
    lambda: np.zeros((1,) * 32, np.complex64),
    lambda: np.arange(10.0)[::-3],
    lambda: np.arange(60, dtype=np.int16).reshape(3, 4, 5)[::-1, 1:, ::-2],
    lambda: np.broadcast_to(np.arange(3, dtype=np.uint32), (4, 3)),
    lambda: np.lib.stride_tricks.as_strided(np.zeros(4, np.int32), (3, 2), (4, 0)),
    lambda: np.frombuffer(bytearray(17), np.int32, 4, 1),  # unaligned
    lambda: np.frombuffer(b"abcdefgh", np.uint16),  # read-only, base is bytes
    lambda: np.matrix([[1.0, 2.0], [3.0, 4.0]])[:, ::-1],
    lambda: np.ma.masked_array(np.arange(6.0), mask=[0, 1, 0, 1, 0, 1])[::2],
    lambda: np.asarray(ctensor.arange(12, dtype=ctensor.float32).view(3, 4)).T,  # base is a tensor
]


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
@pytest.mark.parametrize("make", SHAPED)
def test_shapes_strides_and_flags_both_ways(make):
    d = assert_paths_agree(make)
    a = make()
    assert d[1] == a.shape and d[2] == tuple(s // a.itemsize for s in a.strides)


def test_readonly_both_ways():
    for make in (lambda: np.arange(6, dtype=np.int32), lambda: np.arange(6.0).reshape(2, 3).T):
        a = make()
        a.flags.writeable = False
        for t in (ctensor.from_numpy(a), buffer_path(lambda: ctensor.from_numpy(a))):
            assert t.is_readonly and t.data_ptr() == a.ctypes.data
            with pytest.raises(ValueError, match="read-only"):
                t.fill_(1)


BAD = [
    lambda: np.array(["a"]),
    lambda: np.array([b"ab"]),
    lambda: np.array([object()]),
    lambda: np.zeros(2, np.longdouble),
    lambda: np.zeros(2, np.clongdouble),
    lambda: np.zeros(2, ">i4"),
    lambda: np.zeros((2, 2), ">c8").T,
    lambda: np.zeros(2, "<M8[s]"),
    lambda: np.zeros(2, "m8[ns]"),
    lambda: np.zeros(2, [("a", "<i4"), ("b", "<f8")]),
    lambda: np.zeros(2, "V4"),
    lambda: np.lib.stride_tricks.as_strided(np.zeros(16, np.uint8).view(np.int32), (2,), (3,)),
    lambda: np.lib.stride_tricks.as_strided(np.zeros(4, np.float64), (2, 2), (8, 12)),
    lambda: np.lib.stride_tricks.as_strided(np.zeros(4, np.int32), (1, 3), (6, 4)),  # odd stride, size-1 dim
]


@pytest.mark.parametrize("make", BAD)
def test_errors_both_ways(make):
    assert_paths_agree(make)


def test_not_an_array():
    with pytest.raises(TypeError, match="expected np.ndarray"):
        ctensor.from_numpy(np.float64(1.0))


def test_warn_on_write_arrays_keep_the_buffer_paths_warning():
    # NumPy marks np.broadcast_arrays' results to warn on a first write; a writable
    # export gives that warning and makes the array plainly writable.
    def broadcast():
        return np.broadcast_arrays(np.arange(3.0), np.zeros((2, 1)))[0]

    results = []
    for from_numpy in (ctensor.from_numpy, lambda a: buffer_path(lambda: ctensor.from_numpy(a))):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            t = from_numpy(broadcast())
        results.append((describe(t)[1:4], t.is_readonly, [w.category for w in caught]))
    assert results[0] == results[1]


def test_random_arrays_match_torch_and_the_buffer_path():
    rng = np.random.default_rng(1913)
    for _ in range(300):
        dtype = DTYPES[rng.integers(len(DTYPES))]
        ndim = int(rng.integers(0, 5))
        shape = tuple(int(s) for s in rng.integers(0, 5, ndim))
        base = np.asarray(rng.standard_normal(shape) * 10).astype(dtype)
        index = tuple(slice(int(rng.integers(0, 2)), None, int(rng.choice([1, 2, -1, -2]))) for _ in shape)
        a = base[index + (...,)].transpose(rng.permutation(ndim))
        if rng.random() < 0.2:
            a.flags.writeable = False
        t = ctensor.from_numpy(a)
        assert describe(t) == describe(buffer_path(lambda: ctensor.from_numpy(a)))
        # torch 1.13 refuses negative strides and has no uint16/32/64
        if all(s >= 0 for s in a.strides) and dtype not in ("uint16", "uint32", "uint64"):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # torch's warning for read-only arrays
                r = torch.from_numpy(a)
            assert tuple(t.shape) == tuple(r.shape) and t.stride() == r.stride()
            assert t.data_ptr() == r.data_ptr() and t.storage_offset() == r.storage_offset()
            assert repr(t.dtype).split(".")[-1] == repr(r.dtype).split(".")[-1]
            assert t.tolist() == r.tolist()


def test_subclasses():
    plain = np.arange(6.0).reshape(2, 3).view(type("Plain", (np.ndarray,), {}))
    t = ctensor.from_numpy(plain)
    assert t.data_ptr() == plain.ctypes.data and t.tolist() == plain.tolist()

    class CountedStrides(np.ndarray):
        reads = 0

        @property
        def strides(self):
            type(self).reads += 1
            return np.ndarray.strides.__get__(self)

    odd = np.zeros((1, 3), np.float32).view(CountedStrides)
    assert ctensor.from_numpy(odd).stride() == (3, 1)
    assert CountedStrides.reads == 1  # an overridden strides attribute: the buffer path reads it


def test_memmap(tmp_path):
    path = tmp_path / "a.bin"
    np.arange(8, dtype=np.int32).tofile(path)
    m = np.memmap(path, dtype=np.int32, mode="r+", shape=(2, 4))
    t = ctensor.from_numpy(m[:, ::2])
    assert t.tolist() == [[0, 2], [4, 6]] and not t.is_readonly
    del m
    gc.collect()
    t[1, 1] = 60  # the mapping is still there
    del t
    gc.collect()
    assert np.fromfile(path, dtype=np.int32).tolist() == [0, 1, 2, 3, 4, 5, 60, 7]
    r = np.memmap(path, dtype=np.int32, mode="r")
    assert ctensor.from_numpy(r).is_readonly


@pytest.mark.parametrize("path", ["direct", "buffer"])
def test_lifetime_and_references(path):
    if path == "buffer":
        direct_read(False)
    a = np.arange(12.0).reshape(3, 4)
    watch = weakref.ref(a)
    before = sys.getrefcount(a)
    t = ctensor.from_numpy(a)
    assert sys.getrefcount(a) == before + 1  # one reference (or export), whatever the views
    v = t[1:].t()
    s = v.untyped_storage()
    del t
    assert sys.getrefcount(a) == before + 1
    del v
    gc.collect()
    assert sys.getrefcount(a) == before + 1  # the storage object keeps the memory too
    del s
    gc.collect()
    assert sys.getrefcount(a) == before
    u = ctensor.from_numpy(a)[::2]
    del a
    gc.collect()
    assert watch() is not None and u.tolist() == [[0.0, 1.0, 2.0, 3.0], [8.0, 9.0, 10.0, 11.0]]
    del u
    gc.collect()
    assert watch() is None


@pytest.mark.parametrize("path", ["direct", "buffer"])
def test_no_reference_leaks_on_success_or_error(path):
    if path == "buffer":
        direct_read(False)
    arrays = [np.arange(6.0), np.zeros(3, ">i4"), np.array(["a"]), np.zeros((2, 0)), np.array(1, np.uint8)]
    for a in arrays:
        for _ in range(3):
            try:
                ctensor.from_numpy(a)
            except (TypeError, ValueError):
                pass
    gc.collect()
    before = [sys.getrefcount(a) for a in arrays]
    for _ in range(100):
        for a in arrays:
            try:
                ctensor.from_numpy(a)[0:]
            except (TypeError, ValueError, IndexError):
                pass
    gc.collect()
    after = [sys.getrefcount(a) for a in arrays]
    assert after == before


@pytest.mark.parametrize("lib", [ctensor, torch], ids=["ctensor", "torch"])
def test_resize_refused_while_shared_like_torch(lib):
    a = np.arange(10.0)
    t = lib.from_numpy(a)
    with pytest.raises(ValueError, match="cannot resize"):
        a.resize(20)
    assert t.tolist() == list(range(10))
    del t
    a.resize(20)  # nobody else holds it now
    assert a.shape == (20,)


def test_array_base_objects_stay_held():
    raw = bytearray(16)
    a = np.frombuffer(raw, np.int32)
    t = ctensor.from_numpy(a)
    del a
    with pytest.raises(BufferError):
        raw.extend(b"x")  # the array, held by the tensor, holds raw's export
    t[0] = 7
    assert raw[:4] == (7).to_bytes(4, sys.byteorder)
    del t
    gc.collect()
    raw.extend(b"x")

    with mmap.mmap(-1, 32) as m:
        view = np.frombuffer(m, np.float64)[1:]
        t = ctensor.from_numpy(view)
        del view
        with pytest.raises(BufferError):
            m.close()
        del t
        gc.collect()


def test_asarray_and_index_arrays_take_the_same_ways():
    a = np.arange(12.0).reshape(3, 4)[:, ::-1]
    t = ctensor.asarray(a)
    assert t.data_ptr() == a.ctypes.data and t.stride() == (4, -1)
    assert buffer_path(lambda: ctensor.asarray(a)).stride() == (4, -1)
    idx = np.array([2, 0])
    assert ctensor.arange(5)[idx].tolist() == [2, 0]
    assert buffer_path(lambda: ctensor.arange(5)[idx]).tolist() == [2, 0]
