"""The unary family on 16Mi float32 elements, measured in one run (round-robin
medians, wall time and CPU time):
  - cheap ops (neg, abs, relu, floor, square) into an existing tensor, over a
    copy of the same traffic (tensor_copy: read 64 MiB, write 64 MiB), at 1
    thread and at every thread (target: <= 1.15x);
  - exp, log, tanh, sigmoid, gelu into an existing tensor against PyTorch and
    NumPy at 1 thread (target: faster than both);
  - binary ops on reversed operands (a[::-1] + b[::-1]) over the same ops on
    forward ones, into an existing tensor (target: <= 1.1x);
  - mixed-dtype adds (float32 + float16, int32 + float64) into an existing
    tensor at 1 thread: against PyTorch, and against the whole-copy path the
    library took before its iterator converted through buffers (the other
    operand converted whole by tensor_to, then added), with the bytes each moves.
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
    lib.tensor_binary_into.argtypes, lib.tensor_binary_into.restype = [P, ctypes.c_int32, P, P], ctypes.c_int32
    lib.tensor_to.argtypes, lib.tensor_to.restype = [ctypes.POINTER(P), P, ctypes.c_int32, ctypes.c_int32], ctypes.c_int32
    lib.tensor_as_strided.argtypes = [ctypes.POINTER(P), P, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64),
                                      ctypes.POINTER(ctypes.c_int64), ctypes.c_int64]
    lib.tensor_as_strided.restype = ctypes.c_int32
    lib.tensor_release.argtypes, lib.tensor_release.restype = [P], None
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
        cheap = [(name, lambda fn=getattr(ctensor, name): fn(cx, out=cz))
                 for name in ("neg", "abs", "relu", "floor", "square")]
        cheap.append(("clamp", lambda: ctensor.clamp(cx, -1.0, 1.0, out=cz)))  # number bounds
        for name, fn in cheap:
            (cw, cc), (ow, oc) = timed([copy, fn], args.reps)
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

    def reversed_view(t):
        """t[::-1] (1-D) through the C API."""
        out = P()
        if lib.tensor_as_strided(ctypes.byref(out), t, 1, (ctypes.c_int64 * 1)(N), (ctypes.c_int64 * 1)(-1), N - 1):
            raise SystemExit("tensor_as_strided failed")
        return out

    def into(op, dst, a, b):
        return lambda: lib.tensor_binary_into(dst, op, a, b)

    y = (rng.standard_normal(N) * 3).astype(np.float32)
    cy = ctensor.from_numpy(y)
    hy = handle(cy)
    rx, ry = reversed_view(hx), reversed_view(hy)
    lines = []
    for threads in (1, os.cpu_count()):
        lib.tensor_set_num_threads(threads)
        for name, op in (("add", 0), ("mul", 2), ("maximum", 5)):
            (fw, fc), (rw, rc) = timed([into(op, hz, hx, hy), into(op, hz, rx, ry)], args.reps)
            lines.append([f"{name}: a[::-1], b[::-1] / a, b", str(threads), f"{1e3 * rw:.2f}", f"{1e3 * fw:.2f}",
                          f"{rw / fw:.2f}", f"{rc / fc:.2f}" if fc > 0 else "-"])
    for t in (rx, ry):
        lib.tensor_release(t)
    print()
    print_table(["reversed operands", "threads", "reversed ms", "forward ms", "wall x", "CPU x"], lines, args.markdown)

    # Mixed dtypes at 1 thread. Bytes per element moved through memory: the
    # buffered add reads both operands and writes the result; the whole-copy
    # path also wrote the converted operand and read it back.
    lib.tensor_set_num_threads(1)
    h16 = rng.standard_normal(N).astype(np.float16)
    i32 = rng.integers(-1000, 1000, N).astype(np.int32)
    f64 = rng.standard_normal(N)
    z64 = np.empty(N)
    c16, ci32, cf64, cz64 = (ctensor.from_numpy(v) for v in (h16, i32, f64, z64))
    t16, ti32, tf64, tz64 = (torch.from_numpy(v) for v in (h16, i32, f64, z64))

    def whole_copy(dst, a, b, dtype):
        def run():
            tmp = P()
            lib.tensor_to(ctypes.byref(tmp), b, dtype, 1)  # TENSOR_COPY_ALWAYS
            lib.tensor_binary_into(dst, 0, a, tmp)
            lib.tensor_release(tmp)
        return run

    cases = [("float32 + float16", (4, 2, 4, 4), tx, t16, tz, hz, hx, handle(c16), 6),
             ("int32 + float64", (4, 8, 8, 8), ti32, tf64, tz64, handle(cz64), handle(ci32), handle(cf64), 7)]
    lines = []
    for name, (sa, sb, so, sc), ta_, tb_, to_, dst, a, b, common in cases:
        # The whole copy converts the operand of the other dtype to the common one.
        conv_a, conv_b = (a, b) if sb != sc else (b, a)
        buffered_bytes = N * (sa + sb + so)
        copy_bytes = buffered_bytes + N * 2 * sc
        (tw, tc), (bw, bc), (ww, wc) = timed(
            [lambda: torch.add(ta_, tb_, out=to_), into(0, dst, a, b), whole_copy(dst, conv_a, conv_b, common)],
            args.reps)
        lines.append([name, f"{buffered_bytes >> 20}", f"{copy_bytes >> 20}", f"{1e3 * tw:.2f}", f"{1e3 * bw:.2f}",
                      f"{1e3 * ww:.2f}", f"{tw / bw:.2f}", f"{tc / bc:.2f}" if bc > 0 else "-", f"{ww / bw:.2f}",
                      f"{wc / bc:.2f}" if bc > 0 else "-"])
    print()
    print_table(["mixed add, 1 thread", "buffered MiB", "whole-copy MiB", "PyTorch ms", "buffered ms",
                 "whole-copy ms", "PyTorch / buffered", "CPU", "whole-copy / buffered", "CPU"], lines, args.markdown)


if __name__ == "__main__":
    main()
