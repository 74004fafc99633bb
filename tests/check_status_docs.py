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

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
import gen_api  # noqa: E402  (the one reader of the headers)


def main(include_dir, readme):
    api = gen_api.build(include_dir)
    text = pathlib.Path(readme).read_text(encoding="utf-8")
    macros = {s["name"]: s["doc"] for s in api["statuses"]}

    def returning(status):
        """The functions whose documented statuses (api.json's) include `status`."""
        return {f["name"] for f in api["functions"] if status in f["statuses"]}

    rows = dict(re.findall(r"^ *\| `(TENSOR_(?:OK|E_\w+))` \| \d+ \| (.*?) \|$", text, re.M))
    errors = []
    if set(macros) != set(rows):
        errors.append(f"statuses differ: header {sorted(macros)}, README {sorted(rows)}")
    for status in sorted(macros):
        for where, desc in (("header", macros[status]), ("README", rows.get(status, ""))):
            if re.search(r"reserved|nothing returns|no function returns", desc):
                errors.append(f"{where} calls {status} reserved or unused: {desc.strip()!r}")
            named = set(re.findall(r"\btensor_\w+", desc))
            if named and named != returning(status):
                errors.append(f"{where}'s {status} names {sorted(named)}, but the functions documented to "
                              f"return it are {sorted(returning(status))}")
    for status in ("TENSOR_E_IO", "TENSOR_E_FORMAT"):
        if returning(status) and not re.search(r"\btensor_\w+", macros.get(status, "")):
            errors.append(f"the header's {status} does not name the functions that return it")
    for e in errors:
        print(e)
    print(f"{len(errors)} status documentation error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
