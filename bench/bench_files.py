"""Loading a safetensors file of 100 float32 tensors (1 GiB by default), measured
in one run side by side:

  first tensor  open the file and get the first tensor (a fresh open each time)
  full read     open, get every tensor and read all its bytes (copied into a
                reused buffer, the same way for every reader)

for ctensor.safe_open (framework "numpy" and "pt"), safetensors.safe_open
(framework "numpy"), np.load(mmap_mode="r") of the same data as 100 .npy files,
and, as the floor, np.memmap of the raw file (reading the mapped pages).
The files are in the page cache (written just before), so "full read" measures
mapping, page faults and memory bandwidth, not the disk.

usage: build-test/venv-safetensors/bin/python bench/bench_files.py [--gib G] [--dir DIR]
(with the build's bindings/python on PYTHONPATH, or CTENSOR_PYTHON_BUILD set.)
The files are deleted afterwards.
"""
import argparse
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

import ctensor  # noqa: E402

COUNT = 100


def median_time(fn, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gib", type=float, default=1.0)
    ap.add_argument("--dir", default=None, help="where to write the files (default: a temporary directory)")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    cols = 1024
    rows = int(args.gib * 2**30 / COUNT / 4 / cols)
    names = [f"layer{i:03d}.weight" for i in range(COUNT)]
    work = tempfile.mkdtemp(prefix="ctensor-bench-files-", dir=args.dir)
    try:
        st_path = os.path.join(work, "model.safetensors")
        rng = np.random.default_rng(0)
        arrays = {n: rng.standard_normal((rows, cols), dtype=np.float32) for n in names}
        safetensors.numpy.save_file(arrays, st_path)
        for n, a in arrays.items():
            np.save(os.path.join(work, n + ".npy"), a)
        del arrays
        total = os.path.getsize(st_path)
        first = sorted(names)[0]
        buffer = np.empty((rows, cols), np.float32)

        def ct_first(framework):
            with ctensor.safe_open(st_path, framework=framework) as f:
                return f.get_tensor(first)

        def ct_full(framework):
            with ctensor.safe_open(st_path, framework=framework) as f:
                for n in f.keys():
                    t = f.get_tensor(n)
                    np.copyto(buffer, t if framework == "numpy" else t.numpy())

        def ref_first():
            with safetensors.safe_open(st_path, framework="numpy") as f:
                return f.get_tensor(first)

        def ref_full():
            with safetensors.safe_open(st_path, framework="numpy") as f:
                for n in f.keys():
                    np.copyto(buffer, f.get_tensor(n))

        def npy_first():
            return np.load(os.path.join(work, first + ".npy"), mmap_mode="r")

        def npy_full():
            for n in sorted(names):
                np.copyto(buffer, np.load(os.path.join(work, n + ".npy"), mmap_mode="r"))

        header = total - COUNT * rows * cols * 4

        def raw_full():
            m = np.memmap(st_path, dtype=np.uint8, mode="r")
            flat = buffer.reshape(-1).view(np.uint8)
            step = rows * cols * 4
            for i in range(COUNT):
                np.copyto(flat, m[header + i * step: header + (i + 1) * step])
            del m

        readers = [
            ("ctensor.safe_open numpy", lambda: ct_first("numpy"), lambda: ct_full("numpy")),
            ("ctensor.safe_open pt", lambda: ct_first("pt"), lambda: ct_full("pt")),
            ("safetensors.safe_open numpy", ref_first, ref_full),
            ("np.load(mmap_mode='r') .npy", npy_first, npy_full),
            ("np.memmap raw (floor)", None, raw_full),
        ]
        raw_full()  # everything in the page cache before timing
        results = []
        for name, first_fn, full_fn in readers:
            t_first = median_time(first_fn, args.repeat * 20) if first_fn else None
            t_full = median_time(full_fn, args.repeat)
            results.append((name, t_first, t_full))
        floor = results[-1][2]
        print(f"{COUNT} float32 tensors of {rows} x {cols}, {total / 2**30:.2f} GiB, page cache warm; "
              f"median of {args.repeat} (first tensor: {args.repeat * 20})")
        print(f"{'reader':32} {'first tensor':>14} {'full read':>11} {'GB/s':>7} {'vs floor':>9}")
        for name, t_first, t_full in results:
            first_txt = f"{t_first * 1e6:10.1f} us" if t_first is not None else f"{'-':>13}"
            print(f"{name:32} {first_txt:>14} {t_full:9.3f} s {total / t_full / 1e9:7.2f} {t_full / floor:8.2f}x")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
