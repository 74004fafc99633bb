#!/usr/bin/python3
"""Status documentation test: the README's status table and the header's status macros
describe the same statuses, none is called reserved or unused, and where a description
names the functions that return a status (TENSOR_E_IO, TENSOR_E_FORMAT), both name
exactly the functions whose doc comment lists that status under @return.

usage: check_status_docs.py INCLUDE_DIR README
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from check_since import DECL  # noqa: E402  (one parser of the header's declarations)


def returning(header, status):
    """The functions whose doc comment's @return names `status`."""
    names = set()
    for m in DECL.finditer(header):
        doc_end = header.rfind("*/", 0, m.start())
        doc = header[header.rfind("/**", 0, doc_end):doc_end]
        ret = doc.partition("@return")[2]
        if re.search(rf"\b{status}\b", ret):
            names.add(m.group(1))
    return names


def main(include_dir, readme):
    header = (pathlib.Path(include_dir) / "ctensor.h").read_text(encoding="utf-8")
    text = pathlib.Path(readme).read_text(encoding="utf-8")
    macros = dict(re.findall(r"^#define (TENSOR_(?:OK|E_\w+)) +\d+ +/\*\*<(.*?)\*/", header, re.M | re.S))
    rows = dict(re.findall(r"^ *\| `(TENSOR_(?:OK|E_\w+))` \| \d+ \| (.*?) \|$", text, re.M))
    errors = []
    if set(macros) != set(rows):
        errors.append(f"statuses differ: header {sorted(macros)}, README {sorted(rows)}")
    for status in sorted(macros):
        for where, desc in (("header", macros[status]), ("README", rows.get(status, ""))):
            if re.search(r"reserved|nothing returns|no function returns", desc):
                errors.append(f"{where} calls {status} reserved or unused: {desc.strip()!r}")
            named = set(re.findall(r"\btensor_\w+", desc))
            if named and named != returning(header, status):
                errors.append(f"{where}'s {status} names {sorted(named)}, but the functions documented to "
                              f"return it are {sorted(returning(header, status))}")
    for status in ("TENSOR_E_IO", "TENSOR_E_FORMAT"):
        if returning(header, status) and not re.search(r"\btensor_\w+", macros.get(status, "")):
            errors.append(f"the header's {status} does not name the functions that return it")
    for e in errors:
        print(e)
    print(f"{len(errors)} status documentation error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
