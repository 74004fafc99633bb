"""Tensor's value conversions that only compose C calls (complex(t), format(t,
spec), `in`), the kind of a Python or NumPy number, the dtype objects' attributes (itemsize, is_floating_point, is_complex,
is_signed, pickling by name) over the C API through _capi, and torch's short
names of the dtypes (ALIASES: ctensor.float is ctensor.float32, ...)."""
import ctypes
import sys

from ctensor import _C
from ctensor._capi import CODES, check_cpu, lib as _lib

_FLOAT, _COMPLEX = 2, 3  # tensor_dtype_kind's TENSOR_KIND_FLOAT and TENSOR_KIND_COMPLEX
BOOL, INT, FLOAT, COMPLEX = 1, 2, 3, 4  # number kinds (scalar_kind)
_NUMPY_KINDS = {"b": BOOL, "i": INT, "u": INT, "f": FLOAT, "c": COMPLEX}


def type_name(obj):
    """The type's name as its tp_name spells it: module-qualified for a static type outside builtins."""
    cls = type(obj)
    heap = cls.__flags__ & (1 << 9)  # Py_TPFLAGS_HEAPTYPE: a class statement's type
    return cls.__name__ if heap or cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"


def numpy_type(obj, name):
    """isinstance(obj, numpy.<name>), False while NumPy is not imported (obj cannot be one then)."""
    numpy = sys.modules.get("numpy")
    return numpy is not None and isinstance(obj, getattr(numpy, name))


def scalar_kind(obj):
    """Kind of a number (Python, NumPy scalar or 0-dim array, 0-dim tensor), else 0
    (scalar.c's ct_scalar_kind): BOOL < INT < FLOAT < COMPLEX, as torch's inference widens them."""
    if isinstance(obj, bool):
        return BOOL
    if isinstance(obj, int):
        return INT
    if isinstance(obj, float):
        return FLOAT
    if isinstance(obj, complex):
        return COMPLEX
    if isinstance(obj, _C.Tensor):
        if obj.dim() != 0:
            return 0
        dtype = obj.dtype
        return BOOL if dtype is _C.bool else COMPLEX if dtype.is_complex else FLOAT if dtype.is_floating_point else INT
    if numpy_type(obj, "generic") or (numpy_type(obj, "ndarray") and obj.ndim == 0):
        return _NUMPY_KINDS.get(obj.dtype.kind, 0)
    return 0


def _contains(self, value):
    """`x in t`: some element equals x (torch: (t == x).any())."""
    eq = self.__eq__(value)
    if eq is NotImplemented:
        raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a {type_name(value)}.")
    return eq.sum().item() != 0


def __complex__(self):
    if self.numel() != 1:
        raise ValueError("only one element tensors can be converted to Python scalars")
    check_cpu(self, "complex")
    return complex(self.item())


def __format__(self, spec):
    """f"{t:.3f}" formats a 0-dim tensor's value, as torch does."""
    if self.dim() != 0:
        return object.__format__(self, spec)
    check_cpu(self, "format")
    return format(self.item(), spec)


_C._set_tensor_methods({"__complex__": __complex__, "__format__": __format__, "_contains": _contains})


def _reduce_dtype(self):
    """dtypes are singletons: copying or pickling gives the same object back (by name)."""
    return _lib.tensor_dtype_name(CODES[self]).decode()


def _kind(code):
    return _lib.tensor_dtype_kind(code)


def _dtype_property(fn, doc):
    return property(lambda self: fn(CODES[self]), doc=doc)


def _set_dtype_attributes():
    """Adds the dtypes' attributes (in a function: mypy reaches this module
    before _capi, whose `lib` it types then)."""
    _C._set_dtype_attributes({
        "itemsize": _dtype_property(_lib.tensor_dtype_size, "Size of one element in bytes."),
        "is_floating_point": _dtype_property(lambda code: _kind(code) == _FLOAT, "True for float16/bfloat16/float32/float64."),
        "is_complex": _dtype_property(lambda code: _kind(code) == _COMPLEX, "True for complex64/complex128."),
        "is_signed": _dtype_property(lambda code: bool(_lib.tensor_dtype_is_signed(code)),
                                     "True unless unsigned integer or bool."),
        "__reduce__": _reduce_dtype,
        # pickle finds a singleton through its __module__ (as torch's dtypes say "torch"):
        # without it pickle searches every loaded module for the name "bool".
        "__module__": "ctensor",
    })


_set_dtype_attributes()

# torch's short names for the same objects.
ALIASES = {"half": _C.float16, "float": _C.float32, "double": _C.float64, "cfloat": _C.complex64,
           "cdouble": _C.complex128, "short": _C.int16, "int": _C.int32, "long": _C.int64}
