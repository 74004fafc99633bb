#!/usr/bin/python3
"""Two builds of the library in one process, on the math cases of
compare_math.py: each round runs PyTorch, NumPy, build A and build B (through
the C API, ctypes) on the same buffers, so that all four share the machine's
conditions; on a busy machine this tells two builds apart where separate runs
cannot. Prints median milliseconds, B/A (the median of the per-round ratios;
below 1: B is faster) and PyTorch's and NumPy's time over B's.

usage: /usr/bin/python3 bench/ab_math.py LIB_A LIB_B [--threads 1] [--reps 21] [--offset 0]
  e.g. bench/ab_math.py old/libctensor.so.0 build-bench/src/libctensor.so.0 --threads 2
--offset N places every array N float32 elements past a 64-byte boundary
(NumPy's own large arrays usually sit 16 bytes past one).
"""
import argparse
import ctypes
import os
import statistics

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # as in compare_math.py

import numpy as np
import torch

from pybench import round_robin

N = 4096
FLOAT32, OP_ADD = 6, 0


def aligned(values, offset):
    """A copy of `values` starting `offset` elements past a 64-byte boundary."""
    buf = np.empty(values.size + 32, np.float32)
    k = (-buf.ctypes.data % 64) // 4 + offset
    out = buf[k:k + values.size].reshape(values.shape)
    out[...] = values
    return out


class Build:
    """One build's C API over the benchmark's arrays."""

    def __init__(self, path, threads):
        self.lib = ctypes.CDLL(os.path.abspath(path))
        if self.lib.tensor_set_num_threads(threads) != 0:
            raise SystemExit(f"{path}: tensor_set_num_threads({threads}) failed")
        self.tensors = []

    def wrap(self, a):
        t = ctypes.c_void_p()
        sizes = (ctypes.c_int64 * a.ndim)(*a.shape)
        if self.lib.tensor_from_blob(ctypes.byref(t), ctypes.c_void_p(a.ctypes.data), FLOAT32, a.ndim, sizes,
                                     None, 0, None, None) != 0:
            raise SystemExit("tensor_from_blob failed")
        self.tensors.append(t)
        return t

    def transposed(self, t):
        out = ctypes.c_void_p()
        self.lib.tensor_transpose(ctypes.byref(out), t, 0, 1)
        self.tensors.append(out)
        return out

    def new_result(self, fn, *args):
        def run():
            out = ctypes.c_void_p()
            if fn(ctypes.byref(out), *args) != 0:
                raise SystemExit("op failed")
            self.lib.tensor_release(out)
        return run

    def cases(self, x, y, z, col, row):
        lib = self.lib
        cx, cy, cz, cc, cr = (self.wrap(a) for a in (x, y, z, col, row))
        cyt = self.transposed(cy)
        dim0, dim1 = (ctypes.c_int64 * 1)(0), (ctypes.c_int64 * 1)(1)
        return [lambda: lib.tensor_binary_into(cz, OP_ADD, cx, cy), self.new_result(lib.tensor_add, cx, cy),
                self.new_result(lib.tensor_add, cc, cr), self.new_result(lib.tensor_add, cx, cyt),
                self.new_result(lib.tensor_sum, cx, 1, dim0, 0), self.new_result(lib.tensor_sum, cx, 1, dim1, 0),
                self.new_result(lib.tensor_sum, cx, 0, None, 0), lambda: lib.tensor_copy(cz, cx)]

    def close(self):
        for t in self.tensors:
            self.lib.tensor_release(t)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lib_a")
    ap.add_argument("lib_b")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--offset", type=int, default=0)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(0)
    x, y, z = (aligned(rng.random((N, N), dtype=np.float32), args.offset) for _ in range(3))
    col, row = (aligned(rng.random(shape, dtype=np.float32), args.offset) for shape in ((N, 1), (1, N)))
    tx, ty, tz, tc, tr = (torch.from_numpy(a) for a in (x, y, z, col, row))
    reference = [  # (name, NumPy, PyTorch)
        ("add into existing", lambda: np.add(x, y, out=z), lambda: torch.add(tx, ty, out=tz)),
        ("add, new result", lambda: x + y, lambda: tx + ty),
        ("broadcast [4096,1]+[1,4096]", lambda: col + row, lambda: tc + tr),
        ("a + b.t()", lambda: x + y.T, lambda: tx + ty.t()),
        ("sum over dim 0", lambda: x.sum(0), lambda: tx.sum(0)),
        ("sum over dim 1", lambda: x.sum(1), lambda: tx.sum(1)),
        ("sum over all", lambda: x.sum(), lambda: tx.sum()),
        ("copy into existing", lambda: np.copyto(z, x), lambda: tz.copy_(tx)),
    ]
    a, b = Build(args.lib_a, args.threads), Build(args.lib_b, args.threads)
    print(f"{args.threads} thread(s), arrays {args.offset} elements past a 64-byte boundary; "
          f"median ms of {args.reps} round-robin rounds")
    print(f"{'case':28} {'numpy':>8} {'torch':>8} {'A':>8} {'B':>8} {'B/A':>6} {'torch/B':>8} {'np/B':>6}")
    for (name, fn_np, fn_torch), fn_a, fn_b in zip(reference, a.cases(x, y, z, col, row),
                                                   b.cases(x, y, z, col, row)):
        # PyTorch first, then NumPy (one thread): what PyTorch's threads do
        # after an op costs the builds nothing.
        t = round_robin([fn_torch, fn_np, fn_a, fn_b], args.reps)
        m = [1e3 * statistics.median(v) for v in t]
        b_over_a = statistics.median(tb / ta for ta, tb in zip(t[2], t[3]))
        print(f"{name:28} {m[1]:8.2f} {m[0]:8.2f} {m[2]:8.2f} {m[3]:8.2f} {b_over_a:6.2f} {m[0] / m[3]:8.2f} "
              f"{m[1] / m[3]:6.2f}")
    a.close()
    b.close()


if __name__ == "__main__":
    main()
