"""Tensor inspection, values, factories, dtypes, storages and the mapping of
errors to PyTorch's exception types."""
import copy
import math
import pickle
import threading

import numpy
import pytest
import torch

import ctensor
from binding_helpers import same_as_torch, torch_repr

ALL_DTYPES = ["uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex64",
              "complex128", "bool", "bfloat16", "uint16", "uint32", "uint64"]


def test_dtype_objects():
    sizes = {"uint8": 1, "int8": 1, "int16": 2, "int32": 4, "int64": 8, "float16": 2, "float32": 4, "float64": 8,
             "complex64": 8, "complex128": 16, "bool": 1, "bfloat16": 2, "uint16": 2, "uint32": 4, "uint64": 8}
    for name in ALL_DTYPES:
        d = getattr(ctensor, name)
        assert isinstance(d, ctensor.dtype) and repr(d) == "ctensor." + name and d.itemsize == sizes[name]
        if hasattr(torch, name):
            td = getattr(torch, name)
            assert (d.is_floating_point, d.is_complex, d.is_signed) == (td.is_floating_point, td.is_complex, td.is_signed)
    assert ctensor.float is ctensor.float32 and ctensor.long is ctensor.int64 and ctensor.half is ctensor.float16
    assert ctensor.double is ctensor.float64 and ctensor.cfloat is ctensor.complex64


def test_inspection_matches_torch():
    c = ctensor.arange(24).view(2, 3, 4).permute(2, 0, 1)[1:, :, ::2]
    r = torch.arange(24).view(2, 3, 4).permute(2, 0, 1)[1:, :, ::2]
    assert c.shape == r.shape and c.size() == r.size() and c.size(-1) == r.size(-1)
    assert c.stride() == r.stride() and c.stride(0) == r.stride(0) and c.storage_offset() == r.storage_offset()
    assert c.ndim == r.ndim and c.dim() == r.dim() and c.numel() == r.numel()
    assert c.is_contiguous() == r.is_contiguous() and c.element_size() == r.element_size()
    assert repr(c.shape) == "ctensor.Size([3, 2, 2])" and repr(ctensor.tensor(1).shape) == "ctensor.Size([])"
    assert isinstance(c.shape, tuple) and c.shape == (3, 2, 2) and c.shape.numel() == 12
    assert c.data_ptr() - c.untyped_storage().data_ptr() == c.storage_offset() * 8
    assert not c.requires_grad and str(c.device) == "cpu" and c.device == ctensor.device("cpu")
    with pytest.raises(IndexError) as e:
        r.size(3)
    with pytest.raises(type(e.value)):
        c.size(3)


def test_untyped_storage():
    t = ctensor.zeros(4, 5)
    v = t[1:, 2]
    s = t.untyped_storage()
    assert s == v.untyped_storage() and hash(s) == hash(v.untyped_storage())
    assert s != ctensor.zeros(4, 5).untyped_storage()
    assert s.nbytes() == 80 and len(s) == 80 and s.data_ptr() == t.data_ptr()
    assert v.data_ptr() == s.data_ptr() + v.storage_offset() * 4


def test_item_tolist_and_scalar_conversions():
    assert ctensor.tensor(3).item() == 3 and isinstance(ctensor.tensor(3).item(), int)
    assert ctensor.tensor(2.5).item() == 2.5 and ctensor.tensor(True).item() is True
    assert ctensor.tensor(1 + 2j).item() == 1 + 2j
    assert ctensor.tensor([0.1], dtype=ctensor.float32).item() == torch.tensor([0.1]).item()
    assert ctensor.tensor([1.5], dtype=ctensor.bfloat16).item() == 1.5
    assert ctensor.tensor([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    assert ctensor.tensor(7).tolist() == 7
    assert int(ctensor.tensor([5])) == 5 and float(ctensor.tensor(2)) == 2.0 and complex(ctensor.tensor(1j)) == 1j
    assert [10, 20, 30][ctensor.tensor(1)] == 20
    assert bool(ctensor.tensor([0])) is False and bool(ctensor.tensor(3.0)) is True
    assert math.isnan(ctensor.tensor(float("nan")).item())
    assert f"{ctensor.tensor(3.14159):.2f}" == "3.14" and f"{ctensor.arange(2)}" == "tensor([0, 1])"
    big = ctensor.tensor([2**63 - 1, -2**63])
    assert big.tolist() == [2**63 - 1, -2**63]
    with pytest.raises(ValueError):
        ctensor.tensor([1, 2]).item()
    with pytest.raises(RuntimeError, match="ambiguous"):
        bool(ctensor.tensor([1, 2]))
    with pytest.raises(TypeError):
        [1][ctensor.tensor(0.0)]


def test_len_iteration_and_eq():
    t = ctensor.arange(6).view(3, 2)
    assert len(t) == 3
    rows = list(t)
    assert [r.tolist() for r in rows] == [[0, 1], [2, 3], [4, 5]]
    assert [x.item() for x in t[0]] == [0, 1]
    with pytest.raises(TypeError, match="len"):
        len(ctensor.tensor(1))
    with pytest.raises(TypeError, match="iteration"):
        iter(ctensor.tensor(1))
    eq = t == 3
    assert eq.dtype is ctensor.bool and eq.tolist() == (torch.arange(6).view(3, 2) == 3).tolist()
    assert (t != 3).tolist() == [[True, True], [True, False], [True, True]]
    assert (ctensor.tensor([1.5, 2.0]) == 1.5).tolist() == [True, False]
    assert (ctensor.tensor([True, False]) == True).tolist() == [True, False]  # noqa: E712
    assert (ctensor.tensor([1 + 1j, 1]) == 1).tolist() == [False, True]
    assert {t: 1}[t] == 1  # hashable by identity, as torch tensors
    r = torch.arange(6).view(3, 2)
    for other_c, other_t in [(t, r), (ctensor.tensor([0, 3]), torch.tensor([0, 3])), (ctensor.tensor(2.0), torch.tensor(2.0)),
                             (ctensor.tensor([[1], [2], [4]]), torch.tensor([[1], [2], [4]]))]:
        assert (t == other_c).tolist() == (r == other_t).tolist() and (t != other_c).tolist() == (r != other_t).tolist()
    assert (ctensor.tensor([2**62 + 1]) == 2**62).tolist() == [False]  # exact beyond 2**53
    with pytest.raises(RuntimeError, match="must match"):
        t == ctensor.zeros(4)  # noqa: B015
    assert (t == "a") is False


@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
def test_shape_factories(name):
    for args, kwargs in [((2, 3), {}), (((2, 3),), {}), (([4],), {"dtype": "int32"}), ((), {"size": (1, 2)}),
                         ((0,), {"dtype": "bool"})]:
        kwargs_c = {k: getattr(ctensor, v) if k == "dtype" else v for k, v in kwargs.items()}
        kwargs_t = {k: getattr(torch, v) if k == "dtype" else v for k, v in kwargs.items()}
        c, r = getattr(ctensor, name)(*args, **kwargs_c), getattr(torch, name)(*args, **kwargs_t)
        assert c.shape == r.shape and repr(c.dtype).split(".")[1] == repr(r.dtype).split(".")[1]
        if name != "empty":
            same_as_torch(c, r)
            assert repr(c) == torch_repr(r)


def test_full_and_arange_like_torch():
    for args in [((2, 2), 7), ((3,), 1.5), ((2,), True), ((1, 2), 1j), ((2,), -1)]:
        same_as_torch(ctensor.full(*args), torch.full(*args))
    same_as_torch(ctensor.full((2,), 3, dtype=ctensor.float64), torch.full((2,), 3, dtype=torch.float64))
    for args in [(5,), (2, 9), (2, 9, 3), (0, 1, 0.1), (1.5, 4), (10, 0, -3), (0, -1, -0.25), (0,), (3, 3),
                 (0, 5, 1.5)]:
        same_as_torch(ctensor.arange(*args), torch.arange(*args))
        assert repr(ctensor.arange(*args)) == torch_repr(torch.arange(*args))
    same_as_torch(ctensor.arange(5, dtype=ctensor.float64), torch.arange(5, dtype=torch.float64))
    same_as_torch(ctensor.arange(start=1, end=4), torch.arange(start=1, end=4))
    for args in [(0, 5, 0), (0, 5, -1), (5, 0)]:
        with pytest.raises(RuntimeError):
            torch.arange(*args)
        with pytest.raises(RuntimeError):
            ctensor.arange(*args)
    with pytest.raises(RuntimeError):
        ctensor.zeros(-1)


def test_fill_and_scalar_assignment_write_through_overlap_like_torch():
    c, t = ctensor.zeros(2), torch.zeros(2)
    c.as_strided((2, 2), (0, 1)).fill_(4)
    t.as_strided((2, 2), (0, 1)).fill_(4)
    c.as_strided((3, 2), (0, 1))[...] = 5
    t.as_strided((3, 2), (0, 1))[...] = 5
    assert c.tolist() == t.tolist() == [5.0, 5.0]
    with pytest.raises(RuntimeError):  # copy_ into overlapping memory is refused by both
        torch.zeros(2).as_strided((2, 2), (0, 1)).copy_(torch.ones(2, 2))
    with pytest.raises(RuntimeError):
        c.as_strided((2, 2), (0, 1)).copy_(ctensor.ones(2, 2))
    ro = ctensor.frombuffer(bytes(4), dtype=ctensor.int16).as_strided((2, 2), (0, 1))
    with pytest.raises(ValueError):
        ro.fill_(1)


def test_conversions():
    t = ctensor.tensor([1.7, -2.2])
    assert t.to(ctensor.int32).tolist() == [1, -2] and t.to(ctensor.float32) is t
    assert t.to(ctensor.float32, copy=True) is not t and t.to("cpu") is t
    assert t.double().dtype is ctensor.float64 and t.long().tolist() == [1, -2] and t.bool().tolist() == [True, True]
    assert t.half().dtype is ctensor.float16 and t.int().dtype is ctensor.int32
    assert ctensor.tensor([300]).byte().tolist() == [44]  # wraps like torch
    c = ctensor.tensor([1.0, 2.0]).clone()
    assert c.contiguous() is c
    nc = ctensor.arange(6).view(2, 3).t()
    cc = nc.contiguous()
    assert cc is not nc and cc.is_contiguous() and cc.tolist() == nc.tolist() and cc.stride() == (2, 1)
    deep = copy.deepcopy(nc)
    assert deep.data_ptr() != nc.data_ptr() and deep.tolist() == nc.tolist() and deep.stride() == nc.stride()


def test_module_level_functions_forward_to_methods():
    t = ctensor.arange(6)
    assert ctensor.reshape(t, (2, 3)).shape == (2, 3)
    assert ctensor.transpose(ctensor.reshape(t, (2, 3)), 0, 1).stride() == (1, 3)
    assert ctensor.numel(t) == 6 and ctensor.is_tensor(t) and not ctensor.is_tensor([1])
    assert ctensor.flatten(ctensor.zeros(2, 3, 4), 1).shape == (2, 12)
    assert ctensor.as_strided(t, (2, 2), (1, 2), 1).tolist() == [[1, 3], [2, 4]]
    assert ctensor.reshape.__name__ == "reshape"


@pytest.mark.parametrize("op", [
    lambda m, t: t.transpose(0, 5),
    lambda m, t: t.view(4, 2),
    lambda m, t: t.t().view(6),
    lambda m, t: t.permute(0),
    lambda m, t: t.permute(0, 0),
    lambda m, t: t.permute(0, 3),
    lambda m, t: t[5],
    lambda m, t: t[0, 5],
    lambda m, t: t[1, 2, 3],
    lambda m, t: t.narrow(1, 2, 3),
    lambda m, t: m.as_strided(t, (10,), (1,)),
    lambda m, t: t.expand(3, 3),
    lambda m, t: t.squeeze(3),
    lambda m, t: t.unsqueeze(4),
    lambda m, t: t.flatten(3),
    lambda m, t: m.zeros(-1),
    lambda m, t: t.view(-1, -1),
    lambda m, t: t[:, ::0],
    lambda m, t: t.select(2, 0),
    lambda m, t: t[0].expand(2, 3).copy_(m.ones(2, 3)),
    lambda m, t: t.copy_(m.ones(3, 2)),
    lambda m, t: t.view(m.int32)[:, 1:].view(m.float64),
    lambda m, t: t.t().view(m.int32),
    lambda m, t: m.tensor(1).t().t().view(2),
    lambda m, t: t[..., ..., 0],
    lambda m, t: t["a"],
    lambda m, t: m.tensor([1, 2]).item(),
])
def test_errors_have_torchs_exception_types(op):
    with pytest.raises(Exception) as expected:
        op(torch, torch.arange(6).view(2, 3))
    with pytest.raises(Exception) as got:
        op(ctensor, ctensor.arange(6).view(2, 3))
    assert type(got.value) is type(expected.value), (got.value, expected.value)
    assert str(got.value)


def test_typed_storage_like_torch():
    c, r = ctensor.arange(6, dtype=ctensor.int32), torch.arange(6, dtype=torch.int32)
    s, q = c.storage(), r.storage()
    assert s.data_ptr() == c.data_ptr() and s.size() == q.size() and len(s) == len(q) == 6
    assert s.nbytes() == q.nbytes() and s.element_size() == q.element_size() and s.dtype is ctensor.int32
    assert s.tolist() == q.tolist() and s[2] == q[2]
    assert c[2:].storage() == s and c[2:].storage().data_ptr() == s.data_ptr()
    assert repr(s) == repr(q).replace("torch.", "ctensor.")
    assert s.untyped() == c.untyped_storage() and len(s.untyped()) == 24
    assert c.view(ctensor.uint8).storage() != s  # same bytes, another dtype


def test_autograd_shaped_no_ops():
    t = ctensor.arange(3)
    d = t.detach()
    assert d is not t and d.data_ptr() == t.data_ptr() and d.stride() == t.stride()
    assert t.detach_() is t and t.cpu() is t and t.requires_grad_(False) is t
    assert t.grad is None and t.is_leaf and not t.is_cuda and not t.is_shared() and not t.is_pinned()
    with pytest.raises(NotImplementedError):
        t.requires_grad_()
    with ctensor.no_grad():
        assert t.numpy(force=True).tolist() == [0, 1, 2]

    @ctensor.no_grad()
    def identity(x):
        return x

    assert identity(5) == 5 and ctensor.get_default_dtype() is ctensor.float32
    with ctensor.set_grad_enabled(False), ctensor.inference_mode(), ctensor.enable_grad():
        pass
    assert 2 in t and 7 not in t and ctensor.tensor(2) in t


def test_large_copies_with_another_thread_running():
    n = 1 << 18  # above the size where copies run without the GIL
    src = ctensor.arange(n, dtype=ctensor.float64).view(512, 512).t()
    ticks = []
    stop = threading.Event()
    worker = threading.Thread(target=lambda: [ticks.append(1) for _ in iter(lambda: stop.is_set(), True)])
    worker.start()
    try:
        for _ in range(5):
            clone = src.clone()
            dst = ctensor.zeros(512, 512)
            dst[...] = src
            dst.copy_(src)
    finally:
        stop.set()
        worker.join()
    expected = numpy.arange(n, dtype=numpy.float64).reshape(512, 512).T
    assert (clone.numpy() == expected).all() and (dst.numpy() == expected).all()


def test_legacy_constructor_like_torch():
    for args in [(), ([1, 2],), ((2, 3),), (numpy.array([1, 2]),)]:
        c, t = ctensor.Tensor(*args), torch.Tensor(*args)
        assert repr(c) == torch_repr(t)
    assert ctensor.Tensor(2, 3).shape == (2, 3) and ctensor.Tensor(2, 3).dtype is ctensor.float32
    assert ctensor.Tensor(ctensor.Size([4])).shape == (4,)
    with pytest.raises(TypeError):
        ctensor.Tensor(2.5)
    assert isinstance(ctensor.zeros(1), ctensor.Tensor)


def test_pickle_and_copy_keep_values_and_layout():
    t = ctensor.arange(12, dtype=ctensor.int16).view(3, 4).t()[1:]
    for u in (pickle.loads(pickle.dumps(t)), copy.deepcopy(t)):
        assert u.data_ptr() != t.data_ptr() and u.tolist() == t.tolist() and u.dtype is ctensor.int16
        assert u.stride() == t.stride() and u.storage_offset() == t.storage_offset()
    # copy.copy shares the storage, as torch's does (its __reduce_ex__ keeps the storage object)
    s, r = copy.copy(t), copy.copy(torch.arange(12, dtype=torch.int16).view(3, 4).t()[1:])
    assert s is not t and s.data_ptr() == t.data_ptr() and s.stride() == r.stride() == t.stride()
    ro = pickle.loads(pickle.dumps(ctensor.frombuffer(b"ab", dtype=ctensor.uint8)))
    assert ro.tolist() == [97, 98] and not ro.is_readonly
    assert pickle.loads(pickle.dumps(ctensor.bfloat16)) is ctensor.bfloat16
    assert pickle.loads(pickle.dumps(ctensor.tensor(2.5, dtype=ctensor.bfloat16))).item() == 2.5


def test_deepcopy_copies_storages_once_and_keeps_layout():
    """As torch's: views of one storage deep-copied together stay views of one new storage."""
    for mod in (torch, ctensor):
        x = mod.arange(6)
        a, b = copy.deepcopy([x, x[1:].view(-1)])
        a[1] = 100
        assert b.tolist() == [100, 2, 3, 4, 5] and x.tolist() == [0, 1, 2, 3, 4, 5]
        assert b.storage_offset() == 1 and b.data_ptr() != x[1:].data_ptr()
    ro = copy.deepcopy(ctensor.frombuffer(b"abcd", dtype=ctensor.uint8)[1:])
    assert not ro.is_readonly and ro.tolist() == [98, 99, 100] and ro.storage_offset() == 1
