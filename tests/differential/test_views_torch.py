"""Differential tests of the view operations against PyTorch 1.13 and NumPy.

Random tensors go through random chains of views, applied both to a ctensor
tensor and to a torch tensor holding the same values; after every step the
sizes, strides, storage offset, contiguity, storage sharing and values must
agree, and an op must fail in ctensor exactly when it fails in torch, with the
status that torch's error maps to. Negative slice steps (which torch refuses)
are checked against NumPy. Fixed seeds keep every run identical.

Run: CTENSOR_LIB=build-test/src/libctensor.so /usr/bin/python3 -m pytest tests/differential/test_views_torch.py -q
"""
import ctypes
import random
import sys

import numpy as np
import pytest
import torch

from ctensor_ctypes import P, STATUS, Tensor, check, int64_array, lib

INT64_MAX = 2**63 - 1
INT64_MIN = -(2**63)
OK = STATUS["TENSOR_OK"]
INVALID = STATUS["TENSOR_E_INVALID"]
BOUNDS = STATUS["TENSOR_E_BOUNDS"]
SHAPE = STATUS["TENSOR_E_SHAPE"]
STRIDE = STATUS["TENSOR_E_STRIDE"]
OVERFLOW = STATUS["TENSOR_E_OVERFLOW"]


# ctensor dtype value -> torch dtype, for the dtypes both libraries and NumPy have.
TORCH_DTYPES = {
    0: torch.uint8, 1: torch.int8, 2: torch.int16, 3: torch.int32, 4: torch.int64,
    5: torch.float16, 6: torch.float32, 7: torch.float64, 9: torch.complex64,
    10: torch.complex128, 11: torch.bool,
}
NP_DTYPES = {k: torch.empty(0, dtype=v).numpy().dtype for k, v in TORCH_DTYPES.items()}


def call(name, t, *args):
    """Calls a view function; returns (status, Tensor or None) and checks *out on failure."""
    out = ctypes.c_void_p(1)  # must be overwritten with NULL on failure
    status = getattr(lib, name)(ctypes.byref(out), t.handle, *args)
    if status != OK:
        assert out.value is None, f"{name} failed with {status} but left *out set"
        assert lib.tensor_last_error(), f"{name} failed with {status} but left no message"
        return status, None
    return status, Tensor(out.value)


def dims(values):
    values = list(values)
    return len(values), int64_array(values)


def make_pair(rng, dtype, shape):
    """A ctensor tensor and a torch tensor with the same distinct values."""
    n = int(np.prod(shape)) if shape else 1
    if dtype == 11:
        array = np.array([rng.random() < 0.5 for _ in range(n)], dtype=np.bool_)
    else:
        array = (np.arange(n) % 200 + 1).astype(NP_DTYPES[dtype])
    array = array.reshape(shape)
    # torch.empty: PyTorch's own contiguous strides (from_numpy keeps NumPy's for empty arrays)
    return ct_from_numpy(array, dtype), torch.empty(shape, dtype=TORCH_DTYPES[dtype]).copy_(torch.from_numpy(array))


def ct_from_numpy(array, dtype):
    """A ctensor copy of `array`, 0-dim kept (np.ascontiguousarray makes 0-dim 1-dim)."""
    array = np.require(array, requirements="C")
    out = ctypes.c_void_p()
    check(lib.tensor_from_data(ctypes.byref(out), array.ctypes.data_as(P), array.ndim,
                               int64_array(array.shape), dtype))
    return Tensor(out.value)


def storage_ptr(t):
    return lib.tensor_storage(t.handle)


def wrap64(value):
    return (value + 2**63) % 2**64 - 2**63


def values(t):
    """t's elements as a NumPy array read through t's layout (NumPy checks that it stays
    inside the storage). Size-1 dims get stride 0 so that the huge strides PyTorch
    allows there stay representable in bytes."""
    np_dtype = NP_DTYPES[t.dtype]
    if 0 in t.shape:
        return np.empty(t.shape, np_dtype)
    storage = lib.tensor_storage(t.handle)
    nbytes = lib.tensor_storage_nbytes(storage)
    raw = (ctypes.c_uint8 * nbytes).from_address(lib.tensor_storage_data(storage))
    item = np_dtype.itemsize
    strides = tuple(0 if n == 1 else s * item for n, s in zip(t.shape, t.strides))
    return np.ndarray(t.shape, np_dtype, buffer=raw, offset=t.offset * item, strides=strides)


def assert_same(ct, tt, what):
    assert ct.shape == tuple(tt.shape), what
    assert ct.strides == tuple(tt.stride()), f"{what}: {ct.strides} vs {tuple(tt.stride())} dtype {tt.dtype}"
    assert ct.offset == tt.storage_offset(), what
    assert ct.is_contiguous() == tt.is_contiguous(), what
    np.testing.assert_array_equal(values(ct), tt.numpy(), err_msg=what)


def torch_status(fn):
    """(result, None) or (None, exception) for a torch call."""
    try:
        return fn(), None
    except (RuntimeError, IndexError, ValueError) as e:
        return None, e


# --- expected statuses: torch's error (plus the documented argument order) -> status

def expected_view_status(err, sizes):
    if any(s < -1 for s in sizes):
        return INVALID  # checked before any -1 rule
    msg = str(err)
    if "not compatible with input tensor's size and stride" in msg:
        return STRIDE
    if "integer multiplication overflow" in msg:
        return OVERFLOW
    assert ("only one dimension" in msg or "is invalid for input of size" in msg
            or "ambiguous" in msg), msg
    return SHAPE


def expected_expand_status(err, sizes):
    msg = str(err)
    assert ("must match the existing size" in msg or "leading, non-existing" in msg
            or "greater or equal to the number of dimensions" in msg
            or "integer multiplication overflow" in msg), msg  # the last: -1 on a 0-dim tensor
    return SHAPE


def expected_narrow_status(err, t, dim, start, length):
    msg = str(err)
    if "0-dim" in msg:
        return INVALID
    if "Dimension out of range" in msg:
        n = t.dim()
        return BOUNDS if -n <= dim < n else INVALID  # torch reports a bad start as a bad dim
    assert "exceeds dimension size" in msg, msg
    return INVALID if length < 0 else BOUNDS


def expected_dtype_status(err):
    msg = str(err)
    if "cannot be 0" in msg or "size(-1) must be divisible" in msg:
        return SHAPE
    assert "stride" in msg or "storage_offset" in msg, msg
    return STRIDE


def expected_generic_status(err):
    msg = str(err)
    if "select(): index" in msg:
        return BOUNDS
    assert ("Dimension out of range" in msg or "0-dim" in msg or "duplicate dims" in msg
            or "does not match the length" in msg or "start_dim cannot come after end_dim" in msg
            or "slice step must be positive" in msg), msg
    return INVALID


# --- random arguments, mostly valid, sometimes not

def rand_dim(rng, ndim, extra=1):
    lo, hi = -max(ndim, 1) - extra, max(ndim, 1) - 1 + extra
    return rng.randint(lo, hi)


def rand_shape_for(rng, numel, ndim_hint):
    """A shape with `numel` elements (usually), maybe with -1 or a bad size."""
    shape = []
    remaining = numel
    for _ in range(rng.randint(0, 4)):
        divisors = [d for d in range(1, 7) if remaining and remaining % d == 0] or [0, 1]
        d = rng.choice(divisors)
        shape.append(d)
        remaining = remaining // d if d else 0
    if remaining != 1 or rng.random() < 0.3:
        shape.append(remaining)
    rng.shuffle(shape)
    r = rng.random()
    if shape and r < 0.3:
        shape[rng.randrange(len(shape))] = -1
    elif r < 0.38:
        shape.append(rng.choice([2, 3, -1, -2]))
    elif shape and r < 0.42:
        shape[rng.randrange(len(shape))] = -1
        shape.append(-1)
    return shape


def rand_op(rng, tt):
    """(description, ctensor call args, torch thunk, status oracle) for a random view op.

    The oracle maps torch's exception to the expected status, or is the status itself
    where ctensor documents a different answer."""
    n = tt.dim()
    kind = rng.choice(["view", "reshape", "transpose", "permute", "slice", "select", "narrow",
                       "expand", "broadcast_to", "squeeze", "unsqueeze", "flatten", "view_dtype"])
    if kind in ("view", "reshape"):
        sizes = rand_shape_for(rng, tt.numel(), n)
        fn = tt.view if kind == "view" else tt.reshape
        return (kind, sizes), ("tensor_" + kind, *dims(sizes)), lambda: fn(sizes), \
            lambda e: expected_view_status(e, sizes)
    if kind == "transpose":
        a, b = rand_dim(rng, n), rand_dim(rng, n)
        return (kind, a, b), ("tensor_transpose", a, b), lambda: tt.transpose(a, b), expected_generic_status
    if kind == "permute":
        order = list(range(n))
        rng.shuffle(order)
        order = [d - n if rng.random() < 0.3 else d for d in order]
        r = rng.random()
        if r < 0.08:
            order.append(0)
        elif r < 0.16 and order:
            order[0] = order[-1]
        elif r < 0.2 and order:
            order[0] = n + 1
        return (kind, order), ("tensor_permute", *dims(order)), lambda: tt.permute(order), \
            expected_generic_status
    if kind == "slice":
        d = rand_dim(rng, n, 0 if rng.random() < 0.9 else 1)
        size = tt.shape[d] if -n <= d < n and n else 3
        bound = lambda: rng.choice([rng.randint(-size - 2, size + 2), INT64_MAX, INT64_MIN, None])
        start, stop = bound(), bound()
        step = rng.choice([1, 1, 1, 2, 3, 5, 0]) if rng.random() < 0.97 else INT64_MAX
        start = 0 if start is None else start
        stop = INT64_MAX if stop is None else stop
        # torch's Python-int conversion refuses INT64_MIN; any bound below -size clamps alike.
        ts, te = (max(v, -2**62) for v in (start, stop))
        # torch overflows on huge steps: (length + step - 1) / step gives a negative
        # size and stride * step wraps, which it then refuses; ctensor gives Python's answer
        oracle = expected_generic_status
        if step == INT64_MAX:
            oracle = lambda e: OK if ("Negative strides are not supported" in str(e)
                                      or "Storage size calculation overflowed" in str(e)
                                      or "numel: integer multiplication overflow" in str(e)) \
                else expected_generic_status(e)
        return (kind, d, start, stop, step), ("tensor_slice", d, start, stop, step), \
            lambda: torch.ops.aten.slice(tt, d, ts, te, step), oracle
    if kind == "select":
        d = rand_dim(rng, n)
        size = tt.shape[d] if -n <= d < n and n else 2
        i = rng.randint(-size - 1, size)
        return (kind, d, i), ("tensor_select", d, i), lambda: tt.select(d, i), expected_generic_status
    if kind == "narrow":
        d = rand_dim(rng, n)
        size = tt.shape[d] if -n <= d < n and n else 2
        start = rng.randint(-size - 1, size + 1)
        length = rng.randint(-1, size + 1)
        return (kind, d, start, length), ("tensor_narrow", d, start, length), \
            lambda: tt.narrow(d, start, length), lambda e: expected_narrow_status(e, tt, d, start, length)
    if kind in ("expand", "broadcast_to"):
        sizes = [rng.choice([s, s, -1, 3, 0]) if s == 1 else rng.choice([s, s, s, -1, s + 1])
                 for s in tt.shape]
        lead = [rng.choice([1, 2, 0, 3]) for _ in range(rng.choice([0, 0, 1, 2]))]
        if lead and rng.random() < 0.1:
            lead[0] = -1
        sizes = lead + sizes
        if sizes and rng.random() < 0.05:
            sizes[rng.randrange(len(sizes))] = -2
        if sizes and rng.random() < 0.05:
            sizes = sizes[1:]
        thunk = (lambda: tt.expand(sizes)) if kind == "expand" else (lambda: torch.broadcast_to(tt, sizes))
        # torch lets a size < -1 through when the result is empty (a negative size!)
        oracle = INVALID if any(s < -1 for s in sizes) else lambda e: expected_expand_status(e, sizes)
        return (kind, sizes), ("tensor_" + kind, *dims(sizes)), thunk, oracle
    if kind == "squeeze":
        if rng.random() < 0.3:
            return (kind, "all"), ("tensor_squeeze", INT64_MIN), lambda: tt.squeeze(), expected_generic_status
        d = rand_dim(rng, n)
        return (kind, d), ("tensor_squeeze", d), lambda: tt.squeeze(d), expected_generic_status
    if kind == "unsqueeze":
        d = rand_dim(rng, n + 1)
        return (kind, d), ("tensor_unsqueeze", d), lambda: tt.unsqueeze(d), expected_generic_status
    if kind == "flatten":
        a, b = rand_dim(rng, n), rand_dim(rng, n)
        return (kind, a, b), ("tensor_flatten", a, b), lambda: tt.flatten(a, b), expected_generic_status
    dtype = rng.choice(list(TORCH_DTYPES))
    return (kind, dtype), ("tensor_view_dtype", dtype), lambda: tt.view(TORCH_DTYPES[dtype]), \
        expected_dtype_status


def rand_shape(rng, max_ndim=4):
    return [rng.choice([0, 1, 1, 2, 2, 3, 4, 5]) if rng.random() < 0.95 else rng.choice([0, 1])
            for _ in range(rng.randint(0, max_ndim))]


def rand_strided_pair(rng, dtype):
    """A pair viewing a bigger storage with random (zero and overlapping included)
    non-negative strides and an offset, to feed computeStride odd layouts."""
    sizes = rand_shape(rng)
    strides = [rng.choice([0, 1, 1, 2, 3, 4, 6, 12, 24]) for _ in sizes]
    offset = rng.randint(0, 3)
    count = offset + sum((n - 1) * st for n, st in zip(sizes, strides) if n) + 1
    flat_c, flat_t = make_pair(rng, dtype, [count])
    status, ct = call("tensor_as_strided", flat_c, len(sizes), int64_array(sizes), int64_array(strides), offset)
    assert status == OK, lib.tensor_last_error()
    return ct, torch.as_strided(flat_t, sizes, strides, offset)


def rand_dtype(rng):
    return rng.choice(list(TORCH_DTYPES))


@pytest.mark.parametrize("seed", range(3))
def test_random_view_chains_match_torch(seed):
    rng = random.Random(seed)
    checked = failures = 0
    for _ in range(400):
        dtype = rand_dtype(rng)
        if rng.random() < 0.3:
            ct, tt = rand_strided_pair(rng, dtype)
        else:
            ct, tt = make_pair(rng, dtype, rand_shape(rng))
        base_storage = storage_ptr(ct)
        base_torch_ptr = tt.storage().data_ptr()
        bases = (ct, tt)  # alive through the chain, so that no later storage reuses their addresses
        history = [(tuple(tt.shape), tuple(tt.stride()))]
        for _ in range(rng.randint(1, 6)):
            desc, ct_args, thunk, oracle = rand_op(rng, tt)
            what = f"seed {seed}: {history} then {desc}"
            status, c_res = call(ct_args[0], ct, *ct_args[1:])
            checked += 1
            if isinstance(oracle, int):  # a documented difference from torch
                assert status == oracle, what
                break
            t_res, t_err = torch_status(thunk)
            if desc[0] == "slice" and desc[4] == INT64_MAX and status == OK:
                # torch's size (length + step - 1) / step overflows for this step;
                # ctensor gives Python's answer (docs/views.md)
                d = desc[1] % tt.dim()
                want = len(range(*slice(desc[2], desc[3], desc[4]).indices(tt.shape[d])))
                assert c_res.shape[d] == want, f"{what}: {c_res.shape} vs Python's {want}"
                break
            if t_err is None and any(n < 0 for n in t_res.shape):
                # torch 1.13 expands a 0-dim tensor to a negative size (-1 in a new
                # leading dim); ctensor refuses it as it does for other tensors
                assert status == SHAPE, f"{what}: ctensor {status}, torch gave shape {tuple(t_res.shape)}"
                break
            if t_err is not None:
                failures += 1
                assert status == oracle(t_err), f"{what}: ctensor {status}, torch said {t_err}"
                if status == OK:  # a view torch cannot express
                    break
                continue
            assert status == OK, f"{what}: {lib.tensor_last_error().decode()}"
            assert_same(c_res, t_res, what)
            if t_res.numel() > 0:  # an empty storage may have no address to compare
                shares = t_res.storage().data_ptr() == base_torch_ptr
                assert (storage_ptr(c_res) == base_storage) == shares, f"{what}: sharing differs"
            ct, tt = c_res, t_res
            history.append(desc)
    assert checked > 1000 and failures > 100  # both paths were exercised


@pytest.mark.parametrize("seed", range(3))
def test_negative_step_slices_match_numpy(seed):
    """Slices with any step, transposes and selects, against NumPy's basic indexing."""
    rng = random.Random(100 + seed)
    for _ in range(400):
        dtype = rng.choice([4, 6, 1, 9])
        shape = [rng.randint(1, 6) for _ in range(rng.randint(1, 3))]  # non-empty: addresses compare
        array = (np.arange(int(np.prod(shape))) + 1).astype(NP_DTYPES[dtype]).reshape(shape)
        ct = ct_from_numpy(array, dtype)
        na = ct.numpy()  # shares ctensor's memory, so offsets compare as addresses
        base = lib.tensor_storage_data(lib.tensor_storage(ct.handle)) or 0
        history = [shape]
        for _ in range(rng.randint(1, 4)):
            n = na.ndim
            if n == 0:
                break
            r = rng.random()
            d = rng.randrange(-n, n)
            size = na.shape[d]
            if r < 0.7:
                step = rng.choice([-1, -1, -2, -3, -7, 1, 2, INT64_MIN])
                bound = lambda: rng.choice([rng.randint(-size - 3, size + 3), INT64_MAX, INT64_MIN])
                start, stop = bound(), bound()
                desc = ("slice", d, start, stop, step)
                index = [slice(None)] * n
                index[d] = slice(start, stop, step)
                expected = na[tuple(index) + (Ellipsis,)]  # Ellipsis: always a view
                status, res = call("tensor_slice", ct, d, start, stop, step)
            elif r < 0.85:
                a = rng.randrange(-n, n)
                desc = ("transpose", d, a)
                expected = np.swapaxes(na, d, a)
                status, res = call("tensor_transpose", ct, d, a)
            else:
                if size == 0:
                    continue
                i = rng.randrange(-size, size)
                desc = ("select", d, i)
                index = [slice(None)] * n
                index[d] = i
                expected = na[tuple(index) + (Ellipsis,)]
                status, res = call("tensor_select", ct, d, i)
            what = f"seed {seed}: {history} then {desc}"
            assert status == OK, what
            itemsize = na.itemsize
            assert res.shape == expected.shape, what
            np.testing.assert_array_equal(values(res), expected, err_msg=what)
            step_positive = desc[0] == "slice" and desc[4] > 0
            if expected.size == 0 and step_positive:
                break  # PyTorch's offset rule, checked against torch above
            # huge steps wrap strides of single-element dims: NumPy in bytes, ctensor in elements
            assert tuple(wrap64(s * itemsize) for s in res.strides) == expected.strides, what
            expected_offset = (expected.__array_interface__["data"][0] - base) // itemsize
            assert res.offset == expected_offset, what
            assert 0 <= res.offset <= lib.tensor_storage_nbytes(lib.tensor_storage(res.handle)) // itemsize, what
            if expected.size == 0:
                break  # NumPy and ctensor both keep an empty reversed slice in place
            ct, na = res, expected
            history.append(desc)


@pytest.mark.parametrize("seed", range(2))
def test_views_of_reversed_tensors_match_numpy_values(seed):
    """Reshape/flatten/expand/view_dtype of negatively strided views keep NumPy's values."""
    rng = random.Random(200 + seed)
    for _ in range(300):
        shape = [rng.randint(1, 4) for _ in range(rng.randint(1, 3))]
        array = (np.arange(int(np.prod(shape))) + 1).astype(np.int32).reshape(shape)
        ct = ct_from_numpy(array, 3)
        d = rng.randrange(len(shape))
        _, ct = call("tensor_slice", ct, d, INT64_MAX, INT64_MIN, -1)
        na = np.flip(array, d)
        r = rng.random()
        if r < 0.4:
            new_shape = rand_shape_for(rng, na.size, na.ndim)
            new_shape = [s for s in new_shape if s != -1] or [na.size]
            if int(np.prod(new_shape)) != na.size:
                continue
            status, res = call("tensor_reshape", ct, *dims(new_shape))
            expected = na.reshape(new_shape)
        elif r < 0.6:
            status, res = call("tensor_flatten", ct, 0, -1)
            expected = na.reshape(-1)
        elif r < 0.8:
            target = [2] + [s if rng.random() < 0.7 else -1 for s in na.shape]
            status, res = call("tensor_expand", ct, *dims(target))
            expected = np.broadcast_to(na, [2] + list(na.shape))
        else:
            if na.strides[-1] != na.itemsize:
                assert call("tensor_view_dtype", ct, 2)[0] == STRIDE
                continue
            status, res = call("tensor_view_dtype", ct, 2)
            expected = na.view(np.int16)
        assert status == OK, lib.tensor_last_error()
        np.testing.assert_array_equal(values(res), expected)


def addressed_range(sizes, strides, offset):
    """[lo, hi] element offsets a non-empty view addresses, by enumeration."""
    grids = np.meshgrid(*[np.arange(s) * st for s, st in zip(sizes, strides)], indexing="ij")
    total = offset + sum(grids) if grids else np.array(offset)
    return int(np.min(total)), int(np.max(total))


@pytest.mark.parametrize("seed", range(2))
def test_as_strided_bounds(seed):
    """Bounds against enumeration of every element; layout and values against torch."""
    rng = random.Random(300 + seed)
    for _ in range(1500):
        count = rng.randint(0, 24)
        ct, tt = make_pair(rng, 6, [count])
        ndim = rng.randint(0, 3)
        sizes = [rng.choice([0, 1, 2, 3, 4]) for _ in range(ndim)]
        strides = [rng.randint(-4, 6) for _ in range(ndim)]
        offset = rng.randint(-3, count + 2)
        if rng.random() < 0.05 and sizes:
            sizes[0] = -1
        use_strides = rng.random() < 0.8
        st_arg = int64_array(strides) if use_strides else None
        status, res = call("tensor_as_strided", ct, ndim, int64_array(sizes), st_arg, offset)
        what = f"seed {seed}: storage {count}, sizes {sizes}, strides {strides if use_strides else None}, offset {offset}"
        if any(s < 0 for s in sizes):
            assert status == INVALID, what
            continue
        if not use_strides:
            strides = [tuple(torch.empty(sizes).stride())[i] for i in range(ndim)]
        empty = 0 in sizes
        inside = empty or (lambda lo_hi: lo_hi[0] >= 0 and lo_hi[1] < count)(addressed_range(sizes, strides, offset))
        assert status == (OK if inside else BOUNDS), what
        if status != OK:
            continue
        assert res.shape == tuple(sizes) and res.strides == tuple(strides) and res.offset == offset, what
        assert storage_ptr(res) == storage_ptr(ct), what
        if min(strides, default=0) >= 0 and offset >= 0:
            expected = torch.as_strided(tt, sizes, strides, offset)
            assert_same(res, expected, what)
        elif not empty:
            grids = np.meshgrid(*[np.arange(s) * st for s, st in zip(sizes, strides)], indexing="ij")
            positions = offset + (sum(grids) if grids else 0)
            np.testing.assert_array_equal(values(res), tt.numpy()[positions], err_msg=what)


def test_as_strided_overflow():
    ct, _ = make_pair(random.Random(0), 6, [4])
    huge = 2**62
    assert call("tensor_as_strided", ct, 2, int64_array([4, 4]), int64_array([huge, huge]), 0)[0] == OVERFLOW
    assert call("tensor_as_strided", ct, 1, int64_array([2]), int64_array([1]), INT64_MAX)[0] == OVERFLOW
    status, res = call("tensor_as_strided", ct, 2, int64_array([0, 4]), int64_array([huge, huge]), 0)
    assert status == OK and res.shape == (0, 4)


@pytest.mark.parametrize("seed", range(2))
def test_view_dtype_matches_torch(seed):
    rng = random.Random(400 + seed)
    for _ in range(700):
        dtype = rand_dtype(rng)
        ct, tt = make_pair(rng, dtype, rand_shape(rng, 3))
        # a random restriction first, so that offsets and strides vary
        for _ in range(rng.randint(0, 2)):
            if tt.dim() == 0:
                break
            d = rng.randrange(tt.dim())
            start, step = rng.randint(0, 2), rng.choice([1, 1, 2])
            tt = torch.ops.aten.slice(tt, d, start, INT64_MAX, step)
            ct = call("tensor_slice", ct, d, start, INT64_MAX, step)[1]
        new = rand_dtype(rng)
        what = f"seed {seed}: {TORCH_DTYPES[dtype]} {tuple(tt.shape)} {tt.stride()} +{tt.storage_offset()} as {TORCH_DTYPES[new]}"
        t_res, t_err = torch_status(lambda: tt.view(TORCH_DTYPES[new]))
        status, res = call("tensor_view_dtype", ct, new)
        if t_err is not None:
            assert status == expected_dtype_status(t_err), f"{what}: {t_err}"
            continue
        assert status == OK, f"{what}: {lib.tensor_last_error()}"
        assert res.dtype == new
        assert_same(res, t_res, what)


def test_view_dtype_rejects_unknown_dtype():
    ct, _ = make_pair(random.Random(0), 6, [4])
    for bad in (8, 12, 30, -1):
        assert call("tensor_view_dtype", ct, bad)[0] == INVALID


def test_null_arguments():
    ct, _ = make_pair(random.Random(0), 6, [2, 3])
    null = Tensor(None)
    assert call("tensor_view", null, *dims([6]))[0] == INVALID
    assert lib.tensor_view(None, ct.handle, *dims([6])) == INVALID
    assert call("tensor_view", ct, 1, None)[0] == INVALID
    assert call("tensor_expand", ct, 65, int64_array([1] * 65))[0] == INVALID
    assert call("tensor_permute", ct, 2, None)[0] == INVALID


def test_huge_empty_shapes_in_any_order():
    """torch's element count is a running product, so it refuses [2**40, 2**40, 0]
    but not [0, 2**40, 2**40]; ctensor's does not depend on the order (a 0 means no
    elements), so both are views, with the strides torch gives the accepted order."""
    ct, tt = make_pair(random.Random(0), 6, [0])
    sizes = [2**40, 2**40, 0]
    with pytest.raises(RuntimeError):
        tt.view(sizes)
    status, res = call("tensor_view", ct, *dims(sizes))
    assert status == OK and res.shape == tuple(sizes) and res.strides == (2**40, 1, 1)
    one, tone = make_pair(random.Random(0), 6, [1, 1, 0])
    with pytest.raises(RuntimeError):
        tone.expand(sizes)
    status, res = call("tensor_expand", one, *dims(sizes))
    assert status == OK and res.shape == tuple(sizes) and res.strides == (0, 0, 1)
    status, res = call("tensor_view", ct, *dims([0, 2**40, 2**40]))
    assert status == OK and res.strides == tuple(tt.view(0, 2**40, 2**40).stride())
    status, res = call("tensor_expand", ct, *dims([2**62, 4, 1]))
    assert status == SHAPE  # [0] cannot expand to a last dim of 1
    status, res = call("tensor_expand", one, *dims([2**62, 4, 0]))
    assert status == OK
    status, res = call("tensor_view", ct, *dims([2**62, 4, 1]))
    assert status == OVERFLOW  # no 0: the product must fit int64


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"]))
