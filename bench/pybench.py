"""What the Python benchmarks share: finding a build, timing round-robin, printing the table."""
import pathlib
import statistics
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def find_build(name):
    """The build directory given, or the first one with libctensor and the Python binding."""
    for build in ([name] if name else ["build-rel", "build-bench", "build", "build-test"]):
        if (ROOT / build / "src" / "libctensor.so").exists() and (ROOT / build / "bindings" / "python" / "ctensor").is_dir():
            return ROOT / build
    raise SystemExit("no build with libctensor.so and the Python binding found: pass --build")


def round_robin(fns, reps):
    """Seconds of each function in each of `reps` rounds (after a warm-up round)."""
    for f in fns:
        f()
    times = [[] for _ in fns]
    for _ in range(reps):
        for i, f in enumerate(fns):
            t0 = time.perf_counter()
            f()
            times[i].append(time.perf_counter() - t0)
    return times


def medians(fns, reps):
    """Median seconds of each function, run round-robin after a warm-up."""
    return [statistics.median(t) for t in round_robin(fns, reps)]


def print_table(header, lines, markdown):
    """Rows of strings as a Markdown table or as aligned columns."""
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        widths = [max(len(x[i]) for x in [header] + lines) for i in range(len(header))]
        for line in [header] + lines:
            print("  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(line, widths))))
