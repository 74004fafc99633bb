#!/usr/bin/env python3
"""Per-operation overhead of small view operations from Python: ctensor, PyTorch
and NumPy on the same (64, 64) float32 data, measured in one run (best of
several repeats of timeit loops, nanoseconds per operation).

    PYTHONPATH=build/bindings/python /usr/bin/python3 bench/bench_python_ops.py [--markdown]
"""
import argparse
import timeit

import numpy as np
import torch

import ctensor
from pybench import print_table


def interleaved_min_ns(timers, number, per_call, rounds=9):
    """Best time per operation of each timer, the timers taking turns round after
    round, so that a busy machine slows all of them alike and the minimum still
    finds each one's quiet moments."""
    best = [float("inf")] * len(timers)
    for _ in range(rounds):
        for i, timer in enumerate(timers):
            best[i] = min(best[i], timer.timeit(number=number) / (number * per_call) * 1e9)
    return best


def loop_timer(seq, n):
    def run():
        for i in range(n):
            seq[i]
    return timeit.Timer(run)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    n = np.arange(64 * 64, dtype=np.float32).reshape(64, 64)
    libs = {"ctensor": ctensor.from_numpy(n.copy()), "torch": torch.from_numpy(n.copy()), "numpy": n.copy()}
    cases = [
        ("a[3]", "a[3]"),
        ("a[1:10:2]", "a[1:10:2]"),
        ("a[2, 1:5]", "a[2, 1:5]"),
        ("a.transpose(0, 1)", "a.transpose(0, 1)"),
        ("a.reshape(4096)", "a.reshape(4096)"),
        ("from_numpy(n), numpy: np.asarray(n)", "np.asarray(n)"),
        ("from_numpy(n), numpy: n.view()", "n.view()"),
    ]
    rows = []
    for name, stmt in cases:
        timers = []
        for lib, a in libs.items():
            env = {"a": a, "n": n, "ctensor": ctensor, "torch": torch, "np": np}
            if name.startswith("from_numpy"):  # stmt is NumPy's nearest: asarray makes nothing, view one array
                s = {"ctensor": "ctensor.from_numpy(n)", "torch": "torch.from_numpy(n)", "numpy": stmt}[lib]
            elif lib == "numpy" and name.startswith("a.transpose"):
                s = "a.swapaxes(0, 1)"
            else:
                s = stmt
            timers.append(timeit.Timer(s, globals=env))
        rows.append([name] + interleaved_min_ns(timers, 50000, 1))
    flat = {"ctensor": ctensor.arange(1024), "torch": torch.arange(1024), "numpy": np.arange(1024)}
    rows.append(["a[i] in a loop (1-d)"] + interleaved_min_ns([loop_timer(flat[lib], 1024) for lib in libs], 20, 1024))

    header = ["operation", "ctensor ns", "torch ns", "numpy ns", "ctensor / numpy", "ctensor / torch"]
    lines = []
    for row in rows:
        c, t, n_ = row[1:]
        lines.append([row[0], f"{c:.0f}", f"{t:.0f}", f"{n_:.0f}", f"{c / n_:.2f}", f"{c / t:.2f}"])
    print_table(header, lines, args.markdown)


if __name__ == "__main__":
    main()
