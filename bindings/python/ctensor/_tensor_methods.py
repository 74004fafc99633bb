"""Tensor methods and module functions that only compose C calls: aliases, dtype
conversions, the constant autograd attributes, the conjugate transposes, the
splits (the C API's, through ctensor._capi) and atleast_Nd built on view. They join Tensor's methods
(Tensor.METHODS) and the package's functions (FUNCTIONS) on import; a name the C
type already has is refused."""
import builtins
import ctypes
import operator

import ctensor
from ctensor import _C
from ctensor._capi import CODES, I32, I32P, I64, I64P, P, PP, check, check_cpu, lib, tensor as _made
from ctensor._device import contiguous_format, device as _device
from ctensor._storage import TypedStorage, UntypedStorage, _rebuild_tensor
from ctensor._values import BOOL, FLOAT, INT, scalar_kind

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

# tensor_to_with(out, t, dtype, TENSOR_COPY_ALWAYS, TENSOR_PRESERVE_FORMAT, TENSOR_CONVERT_TORCH_X86):
# a writable copy in dtype with torch's preserve_format strides and x86 conversions.
_TO_WITH = lib.tensor_to_with
_PYTHON_DTYPES = {builtins.bool: _C.bool, builtins.int: _C.int64, builtins.float: _C.float64}


def _dtype(obj):
    """A dtype argument: a ctensor dtype, or Python's bool, int or float as torch takes them."""
    if isinstance(obj, _C.dtype):
        return obj
    if obj in _PYTHON_DTYPES:
        return _PYTHON_DTYPES[obj]
    raise TypeError(f"dtype must be a ctensor.dtype, not {_type_name(obj)}")


def _copy(self, dtype):
    return _made(_TO_WITH, self._handle, CODES[dtype], 1, 0, 1)


def _preserve(memory_format, what):
    """memory_format=: True for preserve_format (and None), False for contiguous_format."""
    name = "ctensor.preserve_format" if memory_format is None else str(memory_format)
    if name not in ("ctensor.contiguous_format", "ctensor.preserve_format"):
        raise NotImplementedError(f"{what}(): memory_format {name} is not supported (ctensor has no channels-last layouts)")
    return name == "ctensor.preserve_format"


def to(self, *args, dtype=None, device=None, copy=False, non_blocking=False, memory_format=None):
    """to(dtype or device or tensor, *, copy=False): converted (self if nothing changes)."""
    if len(args) == 1 and isinstance(args[0], _C.dtype) and dtype is device is memory_format is None and not copy:
        return self if args[0] is self.dtype else _copy(self, args[0])  # t.to(dtype), the common call
    if len(args) > 2:
        raise TypeError("to() received an invalid combination of arguments")
    target = self.dtype
    for i, item in enumerate(list(args) + [None] * (2 - len(args)) + [dtype, device]):
        if item is None:
            continue
        if i == 0 and isinstance(item, Tensor):
            target = item.dtype
        elif i != 3 and isinstance(item, (_C.dtype, builtins.type)):
            target = _dtype(item)
        elif i != 2 and isinstance(item, (str, builtins.int, _device)):
            if isinstance(item, builtins.int):  # t.to(0): CUDA device 0
                raise RuntimeError("to(): ctensor only has CPU memory")
            if str(item) != "cpu":
                raise RuntimeError(f"to(): ctensor only creates CPU tensors (device {item!r} requested)")
        else:
            raise TypeError(f"to() received an invalid combination of arguments - got ({_type_name(item)})")
    preserve = _preserve(memory_format, "to")
    converted = _copy(self, target) if copy or target is not self.dtype else self
    # contiguous_format lays out a copy in C order; without a copy self is kept, as torch
    # keeps it for tensors whose suggested format is contiguous (all of ctensor's)
    return converted if preserve or converted is self else converted.contiguous()


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
        return self if self.dtype is dtype else _copy(self, dtype)

    convert.__name__ = convert.__qualname__ = name
    convert.__doc__ = f"to(ctensor.{dtype}) (self when it has that dtype)."
    return convert


def _new_factory(name):
    def new(self, *args, **kwargs):
        kwargs.setdefault("dtype", self.dtype)
        return getattr(ctensor, name[4:])(*args, **kwargs)  # full is _factories.py's

    new.__name__ = new.__qualname__ = name
    new.__doc__ = f"ctensor.{name[4:]}(...) with dtype=self.dtype unless given."
    return new


def zero_(self):
    """fill_(0)."""
    return self.fill_(0)


# ---- views --------------------------------------------------------------------

_IS_CONJ = lib.tensor_is_conj


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
    """resolve_conj(): self, or a writable copy of conj()'s values (numpy() refuses those, as torch's conjugate views)."""
    return self.clone() if _IS_CONJ(self._handle) else self


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


# The in-place views: this object takes the new view (_C._become).
def t_(self):
    """t() in place: this object takes the new view."""
    return _C._become(self, self.t())


def transpose_(self, dim0, dim1):
    """transpose_(dim0, dim1): in place (this object takes the view)."""
    return _C._become(self, self.transpose(dim0, dim1))


def squeeze_(self, dim=None):
    """squeeze_(dim=None): in place (this object takes the view)."""
    return _C._become(self, self.squeeze(dim))


def unsqueeze_(self, dim):
    """unsqueeze_(dim): in place (this object takes the view)."""
    return _C._become(self, self.unsqueeze(dim))


def as_strided_(self, size, stride, storage_offset=None):
    """as_strided_(size, stride, storage_offset=None): in place."""
    return _C._become(self, self.as_strided(size, stride, storage_offset))


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


# ---- splits: tuples of views from the C API's splits (asked for their count, then filled)

_BY_NUMBER = {name: getattr(lib, name) for name in
              ("tensor_split", "tensor_chunk", "tensor_tensor_split")}
_BY_LIST = {name: getattr(lib, name) for name in
            ("tensor_split_with_sizes", "tensor_tensor_split_indices")}


def _views(fn, t, *args):
    count = I64()
    check(fn(None, 0, ctypes.byref(count), t._handle, *args))
    out = (P * max(count.value, 1))()
    check(fn(out, count.value, ctypes.byref(count), t._handle, *args))
    return tuple(_C._from_handle(out[i]) for i in range(count.value))


def _wrap_dim(dim, ndim):
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


def _split_dim(t, dim, what):
    dim = operator.index(dim)
    if t.ndim == 0:
        raise RuntimeError(f"{what} expects at least a 1-dimensional tensor")
    return _wrap_dim(dim, t.ndim)


def _split(t, how, dim, what, by_number, by_list, dim_first=lambda number: True):
    """An int (by_number) or a sequence of ints (by_list) split of t along dim; the
    dim is checked first unless dim_first(number) says the C API's error comes first."""
    if hasattr(builtins.type(how), "__index__"):
        number = operator.index(how)
        return _views(_BY_NUMBER[by_number], t, number, _split_dim(t, dim, what) if dim_first(number) else 0)
    try:
        items = [operator.index(item) for item in how]
    except TypeError:
        if hasattr(how, "__iter__"):
            raise
        raise TypeError(f"{what}(): {'split_size_or_sections' if what == 'split' else 'indices_or_sections'} "
                        "must be an int or a sequence of ints") from None
    values = (I64 * max(len(items), 1))(*items)
    return _views(_BY_LIST[by_list], t, len(items), values, _split_dim(t, dim, what))


def _split_args(split_size_or_sections, dim=0):
    return split_size_or_sections, dim


def _split_method_args(split_size, dim=0):  # Tensor.split's own name for the size
    return split_size, dim


def split(self, *args, **kwargs):
    """split(split_size_or_sections, dim=0): a tuple of views."""
    how, dim = (_split_method_args if "split_size" in kwargs else _split_args)(*args, **kwargs)
    return _split(self, how, dim, "split", "tensor_split", "tensor_split_with_sizes", lambda size: size >= 0)


def chunk(self, chunks, dim=0):
    """chunk(chunks, dim=0): a tuple of views."""
    chunks = operator.index(chunks)
    return _views(_BY_NUMBER["tensor_chunk"], self, chunks, _split_dim(self, dim, "chunk") if chunks > 0 else 0)


def tensor_split(self, indices_or_sections, dim=0):
    """tensor_split(indices_or_sections, dim=0): a tuple of views; a 0-dim int64 tensor is a number of
    sections, a 1-dim one the indices."""
    if self.ndim == 0:
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
    if isinstance(indices_or_sections, Tensor):
        spec = indices_or_sections
        if spec.dtype is not _C.int64:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                               f"{str(spec.dtype).rpartition('.')[2]}")
        if spec.ndim > 1:
            raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                               f"one-dimensional tensor, but got a tensor with {spec.ndim} dims")
        indices_or_sections = spec.item() if spec.ndim == 0 else spec.tolist()
    _split_dim(self, dim, "tensor_split")
    return _split(self, indices_or_sections, dim, "tensor_split", "tensor_tensor_split", "tensor_tensor_split_indices")


# ---- the views of ctensor.h's experimental section, through ctensor._capi ------

_UNFOLD = lib.tensor_unfold
_DIAGONAL = lib.tensor_diagonal
_UNFLATTEN = lib.tensor_unflatten
_MOVEDIM = lib.tensor_movedim
_CONJ = {name: getattr(lib, name) for name in ("tensor_conj", "tensor_conj_physical")}
_MAX_DIMS = 64  # TENSOR_MAX_DIMS


def _type_name(obj):
    cls = builtins.type(obj)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__.partition('.')[0]}.{cls.__qualname__}"


def _sizes(seq, what):
    """Sizes given as one int or a sequence of ints (ct_parse_sizes's rules)."""
    if hasattr(builtins.type(seq), "__index__"):
        seq = (seq,)
    try:
        items = list(seq)
    except TypeError:
        raise TypeError(f"{what}(): size must be a tuple of ints, not {_type_name(seq)}") from None
    if len(items) > _MAX_DIMS:
        raise RuntimeError(f"{what}(): {len(items)} dims given; at most {_MAX_DIMS} are supported")
    for i, item in enumerate(items):
        if not hasattr(builtins.type(item), "__index__"):
            raise TypeError(f"{what}(): size must be a tuple of ints, but element {i} is {_type_name(item)}")
    return [operator.index(item) for item in items]


def _int64s(values):
    return (I64 * max(len(values), 1))(*values)


def unfold(self, dimension, size, step):
    """unfold(dimension, size, step): sliding windows (a view)."""
    dimension = _wrap_dim(operator.index(dimension), self.ndim)
    return _made(_UNFOLD, self._handle, dimension, operator.index(size), operator.index(step))


def diagonal(self, offset=0, dim1=0, dim2=1):
    """diagonal(offset=0, dim1=0, dim2=1): a view of the diagonal."""
    offset, dim1, dim2 = operator.index(offset), operator.index(dim1), operator.index(dim2)
    return _made(_DIAGONAL, self._handle, offset, _wrap_dim(dim1, self.ndim), _wrap_dim(dim2, self.ndim))


def unflatten(self, dim, sizes):
    """unflatten(dim, sizes): dim split into sizes (a view)."""
    dim, sizes = operator.index(dim), _sizes(sizes, "unflatten")
    if sizes and self.ndim == 0:  # torch does not wrap a 0-dim tensor's dim here
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if sizes:  # (empty sizes: the C API's RuntimeError first)
        dim = _wrap_dim(dim, self.ndim)
    return _made(_UNFLATTEN, self._handle, dim, len(sizes), _int64s(sizes))


def movedim(self, source, destination):
    """movedim(source, destination): a permuted view."""
    def dims(obj):
        items = (obj,) if hasattr(builtins.type(obj), "__index__") else tuple(obj)
        return [_wrap_dim(operator.index(d), self.ndim) for d in items[:_MAX_DIMS]], len(items)

    (src, n), (dst, m) = dims(source), dims(destination)
    if n != m:
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({n} dims) should contain the same "
                           f"number of dims as destination ({m} dims)")
    return _made(_MOVEDIM, self._handle, n, _int64s(src), _int64s(dst))


def _conj(name, doc):
    def conj(self):
        out = P()
        check(_CONJ[f"tensor_{name}"](ctypes.byref(out), self._handle))
        if out.value == self._handle:  # real dtypes: self itself, as torch's
            lib.tensor_release(out)
            return self
        return _C._from_handle(out.value)

    conj.__name__ = conj.__qualname__ = name
    conj.__doc__ = doc + _NOTE
    return conj


def repeat(self, *repeats, **kwargs):
    """repeat(*repeats): a tiled copy: a zero-stride view of shape (r0, s0, r1, s1, ...)
    over self, copied in C order, then viewed as (r0*s0, r1*s1, ...)."""
    if kwargs:
        if set(kwargs) != {"repeats"} or repeats:
            raise TypeError("repeat() received an invalid combination of arguments")
        repeats = (kwargs["repeats"],)
    repeats = _sizes(repeats[0] if len(repeats) == 1 and not hasattr(builtins.type(repeats[0]), "__index__")
                     else repeats, "repeat")
    n, ndim = len(repeats), self.ndim
    if n < ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor")
    if 2 * n > _MAX_DIMS:
        raise RuntimeError(f"repeat(): {n} dims exceed ctensor's {_MAX_DIMS // 2}")
    sizes, strides = [1] * (n - ndim) + list(self.shape), [0] * (n - ndim) + list(self.stride())
    for r in repeats:
        if r < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {r}: [{r}]")
    tiled = self.as_strided([x for pair in zip(repeats, sizes) for x in pair],
                            [x for pair in zip([0] * n, strides) for x in pair], self.storage_offset())
    return tiled.clone(memory_format=contiguous_format).view([r * size for r, size in zip(repeats, sizes)])


# ---- clamp/clip and where over tensor_clamp and tensor_where -------------------

_INT64 = (-(1 << 63), (1 << 63) - 1)


def _operand(obj, name, arg):
    """A tensor or number argument as a Tensor: numbers become wrapped numbers (tensor_scalar_*),
    which promote as torch's Python numbers do (math.c's ct_operand)."""
    if isinstance(obj, Tensor):
        return obj
    kind = scalar_kind(obj)
    if kind == BOOL:
        return _made(lib.tensor_scalar_bool, builtins.bool(obj))
    if kind == INT:
        value = operator.index(obj)
        if not _INT64[0] <= value <= _INT64[1]:
            raise RuntimeError("Overflow when unpacking long")
        return _made(lib.tensor_scalar_int64, value)
    if kind == FLOAT:
        return _made(lib.tensor_scalar_float64, builtins.float(obj))
    if kind:
        value = builtins.complex(obj)
        return _made(lib.tensor_scalar_complex128, value.real, value.imag)
    raise TypeError(f"{name}(): argument '{arg}' must be Tensor or Number, not {_type_name(obj)}")


def _check_out(out, name):
    if out is not None and not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {_type_name(out)}")


def _into(make, make_into, out, *operands):
    """make(operands) in a new tensor, or make_into(out, operands) by the C API's _into rules, returning out."""
    handles = [None if t is None else t._handle for t in operands]
    if out is None:
        return _made(make, *handles)
    check(make_into(out._handle, *handles))
    return out


def _clamp(self, min, max, out, name):
    _check_out(out, name)
    lo = None if min is None else _operand(min, name, "min")
    hi = None if max is None else _operand(max, name, "max")
    return _into(lib.tensor_clamp, lib.tensor_clamp_into, out, self, lo, hi)


def clamp(self, min=None, max=None, *, out=None):
    """clamp(min=None, max=None, *, out=None): bounds are tensors or numbers."""
    return _clamp(self, min, max, out, "clamp")


def clip(self, min=None, max=None, *, out=None):
    """clip(min=None, max=None, *, out=None): clamp."""
    return _clamp(self, min, max, out, "clamp")  # (its messages name clamp, as before)


def clamp_(self, min=None, max=None):
    """clamp_(min=None, max=None): clamp in place, returns self."""
    return _clamp(self, min, max, self, "clamp_")


def clip_(self, min=None, max=None):
    """clip_(min=None, max=None): clamp_."""
    return _clamp(self, min, max, self, "clamp_")


def _where(condition, input, other, *, out=None):
    """where(condition, input, other, *, out=None): input where condition, else other."""
    if not isinstance(condition, Tensor):
        raise TypeError(f"where(): argument 'condition' must be Tensor, not {_type_name(condition)}")
    _check_out(out, "where")
    return _into(lib.tensor_where, lib.tensor_where_into, out, condition,
                 _operand(input, "where", "input"), _operand(other, "where", "other"))


_where.__name__ = _where.__qualname__ = "where"


def where(self, condition, other):
    """where(condition, other): self where condition, else other."""
    return _where(condition, self, other)


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

for _method in (split, chunk, tensor_split, unfold, diagonal, unflatten, movedim):
    _method.__doc__ = f"{_method.__doc__}{_NOTE}"


METHODS = {
    "requires_grad_": requires_grad_, "detach_": _self, "cpu": _self, "is_pinned": _false,
    "requires_grad": property(_false, doc="Always False: ctensor has no autograd."),
    "grad": property(lambda self: None, doc="Always None: ctensor has no autograd."),
    "is_leaf": property(lambda self: True, doc="Always True: ctensor has no autograd."),
    "is_cuda": property(_false, doc="False: element access is on the CPU."),
    "is_sparse": property(_false, doc="False: ctensor tensors are strided."),
    "is_quantized": property(_false, doc="False."),
    "is_meta": property(_false, doc="False."),
    "type_as": type_as, "type": _type, "zero_": zero_, "to": to,
    "H": property(H, doc=H.__doc__), "mH": property(mH, doc=mH.__doc__), "adjoint": adjoint,
    "t_": t_, "transpose_": transpose_, "swapdims_": transpose_, "squeeze_": squeeze_, "unsqueeze_": unsqueeze_,
    "as_strided_": as_strided_, "resolve_conj": resolve_conj, "is_conj": is_conj, "ravel": ravel, "swapaxes": swapaxes, "unbind": unbind,
    "view_as": _like("view_as", "view"), "reshape_as": _like("reshape_as", "reshape"),
    "expand_as": _like("expand_as", "expand"), "where": where,
    "clamp": clamp, "clip": clip, "clamp_": clamp_, "clip_": clip_,
    "split": split, "chunk": chunk, "tensor_split": tensor_split, "unfold": unfold, "diagonal": diagonal,
    "unflatten": unflatten, "movedim": movedim, "moveaxis": movedim, "repeat": repeat,
    "conj": _conj("conj", "conj(): self for real dtypes; complex: the conjugates, read-only (no lazy conjugate view)."),
    "conj_physical": _conj("conj_physical", "conj_physical(): self for real dtypes; complex: the conjugates in a new tensor."),
    "max": _extreme("max", "amax", "maximum"), "min": _extreme("min", "amin", "minimum"),
}
METHODS.update({name: _converter(name, getattr(_C, dtype)) for name, dtype in (
    ("float", "float32"), ("double", "float64"), ("half", "float16"), ("bfloat16", "bfloat16"), ("long", "int64"),
    ("int", "int32"), ("short", "int16"), ("byte", "uint8"), ("char", "int8"), ("bool", "bool"),
    ("cfloat", "complex64"), ("cdouble", "complex128"))})
METHODS.update({name: _new_factory(name) for name in ("new_zeros", "new_ones", "new_empty", "new_full", "new_tensor")})


# ---- the binary ops' methods and functions (the operators are the C type's) -------

# ctensor.h's TENSOR_OP_* values (the index is the code), with their docstrings.
_BINARY = (("add", "self + other"), ("sub", "self - other"), ("mul", "self * other"), ("div", "true division"),
           ("pow", "self ** exponent"), ("maximum", "element-wise maximum (NaN wins)"),
           ("minimum", "element-wise minimum (NaN wins)"), ("eq", "self == other"), ("ne", "self != other"),
           ("lt", "self < other"), ("le", "self <= other"), ("gt", "self > other"), ("ge", "self >= other"))


def _binary_method(name, op, doc, in_place=False):
    def method(self, other, /):
        result = _C._binary(op, self, other, self if in_place else None)
        if result is NotImplemented:  # torch's methods take tensors or numbers
            raise TypeError(f"{name}(): argument 'other' must be Tensor or Number, not {_type_name(other)}")
        return result

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"{name}(other): self {'+-*/'[op]}= other, returns self." if in_place else f"{name}(other): {doc}."
    return method


def _binary_function(name, op):
    def function(input, other, /, *, out=None):
        if out is not None and not isinstance(out, Tensor):
            raise TypeError(f"{name}(): out must be a Tensor")
        result = _C._binary(op, input, other, out)
        if result is NotImplemented:
            raise TypeError(f"{name}(): arguments must be Tensors or Numbers")
        return result

    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"{name}(input, other, *, out=None)."
    return function


for _op, (_name, _doc) in enumerate(_BINARY):
    METHODS[_name] = _binary_method(_name, _op, _doc)
for _op, (_name, _doc) in enumerate(_BINARY[:4]):
    METHODS[_name + "_"] = _binary_method(_name + "_", _op, _doc, in_place=True)
METHODS["true_divide"] = _binary_method("div", 3, "true division")


# ---- reductions and the ops along one dim, through ctensor._capi --------------------

_MISSING = object()
_ALL_DIMS = -(2 ** 63)  # TENSOR_ALL_DIMS


def _reduce_args(dim=_MISSING, keepdim=False, *, dtype=None, axis=_MISSING, keepdims=False, out=None):
    return dim, keepdim, dtype, axis, keepdims, out


def _reduce_dims(dim):
    """dim=None (every dim), an int or a sequence of ints."""
    if dim is _MISSING or dim is None:
        return []
    if isinstance(dim, int):
        return [dim]
    try:
        dims = list(dim)
    except TypeError:
        raise TypeError("dim must be an int, a sequence of ints or None") from None
    if len(dims) > _MAX_DIMS:
        raise RuntimeError("too many dims")
    return [operator.index(d) for d in dims]


def _converted(t, dtype):
    """dtype= of torch's reductions: the input converted first."""
    return t if dtype is None else t.to(dtype)


def _reduction(name, c_name, doc):
    fn = getattr(lib, c_name)

    def reduce(self, *args, **kwargs):  # also NumPy's spelling (axis=, keepdims=, out=None), as np.sum(t) passes it
        dim, keepdim, dtype, axis, keepdims, out = _reduce_args(*args, **kwargs)
        if out is not None or (axis is not _MISSING and dim is not _MISSING):
            # as torch's methods (out= is the module functions', in ctensor/_functions.py)
            raise TypeError(f"{name}(): {'out= is not supported' if out is not None else 'dim and axis both given'}")
        dims = _reduce_dims(dim if axis is _MISSING or axis is None else axis)
        input = _converted(self, dtype)
        return _made(fn, input._handle, len(dims), _int64s(dims) if dims else None, int(bool(keepdim) or bool(keepdims)))

    reduce.__name__ = reduce.__qualname__ = name
    reduce.__doc__ = doc
    return reduce


def _out(out, name):
    if out is not None and not isinstance(out, Tensor):
        raise TypeError(f"{name}(): argument 'out' must be Tensor, not {_type_name(out)}")
    return out


def _arg_extreme(name, c_names, doc):
    fn, into = getattr(lib, c_names[0]), getattr(lib, c_names[1])

    def arg_extreme(self, dim=None, keepdim=False, *, out=None):
        dim = _ALL_DIMS if dim is None else operator.index(dim)
        if _out(out, name) is None:
            return _made(fn, self._handle, dim, int(bool(keepdim)))
        check(into(out._handle, self._handle, dim, int(bool(keepdim))))
        return out

    arg_extreme.__name__ = arg_extreme.__qualname__ = name
    arg_extreme.__doc__ = doc
    return arg_extreme


def _along_dim(name, c_names, doc, dtype_positional):
    fn, into = getattr(lib, c_names[0]), getattr(lib, c_names[1])

    def run(self, dim, dtype, out):
        dim, input = operator.index(dim), _converted(self, dtype)
        if _out(out, name) is None:
            return _made(fn, input._handle, dim)
        check(into(out._handle, input._handle, dim))
        return out

    def positional(self, dim, dtype=None, *, out=None):  # softmax(dim, dtype=None, *, out=None)
        return run(self, dim, dtype, out)

    def keyword(self, dim, *, dtype=None, out=None):  # cumsum(dim, *, dtype=None, out=None)
        return run(self, dim, dtype, out)

    along = positional if dtype_positional else keyword
    along.__name__ = along.__qualname__ = name
    along.__doc__ = doc
    return along


METHODS.update({
    "sum": _reduction("sum", "tensor_sum", "sum(dim=None, keepdim=False, *, dtype=None): bool/integers give int64; pairwise."),
    "mean": _reduction("mean", "tensor_mean", "mean(dim=None, keepdim=False, *, dtype=None): float or complex only."),
    "prod": _reduction("prod", "tensor_prod", "prod(dim=None, keepdim=False, *, dtype=None)."),
    "amax": _reduction("amax", "tensor_amax", "amax(dim=(), keepdim=False): the largest element over dim (all when empty)."),
    "amin": _reduction("amin", "tensor_amin", "amin(dim=(), keepdim=False): the smallest element over dim (all when empty)."),
    "argmax": _arg_extreme("argmax", ("tensor_argmax", "tensor_argmax_into"), "argmax(dim=None, keepdim=False, *, out=None): int64 index of the first maximum."),
    "argmin": _arg_extreme("argmin", ("tensor_argmin", "tensor_argmin_into"), "argmin(dim=None, keepdim=False, *, out=None): int64 index of the first minimum."),
    "cumsum": _along_dim("cumsum", ("tensor_cumsum", "tensor_cumsum_into"), "cumsum(dim, *, dtype=None, out=None): bool/integers give int64.", False),
    "cumprod": _along_dim("cumprod", ("tensor_cumprod", "tensor_cumprod_into"), "cumprod(dim, *, dtype=None, out=None): bool/integers give int64.", False),
    "softmax": _along_dim("softmax", ("tensor_softmax", "tensor_softmax_into"), "softmax(dim, dtype=None, *, out=None): floating dtypes only.", True),
    "log_softmax": _along_dim("log_softmax", ("tensor_log_softmax", "tensor_log_softmax_into"), "log_softmax(dim, dtype=None, *, out=None): floating dtypes only.", True),
})


# ---- storages and deepcopy ----------------------------------------------------------

def untyped_storage(self):
    """The storage this tensor views."""
    return UntypedStorage._wrap(lib.tensor_storage_retain(lib.tensor_storage(self._handle)))


def storage(self):
    """The storage this tensor views, read as its dtype."""
    return TypedStorage._wrap(lib.tensor_storage_retain(lib.tensor_storage(self._handle)), CODES[self.dtype])


def __deepcopy__(self, memo):
    """copy.deepcopy(t) as torch's: the storage is copied whole (once per deepcopy: views
    of one storage stay views of one new storage) and the copy keeps t's sizes, strides
    and offset."""
    check_cpu(self, "deepcopy")
    old = lib.tensor_storage(self._handle)
    copied = memo.get(old) if isinstance(memo, dict) else None
    if not isinstance(copied, UntypedStorage):
        nbytes, new = lib.tensor_storage_nbytes(old), P()
        check(lib.tensor_storage_new(ctypes.byref(new), nbytes))
        copied = UntypedStorage._wrap(new.value)
        if nbytes:
            ctypes.memmove(lib.tensor_storage_data(new.value), lib.tensor_storage_data(old), nbytes)
        if isinstance(memo, dict):
            memo[old] = copied
    return _rebuild_tensor(copied, self.dtype, self.shape, self.stride(), self.storage_offset())


METHODS.update({"untyped_storage": untyped_storage, "storage": storage, "__deepcopy__": __deepcopy__,
                "is_floating_point": lambda self: self.dtype.is_floating_point,
                "is_complex": lambda self: self.dtype.is_complex, "is_signed": lambda self: self.dtype.is_signed,
                "element_size": lambda self: self.dtype.itemsize,
                "itemsize": property(lambda self: self.dtype.itemsize, doc="Bytes per element."),
                "nbytes": property(lambda self: self.numel() * self.dtype.itemsize, doc="numel() * itemsize.")})


# ---- module functions -------------------------------------------------------------

_JOINS = {name[len("tensor_"):]: getattr(lib, name) for name in ("tensor_cat", "tensor_stack")}


def _join(name, doc):
    def join(tensors, dim=0):
        try:
            tensors = list(tensors)
        except TypeError:
            raise TypeError("expected a sequence of tensors") from None
        for i, t in enumerate(tensors):
            if not isinstance(t, Tensor):
                raise TypeError(f"{name}(): expected a sequence of Tensors, but item {i} is {_type_name(t)}")
        handles = (P * max(len(tensors), 1))(*[t._handle for t in tensors])
        return _made(_JOINS[name], len(tensors), handles, operator.index(dim))

    join.__name__ = join.__qualname__ = name
    join.__doc__ = doc
    return join


cat = _join("cat", "cat(tensors, dim=0): joined along dim, in the promoted dtype.")
stack = _join("stack", "stack(tensors, dim=0): joined along a new dim.")
_EQUAL = lib.tensor_equal
_ALLCLOSE = lib.tensor_allclose


def equal(input, other, /):
    """equal(a, b): same sizes and equal elements."""
    _require_tensor(input, "equal", "input")
    _require_tensor(other, "equal")
    result = I32()
    check(_EQUAL(ctypes.byref(result), input._handle, other._handle))
    return bool(result.value)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)."""
    _require_tensor(input, "allclose", "input")
    _require_tensor(other, "allclose")
    result = I32()
    check(_ALLCLOSE(ctypes.byref(result), input._handle, other._handle, float(rtol), float(atol), int(bool(equal_nan))))
    return bool(result.value)


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


FUNCTIONS = {_name: _binary_function(_name, _op) for _op, (_name, _doc) in enumerate(_BINARY)}
FUNCTIONS["true_divide"] = _binary_function("div", 3)
FUNCTIONS.update({
    "equal": equal, "allclose": allclose,
    "hsplit": _directional_split("hsplit", 1, 0, 1), "vsplit": _directional_split("vsplit", 2, 0, 0),
    "dsplit": _directional_split("dsplit", 3, 2, 2),
    "atleast_1d": _atleast(1), "atleast_2d": _atleast(2), "atleast_3d": _atleast(3), "where": _where,
})
for _function in FUNCTIONS.values():
    _function.__module__ = "ctensor"
_C._set_tensor_methods(METHODS)
