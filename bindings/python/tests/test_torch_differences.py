"""Differences from PyTorch 1.13 that users met (issue: the Python package),
each checked against torch on the same inputs: dtype pickling by name, ravel's
copy, tensor_split with index tensors, broadcast_shapes and the *_copy view
functions."""
import pickle
import subprocess
import sys

import pytest
import torch

import ctensor


def same(r, expected):
    """r (ctensor) has expected's (torch) shape, strides and values."""
    assert tuple(r.shape) == tuple(expected.shape)
    assert r.stride() == expected.stride()
    assert r.tolist() == expected.tolist()


# ---- dtypes pickle by name, as torch's ------------------------------------------

def test_dtypes_say_their_module():
    for name in ("bool", "uint8", "int64", "float16", "bfloat16", "float32", "complex128"):
        dtype = getattr(ctensor, name)
        assert dtype.__module__ == "ctensor" == getattr(torch, name).__module__.replace("torch", "ctensor")
        assert pickle.loads(pickle.dumps(dtype)) is dtype


def test_pickling_a_bool_tensor_with_numpy_imported_warns_nothing():
    # numpy 1.24's np.bool deprecation fired when pickle searched every module
    # for the name "bool"; a warning is an error here.
    code = ("import numpy, pickle, ctensor\n"
            "t = ctensor.zeros(3, dtype=ctensor.bool)\n"
            "u = pickle.loads(pickle.dumps(t))\n"
            "assert u.dtype is ctensor.bool and u.tolist() == [False] * 3\n"
            "print('ok')\n")
    run = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "ok"


# ---- ravel ----------------------------------------------------------------------

RAVEL_INPUTS = [
    lambda m: m.ones(10)[::2],
    lambda m: m.arange(12).reshape(3, 4).t(),
    lambda m: m.arange(12).reshape(3, 4),
    lambda m: m.arange(24).reshape(2, 3, 4)[:, 1:2],
    lambda m: m.ones(1, 4).expand(3, 4),
]


@pytest.mark.parametrize("make", RAVEL_INPUTS)
def test_ravel_is_contiguous_view_or_copy_as_torch(make):
    t, expected = make(ctensor), make(torch)
    r = t.ravel()
    same(r, expected.ravel())
    shares = r.data_ptr() == t.data_ptr()
    assert shares == t.is_contiguous()
    assert shares == (expected.ravel().data_ptr() == expected.data_ptr())


def test_ravel_of_reversed_strides_copies():
    t = ctensor.arange(6).reshape(2, 3)[:, ::-1]
    r = t.ravel()
    assert r.tolist() == [2, 1, 0, 5, 4, 3] and r.stride() == (1,) and r.data_ptr() != t.data_ptr()


# ---- tensor_split with index tensors ---------------------------------------------

@pytest.mark.parametrize("spec", [[2, 5], [3], [], [0, 0, 9, 12], [-3, 4]])
def test_tensor_split_with_a_1d_index_tensor(spec):
    got = ctensor.arange(10).tensor_split(ctensor.asarray(spec, dtype=ctensor.int64))
    want = torch.arange(10).tensor_split(torch.tensor(spec, dtype=torch.int64))
    assert [g.tolist() for g in got] == [w.tolist() for w in want]


def test_tensor_split_with_a_0d_tensor_is_sections():
    got = ctensor.arange(10).reshape(2, 5).tensor_split(ctensor.asarray(3), dim=1)
    want = torch.arange(10).reshape(2, 5).tensor_split(torch.tensor(3), dim=1)
    assert [g.tolist() for g in got] == [w.tolist() for w in want]


@pytest.mark.parametrize("spec", [lambda m: m.asarray([1, 4]).to(m.int32), lambda m: m.asarray([[1]])])
def test_tensor_split_refuses_index_tensors_as_torch(spec):
    with pytest.raises(RuntimeError) as torch_error:
        torch.arange(10).tensor_split(spec(torch))
    with pytest.raises(RuntimeError) as ours:
        ctensor.arange(10).tensor_split(spec(ctensor))
    assert str(ours.value).split(",")[0] == str(torch_error.value).split(",")[0]


# ---- broadcast_shapes ------------------------------------------------------------

@pytest.mark.parametrize("shapes", [((2, 1), (3, 1, 4)), (3, (2, 1)), (), ((0,), (1,)), ([5, 1], (1,), 5),
                                    ((1, 0), (3, 1)), (torch.Size([2, 3]),)])
def test_broadcast_shapes(shapes):
    assert tuple(ctensor.broadcast_shapes(*shapes)) == tuple(torch.broadcast_shapes(*shapes))
    assert isinstance(ctensor.broadcast_shapes(*shapes), ctensor.Size)


@pytest.mark.parametrize("shapes", [((2,), (3,)), ((-1,), (2,)), ((2, 3), (3, 2)), ("a",)])
def test_broadcast_shapes_refuses_as_torch(shapes):
    with pytest.raises(RuntimeError):
        torch.broadcast_shapes(*shapes)
    with pytest.raises(RuntimeError):
        ctensor.broadcast_shapes(*shapes)


# ---- the *_copy view functions -----------------------------------------------------

COPIES = [
    ("transpose_copy", (0, 1)), ("t_copy", ()), ("slice_copy", (1, 1, None, 2)), ("slice_copy", (0, 1)), ("slice_copy", (0, 1, 3)),
    ("select_copy", (1, 2)), ("diagonal_copy", ()), ("diagonal_copy", (1,)), ("expand_copy", ((2, 3, 4),)),
    ("narrow_copy", (1, 1, 2)), ("permute_copy", ((1, 0),)), ("unsqueeze_copy", (0,)), ("view_copy", ((4, 3),)),
    ("as_strided_copy", ((2, 2), (1, 4))), ("alias_copy", ()), ("detach_copy", ()), ("squeeze_copy", ()),
    ("unfold_copy", (1, 2, 1)),
]


@pytest.mark.parametrize("name,args", COPIES)
def test_copy_variants_match_torch_and_own_their_memory(name, args):
    x, tx = ctensor.arange(12.0).reshape(3, 4), torch.arange(12.0).reshape(3, 4)
    r = getattr(ctensor, name)(x, *args)
    # torch 1.13's own slice_copy gives wrong sizes (slice_copy(x, 0, 1, 3) has 1 row):
    # the oracle is what its documentation promises, aten.slice's elements copied.
    oracle = (lambda t, *a: torch.ops.aten.slice(t, *a).clone()) if name == "slice_copy" else getattr(torch, name)
    same(r, oracle(tx, *args))
    x.fill_(-1)
    assert -1 not in r.flatten().tolist()


@pytest.mark.parametrize("name,args", [("split_copy", (2, 1)), ("unbind_copy", (1,)),
                                       ("split_with_sizes_copy", ([1, 3], 1))])
def test_split_copy_variants_give_tuples_of_copies(name, args):
    x, tx = ctensor.arange(12.0).reshape(3, 4), torch.arange(12.0).reshape(3, 4)
    got, want = getattr(ctensor, name)(x, *args), getattr(torch, name)(tx, *args)
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        same(g, w)
        assert g.data_ptr() != x.data_ptr()


def test_copy_variant_out_copies_into_out():
    x, tx = ctensor.arange(6.0).reshape(2, 3), torch.arange(6.0).reshape(2, 3)
    out, tout = ctensor.empty(3, 2), torch.empty(3, 2)
    assert ctensor.t_copy(x, out=out) is out
    torch.t_copy(tx, out=tout)
    same(out, tout)
    with pytest.raises(RuntimeError):
        ctensor.t_copy(x, out=ctensor.empty(5))


# ---- out= on math functions and reductions -------------------------------------------

def both(fn):
    """fn(lib) on ctensor and torch: (ctensor result or exception class, torch's)."""
    results = []
    for lib in (ctensor, torch):
        try:
            results.append(fn(lib))
        except Exception as e:  # noqa: BLE001 - the class is compared
            results.append(type(e))
    return results


OUT_CASES = [
    lambda m: m.add(m.ones(2, 3), 1, out=m.empty(2, 3)),
    lambda m: m.add(m.ones(2, 3), m.ones(3), out=m.empty(2, 3, dtype=m.float64)),
    lambda m: m.add(m.ones(2, 3), 1, out=m.empty(2, 3, dtype=m.int64)),   # float can't go into int64
    lambda m: m.mul(m.arange(6).reshape(2, 3), 2, out=m.empty(2, 3, dtype=m.int64)),
    lambda m: m.div(m.arange(6).reshape(2, 3), 4, out=m.empty(2, 3)),
    lambda m: m.pow(m.arange(6), 2, out=m.empty(6, dtype=m.int64)),
    lambda m: m.eq(m.arange(6), 2, out=m.empty(6, dtype=m.bool)),
    lambda m: m.maximum(m.arange(6), m.asarray(3), out=m.empty(6, dtype=m.int64)),
    lambda m: m.sum(m.ones(2, 3), 0, out=m.empty(3, dtype=m.float64)),
    lambda m: m.sum(m.ones(2, 3), 1, keepdim=True, out=m.empty(2, 1)),
    lambda m: m.mean(m.ones(2, 3), 0, out=m.empty(3, dtype=m.float64)),
    lambda m: m.prod(m.ones(2, 3), 1, out=m.empty(2, dtype=m.int32)),
    lambda m: m.amax(m.arange(6.0).reshape(2, 3), 0, out=m.empty(3)),
    lambda m: m.amax(m.arange(6.0).reshape(2, 3), 0, out=m.empty(3, dtype=m.float64)),  # dtype must match
    lambda m: m.amin(m.arange(6.0).reshape(2, 3), 1, out=m.empty(2)),
    lambda m: m.cat([m.ones(2, 3), m.zeros(1, 3)], out=m.empty(3, 3)),
    lambda m: m.cat([m.ones(2, 3), m.zeros(1, 3)], out=m.empty(3, 3, dtype=m.float64)),
    lambda m: m.stack([m.ones(2, 3), m.zeros(2, 3)], 1, out=m.empty(2, 2, 3)),
]


@pytest.mark.parametrize("case", OUT_CASES)
def test_out_as_torch(case):
    ours, theirs = both(case)
    if isinstance(theirs, type):
        assert ours is theirs or (isinstance(ours, type) and issubclass(ours, Exception)), (ours, theirs)
        return
    assert isinstance(ours, ctensor.Tensor), ours
    assert str(ours.dtype).split(".")[1] == str(theirs.dtype).split(".")[1]
    assert tuple(ours.shape) == tuple(theirs.shape) and ours.tolist() == theirs.tolist()


def test_out_is_returned_and_written():
    out = ctensor.empty(2, 3)
    assert ctensor.add(ctensor.ones(2, 3), 2, out=out) is out and out.tolist() == [[3.0] * 3] * 2
    total = ctensor.empty(3)
    assert ctensor.sum(ctensor.ones(2, 3), 0, out=total) is total and total.tolist() == [2.0] * 3


def test_out_of_another_shape_is_refused_not_resized():
    # torch resizes a wrong-shaped out= with a deprecation warning; ctensor tensors never
    # change shape, so it refuses with the shapes named.
    with pytest.raises(RuntimeError, match=r"out= has shape"):
        ctensor.sum(ctensor.ones(2, 3), 0, out=ctensor.empty(4))
    with pytest.raises(RuntimeError, match=r"never resizes"):
        ctensor.add(ctensor.ones(2, 3), 1, out=ctensor.empty(5))


def test_methods_refuse_out_as_torchs_do():
    with pytest.raises(TypeError):
        torch.ones(2, 3).sum(0, out=torch.empty(3))
    with pytest.raises(TypeError):
        ctensor.ones(2, 3).sum(0, out=ctensor.empty(3))
