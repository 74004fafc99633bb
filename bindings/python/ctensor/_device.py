"""ctensor.device and the memory_format constants, twins of torch.device and
torch.contiguous_format & co. The extension makes Tensor.device of this class
(registered by __init__.py through ctensor._C._set_device_type, which keeps one
cpu device to hand out) and reads memory_format= arguments by their str."""
import operator
import re
from typing import final

# PyTorch 1.13's device types, in the order its error message lists them.
_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "ort",
          "xla", "lazy", "vulkan", "mps", "meta", "hpu", "privateuseone")
_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::(0|[1-9][0-9]*))?")
# torch's names for the DLPack device types (DLDeviceType) of memory ctensor does not read.
_DLPACK_NAMES = {2: "cuda", 7: "vulkan", 8: "mps", 10: "hip", 14: "xpu"}


@final  # (not an acceptable base type, as torch.device)
class device:
    """device(type, index=None): where a tensor's memory lives, as torch.device:
    device('cpu'), device('cuda:1'), device('cuda', 1), device(1) (CUDA 1)."""

    __slots__ = ("_type", "_index")

    def __new__(cls, type, index=None):
        if index is None:
            if isinstance(type, device):
                return type
            if not isinstance(type, (str, bool)) and hasattr(type, "__index__"):  # device(1): CUDA 1
                type, index = "cuda", type
        if not isinstance(type, str):
            raise TypeError(f"device(): argument 'type' must be str, not {_type_name(type)}")
        if not type:
            raise RuntimeError("Device string must not be empty")
        match = _DEVICE_STRING.fullmatch(type)
        if not match:
            raise RuntimeError(f"Invalid device string: '{type}'")
        name, digits = match.groups()
        if name not in _TYPES:
            raise RuntimeError(f"Expected one of {', '.join(_TYPES)} device type at start of device string: {name}")
        if digits is not None:
            if index is not None:
                raise RuntimeError(f"type (string) must not include an index because index was passed explicitly: {type}")
            index = int(digits)
        elif index is not None:
            if isinstance(index, bool) or not hasattr(index, "__index__"):
                raise TypeError(f"device(): argument 'index' (position 2) must be int, not {_type_name(index)}")
            index = operator.index(index)
            if index < 0:
                raise RuntimeError("Device index must not be negative")
        return cls._make(name, index)

    @classmethod
    def _make(cls, type, index):
        self = object.__new__(cls)
        self._type = type
        self._index = index
        return self

    @classmethod
    def _from_dlpack(cls, device_type, device_id):
        """Tensor.device of memory on another DLPack device (the extension calls this)."""
        return cls._make(_DLPACK_NAMES.get(device_type, f"dlpack{device_type}"), device_id)

    def __init_subclass__(cls, **kwargs):
        raise TypeError("type 'ctensor.device' is not an acceptable base type")

    @property
    def type(self):
        """'cpu', 'cuda', ..."""
        return self._type

    @property
    def index(self):
        """The device index, or None."""
        return self._index

    def __repr__(self):
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self):
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __eq__(self, other):
        if not isinstance(other, device):
            return NotImplemented
        return self._type == other._type and self._index == other._index

    def __hash__(self):
        return hash((self._type, self._index))

    def __reduce__(self):
        return device, (self._type,) if self._index is None else (self._type, self._index)


def _type_name(obj):
    return type(obj).__name__


class memory_format:
    """A memory_format= constant: ctensor.contiguous_format, preserve_format,
    channels_last, channels_last_3d (ctensor has no channels-last layouts: the
    methods taking memory_format= raise NotImplementedError for those two)."""

    __slots__ = ("_name",)

    def __init__(self, name):
        self._name = name

    def __repr__(self):  # also its str, which the extension compares
        return f"ctensor.{self._name}"

    def __reduce__(self):  # the module constant itself
        return self._name


contiguous_format = memory_format("contiguous_format")
preserve_format = memory_format("preserve_format")
channels_last = memory_format("channels_last")
channels_last_3d = memory_format("channels_last_3d")

device.__module__ = memory_format.__module__ = "ctensor"
