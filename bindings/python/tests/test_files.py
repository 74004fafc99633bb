"""ctensor.load/save against np.load/np.save, ctensor.from_file against
torch.from_file, share_memory_/is_shared as torch's, and tensors sent through
multiprocessing queues and pools arriving in shared memory."""
import gc
import multiprocessing
import os
import pickle
import sys
import types

import numpy as np
import pytest
import torch

import ctensor

DTYPES = [np.bool_, np.uint8, np.int8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
          np.float16, np.float32, np.float64, np.complex64, np.complex128]


def open_fds():
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("order", ["C", "F"])
def test_load_reads_what_np_save_wrote(tmp_path, dtype, order):
    array = np.asarray(np.arange(24).reshape(2, 3, 4) % 7, dtype=dtype, order=order)
    np.save(tmp_path / "a.npy", array)
    for mode in (None, "r", "c"):
        t = ctensor.load(tmp_path / "a.npy", mmap_mode=mode)
        loaded = np.load(tmp_path / "a.npy", mmap_mode=mode)
        np.testing.assert_array_equal(t.numpy(), loaded)
        assert t.stride() == tuple(s // loaded.itemsize for s in loaded.strides)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_save_writes_what_np_load_reads(tmp_path, dtype):
    t = ctensor.from_numpy(np.asarray(np.arange(12).reshape(3, 4) % 5, dtype=dtype)).t()
    ctensor.save(t, str(tmp_path / "b.npy"))
    np.testing.assert_array_equal(np.load(tmp_path / "b.npy"), t.numpy())


def test_mmap_modes_behave_as_numpys(tmp_path):
    np.save(tmp_path / "m.npy", np.arange(5, dtype=np.int32))
    copied = ctensor.load(tmp_path / "m.npy")
    copied[0] = 9
    readonly = ctensor.load(tmp_path / "m.npy", mmap_mode="r")
    with pytest.raises(ValueError):
        readonly[0] = 9
    cow = ctensor.load(tmp_path / "m.npy", mmap_mode="c")
    cow[1] = 9
    assert cow.tolist() == [0, 9, 2, 3, 4]
    assert np.load(tmp_path / "m.npy").tolist() == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError):
        ctensor.load(tmp_path / "m.npy", mmap_mode="w+")


def test_load_and_save_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        ctensor.load(tmp_path / "missing.npy")
    (tmp_path / "junk.npy").write_bytes(b"not a numpy file at all")
    with pytest.raises(ValueError, match="not a .npy file"):
        ctensor.load(tmp_path / "junk.npy")
    with pytest.raises(RuntimeError, match="safetensors"):
        ctensor.save(ctensor.zeros(2, dtype=ctensor.bfloat16), tmp_path / "bf.npy")
    with pytest.raises(TypeError):
        ctensor.save([1, 2], tmp_path / "list.npy")
    with pytest.raises(OSError):
        ctensor.save(ctensor.zeros(2), tmp_path / "no" / "dir.npy")


@pytest.mark.parametrize("dtype", ["float32", "int64", "uint8", "float64"])
def test_from_file_reads_as_torch_does(tmp_path, dtype):
    raw = np.arange(40, dtype=np.uint8).tobytes()
    (tmp_path / "f.bin").write_bytes(raw)
    size = len(raw) // np.dtype(dtype).itemsize
    mine = ctensor.from_file(str(tmp_path / "f.bin"), shared=False, size=size, dtype=getattr(ctensor, dtype))
    theirs = torch.from_file(str(tmp_path / "f.bin"), shared=False, size=size, dtype=getattr(torch, dtype))
    assert mine.tolist() == theirs.tolist()
    assert ctensor.from_file(str(tmp_path / "f.bin"), size=0).shape == torch.from_file(str(tmp_path / "f.bin"), size=0).shape
    with pytest.raises(RuntimeError):
        torch.from_file(str(tmp_path / "f.bin"), shared=False, size=size + 1, dtype=getattr(torch, dtype))
    with pytest.raises(RuntimeError):
        ctensor.from_file(str(tmp_path / "f.bin"), shared=False, size=size + 1, dtype=getattr(ctensor, dtype))


def test_from_file_shared_writes_reach_the_file(tmp_path):
    path = str(tmp_path / "s.bin")
    t = ctensor.from_file(path, shared=True, size=4)  # created, as torch creates it
    torch.from_file(str(tmp_path / "t.bin"), True, 4)
    assert os.path.getsize(path) == os.path.getsize(tmp_path / "t.bin") == 16
    t.fill_(2.5)
    assert np.fromfile(path, np.float32).tolist() == [2.5] * 4
    assert t.is_shared()
    private = ctensor.from_file(path, shared=False, size=4)
    private.fill_(1)
    assert np.fromfile(path, np.float32).tolist() == [2.5] * 4


def test_share_memory_moves_the_tensor_in_place():
    x = ctensor.arange(6).view(2, 3).t()
    assert not x.is_shared()
    assert x.share_memory_() is x
    assert x.is_shared() and x.tolist() == [[0, 3], [1, 4], [2, 5]] and x.stride() == (1, 3)
    storage = x.untyped_storage().data_ptr()
    x.share_memory_()  # already shared: nothing moves
    assert x.untyped_storage().data_ptr() == storage
    view = x[1:]
    assert view.is_shared()
    ro = ctensor.frombuffer(b"\x01\x02\x03\x04", dtype=ctensor.uint8)
    ro.share_memory_()
    assert ro.is_shared() and ro.is_readonly and ro.tolist() == [1, 2, 3, 4]
    # plain pickling still copies bytes
    assert not pickle.loads(pickle.dumps(x)).is_shared()


def _queue_worker(inbox, outbox):
    t = inbox.get()
    t[1] = 42
    outbox.put((t.is_shared(), t.tolist()))


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_tensor_on_a_queue_arrives_sharing_memory(method):
    ctx = multiprocessing.get_context(method)
    inbox, outbox = ctx.Queue(), ctx.Queue()
    t = ctensor.zeros(4, dtype=ctensor.int64)
    worker = ctx.Process(target=_queue_worker, args=(inbox, outbox))
    worker.start()
    inbox.put(t)
    shared, seen = outbox.get(timeout=60)
    worker.join(60)
    assert worker.exitcode == 0
    assert shared and seen == [0, 42, 0, 0]
    assert t.is_shared() and t.tolist() == [0, 42, 0, 0]  # the sender's tensor moved, as torch's


def _fill_slice(args):
    view, value = args
    view.fill_(value)
    return view.storage_offset()


def test_pool_workers_write_disjoint_slices():
    t = ctensor.zeros(4, 1000, dtype=ctensor.int32).share_memory_()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        offsets = pool.map(_fill_slice, [(t[i], i + 1) for i in range(4)])
    assert offsets == [0, 1000, 2000, 3000]
    assert [row.tolist() == [i + 1] * 1000 for i, row in enumerate(t)] == [True] * 4


def test_no_descriptor_leaks(tmp_path):
    np.save(tmp_path / "x.npy", np.arange(10))
    ctensor.save_file({"a": ctensor.arange(3)}, tmp_path / "x.safetensors")
    gc.collect()
    before = open_fds()
    for _ in range(50):
        ctensor.zeros(100).share_memory_()
        ctensor.load(tmp_path / "x.npy", mmap_mode="r")
        ctensor.load_file(tmp_path / "x.safetensors")
        with ctensor.safe_open(tmp_path / "x.safetensors", framework="pt") as f:
            f.get_tensor("a")
        ctensor.from_file(str(tmp_path / "x.npy"), shared=True, size=4)
    gc.collect()
    assert open_fds() == before


def test_safetensors_round_trip_and_errors(tmp_path):
    tensors = {"w": ctensor.arange(6, dtype=ctensor.float32).view(2, 3), "b": ctensor.zeros(3, dtype=ctensor.bfloat16),
               "t": ctensor.arange(4).view(2, 2).t()}
    ctensor.save_file(tensors, tmp_path / "m.safetensors", metadata={"format": "pt"})
    loaded = ctensor.load_file(tmp_path / "m.safetensors")
    assert list(loaded) == ["b", "t", "w"]
    for k in tensors:
        assert loaded[k].tolist() == tensors[k].tolist() and loaded[k].dtype == tensors[k].dtype
    loaded["w"][0, 0] = 100  # copy-on-write: writable, the file is unchanged
    assert ctensor.load_file(tmp_path / "m.safetensors")["w"][0, 0].item() == 0
    with ctensor.safe_open(tmp_path / "m.safetensors", framework="numpy") as f:
        assert f.keys() == ["b", "t", "w"] and f.offset_keys() == ["t", "w", "b"]
        assert f.metadata() == {"format": "pt"}
        w = f.get_tensor("w")
        assert isinstance(w, np.ndarray) and w.tolist() == [[0, 1, 2], [3, 4, 5]]
    assert w.sum() == 15  # arrays outlive the file handle
    with pytest.raises(ValueError, match="closed"):
        f.keys()
    with pytest.raises(ValueError):
        ctensor.safe_open(tmp_path / "m.safetensors", framework="tf")
    (tmp_path / "bad.safetensors").write_bytes(b"\x02\0\0\0\0\0\0\0[]")
    with pytest.raises(ValueError, match="safetensors"):
        ctensor.load_file(tmp_path / "bad.safetensors")
    with pytest.raises(FileNotFoundError):
        ctensor.load_file(tmp_path / "missing.safetensors")
    with pytest.raises(TypeError):
        ctensor.save_file({"a": [1]}, tmp_path / "x.safetensors")
    with pytest.raises(TypeError):
        ctensor.save_file({"a": ctensor.zeros(1)}, tmp_path / "x.safetensors", metadata={"k": 1})
    with ctensor.safe_open(tmp_path / "m.safetensors", "pt") as f:
        assert f.metadata() == {"format": "pt"}
    ctensor.save_file({}, tmp_path / "empty.safetensors")
    with ctensor.safe_open(tmp_path / "empty.safetensors", "pt") as f:
        assert f.keys() == [] and f.metadata() is None


def big_files(tmp_path):
    """A .npy file and a safetensors file of 24 MiB each (three 8 MiB chunks)."""
    array = np.arange(6 << 20, dtype=np.uint32)
    np.save(tmp_path / "big.npy", array)
    ctensor.save_file({"x": ctensor.from_numpy(array)}, tmp_path / "big.safetensors")
    return array


def test_progress_callable_sees_every_byte(tmp_path):
    array = big_files(tmp_path)
    for load, path in ((ctensor.load, "big.npy"), (ctensor.load_file, "big.safetensors")):
        calls = []
        loaded = load(tmp_path / path, progress=lambda done, total: calls.append((done, total)))
        t = loaded if load is ctensor.load else loaded["x"]
        np.testing.assert_array_equal(t.numpy(), array)
        assert calls[0] == (0, array.nbytes) and calls[-1] == (array.nbytes, array.nbytes)
        assert [d for d, _ in calls] == sorted(d for d, _ in calls)
        calls.clear()
        load(tmp_path / path, progress=lambda done, total: calls.append(done), progress_min_bytes=array.nbytes + 1)
        assert calls == []
    calls = []
    ctensor.load(tmp_path / "big.npy", mmap_mode="r", progress=lambda done, total: calls.append(done))
    assert calls == []  # a mapped load reads nothing up front


def test_an_exception_in_progress_cancels_the_load(tmp_path):
    big_files(tmp_path)

    class Stop(Exception):
        pass

    def stop(done, total):
        raise Stop(done)

    before = open_fds()
    with pytest.raises(Stop):
        ctensor.load(tmp_path / "big.npy", progress=stop)
    with pytest.raises(Stop):
        ctensor.load_file(tmp_path / "big.safetensors", progress=stop)
    assert open_fds() == before
    with pytest.raises(TypeError, match="progress"):
        ctensor.load(tmp_path / "big.npy", progress="yes")


def test_progress_true_draws_a_tqdm_bar_or_a_stderr_line(tmp_path, monkeypatch, capsys):
    array = big_files(tmp_path)
    monkeypatch.setitem(sys.modules, "tqdm", None)  # as if tqdm were not installed
    ctensor.load(tmp_path / "big.npy", progress=True)
    err = capsys.readouterr().err
    assert err.startswith("\rbig.npy: 0 of 24 MiB (0%)") and err.endswith("\rbig.npy: 24 of 24 MiB (100%)\n")

    bars = []

    class FakeTqdm:  # tqdm's interface as the bar uses it
        def __init__(self, total, unit, unit_scale, unit_divisor, desc):
            self.total, self.desc, self.n, self.closed = total, desc, 0, False
            bars.append(self)

        def update(self, n):
            self.n += n

        def close(self):
            self.closed = True

    monkeypatch.setitem(sys.modules, "tqdm", types.SimpleNamespace(tqdm=FakeTqdm))
    ctensor.load_file(tmp_path / "big.safetensors", progress=True)
    assert len(bars) == 1 and bars[0].closed
    assert (bars[0].desc, bars[0].total, bars[0].n) == ("big.safetensors", array.nbytes, array.nbytes)
