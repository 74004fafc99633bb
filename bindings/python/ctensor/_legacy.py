"""torch's legacy tensor types: FloatTensor(...) constructs as the legacy
constructor in its dtype, isinstance(t, FloatTensor) checks the dtype,
t.type(FloatTensor) converts. One class per name in ctensor._C._LEGACY_TYPES."""
from typing import Any

from ctensor import _C


class _LegacyTensorType(type):
    """torch's legacy tensor types (FloatTensor, LongTensor, ...)."""

    dtype: Any  # a ctensor.dtype

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, _C.Tensor) and obj.dtype is cls.dtype

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:  # a ctensor.Tensor
        return _C._legacy_new(cls.dtype, cls.__name__, *args, **kwargs)

    def __repr__(cls) -> str:
        return f"<class 'ctensor.{cls.__name__}'>"


TYPES = {name: _LegacyTensorType(name, (), {"dtype": dtype, "__module__": "ctensor"})
         for name, dtype in _C._LEGACY_TYPES.items()}
