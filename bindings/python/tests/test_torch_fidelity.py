"""Where PyTorch 1.13 is well defined, ctensor does the same: strides kept from
NumPy, the exception classes of every error path of frombuffer, asarray,
from_numpy, indexing and views (a table plus randomized ops, each run on both
libraries), DLPack details, __array_wrap__, and the view helpers T/mT/H/mH,
ravel, repeat, the in-place view ops and broadcast_tensors."""
import random

import numpy as np
import pytest
import torch

import ctensor


def outcome(fn, lib):
    """The exception class fn(lib) raises, or the result's (shape, values)."""
    try:
        r = fn(lib)
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return type(e)
    if isinstance(r, (ctensor.Tensor, torch.Tensor)):
        return ("tensor", tuple(r.shape), r.tolist())
    return ("value", r)


# ---- NumPy strides -------------------------------------------------------------

STRIDED_ARRAYS = [
    lambda: np.zeros((2, 0, 3)),
    lambda: np.zeros((3, 4, 5))[2:, 1, 3:],
    lambda: np.zeros((1, 3)),
    lambda: np.zeros((3, 1)),
    lambda: np.zeros((1, 1, 1)),
    lambda: np.zeros((0,)),
    lambda: np.zeros((4, 5), dtype=np.float32).T[:1],
    lambda: np.zeros((4, 6))[::2, ::3],
    lambda: np.zeros((2, 3, 4), order="F")[:, :1],
    lambda: np.zeros((5, 0)).T,
]


@pytest.mark.parametrize("make", STRIDED_ARRAYS)
def test_from_numpy_and_asarray_keep_numpy_strides(make):
    a = make()
    expected = torch.from_numpy(a).stride()
    assert ctensor.from_numpy(a).stride() == expected
    assert ctensor.asarray(a).stride() == expected


def test_negative_strides_stay_accepted():
    a = np.arange(6.0)[::-2]
    with pytest.raises(ValueError):
        torch.from_numpy(a)
    assert ctensor.from_numpy(a).stride() == (-2,)


# ---- exception classes, table-driven ------------------------------------------

def _i64(lib):
    return lib.int64


ERROR_CASES = {
    # frombuffer
    "frombuffer no buffer": lambda L: L.frombuffer(object(), dtype=L.float32),
    "frombuffer empty": lambda L: L.frombuffer(b"", dtype=L.float32),
    "frombuffer odd length": lambda L: L.frombuffer(b"abc", dtype=L.float32),
    "frombuffer offset past end": lambda L: L.frombuffer(bytes(8), dtype=L.uint8, offset=8),
    "frombuffer negative offset": lambda L: L.frombuffer(bytes(8), dtype=L.uint8, offset=-1),
    "frombuffer count too big": lambda L: L.frombuffer(bytes(8), dtype=L.float32, count=3),
    "frombuffer count zero": lambda L: L.frombuffer(bytes(8), dtype=L.float32, count=0),
    "frombuffer length after offset": lambda L: L.frombuffer(bytes(80), dtype=L.float64, offset=15),
    "frombuffer offset huge": lambda L: L.frombuffer(bytes(8), dtype=L.uint8, offset=2**70),
    "frombuffer count overflows": lambda L: L.frombuffer(bytes(80), dtype=L.float64, count=2**62),
    "frombuffer strided memoryview": lambda L: L.frombuffer(memoryview(bytearray(8))[::2], dtype=L.uint8),
    "frombuffer dtype missing": lambda L: L.frombuffer(bytes(8)),
    # asarray
    "asarray None": lambda L: L.asarray(None),
    "asarray None with dtype": lambda L: L.asarray(None, dtype=L.float32),
    "asarray object": lambda L: L.asarray(object()),
    "asarray object with dtype": lambda L: L.asarray(object(), dtype=L.float64),
    "asarray dict": lambda L: L.asarray({}),
    "asarray dict with dtype": lambda L: L.asarray({}, dtype=L.float32),
    "asarray set": lambda L: L.asarray(set()),
    "asarray str": lambda L: L.asarray("abc"),
    "asarray ragged": lambda L: L.asarray([[1, 2], [3]]),
    "asarray list of str": lambda L: L.asarray(["a"]),
    "asarray list copy False": lambda L: L.asarray([1, 2], copy=False),
    "asarray array dtype copy False": lambda L: L.asarray(np.ones(3), dtype=L.float32, copy=False),
    "asarray bytes odd": lambda L: L.asarray(b"abc"),
    "asarray int overflow": lambda L: L.asarray([2**70]),
    "asarray uint8 overflow": lambda L: L.asarray([300], dtype=L.uint8),
    "asarray datetime": lambda L: L.asarray(np.array(["2020-01-01"], dtype="datetime64[D]")),
    "asarray bad dtype": lambda L: L.asarray([1], dtype="float32"),
    # from_numpy
    "from_numpy list": lambda L: L.from_numpy([1, 2]),
    "from_numpy big endian": lambda L: L.from_numpy(np.ones(3, dtype=">f4")),
    "from_numpy object": lambda L: L.from_numpy(np.array([object()])),
    "from_numpy str": lambda L: L.from_numpy(np.array(["a"])),
    "from_numpy odd strides": lambda L: L.from_numpy(np.ones(8, dtype=np.uint8).view(np.float32)[::1]),
    "from_numpy unaligned strides": lambda L: L.from_numpy(
        np.lib.stride_tricks.as_strided(np.zeros(16, np.uint8).view(np.int32), (2,), (3,))),
    # indexing
    "index out of range": lambda L: L.arange(6).view(2, 3)[2],
    "index negative out of range": lambda L: L.arange(6).view(2, 3)[:, -4],
    "index too many": lambda L: L.arange(6).view(2, 3)[0, 0, 0],
    "index float": lambda L: L.arange(6)[1.5],
    "index str": lambda L: L.arange(6)["a"],
    "index two ellipses": lambda L: L.arange(6)[..., ...],
    "index zero step": lambda L: L.arange(6)[::0],
    "index negative step": lambda L: L.arange(6)[::-1],
    "index 0-dim": lambda L: L.tensor(1)[0],
    "index bool mask shape": lambda L: L.arange(6)[L.tensor([True, False])],
    "index long tensor out of range": lambda L: L.arange(6)[L.tensor([7])],
    "index float tensor": lambda L: L.arange(6)[L.tensor([1.0])],
    "setitem out of range": lambda L: L.arange(6).__setitem__(9, 1),
    "setitem shape mismatch": lambda L: L.zeros(2, 3).__setitem__(0, L.ones(4)),
    # views
    "view bad size": lambda L: L.arange(6).view(4, 2),
    "view two -1": lambda L: L.arange(6).view(-1, -1),
    "view non-contiguous": lambda L: L.arange(6).view(2, 3).t().view(6),
    "view dtype size": lambda L: L.arange(6).view(2, 3)[:, :1].view(L.int32),
    "reshape bad": lambda L: L.arange(6).reshape(5),
    "transpose dim": lambda L: L.arange(6).view(2, 3).transpose(0, 2),
    "permute length": lambda L: L.arange(6).view(2, 3).permute(0),
    "permute repeated": lambda L: L.arange(6).view(2, 3).permute(0, 0),
    "expand smaller": lambda L: L.arange(6).view(2, 3).expand(3),
    "expand mismatch": lambda L: L.arange(6).view(2, 3).expand(4, 3),
    "squeeze dim": lambda L: L.arange(6).squeeze(2),
    "unsqueeze dim": lambda L: L.arange(6).unsqueeze(3),
    "flatten dims": lambda L: L.arange(6).view(2, 3).flatten(1, 0),
    "narrow past end": lambda L: L.arange(6).narrow(0, 4, 3),
    "narrow dim": lambda L: L.arange(6).narrow(1, 0, 1),
    "narrow 0-dim": lambda L: L.tensor(1).narrow(0, 0, 1),
    "narrow start out of range": lambda L: L.arange(6).narrow(0, 7, 0),
    "narrow 1-d start": lambda L: L.arange(6).narrow(0, L.tensor([1]), 2),
    "narrow float start": lambda L: L.arange(6).narrow(0, L.tensor(1.0), 2),
    "select index": lambda L: L.arange(6).select(0, 6),
    "select dim": lambda L: L.arange(6).select(1, 0),
    "as_strided out of storage": lambda L: L.arange(6).as_strided((4,), (2,)),
    "as_strided negative stride": lambda L: L.arange(6).as_strided((2,), (-1,), 3),
    "t of 3-d": lambda L: L.zeros(2, 2, 2).t(),
    "mT of 1-d": lambda L: L.zeros(2).mT,
    "H of 3-d": lambda L: L.zeros(2, 2, 2).H,
    "split zero": lambda L: L.arange(6).split(0),
    "chunk zero": lambda L: L.arange(6).chunk(0),
    "unfold size": lambda L: L.arange(6).unfold(0, 7, 1),
    "unfold step": lambda L: L.arange(6).unfold(0, 2, 0),
    "diagonal dims": lambda L: L.zeros(2, 2).diagonal(0, 0, 0),
    "movedim repeated": lambda L: L.zeros(2, 2).movedim((0, 0), (0, 1)),
    "unflatten sizes": lambda L: L.arange(6).unflatten(0, (4, 2)),
    "repeat fewer dims": lambda L: L.zeros(2, 2).repeat(2),
    "repeat negative": lambda L: L.zeros(2).repeat(-1),
    "broadcast_tensors mismatch": lambda L: L.broadcast_tensors(L.zeros(2), L.zeros(3)),
    "dlpack stream str": lambda L: L.zeros(2).__dlpack__(stream="0"),
    "dlpack stream float": lambda L: L.zeros(2).__dlpack__(stream=1.0),
}


# Refused by torch, accepted by ctensor by design (docs/python.md): negative strides.
IMPROVEMENTS = {"as_strided negative stride", "index negative step"}
# An offset or count beyond int64: torch's RuntimeError ("Overflow when unpacking
# long") is a ValueError or OverflowError in ctensor, as for the other bad arguments.
OVERFLOWS = {"frombuffer offset huge", "frombuffer count overflows"}


@pytest.mark.parametrize("name", sorted(ERROR_CASES))
def test_error_class_as_torch(name):
    fn = ERROR_CASES[name]
    got = outcome(fn, ctensor)
    if name in OVERFLOWS:  # (torch's count * itemsize wraps around: no oracle here)
        assert got in (ValueError, OverflowError)
        return
    expected = outcome(fn, torch)
    if name in IMPROVEMENTS:
        assert isinstance(expected, type) and not isinstance(got, type)
    elif isinstance(expected, type):
        assert got is expected, f"{name}: torch raises {expected.__name__}, ctensor gives {got}"
    else:
        assert got == expected


# ---- randomized ops: same outcome (values or exception class) ----------------

def _random_op(rng, shape):
    ndim = len(shape)
    d = rng.randint(-ndim - 1, ndim)
    i = rng.randint(-4, 5)
    n = rng.randint(-1, 4)
    choices = [
        lambda L, t: t[i],
        lambda L, t: t[..., i],
        lambda L, t: t[i:n],
        lambda L, t: t.narrow(d, i, n),
        lambda L, t: t.select(d, i),
        lambda L, t: t.transpose(d, i),
        lambda L, t: t.squeeze(d),
        lambda L, t: t.unsqueeze(d),
        lambda L, t: t.flatten(d, i),
        lambda L, t: t.view(n, -1),
        lambda L, t: t.reshape(i, n),
        lambda L, t: t.expand(n, *shape),
        lambda L, t: t.unfold(d, n, i),
        lambda L, t: t.diagonal(i, d, 0),
        lambda L, t: t.movedim(d, i),
        lambda L, t: t.split(n, d),
        lambda L, t: t.chunk(n, d),
        lambda L, t: t.repeat(*([max(n, 0)] * (ndim + 1))),
        lambda L, t: t.as_strided((n,), (abs(i),), max(n, 0)),
    ]
    k = rng.randrange(len(choices))
    return choices[k], (k, d, i, n)


def _as_outcome(r):
    if isinstance(r, tuple):
        return tuple(_as_outcome(x) for x in r)
    return (tuple(r.shape), r.tolist())


def test_randomized_views_and_indexing_agree_with_torch():
    rng = random.Random(1234)
    for _ in range(600):
        shape = tuple(rng.randint(0, 4) for _ in range(rng.randint(1, 3)))
        op, params = _random_op(rng, shape)
        numel = int(np.prod(shape))
        results = []
        for L in (torch, ctensor):
            t = L.arange(numel).view(*shape) if numel else L.zeros(*shape, dtype=L.int64)
            try:
                results.append(_as_outcome(op(L, t)))
            except Exception as e:  # noqa: BLE001
                results.append(type(e))
        assert results[0] == results[1], (shape, params, results)


# ---- DLPack ---------------------------------------------------------------------

def test_dlpack_export_gives_size1_dims_stride_1():
    base = ctensor.zeros(2, 1, 3)[:, :, ::2]
    assert base.stride() == (3, 3, 2)
    back = torch.from_dlpack(base)
    ref = torch.utils.dlpack.from_dlpack(torch.utils.dlpack.to_dlpack(torch.zeros(2, 1, 3)[:, :, ::2]))
    assert back.stride() == ref.stride() == (3, 1, 2)
    assert np.from_dlpack(ctensor.ones(2, 1, 3)).strides == np.from_dlpack(torch.ones(2, 1, 3)).strides


def test_dlpack_stream_integer_or_none():
    t = ctensor.ones(2)
    t.__dlpack__(stream=None)
    t.__dlpack__(stream=0)
    with pytest.raises(TypeError):
        t.__dlpack__(stream="1")


# ---- NumPy functions give tensors back -----------------------------------------

def test_numpy_ufuncs_give_tensors():
    c, t = ctensor.arange(-3, 3), torch.arange(-3, 3)
    for f in (np.abs, np.negative, lambda x: np.add(x, 1), lambda x: np.greater(x, 0), np.sin):
        rc, rt = f(c), f(t)
        assert isinstance(rc, ctensor.Tensor) and isinstance(rt, torch.Tensor)
        assert repr(rc.dtype).split(".")[-1] == repr(rt.dtype).split(".")[-1]
        assert rc.tolist() == rt.tolist()


# ---- view helpers ----------------------------------------------------------------

@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4)])
def test_transposes(shape):
    c = ctensor.arange(int(np.prod(shape))).reshape(shape)
    t = torch.arange(int(np.prod(shape))).reshape(shape)
    for attr in ("T", "mT", "H", "mH"):
        exp, got = outcome(lambda _: getattr(t, attr), torch), outcome(lambda _: getattr(c, attr), ctensor)
        assert got == exp, attr
        if not isinstance(exp, type):
            assert getattr(c, attr).stride() == getattr(t, attr).stride()


@pytest.mark.parametrize("seed", range(20))
def test_complex_conjugates(seed):
    """H, mH, adjoint and conj of complex tensors give torch's values and strides;
    ctensor's are computed (no conjugate bit), so conj's are read-only where
    torch's lazy view would write through."""
    rng = np.random.default_rng(seed)
    dtype = rng.choice([np.complex64, np.complex128])
    shape = tuple(int(s) for s in rng.integers(0, 4, size=int(rng.integers(0, 4))))
    a = np.asarray(rng.standard_normal(shape) + 1j * rng.standard_normal(shape), dtype=dtype)  # 0-dim: an array
    if a.ndim >= 2 and rng.random() < 0.5:
        a = a.swapaxes(0, -1)
    if a.ndim >= 1 and rng.random() < 0.5:
        a = a[::-1] if rng.random() < 0.5 else a[::2]
    c, t = ctensor.asarray(a), torch.asarray(a.copy() if any(s < 0 for s in a.strides) else a)
    ops = {
        "H": lambda x: x.H, "mH": lambda x: x.mH, "adjoint": lambda x: x.adjoint(),
        "conj": lambda x: x.conj(), "conj_physical": lambda x: x.conj_physical(),
        "torch.conj": lambda x: (ctensor if isinstance(x, ctensor.Tensor) else torch).conj(x),
    }
    for name, op in ops.items():
        exp = outcome(lambda _: op(t).resolve_conj(), torch)
        got = outcome(lambda _: op(c), ctensor)
        assert got == exp, name
        if not isinstance(exp, type) and t.numel() > 0 and not any(s < 0 for s in a.strides):
            assert op(c).stride() == op(t).resolve_conj().stride(), name
            assert op(c).is_conj() is False
    if c.numel() > 0:
        with pytest.raises(ValueError, match="read-only"):
            c.conj().fill_(0)
        phys = c.conj_physical()
        phys.fill_(0)  # a writable copy
        assert np.array_equal(np.asarray(c), a)


def test_conj_of_real_tensors_is_self():
    c = ctensor.arange(6).view(2, 3)
    for op in (lambda x: x.conj(), lambda x: x.conj_physical(), lambda x: x.resolve_conj(), ctensor.conj):
        assert op(c) is c
    assert c.H.stride() == torch.arange(6).view(2, 3).H.stride()


def test_ravel_and_repeat():
    c, t = ctensor.arange(6).view(2, 3), torch.arange(6).view(2, 3)
    assert c.ravel().tolist() == t.ravel().tolist()
    assert ctensor.ravel(c.t()).tolist() == torch.ravel(t.t()).tolist()
    assert c.ravel().data_ptr() == c.data_ptr()  # a view when possible
    for reps in [(1, 1), (2, 1), (1, 3), (2, 2, 2), (0, 2), (3, 1, 1, 2)]:
        r = c.t().repeat(*reps)
        assert r.tolist() == t.t().repeat(*reps).tolist(), reps
        assert r.stride() == t.t().repeat(*reps).stride()
    r = c.repeat(1, 1)
    assert r.data_ptr() != c.data_ptr()  # always a copy


def test_in_place_view_ops_rebind_the_object():
    cases = [
        ("t_", (), (2, 3)),
        ("transpose_", (0, 1), (2, 3)),
        ("swapdims_", (0, 1), (2, 3)),
        ("squeeze_", (), (2, 1, 3)),
        ("squeeze_", (1,), (2, 1, 3)),
        ("unsqueeze_", (0,), (2, 3)),
        ("as_strided_", ((2, 2), (1, 2), 1), (2, 3)),
    ]
    for name, args, shape in cases:
        n = int(np.prod(shape))
        c, t = ctensor.arange(n).view(*shape), torch.arange(n).view(*shape)
        other = c.view(*shape)
        assert getattr(c, name)(*args) is c
        getattr(t, name)(*args)
        assert (c.shape, c.stride(), c.tolist()) == (t.shape, t.stride(), t.tolist()), name
        assert other.shape == shape  # other views keep their own metadata
        assert c.data_ptr() == other.data_ptr() or name == "as_strided_"


def test_broadcast_tensors():
    shapes = [(3, 1), (4,), (1, 1, 4), ()]
    cs = [ctensor.arange(int(np.prod(s))).reshape(s) for s in shapes]
    ts = [torch.arange(int(np.prod(s))).reshape(s) for s in shapes]
    got, exp = ctensor.broadcast_tensors(*cs), torch.broadcast_tensors(*ts)
    assert [(g.shape, g.stride(), g.tolist()) for g in got] == [(e.shape, e.stride(), e.tolist()) for e in exp]
    assert ctensor.broadcast_tensors(cs[0])[0].shape == (3, 1)
