"""Pickling as torch pickles (the storage once, then the views), with protocol 5
out of band without copying, and copies for every other protocol."""
import pickle

import numpy as np
import pytest

import ctensor


def roundtrip_oob(obj):
    buffers = []
    data = pickle.dumps(obj, protocol=5, buffer_callback=buffers.append)
    return pickle.loads(data, buffers=buffers), buffers, data


@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8", "bool", "complex128", "float16", "bfloat16"])
def test_protocol5_out_of_band_is_zero_copy(dtype):
    t = ctensor.arange(64).view(8, 8).to(getattr(ctensor, dtype))
    u, buffers, data = roundtrip_oob(t)
    assert len(buffers) == 1 and len(data) < 400  # the bytes travelled out of band
    assert u.data_ptr() == t.data_ptr()
    assert (u.shape, u.stride(), u.dtype) == (t.shape, t.stride(), t.dtype)
    assert u.tolist() == t.tolist()
    u[0, 0] = 1  # the same memory
    assert t[0, 0].item() == u[0, 0].item()


def test_protocol5_in_band_and_older_protocols_copy():
    t = ctensor.arange(12.0).view(3, 4)
    for protocol in range(0, pickle.HIGHEST_PROTOCOL + 1):
        u = pickle.loads(pickle.dumps(t, protocol=protocol))
        assert u.data_ptr() != t.data_ptr() and u.tolist() == t.tolist() and not u.is_readonly


def test_views_pickle_their_storage_once():
    base = ctensor.arange(1000, dtype=ctensor.int32)
    views = [base, base[10:20], base.view(10, 100).t(), base[::7]]
    for protocol in (2, 4, 5):
        data = pickle.dumps(views, protocol=protocol)
        assert 4000 < len(data) < 4800, len(data)  # one storage's 4000 bytes
        loaded = pickle.loads(data)
        assert len({v.untyped_storage().data_ptr() for v in loaded}) == 1
        for v, w in zip(views, loaded):
            assert (w.shape, w.stride(), w.storage_offset(), w.tolist()) == \
                (v.shape, v.stride(), v.storage_offset(), v.tolist())
        loaded[0][15] = -1
        assert loaded[1][5].item() == -1
    # (torch.save keeps views of one storage together like this; torch's plain
    # pickle saves each view's storage separately, so there is no oracle here)


def test_oob_views_share_one_buffer():
    base = ctensor.arange(100)
    u, buffers, _ = roundtrip_oob([base[1:], base[::3]])
    assert len(buffers) == 1
    assert u[0].data_ptr() == base.data_ptr() + 8 and u[1].data_ptr() == base.data_ptr()


def test_read_only_buffers_load_writable():
    ro = ctensor.frombuffer(b"abcd", dtype=ctensor.uint8)
    u, buffers, _ = roundtrip_oob(ro)
    assert u.tolist() == [97, 98, 99, 100] and not u.is_readonly
    assert u.data_ptr() != ro.data_ptr()  # read-only bytes are copied
    # buffers from elsewhere (a bytearray received from another process) are wrapped
    t = ctensor.arange(4, dtype=ctensor.uint8)
    buffers = []
    data = pickle.dumps(t, protocol=5, buffer_callback=buffers.append)
    received = bytearray(buffers[0].raw())
    v = pickle.loads(data, buffers=[received])
    v[0] = 9
    assert received[0] == 9


def test_empty_and_numpy_backed_tensors():
    for t in (ctensor.zeros(0, 3), ctensor.from_numpy(np.arange(6.0).reshape(2, 3)[:, ::2])):
        u, _, _ = roundtrip_oob(t)
        assert (u.shape, u.stride(), u.tolist()) == (t.shape, t.stride(), t.tolist())
        w = pickle.loads(pickle.dumps(t))
        assert (w.shape, w.stride(), w.tolist()) == (t.shape, t.stride(), t.tolist())


def test_storages_pickle():
    s = ctensor.arange(3, dtype=ctensor.uint8).untyped_storage()
    assert pickle.loads(pickle.dumps(s)).tolist() == [0, 1, 2]
