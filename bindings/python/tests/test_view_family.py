"""The rest of the view family (diagonal, unfold, movedim/moveaxis, swapdims,
unflatten, split/tensor_split/chunk/hsplit/vsplit/dsplit, atleast_1d/2d/3d)
against PyTorch 1.13 on random strided tensors: the same sizes, strides,
storage offsets and values for every result, and the same exception class
where torch refuses."""
import random

import pytest
import torch

import ctensor


def pair(rng):
    """The same random strided view of arange(512) in torch and ctensor."""
    ndim = rng.randint(0, 4)
    sizes = [rng.randint(0, 5) for _ in range(ndim)]
    strides = [rng.randint(0, 9) for _ in range(ndim)]
    offset = rng.randint(0, 20)
    base_t = torch.arange(512, dtype=torch.float32)
    base_c = ctensor.arange(512, dtype=ctensor.float32)
    return base_t.as_strided(sizes, strides, offset), base_c.as_strided(sizes, strides, offset)


def describe(r):
    if isinstance(r, (tuple, list)):
        return [describe(x) for x in r]
    return (tuple(r.shape), tuple(r.stride()), r.storage_offset(), r.tolist())


def outcome(fn, t):
    try:
        return describe(fn(t))
    except Exception as e:  # the class must match; the messages are ctensor's own
        return type(e).__name__


def random_call(rng, ndim):
    """(text, fn) with fn(module_or_tensor) applying one op with random arguments."""
    d = lambda: rng.randint(-ndim - 1, ndim)
    n = lambda: rng.randint(-1, 5)
    ints = lambda: [rng.randint(-1, 5) for _ in range(rng.randint(0, 3))]
    choices = [
        ("diagonal", lambda: (rng.randint(-3, 3), d(), d())),
        ("unfold", lambda: (d(), n(), rng.randint(0, 3))),
        ("movedim", lambda: (d(), d())),
        ("movedim", lambda: ([d() for _ in range(2)], [d() for _ in range(2)])),
        ("swapdims", lambda: (d(), d())),
        ("unflatten", lambda: (d(), tuple(rng.choice([-1, 1, 2, 3]) for _ in range(rng.randint(0, 3))))),
        ("split", lambda: (n(), d())),
        ("split", lambda: (ints(), d())),
        ("chunk", lambda: (n(), d())),
        ("tensor_split", lambda: (n(), d())),
        ("tensor_split", lambda: ([rng.randint(-6, 6) for _ in range(rng.randint(0, 4))], d())),
    ]
    name, args = rng.choice(choices)
    a = args()
    return f"t.{name}{a}", (lambda t: getattr(t, name)(*a))


@pytest.mark.parametrize("seed", range(4))
def test_view_family_matches_torch(seed):
    rng = random.Random(seed)
    for _ in range(600):
        tt, ct = pair(rng)
        text, fn = random_call(rng, tt.dim())
        want, got = outcome(fn, tt), outcome(fn, ct)
        if isinstance(want, tuple) and min(want[0], default=0) < 0:
            want = "RuntimeError"  # torch 1.13's unfold(d, -1, step) makes a size of -1; ctensor refuses
        assert got == want, (tuple(tt.shape), tt.stride(), text, want, got)


@pytest.mark.parametrize("name", ["hsplit", "vsplit", "dsplit", "atleast_1d", "atleast_2d", "atleast_3d"])
def test_module_functions_match_torch(name):
    rng = random.Random(name)
    for _ in range(300):
        tt, ct = pair(rng)
        if name.startswith("atleast"):
            args = ()
        else:
            args = (rng.choice([rng.randint(-1, 4), [rng.randint(-2, 5) for _ in range(rng.randint(0, 3))]]),)
        want = outcome(lambda t: getattr(torch, name)(t, *args), tt)
        got = outcome(lambda t: getattr(ctensor, name)(t, *args), ct)
        assert got == want, (tuple(tt.shape), tt.stride(), name, args, want, got)


def test_atleast_of_several_tensors():
    a_t, b_t = torch.tensor(1.0), torch.arange(3.0)
    a_c, b_c = ctensor.tensor(1.0), ctensor.arange(3.0)
    assert describe(ctensor.atleast_2d(a_c, b_c)) == describe(torch.atleast_2d(a_t, b_t))
    assert describe(ctensor.atleast_3d([a_c, b_c])) == describe(torch.atleast_3d([a_t, b_t]))


def test_splits_share_memory():
    t = ctensor.arange(10)
    pieces = t.tensor_split([3, 7])
    pieces[1][0] = -1
    assert t[3].item() == -1
    assert [p.data_ptr() for p in pieces] == [t.data_ptr() + 8 * i for i in (0, 3, 7)]
