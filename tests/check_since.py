#!/usr/bin/python3
"""@since test: every function of the public headers says `@since 0.1` when the 0.1.0
release's ABI (tests/abi/libctensor.abi) has it and `@since MAJOR.MINOR` of the
development version (the header's CTENSOR_VERSION_*) otherwise, and no @since names
a version later than the header's.

usage: check_since.py INCLUDE_DIR BASELINE
"""
import pathlib
import re
import sys

DECL = re.compile(r"^CTENSOR_API\b[^;{]*?\b(tensor_\w+)\s*\(", re.S | re.M)
SINCE = re.compile(r"@since\s+(\d+)\.(\d+)")


def functions(header):
    """(name, since) for each CTENSOR_API function: the @since of the doc comment above it."""
    text = header.read_text(encoding="utf-8")
    out = []
    for m in DECL.finditer(text):
        doc_end = text.rfind("*/", 0, m.start())
        doc_start = text.rfind("/**", 0, doc_end)
        between = text[doc_end + 2:m.start()]
        since = None
        if doc_start >= 0 and ";" not in between:
            found = SINCE.findall(text[doc_start:doc_end])
            since = tuple(map(int, found[-1])) if found else None
        out.append((m.group(1), since))
    return out


def main(include_dir, baseline):
    include = pathlib.Path(include_dir)
    header = (include / "ctensor.h").read_text(encoding="utf-8")
    major = int(re.search(r"#define CTENSOR_VERSION_MAJOR (\d+)", header).group(1))
    minor = int(re.search(r"#define CTENSOR_VERSION_MINOR (\d+)", header).group(1))
    released = set(re.findall(r"<elf-symbol name='(tensor_\w+)'", pathlib.Path(baseline).read_text()))
    errors = []
    for h in sorted(include.glob("*.h")):
        for name, since in functions(h):
            want = (0, 1) if name in released else (major, minor)
            if since is None:
                errors.append(f"{h.name}: {name} has no @since")
            elif since != want:
                errors.append(f"{h.name}: {name} says @since {since[0]}.{since[1]}, expected "
                              f"{want[0]}.{want[1]} ({'in' if name in released else 'not in'} the 0.1.0 ABI)")
    for e in errors:
        print(e)
    print(f"{len(errors)} @since error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
