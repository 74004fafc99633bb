"""ctensor.device and the memory_format constants (ctensor/_device.py) against
PyTorch 1.13's torch.device and torch.contiguous_format & co."""
import pickle

import numpy
import pytest
import torch

import ctensor

DEVICE_ARGS = [
    ("cpu",), ("cuda",), ("cuda:1",), ("cuda:0",), ("cuda:10",), ("cpu:0",), ("meta",), ("hip:0",), ("mps",),
    ("privateuseone",), ("cuda", 1), ("cuda", 0), ("cpu", 1), ("cuda", None), ("cuda", numpy.int64(2)), (3,),
    (numpy.int64(1),), ("cuda:x",), ("cuda:-1",), ("cuda:+1",), ("cuda: 1",), ("cuda:01",), ("cuda:00",),
    ("cuda:",), ("cuda:1:2",), ("cuda1",), ("cu da",), ("cuda_1",), (" cpu",), ("cpu ",), ("cuda:1 ",),
    ("cuda:\u0663",), ("",), ("bogus",), ("bogus:1",), ("CPU",), ("cu_da",), ("cuda:1", 2), ("cuda", -1),
    ("cuda", -2), (-1,), ("cuda", 1.0), ("cuda", True), ("cpu", "0"), (True,), (None,), (1.5,), (["cpu"],),
]


def outcome(make):
    """The device's repr and str, or the exception: its type, and its message
    for RuntimeErrors (TypeError messages name torch's internals)."""
    try:
        d = make()
    except RuntimeError as e:
        return "RuntimeError", str(e)
    except TypeError:
        return "TypeError"
    return repr(d), str(d), d.type, d.index


@pytest.mark.parametrize("args", DEVICE_ARGS, ids=repr)
def test_device_construction_like_torch(args):
    assert outcome(lambda: ctensor.device(*args)) == outcome(lambda: torch.device(*args))


def test_device_keywords_copies_and_errors_like_torch():
    assert outcome(lambda: ctensor.device(type="cuda", index=2)) == outcome(lambda: torch.device(type="cuda", index=2))
    assert outcome(lambda: ctensor.device(index=1, type="cuda")) == outcome(lambda: torch.device(index=1, type="cuda"))
    for bad in [lambda m: m.device(), lambda m: m.device("cpu", 1, 2), lambda m: m.device(m.device("cpu"), 1)]:
        assert outcome(lambda: bad(ctensor)) == outcome(lambda: bad(torch)) == "TypeError"
    d = ctensor.device("cuda:1")
    assert ctensor.device(d) is d  # as torch.device(d) gives d's value; ctensor shares the immutable object
    with pytest.raises(TypeError):
        class Sub(ctensor.device):  # torch.device is not an acceptable base type either
            pass
    with pytest.raises(AttributeError):
        d.type = "cpu"
    with pytest.raises(AttributeError):
        d.other = 1


def test_device_equality_hash_and_pickle_like_torch():
    pairs = [("cpu",), ("cpu", 0), ("cuda",), ("cuda", 0), ("cuda", 1), ("cuda:1",), ("meta",)]
    for a in pairs:
        for b in pairs:
            assert (ctensor.device(*a) == ctensor.device(*b)) == (torch.device(*a) == torch.device(*b))
            assert (ctensor.device(*a) != ctensor.device(*b)) == (torch.device(*a) != torch.device(*b))
            if ctensor.device(*a) == ctensor.device(*b):
                assert hash(ctensor.device(*a)) == hash(ctensor.device(*b))
        d = ctensor.device(*a)
        assert pickle.loads(pickle.dumps(d)) == d and repr(pickle.loads(pickle.dumps(d))) == repr(d)
        assert (d == str(d)) == (torch.device(*a) == str(torch.device(*a)))
    assert {ctensor.device("cpu"): 1}[ctensor.device("cpu")] == 1
    assert repr(ctensor.device) == "<class 'ctensor.device'>"
    with pytest.raises(TypeError):
        ctensor.device("cpu") < ctensor.device("cpu")


def test_tensor_device_is_one_shared_cpu_device():
    t, u = ctensor.zeros(2), ctensor.arange(3)[1:]
    assert t.device is u.device and t.device == ctensor.device("cpu") and repr(t.device) == "device(type='cpu')"
    assert t.device.type == "cpu" and t.device.index is None and str(t.device) == "cpu"


@pytest.mark.parametrize("device", ["cpu", ctensor.device("cpu"), None])
def test_device_arguments_accept_cpu(device):
    assert ctensor.zeros(2, device=device).tolist() == [0.0, 0.0]
    assert ctensor.asarray([1], device=device).tolist() == [1]
    assert ctensor.arange(2, device=device).tolist() == [0, 1]
    assert ctensor.zeros(2).to(device).dtype == ctensor.float32
    assert ctensor.zeros(2).to(device=device, dtype=ctensor.int8).dtype == ctensor.int8


@pytest.mark.parametrize("device", ["cuda", "cuda:0", ctensor.device("cuda", 1), ctensor.device("meta")])
def test_other_devices_are_refused(device):
    for make in (lambda: ctensor.zeros(2, device=device), lambda: ctensor.asarray([1], device=device),
                 lambda: ctensor.zeros(2).to(device), lambda: ctensor.tensor([1], device=device)):
        with pytest.raises(RuntimeError, match="CPU"):
            make()


def test_memory_formats_like_torch():
    names = ["contiguous_format", "preserve_format", "channels_last", "channels_last_3d"]
    for name in names:
        f = getattr(ctensor, name)
        assert repr(f) == str(f) == repr(getattr(torch, name)).replace("torch.", "ctensor.")
        assert pickle.loads(pickle.dumps(f)) is f
    assert len({id(getattr(ctensor, n)) for n in names}) == 4
    x = ctensor.arange(24).view(2, 3, 4).transpose(0, 2)
    assert x.clone(memory_format=ctensor.contiguous_format).stride() == (6, 2, 1)
    assert x.clone(memory_format=ctensor.preserve_format).stride() == x.stride()
    assert x.contiguous(memory_format=ctensor.contiguous_format).is_contiguous()
    for fmt in (ctensor.channels_last, ctensor.channels_last_3d):
        with pytest.raises(NotImplementedError, match="channels_last"):
            x.clone(memory_format=fmt)
        with pytest.raises(NotImplementedError, match="channels_last"):
            x.contiguous(memory_format=fmt)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("copy", [False, True])
@pytest.mark.parametrize("fmt", ["contiguous_format", "preserve_format", None])
def test_to_memory_format_like_torch(dtype, copy, fmt):
    """to(memory_format=) lays out the copies it makes as torch's; without a copy it is self."""
    def run(lib):
        x = lib.arange(24.0).view(2, 3, 4).transpose(0, 2)
        kwargs = {} if fmt is None else {"memory_format": getattr(lib, fmt)}
        r = x.to(getattr(lib, dtype), copy=copy, **kwargs)
        return r.stride(), r is x, r.tolist()
    assert run(ctensor) == run(torch)


def test_to_channels_last_refused():
    with pytest.raises(RuntimeError, match="channels_last"):
        ctensor.zeros(2, 3).to(memory_format=ctensor.channels_last)


@pytest.mark.parametrize("name", ["empty_like", "zeros_like", "ones_like", "full_like"])
@pytest.mark.parametrize("fmt", ["contiguous_format", "preserve_format", None])
def test_like_factories_take_memory_format_like_torch(name, fmt):
    def run(lib):
        x = lib.arange(24.0).view(2, 3, 4).permute(2, 0, 1)
        args = (x, 7) if name == "full_like" else (x,)
        kwargs = {} if fmt is None else {"memory_format": getattr(lib, fmt)}
        r = getattr(lib, name)(*args, dtype=lib.float64, **kwargs)
        return r.shape, r.stride(), r.dtype == lib.float64, None if name == "empty_like" else r.tolist()
    assert run(ctensor) == run(torch)
    with pytest.raises(NotImplementedError, match="channels_last"):
        getattr(ctensor, name)(ctensor.zeros(2, 3), *([1] if name == "full_like" else []),
                               memory_format=ctensor.channels_last)
