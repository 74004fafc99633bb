"""Storages and pickling, as in PyTorch 1.13.

Tensor.untyped_storage() gives a ctensor.UntypedStorage (bytes), Tensor.storage()
a ctensor.TypedStorage (the same bytes read as the tensor's dtype). Each holds one
reference to a tensor_storage_t; both compare equal when they are the same
storage, so views of one storage are recognisable.

Pickling, as torch pickles: a tensor is its storage plus dtype, sizes, strides
and offset, and the storage is one object for all views of it (so pickling
several views saves the bytes once, and loading gives views of one storage).
Protocol 5 hands the storage's bytes over as a PickleBuffer: with a
buffer_callback they go out of band and loads() wraps the buffers it is given
without copying (multiprocessing, Dask, Ray); other protocols copy the bytes.
A loaded storage is writable: read-only bytes are copied into a new one.
"""
import ctypes
import operator
import pickle
import weakref

from ctensor import _C
from ctensor._capi import CODES, DTYPES, I64, P, check, check_cpu, lib, tensor

_UINT8 = CODES[_C.uint8]


class _Storage:
    __slots__ = ("_handle", "_dtype", "__weakref__")

    def __new__(cls, *args, **kwargs):
        raise TypeError(f"cannot create 'ctensor.{cls.__name__}' instances")

    @classmethod
    def _wrap(cls, handle, dtype=_UINT8):
        """The storage object taking over one reference to a tensor_storage_t."""
        self = object.__new__(cls)
        self._handle, self._dtype = handle, dtype
        return self

    def __del__(self, _release=lib.tensor_storage_release):
        _release(self._handle)

    def _tensor(self, what):
        """A 1-D tensor over the whole storage, in its dtype (memory the CPU reads)."""
        n = I64(len(self))
        t = tensor(lib.tensor_from_storage, self._handle, self._dtype, 1, ctypes.byref(n), None, 0)
        check_cpu(t, what)
        return t

    def __len__(self):
        return lib.tensor_storage_nbytes(self._handle) // lib.tensor_dtype_size(self._dtype)

    def __getitem__(self, index):
        i = operator.index(index)
        i += len(self) if i < 0 else 0
        if not 0 <= i < len(self):
            raise IndexError(f"index {i} out of range for storage of size {len(self)}")
        return self._tensor("storage")[i].item()

    def data_ptr(self):
        """Address of the first byte."""
        return lib.tensor_storage_data(self._handle) or 0

    def nbytes(self):
        """Size in bytes."""
        return lib.tensor_storage_nbytes(self._handle)

    def size(self):
        """Size in elements (bytes for an untyped storage)."""
        return len(self)

    def element_size(self):
        """Bytes per element (1 for an untyped storage)."""
        return lib.tensor_dtype_size(self._dtype)

    def tolist(self):
        """The elements as Python numbers."""
        return self._tensor("storage").tolist()

    def is_readonly(self):
        """True if every view of it is read-only."""
        return bool(lib.tensor_storage_is_readonly(self._handle))

    def untyped(self):
        """The same storage as a ctensor.UntypedStorage."""
        return UntypedStorage._wrap(lib.tensor_storage_retain(self._handle))

    def __repr__(self):
        """torch's Storage.__str__: one element per line, then a line naming the class as torch.typename does."""
        if type(self) is TypedStorage:
            name = lib.tensor_dtype_name(self._dtype).decode()
            info = f"[ctensor.storage.TypedStorage(dtype=ctensor.{name}, device=cpu) of size {len(self)}]"
        else:
            info = f"[ctensor.storage.UntypedStorage(device=cpu) of size {len(self)}]"
        return " " + "\n ".join(map(str, self.tolist())) + "\n" + info

    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self._handle == other._handle and self._dtype == other._dtype

    def __hash__(self):  # equal storages hash alike: by the handle's address
        return self._handle >> 4


class UntypedStorage(_Storage):
    """The refcounted bytes that tensors view."""
    __slots__ = ()

    def __reduce_ex__(self, protocol):
        """Pickles the bytes (protocol 5: a PickleBuffer, zero-copy)."""
        t = self._tensor("pickle")
        return _rebuild_storage, (pickle.PickleBuffer(t) if protocol >= 5 else bytes(memoryview(t)),)


class TypedStorage(_Storage):
    """A storage read as elements of one dtype (Tensor.storage())."""
    __slots__ = ()

    @property
    def dtype(self):
        """Element type."""
        return DTYPES[self._dtype]


_Storage.__module__ = UntypedStorage.__module__ = TypedStorage.__module__ = "ctensor"

# The live UntypedStorage of each storage being pickled (address -> object):
# pickle's memo keeps the object alive during a dump, so every view of a storage
# reduces to it.
_pickled: "weakref.WeakValueDictionary[int, UntypedStorage]" = weakref.WeakValueDictionary()


def __reduce_ex__(self, protocol):
    """Pickles the storage once, then the view (protocol 5: out of band)."""
    check_cpu(self, "pickle")
    address = lib.tensor_storage(self._handle)
    storage = _pickled.get(address)
    if storage is None:
        storage = _pickled[address] = UntypedStorage._wrap(lib.tensor_storage_retain(address))
    return _rebuild_tensor, (storage, self.dtype, tuple(self.shape), self.stride(), self.storage_offset())


def __reduce__(self):
    return __reduce_ex__(self, None)


METHODS = {"__reduce_ex__": __reduce_ex__, "__reduce__": __reduce__}


def _from_bytes(data):
    """A storage over the bytes of a buffer-protocol object: its own memory when it
    is writable and contiguous (held until the storage goes), else a writable copy."""
    with memoryview(data) as view:
        if view.nbytes == 0:
            out = P()
            check(lib.tensor_storage_new(ctypes.byref(out), 0))
            return UntypedStorage._wrap(out.value)
        if view.readonly or not view.c_contiguous:
            data = bytearray(view)
    return _C.frombuffer(data, dtype=_C.uint8).untyped_storage()


def _rebuild_storage(data):
    """Unpickles a storage (see UntypedStorage.__reduce_ex__)."""
    return _from_bytes(data)


def _rebuild_tensor(data, dtype, sizes, strides, offset):
    """Unpickles a tensor (see Tensor.__reduce_ex__): data is its storage or the storage's bytes."""
    sizes, strides = [operator.index(v) for v in sizes], [operator.index(v) for v in strides]
    if len(sizes) != len(strides) or dtype not in CODES:
        raise ValueError("_rebuild_tensor(): malformed tensor description")
    storage = data if isinstance(data, _Storage) else _from_bytes(data)
    n = len(sizes)
    return tensor(lib.tensor_from_storage, storage._handle, CODES[dtype], n, (I64 * n)(*sizes), (I64 * n)(*strides),
                  operator.index(offset))


_rebuild_storage.__module__ = _rebuild_tensor.__module__ = "ctensor"  # where pickle finds them
