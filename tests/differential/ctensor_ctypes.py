"""ctypes access to libctensor for differential tests against PyTorch and NumPy.

The library is found through $CTENSOR_LIB (set by scripts/test.sh), else in the
default build directories.
"""
import ctypes
import os
import pathlib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _find_library():
    env = os.environ.get("CTENSOR_LIB")
    if env:
        return env
    for build in ("build-test", "build"):
        path = ROOT / build / "src" / "libctensor.so"
        if path.exists():
            return str(path)
    raise RuntimeError("libctensor.so not found: build it or set CTENSOR_LIB")


lib = ctypes.CDLL(_find_library())

i64 = ctypes.c_int64
i32 = ctypes.c_int32
P = ctypes.c_void_p
PP = ctypes.POINTER(ctypes.c_void_p)
I64P = ctypes.POINTER(ctypes.c_int64)


def _proto(name, restype, *argtypes):
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)


_proto("tensor_last_error", ctypes.c_char_p)
_proto("tensor_status_name", ctypes.c_char_p, i32)
_proto("tensor_dtype_name", ctypes.c_char_p, i32)
_proto("tensor_dtype_size", ctypes.c_size_t, i32)
_proto("tensor_dtype_kind", i32, i32)
_proto("tensor_dtype_is_signed", i32, i32)
_proto("tensor_from_data", i32, PP, P, i64, I64P, i32)
_proto("tensor_empty", i32, PP, i64, I64P, i32)
_proto("tensor_release", None, P)
_proto("tensor_retain", P, P)
_proto("tensor_ndim", i64, P)
_proto("tensor_sizes", I64P, P)
_proto("tensor_strides", I64P, P)
_proto("tensor_storage_offset", i64, P)
_proto("tensor_dtype", i32, P)
_proto("tensor_numel", i64, P)
_proto("tensor_data", P, P)
_proto("tensor_storage", P, P)
_proto("tensor_storage_data", P, P)
_proto("tensor_storage_nbytes", ctypes.c_size_t, P)
_proto("tensor_is_contiguous", i32, P)
_proto("tensor_refcount", i64, P)
_proto("tensor_as_strided", i32, PP, P, i64, I64P, I64P, i64)
_proto("tensor_empty_like", i32, PP, P, i32, i32)
_proto("tensor_zeros_like", i32, PP, P, i32, i32)
_proto("tensor_copy_with", i32, P, P, ctypes.c_uint32)
_proto("tensor_to_with", i32, PP, P, i32, i32, i32, ctypes.c_uint32)

# Memory formats and conversion policies (ctensor.h's experimental section).
PRESERVE_FORMAT, CONTIGUOUS_FORMAT = 0, 1
CONVERT_LIBRARY, CONVERT_TORCH_X86 = 0, 1
COPY_IF_NEEDED, COPY_ALWAYS, COPY_NEVER = 0, 1, 2

STATUS = {
    "TENSOR_OK": 0, "TENSOR_E_INVALID": 1, "TENSOR_E_NOMEM": 2, "TENSOR_E_BOUNDS": 3,
    "TENSOR_E_SHAPE": 4, "TENSOR_E_STRIDE": 5, "TENSOR_E_DTYPE": 6, "TENSOR_E_OVERFLOW": 7,
    "TENSOR_E_READONLY": 8, "TENSOR_E_OVERLAP": 9, "TENSOR_E_DEVICE": 10, "TENSOR_E_COPY": 11,
    "TENSOR_E_IO": 12, "TENSOR_E_FORMAT": 13, "TENSOR_E_UNSUPPORTED": 14,
    "TENSOR_E_INTERNAL": 15,
}

# ctensor dtype value -> NumPy dtype (None where NumPy has no equivalent).
NUMPY_DTYPES = {
    0: np.uint8, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.int64, 5: np.float16,
    6: np.float32, 7: np.float64, 9: np.complex64, 10: np.complex128, 11: np.bool_,
    15: None, 27: np.uint16, 28: np.uint32, 29: np.uint64,
}


class CtensorError(Exception):
    def __init__(self, status, message):
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message


def check(status):
    """Raises CtensorError(status, last_error) unless status is TENSOR_OK."""
    if status != 0:
        raise CtensorError(status, lib.tensor_last_error().decode())


def int64_array(values):
    values = list(values)
    return (i64 * max(len(values), 1))(*values)


class Tensor:
    """Owns one reference to a tensor_t handle."""

    def __init__(self, handle):
        self.handle = ctypes.c_void_p(handle)

    def __del__(self):
        if self.handle:
            lib.tensor_release(self.handle)
            self.handle = None

    @property
    def ndim(self):
        return lib.tensor_ndim(self.handle)

    @property
    def shape(self):
        return tuple(lib.tensor_sizes(self.handle)[i] for i in range(self.ndim))

    @property
    def strides(self):
        return tuple(lib.tensor_strides(self.handle)[i] for i in range(self.ndim))

    @property
    def offset(self):
        return lib.tensor_storage_offset(self.handle)

    @property
    def dtype(self):
        return lib.tensor_dtype(self.handle)

    @property
    def data_ptr(self):
        return lib.tensor_data(self.handle) or 0

    def is_contiguous(self):
        return bool(lib.tensor_is_contiguous(self.handle))

    def numpy(self):
        """A NumPy view of the elements (for dtypes NumPy has)."""
        np_dtype = np.dtype(NUMPY_DTYPES[self.dtype])
        storage = lib.tensor_storage(self.handle)
        nbytes = lib.tensor_storage_nbytes(storage)
        base = lib.tensor_storage_data(storage) or 0
        raw = np.ctypeslib.as_array((ctypes.c_uint8 * max(nbytes, 1)).from_address(base)) if base else np.zeros(1, np.uint8)
        flat = raw.view(np.uint8)
        item = np_dtype.itemsize
        return np.lib.stride_tricks.as_strided(
            flat[self.offset * item:].view(np_dtype) if np.prod(self.shape) else np.zeros(1, np_dtype),
            shape=self.shape, strides=tuple(s * item for s in self.strides))


def from_numpy(array, dtype):
    """A new contiguous ctensor tensor holding a copy of `array` (any layout)."""
    array = np.require(array, requirements="C")  # keeps 0-dim arrays 0-dim
    out = ctypes.c_void_p()
    check(lib.tensor_from_data(ctypes.byref(out), array.ctypes.data_as(P), array.ndim,
                               int64_array(array.shape), dtype))
    return Tensor(out.value)
