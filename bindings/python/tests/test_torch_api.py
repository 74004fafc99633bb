"""Tensor API details checked against PyTorch 1.13: the number protocol,
comparisons in torch's result type, Size arithmetic, device objects, to()/type()
and the new_* factories."""
import operator
import warnings

import numpy
import torch

import ctensor


def outcome(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = fn()
        v = v.tolist() if hasattr(v, "tolist") else v
        return repr(v).replace("ctensor.", "torch.")
    except Exception as e:
        return type(e).__name__


def assert_like_torch(exprs):
    for expr in exprs:
        a = outcome(lambda: eval(expr, {"mod": torch, "np": numpy, "operator": operator}))
        b = outcome(lambda: eval(expr, {"mod": ctensor, "np": numpy, "operator": operator}))
        assert a == b, (expr, a, b)


def test_number_protocol_like_torch():
    assert_like_torch([
        "float(mod.tensor(1j))", "float(mod.tensor(1+0j))", "int(mod.tensor(1j))", "int(mod.tensor(-2.7))",
        "bool(mod.tensor([]))", "bool(mod.tensor([1, 2]))", "operator.index(mod.tensor(True))",
        "operator.index(mod.tensor(3.0))", "[10, 20][mod.tensor(True)]", "mod.zeros(2, dtype=complex)",
        "mod.zeros(2, dtype=float)", "mod.zeros(2).size(dim=0)", "mod.zeros(2, 3).stride(dim=-2)",
    ])


def test_comparisons_in_torchs_result_type():
    assert_like_torch([
        "mod.tensor([0.1]) == 0.1", "mod.tensor([0.1], dtype=mod.float16) == 0.1",
        "mod.tensor([1, 2], dtype=mod.uint8) == 257", "mod.tensor([1, 2], dtype=mod.uint8) == -255",
        "mod.tensor([-56], dtype=mod.int8) == 200", "mod.tensor([True]) == 2",
        "mod.tensor([16777217]) == 16777217.0", "mod.tensor([1.5], dtype=mod.float64) == 1.5+0j",
        "mod.tensor([1, 2], dtype=mod.uint8) == mod.tensor([257])", "mod.tensor([1, 2], dtype=mod.uint8) == mod.tensor(257)",
        "mod.tensor([16777217]) == mod.tensor([16777217.0])", "mod.tensor([0.1]) == mod.tensor([0.1], dtype=mod.float64)",
        "mod.tensor([0.1]) == mod.tensor(0.1, dtype=mod.float64)", "mod.tensor([1, 2]) != mod.tensor(1.0)",
    ])


def test_size_device_to_type_new():
    assert_like_torch([
        "mod.Size([2, 3])[1:]", "mod.Size([2, 3]) + (1,)", "mod.Size([2]) * 2", "type(mod.zeros(2, 3).shape[:1]).__name__",
        "mod.zeros(2).device", "str(mod.zeros(2).device)", "mod.zeros(2).device.type", "mod.zeros(2).device.index",
        "mod.zeros(2).device == mod.device('cpu')", "mod.zeros(2).device == 'cpu'", "mod.device('cuda:1')",
        "mod.device('cuda', 0).index", "mod.device('bogus')",
        "mod.zeros(2).to(mod.zeros(1, dtype=mod.int8))", "mod.zeros(2).to('cpu', mod.int8)",
        "mod.zeros(2).to(device='cpu', dtype=mod.float64)", "mod.zeros(2).to(mod.device('cpu'))",
        "mod.zeros(2).type()", "mod.zeros(2, dtype=mod.uint8).type()", "mod.zeros(2).type(mod.int32)",
        "mod.zeros(2).type('torch.IntTensor')", "mod.zeros(2, dtype=mod.int8).new_zeros(3)",
        "mod.zeros(2, dtype=mod.int8).new_ones(2, 2)", "mod.zeros(2, dtype=mod.int8).new_full((2,), 3)",
        "mod.zeros(2, dtype=mod.int8).new_empty(2).dtype", "mod.zeros(2).new_tensor([1, 2])",
        "mod.zeros(2).new_zeros(2, dtype=mod.int64)",
    ])
    t = ctensor.zeros(2)
    assert t.to("cpu") is t and t.to(ctensor.float32) is t and t.type(ctensor.float32) is t


def test_index_forms_like_torch():
    x = "mod.arange(24).view(2, 3, 4)"
    assert_like_torch([f"{x}[{i}]" for i in [
        "..., ...", "..., 0, ...", "..., 0, ..., 1", "1.5", "None, 1.5", "np.float64(1.0)", "[1.5, 0]", "[1.0]",
        "[True, 1]", "[[0, 1], [1, 0]]", "[[0, 1]]", "[0, None]", "[0, slice(None), 1]", "[mod.tensor(1), 0]",
        "'a'", "[0, 1]", "[True, False]"]])
    for setter in ["x[[[0, 1], [1, 0]]] = 5", "x[..., 0, ...] = 7", "x[[1.0]] = 3", "x[1.5] = 3"]:
        def run(mod):
            ns = {"x": mod.arange(24).view(2, 3, 4)}
            exec(setter, ns)
            return ns["x"]
        assert outcome(lambda: run(torch)) == outcome(lambda: run(ctensor)), setter


def test_factories_like_torch():
    assert_like_torch([
        "mod.arange(0, 5, 1.5, dtype=mod.int32)", "mod.arange(0.5, 3, dtype=mod.int64)", "mod.arange(end=4)",
        "mod.arange(start=1, end=4)", "mod.arange(1, end=4, step=2)", "mod.arange(3, dtype=mod.bool)",
        "mod.arange(3, dtype=mod.complex64)", "mod.arange(0, 1, 0.3)", "mod.zeros()", "mod.ones()", "mod.empty()",
        "mod.zeros([])", "mod.full((2, 2), fill_value=1)", "mod.full(size=(2,), fill_value=1.5)", "mod.full((2,))",
        "mod.from_numpy(np.zeros(2, dtype='datetime64[s]'))", "mod.asarray(np.zeros(2, dtype='datetime64[s]'))",
    ])


def test_more_tensor_methods_like_torch():
    x = "mod.arange(24).view(2, 3, 4)"
    assert_like_torch([
        f"{x}.movedim(0, 2).stride()", f"{x}.movedim((0, 1), (2, 0)).stride()", f"{x}.moveaxis(1, -1).shape",
        f"mod.movedim({x}, 2, 0).shape", f"{x}.movedim(0, 3)", f"{x}.movedim((0, 0), (1, 2))",
        f"{x}.movedim((0, 1), (1,))", f"{x}.data.shape", "mod.ones(3).zero_()", f"{x}.is_signed()",
        "mod.zeros(1, dtype=mod.uint8).is_signed()", f"{x}.type_as(mod.zeros(1))", f"({x}.is_sparse, {x}.is_meta)",
        "mod.promote_types(mod.uint8, mod.int8)", "mod.promote_types(mod.float16, mod.bfloat16)",
        "mod.promote_types(mod.complex64, mod.float64)", "mod.promote_types(mod.bool, mod.uint8)",
    ])
    t = ctensor.arange(3)
    assert t.data is not t and t.data.data_ptr() == t.data_ptr() and t.type_as(t) is t


def test_dim_names_are_runtime_errors():
    assert_like_torch(["mod.zeros(2).size('a')", "mod.zeros(2).stride('a')"])


def test_as_tensor_and_bytearray_data_like_torch():
    import array
    assert_like_torch([
        "mod.tensor(bytearray(b'ab'))", "mod.tensor(b'ab')", "mod.as_tensor(bytearray(b'ab'))",
        "mod.as_tensor(np.float32(2))", "mod.as_tensor(np.array(2.5))", "mod.as_tensor([1, 2], dtype=mod.float64)",
        "mod.as_tensor(b'ab')", "mod.as_tensor(3)", "mod.as_tensor(data=[1.5], dtype=mod.float16)",
    ])
    a, t = numpy.arange(3.0), ctensor.arange(3)
    assert ctensor.as_tensor(a).data_ptr() == a.ctypes.data and ctensor.as_tensor(a, dtype=ctensor.float32).dtype is ctensor.float32
    assert ctensor.as_tensor(t) is t and ctensor.as_tensor(t, dtype=ctensor.int64) is t
    assert ctensor.as_tensor(array.array("i", [1, 2])).dtype is ctensor.int64  # a sequence, not a buffer, as torch


def test_ordering_comparisons_like_torch():
    x = "mod.tensor([[1, 5, 3], [4, 2, 6]])"
    assert_like_torch([
        f"{x} > 2", f"{x}[{x} > 2]", f"{x} <= 3", f"2 < {x}", f"{x} > 2.5", f"{x} > mod.tensor([1, 5, 3])",
        f"{x} < mod.tensor(3.5)", "mod.tensor([1, 2], dtype=mod.uint8) > 257", "mod.tensor([float('nan'), 1.0]) > 0",
        "mod.tensor([True, False]) > False", "mod.tensor([1j]) > 0", "mod.tensor([1.0]) < 1j", f"{x} > 'a'",
        f"{x} > mod.tensor([1, 2])", "sorted(mod.tensor([3., 1., 2.]))", "max(mod.tensor([3, 1, 2]))",
    ])


def test_view_and_reshape_keywords_like_torch():
    x = "mod.arange(6, dtype=mod.int32).view(2, 3)"
    assert_like_torch([f"{x}.view(dtype=mod.int16).shape", f"{x}.view(size=(3, 2)).shape",
                       f"{x}.reshape(shape=(3, 2)).shape", f"mod.reshape({x}, shape=(3, 2)).shape",
                       f"{x}.view(dtype=mod.int16, size=3)"])


def test_method_keywords_and_memory_formats_like_torch():
    x = "mod.arange(24).view(2, 3, 4)"
    assert_like_torch([
        f"{x}.transpose(dim0=0, dim1=2).shape", f"{x}.transpose(0, dim1=2).shape", f"{x}.swapaxes(axis0=0, axis1=1).shape",
        f"{x}.swapdims(dim0=0, dim1=1).shape", f"{x}.permute(dims=(2, 0, 1)).shape", f"{x}.expand(size=(2, 2, 3, 4)).shape",
        f"[s.shape for s in {x}.split(split_size=2, dim=2)]", f"{x}.fill_(value=3)[0, 0]",
        "(mod.contiguous_format, mod.preserve_format, mod.channels_last)",
        f"{x}.transpose(0, 2).clone(memory_format=mod.contiguous_format).stride()",
        f"{x}.transpose(0, 2).clone(memory_format=mod.preserve_format).stride()",
        f"{x}.transpose(0, 2).contiguous(memory_format=mod.contiguous_format).stride()",
    ])


def test_legacy_constructors_like_torch():
    assert_like_torch([
        "mod.Tensor(mod.tensor([1, 2]))", "mod.FloatTensor([1, 2])", "mod.LongTensor([1, 2])", "mod.IntTensor([1.5])",
        "mod.DoubleTensor(2).shape", "mod.ByteTensor([1, 2])", "mod.BoolTensor([1, 0])", "mod.HalfTensor([1])",
        "mod.ShortTensor([1])", "mod.CharTensor([1])", "mod.LongTensor(2, 2).shape", "mod.FloatTensor(mod.tensor([1]))",
        "mod.LongTensor(mod.tensor([1]))", "isinstance(mod.zeros(2), mod.FloatTensor)",
        "isinstance(mod.zeros(2, dtype=mod.int64), mod.FloatTensor)", "mod.zeros(2).type(mod.LongTensor)",
        "repr(mod.FloatTensor)", "mod.FloatTensor(x=1)",
    ])
    t = ctensor.tensor([1, 2])
    assert ctensor.Tensor(t).data_ptr() == t.data_ptr() and ctensor.LongTensor(t).data_ptr() == t.data_ptr()


def test_index_tensor_dtypes_like_torch():
    x = "mod.arange(12).view(3, 4)"
    exprs = [f"{x}[mod.tensor([1, 0], dtype=mod.{d})]" for d in ["int8", "int16", "int32", "int64", "bool"]]
    exprs += [f"{x}[np.array([1, 0], dtype='{d}')]" for d in ["int8", "int16", "int32", "int64", "bool"]]
    exprs += [f"{x}[np.array(True)].shape", f"{x}[np.array(False)].shape", f"{x}[mod.tensor(1, dtype=mod.int8)]",
              f"{x}[0, np.array(True)].shape"]
    assert_like_torch(exprs)


def test_arange_values_and_lengths_bit_for_bit():
    import random
    rng = random.Random(11)
    for _ in range(400):
        s, e = round(rng.uniform(-5, 5), rng.randint(0, 3)), round(rng.uniform(-5, 5), rng.randint(0, 3))
        st = round(rng.choice([-1, 1]) * rng.uniform(0.01, 2), rng.randint(1, 3))
        dt = rng.choice(["float32", "float64", "float16", "bfloat16", "int64", "int32", "uint8", None])
        kw = "" if dt is None else f", dtype=mod.{dt}"
        assert_like_torch([f"mod.arange({s}, {e}, {st}{kw})"])
    assert_like_torch(["mod.arange(-4, 3.25, 0.8, dtype=mod.float16)", "mod.arange(3.0, -4.0, -0.2, dtype=mod.bfloat16)",
                       "mod.arange(-0.02, -2.0, -0.1, dtype=mod.float64)", "mod.arange(0, 1, 0.1)",
                       "mod.arange(-4.0, -2.0, 0.14, dtype=mod.int32)", "mod.arange(-3.781, -3.0, -1.7, dtype=mod.uint8)"])
