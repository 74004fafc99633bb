"""Tensor's value conversions that only compose C calls (complex(t), format(t,
spec)) and the dtype objects' attributes (itemsize, is_floating_point,
is_complex, is_signed, pickling by name), over the C API through _capi."""
import ctypes

from ctensor import _C
from ctensor._capi import CODES, check_cpu, lib

_FLOAT, _COMPLEX = 2, 3  # tensor_dtype_kind's TENSOR_KIND_FLOAT and TENSOR_KIND_COMPLEX
for _fn in (lib.tensor_dtype_kind, lib.tensor_dtype_is_signed):
    _fn.restype, _fn.argtypes = ctypes.c_int32, [ctypes.c_int32]


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


_C._set_tensor_methods({"__complex__": __complex__, "__format__": __format__})


def _reduce_dtype(self):
    """dtypes are singletons: copying or pickling gives the same object back (by name)."""
    return lib.tensor_dtype_name(CODES[self]).decode()


_C._set_dtype_attributes({
    "itemsize": property(lambda self: lib.tensor_dtype_size(CODES[self]), doc="Size of one element in bytes."),
    "is_floating_point": property(lambda self: lib.tensor_dtype_kind(CODES[self]) == _FLOAT,
                                  doc="True for float16/bfloat16/float32/float64."),
    "is_complex": property(lambda self: lib.tensor_dtype_kind(CODES[self]) == _COMPLEX,
                           doc="True for complex64/complex128."),
    "is_signed": property(lambda self: bool(lib.tensor_dtype_is_signed(CODES[self])),
                          doc="True unless unsigned integer or bool."),
    "__reduce__": _reduce_dtype,
    # pickle finds a singleton through its __module__ (as torch's dtypes say "torch"):
    # without it pickle searches every loaded module for the name "bool".
    "__module__": "ctensor",
})
