#!/usr/bin/python3
"""Copy engine side by side: NumPy, PyTorch and ctensor on the copy cases a-g.

Runs every case through the three libraries in one process, round-robin with a
memcpy of the same traffic, and prints median milliseconds and ratios; writes a
chart (PNG) and, with --markdown, the table in Markdown.

usage: /usr/bin/python3 bench/compare.py [--lib build/src/libctensor.so]
           [--threads 1] [--reps 7] [--chart docs/performance.png] [--markdown]
"""
import argparse
import ctypes
import pathlib
import statistics
import sys
import time

import numpy as np
import torch

ROOT = pathlib.Path(__file__).resolve().parents[1]
MI = 1 << 20

TENSOR_INT32, TENSOR_FLOAT16, TENSOR_FLOAT32, TENSOR_FLOAT64, TENSOR_BFLOAT16 = 3, 5, 6, 7, 15
CT_DTYPES = {np.dtype(np.int32): TENSOR_INT32, np.dtype(np.float32): TENSOR_FLOAT32}


def load_library(path):
    if path is None:
        for build in ("build-bench", "build", "build-test"):
            candidate = ROOT / build / "src" / "libctensor.so"
            if candidate.exists():
                path = candidate
                break
        else:
            raise SystemExit("libctensor.so not found: build it (meson setup build -Dbench=true) or pass --lib")
    lib = ctypes.CDLL(str(path))
    P, PP, i32, i64 = ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p), ctypes.c_int32, ctypes.c_int64
    I64P = ctypes.POINTER(ctypes.c_int64)
    for name, res, args in [
        ("tensor_from_buffer", i32, [PP, P, ctypes.c_size_t, i32, i64, i64, ctypes.c_uint32, P, P]),
        ("tensor_as_strided", i32, [PP, P, i64, I64P, I64P, i64]),
        ("tensor_empty", i32, [PP, i64, I64P, i32]),
        ("tensor_contiguous", i32, [PP, P]),
        ("tensor_clone", i32, [PP, P]),
        ("tensor_to", i32, [PP, P, i32, i32]),
        ("tensor_copy", i32, [P, P]),
        ("tensor_release", None, [P]),
        ("tensor_set_num_threads", i32, [i32]),
        ("tensor_last_error", ctypes.c_char_p, []),
    ]:
        fn = getattr(lib, name)
        fn.restype, fn.argtypes = res, args
    return lib


class CTensor:
    """Views of NumPy memory through the C API (zero-copy)."""

    def __init__(self, lib):
        self.lib = lib

    def check(self, status):
        if status != 0:
            raise RuntimeError(self.lib.tensor_last_error().decode())

    @staticmethod
    def dims(values):
        return (ctypes.c_int64 * max(1, len(values)))(*values)

    def view(self, base, view):
        """A handle for `view`, a strided NumPy view of the contiguous array `base`."""
        flat = ctypes.c_void_p()
        self.check(self.lib.tensor_from_buffer(ctypes.byref(flat), base.ctypes.data, base.nbytes,
                                               CT_DTYPES[base.dtype], -1, 0, 0, None, None))
        item = base.itemsize
        offset = (view.__array_interface__["data"][0] - base.ctypes.data) // item
        out = ctypes.c_void_p()
        self.check(self.lib.tensor_as_strided(ctypes.byref(out), flat, view.ndim, self.dims(view.shape),
                                              self.dims([s // item for s in view.strides]), offset))
        self.lib.tensor_release(flat)
        return out

    def empty(self, shape, dtype):
        out = ctypes.c_void_p()
        self.check(self.lib.tensor_empty(ctypes.byref(out), len(shape), self.dims(shape), dtype))
        return out


def cases():
    """(name, make) pairs; make() gives (base, view, target NumPy dtype or None,
    torch dtype, ctensor dtype, bytes read, bytes written, kind)."""
    def a():
        x = np.ones(64 * MI, np.float32)
        return x, x, np.float32, torch.float32, TENSOR_FLOAT32, x.nbytes, x.nbytes, "clone"

    def square_t():
        x = np.ones((4096, 4096), np.float32)
        return x, x.T, np.float32, torch.float32, TENSOR_FLOAT32, x.nbytes, x.nbytes, "contiguous"

    def permute(order):
        def make():
            x = np.ones((256, 256, 256), np.float32)
            return x, x.transpose(order), np.float32, torch.float32, TENSOR_FLOAT32, x.nbytes, x.nbytes, "contiguous"
        return make

    def nhwc():
        x = np.ones((32, 64, 56, 56), np.float32)
        return x, x.transpose(0, 2, 3, 1), np.float32, torch.float32, TENSOR_FLOAT32, x.nbytes, x.nbytes, "contiguous"

    def e1():
        x = np.ones((8192, 8192), np.float32)
        v = x[:, ::2]
        return x, v, np.float32, torch.float32, TENSOR_FLOAT32, x.nbytes, v.size * 4, "contiguous"

    def e2():
        x = np.ones((8192, 8192), np.float32)
        v = x[::2, ::3]
        return x, v, np.float32, torch.float32, TENSOR_FLOAT32, x.nbytes // 2, v.size * 4, "contiguous"

    def f():
        x = np.ones((4096, 1), np.float32)
        v = np.broadcast_to(x, (4096, 4096))
        return x, v, np.float32, torch.float32, TENSOR_FLOAT32, x.nbytes, v.size * 4, "contiguous"

    def cast(src, np_to, torch_to, ct_to, out_item):
        def make():
            x = np.ones(64 * MI, src)
            return x, x, np_to, torch_to, ct_to, x.nbytes, x.size * out_item, "to"
        return make

    return [
        ("a. 1-D copy 64Mi", a),
        ("b. [4096,4096].t()", square_t),
        ("c1. [256]^3 permute(2,0,1)", permute((2, 0, 1))),
        ("c2. [256]^3 permute(1,2,0)", permute((1, 2, 0))),
        ("d. NCHW->NHWC", nhwc),
        ("e1. [8192,8192][:, ::2]", e1),
        ("e2. [8192,8192][::2, ::3]", e2),
        ("f. [4096,1] expanded", f),
        ("g1. float32->float16", cast(np.float32, np.float16, torch.float16, TENSOR_FLOAT16, 2)),
        ("g2. float32->bfloat16", cast(np.float32, None, torch.bfloat16, TENSOR_BFLOAT16, 2)),
        ("g3. int32->float64", cast(np.int32, np.float64, torch.float64, TENSOR_FLOAT64, 8)),
    ]


def medians(fns, reps):
    """Median seconds of each function, run round-robin after one warm-up round."""
    times = {k: [] for k in fns}
    for r in range(reps + 1):
        for k, fn in fns.items():
            t0 = time.perf_counter()
            fn()
            if r:
                times[k].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def run_case(ct, make, reps):
    base, view, np_to, torch_to, ct_to, read, written, kind = make()
    tview = torch.from_numpy(np.ascontiguousarray(base)).as_strided(
        view.shape, [s // base.itemsize for s in view.strides],
        (view.__array_interface__["data"][0] - base.ctypes.data) // base.itemsize)
    cview = ct.view(base, view)
    traffic = read + written
    m_src = np.ones(traffic // 2, np.uint8)
    m_dst = np.ones(traffic // 2, np.uint8)
    t_out = torch.empty(view.shape, dtype=torch_to)
    c_out = ct.empty(view.shape, ct_to)
    lib = ct.lib

    def ct_new():
        out = ctypes.c_void_p()
        if kind == "clone":
            ct.check(lib.tensor_clone(ctypes.byref(out), cview))
        elif kind == "contiguous":
            ct.check(lib.tensor_contiguous(ctypes.byref(out), cview))
        else:
            ct.check(lib.tensor_to(ctypes.byref(out), cview, ct_to, 0))
        lib.tensor_release(out)

    if kind == "clone":
        np_new, torch_new = (lambda: view.copy()), (lambda: tview.clone())
    elif kind == "contiguous":
        np_new, torch_new = (lambda: np.ascontiguousarray(view)), (lambda: tview.contiguous())
    else:
        np_new = (lambda: view.astype(np_to)) if np_to is not None else None
        torch_new = lambda: tview.to(torch_to)
    fns = {
        "memcpy": lambda: np.copyto(m_dst, m_src),
        "numpy new": np_new,
        "torch new": torch_new,
        "ctensor new": ct_new,
        "torch into": lambda: t_out.copy_(tview),
        "ctensor into": lambda: ct.check(lib.tensor_copy(c_out, cview)),
    }
    result = medians({k: v for k, v in fns.items() if v is not None}, reps)
    lib.tensor_release(cview)
    lib.tensor_release(c_out)
    return result


COLUMNS = ["memcpy", "numpy new", "torch new", "ctensor new", "torch into", "ctensor into"]


def table(rows, markdown):
    head = ["case"] + [f"{c} ms" for c in COLUMNS] + ["new vs torch", "new vs numpy", "into / memcpy"]
    lines = []
    for name, r in rows:
        ms = [f"{1e3 * r[c]:.1f}" if c in r else "-" for c in COLUMNS]
        vs_torch = f"{r['torch new'] / r['ctensor new']:.1f}x"
        vs_numpy = f"{r['numpy new'] / r['ctensor new']:.1f}x" if "numpy new" in r else "-"
        lines.append([name] + ms + [vs_torch, vs_numpy, f"{r['ctensor into'] / r['memcpy']:.2f}"])
    if markdown:
        out = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
        out += ["| " + " | ".join(line) + " |" for line in lines]
        return "\n".join(out)
    widths = [max(len(x[i]) for x in [head] + lines) for i in range(len(head))]
    fmt = lambda row: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
    return "\n".join([fmt(head)] + [fmt(line) for line in lines])


def chart(rows, path, threads):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [name.split(" ")[0].rstrip(".") for name, _ in rows]
    fig, ax = plt.subplots(figsize=(12, 5))
    width = 0.8 / len(COLUMNS)
    for k, col in enumerate(COLUMNS):
        values = [1e3 * r.get(col, float("nan")) for _, r in rows]
        ax.bar([i + (k - len(COLUMNS) / 2 + 0.5) * width for i in range(len(rows))], values, width, label=col)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(names)
    ax.set_yscale("log")
    ax.set_ylabel("median ms (log scale, lower is better)")
    ax.set_title(f"Copies, float32 unless a cast (g): NumPy {np.__version__}, PyTorch {torch.__version__}, "
                 f"ctensor; {threads} thread(s)")
    ax.legend(ncol=3, fontsize=8)
    ax.grid(axis="y", which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lib", help="path of libctensor.so")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--chart", default=str(ROOT / "docs" / "performance.png"))
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--only", help="run the cases whose name contains this")
    args = parser.parse_args()

    ct = CTensor(load_library(args.lib))
    torch.set_num_threads(args.threads)
    ct.check(ct.lib.tensor_set_num_threads(args.threads))
    rows = []
    for name, make in cases():
        if args.only and args.only not in name:
            continue
        rows.append((name, run_case(ct, make, args.reps)))
        print(f"  {name}: done", flush=True)
    print(f"\nmedian ms of {args.reps} runs, {args.threads} thread(s); 'new' makes a result, 'into' copies "
          "into an existing one; memcpy moves the same bytes (read + written)\n")
    print(table(rows, args.markdown))
    if args.chart:
        try:
            chart(rows, args.chart, args.threads)
            print(f"\nchart: {args.chart}")
        except ImportError:
            print("\nno chart: matplotlib is not installed (apt-get install python3-matplotlib), "
                  "or pass --chart '' to skip it", file=sys.stderr)


if __name__ == "__main__":
    main()
