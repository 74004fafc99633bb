#!/usr/bin/python3
"""ABI test: libctensor must stay compatible with the released interface
recorded in tests/abi/libctensor.abi (libabigail's abidw). abidiff compares
them; added functions are fine (new API within the version-script nodes), any
removed or changed function, variable or type it reports is a failure.

The experimental node is suppressed (tests/abi/suppressions.txt, next to BASELINE).

usage: check_abi.py ABIDIFF LIBRARY INCLUDE_DIR BASELINE
       check_abi.py --update ABIDW LIBRARY INCLUDE_DIR BASELINE
--update rewrites BASELINE from LIBRARY (only when releasing: docs/stability.md).
"""
import pathlib
import re
import subprocess
import sys

# abidiff's exit status bits (libabigail's abidiff manual).
ERROR, USAGE_ERROR, ABI_CHANGE, ABI_INCOMPATIBLE_CHANGE = 1, 2, 4, 8

ABIDW_ARGS = ["--no-corpus-path", "--no-comp-dir-path", "--no-show-locs", "--drop-private-types",
              "--drop-undefined-syms", "--exported-interfaces-only", "--type-id-style", "hash"]


def update(abidw, library, include_dir, baseline):
    subprocess.run([abidw, *ABIDW_ARGS, "--headers-dir", include_dir, library, "--out-file", baseline],
                   check=True)
    print(f"wrote {baseline}")
    return 0


def only_additions(report):
    """True if every changes summary in the report removes and changes nothing,
    counting the changes abidiff filters out as harmless (a struct that grows
    is one)."""
    summaries = re.findall(r"changes summary: (\d+) Removed(?: \((\d+) filtered out\))?, "
                           r"(\d+) Changed(?: \((\d+) filtered out\))?", report)
    return bool(summaries) and all(int(n or 0) == 0 for summary in summaries for n in summary)


def main(argv):
    args = argv[1:]
    if args and args[0] == "--update":
        return update(*args[1:]) if len(args) == 5 else print(__doc__, file=sys.stderr) or 2
    if len(args) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    abidiff, library, include_dir, baseline = args
    suppressions = pathlib.Path(baseline).with_name("suppressions.txt")
    run = subprocess.run([abidiff, "--headers-dir2", include_dir, "--drop-private-types",
                          "--suppressions", str(suppressions), baseline, library],
                         capture_output=True, text=True)
    print(run.stdout, end="")
    print(run.stderr, end="", file=sys.stderr)
    rc = run.returncode
    if rc & (ERROR | USAGE_ERROR):
        print(f"FAIL: abidiff could not compare (exit status {rc})")
        return 1
    if rc & ABI_INCOMPATIBLE_CHANGE:
        print("FAIL: incompatible ABI change (a removed or incompatibly changed interface)")
        return 1
    if rc & ABI_CHANGE and not only_additions(run.stdout):
        print("FAIL: ABI change beyond added functions")
        return 1
    print("ABI compatible with the baseline" + (" (functions added)" if rc & ABI_CHANGE else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
