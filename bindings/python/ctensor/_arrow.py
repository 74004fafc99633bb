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
# out: ArrowSchema (72 bytes) and ArrowArray (80) end with release and
# private_data; ArrowArrayStream starts with get_schema, get_next,
# get_last_error and release. The callbacks run with the GIL held.
_SCHEMA, _ARRAY = (72, 56), (80, 64)  # (size, offset of release)
_RELEASE = ctypes.PYFUNCTYPE(None, P)
_GET = ctypes.PYFUNCTYPE(ctypes.c_int, P, P)
_LAST_ERROR = ctypes.PYFUNCTYPE(ctypes.c_char_p, P)


def _pointer_at(address):
    return P.from_address(address).value


def _release(struct, layout):
    """Runs a struct's release callback unless it was moved out (release NULL)."""
    address = ctypes.addressof(struct)
    if _pointer_at(address + layout[1]):
        _RELEASE(_pointer_at(address + layout[1]))(address)


def _from_arrow_capsules(schema, array, variable_shape=False):
    """A tensor (or with variable_shape the list of an arrow.variable_shape_tensor's
    rows) from Arrow PyCapsules; the array is moved out of its capsule on success."""
    device = bool(_capsule_is(array, b"arrow_device_array"))
    return _import(_capsule_pointer(schema, b"arrow_schema"),
                   _capsule_pointer(array, b"arrow_device_array" if device else b"arrow_array"), device, variable_shape)


setattr(_C, "_from_arrow_capsules", _from_arrow_capsules)  # its name before it moved here


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
    stream = _capsule_pointer(capsule, b"arrow_array_stream")
    get_schema, get_next, last_error, release = (_pointer_at(stream + 8 * i) for i in range(4))
    if not release:
        raise ValueError("from_arrow: the stream was already consumed")
    schema, first, second = (ctypes.create_string_buffer(size) for size in (_SCHEMA[0], _ARRAY[0], _ARRAY[0]))
    try:
        rc = _GET(get_schema)(stream, ctypes.addressof(schema))
        if rc == 0:
            rc = _GET(get_next)(stream, ctypes.addressof(first))
        if rc == 0 and _pointer_at(ctypes.addressof(first) + _ARRAY[1]):
            rc = _GET(get_next)(stream, ctypes.addressof(second))
        if rc != 0:
            why = _LAST_ERROR(last_error)(stream) if last_error else None
            raise ValueError(f"from_arrow: the stream failed (errno {rc}): "
                             f"{why.decode(errors='replace') if why else 'no message'}")
        if not _pointer_at(ctypes.addressof(first) + _ARRAY[1]):
            raise ValueError("from_arrow: the stream has no chunks")
        if _pointer_at(ctypes.addressof(second) + _ARRAY[1]):
            raise ValueError("from_arrow: the stream has more than one chunk; combine the chunks first "
                             "(e.g. combine_chunks())")
        return _import(ctypes.addressof(schema), ctypes.addressof(first), False, variable_shape)
    finally:  # what the import did not move out
        _release(second, _ARRAY)
        _release(first, _ARRAY)
        _release(schema, _SCHEMA)


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
