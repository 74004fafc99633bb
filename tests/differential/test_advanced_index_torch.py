"""Advanced indexing of the Python package (tensor_index_gather, tensor_index_put
and tensor_nonzero underneath) against PyTorch 1.13 and NumPy, on random
tensors and random index tuples: integer lists, int64 tensors, NumPy integer
arrays of other widths, strided and empty index arrays, boolean masks over one
or more dims, mixed with ints, slices, None and Ellipsis.

- getitem: the same shape, dtype and elements as torch (ints select there) and,
  for tuples without ints (where NumPy's rule is torch's), as NumPy, negative
  slice steps included; the same exception type wherever the oracle refuses.
- setitem: torch's result wherever an element is written at most once; where
  positions repeat, the last write in C order of the indexing result wins (the
  reference maps each result position to its element through torch's getitem
  of element numbers). Values of the result's shape, broadcast from fewer dims
  or with extra leading size-1 dims, or Python numbers.

Needs the Python package next to the library: $CTENSOR_PYTHON_BUILD, else
<build>/bindings/python beside $CTENSOR_LIB's <build>/src.
"""
import os
import pathlib
import sys
import warnings

import numpy as np
import pytest
import torch

from ctensor_ctypes import _find_library


def _import_ctensor():
    build = os.environ.get("CTENSOR_PYTHON_BUILD")
    package = pathlib.Path(build) if build else pathlib.Path(_find_library()).resolve().parents[1] / "bindings" / "python"
    if not (package / "ctensor").is_dir():
        raise RuntimeError(f"the ctensor Python package is not built in {package} (configure with -Dpython=true)")
    sys.path.insert(0, str(package))
    import ctensor

    return ctensor


ctensor = _import_ctensor()

DTYPES = [np.float32, np.float64, np.int64, np.int16, np.uint8, np.bool_, np.complex64]


def random_array(rng, shape, dtype):
    values = rng.integers(-9, 10, shape)
    return (values > 0) if dtype is np.bool_ else values.astype(dtype)


class Item:
    """One index item, spelled for each library."""

    def __init__(self, torch_form, ctensor_form, numpy_form):
        self.torch, self.ctensor, self.numpy = torch_form, ctensor_form, numpy_form


def plain(value):
    return Item(value, value, value)


def integer_array(rng, bshape, size, out_of_range):
    """Indices for a dim of `size` in one of several containers."""
    hi = max(size, 1)
    values = np.asarray(rng.integers(-hi, hi, bshape))
    if out_of_range and values.size:
        values.flat[rng.integers(values.size)] = rng.choice([size, -size - 1, size + 3])
    form = rng.integers(5)
    if form == 0:  # a list (torch: int64)
        return Item(values.tolist(), values.tolist(), values)
    if form == 1:  # int64 tensors
        return Item(torch.from_numpy(values), ctensor.from_numpy(values), values)
    if form == 2:  # a NumPy array of another width (torch gets the int64 tensor)
        narrow = values.astype(rng.choice([np.int8, np.int16, np.int32]))
        return Item(torch.from_numpy(values), narrow, narrow)
    if form == 3:  # a strided view
        spread = np.zeros(tuple(s * 2 for s in bshape), dtype=np.int64)
        view = spread[tuple(slice(None, None, 2) for _ in bshape) or ...]
        view[...] = values
        return Item(torch.from_numpy(view), ctensor.from_numpy(view), view)
    transposed = np.ascontiguousarray(values.T).T  # column-major strides
    return Item(torch.from_numpy(transposed), ctensor.from_numpy(transposed), transposed)


def mask(rng, shape):
    bits = rng.random(shape) < 0.5
    if rng.integers(3) == 0:
        return Item(torch.from_numpy(bits), ctensor.from_numpy(bits), bits)
    if rng.integers(2) == 0 and len(shape) == 1:
        return Item(torch.tensor(bits.tolist(), dtype=torch.bool), bits.tolist(), bits)
    return Item(torch.from_numpy(bits), bits, bits)


def random_slice(rng, allow_negative):
    pick = lambda: rng.choice([None, 0, 1, 2, -1, -2, 5])
    steps = [None, 1, 2, 3] + ([-1, -2] if allow_negative else [])
    return slice(pick(), pick(), steps[rng.integers(len(steps))])


def random_index(rng, shape, numpy_mode):
    """Items for the dims of `shape` (some left out), and whether it has advanced ones.
    numpy_mode: no ints (NumPy would make them advanced) and no 0-dim arrays."""
    items, dim, advanced = [], 0, False
    bshapes = [(rng.integers(0, 4),), (2, 1), (1, 3), (rng.integers(1, 3), rng.integers(1, 3)), ()]
    bshape = bshapes[rng.integers(len(bshapes) - (1 if numpy_mode else 0))]
    if rng.random() < 0.1:
        items.append(plain(Ellipsis))
        dim = max(0, len(shape) - rng.integers(1, 3))
    while dim < len(shape) and rng.random() < 0.85:
        r = rng.random()
        size = shape[dim]
        if r < 0.25:
            items.append(plain(random_slice(rng, numpy_mode)))
            dim += 1
        elif r < 0.35 and not numpy_mode and size > 0:
            items.append(plain(int(rng.integers(-size, size))))
            dim += 1
        elif r < 0.42:
            items.append(plain(None))
        elif r < 0.8:
            mismatch = rng.random() < 0.05
            items.append(integer_array(rng, (5,) if mismatch else bshape, size, rng.random() < 0.05))
            advanced = True
            dim += 1
        else:
            k = int(rng.integers(1, len(shape) - dim + 1))
            mshape = list(shape[dim:dim + k])
            if rng.random() < 0.05:
                mshape[-1] += 1  # a mask that does not fit
            items.append(mask(rng, tuple(mshape)))
            advanced = True
            dim += k
    return items, advanced


def outcome(fn):
    """(result, None) or (None, the exception)."""
    try:
        return fn(), None
    except (IndexError, RuntimeError, ValueError, TypeError) as e:
        return None, e


def as_numpy(t):
    return t.numpy() if isinstance(t, torch.Tensor) else np.asarray(t.numpy())


def checked_where_empty(want, error):
    """torch and NumPy 1.24 check no index when the result is empty (NumPy warns
    that it will); ctensor checks every index."""
    empty = want is not None and (want.numel() if isinstance(want, torch.Tensor) else np.size(want)) == 0
    return empty and isinstance(error, IndexError) and "out of bounds" in str(error)


def torch_mask_quirk(items):
    """torch 1.13 counts a mask of several dims as one while it applies the basic
    items after it (t[mask2d, 0:2] slices dim 1); ctensor and NumPy do not."""
    seen_mask = False
    for item in items:
        basic = not (isinstance(item.numpy, np.ndarray) and item.numpy.ndim > 0)
        if seen_mask and basic:
            return True
        seen_mask = seen_mask or (isinstance(item.numpy, np.ndarray) and item.numpy.dtype == np.bool_ and item.numpy.ndim > 1)
    return False


def same_error(got, want):
    return type(got) is type(want)


def check_same(got, want, context):
    got, want = as_numpy(got), np.asarray(want)
    assert got.shape == want.shape, context
    assert got.dtype == want.dtype, context
    assert np.array_equal(got, want), context


@pytest.mark.parametrize("seed", range(6))
def test_getitem_matches_torch_and_numpy(seed):
    rng = np.random.default_rng(seed)
    compared = refused = 0
    for case in range(600):
        numpy_mode = case % 2 == 1
        shape = tuple(int(s) for s in rng.integers(0, 5, rng.integers(1, 5)))
        a = random_array(rng, shape, DTYPES[rng.integers(len(DTYPES))])
        items, advanced = random_index(rng, shape, numpy_mode)
        if not advanced:
            continue
        c = ctensor.from_numpy(a.copy())
        got, got_error = outcome(lambda: c[tuple(i.ctensor for i in items)])
        negative_step = any(isinstance(i.numpy, slice) and (i.numpy.step or 1) < 0 for i in items)
        context = (seed, case, shape, a.dtype, [i.numpy for i in items], got_error)
        if not negative_step and not torch_mask_quirk(items):
            want, want_error = outcome(lambda: torch.from_numpy(a.copy())[tuple(i.torch for i in items)])
            if not checked_where_empty(want, got_error):
                assert same_error(got_error, want_error), context + (want_error,)
                if want is not None:
                    check_same(got, want.numpy(), context)
        if numpy_mode:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                want, want_error = outcome(lambda: a[tuple(i.numpy for i in items)])
            if not checked_where_empty(want, got_error):
                assert (got_error is None) == (want_error is None), context + (want_error,)
                if isinstance(want_error, IndexError):
                    assert isinstance(got_error, IndexError), context
                if want is not None:
                    check_same(got, want, context)
        compared += got_error is None
        refused += got_error is not None
    assert compared > 200 and refused > 10


def last_write_reference(a, items, values):
    """a after a[index] = values, each element the value of the last result
    position (C order) that names it; positions mapped through torch's getitem."""
    ids = torch.arange(a.size).view(a.shape)
    where = ids[tuple(i.torch for i in items)].numpy()
    source = np.broadcast_to(values, where.shape) if where.ndim >= np.ndim(values) else None
    if source is None:  # extra leading size-1 dims, as torch drops them
        source = np.asarray(values).reshape(np.shape(values)[np.ndim(values) - where.ndim:])
        source = np.broadcast_to(source, where.shape)
    out = a.copy().reshape(-1)
    for position, element in np.ndenumerate(where):
        out[element] = source[position]
    counts = np.bincount(where.reshape(-1), minlength=a.size).reshape(a.shape)
    return out.reshape(a.shape), counts


def random_values(rng, shape, dtype):
    """Values for a result of `shape`: its own shape, fewer dims, size-1 dims,
    extra leading size-1 dims, or a Python number."""
    r = rng.random()
    if r < 0.15:
        return random_array(rng, (), dtype).item()
    vshape = list(shape)
    if r < 0.35 and vshape:
        vshape = vshape[rng.integers(len(vshape) + 1):]
    elif r < 0.5:
        vshape = [1 if rng.random() < 0.5 else s for s in vshape]
    elif r < 0.6:
        vshape = [1] * int(rng.integers(1, 3)) + vshape
    return np.asarray(random_array(rng, tuple(vshape), dtype))


@pytest.mark.parametrize("seed", range(6))
def test_setitem_matches_torch_with_last_write_wins(seed):
    rng = np.random.default_rng(100 + seed)
    compared = repeated = 0
    for case in range(500):
        shape = tuple(int(s) for s in rng.integers(1, 5, rng.integers(1, 5)))
        dtype = DTYPES[rng.integers(len(DTYPES))]
        a = random_array(rng, shape, dtype)
        items, advanced = random_index(rng, shape, numpy_mode=False)
        if not advanced or torch_mask_quirk(items):  # the reference maps positions through torch's getitem
            continue
        try:
            result_shape = tuple(torch.from_numpy(a.copy())[tuple(i.torch for i in items)].shape)
        except (IndexError, RuntimeError):
            continue  # refusals are the getitem test's
        values = random_values(rng, result_shape, dtype)
        context = (seed, case, shape, a.dtype, [i.numpy for i in items], np.shape(values))
        want, counts = last_write_reference(a, items, values)
        c = ctensor.from_numpy(a.copy())

        def assign():
            c[tuple(i.ctensor for i in items)] = ctensor.from_numpy(values) if isinstance(values, np.ndarray) else values

        _, error = outcome(assign)
        got = c.numpy()
        if np.prod(result_shape) == 0 and checked_where_empty(np.zeros(0), error):
            assert np.array_equal(got, a), context
            continue
        assert error is None, context + (error,)
        assert np.array_equal(got, want), context
        t = torch.from_numpy(a.copy())
        t[tuple(i.torch for i in items)] = torch.from_numpy(values) if isinstance(values, np.ndarray) else values
        once = counts <= 1
        assert np.array_equal(got[once], t.numpy()[once]), context
        compared += 1
        repeated += int((counts > 1).any())
    assert compared > 150 and repeated > 10


def test_setitem_refusals_match_torch():
    """Values that do not broadcast to the result (RuntimeError), indices that do
    not broadcast or do not fit (IndexError), values of another dtype."""
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    cases = [
        ((torch.tensor([0, 1]),), ([0, 1],), np.ones(3, dtype=np.float32)),
        ((torch.tensor([0, 1]), torch.tensor([0, 1, 2])), ([0, 1], [0, 1, 2]), 1.0),
        ((torch.tensor([0, 3]),), ([0, 3],), 1.0),
        ((torch.tensor([[True, False, True]]),), (np.array([[True, False, True]]),), 1.0),
        ((torch.tensor([0, 1]),), ([0, 1],), np.ones(4, dtype=np.float64)),
    ]
    for torch_index, ctensor_index, values in cases:
        t, c = torch.from_numpy(a.copy()), ctensor.from_numpy(a.copy())
        tv = values if np.ndim(values) == 0 else torch.from_numpy(values)
        cv = values if np.ndim(values) == 0 else ctensor.from_numpy(values)

        def torch_set():
            t[torch_index] = tv

        def ctensor_set():
            c[ctensor_index] = cv

        _, want_error = outcome(torch_set)
        _, got_error = outcome(ctensor_set)
        assert want_error is not None and same_error(got_error, want_error), (ctensor_index, want_error, got_error)
        assert np.array_equal(c.numpy(), a)  # nothing written


def test_nonzero_columns_match_torch():
    rng = np.random.default_rng(5)
    for _ in range(50):
        shape = tuple(int(s) for s in rng.integers(0, 4, rng.integers(1, 4)))
        bits = rng.random(shape) < 0.4
        c = ctensor.from_numpy(bits)
        assert c[c].tolist() == torch.from_numpy(bits)[torch.from_numpy(bits)].tolist()
        rows = ctensor.from_numpy(np.arange(bits.size, dtype=np.float64).reshape(shape))
        picked = rows[ctensor.from_numpy(bits)]
        assert picked.tolist() == np.arange(bits.size, dtype=np.float64).reshape(shape)[bits].tolist()
