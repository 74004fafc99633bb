"""Second-round differential tests against PyTorch 1.13 and NumPy.

- view_dtype between every dtype pair inside random view chains (bfloat16 and the
  unsigned dtypes torch 1.13 lacks are compared with the torch dtype of their size);
- DLPack round trips with torch.utils.dlpack's legacy capsules, both directions;
- copies of big odd layouts give the same bytes for every thread count;
- tensor_copy into an empty destination still checks that src broadcasts, as
  torch's copy_ and NumPy's assignment do.

Fixed seeds; run: CTENSOR_LIB=build/src/libctensor.so /usr/bin/python3 -m pytest tests/differential/test_chains_torch.py -q
"""
import ctypes
import random

import numpy as np
import pytest
import torch
import torch.utils.dlpack as tud

import test_views_torch as V
from ctensor_ctypes import STATUS, Tensor, check, int64_array, lib

OK = STATUS["TENSOR_OK"]
SHAPE = STATUS["TENSOR_E_SHAPE"]
READONLY = STATUS["TENSOR_E_READONLY"]

# ctensor dtype -> a torch dtype with the same element size (view_dtype's rules only
# look at sizes, so the unsigned dtypes map to the signed ones of their size)
SAME_SIZE = dict(V.TORCH_DTYPES)
SAME_SIZE.update({15: torch.bfloat16, 27: torch.int16, 28: torch.int32, 29: torch.int64})


def raw_bytes(t):
    storage = lib.tensor_storage(t.handle)
    n = lib.tensor_storage_nbytes(storage)
    return bytes((ctypes.c_uint8 * n).from_address(lib.tensor_storage_data(storage))) if n else b""


# ------------------------------------------------------------------ view_dtype in chains

def _layout(t):
    return t.shape, t.strides, t.offset, t.is_contiguous()


@pytest.mark.parametrize("seed", range(2))
def test_view_dtype_chains_between_every_dtype(seed):
    """Chains of view_dtype (every dtype, unsigned and bfloat16 included) mixed with
    the other view ops; layout and status agree with torch after every step."""
    checked = rejected = 0
    for case in range(600):
        rng = random.Random(seed * 100000 + case)
        shape = V.rand_shape(rng) + [16]
        n = int(np.prod(shape))
        data = np.frombuffer(np.random.RandomState(case).bytes(n), np.uint8).reshape(shape)
        ct = V.ct_from_numpy(data, 0)
        tt = torch.empty(shape, dtype=torch.uint8).copy_(torch.from_numpy(data.copy()))
        history = []
        for _ in range(8):
            if rng.random() < 0.5:
                dtype = rng.choice(list(SAME_SIZE))
                history.append(("view_dtype", dtype))
                status, c_res = V.call("tensor_view_dtype", ct, dtype)
                t_res, t_err = V.torch_status(lambda: tt.view(SAME_SIZE[dtype]))
                oracle = V.expected_dtype_status
            else:
                desc, args, thunk, oracle = V.rand_op(rng, tt)
                if desc[0] == "view_dtype" or not callable(oracle) or (desc[0] == "slice" and desc[4] == V.INT64_MAX):
                    continue
                history.append(desc)
                status, c_res = V.call(args[0], ct, *args[1:])
                t_res, t_err = V.torch_status(thunk)
                if t_err is None and any(s < 0 for s in t_res.shape):
                    break  # torch 1.13's negative expand of 0-dim tensors (test_views_torch)
            checked += 1
            what = f"seed {seed} case {case}: {history}"
            if t_err is not None:
                rejected += 1
                assert status == oracle(t_err), f"{what}: ctensor {status}, torch said {t_err}"
                break
            assert status == OK, f"{what}: {lib.tensor_last_error().decode()}"
            assert _layout(c_res) == (tuple(t_res.shape), tuple(t_res.stride()), t_res.storage_offset(),
                                      t_res.is_contiguous()), what
            if t_res.numel():
                want = t_res.view(torch.uint8) if t_res.dim() and t_res.stride(-1) == 1 else None
                if want is not None and c_res.dtype in V.NP_DTYPES:
                    np.testing.assert_array_equal(V.values(c_res).view(np.uint8), want.numpy(), err_msg=what)
            ct, tt = c_res, t_res
    assert checked > 2000 and rejected > 100


# ------------------------------------------------------------------ DLPack with torch

class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device", DLDevice), ("ndim", ctypes.c_int32),
                ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensor(ctypes.Structure):
    _fields_ = [("dl_tensor", DLTensor), ("manager_ctx", ctypes.c_void_p), ("deleter", ctypes.c_void_p)]


_api = ctypes.pythonapi
_api.PyCapsule_GetPointer.restype = ctypes.c_void_p
_api.PyCapsule_GetPointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_SetName.restype = ctypes.c_int
_api.PyCapsule_SetName.argtypes = [ctypes.py_object, ctypes.c_char_p]
_api.PyCapsule_New.restype = ctypes.py_object
_api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


def test_dlpack_round_trips_with_torch_capsules():
    """torch view -> legacy capsule -> ctensor -> legacy capsule -> torch: same address,
    sizes, the strides DLPack carried, dtype and values, for random view chains."""
    dtypes = [d for d in V.TORCH_DTYPES if d != 11]  # torch 1.13 does not export bool
    checked = 0
    for seed in range(400):
        rng = random.Random(seed)
        dtype = rng.choice(dtypes)
        _, tt = V.make_pair(rng, dtype, V.rand_shape(rng))
        for _ in range(rng.randint(0, 4)):
            desc, _, thunk, _ = V.rand_op(rng, tt)
            if desc[0] == "view_dtype":
                continue
            res, err = V.torch_status(thunk)
            if err is None and not any(s < 0 for s in res.shape):
                tt = res
        capsule = tud.to_dlpack(tt)
        managed = _api.PyCapsule_GetPointer(capsule, b"dltensor")
        dl = DLManagedTensor.from_address(managed).dl_tensor
        dl_strides = tuple(dl.strides[i] for i in range(dl.ndim))  # torch normalises size-1 dims
        out = ctypes.c_void_p(1)
        check(lib.tensor_from_dlpack_legacy(ctypes.byref(out), managed))
        _api.PyCapsule_SetName(capsule, b"used_dltensor")  # ctensor owns it now
        ct = Tensor(out.value)
        what = f"seed {seed}: {tuple(tt.shape)} {tt.stride()} {tt.dtype}"
        assert ct.shape == tuple(tt.shape) and ct.strides == dl_strides and ct.dtype == dtype, what
        assert ct.is_contiguous() == tt.is_contiguous(), what
        if tt.numel():
            assert ct.data_ptr == tt.data_ptr(), what
            np.testing.assert_array_equal(V.values(ct), tt.numpy(), err_msg=what)
        back = ctypes.c_void_p()
        check(lib.tensor_to_dlpack_legacy(ctypes.byref(back), ct.handle))
        t2 = tud.from_dlpack(_api.PyCapsule_New(back.value, b"dltensor", None))
        assert tuple(t2.shape) == ct.shape and t2.dtype == tt.dtype, what
        if tt.numel():
            assert t2.data_ptr() == tt.data_ptr(), what
            np.testing.assert_array_equal(t2.numpy(), tt.numpy(), err_msg=what)
        del t2, ct
        checked += 1
    assert checked == 400


# ------------------------------------------------------------------ threads

def test_big_odd_copies_identical_for_every_thread_count():
    before = lib.tensor_get_num_threads()
    try:
        for seed in range(12):
            rng = random.Random(seed)
            frm = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11])
            to = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 15, 27, 28, 29])
            nd = rng.randint(2, 4)
            shape = [rng.choice([1, 3, 7, 13, 63, 65, 127, 257]) for _ in range(nd - 1)]
            shape.append(max(rng.randint(700_000, 1_500_000) // int(np.prod(shape)), 1))
            rng.shuffle(shape)
            data = np.random.RandomState(seed).randint(0, 250, size=shape).astype(V.NP_DTYPES[frm])
            ct = V.ct_from_numpy(data, frm)
            order = list(range(nd))
            rng.shuffle(order)
            _, view = V.call("tensor_permute", ct, *V.dims(order))
            _, view = V.call("tensor_slice", view, rng.randrange(nd), V.INT64_MAX, V.INT64_MIN, -rng.choice([1, 2]))
            results = []
            for threads in (1, 2, 5):
                check(lib.tensor_set_num_threads(threads))
                out = ctypes.c_void_p()
                check(lib.tensor_clone(ctypes.byref(out), view.handle))
                clone = Tensor(out.value)
                check(lib.tensor_to(ctypes.byref(out), view.handle, to, 1))
                cast = Tensor(out.value)
                # a copy into a reversed-dims destination
                check(lib.tensor_to(ctypes.byref(out), view.handle, to, 1))
                dst = Tensor(out.value)
                rev = list(range(nd))[::-1]
                _, dst_t = V.call("tensor_permute", dst, *V.dims(rev))
                _, src_t = V.call("tensor_permute", view, *V.dims(rev))
                check(lib.tensor_fill(dst.handle, 3.0))
                check(lib.tensor_copy(dst_t.handle, src_t.handle))
                results.append((raw_bytes(clone), raw_bytes(cast), raw_bytes(dst)))
            assert results[0][0] == np.ascontiguousarray(V.values(view)).tobytes(), seed
            assert all(r == results[0] for r in results), f"seed {seed}: {shape} {frm}->{to}"
    finally:
        check(lib.tensor_set_num_threads(before))


# ------------------------------------------------------------------ empty destinations

def test_copy_into_empty_destination_still_checks_broadcasting():
    """torch's copy_ and NumPy's assignment refuse these although nothing would be written."""
    cases = [((0, 3), (2,)), ((0,), (2, 0)), ((0, 3), (0, 2)), ((2, 0), (3, 0)), ((0,), (1, 1)),
             ((0, 3), (3,)), ((0, 3), (1, 1)), ((0,), ()), ((3, 0), (1, 0)), ((0,), (5, 1, 0))]
    for dst_shape, src_shape in cases:
        t_err = None
        try:
            torch.empty(dst_shape).copy_(torch.zeros(src_shape))
        except RuntimeError as e:
            t_err = e
        dst = V.ct_from_numpy(np.zeros(dst_shape, np.float32), 6)
        src = V.ct_from_numpy(np.zeros(src_shape, np.float64), 7)
        status = lib.tensor_copy(dst.handle, src.handle)
        assert status == (OK if t_err is None else SHAPE), f"{dst_shape} <- {src_shape}: {t_err}"


def test_empty_read_only_destination_succeeds_when_shapes_fit():
    """ctensor: an empty dst always succeeds (nothing is written), read-only included;
    a source that cannot broadcast is still TENSOR_E_SHAPE."""
    buf = ctypes.create_string_buffer(16)
    s = ctypes.c_void_p()
    check(lib.tensor_storage_wrap(ctypes.byref(s), ctypes.addressof(buf), 16, 1, None, None))
    out = ctypes.c_void_p()
    check(lib.tensor_from_storage(ctypes.byref(out), s, 6, 2, int64_array([0, 3]), None, 0))
    dst = Tensor(out.value)
    lib.tensor_storage_release(s)
    assert lib.tensor_copy(dst.handle, V.ct_from_numpy(np.ones(3, np.float32), 6).handle) == OK
    assert lib.tensor_copy(dst.handle, V.ct_from_numpy(np.ones(2, np.float32), 6).handle) == SHAPE
    assert lib.tensor_fill(dst.handle, 1.0) == OK
