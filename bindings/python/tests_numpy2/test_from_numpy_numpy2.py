"""from_numpy under NumPy 2: the direct read through NumPy's public accessors
(the package built against NumPy 2.x headers targeting the 1.x API) gives what
the buffer path gives (forced with ctensor._C._numpy_direct_read(False)) for
every dtype, shape and flag, 64-dim arrays and NumPy 2's new dtypes included;
the array stays held and unresizable while shared."""
import gc
import sys

import numpy as np
import pytest

import ctensor

direct_read = ctensor._C._numpy_direct_read


@pytest.fixture(autouse=True)
def direct_read_restored():
    yield
    direct_read(True)


def outcome(make, direct):
    """from_numpy(make()) one way: what the tensor is, or the exception's type and text."""
    direct_read(direct)
    try:
        t = ctensor.from_numpy(make())
    except Exception as e:  # noqa: BLE001 - the comparison is the point
        return type(e), str(e)
    finally:
        direct_read(True)
    s = t.untyped_storage()
    return (t.dtype, tuple(t.shape), t.stride(), t.storage_offset(), t.data_ptr() - s.data_ptr(), s.nbytes(),
            t.is_readonly, t.tolist())


ARRAYS = [
    lambda: np.arange(24, dtype=np.float32).reshape(2, 3, 4)[:, ::-1, 1::2],
    lambda: np.arange(24, dtype=np.int64).reshape(4, 6).T[1:],
    lambda: np.zeros((2, 0, 3), np.uint16),
    lambda: np.zeros((1, 4), np.complex128),
    lambda: np.zeros((1,) * 64, np.int8),
    lambda: np.array(3, np.uint64),
    lambda: np.broadcast_to(np.arange(3.0), (2, 3)),
    lambda: np.broadcast_arrays(np.arange(3.0), np.zeros((2, 1)))[0],  # warns on write: buffer path
    lambda: np.frombuffer(bytearray(17), np.int32, 4, 1),  # unaligned: buffer path
    lambda: np.frombuffer(b"abcd", np.uint8),
    lambda: np.zeros(3, ">f8"),
    lambda: np.zeros(2, np.longdouble),
    lambda: np.array(["a", "bc"], dtype=np.dtypes.StringDType()),
    lambda: np.zeros(2, "datetime64[s]"),
    lambda: np.lib.stride_tricks.as_strided(np.zeros(4, np.int32), (1, 3), (6, 4)),
] + [lambda code=code: (np.arange(6) % 2).astype(code).reshape(3, 2).T for code in "?bBhHiIlLqQefdFD"]


def test_the_direct_read_is_on_with_numpy_2():
    assert direct_read() is True


@pytest.mark.filterwarnings("ignore:Numpy has detected:DeprecationWarning")  # both ways warn alike
@pytest.mark.parametrize("make", ARRAYS)
def test_both_ways_agree(make):
    assert outcome(make, True) == outcome(make, False)


def test_the_array_is_held_and_not_resizable_while_shared():
    a = np.arange(10.0)
    before = sys.getrefcount(a)
    t = ctensor.from_numpy(a)[2:]
    assert sys.getrefcount(a) == before + 1
    with pytest.raises(ValueError, match="cannot resize"):
        a.resize(20)
    view = np.asarray(t)
    del t
    gc.collect()
    assert sys.getrefcount(a) == before + 1  # the array made from the tensor holds it now
    del view
    gc.collect()
    assert sys.getrefcount(a) == before
    a.resize(20)
