#!/usr/bin/python3
"""Symbol test: libctensor must export exactly the functions of api.json (the public
headers' CTENSOR_API declarations, as scripts/gen_api.py reads them), each named
tensor_* and bound to a CTENSOR_* version node, and exactly the names in
tests/exported_symbols.txt: a released function never disappears, and a new one
appears only together with its line in the list (so every change to the exported
surface is a reviewed change to that file).

usage: check_symbols.py LIBRARY INCLUDE_DIR SYMBOL_LIST [--update]
INCLUDE_DIR's api.json is the one in the directory above it; it must be up to date
with INCLUDE_DIR (run scripts/gen_api.py after changing a header).
--update rewrites SYMBOL_LIST from api.json (run it after adding functions).
"""
import json
import pathlib
import re
import subprocess
import sys


sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
import gen_api  # noqa: E402


def declared_functions(include_dir):
    """api.json's function names, after checking that api.json matches include_dir."""
    api_path = pathlib.Path(include_dir).resolve().parent / "api.json"
    api = json.loads(api_path.read_text())
    try:
        fresh = gen_api.build(include_dir)
    except gen_api.ApiError as e:
        raise SystemExit(f"FAIL: scripts/gen_api.py cannot read {include_dir}: {e}")
    if fresh != api:
        stale = "; ".join(gen_api.differences(api, fresh))
        raise SystemExit(f"FAIL: {api_path} is stale ({stale}): run python3 scripts/gen_api.py")
    return {f["name"] for f in api["functions"]}


def development_node(include_dir):
    """CTENSOR_MAJOR.MINOR of api.json's version: the node of functions not yet released."""
    api_path = pathlib.Path(include_dir).resolve().parent / "api.json"
    major, minor = json.loads(api_path.read_text())["version"].split(".")[:2]
    return f"CTENSOR_{major}.{minor}"


def exported_symbols(library):
    out = subprocess.run(["nm", "-D", "--defined-only", "--format=posix", library],
                         check=True, capture_output=True, text=True).stdout
    symbols, nodes = {}, set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind == "A":  # a version node, e.g. CTENSOR_0.1
            nodes.add(name)
            continue
        base, _, version = name.partition("@")
        symbols[base] = version.lstrip("@")
    return symbols, nodes


def main(argv):
    update = "--update" in argv
    args = [a for a in argv[1:] if a != "--update"]
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    library, include_dir, list_path = args
    declared = declared_functions(include_dir)
    list_file = pathlib.Path(list_path)
    if update:
        list_file.write_text("".join(n + "\n" for n in sorted(declared)))
        print(f"wrote {len(declared)} names to {list_file}")
        return 0

    symbols, nodes = exported_symbols(library)
    errors = []
    if not declared:
        errors.append(f"api.json for {include_dir} has no functions")
    for name in sorted(symbols):
        if not name.startswith("tensor_"):
            errors.append(f"exported symbol without the tensor_ prefix: {name}")
        elif not symbols[name].startswith("CTENSOR_"):
            errors.append(f"exported symbol {name} has no CTENSOR_* version node ({symbols[name]!r})")
    development = development_node(include_dir)
    baseline = pathlib.Path(__file__).resolve().parent / "abi" / "libctensor.abi"
    released = set(re.findall(r"<elf-symbol name='(tensor_\w+)'", baseline.read_text()))
    for name in sorted(symbols):
        want = "CTENSOR_0.1" if name in released else development
        if name.startswith("tensor_") and symbols[name] != want:
            errors.append(f"{name} is bound to version node {symbols[name]!r}, expected {want} "
                          f"({'in' if name in released else 'not in'} the 0.1.0 release)")
    for node in sorted(nodes):
        if not node.startswith("CTENSOR_"):
            errors.append(f"unexpected version node {node}")
    for name in sorted(declared - symbols.keys()):
        errors.append(f"declared in the header but not exported (not implemented?): {name}")
    for name in sorted(symbols.keys() - declared):
        errors.append(f"exported but not in api.json (declared with CTENSOR_API in a header): {name}")

    listed = [l.strip() for l in list_file.read_text().splitlines() if l.strip()]
    if listed != sorted(set(listed)):
        errors.append(f"{list_file.name} must be sorted and without duplicates")
    for name in sorted(set(listed) - symbols.keys()):
        errors.append(f"{name} is in {list_file.name} but not exported (a released function must stay)")
    for name in sorted(set(listed) - declared):
        errors.append(f"{name} is in {list_file.name} but no longer in api.json (declared in the header)")
    for name in sorted(symbols.keys() - set(listed)):
        errors.append(f"{name} is exported but not in {list_file.name} "
                      f"(new function: run tests/check_symbols.py with --update, see docs/stability.md)")

    for e in errors:
        print("FAIL:", e)
    print(f"{len(symbols)} exported, {len(declared)} declared, {len(listed)} listed, "
          f"{len(errors)} problems")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
