""".npy and safetensors files over the library's C API (through _capi), spelled as
NumPy and the safetensors package spell them: load/save, load_file/save_file,
safe_open. load and load_file take progress=: True shows a bar (tqdm when it is
installed, else a line on stderr), a callable gets (done, total) bytes while a
read into memory goes on, and an exception it raises cancels the load."""
import ctypes
import importlib
import operator
import os
import sys
import weakref
from multiprocessing import reduction

from ctensor import _C, _capi

_lib = _capi.lib
_LOAD_COPY, _LOAD_WRITABLE = 1, 2
_TENSOR_E_IO, _TENSOR_E_CANCELLED = 12, 16
_PROGRESS_FN = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64)


class _LoadOptions(ctypes.Structure):
    """tensor_load_options_t (include/ctensor.h)."""
    _fields_ = [("struct_size", ctypes.c_size_t), ("progress", _PROGRESS_FN), ("progress_user", ctypes.c_void_p),
                ("progress_min_bytes", ctypes.c_uint64), ("num_threads", ctypes.c_int32)]


_P, _S, _I32, _I64 = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int32, ctypes.c_int64
# The loads take tensor_load_options_t, a struct of this module (the rest of the
# C functions called here are prototyped in ctensor/_capi.py).
for _name in ("tensor_load_npy_with", "tensor_safetensors_open_with"):
    _fn = getattr(_lib, _name)
    _fn.restype, _fn.argtypes = _I32, [ctypes.POINTER(_P), _S, ctypes.c_uint32, ctypes.POINTER(_LoadOptions)]


def _check_path(status, path):
    """Raises for a failed call on `path`: FileNotFoundError for a missing file
    (as open() does), else what the extension raises for the status."""
    if status == _TENSOR_E_IO and not os.path.exists(path):
        raise FileNotFoundError(_lib.tensor_last_error().decode(errors="replace"))
    _capi.check(status)


def _check_device(device, what):
    if device is not None and str(device) != "cpu":
        raise RuntimeError(f"{what}(): ctensor only creates CPU tensors (device {device!r} requested)")


class _Bar:
    """progress=True: a tqdm bar in bytes if tqdm can be imported, else a line on
    stderr rewritten at each whole percent."""

    def __init__(self, path):
        self.desc = os.path.basename(os.fsdecode(path))
        self.bar = None
        self.percent = -1
        try:  # imported by name: tqdm is optional and has no type stubs
            self.tqdm = importlib.import_module("tqdm").tqdm
        except ImportError:
            self.tqdm = None

    def __call__(self, done, total):
        if self.tqdm is not None:
            if self.bar is None:
                self.bar = self.tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, desc=self.desc)
            self.bar.update(done - self.bar.n)
            return
        percent = 100 * done // total
        if percent != self.percent:
            self.percent = percent
            sys.stderr.write(f"\r{self.desc}: {done / 2**20:.0f} of {total / 2**20:.0f} MiB ({percent}%)")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    def close(self):
        if self.bar is not None:
            self.bar.close()
        elif 0 <= self.percent < 100:  # cancelled: end the line
            sys.stderr.write("\n")


class _Progress:
    """The options of one load: `progress` (None, a bool or a callable) as the C
    callback, which keeps the exception the callable raised (it cancels the load)."""

    def __init__(self, what, path, progress, min_bytes):
        if progress is not None and not isinstance(progress, bool) and not callable(progress):
            raise TypeError(f"{what}(): progress must be a bool, a callable or None, not {type(progress).__name__}")
        self.fn = _Bar(path) if progress is True else progress or None
        self.error = None
        self.options = _LoadOptions(ctypes.sizeof(_LoadOptions), _PROGRESS_FN(self._call) if self.fn else _PROGRESS_FN(),
                                    None, min_bytes, 0)

    def _call(self, user, done, total):
        try:
            self.fn(done, total)
            return 0
        except BaseException as e:  # Ctrl-C too: cancel, raise it once the load returns
            self.error = e
            return 1

    def check(self, status, path):
        if isinstance(self.fn, _Bar):
            self.fn.close()
        if status == _TENSOR_E_CANCELLED and self.error is not None:
            error, self.error = self.error, None
            raise error
        _check_path(status, path)


def load(file, mmap_mode=None, *, progress=None, progress_min_bytes=0):
    """A .npy file as a tensor, as np.load: read into memory (mmap_mode None),
    mapped read-only ('r') or copy-on-write ('c'). While a read into memory of
    at least progress_min_bytes goes on, progress=True shows a bar (tqdm if
    installed, else a line on stderr) and a callable gets (done, total) bytes;
    an exception it raises (Ctrl-C too) cancels the load and propagates. Mapped
    loads read nothing up front and never report."""
    path = os.fsencode(file)
    flags = {None: _LOAD_COPY, "r": 0, "c": _LOAD_WRITABLE}.get(mmap_mode)
    if flags is None:
        raise ValueError(f"load(): mmap_mode must be None, 'r' or 'c', not {mmap_mode!r}")
    p = _Progress("load", path, progress, progress_min_bytes)
    out = _P()
    p.check(_lib.tensor_load_npy_with(ctypes.byref(out), path, flags, ctypes.byref(p.options)), path)
    return _C._from_handle(out.value)


def save(tensor, file):
    """Writes a .npy file NumPy reads (C order, atomically; no suffix added)."""
    if not isinstance(tensor, _C.Tensor):
        raise TypeError(f"save(): tensor must be a ctensor.Tensor, not {type(tensor).__name__}")
    path = os.fsencode(file)
    _check_path(_lib.tensor_save_npy(tensor._handle, path), path)


class safe_open:
    """A safetensors file, as the safetensors package's safe_open: a context
    manager with keys(), offset_keys(), get_tensor(name) and metadata(), all
    from the header read at open. The data is mapped copy-on-write, as
    safetensors.torch does (zero-copy, writable, writes never reach the file);
    framework "pt" gives tensors, "numpy" NumPy arrays."""

    def __new__(cls, filename, framework, device="cpu"):
        return cls._open(filename, framework, device, "safe_open", None, 0)

    @classmethod
    def _open(cls, filename, framework, device, what, progress, progress_min_bytes):
        if framework not in ("pt", "torch", "pytorch", "ctensor", "np", "numpy"):
            raise ValueError(f"framework {framework!r} is not supported: use \"pt\" (ctensor tensors) or \"numpy\"")
        _check_device(device, what)
        path = os.fsencode(filename)
        p = _Progress(what, path, progress, progress_min_bytes)
        out = _P()
        flags = _LOAD_WRITABLE if p.fn is None else _LOAD_COPY  # reading reports; mapping reads nothing
        p.check(_lib.tensor_safetensors_open_with(ctypes.byref(out), path, flags, ctypes.byref(p.options)), path)
        self = object.__new__(cls)
        self._handle, self._numpy, self._metadata = out.value, framework in ("np", "numpy"), None
        self._release = weakref.finalize(self, _lib.tensor_safetensors_release, out.value)  # once, at most
        return self

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._handle = None
        self._release()  # tensors got from it stay valid

    def _open_handle(self):
        if not self._handle:
            raise ValueError("safe_open: the file is closed")
        return self._handle

    def offset_keys(self):
        """The tensors' names in the order of the file."""
        handle = self._open_handle()
        return [_lib.tensor_safetensors_name(handle, i).decode() for i in range(_lib.tensor_safetensors_count(handle))]

    def keys(self):
        """The tensors' names, sorted."""
        return sorted(self.offset_keys())

    def get_tensor(self, name, /):
        """A zero-copy, copy-on-write view of one tensor (a NumPy array for framework="numpy")."""
        handle = self._open_handle()
        if not isinstance(name, str):
            raise TypeError("get_tensor(): name must be a str")
        t = _capi.tensor(_lib.tensor_safetensors_get, handle, name.encode())
        return t.numpy() if self._numpy else t

    def metadata(self):
        """The "__metadata__" dict, or None."""
        handle = self._open_handle()
        if self._metadata is None:  # from the header the handle read at open, never the file again
            keys = [_lib.tensor_safetensors_metadata_key(handle, i)
                    for i in range(_lib.tensor_safetensors_metadata_count(handle))]
            self._metadata = {k.decode(): _lib.tensor_safetensors_metadata(handle, k).decode() for k in keys} or False
        return dict(self._metadata) if self._metadata else None


def load_file(filename, device="cpu", *, progress=None, progress_min_bytes=0):
    """Every tensor of a safetensors file, by name: mapped copy-on-write, as
    safetensors.torch.load_file; with progress (as load's) the data is read
    into memory instead, reporting as it goes."""
    with safe_open._open(filename, "pt", device, "load_file", progress, progress_min_bytes) as f:
        return {name: f.get_tensor(name) for name in f.keys()}


def save_file(tensors, filename, metadata=None):
    """A dict of tensors (any strides, stored in C order) as a safetensors file,
    written atomically, as safetensors.torch.save_file."""
    if not isinstance(tensors, dict):
        raise TypeError(f"save_file(): tensors must be a dict, not {type(tensors).__name__}")
    path = os.fsencode(filename)
    if metadata is not None and not isinstance(metadata, dict):
        raise TypeError("save_file(): metadata must be a dict of str to str or None")

    def utf8(s, what):
        if not isinstance(s, str):
            raise TypeError(f"save_file(): {what} must be str, not {type(s).__name__}")
        return s.encode()

    names, handles = [], []
    for name, t in tensors.items():
        names.append(utf8(name, "tensor names"))
        if not isinstance(t, _C.Tensor):
            raise TypeError(f"save_file(): '{name}' is a {type(t).__name__}, not a ctensor.Tensor")
        handles.append(t._handle)
    pairs = [(utf8(k, "metadata keys"), utf8(v, "metadata values")) for k, v in (metadata or {}).items()]
    status = _lib.tensor_safetensors_save(
        path, len(names), (_S * len(names))(*names), (_P * len(handles))(*handles), len(pairs),
        (_S * len(pairs))(*(k for k, _ in pairs)), (_S * len(pairs))(*(v for _, v in pairs)))
    _check_path(status, path)


# ---- torch.from_file, share_memory_/is_shared and multiprocessing ----------------

_TENSOR_E_INVALID, _TENSOR_E_BOUNDS = 1, 3
_MAP_READ, _MAP_WRITE, _MAP_PRIVATE = 1, 2, 4


def _from_storage(storage, dtype, sizes, strides, offset):
    """A tensor over a storage handle, dropping the caller's reference to it."""
    try:
        n = len(sizes)
        strides = None if strides is None else (_I64 * n)(*strides)
        return _capi.tensor(_capi.lib.tensor_from_storage, storage, dtype, n, (_I64 * n)(*sizes), strides, offset)
    finally:
        _lib.tensor_storage_release(storage)


def from_file(filename, shared=None, size=0, *, dtype=None, device=None, requires_grad=False):
    """torch.from_file: `size` elements of the file mapped. shared=True maps it
    shared (writes reach the file; a missing or shorter file is created or
    extended, as torch does); otherwise copy-on-write, and a file shorter than
    size elements is a RuntimeError."""
    path, shared, size = os.fsencode(filename), bool(shared), operator.index(size)
    dtype = _C.empty(0, dtype=_C.float32 if dtype is None else dtype).dtype  # a dtype's TypeError as the C functions'
    if requires_grad:
        raise NotImplementedError("from_file(): requires_grad=True is not supported: ctensor has no autograd")
    _check_device(device, "from_file")
    if size < 0:
        raise RuntimeError(f"from_file(): size must be non-negative, got {size}")
    code = _capi.CODES[dtype]
    nbytes = size * _lib.tensor_dtype_size(code)
    if nbytes >= 2**64:
        raise OverflowError("from_file(): size * itemsize overflows")
    if nbytes == 0:
        return _capi.tensor(_lib.tensor_empty, 1, ctypes.byref(_I64(size)), code)
    out = _P()
    if shared:  # torch creates or extends the file, and the storage keeps its descriptor (is_shared())
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
        except OSError as e:
            raise RuntimeError(f"from_file(): unable to open or extend file <{os.fsdecode(path)}>: {e.strerror}") from None
        try:
            if os.fstat(fd).st_size < nbytes:
                os.ftruncate(fd, nbytes)
            status = _lib.tensor_storage_from_fd(ctypes.byref(out), fd, nbytes, _MAP_WRITE)
        except OSError as e:
            raise RuntimeError(f"from_file(): unable to open or extend file <{os.fsdecode(path)}>: {e.strerror}") from None
        finally:
            os.close(fd)
    else:
        status = _lib.tensor_storage_map_file(ctypes.byref(out), path, 0, nbytes, _MAP_PRIVATE)
    if status in (_TENSOR_E_IO, _TENSOR_E_BOUNDS):
        raise RuntimeError(_lib.tensor_last_error().decode(errors="replace"))  # as torch's
    _capi.check(status)
    return _from_storage(out.value, code, (size,), None, 0)


def is_shared(self):
    """True if the storage is in shared memory (fd-backed)."""
    return _lib.tensor_storage_fd(_lib.tensor_storage(self._handle)) >= 0


def share_memory_(self):
    """Moves the tensor's storage into shared memory in place (no-op if there), as
    torch's: every tensor viewing that storage sees the shared memory; returns self.
    An exported storage (buffer, NumPy array, DLPack) is refused with BufferError,
    as resizing an exported bytearray is."""
    status = _lib.tensor_storage_move_to_shared(_lib.tensor_storage(self._handle))
    if status == _TENSOR_E_INVALID:
        raise BufferError(_lib.tensor_last_error().decode(errors="replace"))
    _capi.check(status)
    return self


def _reduce_shared(tensor):
    """ForkingPickler's reducer: the storage's descriptor travels (duplicated by
    multiprocessing.reduction.DupFd, through a Unix socket where needed) with the
    tensor's layout, after moving the tensor to shared memory."""
    if not isinstance(tensor, _C.Tensor):
        raise TypeError("_reduce_shared(): expected a ctensor.Tensor")
    share_memory_(tensor)
    storage = _lib.tensor_storage(tensor._handle)
    return _rebuild_shared, (reduction.DupFd(_lib.tensor_storage_fd(storage)), _lib.tensor_storage_nbytes(storage),
                             bool(_lib.tensor_storage_is_readonly(storage)), tensor.dtype, tuple(tensor.shape),
                             tensor.stride(), tensor.storage_offset())


def _rebuild_shared(dupfd, nbytes, readonly, dtype, sizes, strides, offset):
    """Rebuilds a tensor sent by _reduce_shared."""
    sizes, strides = [operator.index(v) for v in sizes], [operator.index(v) for v in strides]
    if len(sizes) != len(strides) or dtype not in _capi.CODES:
        raise ValueError("_rebuild_shared(): sizes and strides differ in length")
    fd = dupfd.detach()
    out = _P()
    try:
        _capi.check(_lib.tensor_storage_from_fd(ctypes.byref(out), fd, nbytes, _MAP_READ if readonly else _MAP_WRITE))
    finally:
        os.close(fd)  # the storage holds its own duplicate
    return _from_storage(out.value, _capi.CODES[dtype], sizes, strides, operator.index(offset))


_rebuild_shared.__module__ = _reduce_shared.__module__ = from_file.__module__ = "ctensor"  # where pickle finds them
_C._set_tensor_methods({"is_shared": is_shared, "share_memory_": share_memory_})
reduction.ForkingPickler.register(_C.Tensor, _reduce_shared)
