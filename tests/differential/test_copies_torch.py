"""Differential tests of the copies (tensor_copy, tensor_fill, tensor_to,
tensor_contiguous, tensor_clone) against PyTorch 1.13 and NumPy.

Random destinations and sources are laid over one shared storage (so that they
often overlap) or over separate ones, with random broadcasting and dtype pairs.
The oracle is NumPy assignment from a snapshot of the source: tensor_copy must
give exactly that, touch no byte outside the destination, and refuse a
destination with internal overlap (ctensor's rule) with TENSOR_E_OVERLAP.
Fixed seeds keep every run identical.

Run: CTENSOR_LIB=build-test/src/libctensor.so /usr/bin/python3 -m pytest tests/differential/test_copies_torch.py -q
"""
import ctypes
import math
import random
import warnings

import numpy as np
import pytest
import torch

from ctensor_ctypes import P, STATUS, Tensor, check, int64_array, lib

OK = STATUS["TENSOR_OK"]
INVALID = STATUS["TENSOR_E_INVALID"]
SHAPE = STATUS["TENSOR_E_SHAPE"]
READONLY = STATUS["TENSOR_E_READONLY"]
OVERLAP = STATUS["TENSOR_E_OVERLAP"]
COPY = STATUS["TENSOR_E_COPY"]


NP = {0: np.uint8, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.int64, 5: np.float16,
      6: np.float32, 7: np.float64, 9: np.complex64, 10: np.complex128, 11: np.bool_,
      27: np.uint16, 28: np.uint32, 29: np.uint64}
TORCH = {0: torch.uint8, 1: torch.int8, 2: torch.int16, 3: torch.int32, 4: torch.int64,
         5: torch.float16, 6: torch.float32, 7: torch.float64, 9: torch.complex64,
         10: torch.complex128, 11: torch.bool}
INTS = [0, 1, 2, 3, 4, 27, 28, 29]


_storage_wrap = lib.tensor_storage_wrap


class Storage:
    def __init__(self, nbytes, readonly=False, buf=None):
        out = ctypes.c_void_p()
        if readonly:
            self.buf = buf if buf is not None else (ctypes.c_uint8 * max(nbytes, 1))()
            check(_storage_wrap(ctypes.byref(out), ctypes.addressof(self.buf), nbytes, 1, None, None))
        else:
            check(lib.tensor_storage_new(ctypes.byref(out), nbytes))
        self.handle = out
        self.nbytes = nbytes

    def __del__(self):
        lib.tensor_storage_release(self.handle)

    def raw(self):
        if self.nbytes == 0:
            return np.zeros(0, np.uint8)
        return np.ctypeslib.as_array((ctypes.c_uint8 * self.nbytes).from_address(lib.tensor_storage_data(self.handle)))


def view(storage, dtype, sizes, strides, offset):
    out = ctypes.c_void_p(1)
    n = len(sizes)
    status = lib.tensor_from_storage(ctypes.byref(out), storage.handle, dtype, n, int64_array(sizes),
                                     int64_array(strides), offset)
    if status != OK:
        assert out.value is None
        raise AssertionError(f"from_storage failed: {lib.tensor_last_error().decode()}")
    return Tensor(out.value)


def np_view(raw, dtype, sizes, strides, offset):
    """NumPy view of `raw` (a uint8 array) with ctensor's layout."""
    item = np.dtype(NP[dtype]).itemsize
    if 0 in sizes:
        return np.empty(sizes, NP[dtype])
    return np.lib.stride_tricks.as_strided(raw[offset * item:].view(NP[dtype]) if len(raw) else raw,
                                           shape=tuple(sizes), strides=tuple(s * item for s in strides),
                                           writeable=True)


def has_internal_overlap(sizes, strides):
    dims = sorted((abs(st), n) for n, st in zip(sizes, strides) if n > 1)
    span = 0
    for st, n in dims:
        if st <= span:
            return True
        span += (n - 1) * st
    return False


def rand_layout(rng, itemsize, nbytes, max_ndim=3):
    """Random sizes/strides (negative, zero, permuted) and offset of a view that fits in
    nbytes bytes; None if none found quickly."""
    capacity = nbytes // itemsize
    for _ in range(50):
        ndim = rng.randint(0, max_ndim)
        sizes = [rng.choice([0, 1, 1, 2, 3, 4, 5]) if rng.random() < 0.15 else rng.randint(1, 5) for _ in range(ndim)]
        if rng.random() < 0.5:  # contiguous-ish, maybe permuted / reversed
            strides, s = [0] * ndim, 1
            for i in reversed(range(ndim)):
                strides[i] = s
                s *= max(sizes[i], 1) * (rng.choice([1, 1, 2]))
            rng.shuffle(strides)
            strides = [-s if rng.random() < 0.2 else s for s in strides]
        else:
            strides = [rng.choice([0, 1, 2, 3, 5, 7, -1, -3, 9, 13]) for _ in range(ndim)]
        lo = sum((n - 1) * s for n, s in zip(sizes, strides) if s < 0 and n > 0)
        hi = sum((n - 1) * s for n, s in zip(sizes, strides) if s > 0 and n > 0)
        if hi - lo + 1 > capacity:
            continue
        offset = rng.randint(-lo, capacity - 1 - hi)
        return sizes, strides, offset
    return None


def broadcastable_shape(rng, dst_sizes):
    """A source shape that broadcasts to dst_sizes (sometimes one that does not)."""
    nd = rng.randint(0, len(dst_sizes))
    shape = [n if rng.random() < 0.7 else 1 for n in dst_sizes[len(dst_sizes) - nd:]]
    if rng.random() < 0.07 and shape:
        i = rng.randrange(len(shape))
        shape[i] = shape[i] + 2
    if rng.random() < 0.03:
        shape = [1] + list(dst_sizes)
    return shape


def broadcasts(src_shape, dst_shape):
    if len(src_shape) > len(dst_shape):
        return False
    for s, d in zip(reversed(src_shape), reversed(dst_shape)):
        if s != d and s != 1:
            return False
    return True


def src_layout(rng, itemsize, nbytes, shape):
    capacity = nbytes // itemsize
    for _ in range(50):
        strides = [rng.choice([0, 1, 2, 3, 4, 6, -1, -2, 11]) for _ in shape]
        lo = sum((n - 1) * s for n, s in zip(shape, strides) if s < 0 and n > 0)
        hi = sum((n - 1) * s for n, s in zip(shape, strides) if s > 0 and n > 0)
        if hi - lo + 1 > capacity:
            continue
        return strides, rng.randint(-lo, capacity - 1 - hi)
    return None


def run_copy_case(rng, shared, dst_dtype, src_dtype):
    nbytes = 256
    store_d = Storage(nbytes)
    store_s = store_d if shared else Storage(nbytes)
    # Small non-negative integer values in every byte: every dtype pair converts exactly
    # when the source is an integer type, and bytes seen as floats stay finite.
    init_d = np.array([rng.randint(0, 60) for _ in range(nbytes)], np.uint8)
    store_d.raw()[:] = init_d
    if not shared:
        store_s.raw()[:] = np.array([rng.randint(0, 60) for _ in range(nbytes)], np.uint8)
    d_item = np.dtype(NP[dst_dtype]).itemsize
    s_item = np.dtype(NP[src_dtype]).itemsize
    dl = rand_layout(rng, d_item, nbytes)
    if dl is None:
        return
    d_sizes, d_strides, d_off = dl
    s_shape = broadcastable_shape(rng, d_sizes)
    sl = src_layout(rng, s_item, nbytes, s_shape)
    if sl is None:
        return
    s_strides, s_off = sl
    dst = view(store_d, dst_dtype, d_sizes, d_strides, d_off)
    src = view(store_s, src_dtype, s_shape, s_strides, s_off)

    before = store_d.raw().copy()
    snapshot = np_view(store_s.raw().copy(), src_dtype, s_shape, s_strides, s_off).copy()
    status = lib.tensor_copy(dst.handle, src.handle)
    what = f"dst {NP[dst_dtype].__name__} {d_sizes} {d_strides} +{d_off} <- src {NP[src_dtype].__name__} " \
           f"{s_shape} {s_strides} +{s_off} shared={shared}"
    numel = int(np.prod(d_sizes)) if d_sizes else 1
    if not broadcasts(s_shape, d_sizes):
        expected_status = SHAPE  # an empty dst too: torch's copy_ refuses it as well
    elif numel == 0:
        expected_status = OK
    elif has_internal_overlap(d_sizes, d_strides):
        expected_status = OVERLAP
    else:
        expected_status = OK
    assert status == expected_status, f"{what}: {status} {lib.tensor_last_error()}"
    if status != OK:
        np.testing.assert_array_equal(store_d.raw(), before, err_msg=what + " changed dst on failure")
        return
    expected = before.copy()
    if numel:
        src_vals = snapshot
        if NP[src_dtype] in (np.float16, np.float32, np.float64) and NP[dst_dtype] not in (
                np.float16, np.float32, np.float64, np.complex64, np.complex128, np.bool_):
            src_vals = np.trunc(np.nan_to_num(src_vals))  # finite by construction
        with np.errstate(all="ignore"):
            if np.iscomplexobj(src_vals) and not np.issubdtype(NP[dst_dtype], np.complexfloating):
                if NP[dst_dtype] is np.bool_:
                    conv = src_vals != 0
                else:
                    conv = src_vals.real.astype(NP[dst_dtype])
            else:
                conv = src_vals.astype(NP[dst_dtype])
        target = np_view(expected, dst_dtype, d_sizes, d_strides, d_off)
        target[...] = np.broadcast_to(conv, d_sizes)
    got = store_d.raw()
    if not np.array_equal(got, expected):
        # float dsts with NaN bit patterns compare by bytes, which is what we want
        raise AssertionError(f"{what}: wrong bytes\n got {got}\nwant {expected}")


EXACT_PAIRS = [(d, s) for d in NP for s in INTS + [11]] + [(d, s) for d in (5, 6, 7, 9, 10) for s in (5, 6, 7)]


@pytest.mark.parametrize("seed", range(6))
def test_random_copies_overlapping_and_broadcast(seed):
    rng = random.Random(seed)
    for _ in range(500):
        dst_dtype, src_dtype = rng.choice(EXACT_PAIRS)
        if NP[src_dtype] is np.bool_:
            continue  # arbitrary bytes are not valid bools
        run_copy_case(rng, shared=rng.random() < 0.7, dst_dtype=dst_dtype, src_dtype=src_dtype)


@pytest.mark.parametrize("seed", range(3))
def test_random_copies_match_torch_copy_(seed):
    """Separate storages: ctensor's tensor_copy equals torch's dst.copy_(src)."""
    rng = random.Random(100 + seed)
    dtypes = list(TORCH)
    for _ in range(300):
        d_dtype, s_dtype = rng.choice(dtypes), rng.choice(dtypes)
        d_sizes = [rng.randint(0, 4) for _ in range(rng.randint(0, 3))]
        s_sizes = broadcastable_shape(rng, d_sizes)
        if not broadcasts(s_sizes, d_sizes):
            continue
        vals = np.array([rng.choice([0, 1, 2, 7, 100, -3, 0.5, -2.5]) for _ in range(max(1, int(np.prod(s_sizes))))])
        ts = torch.tensor(vals[:int(np.prod(s_sizes))] if s_sizes else vals[0], dtype=torch.float64)
        if TORCH[s_dtype] in (torch.uint8, torch.bool) or TORCH[d_dtype] == torch.uint8:  # ctensor saturates where torch wraps
            ts = ts.abs()
        ts = ts.reshape(s_sizes).to(TORCH[s_dtype])
        td = torch.zeros(d_sizes, dtype=TORCH[d_dtype])
        with np.errstate(all="ignore"):
            sa = np.array(ts.numpy(), order="C", copy=True)
        out = ctypes.c_void_p()
        check(lib.tensor_from_data(ctypes.byref(out), sa.ctypes.data_as(P), sa.ndim, int64_array(sa.shape), s_dtype))
        cs = Tensor(out.value)
        check(lib.tensor_zeros(ctypes.byref(out), len(d_sizes), int64_array(d_sizes), d_dtype))
        cd = Tensor(out.value)
        check(lib.tensor_copy(cd.handle, cs.handle))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            td.copy_(ts)
        got = cd.numpy()
        np.testing.assert_array_equal(got, td.numpy(), err_msg=f"{s_dtype}->{d_dtype} {s_sizes}->{d_sizes}")


def test_copy_from_itself_with_transpose_is_a_snapshot():
    # dst = dst.T through the same storage: torch gives garbage here, NumPy and ctensor a snapshot
    n = 7
    a = np.arange(n * n, dtype=np.float32).reshape(n, n)
    st = Storage(n * n * 4)
    st.raw()[:] = a.view(np.uint8).ravel()
    dst = view(st, 6, [n, n], [n, 1], 0)
    src = view(st, 6, [n, n], [1, n], 0)
    check(lib.tensor_copy(dst.handle, src.handle))
    np.testing.assert_array_equal(st.raw().view(np.float32).reshape(n, n), a.T)


def test_copy_shifted_overlap_both_directions():
    for shift in (-3, -1, 1, 2, 5):
        a = np.arange(40, dtype=np.int32)
        st = Storage(160)
        st.raw()[:] = a.view(np.uint8)
        base = 10
        dst = view(st, 3, [20], [1], base)
        src = view(st, 3, [20], [1], base + shift)
        check(lib.tensor_copy(dst.handle, src.handle))
        want = a.copy()
        want[base:base + 20] = a[base + shift:base + shift + 20]
        np.testing.assert_array_equal(st.raw().view(np.int32), want)


def test_copy_reversed_view_of_itself():
    a = np.arange(33, dtype=np.float64)
    st = Storage(33 * 8)
    st.raw()[:] = a.view(np.uint8)
    dst = view(st, 7, [33], [1], 0)
    src = view(st, 7, [33], [-1], 32)
    check(lib.tensor_copy(dst.handle, src.handle))
    np.testing.assert_array_equal(st.raw().view(np.float64), a[::-1])


def test_copy_cast_through_reinterpreted_same_bytes():
    # int16 src and int32 dst on the same bytes: dst gets the snapshot of src, converted
    a = np.arange(16, dtype=np.int16)
    st = Storage(32)
    st.raw()[:] = a.view(np.uint8)
    src = view(st, 2, [8], [1], 0)
    dst = view(st, 3, [8], [1], 0)
    check(lib.tensor_copy(dst.handle, src.handle))
    np.testing.assert_array_equal(st.raw().view(np.int32), a[:8].astype(np.int32))


def test_copy_to_itself_is_a_no_op_success():
    st = Storage(64)
    st.raw()[:] = np.arange(64, dtype=np.uint8)
    t = view(st, 6, [4, 4], [4, 1], 0)
    check(lib.tensor_copy(t.handle, t.handle))
    np.testing.assert_array_equal(st.raw(), np.arange(64, dtype=np.uint8))


# ------------------------------------------------------------------ fill

FILL_VALUES = [0.0, 1.0, -1.0, 0.5, -0.5, 2.5, 3.5, 127.0, 128.0, 255.0, 256.0, -129.0, 65504.0,
               65520.0, 1e10, -1e10, 3.4e38, 3.5e38, 1e300, -1e300, 2.0**63, -2.0**63, 2.0**64,
               float("inf"), float("-inf"), float("nan"), 1e-40, 5e-324, -0.0]


def expected_fill(value, dtype):
    np_t = NP[dtype]
    if np_t is np.bool_:
        return np.bool_(value != 0 or math.isnan(value))
    if np.issubdtype(np_t, np.integer):
        info = np.iinfo(np_t)
        if math.isnan(value):
            return np_t(0)
        v = math.trunc(value) if math.isfinite(value) else (info.max if value > 0 else info.min)
        return np_t(min(max(v, info.min), info.max))
    with np.errstate(all="ignore"):
        return np.array(value).astype(np_t)[()]


@pytest.mark.parametrize("dtype", sorted(NP))
def test_fill_every_dtype_special_values(dtype):
    out = ctypes.c_void_p()
    for value in FILL_VALUES:
        check(lib.tensor_empty(ctypes.byref(out), 2, int64_array([3, 5]), dtype))
        t = Tensor(out.value)
        check(lib.tensor_fill(t.handle, value))
        want = expected_fill(value, dtype)
        got = t.numpy()
        if isinstance(want, (np.floating, np.complexfloating)) and np.isnan(want):
            assert np.isnan(got).all(), (dtype, value, got)
        else:
            np.testing.assert_array_equal(got, np.full((3, 5), want), err_msg=f"{dtype} {value}")


def test_fill_matches_torch_where_torch_is_defined():
    for dtype, tdt in TORCH.items():
        for value in (0.0, 1.0, -2.0, 2.5, -7.75, 100.0, float("nan"), float("inf")):
            if not tdt.is_floating_point and not tdt.is_complex and tdt != torch.bool and not math.isfinite(value):
                continue
            if tdt == torch.uint8 and value < 0:
                continue
            out = ctypes.c_void_p()
            check(lib.tensor_empty(ctypes.byref(out), 1, int64_array([4]), dtype))
            t = Tensor(out.value)
            check(lib.tensor_fill(t.handle, value))
            want = torch.empty(4, dtype=tdt).fill_(value).numpy()
            np.testing.assert_array_equal(t.numpy(), want, err_msg=f"{tdt} {value}")


def test_fill_strided_touches_only_the_view():
    st = Storage(64)
    st.raw()[:] = 7
    t = view(st, 2, [3, 2], [-4, 3], 8)  # int16, negative stride
    check(lib.tensor_fill(t.handle, -2.0))
    want = np.full(64, 7, np.uint8)
    wv = np_view(want, 2, [3, 2], [-4, 3], 8)
    wv[...] = -2
    np.testing.assert_array_equal(st.raw(), want)


def test_fill_rejections():
    st = Storage(64)
    expanded = view(st, 6, [4, 3], [0, 1], 0)
    assert lib.tensor_fill(expanded.handle, 1.0) == OVERLAP
    assert "overlap" in lib.tensor_last_error().decode()
    interleaved = view(st, 6, [3, 3], [1, 1], 0)
    assert lib.tensor_fill(interleaved.handle, 1.0) == OVERLAP
    empty_expanded = view(st, 6, [0, 3], [0, 0], 0)
    assert lib.tensor_fill(empty_expanded.handle, 1.0) == OK
    one = view(st, 6, [1, 1, 5], [0, 0, 1], 0)  # zero strides on size-1 dims are fine
    assert lib.tensor_fill(one.handle, 1.0) == OK
    ro = Storage(64, readonly=True)
    t = view(ro, 6, [4], [1], 0)
    assert lib.tensor_fill(t.handle, 1.0) == READONLY
    assert bytes(ro.buf) == bytes(64)
    assert lib.tensor_fill(None, 1.0) == INVALID
    # read-only and empty: nothing is written; ctensor: an empty dst always succeeds
    t0 = view(ro, 6, [0], [1], 0)
    assert lib.tensor_fill(t0.handle, 1.0) == OK


def test_copy_rejections():
    st = Storage(64)
    out = ctypes.c_void_p()
    check(lib.tensor_empty(ctypes.byref(out), 1, int64_array([3]), 6))
    src = Tensor(out.value)
    assert lib.tensor_copy(None, src.handle) == INVALID
    dst = view(st, 6, [3], [1], 0)
    assert lib.tensor_copy(dst.handle, None) == INVALID
    expanded = view(st, 6, [2, 3], [0, 1], 0)
    assert lib.tensor_copy(expanded.handle, src.handle) == OVERLAP
    check(lib.tensor_empty(ctypes.byref(out), 1, int64_array([4]), 6))
    src4 = Tensor(out.value)
    assert lib.tensor_copy(dst.handle, src4.handle) == SHAPE
    msg = lib.tensor_last_error().decode()
    assert "4" in msg and "3" in msg, msg
    check(lib.tensor_empty(ctypes.byref(out), 2, int64_array([1, 3]), 6))
    src13 = Tensor(out.value)
    assert lib.tensor_copy(dst.handle, src13.handle) == SHAPE  # more dims than dst
    ro = Storage(64, readonly=True)
    rdst = view(ro, 6, [3], [1], 0)
    assert lib.tensor_copy(rdst.handle, src.handle) == READONLY
    # a read-only source is fine
    check(lib.tensor_copy(dst.handle, rdst.handle))


# ------------------------------------------------------------------ to / contiguous / clone

def test_to_copy_modes_share_or_copy():
    st = Storage(96)
    st.raw()[:] = np.arange(96, dtype=np.uint8)
    t = view(st, 6, [3, 4], [1, 3], 0)  # non-contiguous
    for mode in (0, 2):
        out = ctypes.c_void_p(1)
        check(lib.tensor_to(ctypes.byref(out), t.handle, 6, mode))
        assert out.value == t.handle.value  # the same handle, one more reference
        assert lib.tensor_refcount(t.handle) == 2
        lib.tensor_release(out)
        assert lib.tensor_refcount(t.handle) == 1
    out = ctypes.c_void_p(1)
    check(lib.tensor_to(ctypes.byref(out), t.handle, 6, 1))
    c = Tensor(out.value)
    assert c.handle.value != t.handle.value and c.is_contiguous() and c.strides == (4, 1)
    assert lib.tensor_storage(c.handle) != lib.tensor_storage(t.handle)
    np.testing.assert_array_equal(c.numpy(), t.numpy())
    out = ctypes.c_void_p(1)
    assert lib.tensor_to(ctypes.byref(out), t.handle, 7, 2) == COPY and out.value is None
    msg = lib.tensor_last_error().decode()
    assert "float32" in msg and "float64" in msg, msg
    for mode in (0, 1):
        out = ctypes.c_void_p(1)
        check(lib.tensor_to(ctypes.byref(out), t.handle, 7, mode))
        c = Tensor(out.value)
        assert c.dtype == 7 and c.strides == (4, 1)
        np.testing.assert_array_equal(c.numpy(), t.numpy().astype(np.float64))
    for bad_mode in (-1, 3, 100):
        out = ctypes.c_void_p(1)
        assert lib.tensor_to(ctypes.byref(out), t.handle, 6, bad_mode) == INVALID and out.value is None
    for bad_dtype in (8, 12, -1, 30, 16):
        out = ctypes.c_void_p(1)
        assert lib.tensor_to(ctypes.byref(out), t.handle, bad_dtype, 0) == INVALID and out.value is None
    out = ctypes.c_void_p(1)
    assert lib.tensor_to(ctypes.byref(out), None, 6, 0) == INVALID and out.value is None
    assert lib.tensor_to(None, t.handle, 6, 0) == INVALID


def test_to_copy_of_read_only_is_writable():
    ro = Storage(16, readonly=True)
    t = view(ro, 6, [4], [1], 0)
    out = ctypes.c_void_p()
    check(lib.tensor_to(ctypes.byref(out), t.handle, 6, 1))
    c = Tensor(out.value)
    assert lib.tensor_is_readonly(c.handle) == 0
    check(lib.tensor_clone(ctypes.byref(out), t.handle))
    c = Tensor(out.value)
    assert lib.tensor_is_readonly(c.handle) == 0
    check(lib.tensor_to(ctypes.byref(out), t.handle, 6, 0))
    c = Tensor(out.value)
    assert lib.tensor_is_readonly(c.handle) == 1


@pytest.mark.parametrize("seed", range(3))
def test_contiguous_and_clone_of_random_layouts(seed):
    rng = random.Random(200 + seed)
    st = Storage(512)
    st.raw()[:] = np.array([rng.randint(0, 60) for _ in range(512)], np.uint8)
    for _ in range(300):
        dtype = rng.choice(sorted(NP))
        if dtype == 11:
            continue
        item = np.dtype(NP[dtype]).itemsize
        lay = rand_layout(rng, item, 512, max_ndim=4)
        if lay is None:
            continue
        sizes, strides, off = lay
        t = view(st, dtype, sizes, strides, off)
        want = np_view(st.raw(), dtype, sizes, strides, off)
        before = lib.tensor_storage_refcount(st.handle)
        out = ctypes.c_void_p(1)
        check(lib.tensor_contiguous(ctypes.byref(out), t.handle))
        c = Tensor(out.value)
        if t.is_contiguous():
            assert c.handle.value == t.handle.value
            assert lib.tensor_refcount(t.handle) == 2
            assert lib.tensor_storage_refcount(st.handle) == before
        else:
            assert c.handle.value != t.handle.value and c.is_contiguous()
            assert lib.tensor_refcount(t.handle) == 1
            assert c.offset == 0
            assert c.strides == tuple(torch.empty(sizes).stride())
        np.testing.assert_array_equal(c.numpy().reshape(-1).copy().view(np.uint8), want.reshape(-1).copy().view(np.uint8))
        del c
        check(lib.tensor_clone(ctypes.byref(out), t.handle))
        c = Tensor(out.value)
        assert c.handle.value != t.handle.value and c.is_contiguous() and c.offset == 0
        assert c.strides == tuple(torch.empty(sizes).stride())
        assert lib.tensor_storage(c.handle) != st.handle.value
        np.testing.assert_array_equal(c.numpy().reshape(-1).copy().view(np.uint8), want.reshape(-1).copy().view(np.uint8))


@pytest.mark.parametrize("seed", range(2))
def test_long_strip_transposes_match_torch(seed):
    """permute(1, 2, 0) of [rows, b, c] with source rows (b * c elements) of 128 KiB
    or more and destination rows of at most 300 bytes: the copy engine's long
    strips (read along a diagonal for 2- and 4-byte elements), whole or with rows
    and columns left over, from sources and into outputs at several offsets; one
    thread for the new result, two (halves of 64 KiB or more) for the copy into an
    existing output."""
    rng = random.Random(300 + seed)
    threads_before = lib.tensor_get_num_threads()
    try:
        for _ in range(8):
            dtype = rng.choice([2, 5, 3, 6, 4, 7])  # int16, float16, int32, float32, int64, float64
            item = np.dtype(NP[dtype]).itemsize
            rows = rng.choice([128 // item, 2 * 128 // item + rng.randint(1, 20)])
            b = rng.choice([1, 3, 64])
            c = (131072 // item + rng.choice([0, 8, 24, 1000])) // b + rng.randint(1, 2)
            n = rows * b * c
            src_off, dst_off = rng.choice([0, 1, 16]), rng.choice([0, 1, 16])
            src = Storage((n + src_off) * item)
            src.raw()[:] = np.frombuffer(rng.randbytes(src.nbytes), np.uint8)
            base = torch.from_numpy(np_view(src.raw(), dtype, [rows, b, c], [b * c, c, 1], src_off).copy())
            want = base.permute(1, 2, 0).contiguous().numpy().reshape(-1).view(np.uint8)
            t = view(src, dtype, [b, c, rows], [c, 1, b * c], src_off)
            check(lib.tensor_set_num_threads(1))
            out = ctypes.c_void_p(1)
            check(lib.tensor_contiguous(ctypes.byref(out), t.handle))
            fresh = Tensor(out.value)
            np.testing.assert_array_equal(fresh.numpy().reshape(-1).view(np.uint8), want)
            del fresh
            check(lib.tensor_set_num_threads(2))
            dst = Storage((n + dst_off) * item)
            d = view(dst, dtype, [b, c, rows], [c * rows, rows, 1], dst_off)
            check(lib.tensor_copy(d.handle, t.handle))
            np.testing.assert_array_equal(dst.raw()[dst_off * item:], want)
    finally:
        check(lib.tensor_set_num_threads(threads_before))


def test_contiguous_and_clone_null_arguments():
    out = ctypes.c_void_p(1)
    assert lib.tensor_contiguous(ctypes.byref(out), None) == INVALID and out.value is None
    out = ctypes.c_void_p(1)
    assert lib.tensor_clone(ctypes.byref(out), None) == INVALID and out.value is None
    st = Storage(16)
    t = view(st, 6, [4], [1], 0)
    assert lib.tensor_contiguous(None, t.handle) == INVALID
    assert lib.tensor_clone(None, t.handle) == INVALID
