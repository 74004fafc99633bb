#!/usr/bin/python3
"""Math side by side: NumPy, PyTorch and ctensor (its Python binding, and the C
API through ctypes) on float32 element-wise adds and sums, timed round-robin in
one process; prints median milliseconds and each library's time divided by
ctensor's (> 1: ctensor is faster), and the overhead of `a + b` on
1-element tensors.

usage: /usr/bin/python3 bench/compare_math.py [--build build-bench] [--threads 1] [--reps 9] [--only sum]
                                            [--chart docs/performance_math.png]
(--threads 0: each library's default thread count; --chart needs python3-matplotlib)
"""
import argparse
import ctypes
import os
import sys
import timeit

# PyTorch's OpenMP workers otherwise spin for milliseconds after each parallel
# op, holding a core that ctensor's next op would use (its 2-thread sums then
# measured slower than its 1-thread ones); passive waiting leaves PyTorch's own
# times as they were. Set before torch loads; a value in the environment wins.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np
import torch

from pybench import find_build, medians

N = 4096


def chart(rows, path, threads):
    """Grouped bars of each case's medians (NumPy, PyTorch, ctensor), log scale."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(11, 4.5))
    width = 0.27
    for k, label in enumerate(["NumPy", "PyTorch", "ctensor"]):
        ax.bar([i + (k - 1) * width for i in range(len(rows))], [1e3 * m[k] for _, m in rows], width, label=label)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([name.split(" [")[0].replace(" (C API)", "").replace("16Mi ", "") for name, _ in rows],
                       fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel("median ms (log scale, lower is better)")
    ax.set_title(f"float32 math, [4096,4096] or 16 Mi elements: NumPy {np.__version__}, "
                 f"PyTorch {torch.__version__}, ctensor; {threads}", fontsize=9)
    ax.legend(fontsize=8)
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--only", help="run only the cases whose name contains this")
    ap.add_argument("--chart", help="also draw the medians as a bar chart into this PNG")
    args = ap.parse_args()
    build = find_build(args.build)
    sys.path.insert(0, str(build / "bindings" / "python"))
    import ctensor

    lib = ctypes.CDLL(str(build / "src" / "libctensor.so"))  # the binding's library: same handle
    P, PP = ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)
    lib.tensor_add.argtypes, lib.tensor_add.restype = [PP, P, P], ctypes.c_int32
    lib.tensor_binary_into.argtypes, lib.tensor_binary_into.restype = [P, ctypes.c_int32, P, P], ctypes.c_int32
    lib.tensor_release.argtypes = [P]
    lib.tensor_set_num_threads.argtypes = [ctypes.c_int32]
    if args.threads > 0:
        lib.tensor_set_num_threads(args.threads)
        torch.set_num_threads(args.threads)
    threads = f"{lib.tensor_get_num_threads()} thread(s) for ctensor, {torch.get_num_threads()} for PyTorch"

    rng = np.random.default_rng(0)
    x = rng.random((N, N), dtype=np.float32)
    y = rng.random((N, N), dtype=np.float32)
    z = np.empty_like(x)
    col, row = rng.random((N, 1), dtype=np.float32), rng.random((1, N), dtype=np.float32)
    tx, ty, tz, tcol, trow = (torch.from_numpy(v) for v in (x, y, z, col, row))
    cx, cy, cz, ccol, crow = (ctensor.from_numpy(v) for v in (x, y, z, col, row))
    def handle(t):
        """The tensor_t* inside a ctensor.Tensor (the field after PyObject_HEAD)."""
        return ctypes.c_void_p(ctypes.c_void_p.from_address(id(t) + object.__basicsize__).value)

    def c_add(a, b):
        def run():
            out = ctypes.c_void_p()
            lib.tensor_add(ctypes.byref(out), handle(a), handle(b))
            lib.tensor_release(out)
        return run

    cyt, tyt, yt = cy.t(), ty.t(), y.T
    cases = [
        ("add 16Mi (new result)", lambda: x + y, lambda: tx + ty, lambda: cx + cy, c_add(cx, cy)),
        ("add 16Mi into existing (C API)", lambda: np.add(x, y, out=z), lambda: torch.add(tx, ty, out=tz),
         lambda: lib.tensor_binary_into(handle(cz), 0, handle(cx), handle(cy)), None),
        ("broadcast [4096,1] + [1,4096]", lambda: col + row, lambda: tcol + trow, lambda: ccol + crow, c_add(ccol, crow)),
        ("a + b.t() [4096,4096]", lambda: x + yt, lambda: tx + tyt, lambda: cx + cyt, c_add(cx, cyt)),
        ("sum over dim 0", lambda: x.sum(0), lambda: tx.sum(0), lambda: cx.sum(0), None),
        ("sum over dim 1", lambda: x.sum(1), lambda: tx.sum(1), lambda: cx.sum(1), None),
        ("sum over all", lambda: x.sum(), lambda: tx.sum(), lambda: cx.sum(), None),
    ]
    print(f"median ms over {args.reps} round-robin runs, {threads}; x = library / ctensor (Python)")
    print(f"{'case':32} {'numpy':>8} {'torch':>8} {'ctensor':>8} {'C API':>8} {'np x':>6} {'torch x':>7} {'py/C':>5}")
    rows = []
    for name, fn_np, fn_torch, fn_ct, fn_c in cases:
        if args.only and args.only not in name:
            continue
        # PyTorch first in each round, NumPy (one thread) after it: whatever
        # PyTorch's threads still do after an op costs ctensor nothing.
        fns = [fn_torch, fn_np, fn_ct] + ([fn_c] if fn_c else [])
        m = medians(fns, args.reps)
        m[0], m[1] = m[1], m[0]  # numpy, torch, ctensor, C API
        c_ms = f"{1e3 * m[3]:8.2f}" if fn_c else f"{'':8}"
        py_c = f"{m[2] / m[3]:5.2f}" if fn_c else ""
        print(f"{name:32} {1e3 * m[0]:8.2f} {1e3 * m[1]:8.2f} {1e3 * m[2]:8.2f} {c_ms} {m[0] / m[2]:6.2f} "
              f"{m[1] / m[2]:7.2f} {py_c}")
        rows.append((name, m[:3]))
    if args.chart:
        chart(rows, args.chart, threads)
        print(f"chart: {args.chart}")

    if args.only:
        return
    a, b = ctensor.tensor([1.0]), ctensor.tensor([2.0])
    ta, tb = torch.tensor([1.0]), torch.tensor([2.0])
    na, nb = np.array([1.0], np.float32), np.array([2.0], np.float32)
    print("\n`a + b` on 1-element float32 tensors, ns per op (best of 5 x 100000)")
    for name, f in [("numpy", lambda: na + nb), ("torch", lambda: ta + tb), ("ctensor", lambda: a + b),
                    ("ctensor a + 1", lambda: a + 1)]:
        print(f"{name:16} {min(timeit.repeat(f, number=100000, repeat=5)) / 100000 * 1e9:8.0f}")


if __name__ == "__main__":
    main()
