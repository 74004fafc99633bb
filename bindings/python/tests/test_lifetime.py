"""Lifetimes: held exports released on whatever thread drops the last view
(Python threads and threads that never ran Python, without the GIL), and no
reference leaks in the binding's paths."""
import gc
import os
import sys
import threading
import time
import weakref

import numpy
import pytest
import torch

import ctensor


class Exporter(bytearray):
    """A buffer exporter that can be watched with a weakref."""


def watch(obj, record):
    """A weakref whose callback records the thread that freed obj."""
    return weakref.ref(obj, lambda _: record.append(threading.get_ident()))


def wait_until(predicate, timeout=5.0):
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        time.sleep(0.01)  # releases the GIL for the releasing thread
    return predicate()


def test_python_thread_drops_the_last_view():
    freed_on = []
    exporter = Exporter(16)
    ref = watch(exporter, freed_on)
    box = [ctensor.frombuffer(exporter, dtype=ctensor.int32)[1:]]
    del exporter
    worker = threading.Thread(target=box.clear)
    worker.start()
    worker.join()
    gc.collect()
    assert ref() is None and freed_on == [worker.ident]


@pytest.mark.parametrize("kind", ["frombuffer", "from_numpy"])
def test_native_thread_without_the_gil_drops_the_last_view(kind):
    freed_on = []
    if kind == "frombuffer":
        exporter = Exporter(b"\x01\x02\x03\x04")
        t = ctensor.frombuffer(exporter, dtype=ctensor.uint8)
    else:
        exporter = numpy.arange(4, dtype=numpy.uint8)[::-1]
        t = ctensor.from_numpy(exporter)
    ref = watch(exporter, freed_on)
    read_end, write_end = os.pipe()
    try:
        ctensor._release_in_native_thread(t.view(2, 2), read_end)
        del t, exporter
        gc.collect()
        assert ref() is not None  # the native thread, blocked on the pipe, still holds a view
        os.write(write_end, b"x")  # now it drops the last reference, without the GIL
        assert wait_until(lambda: ref() is None)
    finally:
        os.close(write_end)
        os.close(read_end)
    assert len(freed_on) == 1 and freed_on[0] != threading.get_ident()


def test_many_views_released_concurrently():
    exporter = Exporter(4096)
    ref = weakref.ref(exporter)
    base = ctensor.frombuffer(exporter, dtype=ctensor.float32)
    views = [base[i:i + 8] for i in range(0, 1024, 8)]
    del exporter, base
    read_end, write_end = os.pipe()
    for v in views[::2]:
        ctensor._release_in_native_thread(v, read_end)
    del v
    chunks = [views[1::4], views[3::4]]
    del views
    threads = [threading.Thread(target=c.clear) for c in chunks]
    for th in threads:
        th.start()
    os.write(write_end, b"x" * 64)  # the native threads release while the Python ones do
    for th in threads:
        th.join()
    try:
        assert wait_until(lambda: ref() is None)
    finally:
        os.close(write_end)
        os.close(read_end)


def _refcounts(*objs):
    return [sys.getrefcount(o) for o in objs]


def test_no_reference_leaks():
    exporter = bytearray(64)
    arr = numpy.arange(16, dtype=numpy.float32).reshape(4, 4)
    t = ctensor.arange(16, dtype=ctensor.float32).view(4, 4)
    dtype = ctensor.float32
    tt = torch.arange(4)

    def workload():
        f = ctensor.frombuffer(exporter, dtype=ctensor.int16, offset=2, count=4)
        f[0] = 1
        v = t.t()[1:, ::-1].unsqueeze(0).squeeze(0).reshape(-1)
        repr(v), v.tolist(), t.shape, t.stride(), t.dtype, t.untyped_storage(), list(t)
        t[1, :] = ctensor.tensor([1.0, 2.0, 3.0, 4.0])
        t[0] = 0.5
        t[[0, 2], 1:].tolist()
        t[t == 1.0] = 1.0
        t.storage().tolist(), t.split(3), t.unfold(0, 2, 1), ctensor.zeros_like(t.t())
        (t == 1.0).tolist()
        a = ctensor.asarray(arr)
        ctensor.asarray(arr, dtype=ctensor.float64)
        ctensor.tensor([[1, 2], [3, 4]], dtype=dtype)
        ctensor.from_numpy(arr[::-1]).numpy()
        memoryview(t.t()).tolist()
        t.__array_interface__
        ctensor.from_dlpack(t.__dlpack__(max_version=(1, 0)))
        ctensor.from_dlpack(tt)
        torch.from_dlpack(a)
        for bad in (lambda: t[9], lambda: t.view(5), lambda: ctensor.tensor([[1], [2, 3]]),
                    lambda: ctensor.frombuffer(exporter, dtype=ctensor.int32, offset=100),
                    lambda: ctensor.asarray(arr, dtype=ctensor.int8, copy=False), lambda: t.permute(0, 0)):
            try:
                bad()
            except (IndexError, RuntimeError, ValueError):
                pass

    for _ in range(50):  # warm caches (interned names, NumPy lookups)
        workload()
    gc.collect()
    before = _refcounts(exporter, arr, t, dtype, tt, ctensor.int16)
    for _ in range(200):
        workload()
    gc.collect()
    after = _refcounts(exporter, arr, t, dtype, tt, ctensor.int16)  # outside assert: pytest's rewrite holds refs
    assert after == before
    exporter.extend(b"x")  # no export left behind
