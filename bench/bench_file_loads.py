"""File loads as a user of large model files sees them, cold and warm, in one run:

  first tensor  open a file and get its first tensor, mapped (target: < 100 us
                at any file size), also for the same bytes split into 1000
                tensors (a model file's header size: opening parses it all)
  full load     every byte of the file in memory: a copy-mode load, or a
                mapped load with every page touched (target for ctensor's copy
                mode: >= 0.9x the speed of the pread loop); ctensor's copy mode
                through the C API (tensor_safetensors_open_with and
                tensor_load_npy_with with TENSOR_LOAD_COPY) at 1 thread and at
                all threads, and through Python

for ctensor (safe_open / load_file of a safetensors file, load of an .npy
file), the `safetensors` package (framework "numpy"), NumPy (np.load with
mmap_mode="r" and touching every page, np.load in full), torch.load of the
same tensors saved with torch.save, and the limit: a plain loop of
os.preadv into a preallocated buffer, 8 MiB at a time, over the same bytes
(and, to show what a load pays for new memory, the same loop into a buffer
allocated for each load). Ratios are to the pread loop of the same file in
the same run (> 1: slower).

Cold: before each cold repetition the file's pages are dropped: os.sync() and
then posix_fadvise(POSIX_FADV_DONTNEED) on the file (the default: it touches
only this file), or with --drop-caches /proc/sys/vm/drop_caches (the whole
machine's page cache: only on a machine of your own). The header says which
was used and whether it worked (pages still resident are reported).

usage: build-test/venv-safetensors/bin/python bench/bench_file_loads.py [--mib 2048] [--dir DIR]
          [--reps 5] [--drop-caches]
  (the venv from scripts/safetensors-venv.sh; the build's bindings/python on
  PYTHONPATH or CTENSOR_PYTHON_BUILD set to it). The files are written in a
  temporary directory under --dir (default: bench/, on the same disk as the
  build) and deleted afterwards. Take figures on a quiet machine.
"""
import argparse
import ctypes
import mmap
import os
import shutil
import statistics
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path.insert(0, os.environ.get("CTENSOR_PYTHON_BUILD", os.path.join(ROOT, "build-test", "bindings", "python")))

import numpy as np  # noqa: E402
import safetensors  # noqa: E402
import safetensors.numpy  # noqa: E402
import torch  # noqa: E402

import ctensor  # noqa: E402

COUNT = 64  # tensors in the safetensors and torch files
MANY = 1000  # tensors in the safetensors file of the same bytes with a model's header size
CHUNK = 8 << 20
PAGE = mmap.PAGESIZE


def touch(array):
    """Reads one byte of every page of a NumPy array (mapped pages fault in)."""
    flat = np.asarray(array).reshape(-1).view(np.uint8)
    return int(flat[::PAGE].sum())


_buffers = {}


def read_into(path, view):
    """A plain loop of os.preadv, CHUNK bytes at a time, filling view with the file."""
    size = len(view)
    fd = os.open(path, os.O_RDONLY)
    try:
        done = 0
        while done < size:
            n = os.preadv(fd, [view[done:done + CHUNK]], done)
            if n <= 0:
                raise OSError(f"pread of {path} stopped at {done} of {size} bytes")
            done += n
    finally:
        os.close(fd)
    return view


def pread_loop(path):
    """The limit: the file's bytes read into a buffer allocated (and faulted
    in) once per file, outside the timing."""
    if path not in _buffers:
        _buffers[path] = memoryview(bytearray(os.path.getsize(path)))
    return read_into(path, _buffers[path])


def pread_loop_new_memory(path):
    """The pread loop into a buffer allocated for this load (its pages fault in
    as the reads fill them, as a load's new memory does)."""
    return read_into(path, memoryview(np.empty(os.path.getsize(path), dtype=np.uint8)))


class LoadOptions(ctypes.Structure):
    """tensor_load_options_t (include/ctensor.h)."""
    _fields_ = [("struct_size", ctypes.c_size_t), ("progress", ctypes.c_void_p), ("progress_user", ctypes.c_void_p),
                ("progress_min_bytes", ctypes.c_uint64), ("num_threads", ctypes.c_int32)]


class CopyLoads:
    """ctensor's copy-mode loads through the C API (the library the Python
    module loaded), on a given number of threads."""

    LOAD_COPY = 1

    def __init__(self):
        self.lib = ctypes.CDLL(os.environ.get("CTENSOR_LIB", "libctensor.so.0"))
        for name in ("tensor_load_npy_with", "tensor_safetensors_open_with"):
            getattr(self.lib, name).argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint32,
                                                ctypes.POINTER(LoadOptions)]
        self.lib.tensor_release.argtypes = [ctypes.c_void_p]
        self.lib.tensor_safetensors_release.argtypes = [ctypes.c_void_p]
        self.lib.tensor_last_error.restype = ctypes.c_char_p

    def _load(self, name, release, path, threads):
        options = LoadOptions(ctypes.sizeof(LoadOptions), None, None, 0, threads)
        out = ctypes.c_void_p()
        status = getattr(self.lib, name)(ctypes.byref(out), os.fsencode(path), self.LOAD_COPY, ctypes.byref(options))
        if status != 0:
            raise RuntimeError(self.lib.tensor_last_error().decode())
        release(out)

    def npy(self, path, threads):
        self._load("tensor_load_npy_with", self.lib.tensor_release, path, threads)

    def safetensors(self, path, threads):
        self._load("tensor_safetensors_open_with", self.lib.tensor_safetensors_release, path, threads)


def resident_fraction(path):
    """Fraction of the file's pages in the page cache (mincore of a private
    mapping, which faults nothing in), or None where that cannot be asked."""
    import ctypes

    size = os.path.getsize(path)
    pages = (size + PAGE - 1) // PAGE
    vec = (ctypes.c_ubyte * pages)()
    libc = ctypes.CDLL(None, use_errno=True)
    with open(path, "rb") as f:
        m = mmap.mmap(f.fileno(), size, access=mmap.ACCESS_COPY)
        buf = (ctypes.c_char * size).from_buffer(m)
        rc = libc.mincore(ctypes.c_void_p(ctypes.addressof(buf)), ctypes.c_size_t(size), vec)
        del buf
        m.close()
    return None if rc != 0 else sum(v & 1 for v in vec) / pages


class Dropper:
    def __init__(self, use_drop_caches):
        self.how = "posix_fadvise(POSIX_FADV_DONTNEED) per file after os.sync()"
        self.global_drop = False
        if use_drop_caches:
            if os.access("/proc/sys/vm/drop_caches", os.W_OK):
                self.how = "/proc/sys/vm/drop_caches (3) after os.sync()"
                self.global_drop = True
            else:
                self.how += " (--drop-caches asked, but /proc/sys/vm/drop_caches is not writable)"

    def drop(self, path):
        os.sync()
        if self.global_drop:
            with open("/proc/sys/vm/drop_caches", "w") as f:
                f.write("3\n")
            return
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def timed(fn):
    t0 = time.perf_counter()
    result = fn()
    elapsed = time.perf_counter() - t0
    del result
    return elapsed


def measure(fn, path, dropper, reps):
    """(cold median, warm median) seconds of fn over reps repetitions each."""
    cold = []
    for _ in range(reps):
        dropper.drop(path)
        cold.append(timed(fn))
    fn()  # warm the page cache
    warm = [timed(fn) for _ in range(reps)]
    return statistics.median(cold), statistics.median(warm)


def write_files(directory, total_bytes):
    per = total_bytes // COUNT // 4  # float32 elements per tensor
    rng = np.random.default_rng(0)
    block = rng.standard_normal(per, dtype=np.float32)
    arrays = {f"layer.{i:03d}.weight": block + np.float32(i) for i in range(COUNT)}
    st_path = os.path.join(directory, "model.safetensors")
    safetensors.numpy.save_file(arrays, st_path)
    npy_path = os.path.join(directory, "model.npy")
    flat = np.lib.format.open_memmap(npy_path, mode="w+", dtype=np.float32, shape=(per * COUNT,))
    for i, a in enumerate(arrays.values()):
        flat[i * per:(i + 1) * per] = a
    flat.flush()
    del flat
    pt_path = os.path.join(directory, "model.pt")
    torch.save({k: torch.from_numpy(v) for k, v in arrays.items()}, pt_path)
    del arrays
    # The same bytes as MANY tensors (views of the mapped .npy file: no copy in memory).
    pieces = np.array_split(np.load(npy_path, mmap_mode="r"), MANY)
    many_path = os.path.join(directory, "model-many.safetensors")
    safetensors.numpy.save_file({f"model.layers.{i:04d}.weight": p for i, p in enumerate(pieces)}, many_path)
    del pieces
    return st_path, npy_path, pt_path, many_path


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mib", type=int, default=2048, help="size of each file in MiB (default 2048)")
    parser.add_argument("--dir", default=os.path.join(ROOT, "bench"), help="where the temporary directory goes")
    parser.add_argument("--reps", type=int, default=5, help="repetitions, cold and warm (median)")
    parser.add_argument("--drop-caches", action="store_true",
                        help="drop the whole page cache (/proc/sys/vm/drop_caches) instead of each file's pages")
    args = parser.parse_args()

    dropper = Dropper(args.drop_caches)
    directory = tempfile.mkdtemp(prefix="bench-file-loads-", dir=args.dir)
    try:
        st_path, npy_path, pt_path, many_path = write_files(directory, args.mib << 20)
        first = "layer.000.weight"
        first_of_many = "model.layers.0000.weight"

        def ct_st_first():
            with ctensor.safe_open(st_path, framework="pt") as f:
                return f.get_tensor(first)

        def ct_many_first():
            with ctensor.safe_open(many_path, framework="pt") as f:
                return f.get_tensor(first_of_many)

        def sf_many_first():
            with safetensors.safe_open(many_path, framework="numpy") as f:
                return f.get_tensor(first_of_many)

        def ct_npy_first():
            return ctensor.load(npy_path, mmap_mode="r")

        def sf_first():
            with safetensors.safe_open(st_path, framework="numpy") as f:
                return f.get_tensor(first)

        def np_first():
            return np.load(npy_path, mmap_mode="r")

        def ct_st_full():
            tensors = ctensor.load_file(st_path)
            for t in tensors.values():
                touch(t.numpy())
            return tensors

        def ct_npy_full():
            return ctensor.load(npy_path)

        def sf_full():
            return safetensors.numpy.load_file(st_path)

        def np_mmap_full():
            a = np.load(npy_path, mmap_mode="r")
            touch(a)
            return a

        def np_full():
            return np.load(npy_path)

        def torch_full():
            return torch.load(pt_path)

        dropper.drop(st_path)
        resident = resident_fraction(st_path)
        print(f"files: {args.mib} MiB each ({COUNT} float32 tensors in safetensors and torch.save, {MANY} in a"
              " second safetensors file; one array in .npy)"
              f" in {directory}")
        print(f"cold: {dropper.how}; resident after a drop: "
              f"{'unknown' if resident is None else f'{100 * resident:.0f}%'}")
        c_loads = CopyLoads()
        threads = c_loads.lib.tensor_get_num_threads()
        print(f"median of {args.reps} repetitions each; load average {os.getloadavg()[0]:.1f} "
              f"on {os.cpu_count()} CPUs (take figures on a quiet machine); all threads = {threads}\n")

        # First tensors before any large buffer exists in this process: while the
        # kernel's khugepaged collapses a new multi-GiB buffer into huge pages it holds
        # the process's mmap lock, and every mmap() waits (measured: a warm open that
        # takes 20 us took 2.4 ms, 257 us, 89 us in the calls right after a 2 GiB read).
        print(f"{'first tensor (mapped)':44s} {'cold us':>10s} {'warm us':>10s}  target < 100 us")
        for name, fn, path in [
            ("ctensor safe_open(st).get_tensor", ct_st_first, st_path),
            (f"  the same bytes as {MANY} tensors", ct_many_first, many_path),
            ("ctensor load(npy, mmap_mode='r')", ct_npy_first, npy_path),
            ("safetensors safe_open(numpy).get_tensor", sf_first, st_path),
            (f"  the same bytes as {MANY} tensors", sf_many_first, many_path),
            ("np.load(npy, mmap_mode='r')", np_first, npy_path),
        ]:
            cold, warm = measure(fn, path, dropper, args.reps)
            marks = ["!" if v > 100e-6 else " " for v in (cold, warm)]
            print(f"{name:44s} {1e6 * cold:9.1f}{marks[0]} {1e6 * warm:9.1f}{marks[1]}")

        for p in (st_path, npy_path, pt_path):
            pread_loop(p)  # allocates its buffer
        limits = {p: measure(lambda p=p: pread_loop(p), p, dropper, args.reps) for p in (st_path, npy_path, pt_path)}
        print(f"\n{'full load':44s} {'cold ms':>9s} {'x pread':>8s} {'warm ms':>9s} {'x pread':>8s}"
              "  (x: time over the pread loop of the same file)")
        for name, fn, path in [
            ("pread loop of the safetensors file (limit)", lambda: pread_loop(st_path), st_path),
            ("  the same into new memory", lambda: pread_loop_new_memory(st_path), st_path),
            ("ctensor C open(st, COPY), 1 thread", lambda: c_loads.safetensors(st_path, 1), st_path),
            (f"ctensor C open(st, COPY), {threads} threads", lambda: c_loads.safetensors(st_path, 0), st_path),
            ("ctensor load_file(st) + touch every page", ct_st_full, st_path),
            ("safetensors.numpy.load_file", sf_full, st_path),
            ("pread loop of the .npy file (limit)", lambda: pread_loop(npy_path), npy_path),
            ("  the same into new memory", lambda: pread_loop_new_memory(npy_path), npy_path),
            ("ctensor C load_npy(COPY), 1 thread", lambda: c_loads.npy(npy_path, 1), npy_path),
            (f"ctensor C load_npy(COPY), {threads} threads", lambda: c_loads.npy(npy_path, 0), npy_path),
            ("ctensor load(npy) (copy mode)", ct_npy_full, npy_path),
            ("np.load(npy, mmap_mode='r') + touch", np_mmap_full, npy_path),
            ("np.load(npy)", np_full, npy_path),
            ("pread loop of the torch.save file (limit)", lambda: pread_loop(pt_path), pt_path),
            ("torch.load", torch_full, pt_path),
        ]:
            cold, warm = measure(fn, path, dropper, args.reps)
            lc, lw = limits[path]
            print(f"{name:44s} {1e3 * cold:9.1f} {cold / lc:8.2f} {1e3 * warm:9.1f} {warm / lw:8.2f}")
        print("\ntarget: ctensor's copy-mode load >= 0.9x the pread loop's speed (x <= 1.11)")
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
