"""share_memory_ moves the storage in place, as torch's: views taken before a
tensor is shared (or sent through multiprocessing, which shares it) see the shared
memory; storages whose memory is exported are refused. And .numpy() of conj()'s
values refuses as torch's numpy() of a conjugate view."""
import multiprocessing

import numpy as np
import pytest
import torch

import ctensor


def _fill(t, value):
    t.fill_(value)


@pytest.mark.parametrize("lib", [ctensor, torch], ids=["ctensor", "torch"])
def test_views_see_the_shared_memory_in_process(lib):
    buf = lib.zeros(4)
    head, tail = buf[:2], buf[2:].view(1, 2)
    assert buf.share_memory_() is buf
    buf.fill_(5)
    assert head.is_shared() and tail.is_shared()
    assert head.tolist() == [5, 5] and tail.tolist() == [[5, 5]]
    assert head.data_ptr() == buf.data_ptr()


@pytest.mark.parametrize("lib", [ctensor, torch], ids=["ctensor", "torch"])
def test_spawned_child_writes_through_the_parents_earlier_view(lib):
    ctx = multiprocessing.get_context("spawn")
    buf = lib.zeros(4, dtype=lib.int64)
    head = buf[:2]
    child = ctx.Process(target=_fill, args=(buf, 7))  # spawn pickles buf: share_memory_
    child.start()
    child.join(120)
    assert child.exitcode == 0
    assert head.tolist() == [7, 7] and buf.tolist() == [7] * 4


def _receive_and_fill(inbox, done):
    t = inbox.get(timeout=120)
    t.fill_(3)
    done.put(t.is_shared())


@pytest.mark.parametrize("lib", [ctensor, torch], ids=["ctensor", "torch"])
def test_queue_put_shares_without_detaching_views(lib):
    ctx = multiprocessing.get_context("spawn")
    inbox, done = ctx.Queue(), ctx.Queue()
    buf = lib.zeros(4, dtype=lib.int32)
    middle = buf[1:3]
    child = ctx.Process(target=_receive_and_fill, args=(inbox, done))
    child.start()
    inbox.put(buf)  # the feeder thread calls share_memory_
    assert done.get(timeout=120) is True
    child.join(120)
    assert child.exitcode == 0
    assert middle.tolist() == [3, 3] and buf.is_shared()


def test_exported_storage_is_refused_until_released():
    buf = ctensor.arange(4.0)
    head = buf[:2]
    for export in (lambda: buf.numpy(), lambda: memoryview(head), lambda: np.from_dlpack(head),
                   lambda: np.asarray(buf[1:])):
        held = export()
        with pytest.raises(BufferError, match="exported"):
            buf.share_memory_()
        assert not buf.is_shared()
        del held
    m = memoryview(buf)
    m.release()
    buf.share_memory_()
    assert head.is_shared() and buf.numpy().tolist() == [0, 1, 2, 3]
    held = buf.numpy()  # shared memory never moves again: exports are no obstacle
    assert buf.share_memory_() is buf and held.ctypes.data == buf.data_ptr()


@pytest.mark.parametrize("lib", [ctensor, torch], ids=["ctensor", "torch"])
def test_from_numpy_storage_is_copied_into_shared_memory(lib):
    a = np.arange(3.0)
    t = lib.from_numpy(a)
    view = t[1:]
    t.share_memory_()
    t[0] = 9
    assert t.is_shared() and view.is_shared()
    assert a.tolist() == [0, 1, 2]  # the array no longer shares the tensor's memory, as torch's
    view[0] = 8
    assert t.tolist() == [9, 8, 2]


def test_read_only_storage_stays_read_only():
    t = ctensor.frombuffer(b"\x01\x02\x03\x04", dtype=ctensor.uint8)
    view = t[2:]
    t.share_memory_()
    assert view.is_shared() and view.is_readonly and view.tolist() == [3, 4]


# ---- numpy() of conjugates ------------------------------------------------------

def _numpy_outcome(fn):
    try:
        return fn().tolist()
    except RuntimeError as e:
        return ("RuntimeError", str(e))


@pytest.mark.parametrize("name", ["conj", "conj_view", "H", "mH", "adjoint", "conj_conj", "conj_clone",
                                  "resolve", "module_conj", "real", "conj_physical"])
def test_numpy_of_conjugates_as_torch(name):
    values = np.array([[1 + 2j, -3 + 4j], [5 - 6j, 7j]], dtype=np.complex64)
    ops = {
        "conj": lambda x: x.conj(), "conj_view": lambda x: x.conj()[1:, :1].t(), "H": lambda x: x.H,
        "mH": lambda x: x.mH, "adjoint": lambda x: x.adjoint(), "conj_conj": lambda x: x.conj().conj(),
        "conj_clone": lambda x: x.conj().clone(), "resolve": lambda x: x.conj().resolve_conj(),
        "module_conj": lambda x: type(x).conj(x), "real": lambda x: x.abs().conj(),
        "conj_physical": lambda x: x.conj_physical(),
    }
    c, t = ctensor.from_numpy(values.copy()), torch.from_numpy(values.copy())
    got = _numpy_outcome(lambda: ops[name](c).numpy())
    assert got == _numpy_outcome(lambda: ops[name](t).numpy())
    if isinstance(got, tuple):
        assert got[1] == ("Can't call numpy() on Tensor that has conjugate bit set. "
                          "Use tensor.resolve_conj().numpy() instead.")
        resolved = ops[name](c).resolve_conj()
        assert resolved.numpy().tolist() == ops[name](t).resolve_conj().numpy().tolist()
        assert resolved.stride() == ops[name](t).resolve_conj().stride()
        resolved.fill_(0)  # a writable copy
        assert c.tolist() == values.tolist()
