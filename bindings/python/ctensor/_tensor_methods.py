"""Tensor methods and module functions that only compose C calls: aliases, dtype
conversions, the constant autograd attributes, the conjugate transposes, and the
splits and atleast_Nd built on tensor_split and view. They join Tensor's methods
(Tensor.METHODS) and the package's functions (FUNCTIONS) on import; a name the C
type already has is refused."""
import builtins
import operator

from ctensor import _C

Tensor = _C.Tensor
_NOTE = "\n\nNote: experimental: built on ctensor's experimental C API (CTENSOR_EXPERIMENTAL), which a 0.x release may change."


def _require_tensor(obj, name, arg="other"):
    if not isinstance(obj, Tensor):
        raise TypeError(f"{name}(): argument '{arg}' must be Tensor, not {type(obj).__name__}")


# ---- autograd-shaped no-ops: ctensor has no autograd ------------------------

def requires_grad_(self, requires_grad=True):
    """requires_grad_(False) is self; True raises (no autograd)."""
    if requires_grad:
        raise NotImplementedError("requires_grad_(): requires_grad=True is not supported: ctensor has no autograd")
    return self


def _self(self):
    return self


def _false(self):
    return False


# ---- conversions ------------------------------------------------------------

def type_as(self, other, /):
    """to(other.dtype)."""
    _require_tensor(other, "type_as")
    return self.to(other.dtype)


def _type(self, dtype=None, non_blocking=False):
    """type(dtype=None): 'ctensor.FloatTensor', or converted to dtype (a dtype, a
    legacy type such as ctensor.IntTensor, or its name)."""
    if dtype is None:
        names = {d: n for n, d in _C._LEGACY_TYPES.items()}
        return f"ctensor.{names.get(self.dtype, 'Tensor')}"
    if isinstance(dtype, str):
        legacy = _C._LEGACY_TYPES.get(dtype.rpartition(".")[2])
        if legacy is None:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = legacy
    elif isinstance(dtype, builtins.type) and hasattr(dtype, "dtype"):  # FloatTensor & co.
        dtype = dtype.dtype
    elif not isinstance(dtype, (_C.dtype, builtins.type)):
        raise TypeError(f"dtype must be a ctensor.dtype, not {builtins.type(dtype).__name__}")
    return self.to(dtype)


def _converter(name, dtype):
    def convert(self):
        return self.to(dtype)

    convert.__name__ = convert.__qualname__ = name
    convert.__doc__ = f"to(ctensor.{dtype}) (self when it has that dtype)."
    return convert


def _new_factory(name):
    def new(self, *args, **kwargs):
        kwargs.setdefault("dtype", self.dtype)
        return getattr(_C, name[4:])(*args, **kwargs)

    new.__name__ = new.__qualname__ = name
    new.__doc__ = f"ctensor.{name[4:]}(...) with dtype=self.dtype unless given."
    return new


def zero_(self):
    """fill_(0)."""
    return self.fill_(0)


# ---- views --------------------------------------------------------------------

def _conjugated(view):
    return view.conj() if view.is_complex() else view


def H(self):
    """Conjugate transpose of a matrix (complex: read-only conjugated values)."""
    if self.ndim == 1 or self.ndim > 2:
        hint = " For batches of matrices, consider using tensor.mH" if self.ndim > 2 else ""
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.ndim}-D tensor.{hint}")
    return _conjugated(self.T)


def mH(self):
    """Conjugate transpose of the last two dims (complex: read-only conjugated values)."""
    return _conjugated(self.mT)


def adjoint(self):
    """adjoint(): mH."""
    if self.ndim == 1:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return self.mH


def resolve_conj(self):
    """resolve_conj(): self (ctensor's conjugates are never lazy)."""
    return self


def is_conj(self):
    """is_conj(): False (ctensor's conjugates are never lazy)."""
    return False


def ravel(self):
    """contiguous().view(-1): a view of a contiguous tensor, else a contiguous copy."""
    return self.contiguous().view(-1)


def _like(name, method):
    def like(self, other, /):
        _require_tensor(other, name)
        return getattr(self, method)(other.shape)

    like.__name__ = like.__qualname__ = name
    like.__doc__ = f"{name}(other): {method}(other.shape)."
    return like


def swapaxes(self, axis0, axis1):
    """swapaxes(axis0, axis1): transpose."""
    return self.transpose(axis0, axis1)


def unbind(self, dim=0):
    """unbind(dim=0): a tuple of views (select along dim)."""
    if self.ndim == 0:
        raise RuntimeError("unbind expects at least a 1-dimensional tensor")
    dim, n = operator.index(dim), self.ndim
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return tuple(self.select(dim, i) for i in range(self.shape[dim]))


def where(self, condition, other):
    """where(condition, other): self where condition, else other."""
    return _C.where(condition, self, other)


def _extreme(name, reduce, binary):
    def extreme(self, *args, **kwargs):
        if kwargs and not args and set(kwargs) <= {"axis", "out", "keepdims"}:  # np.max(t) passes these
            return getattr(self, reduce)(**kwargs)
        if kwargs or len(args) > 1 or (args and not isinstance(args[0], Tensor)):
            raise NotImplementedError(f"{name}({'dim, keepdim' if kwargs or len(args) > 1 else 'dim'}): values and "
                                      "indices are not provided by ctensor; use amax/amin")
        return getattr(self, binary)(args[0]) if args else getattr(self, reduce)()

    extreme.__name__ = extreme.__qualname__ = name
    extreme.__doc__ = (f"{name}(): the {'largest' if name == 'max' else 'smallest'} element; "
                       f"{name}(other): {binary}(self, other).")
    return extreme


METHODS = {
    "requires_grad_": requires_grad_, "detach_": _self, "cpu": _self, "is_pinned": _false,
    "requires_grad": property(_false, doc="Always False: ctensor has no autograd."),
    "grad": property(lambda self: None, doc="Always None: ctensor has no autograd."),
    "is_leaf": property(lambda self: True, doc="Always True: ctensor has no autograd."),
    "is_cuda": property(_false, doc="False: element access is on the CPU."),
    "is_sparse": property(_false, doc="False: ctensor tensors are strided."),
    "is_quantized": property(_false, doc="False."),
    "is_meta": property(_false, doc="False."),
    "type_as": type_as, "type": _type, "zero_": zero_,
    "H": property(H, doc=H.__doc__), "mH": property(mH, doc=mH.__doc__), "adjoint": adjoint,
    "resolve_conj": resolve_conj, "is_conj": is_conj, "ravel": ravel, "swapaxes": swapaxes, "unbind": unbind,
    "view_as": _like("view_as", "view"), "reshape_as": _like("reshape_as", "reshape"),
    "expand_as": _like("expand_as", "expand"), "where": where,
    "max": _extreme("max", "amax", "maximum"), "min": _extreme("min", "amin", "minimum"),
}
METHODS.update({name: _converter(name, getattr(_C, dtype)) for name, dtype in (
    ("float", "float32"), ("double", "float64"), ("half", "float16"), ("bfloat16", "bfloat16"), ("long", "int64"),
    ("int", "int32"), ("short", "int16"), ("byte", "uint8"), ("char", "int8"), ("bool", "bool"),
    ("cfloat", "complex64"), ("cdouble", "complex128"))})
METHODS.update({name: _new_factory(name) for name in ("new_zeros", "new_ones", "new_empty", "new_full", "new_tensor")})


# ---- module functions -------------------------------------------------------------

def _directional_split(name, min_dims, dim_of_1d, dim):
    def split(input, indices_or_sections, /):
        _require_tensor(input, name, "input")
        if input.ndim < min_dims:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dims} dimension"
                               f"{'' if min_dims == 1 else 's'}, but got a tensor with {input.ndim} dimensions!")
        along = dim_of_1d if input.ndim == 1 else dim
        if isinstance(indices_or_sections, int) or hasattr(indices_or_sections, "__index__"):
            sections, length = indices_or_sections.__index__(), input.shape[along]
            if sections == 0 or length % sections != 0:
                raise RuntimeError(f"torch.{name} attempted to split along dimension {along}, but the size of the "
                                   f"dimension {length} is not divisible by the split_size {sections}!")
        return input.tensor_split(indices_or_sections, along)

    split.__name__ = split.__qualname__ = name
    split.__doc__ = f"{name}(t, indices_or_sections): tensor_split along dim {dim}" + \
        (f" ({dim_of_1d} for 1-d)." if dim_of_1d != dim else ".") + _NOTE
    return split


# torch's atleast_Nd: the dims each ndim below N gains (a 1-d (n) is (1, n) and (1, n, 1)).
_GAINED = {1: {0: (0,)}, 2: {0: (0, 0), 1: (0,)}, 3: {0: (0, 0, 0), 1: (0, 2), 2: (2,)}}


def _atleast(n):
    def atleast(*tensors):
        items = tensors[0] if len(tensors) == 1 and not isinstance(tensors[0], Tensor) else tensors
        views = []
        for t in items:
            if not isinstance(t, Tensor):
                raise TypeError(f"atleast_{n}d(): expected Tensor, not {builtins.type(t).__name__}")
            view = t.detach()
            for dim in _GAINED[n].get(t.ndim, ()):
                view = view.unsqueeze(dim)
            views.append(view)
        return views[0] if len(tensors) == 1 and isinstance(tensors[0], Tensor) else tuple(views)

    atleast.__name__ = atleast.__qualname__ = f"atleast_{n}d"
    atleast.__doc__ = f"atleast_{n}d(*tensors): views with at least {n} dim{'' if n == 1 else 's'}." + _NOTE
    return atleast


FUNCTIONS = {
    "hsplit": _directional_split("hsplit", 1, 0, 1), "vsplit": _directional_split("vsplit", 2, 0, 0),
    "dsplit": _directional_split("dsplit", 3, 2, 2),
    "atleast_1d": _atleast(1), "atleast_2d": _atleast(2), "atleast_3d": _atleast(3),
}
for _function in FUNCTIONS.values():
    _function.__module__ = "ctensor"
_C._set_tensor_methods(METHODS)
