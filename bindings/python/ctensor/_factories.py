"""torch's factories that only compose the C ones: full (the dtype inferred from
the fill value, then empty and fill_) and zeros_like, ones_like, empty_like,
full_like (tensor_empty_like / tensor_zeros_like, through _capi, then fill_).
zeros, ones, empty and arange stay in C (factories.c)."""
from ctensor import Tensor, _capi, bool as _bool, complex64, empty, float32, int64, zeros
from ctensor._files import _check_device
from ctensor._tensor_methods import _NOTE
from ctensor._values import BOOL, COMPLEX, FLOAT, INT, numpy_type, scalar_kind

_OPTIONS = ("dtype", "device", "requires_grad", "size", "pin_memory")
_MISSING = object()
_FULL_USAGE = "full() takes size and fill_value: full(size, fill_value, *, dtype=None)"
_KINDS = {bool: _bool, int: int64, float: float32, complex: complex64}
_BY_KIND = {BOOL: _bool, INT: int64, FLOAT: float32, COMPLEX: complex64}
_PRESERVE, _CONTIGUOUS = 0, 1  # TENSOR_PRESERVE_FORMAT, TENSOR_CONTIGUOUS_FORMAT


def _tp_name(obj):
    """The type's name as C messages print it (tp_name: dotted for C types)."""
    cls = type(obj)
    if cls.__flags__ & 512 or cls.__module__ == "builtins":  # Py_TPFLAGS_HEAPTYPE
        return cls.__name__
    return f"{cls.__module__}.{cls.__name__}"


def _options(kwargs, what):
    """The factories' keyword options (as the C ones read them): the dtype (None when
    not given) and size= (_MISSING when not given); device= and requires_grad= checked."""
    dtype = kwargs.get("dtype")
    if dtype is not None:
        dtype = empty(0, dtype=dtype).dtype  # the C factories' dtype conversion and message
    for key in kwargs:
        if key not in _OPTIONS:
            raise TypeError(f"'{key}' is an invalid keyword argument for this function")
    requires_grad = bool(kwargs.get("requires_grad", False))
    bool(kwargs.get("pin_memory", False))
    if requires_grad:
        raise NotImplementedError(f"{what}(): requires_grad=True is not supported: ctensor has no autograd")
    _check_device(kwargs.get("device"), what)
    return dtype, kwargs.get("size", _MISSING)


def _fill_dtype(value):
    """torch.full's dtype for a fill value: bool, int64, float32 or complex64 by its
    kind (NumPy scalars other than integers count as float); TypeError if no number."""
    dtype = _KINDS.get(type(value))
    if dtype is not None:
        return dtype
    kind = 0 if numpy_type(value, "ndarray") else scalar_kind(value)  # 0-dim arrays are refused
    if kind and numpy_type(value, "generic"):
        return int64 if kind == INT else float32
    if kind:
        return _BY_KIND[kind]
    raise TypeError(f"full(): argument 'fill_value' must be Number, not {_tp_name(value)}")


def _sizes(size):
    """full()'s size: a sequence of at most 64 integers (the C factories' checks, named full())."""
    if isinstance(size, dict) or not hasattr(type(size), "__getitem__"):  # PySequence_Check
        raise TypeError(f"full(): argument 'size' must be tuple of ints, not {_tp_name(size)}")
    if hasattr(type(size), "__index__"):  # as the C factories: one size (np.array(2), a 0-dim tensor)
        return [size]
    try:
        items = size if isinstance(size, (list, tuple)) else list(size)
    except Exception:
        raise TypeError(f"full(): size must be a tuple of ints, not {_tp_name(size)}") from None
    if len(items) > 64:
        raise RuntimeError(f"full(): {len(items)} dims given; at most 64 are supported")
    for i, item in enumerate(items):
        if not hasattr(type(item), "__index__"):
            raise TypeError(f"full(): size must be a tuple of ints, but element {i} is {_tp_name(item)}")
    return items


def full(*args, **kwargs):
    """full(size, fill_value, *, dtype=None): dtype inferred from fill_value."""
    if not kwargs and len(args) == 2:
        return _full(args[0], args[1], None)
    if len(args) > 2:
        raise TypeError(f"full() takes at most 2 arguments ({len(args)} given)")
    size, value = (args + (_MISSING, _MISSING))[:2]
    if value is _MISSING and "fill_value" in kwargs:
        kwargs = dict(kwargs)
        value = kwargs.pop("fill_value")
    dtype, size_kw = _options(kwargs, "full")
    if (size is _MISSING) == (size_kw is _MISSING) or value is _MISSING:
        raise TypeError(_FULL_USAGE)
    return _full(size if size_kw is _MISSING else size_kw, value, dtype)


def _full(size, value, dtype):
    """empty(size).fill_(value); a tuple or list size goes to empty() as it is (the
    same checks), re-checked under full()'s name only when something fails."""
    if type(size) not in (tuple, list):
        size = _sizes(size)
    try:
        return empty(size, dtype=_fill_dtype(value) if dtype is None else dtype).fill_(value)
    except Exception:
        _sizes(size)  # full()'s message for a bad size, which comes first
        raise


def _like(name, make, fill, doc):
    """torch.<name>(input, [fill_value,] *, dtype=None, memory_format=preserve_format):
    input's shape and (by default) dtype, laid out as input (torch's preserve_format)
    unless memory_format= asks for contiguous_format."""
    arity = 2 if fill is _MISSING else 1

    def like(*args, memory_format=None, **kwargs):
        if len(args) != arity:
            raise TypeError(f"function takes exactly {arity} argument{'s' if arity > 1 else ''} ({len(args)} given)")
        if not isinstance(args[0], Tensor):
            raise TypeError(f"argument 1 must be ctensor.Tensor, not {_tp_name(args[0])}")
        dtype = _options(kwargs, name)[0] if kwargs else None
        if memory_format is None or str(memory_format) == "ctensor.preserve_format":
            layout = _PRESERVE
        elif str(memory_format) == "ctensor.contiguous_format":
            layout = _CONTIGUOUS
        else:
            raise NotImplementedError(f"{name}(): memory_format {memory_format} is not supported "
                                      "(ctensor has no channels-last layouts)")
        input = args[0]
        dtype = input.dtype if dtype is None else dtype
        shape = input.shape
        if layout == _CONTIGUOUS or input.is_contiguous() and 0 not in shape and 1 not in shape:
            # the strides are C order's either way: the C factories are faster than a ctypes call
            out = (zeros if make is _capi.lib.tensor_zeros_like else empty)(shape, dtype=dtype)
        else:
            out = _capi.tensor(make, input._handle, _capi.CODES[dtype], layout)
        if fill is None:
            return out
        return out.fill_(args[1] if fill is _MISSING else fill)

    like.__name__ = like.__qualname__ = name
    like.__module__ = "ctensor"
    like.__doc__ = doc + _NOTE
    return like


FUNCTIONS = {
    "full": full,
    "zeros_like": _like("zeros_like", _capi.lib.tensor_zeros_like, None,
                        "zeros_like(input, dtype=None, memory_format=preserve_format): zeros shaped (and laid out) as input."),
    "ones_like": _like("ones_like", _capi.lib.tensor_empty_like, 1,
                       "ones_like(input, dtype=None, memory_format=preserve_format)."),
    "empty_like": _like("empty_like", _capi.lib.tensor_empty_like, None,
                        "empty_like(input, dtype=None, memory_format=preserve_format)."),
    "full_like": _like("full_like", _capi.lib.tensor_empty_like, _MISSING,
                       "full_like(input, fill_value, dtype=None, memory_format=preserve_format)."),
}
full.__module__ = "ctensor"
