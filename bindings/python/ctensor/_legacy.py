"""torch's legacy constructor and tensor types: Tensor(...) as torch.Tensor(...),
FloatTensor(...) constructs as the legacy constructor in its dtype,
isinstance(t, FloatTensor) checks the dtype, t.type(FloatTensor) converts. One
class per name in ctensor._C._LEGACY_TYPES."""
from typing import Any

from ctensor import _C
from ctensor._asarray import _is_index, _is_sequence, tensor
from ctensor._size import Size
from ctensor._values import type_name as _type_name


def _new(dtype: Any, typed: bool, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The legacy constructor: () is empty, (2, 3) and (Size) are uninitialised
    tensors of that shape, (sequence) copies the data, (tensor) aliases it, as
    torch does; `typed` (FloatTensor & co.) refuses a tensor of another dtype."""
    if kwargs:
        raise TypeError(f"{name}(): takes no keyword arguments; use ctensor.tensor(data, dtype=...)")
    first = args[0] if args else None
    if len(args) == 1 and isinstance(first, _C.Tensor):  # an alias sharing the storage, as torch
        if typed and first.dtype is not dtype:
            raise TypeError(f"expected {dtype!r} (got {first.dtype!r})")
        return first.detach()
    if args and not isinstance(first, Size) and not (_is_index(first) and not _is_sequence(first)):
        if len(args) == 1 and _is_sequence(first):  # data (arrays have __index__ too)
            return tensor(first, dtype=dtype)
        raise TypeError(f"new(): data must be a sequence (got {_type_name(first)})")
    try:
        return _C.empty(*(args or (0,)), dtype=dtype)
    except (TypeError, RuntimeError) as e:  # the size's errors, named as the constructor
        raise type(e)(str(e).replace("empty(): ", f"{name}(): ", 1)) from None


def _tensor_new(*args: Any, **kwargs: Any) -> Any:
    """torch.Tensor(...): the legacy constructor in float32, aliasing a tensor of any dtype."""
    return _new(_C.float32, False, "Tensor", args, kwargs)


class _LegacyTensorType(type):
    """torch's legacy tensor types (FloatTensor, LongTensor, ...)."""

    dtype: Any  # a ctensor.dtype

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, _C.Tensor) and obj.dtype is cls.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:  # a ctensor.Tensor
        return _new(cls.dtype, True, cls.__name__, args, kwargs)

    def __repr__(cls) -> str:
        return f"<class 'ctensor.{cls.__name__}'>"


TYPES = {name: _LegacyTensorType(name, (), {"dtype": dtype, "__module__": "ctensor"})
         for name, dtype in _C._LEGACY_TYPES.items()}
_C._set_legacy_new(_tensor_new)
