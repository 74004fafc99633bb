"""What numpy.c had that only composes other calls: Tensor.__array__ (NumPy 2's
signature), Tensor.__array_wrap__ (torch 1.13's), as_tensor and
broadcast_tensors (tensor_broadcast_tensors through ctensor._capi). The
zero-copy ways in and out (from_numpy, Tensor.numpy, the buffer export and
__array_interface__) are the extension's."""
import ctypes
import sys

from ctensor import _C, _asarray, _capi

_broadcast = _capi.lib.tensor_broadcast_tensors


def __array__(self, dtype=None, copy=None):
    """__array__(dtype=None, copy=None): the array sharing this tensor's memory,
    converted to dtype when given; copy=True copies, copy=False refuses a
    conversion that needs one."""
    arr = self.numpy()
    copy = None if copy is None else bool(copy)
    if dtype is None and copy is not True:
        return arr
    if dtype is not None:
        import numpy

        want = numpy.dtype(dtype)
        if arr.dtype != want:
            if copy is False:
                raise ValueError(f"__array__(copy=False): converting {self.dtype!r} to {want!r} needs a copy")
            return arr.astype(want)
    return arr.copy() if copy else arr


def __array_wrap__(self, array, context=None, return_scalar=False):
    """NumPy ufunc results as tensors (torch's __array_wrap__): np.abs(t) gives a
    tensor back, bool results as uint8 (as torch); NumPy 2 asks for a scalar with
    return_scalar=True: then the array's scalar, as NumPy's own."""
    if return_scalar:
        return array[()]
    if array.dtype.kind == "b":
        array = array.astype("uint8")
    return _C.from_numpy(array)


def as_tensor(data, dtype=None, device=None):
    """as_tensor(data, dtype=None, device=None): shares tensors and NumPy arrays
    when dtype allows (asarray), else tensor(data)."""
    numpy = sys.modules.get("numpy")
    if isinstance(data, _C.Tensor) or (numpy is not None and isinstance(data, numpy.ndarray)):
        return _asarray.asarray(data, dtype=dtype, device=device)
    return _asarray.tensor(data, dtype=dtype, device=device)


def broadcast_tensors(*tensors):
    """broadcast_tensors(*tensors): views expanded to one shape (one sequence of
    tensors is taken too), with torch's message for sizes that do not broadcast.

    Note: experimental: built on ctensor's experimental C API (CTENSOR_EXPERIMENTAL), which a 0.x release may change."""
    if len(tensors) == 1 and not isinstance(tensors[0], _C.Tensor):
        tensors = tuple(tensors[0])
    for k, t in enumerate(tensors):
        if not isinstance(t, _C.Tensor):
            name = type(t).__qualname__ if type(t).__module__ == "builtins" else f"{type(t).__module__}.{type(t).__qualname__}"
            raise TypeError(f"broadcast_tensors(): expected Tensor as element {k}, but got {name}")
    n = len(tensors)
    views = (ctypes.c_void_p * max(n, 1))()
    _capi.check(_broadcast(views, n, (ctypes.c_void_p * max(n, 1))(*(t._handle for t in tensors))))
    return tuple(_C._from_handle(v) for v in views[:n])


for _function in (as_tensor, broadcast_tensors):
    _function.__module__ = "ctensor"
METHODS = {"__array__": __array__, "__array_wrap__": __array_wrap__}
for _method in METHODS.values():
    _method.__qualname__ = "Tensor." + _method.__name__
FUNCTIONS = {"as_tensor": as_tensor, "broadcast_tensors": broadcast_tensors}
