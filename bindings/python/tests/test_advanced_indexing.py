"""Advanced indexing (integer/boolean lists, arrays and tensors): copies with
PyTorch's shapes and values; assignment through them."""
import random

import numpy
import pytest
import torch

import ctensor


def torch_index(idx):
    return tuple((torch.tensor(i) if i else torch.tensor(i, dtype=torch.long)) if isinstance(i, list) else i
                 for i in idx)


@pytest.mark.parametrize("idx", [
    ([0, 2],), ([[0, 1], [2, 2]],), (slice(None), [1, 3]), (slice(None), [1, 3], [0, 4]),
    ([0, 2], slice(None), [1, 3]), ([0, 2], 1, [1, 3]), (Ellipsis, [0, -1]), ([True, False, True],),
    (None, [1], slice(1, 3)), ([2, 0], [[1], [3]]), ([],), (slice(None), []), (1, [0, 0, 3]),
    (slice(None, None, -1), [3, 0]), ([-1, -3], slice(1, None, 2), [True, False, False, True, False]),
])
def test_getitem_like_torch(idx):
    c, t = ctensor.arange(60).view(3, 4, 5), torch.arange(60).view(3, 4, 5)
    got, expected = c[idx], t[torch_index(idx)] if not any(isinstance(i, slice) and i.step and i.step < 0
                                                            for i in idx) else None
    if expected is None:  # torch refuses negative steps: compare with NumPy
        expected = numpy.arange(60).reshape(3, 4, 5)[tuple(numpy.array(i) if isinstance(i, list) else i for i in idx)]
    assert tuple(got.shape) == tuple(expected.shape) and got.tolist() == expected.tolist()
    assert got.data_ptr() != c.data_ptr() or got.numel() == 0


@pytest.mark.parametrize("seed", range(20))
def test_masks_and_index_tensors_against_numpy(seed):
    rng = numpy.random.default_rng(seed)
    a = rng.integers(-5, 5, (4, 3, 5)).astype(numpy.float32)
    c = ctensor.from_numpy(a.copy())
    mask = a > 0
    assert c[ctensor.from_numpy(mask)].tolist() == a[mask].tolist()
    assert c[:, ctensor.from_numpy(mask[0, :, 0])].tolist() == a[:, mask[0, :, 0]].tolist()
    rows = rng.integers(-4, 4, 6)
    assert c[ctensor.from_numpy(rows), 1:].tolist() == a[rows, 1:].tolist()
    assert c[rows.tolist(), :, rows.tolist()[:1]].tolist() == a[rows, :, rows[:1]].tolist()
    assert c[numpy.array([[1], [2]]), numpy.array([0, 2])].tolist() == a[[[1], [2]], [0, 2]].tolist()


def test_setitem_like_torch():
    c, t = ctensor.zeros(3, 4), torch.zeros(3, 4)
    c[[0, 2]] = 1
    t[torch.tensor([0, 2])] = 1
    c[:, [1, 3]] = ctensor.tensor([5.0, 6.0])
    t[:, torch.tensor([1, 3])] = torch.tensor([5.0, 6.0])
    rows = numpy.array([[True, False, True, False]] * 3)
    c[ctensor.from_numpy(rows)] = -1
    t[torch.from_numpy(rows)] = -1
    c[c == 5] = 7
    t[t == 5] = 7
    assert c.tolist() == t.tolist()
    with pytest.raises(RuntimeError):
        c[[0, 1]] = ctensor.ones(3)
    ro = ctensor.frombuffer(bytes(8), dtype=ctensor.int16)
    with pytest.raises(ValueError):
        ro[[0, 1]] = 1


def test_errors_like_torch():
    c, t = ctensor.arange(60).view(3, 4, 5), torch.arange(60).view(3, 4, 5)
    for ci, ti in [([5], torch.tensor([5])), ([[0, 1], [0, 1, 2]], None), (ctensor.tensor([True, False]), torch.tensor([True, False])),
                   (ctensor.tensor([0.5]), torch.tensor([0.5]))]:
        with pytest.raises(IndexError):
            c[ci] if not isinstance(ci[0], list) else c[ci[0], ci[1]]
        if ti is not None:
            with pytest.raises(IndexError):
                t[ti]
    with pytest.raises(TypeError):
        c[{"a": 1}]


def test_random_advanced_against_torch():
    """Ints next to index tensors act as torch's select (NumPy would treat them as
    advanced and move the result dims first), so torch is the reference here."""
    rng = random.Random(7)
    c, t = ctensor.arange(120).view(2, 3, 4, 5), torch.arange(120).view(2, 3, 4, 5)
    shape = (2, 3, 4, 5)
    for _ in range(200):
        idx = []
        for d in range(4):
            kind = rng.choice(["slice", "int", "list", "none", "skip"])
            if kind == "slice":
                idx.append(slice(rng.choice([None, 1]), None, rng.choice([1, 2])))
            elif kind == "int":
                idx.append(rng.randrange(-shape[d], shape[d]))
            elif kind == "list":
                idx.append([rng.randrange(-shape[d], shape[d]) for _ in range(rng.choice([1, 2]))])
            elif kind == "none":
                idx.append(None)
                idx.append(slice(None))
            else:
                break
        idx = tuple(idx)
        try:
            expected = t[torch_index(idx)]
        except IndexError:
            with pytest.raises(IndexError):
                c[idx]
            continue
        got = c[idx]
        assert tuple(got.shape) == tuple(expected.shape), idx
        assert got.tolist() == expected.tolist(), idx


def test_setitem_translation_like_torch():
    """Values lose their extra leading size-1 dims, repeated indices keep the last
    write, NumPy integer arrays of any width index, byte tensors are masks (with
    torch's deprecation warning)."""
    c, t = ctensor.zeros(3, 4), torch.zeros(3, 4)
    c[[0, 1]] = ctensor.ones(1, 1, 2, 4)
    t[torch.tensor([0, 1])] = torch.ones(1, 1, 2, 4)
    c[[2, 2, 2], [0, 0, 1]] = ctensor.tensor([5.0, 6.0, 7.0])
    t[torch.tensor([2, 2, 2]), torch.tensor([0, 0, 1])] = torch.tensor([5.0, 6.0, 7.0])
    assert c.tolist() == t.tolist()
    rows = numpy.array([[2], [0]], dtype=numpy.int16)
    assert c[rows, numpy.array([1, 3], dtype=numpy.uint32)].tolist() == t.numpy()[rows, [1, 3]].tolist()
    with pytest.warns(UserWarning, match="uint8 is now deprecated"):
        got = c[ctensor.tensor([1, 0, 1], dtype=ctensor.uint8)]
    with pytest.warns(UserWarning, match="uint8 is now deprecated"):
        assert got.tolist() == t[torch.tensor([1, 0, 1], dtype=torch.uint8)].tolist()
    with pytest.raises(IndexError, match="shape"):
        c[[0, 1], [0, 1, 2]] = 1.0
    with pytest.raises(RuntimeError, match="shape mismatch: value tensor"):
        c[[0, 1]] = ctensor.ones(3)


def test_setitem_refuses_overlapping_destinations():
    """torch 1.13 warns and writes through expanded tensors; ctensor refuses them,
    as tensor_copy does."""
    e = ctensor.zeros(4).expand(3, 4)
    with pytest.raises(RuntimeError, match="internal overlap"):
        e[[0], [1]] = 1.0


def test_large_gathers_and_puts_against_numpy():
    """Work large enough to run without the GIL, and repeated indices in a put
    (the last write wins, as NumPy's loop leaves it)."""
    a = numpy.arange(1 << 20, dtype=numpy.float32)
    idx = numpy.random.default_rng(0).integers(-(1 << 20), 1 << 20, 1 << 20)
    c = ctensor.from_numpy(a.copy())
    assert numpy.array_equal(c[ctensor.from_numpy(idx)].numpy(), a[idx])
    c[ctensor.from_numpy(idx)] = ctensor.from_numpy(-a)
    expected = a.copy()
    expected[idx] = -a
    assert numpy.array_equal(c.numpy(), expected)


@pytest.mark.parametrize("make", [
    lambda L, v: L.tensor(v, dtype=L.uint8), lambda L, v: L.tensor(v, dtype=L.bool),
    lambda L, v: L.tensor(v, dtype=L.int64), lambda L, v: L.tensor(v, dtype=L.int8),
    lambda L, v: numpy.array(v, dtype=numpy.uint8), lambda L, v: numpy.array(v, dtype=numpy.int16),
    lambda L, v: numpy.uint8(v),
])
@pytest.mark.parametrize("value", [0, 1, 2])
def test_zero_dim_indices_like_torch(make, value):
    """0-dim uint8 tensors and arrays act as bools (torch's legacy mask dtype); other
    0-dim integers select."""
    def run(lib):
        a = lib.arange(3)
        try:
            got = a[make(lib, value)].tolist()
        except Exception as e:  # noqa: BLE001 - the class is compared
            return type(e)
        b = lib.zeros(3, dtype=lib.int64)
        b[make(lib, value)] = 5
        return got, b.tolist()
    assert run(ctensor) == run(torch)


def test_assignment_through_its_own_values_as_index():
    """t[t] = v reads t's indices as they were (torch refuses; NumPy 1.24 reads them
    while it writes and can crash), also across many tiles of positions."""
    n = 5000
    perm = [(i * 7 + 1) % n for i in range(n)]
    t = ctensor.tensor(perm)
    t[t] = ctensor.tensor([-i for i in range(n)])
    want = [0] * n
    for i, p in enumerate(perm):
        want[p] = -i
    assert t.tolist() == want
    t = ctensor.tensor(list(range(n - 1, -1, -1)))
    t[t] = 10 ** 6
    assert t.tolist() == [10 ** 6] * n
