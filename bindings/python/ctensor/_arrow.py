"""ctensor.from_arrow: tensors from any object of the Arrow PyCapsule interface.

The object's own capsules are consumed through libctensor's importer
(tensor_from_arrow): arrow.fixed_shape_tensor arrays give one tensor
[length, *shape] (the permutation applied as strides), FixedSizeList arrays
[length, list_size, ...], primitive arrays [length]; all without copying
(bool excepted: Arrow packs it in bits) and read-only.
"""
from ctensor import _C


def _capsules(obj, what):
    if hasattr(obj, "__arrow_c_array__"):
        return _C._from_arrow_capsules, obj.__arrow_c_array__()
    if hasattr(obj, "__arrow_c_device_array__"):
        return _C._from_arrow_capsules, obj.__arrow_c_device_array__()
    if hasattr(obj, "__arrow_c_stream__"):
        return _C._from_arrow_stream, (obj.__arrow_c_stream__(),)
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
