"""DLPack through Python capsules, as the array API standard describes:
__dlpack__ gives a "dltensor" capsule (pre-1.0 consumers such as PyTorch 1.13
and NumPy 1.24) or, when the consumer passes max_version >= (1, 0), a
"dltensor_versioned" one. The capsules and their consumption (a consumer renames
a capsule to "used_..." when it takes the managed tensor over; the destructor
calls the deleter only if nobody did) are _C's; the rest composes C calls."""
import ctypes
import datetime
import enum

from ctensor import _C
from ctensor._capi import P, check, device, lib

_E_DEVICE = 10  # TENSOR_E_DEVICE
_CAPSULE = type(getattr(datetime, "datetime_CAPI"))  # the PyCapsule type


class DLDeviceType(enum.IntEnum):
    """torch.utils.dlpack.DLDeviceType of PyTorch 1.13."""
    kDLCPU = 1
    kDLGPU = 2
    kDLCPUPinned = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLExtDev = 12


def _legacy_refusal(t):
    """What pre-1.0 consumers cannot take: read-only memory (the format has no flag
    for it, so they would write into it) and negative strides (PyTorch 1.13 aborts
    the process on them). DLPack 1.x consumers get both as they are."""
    if lib.tensor_is_readonly(t._handle):
        raise BufferError("__dlpack__(): the tensor is read-only and DLPack before 1.0 cannot mark it so; "
                          "pass max_version=(1, 0) or copy=True")
    for dim, (size, stride) in enumerate(zip(t.shape, t.stride())):
        if stride < 0 and size > 1:
            raise BufferError(f"__dlpack__(): stride {stride} of dim {dim} is negative, which consumers of DLPack "
                              "before 1.0 (such as PyTorch 1.13) cannot take; pass max_version=(1, 0) or copy=True")


def __dlpack__(self, stream=None, *, max_version=None, dl_device=None, copy=None):
    """A DLPack capsule of this tensor (no copy unless copy=True); DLPack 1.x when max_version >= (1, 0)."""
    # stream only orders device work; ctensor never queues any. As torch, it must be an int or None.
    if stream is not None and type(stream) is not int:
        raise TypeError(f"__dlpack__(): stream must be an integer or None, not {type(stream).__name__}")
    versioned = False
    if max_version is not None:
        if not (isinstance(max_version, tuple) and len(max_version) == 2 and isinstance(max_version[0], int)):
            raise TypeError("__dlpack__(): max_version must be a (major, minor) tuple of ints")
        versioned = max_version[0] >= 1
    if dl_device is not None:  # None or the tensor's own device: ctensor never moves memory
        if not (isinstance(dl_device, tuple) and len(dl_device) == 2 and all(isinstance(v, int) for v in dl_device)):
            raise TypeError("__dlpack__(): dl_device must be a (device_type, device_id) tuple")
        if tuple(dl_device) != device(self):
            raise BufferError("__dlpack__(): cannot export memory of device (%d, %d) to device (%d, %d)"
                              % (device(self) + tuple(dl_device)))
    copy = copy is not None and bool(copy)
    if not versioned and not copy:
        _legacy_refusal(self)
    source = self
    if copy:
        out = P()
        status = lib.tensor_clone(ctypes.byref(out), self._handle)
        if status == _E_DEVICE:
            raise BufferError(lib.tensor_last_error().decode())
        check(status)
        source = _C._from_handle(out.value)
    managed = P()  # holds its own reference to source
    if versioned:
        check(lib.tensor_to_dlpack(ctypes.byref(managed), source._handle, 0))
    else:
        check(lib.tensor_to_dlpack_legacy(ctypes.byref(managed), source._handle))
    return _C._dlpack_capsule(managed.value, versioned, copy)


def __dlpack_device__(self):
    """(DLDeviceType.kDLCPU, 0) as torch's; a plain int for device types its enum lacks."""
    device_type, device_id = device(self)
    return (DLDeviceType(device_type) if device_type in DLDeviceType._value2member_map_ else device_type), device_id


def from_dlpack(obj, /):
    """A tensor sharing a DLPack producer's memory: an object with __dlpack__
    (asked for DLPack 1.x first) or a capsule."""
    method = getattr(obj, "__dlpack__", None)
    if method is None:  # a capsule, or C refuses it as torch's capsule reader does
        return _C._from_dlpack_capsule(obj)
    try:
        capsule = method(max_version=(1, 0))
    except TypeError:  # producers that predate max_version reject the keyword
        capsule = method()
    if type(capsule) is not _CAPSULE:
        raise TypeError(f"from_dlpack(): {type(obj).__name__}.__dlpack__() returned "
                        f"{type(capsule).__name__}, not a DLPack capsule")
    return _C._from_dlpack_capsule(capsule)


def to_dlpack(tensor, /):
    """A legacy "dltensor" capsule, as torch.utils.dlpack's."""
    if not isinstance(tensor, _C.Tensor):
        raise TypeError(f"to_dlpack(): argument 'tensor' must be Tensor, not {type(tensor).__name__}")
    return tensor.__dlpack__()


METHODS = {"__dlpack__": __dlpack__, "__dlpack_device__": __dlpack_device__}
