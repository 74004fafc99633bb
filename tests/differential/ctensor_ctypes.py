"""ctypes access to libctensor for differential tests against PyTorch and NumPy.

The library is found through $CTENSOR_LIB (set by scripts/test.sh), else in the
default build directories. Every function of api.json (the header as data, made by
scripts/gen_api.py) gets its argtypes and restype from it at import; the constants
below are api.json's too.
"""
import ctypes
import json
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


API = json.loads((ROOT / "api.json").read_text())

_INTEGERS = {"int8_t": ctypes.c_int8, "uint8_t": ctypes.c_uint8, "int16_t": ctypes.c_int16,
             "uint16_t": ctypes.c_uint16, "int32_t": i32, "uint32_t": ctypes.c_uint32, "int64_t": i64,
             "uint64_t": ctypes.c_uint64, "size_t": ctypes.c_size_t}
_INTEGER_TYPEDEFS = {t["name"]: t["c"] for t in API["typedefs"] if t["kind"] in ("integer", "enum")}


def ctypes_type(t):
    """The ctypes type of an api.json type: handles, structs, callbacks and void * are
    P (c_void_p), `T **` handles PP, strings c_char_p, numbers and their pointers typed."""
    kind, depth = t["base_kind"], t["pointer_depth"]
    if kind == "function_pointer":
        return P
    if kind == "void" and depth == 0:
        return None
    if kind in ("handle", "struct", "void"):
        scalar, depth = P, depth - 1
    elif kind == "char":
        scalar, depth = ctypes.c_char_p, depth - 1
    elif kind == "float":
        scalar = {"double": ctypes.c_double, "float": ctypes.c_float}[t["base"]]
    else:
        scalar = _INTEGERS[_INTEGER_TYPEDEFS.get(t["base"], t["base"])]
    for _ in range(depth):
        scalar = ctypes.POINTER(scalar)
    return scalar


for _f in API["functions"]:
    _fn = getattr(lib, _f["name"])
    _fn.restype = ctypes_type(_f["returns"])
    _fn.argtypes = [ctypes_type(p) for p in _f["params"]]

_CONSTANTS = {c["name"]: c["value"] for c in API["constants"]}
# Memory formats, conversion policies and copy modes.
PRESERVE_FORMAT, CONTIGUOUS_FORMAT = _CONSTANTS["TENSOR_PRESERVE_FORMAT"], _CONSTANTS["TENSOR_CONTIGUOUS_FORMAT"]
CONVERT_LIBRARY, CONVERT_TORCH_X86 = _CONSTANTS["TENSOR_CONVERT_LIBRARY"], _CONSTANTS["TENSOR_CONVERT_TORCH_X86"]
COPY_IF_NEEDED, COPY_ALWAYS, COPY_NEVER = (_CONSTANTS["TENSOR_COPY_IF_NEEDED"], _CONSTANTS["TENSOR_COPY_ALWAYS"],
                                           _CONSTANTS["TENSOR_COPY_NEVER"])

STATUS = {s["name"]: s["value"] for s in API["statuses"]}

# ctensor dtype value -> NumPy dtype (None where NumPy has no equivalent).
_NUMPY_NAMES = {"bool": "bool_"}
NUMPY_DTYPES = {d["value"]: getattr(np, _NUMPY_NAMES.get(d["name"], d["name"]), None) for d in API["dtypes"]}


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
