#!/usr/bin/python3
"""@since test: every function of api.json (the public headers, as scripts/gen_api.py
reads them) says `@since 0.1` when the 0.1.0 release's ABI (tests/abi/libctensor.abi)
has it and `@since MAJOR.MINOR` of the development version (api.json's `version`, the
header's CTENSOR_VERSION_*) otherwise, so no @since names a version later than the
header's.

usage: check_since.py INCLUDE_DIR BASELINE
"""
import pathlib
import re
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "scripts"))
import gen_api  # noqa: E402  (the one reader of the headers)


def main(include_dir, baseline):
    api = gen_api.build(include_dir)
    development = ".".join(api["version"].split(".")[:2])
    released = set(re.findall(r"<elf-symbol name='(tensor_\w+)'", pathlib.Path(baseline).read_text()))
    errors = []
    for f in api["functions"]:
        want = "0.1" if f["name"] in released else development
        if f["since"] != want:
            errors.append(f"{f['header']}: {f['name']} says @since {f['since']}, expected {want} "
                          f"({'in' if f['name'] in released else 'not in'} the 0.1.0 ABI)")
    for e in errors:
        print(e)
    print(f"{len(errors)} @since error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
