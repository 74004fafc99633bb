"""ctypes access to the libctensor that ctensor._C is linked against, for the
package's cold paths that only compose C calls (hot paths stay in C).

`lib` opens the extension module itself: dlsym through its handle finds the
library's functions whether the library is a shared libctensor it depends on or
built into it (`pip install .`). Each function Python calls is prototyped from
the table below. `check(status)` raises what the extension raises for the same
status (one mapping: errors.c's, through _C._raise), `tensor(handle)` wraps a
tensor_t* reference into a Tensor and `Tensor._handle` gives one back (borrowed).
"""
import ctypes

from ctensor import _C

lib = ctypes.CDLL(_C.__file__)

P, PP, I32, I64, SIZE = ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int32, ctypes.c_int64, ctypes.c_size_t
I32P, I64P = ctypes.POINTER(I32), ctypes.POINTER(I64)
_CODES = {"v": None, "p": P, "P": PP, "i": I32, "I": I32P, "q": I64, "Q": I64P, "z": SIZE, "s": ctypes.c_char_p}

# name: return then parameter codes (v void, p pointer/handle, P pointer to one,
# i int32 (statuses, dtypes, flags), I int32*, q int64, Q int64*, z size_t, s char*).
_PROTOTYPES = """
tensor_last_error s
tensor_retain p p
tensor_release v p
tensor_ndim q p
tensor_sizes Q p
tensor_strides Q p
tensor_storage_offset q p
tensor_dtype i p
tensor_data p p
tensor_is_readonly i p
tensor_is_conj i p
tensor_device v pII
tensor_clone i Pp
tensor_to_dlpack i Ppi
tensor_storage p p
tensor_storage_new i Pz
tensor_storage_retain p p
tensor_storage_release v p
tensor_storage_data p p
tensor_storage_nbytes z p
tensor_storage_is_readonly i p
tensor_from_storage i PpiqQQq
tensor_dtype_name s i
tensor_dtype_size z i
tensor_to_dlpack_legacy i Pp
tensor_from_arrow i Ppp
tensor_from_arrow_device i Ppp
tensor_from_arrow_variable_shape i PQpp
tensor_arrow_list_release v pq
"""

for _line in _PROTOTYPES.strip().splitlines():
    _name, _ret, _params = (_line.split() + [""])[:3]
    _fn = getattr(lib, _name)
    _fn.restype = _CODES[_ret]
    _fn.argtypes = [_CODES[c] for c in _params]


# dtype code -> the ctensor dtype object (_C names them as the library does), and back.
DTYPES = {code: getattr(_C, lib.tensor_dtype_name(code).decode()) for code in range(64) if lib.tensor_dtype_name(code)}
CODES = {dtype: code for code, dtype in DTYPES.items()}
_CPU = (1, 3, 13)  # kDLCPU, kDLCUDAHost, kDLCUDAManaged: memory the CPU reads


def device(t):
    """(device type, device id) of a Tensor's memory, as DLPack numbers."""
    device_type, device_id = I32(), I32()
    lib.tensor_device(t._handle, ctypes.byref(device_type), ctypes.byref(device_id))
    return device_type.value, device_id.value


def check_cpu(t, what):
    """RuntimeError unless the Tensor's memory is on the CPU (as the C files' ct_check_cpu)."""
    where = device(t)
    if where[0] not in _CPU:
        raise RuntimeError(f"{what}: tensor memory is on DLPack device {where}, not on the CPU")


def check(status):
    """Raises the exception the extension raises for a non-OK tensor_status_t."""
    if status:
        _C._raise(status)


def tensor(make, *args):
    """A Tensor from `make(&out, *args)` (a tensor_* function with an out handle)."""
    out = P()
    check(make(ctypes.byref(out), *args))
    return _C._from_handle(out.value)
