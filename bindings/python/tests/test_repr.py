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


NAMES = ["float32", "float64", "float16", "int64", "int32", "int8", "uint8", "bool", "complex64", "complex128"]


def random_array(gen, max_numel=20000):
    """A random shape (0-dim and empty included, sometimes one long dim), dtype,
    magnitude (1e-12 to 1e14), integral floats, a nan/inf/0 now and then, and a
    transposed layout."""
    while True:
        dtype = NAMES[gen.integers(len(NAMES))]
        ndim = int(gen.integers(0, 5))
        shape = tuple(int(gen.integers(0, 4 if ndim > 2 else 12)) if gen.random() < 0.9
                      else int(gen.integers(0, 1500 // max(1, ndim))) for _ in range(ndim))
        if numpy.prod(shape) <= max_numel:
            break
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
    return a


def assert_prints_like_torch(a):
    assert repr(ctensor.from_numpy(a)) == torch_repr(torch.from_numpy(a))
    if a.dtype == numpy.float32:
        assert repr(ctensor.from_numpy(a).to(ctensor.bfloat16)) == torch_repr(torch.from_numpy(a).to(torch.bfloat16))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("seed", range(6))
def test_random_tensors_print_like_torch(seed):
    """Random shapes, magnitudes, dtypes, layouts and non-finite values."""
    gen = numpy.random.default_rng(100 + seed)
    for _ in range(60):
        assert_prints_like_torch(random_array(gen))


@pytest.fixture
def print_options():
    """Sets the same print options on both; the defaults come back afterwards."""
    def set_both(**options):
        torch.set_printoptions(**options)
        ctensor.set_printoptions(**options)
    yield set_both
    torch.set_printoptions(profile="default")
    ctensor.set_printoptions(profile="default")


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("seed", range(8))
def test_random_tensors_print_like_torch_under_random_options(seed, print_options):
    """Random print options (each one or several at a time, a profile now and
    then), each followed by random tensors: summarised ones included, as the
    threshold goes down to 0."""
    gen = numpy.random.default_rng(200 + seed)
    for _ in range(12):
        options = {}
        if gen.random() < 0.2:
            options["profile"] = str(gen.choice(["default", "short", "full"]))
        if gen.random() < 0.6:
            options["precision"] = int(gen.integers(0, 12))
        if gen.random() < 0.6:
            options["threshold"] = float(gen.choice([0, 1, 5, 30, 200, 1000, numpy.inf]))
        if gen.random() < 0.5:
            options["edgeitems"] = int(gen.integers(1, 6))
        if gen.random() < 0.5:
            options["linewidth"] = int(gen.integers(10, 200))
        if gen.random() < 0.5:
            options["sci_mode"] = bool(gen.random() < 0.5)
        print_options(**options)
        for _ in range(8):
            assert_prints_like_torch(random_array(gen, max_numel=5000))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("sci_mode", [True, False])
def test_sci_mode_option_with_no_nonzero_finite_value(sci_mode, print_options):
    """torch's formatter returns before it applies sci_mode when no value is
    nonzero and finite: zeros print as "0." either way."""
    print_options(sci_mode=sci_mode)
    for values in ([0.0, 0.0], [0.0, numpy.nan], [numpy.inf, -numpy.inf], [[0.0], [-0.0]], 0.0, [0j, 1j], [1.0, 0.0]):
        for dtype in ("float32", "float64", "complex64"):
            assert_prints_like_torch(numpy.array(values).astype(dtype))


def test_huge_tensor_is_summarised_before_its_values_are_read():
    """10^8 elements (an expanded view: no memory behind them) print at once:
    only the edge items are read, as torch reads them."""
    base = numpy.random.default_rng(3).standard_normal((1, 10000)).astype(numpy.float32)
    c = ctensor.from_numpy(base).expand(10000, 10000)
    t = torch.from_numpy(base).expand(10000, 10000)
    assert repr(c) == torch_repr(t)
    assert repr(c[None, :, None]) == torch_repr(t[None, :, None])
    one = numpy.array([-2.5], numpy.float64)
    assert repr(ctensor.from_numpy(one).expand(10**8)) == torch_repr(torch.from_numpy(one).expand(10**8))


@pytest.mark.parametrize("dtype", ["int16", "float64", "complex128", "bool", "uint8"])
def test_empty_and_summarised_suffixes_like_torch(dtype, print_options):
    """dtype= and size= suffixes where they pass the line width."""
    for linewidth in (10, 20, 30, 80):
        print_options(linewidth=linewidth, threshold=10)
        for shape in [(0,), (0, 3), (2, 0, 5), (4, 5), (30,), (1, 1, 12)]:
            assert_prints_like_torch(numpy.arange(numpy.prod(shape), dtype=numpy.int64).reshape(shape).astype(dtype))


def test_print_options_are_checked():
    with pytest.raises(ValueError):
        ctensor.set_printoptions(precision=-1)
    with pytest.raises(ValueError):
        ctensor.set_printoptions(edgeitems=-1)
    with pytest.raises(TypeError):
        ctensor.set_printoptions(precision=2.5)
    with pytest.raises(TypeError):
        ctensor.set_printoptions(profile=1)
    assert repr(ctensor.tensor([1.12345])) == "tensor([1.1235])"  # unchanged by the refused calls
