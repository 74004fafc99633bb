"""Python data to tensors: torch.asarray's share-or-copy rules and torch.tensor,
whose copying path for scalars and nested sequences infers the dtype as torch
does (bool, int64 for ints, float32 for floats, complex64 for complex, the own
dtype of NumPy scalars and 0-dim tensors, promoted together), checks the nesting,
and packs the leaves into a tensor_empty buffer of the widest dtype of the
result's kind, converted once (through ctensor._capi). index.c makes list
indices (t[[0, 2]]) with _from_data too."""
import array
import ctypes
import math
import operator
import sys
from typing import Any, Callable

from ctensor import _C
from ctensor._capi import CODES, check, lib, tensor as _made
from ctensor._dlpack import _CAPSULE, from_dlpack
from ctensor._files import _check_device
from ctensor._tensor_methods import _copy, _dtype
from ctensor._values import numpy_type as _numpy_type, scalar_kind as _scalar_kind, type_name

Tensor = _C.Tensor
_MAX_DIMS = 64
_EXACT = {bool: _C.bool, int: _C.int64, float: _C.float32, complex: _C.complex64}  # the common leaves
_EXACT_DTYPES = set(_EXACT.values())
# NumPy scalars' dtypes by their array-interface string (as dtype.c's table)
_TYPESTRS = {"|b1": _C.bool, "|u1": _C.uint8, "|i1": _C.int8, "<i2": _C.int16, "<i4": _C.int32, "<i8": _C.int64,
             "<u2": _C.uint16, "<u4": _C.uint32, "<u8": _C.uint64, "<f2": _C.float16, "<f4": _C.float32,
             "<f8": _C.float64, "<c8": _C.complex64, "<c16": _C.complex128}
# The widest dtype of each kind (tensor_dtype_kind: bool, int, float, complex): the buffer's.
_WIDE = (_C.bool, _C.int64, _C.float64, _C.complex128)
_KIND = {dtype: lib.tensor_dtype_kind(code) for dtype, code in CODES.items()}
# int64 values that some dtypes cannot hold (tensor_scalar_convert_int64 checks them)
_NARROW = {_C.int8, _C.int16, _C.int32, _C.uint8, _C.uint16, _C.uint32, _C.float16}
_SCRATCH = (ctypes.c_double * 2)()
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1
# The C API's own tests (the legacy constructor's of its arguments too: sizes or data).
_is_sequence, _is_index = ctypes.pythonapi.PySequence_Check, ctypes.pythonapi.PyIndex_Check
for _fn in (_is_sequence, _is_index):
    _fn.restype, _fn.argtypes = ctypes.c_int, [ctypes.py_object]


def _is_nested(obj):
    """Whether obj is one more level of nesting (a bytearray is a sequence of ints to torch)."""
    if type(obj) is list or type(obj) is tuple:  # the common case
        return True
    if isinstance(obj, (str, bytes, Tensor)):  # torch: a tensor in a list is one number (if it holds one)
        return False
    return _scalar_kind(obj) == 0 and bool(_is_sequence(obj))


def _leaf_dtype(obj, depth, given):
    """The dtype a scalar leaf asks for (`given`: the caller named a dtype, so a leaf
    that is no number is a TypeError)."""
    if isinstance(obj, Tensor):
        return obj.dtype
    kind = _scalar_kind(obj)
    if kind and hasattr(obj, "dtype"):  # NumPy scalars and 0-dim arrays
        dtype = _TYPESTRS.get(obj.dtype.str)
        if dtype is None:
            raise TypeError(f"can't convert NumPy scalar of type {type_name(obj)}")
        return dtype
    for cls, dtype in _EXACT.items():  # subclasses (bool has none)
        if isinstance(obj, cls):
            return dtype
    name = type_name(obj)
    if isinstance(obj, str) and depth > 0:  # torch sees a string in a list as one more dim
        raise ValueError(f"too many dimensions '{name}'")
    if isinstance(obj, (str, bytes, bytearray)):
        raise TypeError(f"new(): invalid data type '{name}'")
    if given:  # torch converts the leaf to the dtype asked for: a TypeError
        raise TypeError(f"must be real number, not {name}")
    raise RuntimeError(f"Could not infer dtype of {name}")


def _measure(data):
    """The sizes, from the first element of each level."""
    sizes, cur = [], data
    while _is_nested(cur):
        if len(sizes) == _MAX_DIMS:
            raise ValueError(f"too many dimensions (more than {_MAX_DIMS})")
        sizes.append(len(cur))
        if not sizes[-1]:
            break
        cur = cur[0]
        if type(cur) not in _EXACT and _numpy_type(cur, "ndarray") and cur.ndim == 0:  # torch measures it as a sequence: len() fails
            raise TypeError("len() of unsized object")
    return sizes


class _Leaves:
    """The leaves in C order and their promoted dtype, the nesting checked against sizes."""

    def __init__(self, data, sizes, given):
        self.sizes, self.given, self.flat, self.dtype, self.seen = sizes, given, [], None, set()
        self.visit(data, 0)

    def add(self, dtype):
        if dtype not in self.seen:  # promotion is a join: each dtype counts once
            self.seen.add(dtype)
            # a named dtype makes the leaves' promotion moot (and uint64 with int64 fine)
            self.dtype = dtype if self.given or self.dtype is None else _C.promote_types(self.dtype, dtype)

    def leaf(self, obj, depth):
        if _is_nested(obj):
            raise TypeError(f"expected a number at dim {depth}, got a sequence of type {type_name(obj)}")
        self.add(_leaf_dtype(obj, depth, self.given))

    def visit(self, obj, depth):
        if depth == len(self.sizes):
            self.leaf(obj, depth)
            self.flat.append(obj)
            return
        if not _is_nested(obj):
            raise TypeError(f"expected a sequence at dim {depth}, got {type_name(obj)}")
        items = obj if type(obj) in (list, tuple) else list(obj)
        if len(items) != self.sizes[depth]:
            raise ValueError(f"expected sequence of length {self.sizes[depth]} at dim {depth} (got {len(items)})")
        if depth + 1 < len(self.sizes):
            for item in items:
                self.visit(item, depth + 1)
            return
        # the last dim: exact Python numbers by their types; the joins of their dtypes
        # (with one of them) never fail, so their order only matters after another dtype
        types = set(map(type, items))
        if not types <= _EXACT.keys() or not (self.given or self.dtype is None or self.dtype in _EXACT_DTYPES):
            types = dict.fromkeys(map(type, items))  # in the order the leaves first have them
        for cls in types:
            if cls not in _EXACT:
                for item in items:  # one by one, in order (dtypes seen count once)
                    self.leaf(item, depth + 1)
                break
            self.add(_EXACT[cls])
        if depth == 0:  # one dim: the leaves are the sequence's items
            self.flat = items
        else:
            self.flat.extend(items)


def _checked(convert, code, value):
    check(convert(_SCRATCH, code, value))  # the library's range check; the value is stored by the caller


def _int(obj, code, narrow):
    """A leaf for an integer dtype, as torch's store_scalar: floats range-checked and
    truncated, anything else through __index__, range-checked (a float32 NumPy
    scalar is a TypeError there, as in torch)."""
    if isinstance(obj, float):
        _checked(lib.tensor_scalar_convert_float64, code, obj)
        t = math.trunc(obj)
        return _INT64_MAX if t >= _INT64_MAX else t
    value = operator.index(obj)
    if not _INT64_MIN <= value <= _INT64_MAX:
        raise RuntimeError("Overflow when unpacking long")
    if narrow:
        _checked(lib.tensor_scalar_convert_int64, code, value)
    return value


def _bool(obj):
    """A leaf's truth: floats and complex by value, anything else through __index__."""
    if isinstance(obj, (float, complex)):
        return obj != 0
    return operator.index(obj) != 0


def _pack(flat, dtype):
    """The leaves as the bytes of the widest dtype of dtype's kind."""
    kind = _KIND[dtype]
    if kind == 0:
        if set(map(type, flat)) <= _EXACT.keys():  # exact Python numbers: bool() is _bool
            return array.array("B", map(bool, flat))
        return array.array("B", [_bool(x) for x in flat])
    if kind == 1:
        code, narrow = CODES[dtype], dtype in _NARROW
        if not narrow:
            try:  # each through __index__, as _int's last step
                return array.array("q", flat)
            except (TypeError, OverflowError):  # floats, or an error _int raises as torch does
                pass
        return array.array("q", [_int(x, code, narrow) for x in flat])
    if kind == 2:
        return array.array("d", flat)  # each through __float__ (PyFloat_AsDouble)
    values = array.array("d")
    for x in flat:
        c = complex(x)
        values.append(c.real)
        values.append(c.imag)
    return values


def _from_data(data, dtype=None):
    """A new tensor holding a Python scalar or nested sequence (dtype None: inferred)."""
    sizes = _measure(data)
    leaves = _Leaves(data, sizes, dtype is not None)
    dtype = dtype or leaves.dtype or _C.float32  # no leaves: torch.tensor([]) is float32
    values = _pack(leaves.flat, dtype)
    wide = _WIDE[_KIND[dtype]]
    buffer = _C.empty(sizes, dtype=wide)  # tensor_empty, contiguous
    address, count = values.buffer_info()
    if count:
        ctypes.memmove(buffer.data_ptr(), address, count * values.itemsize)
    return buffer if dtype is wide else _copy(buffer, dtype)


def _options(dtype, device, requires_grad, what):
    """The dtype argument (None or a dtype) and the options torch has that ctensor cannot honour."""
    dtype = None if dtype is None else _dtype(dtype)
    if requires_grad:
        raise NotImplementedError(f"{what}(): requires_grad=True is not supported: ctensor has no autograd")
    _check_device(device, what)
    return dtype


def _numpy_copy(obj, dtype):
    """A copy of a NumPy array or scalar (a scalar: a 0-dim tensor of its own dtype)."""
    shared = _C.from_numpy(obj if _numpy_type(obj, "ndarray") else sys.modules["numpy"].asarray(obj))
    return _copy(shared, dtype or shared.dtype)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False): torch.asarray's share-or-copy rules."""
    dtype = _options(dtype, device, requires_grad, "asarray")
    copy = None if copy is None else bool(copy)  # None: share when possible
    if isinstance(obj, Tensor):
        shared = obj
    elif _numpy_type(obj, "ndarray"):
        shared = _C.from_numpy(obj)
    elif _numpy_type(obj, "generic"):  # NumPy scalars are immutable values: always a 0-dim copy in their own dtype
        if copy is False:
            raise ValueError("can't alias NumPy scalars: they own no shareable memory")
        return _numpy_copy(obj, dtype)
    elif type(obj) is _CAPSULE or hasattr(obj, "__dlpack__"):
        shared = from_dlpack(obj)
    elif isinstance(obj, (bytes, bytearray, memoryview)) or _has_buffer(obj):
        shared = _C.frombuffer(obj, dtype=dtype or _C.float32)  # torch: raw bytes grouped by the dtype
    else:  # scalars and nested sequences: always a new tensor
        if copy is False:
            raise ValueError("can't alias arbitrary sequence into a tensor.")
        return _from_data(obj, dtype)
    wrong_dtype = dtype is not None and dtype is not shared.dtype
    if copy or (copy is None and wrong_dtype):
        return _copy(shared, dtype or shared.dtype)
    if wrong_dtype:  # copy=False: the library's refusal, with its message
        _made(lib.tensor_to, shared._handle, CODES[dtype], 2)  # TENSOR_COPY_NEVER
    return shared  # torch.asarray(t) is t


def _has_buffer(obj):
    """Whether obj exports the buffer protocol (PyObject_CheckBuffer)."""
    try:
        memoryview(obj).release()
        return True
    except TypeError:
        return False


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """tensor(data, *, dtype=None): always a copy."""
    dtype = _options(dtype, device, requires_grad, "tensor")
    if isinstance(data, Tensor):
        return _copy(data, dtype or data.dtype)
    if _numpy_type(data, "ndarray") or _numpy_type(data, "generic"):
        return _numpy_copy(data, dtype)
    if hasattr(data, "__dlpack__"):  # e.g. a torch.Tensor
        shared = from_dlpack(data)
        return _copy(shared, dtype or shared.dtype)
    return _from_data(data, dtype)


asarray.__module__ = tensor.__module__ = "ctensor"
FUNCTIONS: dict[str, Callable[..., Any]] = {"asarray": asarray, "tensor": tensor}
