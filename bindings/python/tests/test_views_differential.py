"""Randomized view chains applied in lockstep to ctensor, PyTorch and NumPy on
the same memory: shapes, strides, offsets, data pointers, values, reprs and
writes must agree. Negative steps (which PyTorch refuses) are checked against
NumPy alone."""
import random

import numpy
import pytest
import torch

import ctensor
from binding_helpers import torch_repr

DTYPES = ["float32", "float64", "int64", "int32", "int16", "uint8", "bool", "complex64", "float16"]


def random_op(rng, ndim, shape, allow_negative):
    """One view op as (description, ctensor_fn, torch_fn or None, numpy_fn)."""
    kinds = ["slice", "select", "transpose", "permute", "unsqueeze", "squeeze", "ellipsis", "narrow"]
    if ndim == 0:
        kinds = ["unsqueeze"]
    kind = rng.choice(kinds)
    if kind == "slice":
        d = rng.randrange(ndim)
        n = shape[d]
        step = rng.choice([1, 1, 2, 3] + ([-1, -2] if allow_negative else []))
        start = rng.choice([None, rng.randint(-n - 2, n + 2)])
        stop = rng.choice([None, rng.randint(-n - 2, n + 2)])
        idx = (slice(None),) * d + (slice(start, stop, step),)
        return (f"[{idx}]", lambda t: t[idx], (lambda t: t[idx]) if step > 0 else None, lambda a: a[idx])
    if kind == "select":
        d = rng.randrange(ndim)
        if shape[d] == 0:
            return None
        i = rng.randrange(-shape[d], shape[d])
        idx = (slice(None),) * d + (i,)
        # the trailing ... keeps NumPy's 0-dim result a view, not a scalar
        return (f"[{idx}]", lambda t: t[idx], lambda t: t[idx], lambda a: a[idx + (Ellipsis,)])
    if kind == "transpose":
        d0, d1 = rng.randrange(-ndim, ndim), rng.randrange(-ndim, ndim)
        return (f".transpose({d0},{d1})", lambda t: t.transpose(d0, d1), lambda t: t.transpose(d0, d1),
                lambda a: a.swapaxes(d0, d1))
    if kind == "permute":
        p = list(range(ndim))
        rng.shuffle(p)
        return (f".permute({p})", lambda t: t.permute(*p), lambda t: t.permute(*p), lambda a: a.transpose(p))
    if kind == "unsqueeze":
        d = rng.randint(-ndim - 1, ndim)
        return (f".unsqueeze({d})", lambda t: t.unsqueeze(d), lambda t: t.unsqueeze(d),
                lambda a: numpy.expand_dims(a, d))
    if kind == "squeeze":
        d = rng.randrange(ndim)
        return (f".squeeze({d})", lambda t: t.squeeze(d), lambda t: t.squeeze(d),
                lambda a: a.squeeze(d) if a.shape[d] == 1 else a)
    if kind == "ellipsis":
        idx = (Ellipsis, None) if rng.random() < 0.5 else (None, Ellipsis)
        return (f"[{idx}]", lambda t: t[idx], lambda t: t[idx], lambda a: a[idx])
    d = rng.randrange(ndim)
    n = shape[d]
    start = rng.randint(0, n)
    length = rng.randint(0, n - start)
    idx = (slice(None),) * d + (slice(start, start + length),)
    return (f".narrow({d},{start},{length})", lambda t: t.narrow(d, start, length),
            lambda t: t.narrow(d, start, length), lambda a: a[idx])


def check_same(c, a, t, base, chain):
    assert tuple(c.shape) == a.shape, chain
    # NumPy's strides of size-1 dims (None gives 0) and of empty arrays are arbitrary
    assert a.size == 0 or all(cs == s // a.itemsize for cs, s, n in zip(c.stride(), a.strides, a.shape) if n > 1), chain
    assert c.data_ptr() == (a.ctypes.data if a.size else 0), chain
    assert c.tolist() == a.tolist(), chain
    assert c.storage_offset() == (a.ctypes.data - base.ctypes.data) // a.itemsize or a.size == 0, chain
    if t is not None:
        assert tuple(c.shape) == tuple(t.shape) and c.stride() == t.stride(), chain
        assert c.storage_offset() == t.storage_offset() and c.data_ptr() == t.data_ptr(), chain
        assert c.is_contiguous() == t.is_contiguous(), chain
        assert repr(c) == torch_repr(t), chain


@pytest.mark.parametrize("seed", range(40))
def test_random_view_chains(seed):
    rng = random.Random(seed)
    dtype = rng.choice(DTYPES)
    shape = tuple(rng.randint(0 if rng.random() < 0.1 else 1, 5) for _ in range(rng.randint(1, 4)))
    base = (numpy.arange(int(numpy.prod(shape))) % 7 - 3).astype(dtype).reshape(shape)
    for _ in range(5):  # several chains from the same base
        a, c = base, ctensor.from_numpy(base)
        t = torch.from_numpy(base)
        chain = f"{dtype}{shape}"
        for _ in range(rng.randint(1, 6)):
            op = random_op(rng, a.ndim, a.shape, allow_negative=True)
            if op is None:
                continue
            desc, fc, ft, fa = op
            chain += desc
            a, c = fa(a), fc(c)
            t = ft(t) if (t is not None and ft is not None) else None
            check_same(c, a, t, base, chain)


@pytest.mark.parametrize("seed", range(15))
def test_random_reshapes_and_views(seed):
    rng = random.Random(1000 + seed)
    base = numpy.arange(24, dtype=numpy.int64)
    for _ in range(10):
        a = base.reshape(rng.choice([(24,), (2, 12), (4, 6), (2, 3, 4)]))
        p = list(range(a.ndim))
        rng.shuffle(p)
        a = a.transpose(p)
        c, t = ctensor.from_numpy(base), torch.from_numpy(base)
        c, t = c.view(*base.shape).as_strided(a.shape, [s // 8 for s in a.strides]), t.as_strided(
            a.shape, [s // 8 for s in a.strides])
        target = rng.choice([(24,), (6, 4), (2, 2, 6), (-1, 3), (3, -1, 2), (24, 1), (1, 24)])
        for name in ["view", "reshape"]:
            try:
                expected = getattr(t, name)(*target)
            except RuntimeError:
                with pytest.raises(RuntimeError):
                    getattr(c, name)(*target)
                continue
            got = getattr(c, name)(*target)
            assert got.shape == expected.shape and got.stride() == expected.stride()
            assert got.tolist() == expected.tolist()
            assert (got.data_ptr() == c.data_ptr()) == (expected.data_ptr() == t.data_ptr())
        for start, end in [(0, -1), (1, -1), (0, 0), (-2, -1)]:
            if -a.ndim <= start < a.ndim and -a.ndim <= end < a.ndim and (start % a.ndim) <= (end % a.ndim):
                f, e = c.flatten(start, end), t.flatten(start, end)
                assert f.shape == e.shape and f.stride() == e.stride() and f.tolist() == e.tolist()


@pytest.mark.parametrize("seed", range(20))
def test_writes_through_random_views(seed):
    rng = random.Random(2000 + seed)
    a = numpy.zeros((4, 5, 6), numpy.float64)
    c = ctensor.from_numpy(a)
    expected = numpy.zeros_like(a)
    for k in range(8):
        idx = tuple(slice(rng.choice([None, 0, 1]), None, rng.choice([1, 2, -1, -2])) if rng.random() < 0.7
                    else rng.randrange(-a.shape[d], a.shape[d]) for d in range(3))
        row = [k] * expected[idx].shape[-1] if expected[idx].ndim else k  # broadcast along the last dim
        value = rng.choice([k + 0.5, ctensor.tensor(row, dtype=ctensor.float64), ctensor.tensor(float(k))])
        c[idx] = value
        expected[idx] = value.tolist() if isinstance(value, ctensor.Tensor) else value
        assert (a == expected).all(), idx


def test_expand_and_as_strided_like_torch():
    t, c = torch.arange(3).view(3, 1), ctensor.arange(3).view(3, 1)
    for sizes in [(3, 4), (2, 3, 4), (-1, 2), (1, 3, -1)]:
        e, g = t.expand(*sizes), c.expand(*sizes)
        assert g.shape == e.shape and g.stride() == e.stride() and g.tolist() == e.tolist()
        assert repr(g) == torch_repr(e)
    assert c.expand_as(ctensor.zeros(2, 3, 5)).stride() == t.expand_as(torch.zeros(2, 3, 5)).stride()
    s, r = c.as_strided((2, 2), (1, 0), 1), t.as_strided((2, 2), (1, 0), 1)
    assert s.tolist() == r.tolist() and s.storage_offset() == r.storage_offset() == 1
    assert c.squeeze().shape == t.squeeze().shape and c.T.shape == t.T.shape and c.t().stride() == t.t().stride()


@pytest.mark.parametrize("seed", range(30))
def test_copies_keep_torchs_layout(seed):
    """clone/to/asarray(copy=True)/tensor(t) use torch's preserve_format strides."""
    rng = random.Random(3000 + seed)
    base = numpy.arange(120, dtype=numpy.float32)
    c, t = ctensor.from_numpy(base), torch.from_numpy(base)
    shape = [rng.randint(1, 4) for _ in range(rng.randint(1, 4))]
    n = int(numpy.prod(shape))
    c, t = c[:n].view(*shape), t[:n].view(*shape)
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["permute", "slice", "expand", "unsqueeze"])
        if kind == "permute":
            p = list(range(c.ndim))
            rng.shuffle(p)
            c, t = c.permute(*p), t.permute(*p)
        elif kind == "slice":
            d = rng.randrange(c.ndim)
            step = rng.choice([1, 2])
            c, t = c.narrow(d, 0, max(1, c.shape[d] // 2))[(slice(None),) * d + (slice(None, None, step),)], \
                t.narrow(d, 0, max(1, t.shape[d] // 2))[(slice(None),) * d + (slice(None, None, step),)]
        elif kind == "expand":
            sizes = [s if s != 1 or rng.random() < 0.5 else 3 for s in c.shape]
            c, t = c.expand(*sizes), t.expand(*sizes)
        else:
            d = rng.randint(0, c.ndim)
            c, t = c.unsqueeze(d), t.unsqueeze(d)
    for got, expected in [(c.clone(), t.clone()), (c.to(ctensor.float64), t.to(torch.float64)),
                          (ctensor.asarray(c, copy=True), torch.asarray(t, copy=True)),
                          (ctensor.asarray(c, dtype=ctensor.int32), torch.asarray(t, dtype=torch.int32))]:
        assert got.stride() == expected.stride(), (c.shape, c.stride())
        assert got.tolist() == expected.tolist() and got.data_ptr() != c.data_ptr()
    assert c.contiguous().stride() == t.contiguous().stride()


def test_empty_tensors_keep_their_strides():
    """torch counts a tensor with no elements as dense: its copies keep its strides."""
    c, t = ctensor.zeros(40).as_strided((0, 3, 2), (1, 5, 7)), torch.zeros(40).as_strided((0, 3, 2), (1, 5, 7))
    for got, expected in [(c.clone(), t.clone()), (ctensor.empty_like(c), torch.empty_like(t)),
                          (c.to(ctensor.int8), t.to(torch.int8))]:
        assert got.stride() == expected.stride() == (1, 5, 7)


@pytest.mark.parametrize("seed", range(10))
def test_split_chunk_unbind_unfold_like_torch(seed):
    rng = random.Random(4000 + seed)
    shape = [rng.randint(0 if rng.random() < 0.2 else 1, 7) for _ in range(rng.randint(1, 3))]
    n = int(numpy.prod(shape))
    c, t = ctensor.arange(n).view(*shape), torch.arange(n).view(*shape)
    d = rng.randrange(-len(shape), len(shape))
    cases = [("split", (rng.randint(1, 4), d)), ("chunk", (rng.randint(1, 5), d)), ("unbind", (d,))]
    size = shape[d]
    if size:
        cut = rng.randint(0, size)
        cases.append(("split", ([cut, size - cut], d)))
        cases.append(("unfold", (d, rng.randint(0, size), rng.randint(1, 3))))
    for name, args in cases:
        got, expected = getattr(c, name)(*args), getattr(t, name)(*args)
        if name == "unfold":
            got, expected = (got,), (expected,)
        assert len(got) == len(expected), (name, args)
        for g, e in zip(got, expected):
            assert g.shape == e.shape and g.stride() == e.stride() and g.storage_offset() == e.storage_offset()
            assert g.tolist() == e.tolist()
    for name in ["zeros_like", "ones_like", "empty_like"]:
        got, expected = getattr(ctensor, name)(c.transpose(0, -1)), getattr(torch, name)(t.transpose(0, -1))
        assert got.stride() == expected.stride() and got.dtype is ctensor.int64
    f = ctensor.full_like(c, 2.5, dtype=ctensor.float32)
    assert f.tolist() == torch.full_like(t, 2.5, dtype=torch.float32).tolist()
