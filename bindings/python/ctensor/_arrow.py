"""ctensor.from_arrow: tensors from any object of the Arrow PyCapsule interface.

The object's own capsules are consumed through libctensor's importer
(tensor_from_arrow): arrow.fixed_shape_tensor arrays give one tensor
[length, *shape] (the permutation applied as strides), FixedSizeList arrays
[length, list_size, ...], primitive arrays [length]; all without copying
(bool excepted: Arrow packs it in bits) and read-only. A tensor exports itself
through the same interface (__arrow_c_schema__, __arrow_c_array__,
__arrow_c_device_array__; the capsules are _C's).
"""
import ctypes

from ctensor import _C
from ctensor._capi import I64, P, check, lib, tensor

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype, _capsule_pointer.argtypes = P, [ctypes.py_object, ctypes.c_char_p]
_capsule_is = ctypes.pythonapi.PyCapsule_IsValid
_capsule_is.restype, _capsule_is.argtypes = ctypes.c_int, [ctypes.py_object, ctypes.c_char_p]

# The C Data and Stream Interface structs, as the Arrow specification lays them
# out; only the callbacks are read here (ArrowSchema and ArrowArray: release
# after 56 and 64 bytes of fields). The stream's callbacks keep the GIL held.
_RELEASE = ctypes.PYFUNCTYPE(None, P)


class _Schema(ctypes.Structure):
    _fields_ = [("fields", ctypes.c_char * 56), ("release", _RELEASE), ("private_data", P)]


class _Array(ctypes.Structure):
    _fields_ = [("fields", ctypes.c_char * 64), ("release", _RELEASE), ("private_data", P)]


class _Stream(ctypes.Structure):
    _fields_ = [("get_schema", ctypes.PYFUNCTYPE(ctypes.c_int, P, P)),
                ("get_next", ctypes.PYFUNCTYPE(ctypes.c_int, P, P)),
                ("get_last_error", ctypes.PYFUNCTYPE(ctypes.c_char_p, P)), ("release", _RELEASE),
                ("private_data", P)]


def _from_arrow_capsules(schema, array, variable_shape=False):
    """A tensor (or with variable_shape the list of an arrow.variable_shape_tensor's
    rows) from Arrow PyCapsules; the array is moved out of its capsule on success."""
    device = bool(_capsule_is(array, b"arrow_device_array"))
    return _import(_capsule_pointer(schema, b"arrow_schema"),
                   _capsule_pointer(array, b"arrow_device_array" if device else b"arrow_array"), device, variable_shape)


_C._from_arrow_capsules = _from_arrow_capsules  # its name before it moved here


def _import(schema, array, device, variable_shape):
    if not variable_shape:
        return tensor(lib.tensor_from_arrow_device if device else lib.tensor_from_arrow, schema, array)
    if device:
        raise TypeError("from_arrow_variable_shape: device arrays are not supported")
    rows, count = P(), I64()
    check(lib.tensor_from_arrow_variable_shape(ctypes.byref(rows), ctypes.byref(count), schema, array))
    try:
        handles = ctypes.cast(rows, ctypes.POINTER(P))
        return [_C._from_handle(lib.tensor_retain(handles[i])) for i in range(count.value)]
    finally:
        lib.tensor_arrow_list_release(rows, count)


def _from_arrow_stream(capsule, variable_shape=False):
    """As _from_arrow_capsules for an 'arrow_array_stream' capsule holding exactly one chunk."""
    address = _capsule_pointer(capsule, b"arrow_array_stream")
    stream = _Stream.from_address(address)
    if not stream.release:
        raise ValueError("from_arrow: the stream was already consumed")
    schema, first, second = _Schema(), _Array(), _Array()
    try:
        rc = stream.get_schema(address, ctypes.addressof(schema))
        if rc == 0:
            rc = stream.get_next(address, ctypes.addressof(first))
        if rc == 0 and first.release:
            rc = stream.get_next(address, ctypes.addressof(second))
        if rc != 0:
            why = stream.get_last_error(address) if stream.get_last_error else None
            raise ValueError(f"from_arrow: the stream failed (errno {rc}): "
                             f"{why.decode(errors='replace') if why else 'no message'}")
        if not first.release:
            raise ValueError("from_arrow: the stream has no chunks")
        if second.release:
            raise ValueError("from_arrow: the stream has more than one chunk; combine the chunks first "
                             "(e.g. combine_chunks())")
        return _import(ctypes.addressof(schema), ctypes.addressof(first), False, variable_shape)
    finally:  # what the import did not move out
        for struct in (second, first, schema):
            if struct.release:
                struct.release(ctypes.addressof(struct))


def _check_requested(requested_schema):
    """The producer ignores requested_schema (the Arrow PyCapsule interface lets a
    producer that cannot cast give its own type); only None or a schema capsule are accepted."""
    if requested_schema is not None and not _capsule_is(requested_schema, b"arrow_schema"):
        raise TypeError("requested_schema must be None or an 'arrow_schema' PyCapsule")


def __arrow_c_schema__(self):
    """The tensor's Arrow type as an 'arrow_schema' PyCapsule (Arrow PyCapsule interface)."""
    return _C._arrow_export(self, False)[0]


def __arrow_c_array__(self, requested_schema=None):
    """(schema, array) PyCapsules of the tensor as an Arrow array: arrow.fixed_shape_tensor for
    ndim >= 2, a primitive array for 1-d. requested_schema is accepted and ignored (the tensor's
    own type is given)."""
    _check_requested(requested_schema)
    return _C._arrow_export(self, False)


def __arrow_c_device_array__(self, requested_schema=None, **kwargs):
    """(schema, device array) PyCapsules, as __arrow_c_array__ with the tensor's device."""
    for key, value in kwargs.items():
        if value is not None:
            raise NotImplementedError(f"__arrow_c_device_array__: keyword {key!r} is not supported")
    _check_requested(requested_schema)
    return _C._arrow_export(self, True)


METHODS = {"__arrow_c_schema__": __arrow_c_schema__, "__arrow_c_array__": __arrow_c_array__,
           "__arrow_c_device_array__": __arrow_c_device_array__}


def _capsules(obj, what):
    if hasattr(obj, "__arrow_c_array__"):
        return _from_arrow_capsules, obj.__arrow_c_array__()
    if hasattr(obj, "__arrow_c_device_array__"):
        return _from_arrow_capsules, obj.__arrow_c_device_array__()
    if hasattr(obj, "__arrow_c_stream__"):
        return _from_arrow_stream, (obj.__arrow_c_stream__(),)
    raise TypeError(f"{what}: {type(obj).__name__} offers no Arrow PyCapsule interface "
                    "(__arrow_c_array__, __arrow_c_device_array__ or __arrow_c_stream__)")


def from_arrow(obj):
    """A tensor viewing an Arrow array (pyarrow Array or one-chunk ChunkedArray,
    polars Series, nanoarrow Array, or anything with __arrow_c_array__,
    __arrow_c_device_array__ or __arrow_c_stream__). A stream must hold exactly
    one chunk. The Arrow memory stays alive as long as the tensor or any view of it."""
    consume, args = _capsules(obj, "from_arrow")
    return consume(*args)


def from_arrow_variable_shape(obj):
    """The rows of an arrow.variable_shape_tensor array as a list of tensors, each
    viewing the Arrow memory without copying."""
    consume, args = _capsules(obj, "from_arrow_variable_shape")
    return consume(*args, True)
