"""repr(t) against PyTorch 1.13's on the same memory, "torch." read as "ctensor."."""
import numpy
import pytest
import torch

import ctensor
from binding_helpers import torch_repr

rng = numpy.random.default_rng(7)


def float_cases(dt):
    return [
        [1.5, 2.25, -3], [1, 2, 3], [0.0001, 1000], [1e-5, 1], [1e9, 1], [numpy.nan, numpy.inf, -numpy.inf, 1],
        [numpy.nan, 0], [0.0, -0.0], 3.5, [123456789.0], [1e8, 2], [1.0, 1001.0], [numpy.nan, 1.5, 100000.0],
        rng.standard_normal((4, 5)), rng.standard_normal((3, 4, 5)) * 1000, rng.standard_normal(2000),
        rng.standard_normal((40, 40)), rng.standard_normal((10, 10, 12)), rng.standard_normal(30) * 1e-6,
        numpy.zeros((0,)), numpy.zeros((2, 0)), numpy.zeros((0, 3, 2)), numpy.ones((1, 1, 1)),
        rng.standard_normal((7, 1001)), numpy.arange(1200).reshape(3, 400), [-0.5, 12345.678],
        numpy.arange(30).reshape(5, 6) / 7, [[1e-3, 1e3]],
    ]


def int_cases():
    return [[1, 0, 3], 5, rng.integers(-100, 100, (3, 4)), rng.integers(-100, 100, (2000,)), numpy.zeros((0, 3)),
            rng.integers(0, 2, (5, 30)), rng.integers(-10**9, 10**9, (4, 25)), rng.integers(0, 9, (2, 3, 4, 5))]


def complex_cases():
    return [[1 + 2j, 3 - 4j], 1.5j, rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4)),
            [1e-5 + 1j, 1000j], [complex(numpy.nan, 1), complex(1, numpy.inf)], [0j, -0.0 - 0.0j],
            rng.standard_normal(1500) + 1j, numpy.zeros((0,)), [1 + 1j, 2 + 2j], [[-1.25 - 3j]]]


CASES = ([(c, dt) for dt in ["float32", "float64", "float16"] for c in float_cases(dt)]
         + [(c, dt) for dt in ["int64", "int32", "int16", "int8", "uint8", "bool"] for c in int_cases()]
         + [(c, dt) for dt in ["complex64", "complex128"] for c in complex_cases()]
         + [([-1.5e100, 2e100], "float64"), (numpy.nan, "float64"), ([1e-300, 1], "float64")])


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("data,dtype", CASES)
def test_repr_like_torch(data, dtype):
    a = numpy.array(data).astype(dtype)
    assert repr(ctensor.from_numpy(a)) == torch_repr(torch.from_numpy(a))
    assert str(ctensor.from_numpy(a)) == torch_repr(torch.from_numpy(a))


@pytest.mark.parametrize("values", [[1.5, 2.0, 3.25], [1e-5, 3.0], [100000.0, 1.0], [[0.1, 0.2], [0.3, 7.0]]])
def test_bfloat16_repr_like_torch(values):
    assert repr(ctensor.tensor(values, dtype=ctensor.bfloat16)) == torch_repr(torch.tensor(values, dtype=torch.bfloat16))


def test_repr_of_strided_and_reversed_views():
    a = numpy.arange(2000, dtype=numpy.float32).reshape(40, 50) / 3
    for index in [(slice(None, None, 2), slice(3, None)), (slice(None), 7), (slice(1, 3),)]:
        assert repr(ctensor.from_numpy(a)[index]) == torch_repr(torch.from_numpy(a)[index])
    rev = ctensor.from_numpy(a)[::-1, ::-3]
    assert repr(rev) == torch_repr(torch.from_numpy(numpy.ascontiguousarray(a[::-1, ::-3])))


def test_documented_examples():
    assert repr(ctensor.tensor([1, 2, 3], dtype=ctensor.int32)) == "tensor([1, 2, 3], dtype=ctensor.int32)"
    assert repr(ctensor.zeros(0, 3)) == "tensor([], size=(0, 3))"
    assert repr(ctensor.tensor([], dtype=ctensor.int64)) == "tensor([], dtype=ctensor.int64)"
    assert repr(ctensor.tensor([True, False])) == "tensor([ True, False])"
    assert repr(ctensor.tensor(2.5)) == "tensor(2.5000)"
    assert repr(ctensor.arange(3, dtype=ctensor.uint16)) == "tensor([0, 1, 2], dtype=ctensor.uint16)"


@pytest.mark.parametrize("options", [
    {"precision": 2}, {"threshold": 5}, {"edgeitems": 1, "threshold": 10}, {"linewidth": 40},
    {"sci_mode": True}, {"sci_mode": False}, {"profile": "short"}, {"profile": "full"}, {"precision": 8, "linewidth": 120},
])
def test_print_options_like_torch(options):
    values = [numpy.arange(30, dtype=numpy.float32) / 7, numpy.arange(2000, dtype=numpy.int64).reshape(40, 50),
              numpy.array([1e-6, 1e5]), numpy.array([1.0, 2.0]), rng.standard_normal((4, 30)) * 1e4,
              numpy.array([1 + 2j, 3.5 - 1j], numpy.complex64)]
    try:
        torch.set_printoptions(**options)
        ctensor.set_printoptions(**options)
        for a in values:
            assert repr(ctensor.from_numpy(a)) == torch_repr(torch.from_numpy(a))
    finally:
        torch.set_printoptions(profile="default")
        ctensor.set_printoptions(profile="default")


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("seed", range(6))
def test_random_tensors_print_like_torch(seed):
    """Random shapes, magnitudes, dtypes, layouts and non-finite values."""
    gen = numpy.random.default_rng(100 + seed)
    names = ["float32", "float64", "float16", "int64", "int32", "int8", "uint8", "bool", "complex64", "complex128"]
    for _ in range(60):
        dtype = names[gen.integers(len(names))]
        ndim = int(gen.integers(0, 5))
        shape = tuple(int(gen.integers(0, 4 if ndim > 2 else 12)) if gen.random() < 0.9
                      else int(gen.integers(0, 1500 // max(1, ndim))) for _ in range(ndim))
        if numpy.prod(shape) > 20000:
            continue
        a = gen.standard_normal(shape) * 10.0 ** int(gen.integers(-12, 14))
        if gen.random() < 0.3:
            a = numpy.round(a)
        if gen.random() < 0.1 and a.size:
            a.flat[gen.integers(a.size)] = gen.choice([numpy.nan, numpy.inf, -numpy.inf, 0.0])
        if dtype.startswith("complex"):
            a = a + 1j * gen.standard_normal(shape) * 10.0 ** int(gen.integers(-6, 6))
        a = numpy.asarray(a).astype(dtype)
        if gen.random() < 0.3 and a.ndim >= 2:
            a = a.swapaxes(0, -1)
        assert repr(ctensor.from_numpy(a)) == torch_repr(torch.from_numpy(a))
        if dtype == "float32":
            assert repr(ctensor.from_numpy(a).to(ctensor.bfloat16)) == torch_repr(torch.from_numpy(a).to(torch.bfloat16))
