#!/usr/bin/python3
"""Advanced indexing side by side: NumPy, PyTorch and ctensor (its Python
binding, and tensor_index_gather through ctypes) gathering with random integer
index tensors, a boolean mask and a put, timed round-robin in one process;
prints median milliseconds and each library's time divided by ctensor's
(> 1: ctensor is faster).

usage: /usr/bin/python3 bench/compare_gather.py [--build build-rel] [--threads 1] [--reps 9] [--markdown]
"""
import argparse
import ctypes
import sys

import numpy as np
import torch

from pybench import find_build, medians, print_table


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    build = find_build(args.build)
    sys.path.insert(0, str(build / "bindings" / "python"))
    import ctensor

    lib = ctypes.CDLL(str(build / "src" / "libctensor.so"))  # the binding's library: same handle
    P, PP = ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p)
    lib.tensor_index_gather.argtypes = [PP, P, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64), PP]
    lib.tensor_index_gather.restype = ctypes.c_int32
    lib.tensor_release.argtypes = [P]
    lib.tensor_set_num_threads.argtypes = [ctypes.c_int32]
    lib.tensor_set_num_threads(args.threads)
    torch.set_num_threads(args.threads)

    def handle(t):
        """The tensor_t* inside a ctensor.Tensor (the field after PyObject_HEAD)."""
        return ctypes.c_void_p.from_address(id(t) + object.__basicsize__).value

    def c_gather(a, index):
        dims, indices = (ctypes.c_int64 * 1)(0), (ctypes.c_void_p * 1)(handle(index))
        src = handle(a)

        def run():
            out = ctypes.c_void_p()
            if lib.tensor_index_gather(ctypes.byref(out), src, 1, dims, indices) != 0:
                raise RuntimeError("tensor_index_gather failed")
            lib.tensor_release(out)
        return run

    rng = np.random.default_rng(0)
    n = 1_000_000
    flat = rng.random(n, dtype=np.float32)
    idx = rng.integers(0, n, n)
    big = rng.random(1 << 24, dtype=np.float32)
    big_idx = rng.integers(0, 1 << 24, n)
    rows = rng.random((100_000, 64), dtype=np.float32)
    row_idx = rng.integers(0, 100_000, 100_000)
    wide = rng.random((2000, 2000), dtype=np.float32)
    col_idx = rng.integers(0, 2000, 500)
    mask = flat > 0.5
    values = rng.random(n, dtype=np.float32)
    t = {k: torch.from_numpy(v) for k, v in dict(flat=flat, idx=idx, big=big, big_idx=big_idx, rows=rows,
                                                  row_idx=row_idx, wide=wide, col_idx=col_idx, mask=mask,
                                                  values=values).items()}
    c = {k: ctensor.from_numpy(v.numpy()) for k, v in t.items()}
    flat_np, flat_t, flat_c = flat.copy(), t["flat"].clone(), ctensor.from_numpy(flat.copy())

    def put_np():
        flat_np[idx] = values

    def put_t():
        flat_t[t["idx"]] = t["values"]

    def put_c():
        flat_c[c["idx"]] = c["values"]

    cases = [
        ("a[idx], 10^6 of 10^6 float32 (4 MB)", lambda: flat[idx], lambda: t["flat"][t["idx"]],
         lambda: c["flat"][c["idx"]], c_gather(c["flat"], c["idx"])),
        ("a[idx], 10^6 of 16Mi float32 (64 MB)", lambda: big[big_idx], lambda: t["big"][t["big_idx"]],
         lambda: c["big"][c["big_idx"]], c_gather(c["big"], c["big_idx"])),
        ("a[idx] rows, 10^5 of (10^5, 64) float32", lambda: rows[row_idx], lambda: t["rows"][t["row_idx"]],
         lambda: c["rows"][c["row_idx"]], c_gather(c["rows"], c["row_idx"])),
        ("a[:, idx], 500 columns of (2000, 2000)", lambda: wide[:, col_idx], lambda: t["wide"][:, t["col_idx"]],
         lambda: c["wide"][:, c["col_idx"]], None),
        ("a[mask], 10^6 float32, half true", lambda: flat[mask], lambda: t["flat"][t["mask"]],
         lambda: c["flat"][c["mask"]], None),
        ("a[idx] = v, 10^6 of 10^6 float32", put_np, put_t, put_c, None),
    ]
    header = ["case", "numpy ms", "torch ms", "ctensor ms", "C API ms", "np x", "torch x"]
    lines = []
    for name, fn_np, fn_torch, fn_ct, fn_c in cases:
        fns = [fn_np, fn_torch, fn_ct] + ([fn_c] if fn_c else [])
        m = medians(fns, args.reps)
        lines.append([name, f"{1e3 * m[0]:.2f}", f"{1e3 * m[1]:.2f}", f"{1e3 * m[2]:.2f}",
                      f"{1e3 * m[3]:.2f}" if fn_c else "", f"{m[0] / m[2]:.2f}", f"{m[1] / m[2]:.2f}"])
    print(f"median ms over {args.reps} round-robin runs, {args.threads} thread(s) for PyTorch and ctensor; "
          "x = library / ctensor (Python)")
    print_table(header, lines, args.markdown)


if __name__ == "__main__":
    main()
