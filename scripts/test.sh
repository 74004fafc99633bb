#!/usr/bin/env bash
# The README's test command (and what .ci/run runs): installs the dependencies,
# builds in ./build-test (Python binding included when it exists), then runs
#   1. every Meson test (Check suites, header, symbol and consumer tests),
#   2. the Check suites again under valgrind (no leak, no error),
#   3. the differential tests against PyTorch/NumPy (tests/differential),
#   4. the Python binding's tests (bindings/python/tests), if present,
#   5. the Julia binding's static check against the header (no Julia needed),
#   6. the Rust workspace's tests (bindings/rust: cargo test --all-features, which
#      includes the check that the checked-in bindings match include/), if present.
# Every step runs even if an earlier one failed; the last line is
# "N passed, N failed" over all of them, and the exit status is non-zero on
# any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
python=/usr/bin/python3
builddir=build-test
reports="$builddir/test-reports"

bash scripts/install-deps.sh || { echo "install-deps failed"; echo "0 passed, 1 failed"; exit 1; }

setup_args=(-Dbuildtype=debugoptimized)
# The Python binding is built when the tree has it (bindings/python with the option).
if grep -q "option('python'" meson_options.txt 2>/dev/null && [ -f bindings/python/meson.build ]; then
  setup_args+=(-Dpython=true)
fi

failed_steps=()
step() { echo; echo "== $* =="; }

step "configure and build ($builddir)"
configure() {
  if [ -f "$builddir/build.ninja" ]; then
    meson setup --reconfigure "$builddir" "${setup_args[@]}"
  else
    rm -rf "$builddir"
    meson setup "$builddir" "${setup_args[@]}"
  fi
}
if ! configure || ! meson compile -C "$builddir"; then
  echo "configure or build failed"
  echo "0 passed, 1 failed"
  exit 1
fi
rm -rf "$reports"
mkdir -p "$reports"

step "meson test (all)"
rm -f "$builddir/meson-logs/testlog.junit.xml"
meson test -C "$builddir" --no-rebuild --print-errorlogs || failed_steps+=("meson test")
cp "$builddir/meson-logs/testlog.junit.xml" "$reports/meson.xml" 2>/dev/null

step "Check suites under valgrind"
rm -f "$builddir/meson-logs/testlog-valgrind.junit.xml"
meson test -C "$builddir" --no-rebuild --setup=valgrind --suite=check --print-errorlogs ||
  failed_steps+=("valgrind")
cp "$builddir/meson-logs/testlog-valgrind.junit.xml" "$reports/valgrind.xml" 2>/dev/null

if compgen -G "tests/differential/test_*.py" >/dev/null; then
  step "differential tests (PyTorch/NumPy oracle)"
  CTENSOR_LIB="$root/$builddir/src/libctensor.so" \
    "$python" -m pytest -q -p no:cacheprovider --junitxml="$reports/differential.xml" tests/differential ||
    failed_steps+=("differential")
fi

if [ -d bindings/python/tests ]; then
  step "Python binding tests"
  CTENSOR_LIB="$root/$builddir/src/libctensor.so" CTENSOR_PYTHON_BUILD="$root/$builddir/bindings/python" \
    "$python" -m pytest -q -p no:cacheprovider --junitxml="$reports/python.xml" bindings/python/tests ||
    failed_steps+=("python binding")
fi

if [ -d bindings/julia ]; then
  step "Julia binding: ccalls checked against include/ctensor.h"
  "$python" -m pytest -q -p no:cacheprovider --junitxml="$reports/julia_static.xml" tests/check_julia_ccalls.py ||
    failed_steps+=("julia static")
fi

if [ -f bindings/rust/Cargo.toml ]; then
  step "Rust binding tests (cargo test --workspace --all-features)"
  # rustup's cargo, also when CI's PATH lacks ~/.cargo/bin; a missing cargo fails the step.
  [ -x "${HOME:-}/.cargo/bin/cargo" ] && PATH="$HOME/.cargo/bin:$PATH"
  (cd bindings/rust &&
    PKG_CONFIG_PATH="$root/$builddir/meson-uninstalled" \
    LD_LIBRARY_PATH="$root/$builddir/src${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    CARGO_TARGET_DIR="$root/$builddir/cargo-target" \
    cargo test --locked --workspace --all-features 2>&1) |
    "$python" scripts/junit.py cargo "$reports/rust.xml" || failed_steps+=("rust binding")
fi

step "summary"
"$python" - "$reports" "${failed_steps[@]}" <<'PY'
import pathlib, sys
import xml.etree.ElementTree as ET

reports = pathlib.Path(sys.argv[1])
failed_steps = sys.argv[2:]
passed = failed = skipped = 0
for xml in sorted(reports.glob("*.xml")):
    p = f = s = 0
    for case in ET.parse(xml).getroot().iter("testcase"):
        if case.find("failure") is not None or case.find("error") is not None:
            f += 1
        elif case.find("skipped") is not None:
            s += 1
        else:
            p += 1
    print(f"{xml.stem}: {p} passed, {f} failed" + (f", {s} skipped" if s else ""))
    passed, failed, skipped = passed + p, failed + f, skipped + s
# A step that failed without a failing test case (a crash, a collection error,
# a missing report) still counts as one failure.
reported = {x.stem for x in reports.glob("*.xml")}
names = {"meson test": "meson", "valgrind": "valgrind", "differential": "differential",
         "python binding": "python", "julia static": "julia_static", "rust binding": "rust"}
for step in failed_steps:
    print(f"step failed: {step}")
extra = sum(1 for step in failed_steps if names[step] not in reported)
if failed == 0 and failed_steps:
    extra = max(extra, 1)
if skipped:
    print(f"{skipped} skipped")
print(f"{passed} passed, {failed + extra} failed")
PY
[ ${#failed_steps[@]} -eq 0 ]
