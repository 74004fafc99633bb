"""Python numbers into typed elements, as PyTorch 1.13 converts them: checked
at::Scalar conversions for fill_/full/assignment (RuntimeError out of range),
torch.tensor's store_scalar rules for data (integers checked, floats not,
complex into real a TypeError), and what __setitem__ accepts at all."""
import warnings

import numpy
import pytest
import torch

import ctensor

VALUES = ["0", "1", "-1", "127", "128", "-129", "255", "256", "-255", "-256", "32768", "2**31",
          "2**63-1", "2**63", "-2**63-1", "10**400", "0.5", "-0.5", "-1.0", "255.5", "1e10", "1e20",
          "1e39", "65504.0", "65520.0", "1e6", "float('nan')", "float('inf')", "3.4e38", "3.5e38",
          "1j", "1+0j", "0j", "300+0j", "1e300+0j", "True", "False", "np.int64(300)", "np.float32(2.5)",
          "np.float32(300)", "np.bool_(True)", "np.uint8(5)", "np.float16(2)", "np.float64(1e10)"]
DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32",
          "float64", "complex64", "complex128"]


def outcome(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = fn()
        return v.tolist() if hasattr(v, "tolist") else v
    except Exception as e:  # the exception's type is what is compared
        return type(e).__name__


def both(make):
    """make(mod) run with torch and ctensor, outcomes as (torch, ctensor)."""
    return outcome(lambda: make(torch)), outcome(lambda: make(ctensor))


def same(a, b):
    return a == b or (a != a and b != b) or repr(a) == repr(b)


@pytest.mark.parametrize("mode", ["data", "fill", "set", "setall", "full"])
def test_number_conversions_match_torch(mode):
    bad = []
    for v in VALUES:
        value = eval(v, {"np": numpy})
        for d in DTYPES:
            def make(mod):
                dt = getattr(mod, d)
                if mode == "data":
                    return mod.tensor([value], dtype=dt)
                if mode == "fill":
                    return mod.zeros(2, dtype=dt).fill_(value)
                if mode == "full":
                    return mod.full((2,), value, dtype=dt)
                t = mod.zeros(2, dtype=dt)
                t[0 if mode == "set" else slice(None)] = value
                return t
            a, b = both(make)
            if not same(a, b):
                bad.append((v, d, a, b))
    assert not bad


def test_setitem_takes_tensors_and_numbers_only():
    for value in ["[1, 2, 3]", "(1, 2, 3)", "np.array([1., 2, 3])", "np.array(3.0)", "None", "np.float32(2)",
                  "np.bool_(True)"]:
        def make(mod):
            t = mod.zeros(3)
            t[:] = eval(value, {"np": numpy})
            return t
        assert both(make) == ("TypeError", "TypeError"), value
    t = ctensor.zeros(3)
    with pytest.raises(TypeError, match="can't assign a list to a ctensor.FloatTensor"):
        t[0:2] = [1, 2]
    for value in ["[1]", "np.array(3.0)", "None", "'a'"]:
        assert both(lambda mod: mod.zeros(3).fill_(eval(value, {"np": numpy}))) == ("TypeError", "TypeError")


def test_setitem_drops_leading_ones_and_fills_from_0dim_tensors():
    cases = [
        lambda mod, t: t.__setitem__(0, mod.tensor([[1, 2, 3, 4]], dtype=mod.uint8)),
        lambda mod, t: t.__setitem__(slice(0, 2), mod.tensor([[[1, 2, 3, 4]]], dtype=mod.uint8)),
        lambda mod, t: t.__setitem__((0, 0), mod.tensor([[5]], dtype=mod.uint8)),
        lambda mod, t: t.__setitem__(0, mod.tensor(1000)),       # fill_: checked
        lambda mod, t: t.__setitem__((0, 0), mod.tensor(1000)),  # copy_: wraps
        lambda mod, t: t.__setitem__(0, mod.tensor([1, 2])),
        lambda mod, t: t.__setitem__((0, 0), mod.tensor([5, 6])),
        lambda mod, t: t.__setitem__([0, 1], mod.tensor([1.5, 2.5, 3.5, 4.5])),  # index_put_: same dtype
        lambda mod, t: t.__setitem__([0, 1], mod.tensor(9)),
        lambda mod, t: t.__setitem__([0, 1], mod.tensor(9, dtype=mod.uint8)),
        lambda mod, t: t.__setitem__([0], 300),
        lambda mod, t: t.__setitem__([0], -1),
        lambda mod, t: t.__setitem__([0, 2], [1, 2, 3, 4]),
    ]
    for case in cases:
        def make(mod):
            t = mod.zeros(3, 4, dtype=mod.uint8)
            case(mod, t)
            return t
        a, b = both(make)
        assert a == b


def test_tensors_in_lists_are_numbers():
    for data in ["[mod.tensor([1, 2])]", "[mod.tensor([1., 2])]", "[mod.tensor([1.5])]", "[mod.tensor([[1.5]])]",
                 "[mod.tensor([], dtype=mod.float32)]", "[mod.tensor(1.5), 2]", "[mod.tensor(1), mod.tensor(2)]",
                 "[np.array(3)]", "[1, np.array(3)]", "[np.array([3]), [4]]"]:
        for dtype in ["None", "mod.int32", "mod.float64", "mod.uint8"]:
            def make(mod):
                return mod.tensor(eval(data, {"mod": mod, "np": numpy}), dtype=eval(dtype, {"mod": mod}))
            a, b = both(make)
            assert a == b, (data, dtype)
    assert ctensor.tensor([ctensor.tensor([1.5])]).shape == (1,)


def test_full_infers_like_torch():
    for value in ["np.bool_(True)", "np.complex64(1)", "np.float32(3)", "np.int32(1)", "np.float64(1)",
                  "True", "1j", "mod.tensor(3.5)"]:
        def make(mod):
            t = mod.full((2,), eval(value, {"np": numpy, "mod": mod}))
            return repr(t).replace("ctensor.", "torch.")
        assert both(make)[0] == both(make)[1], value
    assert both(lambda mod: mod.full(2, 1)) == ("TypeError", "TypeError")


def test_float64_to_16_bit_rounds_through_float32_as_torch():
    """c10::Half/BFloat16 are built from a float: float64 values round twice in torch."""
    halves = numpy.random.default_rng(0).standard_normal(2000).astype(numpy.float16).astype(numpy.float64)
    ulp = numpy.abs(numpy.spacing(halves.astype(numpy.float16)).astype(numpy.float64))
    vals = numpy.concatenate([halves + ulp / 2 + 1e-12 * ulp, halves - ulp / 2 - 1e-12 * ulp])
    t, c = torch.from_numpy(vals), ctensor.from_numpy(vals)
    for d in ["float16", "bfloat16"]:
        assert c.to(getattr(ctensor, d)).tolist() == t.to(getattr(torch, d)).tolist()
        assert ctensor.tensor(vals.tolist(), dtype=getattr(ctensor, d)).tolist() == \
            torch.tensor(vals.tolist(), dtype=getattr(torch, d)).tolist()
        z, w = ctensor.zeros(len(vals), dtype=getattr(ctensor, d)), torch.zeros(len(vals), dtype=getattr(torch, d))
        z[:] = c
        w[:] = t
        assert z.tolist() == w.tolist()
        assert ctensor.full((1,), vals[0], dtype=getattr(ctensor, d)).tolist() == \
            torch.full((1,), vals[0], dtype=getattr(torch, d)).tolist()


@pytest.mark.filterwarnings("ignore:Casting complex values")
def test_float_to_int_casts_keep_torchs_x86_results():
    """torch truncates through a 32-bit (int64 for int64) conversion and keeps the low bits;
    out-of-range values and NaN give INT_MIN there (the C library saturates instead)."""
    vals = [0.0, -0.5, 1.5, -1.5, -3.7, 127.9, 128.0, 200.7, 255.0, 256.0, 300.0, -129.0, -255.0, -256.0, 32768.0,
            65504.0, 1e10, -1e10, 3e38, float("nan"), float("inf"), float("-inf"), 2.0**31, 2.0**63, -2.0**31 - 1]
    for src in ["float64", "float32", "float16", "bfloat16", "complex128"]:
        t = torch.tensor(vals, dtype=torch.float64).to(getattr(torch, src))
        c = ctensor.from_dlpack(t.clone()) if src == "bfloat16" else ctensor.from_numpy(t.numpy().copy())
        for d in ["uint8", "int8", "int16", "int32", "int64", "bool"]:
            assert c.to(getattr(ctensor, d)).tolist() == t.to(getattr(torch, d)).tolist(), (src, d)
            z, w = ctensor.zeros(len(vals), dtype=getattr(ctensor, d)), torch.zeros(len(vals), dtype=getattr(torch, d))
            z[:] = c
            w[:] = t
            assert z.tolist() == w.tolist(), (src, d)


@pytest.mark.filterwarnings("ignore:Casting complex values")
def test_other_torch_conversion_quirks():
    """complex -> bool reads the real part alone, and int32/int64 -> bfloat16 round
    through float32, as torch 1.13 does (the C library: either part, one rounding)."""
    z = [0j, 1j, 1 + 0j, -2.5 + 3j, complex("nan"), 1e-300j]
    for src in ["complex64", "complex128"]:
        t, c = torch.tensor(z, dtype=getattr(torch, src)), ctensor.tensor(z, dtype=getattr(ctensor, src))
        assert c.to(ctensor.bool).tolist() == t.to(torch.bool).tolist() == [False, False, True, True, True, False]
    ints = [2**24 + 2**16 + 1, 2**24 + 2**16, -(2**24 + 2**16 + 1), 2**31 - 1, 16843009]
    for src in ["int32", "int64"]:
        t, c = torch.tensor(ints, dtype=getattr(torch, src)), ctensor.tensor(ints, dtype=getattr(ctensor, src))
        assert c.to(ctensor.bfloat16).tolist() == t.to(torch.bfloat16).tolist()
        assert c.to(ctensor.bfloat16).tolist()[0] == 2**24
    big = [2**62 + 2**54 + 1]
    assert ctensor.tensor(big).to(ctensor.bfloat16).tolist() == torch.tensor(big).to(torch.bfloat16).tolist()
