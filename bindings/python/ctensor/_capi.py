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
from typing import Any

from ctensor import _C

lib: ctypes.CDLL = ctypes.CDLL(_C.__file__)  # (typed: mypy may reach its users first)

P, PP, I32, I64, SIZE = ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int32, ctypes.c_int64, ctypes.c_size_t
I32P, I64P = ctypes.POINTER(I32), ctypes.POINTER(I64)
_CODES = {"v": None, "p": P, "P": PP, "i": I32, "I": I32P, "q": I64, "Q": I64P, "z": SIZE, "s": ctypes.c_char_p,
          "S": ctypes.POINTER(ctypes.c_char_p), "u": ctypes.c_uint32, "U": ctypes.c_uint64, "d": ctypes.c_double}

# name: return then parameter codes (v void, p pointer/handle, P pointer to one or an
# array of them, i int32 (statuses, dtypes), I int32*, q int64, Q int64*, z size_t,
# s char*, S char**, u uint32 (flags), U uint64, d double). Every function the
# package's Python calls is here (the loads with an options struct: ctensor/_files.py).
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
tensor_empty_like i Ppii
tensor_zeros_like i Ppii
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
tensor_to i Ppii
tensor_to_with i Ppiiiu
tensor_broadcast_tensors i PqP
tensor_dtype_kind i i
tensor_dtype_is_signed i i
tensor_split i PqQpqq
tensor_chunk i PqQpqq
tensor_tensor_split i PqQpqq
tensor_split_with_sizes i PqQpqQq
tensor_tensor_split_indices i PqQpqQq
tensor_unfold i Ppqqq
tensor_diagonal i Ppqqq
tensor_unflatten i PpqqQ
tensor_movedim i PpqQQ
tensor_conj i Pp
tensor_conj_physical i Pp
tensor_sum i PpqQi
tensor_mean i PpqQi
tensor_prod i PpqQi
tensor_amax i PpqQi
tensor_amin i PpqQi
tensor_argmax i Ppqi
tensor_argmin i Ppqi
tensor_argmax_into i ppqi
tensor_argmin_into i ppqi
tensor_cumsum i Ppq
tensor_cumprod i Ppq
tensor_softmax i Ppq
tensor_log_softmax i Ppq
tensor_cumsum_into i ppq
tensor_cumprod_into i ppq
tensor_softmax_into i ppq
tensor_log_softmax_into i ppq
tensor_cat i PqPq
tensor_stack i PqPq
tensor_equal i Ipp
tensor_allclose i Ippddi
tensor_empty i PqQi
tensor_scalar_bool i Pi
tensor_scalar_int64 i Pq
tensor_scalar_float64 i Pd
tensor_scalar_complex128 i Pdd
tensor_clamp i Pppp
tensor_clamp_into i pppp
tensor_where i Pppp
tensor_where_into i pppp
tensor_scalar_convert_int64 i piq
tensor_scalar_convert_float64 i pid
tensor_save_npy i ps
tensor_safetensors_release v p
tensor_safetensors_count q p
tensor_safetensors_name s pq
tensor_safetensors_get i Pps
tensor_safetensors_metadata s ps
tensor_safetensors_metadata_count q p
tensor_safetensors_metadata_key s pq
tensor_safetensors_save i sqSPqSS
tensor_storage_fd i p
tensor_storage_move_to_shared i p
tensor_storage_from_fd i Pizu
tensor_storage_map_file i PsUUu
"""

for _line in _PROTOTYPES.strip().splitlines():
    _name, _ret, _params = (_line.split() + [""])[:3]
    _fn = getattr(lib, _name)
    _fn.restype = _CODES[_ret]
    _fn.argtypes = [_CODES[c] for c in _params]


# dtype code -> the ctensor dtype object (_C names them as the library does), and back.
DTYPES: dict[int, Any] = {code: getattr(_C, lib.tensor_dtype_name(code).decode()) for code in range(64) if lib.tensor_dtype_name(code)}
CODES: dict[Any, int] = {dtype: code for code, dtype in DTYPES.items()}
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
