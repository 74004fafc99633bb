"""The header's per-function rules checked from outside through the C ABI: from_buffer's
rules and release callback, from_storage/as_strided bounds against an exact
computation of the addressed bytes (random strides: negative, zero, huge; big
offsets), overflow, NULL arguments and *out on failure, error messages naming
values, refcounts, and small-shape view edge cases against PyTorch 1.13.

Run: CTENSOR_LIB=build-test/src/libctensor.so /usr/bin/python3 -m pytest tests/differential/test_api_rules.py -q
"""
import ctypes
import random

import numpy as np
import pytest
import torch

from ctensor_ctypes import NUMPY_DTYPES, P, PP, STATUS, Tensor, check, i32, i64, int64_array, lib

OK = STATUS["TENSOR_OK"]
INVALID = STATUS["TENSOR_E_INVALID"]
BOUNDS = STATUS["TENSOR_E_BOUNDS"]
SHAPE = STATUS["TENSOR_E_SHAPE"]
OVERFLOW = STATUS["TENSOR_E_OVERFLOW"]
READONLY = STATUS["TENSOR_E_READONLY"]
INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
ITEM = {0: 1, 1: 1, 2: 2, 3: 4, 4: 8, 5: 2, 6: 4, 7: 8, 9: 8, 10: 16, 11: 1, 15: 2, 27: 2, 28: 4, 29: 8}

RELEASE_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


# Private function objects (lib[...] makes a new one each time), so that other test
# modules in the same process may declare these prototypes differently.
_from_buffer = lib["tensor_from_buffer"]
_from_buffer.restype = i32
_from_buffer.argtypes = [PP, P, ctypes.c_size_t, i32, i64, i64, ctypes.c_uint32, RELEASE_FN, P]


class Releases:
    """A release callback that counts its calls per ctx value."""

    def __init__(self):
        self.calls = []
        self.fn = RELEASE_FN(lambda ctx: self.calls.append(ctx))


def new_storage(nbytes):
    out = ctypes.c_void_p()
    check(lib.tensor_storage_new(ctypes.byref(out), nbytes))
    return out


def failed(status, out):
    """Asserts *out was set to NULL and a message was recorded; returns status."""
    assert out.value is None, "*out not NULL after failure"
    assert lib.tensor_last_error(), "no message"
    return status


# ------------------------------------------------------------------ from_buffer

def from_buffer(buf, nbytes, dtype, count, offset, flags=0, rel=None, ctx=7):
    out = ctypes.c_void_p(1)
    status = _from_buffer(ctypes.byref(out), buf, nbytes, dtype, count, offset, flags,
                                    rel.fn if rel else RELEASE_FN(), ctx)
    if status != OK:
        failed(status, out)
        return status, None
    return status, Tensor(out.value)


def expected_from_buffer(nbytes, itemsize, count, offset):
    if nbytes == 0 or offset < 0 or offset >= nbytes or count == 0:
        return INVALID
    if count < 0:
        return INVALID if (nbytes - offset) % itemsize else OK
    if count * itemsize > INT64_MAX:
        return OVERFLOW
    return INVALID if offset + count * itemsize > nbytes else OK


@pytest.mark.parametrize("seed", range(3))
def test_from_buffer_rules_random(seed):
    rng = random.Random(seed)
    buf = (ctypes.c_uint8 * 128)(*range(128))
    addr = ctypes.addressof(buf)
    for _ in range(1500):
        dtype = rng.choice(list(ITEM))
        item = ITEM[dtype]
        nbytes = rng.choice([0, 1, 2, 3, 7, 8, 16, 33, 64, 128])
        offset = rng.choice([-1, 0, 0, 1, 2, 3, 4, 8, 15, nbytes - 1, nbytes, nbytes + 1, INT64_MIN, INT64_MAX])
        count = rng.choice([-1, -5, INT64_MIN, 0, 1, 2, 3, 4, 16, 64, 2**61, 2**62, INT64_MAX, (nbytes - max(offset, 0)) // item])
        rel = Releases()
        flags = rng.choice([0, 0, 1])
        status, t = from_buffer(addr, nbytes, dtype, count, offset, flags, rel, 7)
        want = expected_from_buffer(nbytes, item, count, offset)
        what = f"nbytes {nbytes} dtype {dtype} count {count} offset {offset}: {lib.tensor_last_error()}"
        assert status == want, what
        if status != OK:
            assert rel.calls == [], what
            continue
        n = count if count > 0 else (nbytes - offset) // item
        assert t.shape == (n,) and t.strides == (1,) and t.offset == 0, what
        assert t.data_ptr == addr + offset, what
        assert lib.tensor_storage_nbytes(lib.tensor_storage(t.handle)) == n * item, what
        assert lib.tensor_is_readonly(t.handle) == flags, what
        if dtype in (0, 1):
            np.testing.assert_array_equal(t.numpy().view(np.uint8), np.arange(offset, offset + n, dtype=np.uint8))
        assert rel.calls == []
        del t
        assert rel.calls == [7], what


def test_from_buffer_other_rejections_never_release():
    buf = (ctypes.c_uint8 * 16)()
    rel = Releases()
    assert from_buffer(None, 16, 6, -1, 0, 0, rel)[0] == INVALID
    for bad_dtype in (8, 12, 16, -1, 30):
        assert from_buffer(ctypes.addressof(buf), 16, bad_dtype, -1, 0, 0, rel)[0] == INVALID
    assert from_buffer(ctypes.addressof(buf), 16, 6, -1, 0, 2, rel)[0] == INVALID
    assert _from_buffer(None, ctypes.addressof(buf), 16, 6, -1, 0, 0, rel.fn, None) == INVALID
    assert rel.calls == []


def test_from_buffer_huge_lengths_overflow():
    """A length beyond int64 (size_t allows it) cannot become an int64 count of bytes."""
    buf = (ctypes.c_uint8 * 16)()
    rel = Releases()
    for nbytes, dtype in ((2**63, 0), (2**63 + 8, 0), (2**64 - 1, 0), (2**64 - 16, 6), (2**64 - 16, 10)):
        status, t = from_buffer(ctypes.addressof(buf), nbytes, dtype, -1, 0, 0, rel)
        assert status == OVERFLOW, (nbytes, dtype, status, t and t.shape)
        assert str(nbytes).encode() in lib.tensor_last_error()
    # a count that fits with a huge buffer is fine
    status, t = from_buffer(ctypes.addressof(buf), 2**64 - 1, 6, 4, 0, 0, rel)
    assert status == OK and t.shape == (4,)
    del t
    assert rel.calls == [7]


def test_from_buffer_messages_name_values():
    buf = (ctypes.c_uint8 * 16)()
    assert from_buffer(ctypes.addressof(buf), 16, 6, 5, 0)[0] == INVALID
    msg = lib.tensor_last_error().decode()
    assert "5" in msg and "16" in msg, msg
    assert from_buffer(ctypes.addressof(buf), 16, 6, -1, 3)[0] == INVALID
    msg = lib.tensor_last_error().decode()
    assert "(13 bytes) after offset (3 bytes)" in msg, msg  # torch names the length after the offset
    assert from_buffer(ctypes.addressof(buf), 16, 6, 2**62, 0)[0] == OVERFLOW


def test_from_buffer_release_runs_once_after_the_last_view():
    buf = (ctypes.c_uint8 * 64)()
    rel = Releases()
    status, t = from_buffer(ctypes.addressof(buf), 64, 6, -1, 0, 0, rel, 42)
    assert status == OK
    out = ctypes.c_void_p()
    check(lib.tensor_view(ctypes.byref(out), t.handle, 2, int64_array([4, 4])))
    v = Tensor(out.value)
    storage = lib.tensor_storage_retain(lib.tensor_storage(t.handle))
    assert lib.tensor_storage_refcount(storage) == 3
    del t
    assert rel.calls == []
    check(lib.tensor_clone(ctypes.byref(out), v.handle))
    c = Tensor(out.value)
    del v
    assert rel.calls == []
    assert lib.tensor_storage_refcount(storage) == 1
    lib.tensor_storage_release(storage)
    assert rel.calls == [42]
    del c
    assert rel.calls == [42]


def test_from_buffer_read_only_refuses_writes():
    buf = (ctypes.c_uint8 * 16)(*range(16))
    status, t = from_buffer(ctypes.addressof(buf), 16, 0, -1, 0, 1)
    assert status == OK and lib.tensor_is_readonly(t.handle) == 1
    assert lib.tensor_fill(t.handle, 3.0) == READONLY
    out = ctypes.c_void_p()
    check(lib.tensor_zeros(ctypes.byref(out), 1, int64_array([16]), 0))
    z = Tensor(out.value)
    assert lib.tensor_copy(t.handle, z.handle) == READONLY
    check(lib.tensor_copy(z.handle, t.handle))
    check(lib.tensor_slice(ctypes.byref(out), t.handle, 0, 2, INT64_MAX, 3))
    s = Tensor(out.value)
    assert lib.tensor_is_readonly(s.handle) == 1
    assert lib.tensor_fill(s.handle, 3.0) == READONLY
    assert bytes(buf) == bytes(range(16))


# ------------------------------------------------------------------ bounds

def exact_bounds_status(nbytes, item, sizes, strides, offset):
    if any(n == 0 for n in sizes):  # no elements, in any order of the sizes
        return OK
    numel = 1
    for n in sizes:
        numel *= n
    lo = offset + sum((n - 1) * s for n, s in zip(sizes, strides) if s < 0)
    hi = offset + sum((n - 1) * s for n, s in zip(sizes, strides) if s > 0)
    # overflow-checked as the header says: numel, each span, the sums of negative and of
    # positive spans, offset + those sums, and the byte offsets
    spans = [(n - 1) * s for n, s in zip(sizes, strides)]
    neg, pos = lo - offset, hi - offset
    fits = lambda v: INT64_MIN <= v <= INT64_MAX
    if numel > INT64_MAX or not all(map(fits, spans + [neg, pos, lo, hi + 1, (hi + 1) * item, lo * item])):
        return OVERFLOW
    if lo < 0 or (hi + 1) * item > nbytes:
        return BOUNDS
    return OK


@pytest.mark.parametrize("seed", range(3))
def test_from_storage_bounds_exact(seed):
    rng = random.Random(50 + seed)
    storages = {n: new_storage(n) for n in (0, 1, 7, 64, 1000)}
    for _ in range(3000):
        nbytes = rng.choice(list(storages))
        dtype = rng.choice(list(ITEM))
        item = ITEM[dtype]
        ndim = rng.randint(0, 4)
        sizes = [rng.choice([0, 1, 1, 2, 3, 5, 10, 2**31, 2**40]) if rng.random() < 0.2 else rng.randint(1, 6)
                 for _ in range(ndim)]
        strides = [rng.choice([0, 1, -1, 2, -7, 100, -100, 2**32, -2**32, 2**61, INT64_MAX, INT64_MIN, -INT64_MAX])
                   if rng.random() < 0.3 else rng.randint(-20, 20) for _ in range(ndim)]
        offset = rng.choice([0, 1, 5, 50, 999, -1, -5, 2**40, 2**62, INT64_MAX, INT64_MIN, rng.randint(0, 200)])
        out = ctypes.c_void_p(1)
        status = lib.tensor_from_storage(ctypes.byref(out), storages[nbytes], dtype, ndim, int64_array(sizes),
                                         int64_array(strides), offset)
        want = exact_bounds_status(nbytes, item, sizes, strides, offset)
        what = f"nbytes {nbytes} item {item} sizes {sizes} strides {strides} offset {offset}: {lib.tensor_last_error()}"
        assert status == want, what
        if status != OK:
            assert out.value is None
            continue
        t = Tensor(out.value)
        assert t.shape == tuple(sizes) and t.strides == tuple(strides) and t.offset == offset, what
        # as_strided from any tensor on the same storage gives the same answer
        base = Tensor(None)
        out2 = ctypes.c_void_p(1)
        status2 = lib.tensor_as_strided(ctypes.byref(out2), t.handle, ndim, int64_array(sizes), int64_array(strides), offset)
        assert status2 == OK, what
        Tensor(out2.value)
        del base
    for s in storages.values():
        lib.tensor_storage_release(s)


@pytest.mark.parametrize("seed", range(2))
def test_from_blob_views_numpy_strided_arrays_exactly(seed):
    # Random NumPy views (negative, zero and large strides) of a buffer: from_blob on
    # the view's address and element strides reads NumPy's elements, and its storage
    # is exactly the bytes the view addresses, computed here independently.
    rng = np.random.default_rng(70 + seed)
    for _ in range(400):
        np_dtype = np.dtype(rng.choice([np.uint8, np.int16, np.float32, np.float64, np.complex128]))
        code = next(d for d, t in NUMPY_DTYPES.items() if t is not None and np.dtype(t) == np_dtype)
        item = np_dtype.itemsize
        base = (rng.integers(0, 100, 600) + 0.5).astype(np_dtype)
        ndim = int(rng.integers(0, 4))
        sizes = [int(rng.choice([0, 1, 2, 3, 4])) for _ in range(ndim)]
        strides = [int(rng.integers(-6, 7)) for _ in range(ndim)]
        lo = sum((n - 1) * s for n, s in zip(sizes, strides) if s < 0 and n > 0)
        hi = sum((n - 1) * s for n, s in zip(sizes, strides) if s > 0 and n > 0)
        first = int(rng.integers(-lo, 600 - hi))
        view = np.lib.stride_tricks.as_strided(base[first:], shape=sizes, strides=[s * item for s in strides])
        out = ctypes.c_void_p(1)
        check(lib.tensor_from_blob(ctypes.byref(out), view.ctypes.data, code, ndim, int64_array(sizes),
                                   int64_array(strides), 0, None, None))
        t = Tensor(out.value)
        what = f"sizes {sizes} strides {strides}"
        assert t.data_ptr == view.ctypes.data and t.shape == tuple(sizes) and t.strides == tuple(strides), what
        storage = lib.tensor_storage(t.handle)
        empty = 0 in sizes
        assert lib.tensor_storage_nbytes(storage) == (0 if empty else (hi - lo + 1) * item), what
        if not empty:
            assert lib.tensor_storage_data(storage) == base[first:].ctypes.data + lo * item, what
        copy = ctypes.c_void_p()
        check(lib.tensor_contiguous(ctypes.byref(copy), t.handle))
        contiguous = Tensor(copy.value)  # held while its elements are read
        np.testing.assert_array_equal(contiguous.numpy(), view, err_msg=what)


def test_as_strided_agrees_with_torch_where_torch_accepts():
    rng = random.Random(9)
    base = torch.arange(60, dtype=torch.float32)
    out = ctypes.c_void_p()
    arr = base.numpy()
    check(lib.tensor_from_data(ctypes.byref(out), arr.ctypes.data_as(P), 1, int64_array([60]), 6))
    ct = Tensor(out.value)
    for _ in range(1500):
        ndim = rng.randint(0, 4)
        sizes = [rng.randint(0, 5) for _ in range(ndim)]
        strides = [rng.randint(0, 12) for _ in range(ndim)]
        offset = rng.randint(0, 70)
        try:
            tt = torch.as_strided(base, sizes, strides, offset)
            terr = None
        except RuntimeError as e:
            terr = e
        out = ctypes.c_void_p(1)
        status = lib.tensor_as_strided(ctypes.byref(out), ct.handle, ndim, int64_array(sizes), int64_array(strides), offset)
        what = f"{sizes} {strides} {offset}"
        if terr is not None:
            # torch also refuses an empty view past the end; ctensor: a view with no elements always succeeds
            assert status == (OK if 0 in sizes else BOUNDS), what
            continue
        assert status == OK, what
        t = Tensor(out.value)
        assert t.shape == tuple(tt.shape) and t.strides == tuple(tt.stride()) and t.offset == tt.storage_offset()
        assert t.is_contiguous() == tt.is_contiguous(), what
        if tt.numel():
            np.testing.assert_array_equal(t.numpy(), tt.numpy())


def test_bounds_message_names_the_byte_range():
    s = new_storage(4096)
    out = ctypes.c_void_p(1)
    assert lib.tensor_from_storage(ctypes.byref(out), s, 6, 1, int64_array([1025]), None, 0) == BOUNDS
    msg = lib.tensor_last_error().decode()
    assert "[0, 4100)" in msg and "4096" in msg, msg
    lib.tensor_storage_release(s)


# ------------------------------------------------------------------ NULL arguments, *out

def test_null_arguments_of_every_function():
    s = new_storage(64)
    out = ctypes.c_void_p()
    check(lib.tensor_from_storage(ctypes.byref(out), s, 6, 2, int64_array([4, 4]), None, 0))
    t = Tensor(out.value)
    d2 = int64_array([4, 4])
    calls = {
        "from_storage": lambda o, x: lib.tensor_from_storage(o, s if x else None, 6, 2, d2, None, 0),
        "as_strided": lambda o, x: lib.tensor_as_strided(o, x, 2, d2, None, 0),
        "view": lambda o, x: lib.tensor_view(o, x, 2, d2),
        "reshape": lambda o, x: lib.tensor_reshape(o, x, 2, d2),
        "transpose": lambda o, x: lib.tensor_transpose(o, x, 0, 1),
        "permute": lambda o, x: lib.tensor_permute(o, x, 2, int64_array([1, 0])),
        "slice": lambda o, x: lib.tensor_slice(o, x, 0, 0, 2, 1),
        "select": lambda o, x: lib.tensor_select(o, x, 0, 0),
        "narrow": lambda o, x: lib.tensor_narrow(o, x, 0, 0, 2),
        "expand": lambda o, x: lib.tensor_expand(o, x, 2, d2),
        "broadcast_to": lambda o, x: lib.tensor_broadcast_to(o, x, 2, d2),
        "squeeze": lambda o, x: lib.tensor_squeeze(o, x, 0),
        "unsqueeze": lambda o, x: lib.tensor_unsqueeze(o, x, 0),
        "flatten": lambda o, x: lib.tensor_flatten(o, x, 0, -1),
        "view_dtype": lambda o, x: lib.tensor_view_dtype(o, x, 3),
        "contiguous": lambda o, x: lib.tensor_contiguous(o, x),
        "clone": lambda o, x: lib.tensor_clone(o, x),
        "to": lambda o, x: lib.tensor_to(o, x, 7, 0),
    }
    for name, fn in calls.items():
        out = ctypes.c_void_p(1)
        assert fn(ctypes.byref(out), None) == INVALID, name
        assert out.value is None, name
        assert "NULL" in lib.tensor_last_error().decode(), name
        assert fn(None, t.handle) == INVALID, name
        out = ctypes.c_void_p(1)
        status = fn(ctypes.byref(out), t.handle)
        assert status == OK, (name, lib.tensor_last_error())
        lib.tensor_release(out)
    # NULL sizes / dims with ndim > 0
    for name, fn in {
        "from_storage": lambda o: lib.tensor_from_storage(o, s, 6, 2, None, None, 0),
        "as_strided": lambda o: lib.tensor_as_strided(o, t.handle, 2, None, None, 0),
        "view": lambda o: lib.tensor_view(o, t.handle, 2, None),
        "reshape": lambda o: lib.tensor_reshape(o, t.handle, 2, None),
        "permute": lambda o: lib.tensor_permute(o, t.handle, 2, None),
        "expand": lambda o: lib.tensor_expand(o, t.handle, 2, None),
        "broadcast_to": lambda o: lib.tensor_broadcast_to(o, t.handle, 2, None),
        "empty": lambda o: lib.tensor_empty(o, 2, None, 6),
        "zeros": lambda o: lib.tensor_zeros(o, 2, None, 6),
        "from_data": lambda o: lib.tensor_from_data(o, None, 2, None, 6),
        "from_data_null_data": lambda o: lib.tensor_from_data(o, None, 2, d2, 6),
    }.items():
        out = ctypes.c_void_p(1)
        assert fn(ctypes.byref(out)) == INVALID, name
        assert out.value is None, name
    # 0-dim with NULL sizes is fine
    out = ctypes.c_void_p(1)
    check(lib.tensor_from_storage(ctypes.byref(out), s, 6, 0, None, None, 3))
    z = Tensor(out.value)
    assert z.shape == () and z.offset == 3
    assert lib.tensor_fill(None, 0.0) == INVALID
    assert lib.tensor_copy(None, None) == INVALID
    assert lib.tensor_ndim(None) == 0 and lib.tensor_numel(None) == 0 and lib.tensor_refcount(None) == 0
    lib.tensor_release(None)
    lib.tensor_storage_release(None)
    assert lib.tensor_retain(None) is None and lib.tensor_storage_retain(None) is None
    lib.tensor_storage_release(s)


def test_successful_call_keeps_the_last_error():
    out = ctypes.c_void_p(1)
    assert lib.tensor_empty(ctypes.byref(out), -1, None, 6) == INVALID
    msg = lib.tensor_last_error()
    check(lib.tensor_zeros(ctypes.byref(out), 1, int64_array([3]), 6))
    Tensor(out.value)
    assert lib.tensor_last_error() == msg


def test_names_and_sizes():
    assert lib.tensor_status_name(0) == b"TENSOR_OK"
    assert lib.tensor_status_name(14) == b"TENSOR_E_UNSUPPORTED"
    assert lib.tensor_status_name(15) == b"TENSOR_E_INTERNAL"
    assert lib.tensor_status_name(16) == b"TENSOR_E_CANCELLED"
    for bad in (-1, 17, 100):
        assert lib.tensor_status_name(bad) is None
    for k, v in STATUS.items():
        assert lib.tensor_status_name(v) == k.encode()
    for d, size in ITEM.items():
        assert lib.tensor_dtype_size(d) == size
    for bad in (8, 12, 13, 14, 16, 26, 30, -1):
        assert lib.tensor_dtype_size(bad) == 0 and lib.tensor_dtype_name(bad) is None
    assert lib.tensor_dtype_name(15) == b"bfloat16" and lib.tensor_dtype_name(11) == b"bool"
    assert lib.tensor_dtype_name(27) == b"uint16" and lib.tensor_dtype_name(9) == b"complex64"


def test_dtype_kind_and_signedness_match_torch_and_numpy():
    # torch 1.13 has no uint16/32/64: NumPy's dtype of the same name is the oracle there.
    for d in ITEM:
        name = lib.tensor_dtype_name(d).decode()
        kind, signed = lib.tensor_dtype_kind(d), lib.tensor_dtype_is_signed(d)
        if hasattr(torch, name):
            t = getattr(torch, name)
            want = 0 if t == torch.bool else 3 if t.is_complex else 2 if t.is_floating_point else 1
            assert (kind, signed) == (want, int(t.is_signed)), name
        else:
            n = np.dtype(name)
            assert n.kind == "u" and (kind, signed) == (1, 0), name
    for bad in (8, 12, 13, 14, 16, 26, 30, -1, 2**31 - 1):
        assert lib.tensor_dtype_kind(bad) == -1 and lib.tensor_dtype_is_signed(bad) == 0


# ------------------------------------------------------------------ refcounts

def test_storage_refcount_counts_tensors_and_external_refs():
    s = new_storage(64)
    assert lib.tensor_storage_refcount(s) == 1
    out = ctypes.c_void_p()
    check(lib.tensor_from_storage(ctypes.byref(out), s, 6, 1, int64_array([16]), None, 0))
    t = Tensor(out.value)
    assert lib.tensor_storage_refcount(s) == 2
    views = []
    for fn in (lambda o: lib.tensor_view(o, t.handle, 2, int64_array([4, 4])),
               lambda o: lib.tensor_slice(o, t.handle, 0, 1, 9, 2),
               lambda o: lib.tensor_unsqueeze(o, t.handle, 0),
               lambda o: lib.tensor_view_dtype(o, t.handle, 3),
               lambda o: lib.tensor_to(o, t.handle, 6, 1)):
        check(fn(ctypes.byref(out)))
        views.append(Tensor(out.value))
    assert lib.tensor_storage_refcount(s) == 6  # the copy from tensor_to has its own storage
    check(lib.tensor_contiguous(ctypes.byref(out), t.handle))
    assert out.value == t.handle.value and lib.tensor_refcount(t.handle) == 2
    assert lib.tensor_storage_refcount(s) == 6
    lib.tensor_release(out)
    failed_out = ctypes.c_void_p(1)
    assert lib.tensor_view(ctypes.byref(failed_out), t.handle, 1, int64_array([5])) == SHAPE
    assert lib.tensor_storage_refcount(s) == 6 and lib.tensor_refcount(t.handle) == 1
    del views
    assert lib.tensor_storage_refcount(s) == 2
    del t
    assert lib.tensor_storage_refcount(s) == 1
    lib.tensor_storage_release(s)


# ------------------------------------------------------------------ contiguous strides of huge empty shapes

@pytest.mark.parametrize("seed", range(2))
def test_contiguous_strides_of_empty_huge_shapes_match_torch(seed):
    """torch.empty's strides wrap (int64) for shapes with a 0 that torch accepts."""
    rng = random.Random(700 + seed)
    s = new_storage(0)
    for _ in range(300):
        sizes = [rng.choice([0, 1, 2, 3, 2**20, 2**31, 2**40, 2**62]) for _ in range(rng.randint(1, 5))]
        if 0 not in sizes:
            sizes[rng.randrange(len(sizes))] = 0
        expected, acc = [0] * len(sizes), 1
        for i in reversed(range(len(sizes))):
            expected[i] = (acc + 2**63) % 2**64 - 2**63
            acc *= max(sizes[i], 1)
        try:
            t = torch.empty(sizes, dtype=torch.uint8)
            # torch 1.13 reads strides far below 0 as symbolic ints (stride() shows
            # INT64_MIN as None, crashes on others): compare with the formula there
            want = tuple(t.stride()) if min(expected) > -2**61 else tuple(expected)
        except RuntimeError:
            # torch refuses where its running product overflows; ctensor's element
            # count does not depend on the order of the sizes: the strides wrap
            want = tuple(expected)
        for name, fn in (("empty", lambda o: lib.tensor_empty(o, len(sizes), int64_array(sizes), 0)),
                         ("zeros", lambda o: lib.tensor_zeros(o, len(sizes), int64_array(sizes), 0)),
                         ("from_storage", lambda o: lib.tensor_from_storage(o, s, 0, len(sizes), int64_array(sizes), None, 0))):
            out = ctypes.c_void_p(1)
            status = fn(ctypes.byref(out))
            what = f"{name} {sizes}: torch {want}, ctensor {lib.tensor_last_error()}"
            assert status == OK, what
            t = Tensor(out.value)
            assert t.strides == tuple(want), f"{what}: {t.strides}"
            assert t.is_contiguous(), what
    lib.tensor_storage_release(s)


@pytest.mark.parametrize("seed", range(2))
def test_views_with_huge_empty_shapes_match_torch(seed):
    """as_strided / view / reshape / expand to shapes with a 0 whose running product
    overflows somewhere: torch's numel is an unsigned 64-bit product that must not
    overflow (else "numel: integer multiplication overflow"); ctensor's element count
    does not depend on the order of the sizes, so every such shape has 0 elements and
    gives torch's sizes and strides."""
    rng = random.Random(800 + seed)
    s = new_storage(0)
    out = ctypes.c_void_p()
    check(lib.tensor_from_storage(ctypes.byref(out), s, 6, 1, int64_array([0]), None, 0))
    ct = Tensor(out.value)
    tt = torch.empty(0)
    for _ in range(400):
        sizes = [rng.choice([0, 1, 2, 3, 4, 5, 2**31, 2**40, 2**62, 2**62 + 1, 2**63 - 1]) for _ in range(rng.randint(1, 4))]
        if 0 not in sizes:
            sizes[rng.randrange(len(sizes))] = 0
        strides = [rng.choice([0, 1, 2, -1, 2**40]) for _ in sizes]
        n = len(sizes)
        ones = [1] * (n - 1) + [0]
        check(lib.tensor_from_storage(ctypes.byref(out), s, 6, n, int64_array(ones), None, 0))
        c_one = Tensor(out.value)
        t_one = torch.empty(ones)
        cases = (
            ("as_strided", lambda o: lib.tensor_as_strided(o, ct.handle, n, int64_array(sizes), int64_array(strides), 0),
             lambda: torch.as_strided(tt, sizes, [abs(x) for x in strides], 0)),
            ("view", lambda o: lib.tensor_view(o, ct.handle, n, int64_array(sizes)), lambda: tt.view(sizes)),
            ("reshape", lambda o: lib.tensor_reshape(o, ct.handle, n, int64_array(sizes)), lambda: tt.reshape(sizes)),
            ("expand", lambda o: lib.tensor_expand(o, c_one.handle, n, int64_array(sizes)), lambda: t_one.expand(sizes)),
        )
        for name, cfn, tfn in cases:
            try:
                want = tfn()
                terr = None
            except RuntimeError as e:
                want, terr = None, str(e)
            out = ctypes.c_void_p(1)
            status = cfn(ctypes.byref(out))
            what = f"{name} {sizes} {strides}: torch {terr}, ctensor {status} {lib.tensor_last_error()}"
            if terr is not None and "is_symbolic" in terr:
                continue  # torch 1.13 takes a stride of INT64_MIN for a symbolic int and gives up
            if terr is not None and "overflow" not in terr:
                assert status != OK, what
                continue
            assert status == OK, what
            r = Tensor(out.value)
            assert r.shape == tuple(sizes), what
            assert lib.tensor_numel(r.handle) == 0, what
            if name in ("view", "reshape"):
                expected, acc = [0] * n, 1
                for i in reversed(range(n)):
                    expected[i] = (acc + 2**63) % 2**64 - 2**63
                    acc *= max(sizes[i], 1)
                if sizes == [0]:
                    expected = [1]
                assert r.strides == tuple(expected), f"{what}: {r.strides} vs {expected}"
                if min(expected) < -2**61:
                    continue  # torch 1.13 reads such strides as symbolic ints and crashes
            if name != "as_strided" and want is not None:
                got = tuple(INT64_MIN if x is None else x for x in want.stride())
                assert r.strides == got, f"{what}: {r.strides} vs {got}"
    lib.tensor_storage_release(s)


# ------------------------------------------------------------------ small-shape views against torch

def ct_tensor(shape):
    out = ctypes.c_void_p()
    a = np.arange(int(np.prod(shape)) if shape else 1, dtype=np.float32).reshape(shape)
    check(lib.tensor_from_data(ctypes.byref(out), a.ctypes.data_as(P), len(shape), int64_array(shape), 6))
    return Tensor(out.value), torch.empty(shape).copy_(torch.from_numpy(a))


SHAPES = [[], [0], [1], [0, 1], [1, 0], [1, 1], [2, 0, 1], [1, 3, 1], [3], [2, 1, 0, 1]]


def compare(name, args, fn, tfn, shape):
    ct, tt = ct_tensor(shape)
    try:
        want = tfn(tt)
        terr = None
    except (RuntimeError, IndexError) as e:
        terr = e
    out = ctypes.c_void_p(1)
    status = fn(ctypes.byref(out), ct.handle)
    what = f"{name}{args} of {shape}: torch {terr} / ctensor {lib.tensor_last_error()}"
    if terr is not None:
        assert status != OK, what
        assert out.value is None
        return status
    assert status == OK, what
    r = Tensor(out.value)
    assert r.shape == tuple(want.shape), what
    assert r.strides == tuple(want.stride()), what
    assert r.offset == want.storage_offset(), what
    assert r.is_contiguous() == want.is_contiguous(), what
    return status


def test_squeeze_unsqueeze_flatten_expand_edge_cases():
    for shape in SHAPES:
        n = len(shape)
        for dim in range(-n - 2, n + 2):
            st = compare("squeeze", (dim,), lambda o, x: lib.tensor_squeeze(o, x, dim), lambda t: t.squeeze(dim), shape)
            assert st in (OK, INVALID)
            st = compare("unsqueeze", (dim,), lambda o, x: lib.tensor_unsqueeze(o, x, dim), lambda t: t.unsqueeze(dim), shape)
            assert st in (OK, INVALID)
        compare("squeeze", ("all",), lambda o, x: lib.tensor_squeeze(o, x, INT64_MIN), lambda t: t.squeeze(), shape)
        for a in range(-n - 1, n + 1):
            for b in range(-n - 1, n + 1):
                compare("flatten", (a, b), lambda o, x: lib.tensor_flatten(o, x, a, b), lambda t: t.flatten(a, b), shape)
                compare("transpose", (a, b), lambda o, x: lib.tensor_transpose(o, x, a, b), lambda t: t.transpose(a, b), shape)
        for target in ([], [0], [1], [2], [3, 0], [2, 1], [-1], [2, -1], [0, 1, 0], [3, 2, 1, 0, 1], [1, 1, 1, 1],
                       [4, 2, 0, 1], [4, 2, 3, 1], [2, 1, 3, 1], [-1, -1, -1, -1]):
            st = compare("expand", (target,), lambda o, x: lib.tensor_expand(o, x, len(target), int64_array(target)),
                         lambda t: t.expand(target), shape)
            assert st in (OK, SHAPE, INVALID), st


if __name__ == "__main__":
    import sys
    sys.exit(pytest.main([__file__, "-q"]))


# ------------------------------------------------------------------ extreme arguments

EXTREMES = [0, 1, 2, -1, -2, 3, 7, 2**31, -2**31, 2**32, 2**62, -2**62, 2**63 - 1, -2**63, -2**63 + 1, 2**62 + 1]


def test_extreme_arguments_give_a_status_and_never_crash():
    """Every view/copy function with extreme integers: a known status, *out NULL on
    failure, and a result whose inspection works (run under ASan/UBSan too)."""
    rng = random.Random(11)
    s = new_storage(256)
    bases = []
    out = ctypes.c_void_p()
    for sizes, strides, off in (([4, 4], [4, 1], 0), ([0, 3], [2**62, -2**62], 2**62), ([], [], 9),
                                ([3, 1, 2], [-2, 2**63 - 1, 5], 30), ([2, 0, 2], [1, 1, 1], -2**63)):
        check(lib.tensor_from_storage(ctypes.byref(out), s, rng.choice([0, 6, 10]), len(sizes), int64_array(sizes),
                                      int64_array(strides), off))
        bases.append(Tensor(out.value))
    x = lambda: rng.choice(EXTREMES)
    ops = [
        lambda o, t: lib.tensor_transpose(o, t, x(), x()),
        lambda o, t: lib.tensor_slice(o, t, rng.choice([0, -1, x()]), x(), x(), x()),
        lambda o, t: lib.tensor_select(o, t, rng.choice([0, -1, x()]), x()),
        lambda o, t: lib.tensor_narrow(o, t, rng.choice([0, -1, x()]), x(), x()),
        lambda o, t: lib.tensor_squeeze(o, t, x()),
        lambda o, t: lib.tensor_unsqueeze(o, t, x()),
        lambda o, t: lib.tensor_flatten(o, t, x(), x()),
        lambda o, t: lib.tensor_view_dtype(o, t, rng.choice([0, 3, 7, 10, 15, 29, 8, -1, 2**31 - 1])),
        lambda o, t: lib.tensor_to(o, t, rng.choice([0, 3, 7, 10, 15, 29, 8]), rng.choice([0, 1, 2, 3, -1])),
        lambda o, t: lib.tensor_contiguous(o, t),
        lambda o, t: lib.tensor_clone(o, t),
    ]
    shaped = [lib.tensor_view, lib.tensor_reshape, lib.tensor_expand, lib.tensor_broadcast_to, lib.tensor_permute]
    for _ in range(3000):
        t = rng.choice(bases)
        out = ctypes.c_void_p(1)
        if rng.random() < 0.3:
            n = rng.randint(0, 4)
            vals = [rng.choice(EXTREMES + [4, 0, 1, -1]) for _ in range(n)]
            status = rng.choice(shaped)(ctypes.byref(out), t.handle, n, int64_array(vals))
        elif rng.random() < 0.2:
            n = rng.randint(0, 3)
            status = lib.tensor_as_strided(ctypes.byref(out), t.handle, n, int64_array([rng.choice(EXTREMES) for _ in range(n)]),
                                           int64_array([x() for _ in range(n)]), x())
        else:
            status = rng.choice(ops)(ctypes.byref(out), t.handle)
        assert 0 <= status <= 14
        if status != OK:
            assert out.value is None
            continue
        r = Tensor(out.value)
        r.shape, r.strides, r.offset, r.data_ptr, r.is_contiguous()
        lib.tensor_numel(r.handle)
        if lib.tensor_numel(r.handle) <= 64:
            lib.tensor_fill(r.handle, 1.0)
        if len(bases) < 40 and rng.random() < 0.3:
            bases.append(r)
    del bases
    lib.tensor_storage_release(s)
