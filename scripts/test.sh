#!/usr/bin/env bash
# The README's test command (and what .ci/run runs): installs the dependencies,
# builds in ./build-test (Python binding included when it exists), then runs
#   1. every Meson test (Check suites, header, symbol and consumer tests),
#   2. the Check suites again under valgrind (no leak, no error),
#   3. the differential tests against PyTorch/NumPy (tests/differential),
#   4. the Python package, built by meson-python (pinned, from PyPI): `pip install .`
#      (libctensor built into the extension) into the venv $builddir/venv-py
#      (Debian's NumPy 1.24 and torch 1.13 visible) and bindings/python/tests run
#      against that install; `pip install ./bindings/python` (against libctensor
#      installed into $builddir/install, found through pkg-config) into the plain
#      venv $builddir/venv-np2 with NumPy 2.1 from PyPI, and
#      bindings/python/tests_numpy2 run there (the type stubs checked with mypy),
#   5. the Julia binding's static check against the header (no Julia needed),
#   6. the Rust workspace's tests (bindings/rust: cargo test --all-features, which
#      includes the check that the checked-in bindings match include/), if present,
#   7. the Go binding's go vet, go test -race, go test with cgocheck2 (every
#      pointer passed to C checked) and a 20 s fuzz run (bindings/go),
#   8. ASan+UBSan (./build-asan): the Check suites, the internal and stress
#      tests, the differential and the Python binding's tests (the runtime
#      preloaded into Python),
#   9. TSan (./build-tsan): the eight-thread stress test,
#  10. the allocation-failure loop (./build-fault, -Dfault_injection=true):
#      every Check suite with each call failing at each of its allocations,
#      on a warm thread and on a fresh one,
#  11. the libFuzzer targets under ASan+UBSan (./build-fuzz, fuzz/run.sh),
#      $CTENSOR_FUZZ_SECONDS (default 30) seconds each,
#  12. the safetensors interoperability tests (tests/safetensors) in a virtual
#      environment with the pinned `safetensors` package (scripts/safetensors-venv.sh).
# Every step runs even if an earlier one failed; the summary lists the time
# each step took, its last line is "N passed, N failed" over all of them, and
# the exit status is non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
python=/usr/bin/python3
builddir=build-test
reports="$builddir/test-reports"

bash scripts/install-deps.sh || { echo "install-deps failed"; echo "0 passed, 1 failed"; exit 1; }

# Installed into the build directory: the Python package finds it there through pkg-config.
setup_args=(-Dbuildtype=debugoptimized "--prefix=$root/$builddir/install")
# The Python binding is built when the tree has it (bindings/python with the option).
if grep -q "option('python'" meson_options.txt 2>/dev/null && [ -f bindings/python/meson.build ]; then
  setup_args+=(-Dpython=true)
fi

failed_steps=()
# Each step's heading; the summary lists the seconds each one took.
step_times=()
step_name=""
step_start=$SECONDS
step() {
  [ -n "$step_name" ] && step_times+=("$(printf '%5d s  %s' $((SECONDS - step_start)) "$step_name")")
  step_name="$*"
  step_start=$SECONDS
  echo
  echo "== $* =="
}

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

# The build tools meson-python runs with (PyPI, pinned), in the test venvs.
mesonpy_pins=(meson-python==0.17.1 meson==1.6.1 ninja==1.11.1.3 pyproject-metadata==0.9.0 packaging==24.2)
venv="$builddir/venv-py"
# install_package SOURCE VENV [VENV_ARGS...]: creates the venv once, installs the
# pinned tools (and $extra_pins) into it, and the package from SOURCE: "." (the
# repository root: libctensor built into the extension) or ./bindings/python
# (against the libctensor that `meson install` put into $builddir/install, found
# through pkg-config).
extra_pins=()
install_package() {
  local source=$1 venv=$2
  shift 2
  meson install -C "$builddir" --no-rebuild --quiet >/dev/null || return 1
  local pcdir
  pcdir=$(dirname "$(find "$root/$builddir/install" -name ctensor.pc | head -n 1)")
  { [ -x "$venv/bin/python" ] || "$python" -m venv "$@" "$venv"; } &&
    "$venv/bin/pip" install -q --disable-pip-version-check "${mesonpy_pins[@]}" "${extra_pins[@]}" &&
    PKG_CONFIG_PATH="$pcdir" "$venv/bin/pip" install -q --disable-pip-version-check --no-build-isolation \
      --force-reinstall --no-deps "$source"
}

if [ -f pyproject.toml ]; then
  step "Python package: pip install . (libctensor built in) into $venv"
  if install_package . "$venv" --system-site-packages; then
    step "Python binding tests (the installed package, $venv)"
    CTENSOR_LIB="$root/$builddir/src/libctensor.so" CTENSOR_PYTHON_BUILD=installed \
      "$venv/bin/python" -m pytest -q -p no:cacheprovider --junitxml="$reports/python.xml" bindings/python/tests ||
      failed_steps+=("python binding")
  else
    failed_steps+=("python package")
  fi
fi

if [ -d bindings/python/tests_numpy2 ]; then
  # A plain venv (no Debian packages, so no torch) with NumPy 2 from PyPI.
  venv_np2="$builddir/venv-np2"
  step "NumPy 2 tests (pip install ./bindings/python, libctensor through pkg-config, into $venv_np2)"
  extra_pins=(numpy==2.1.3 pytest==8.3.4 iniconfig==2.3.1 pluggy==1.7.0
              mypy==1.13.0 mypy_extensions==1.2.0 typing_extensions==4.16.0)
  if install_package ./bindings/python "$venv_np2"; then
    "$venv_np2/bin/python" -m pytest -q -p no:cacheprovider --junitxml="$reports/numpy2.xml" bindings/python/tests_numpy2 ||
      failed_steps+=("numpy 2")
  else
    failed_steps+=("numpy 2")
  fi
  extra_pins=()
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

if [ -f bindings/go/go.mod ]; then
  step "Go binding: go vet, go test -race, go test with cgocheck2, 20 s of fuzzing"
  go=$(command -v go || echo /usr/local/go/bin/go)
  # The library from this build; the Go toolchain on the machine, no downloads.
  # Without HOME go's cache is "off" (builds need one) and GOPATH is empty (then
  # go 1.26 takes every directory for the module cache and lists stale files).
  gocache=$("$go" env GOCACHE 2>/dev/null || true)
  [ -n "$gocache" ] && [ "$gocache" != off ] || gocache="$root/$builddir/go-cache"
  gopath=$("$go" env GOPATH 2>/dev/null || true)
  [ -n "$gopath" ] || gopath="$root/$builddir/go-path"
  goenv=(env PKG_CONFIG_PATH="$root/$builddir/meson-uninstalled" LD_LIBRARY_PATH="$root/$builddir/src"
         CGO_ENABLED=1 GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=readonly GOCACHE="$gocache" GOPATH="$gopath")
  gotest() {  # gotest REPORT ARGS...: go test -json ARGS into $reports/REPORT.xml
    local report=$1
    shift
    (cd bindings/go && "${goenv[@]}" "$go" test -json "$@" 2>&1) |
      "$python" scripts/junit.py go "$reports/$report.xml"
  }
  (cd bindings/go && "${goenv[@]}" "$go" vet ./...) || failed_steps+=("go vet")
  gotest go -race -count=1 ./... || failed_steps+=("go binding")
  GOEXPERIMENT=cgocheck2 gotest go-cgocheck2 -count=1 ./... || failed_steps+=("go cgocheck2")
  gotest go-fuzz -run '^$' -fuzz '^FuzzViewChain$' -fuzztime 20s . || failed_steps+=("go fuzz")
fi

# A sanitizer build in its own directory: configure once, reconfigure later.
sanitizer_build() {
  local dir=$1
  shift
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" "$@" >/dev/null
  else
    rm -rf "$dir"
    meson setup "$dir" "$@" >/dev/null
  fi
}
# Runs `meson test` in $1 with the remaining arguments; the junit report goes to $reports/$2.xml.
meson_test_report() {
  local dir=$1 report=$2
  shift 2
  rm -f "$dir/meson-logs/testlog.junit.xml"
  meson test -C "$dir" --no-rebuild --print-errorlogs "$@"
  local rc=$?
  cp "$dir/meson-logs/testlog.junit.xml" "$reports/$report.xml" 2>/dev/null
  return $rc
}

step "ASan+UBSan (build-asan)"
asan_args=(-Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false
           -Dc_args=-fno-sanitize-recover=all -Dcpp_args=-fno-sanitize-recover=all)
[[ " ${setup_args[*]} " == *" -Dpython=true "* ]] && asan_args+=(-Dpython=true)
if sanitizer_build build-asan "${asan_args[@]}" && meson compile -C build-asan >/dev/null; then
  meson_test_report build-asan asan --suite check --suite internal --suite stress || failed_steps+=("asan")
  # Python is not built with ASan: its runtime (and libstdc++, whose throw it
  # intercepts) is preloaded; CPython's own exit-time leaks are not ours.
  asan_preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so)"
  if compgen -G "tests/differential/test_*.py" >/dev/null; then
    CTENSOR_LIB="$root/build-asan/src/libctensor.so" LD_PRELOAD="$asan_preload" ASAN_OPTIONS=detect_leaks=0 \
      "$python" -m pytest -q -p no:cacheprovider --junitxml="$reports/asan-differential.xml" tests/differential ||
      failed_steps+=("asan differential")
  fi
  if [ -d bindings/python/tests ] && [ -d build-asan/bindings/python ]; then
    CTENSOR_LIB="$root/build-asan/src/libctensor.so" CTENSOR_PYTHON_BUILD="$root/build-asan/bindings/python" \
      LD_PRELOAD="$asan_preload" ASAN_OPTIONS=detect_leaks=0 \
      "$python" -m pytest -q -p no:cacheprovider --junitxml="$reports/asan-python.xml" bindings/python/tests ||
      failed_steps+=("asan python")
  fi
else
  echo "ASan build failed"
  failed_steps+=("asan")
fi

step "TSan stress test (build-tsan)"
if sanitizer_build build-tsan -Dbuildtype=debugoptimized -Db_sanitize=thread -Db_lundef=false &&
   meson compile -C build-tsan tests/test_stress >/dev/null; then
  TSAN_OPTIONS=halt_on_error=1 meson_test_report build-tsan tsan --suite stress || failed_steps+=("tsan")
else
  echo "TSan build failed"
  failed_steps+=("tsan")
fi

step "allocation-failure loop (build-fault)"
if sanitizer_build build-fault -Dbuildtype=debugoptimized -Dfault_injection=true &&
   meson compile -C build-fault >/dev/null; then
  meson_test_report build-fault fault-loop --suite fault-loop --suite fault || failed_steps+=("fault loop")
else
  echo "fault-injection build failed"
  failed_steps+=("fault loop")
fi

# 30 s per target: the fuzz build itself takes about 6 minutes on 2 cores, and
# the whole run is to stay under 40 minutes. Longer campaigns: bash fuzz/run.sh SECONDS.
step "fuzz targets, ${CTENSOR_FUZZ_SECONDS:-30} s each (build-fuzz)"
REPORT="$reports/fuzz.xml" bash fuzz/run.sh "${CTENSOR_FUZZ_SECONDS:-30}" || failed_steps+=("fuzz")

step "summary"
printf '%s\n' "${step_times[@]}"
echo "$(printf '%5d s' "$SECONDS")  in all"
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
         "python binding": "python", "python package": "python_package", "numpy 2": "numpy2",
         "julia static": "julia_static", "rust binding": "rust",
         "go vet": "go-vet", "go binding": "go", "go cgocheck2": "go-cgocheck2", "go fuzz": "go-fuzz",
         "asan": "asan", "asan differential": "asan-differential",
         "asan python": "asan-python", "tsan": "tsan", "fault loop": "fault-loop",
         "fuzz": "fuzz", "safetensors": "safetensors"}
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
