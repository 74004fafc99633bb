"""The unary family on 16Mi float32 elements, measured in one run (round-robin
medians, wall time and CPU time):
  - cheap ops (neg, abs, relu, floor, square) into an existing tensor, over a
    copy of the same traffic (tensor_copy: read 64 MiB, write 64 MiB), at 1
    thread and at every thread (target: <= 1.15x);
  - exp, log, tanh, sigmoid, gelu into an existing tensor against PyTorch and
    NumPy at 1 thread (target: faster than both).
Usage: python3 bench/bench_unary.py [--build DIR] [--reps N] [--markdown]"""
import argparse
import ctypes
import os
import statistics
import sys
import time

import numpy as np
import torch

from pybench import find_build, print_table

N = 16 << 20


def timed(fns, reps):
    """(median wall s, median CPU s of this process) of each function, round-robin after a warm-up."""
    for f in fns:
        f()
    wall, cpu = [[] for _ in fns], [[] for _ in fns]
    for _ in range(reps):
        for i, f in enumerate(fns):
            c0, t0 = time.process_time(), time.perf_counter()
            f()
            wall[i].append(time.perf_counter() - t0)
            cpu[i].append(time.process_time() - c0)
    return [(statistics.median(w), statistics.median(c)) for w, c in zip(wall, cpu)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build")
    ap.add_argument("--reps", type=int, default=11)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    build = find_build(args.build)
    sys.path.insert(0, str(build / "bindings" / "python"))
    import ctensor

    lib = ctypes.CDLL(str(build / "src" / "libctensor.so"))  # the binding's library: same handle
    P = ctypes.c_void_p
    lib.tensor_copy.argtypes, lib.tensor_copy.restype = [P, P], ctypes.c_int32
    lib.tensor_set_num_threads.argtypes = [ctypes.c_int32]

    def handle(t):
        """The tensor_t* inside a ctensor.Tensor (the field after PyObject_HEAD)."""
        return ctypes.c_void_p(ctypes.c_void_p.from_address(id(t) + object.__basicsize__).value)

    rng = np.random.default_rng(0)
    x = (rng.standard_normal(N) * 3).astype(np.float32)
    pos = np.abs(x) + np.float32(0.01)
    z = np.empty_like(x)
    cx, cpos, cz = ctensor.from_numpy(x), ctensor.from_numpy(pos), ctensor.from_numpy(z)
    tx, tpos, tz = torch.from_numpy(x), torch.from_numpy(pos), torch.from_numpy(z)
    hx, hz = handle(cx), handle(cz)

    def copy():
        lib.tensor_copy(hz, hx)

    print(f"16Mi float32; medians of {args.reps} round-robin runs; ctensor {build.name}, PyTorch {torch.__version__}, "
          f"NumPy {np.__version__}; {os.cpu_count()} CPUs (a shared machine: CPU time is the steadier figure)")
    lines = []
    for threads in (1, os.cpu_count()):
        lib.tensor_set_num_threads(threads)
        for name in ("neg", "abs", "relu", "floor", "square"):
            fn = getattr(ctensor, name)
            (cw, cc), (ow, oc) = timed([copy, lambda: fn(cx, out=cz)], args.reps)
            lines.append([f"{name} / copy", str(threads), f"{1e3 * ow:.2f}", f"{1e3 * cw:.2f}", f"{ow / cw:.2f}",
                          f"{oc / cc:.2f}" if cc > 0 else "-"])
    print_table(["cheap op", "threads", "op ms", "copy ms", "wall x", "CPU x"], lines, args.markdown)

    lib.tensor_set_num_threads(1)
    torch.set_num_threads(1)
    gelu = torch.nn.functional.gelu
    cases = [
        ("exp", lambda: np.exp(x, out=z), lambda: torch.exp(tx, out=tz), lambda: ctensor.exp(cx, out=cz)),
        ("log", lambda: np.log(pos, out=z), lambda: torch.log(tpos, out=tz), lambda: ctensor.log(cpos, out=cz)),
        ("tanh", lambda: np.tanh(x, out=z), lambda: torch.tanh(tx, out=tz), lambda: ctensor.tanh(cx, out=cz)),
        ("sigmoid", lambda: np.divide(1, 1 + np.exp(-x), out=z), lambda: torch.sigmoid(tx, out=tz),
         lambda: ctensor.sigmoid(cx, out=cz)),
        # torch.nn.functional.gelu has no out=: a new result for PyTorch (and NumPy's formula)
        ("gelu", None, lambda: gelu(tx), lambda: ctensor.gelu(cx, out=cz)),
    ]
    lines = []
    for name, f_np, f_torch, f_ct in cases:
        fns = [f_torch, f_ct] + ([f_np] if f_np else [])
        m = timed(fns, args.reps)
        (tw, tc), (cw, cc) = m[0], m[1]
        nw = m[2][0] if f_np else float("nan")
        lines.append([name, f"{1e3 * nw:.2f}" if f_np else "-", f"{1e3 * tw:.2f}", f"{1e3 * cw:.2f}",
                      f"{nw / cw:.2f}" if f_np else "-", f"{tw / cw:.2f}", f"{tc / cc:.2f}" if cc > 0 else "-"])
    print()
    print_table(["1 thread", "NumPy ms", "PyTorch ms", "ctensor ms", "NumPy / ctensor", "PyTorch / ctensor",
                 "PyTorch / ctensor CPU"], lines, args.markdown)


if __name__ == "__main__":
    main()
