#!/usr/bin/env bash
# The README's test command (and what .ci/run runs). It installs the dependencies,
# builds into ./build-test (the Python binding included when the tree has it), then
# runs every step of the `steps` table below, in order: the one list of what CI runs.
# Each step's command is called as `COMMAND BUILDDIR REPORTSDIR` and writes JUnit XML
# into REPORTSDIR (the report names its row declares). Every step runs even if an
# earlier one failed. The summary lists each step with the seconds it took, checks
# that every selected step ran and wrote its reports and that the README's "Tests"
# table names exactly the steps declared here, and ends with "N passed, N failed"
# over all reports; the exit status is non-zero on any failure.
#
# usage: scripts/test.sh [--list] [--only STEP,STEP...]
#   --list  prints the steps (name, reports, heading) and exits
#   --only  runs only the named steps (after the build); CTENSOR_TEST_ONLY does the same
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
python=/usr/bin/python3
builddir=build-test
reports="$builddir/test-reports"

# name|reports (JUnit stems, globs allowed)|command (called with BUILDDIR REPORTSDIR)|heading
# A step from its own script is one line: "x|x|bash scripts/test-x.sh|what x checks".
steps=(
  "meson|meson|step_meson|every Meson test (Check suites, boundary, header, symbol, ABI and consumer tests)"
  "valgrind|valgrind|step_valgrind|the Check suites under valgrind (no leak, no error)"
  "differential|differential|step_differential|differential tests against PyTorch/NumPy (tests/differential)"
  "python|python|step_python|Python package: pip install . (libctensor built in) into BUILDDIR/venv-py, bindings/python/tests"
  "numpy2|numpy2|step_numpy2|NumPy 2 and typing tests: pip install ./bindings/python (libctensor through pkg-config) into BUILDDIR/venv-np2"
  "julia|julia_static|step_julia|Julia binding: ccalls checked against api.json"
  "rust|rust|step_rust|Rust workspace: cargo test --workspace --all-features (bindings/rust)"
  "rust-versions|rust-oldest rust-newest rust-installed|bash scripts/test-rust-versions.sh|Rust: the oldest and newest supported ndarray/half/num-complex, and cargo run against an installed prefix"
  "go|go go-experimental go-cgocheck2 go-fuzz|step_go|Go binding: go vet, go test -race without and with the ctensor_experimental tag, go test with cgocheck2, 20 s of fuzzing"
  "go-arrow|go-arrow|bash scripts/test-go-arrow.sh|Go Arrow module (bindings/go/arrowct) against arrow-go: go mod download, go vet, go test"
  "java|java-*|bash scripts/test-java.sh|Java binding (bindings/java): mvn test (JUnit 5) and javadoc"
  "node|node|bash scripts/test-node.sh|Node.js binding (bindings/node): npm ci, the N-API addon built against the installed Node headers, tsc, node --test"
  "arrow|arrow|bash scripts/test-arrow.sh|Arrow exchange (bindings/python/tests_arrow): pyarrow, polars, DuckDB, nanoarrow, Ray Data in BUILDDIR/venv-arrow"
  "asan|asan asan-differential asan-python|step_asan|ASan+UBSan (build-asan): Check, internal and stress suites, differential and Python tests"
  "tsan|tsan|step_tsan|TSan (build-tsan): the eight-thread stress test"
  "fault|fault-loop|step_fault|allocation-failure loop (build-fault): each allocation of each call failing in turn"
  "fuzz|fuzz|step_fuzz|libFuzzer targets under ASan+UBSan (build-fuzz), \$CTENSOR_FUZZ_SECONDS (default 30) s each"
  "safetensors|safetensors|step_safetensors|safetensors interoperability (tests/safetensors) with the pinned package (scripts/safetensors-venv.sh)"
)

only=${CTENSOR_TEST_ONLY:-}
while [ $# -gt 0 ]; do
  case $1 in
    --list)
      for row in "${steps[@]}"; do
        IFS='|' read -r name report _ heading <<<"$row"
        printf '%-13s %-38s %s\n' "$name" "$report" "$heading"
      done
      exit 0 ;;
    --only) only=${2:-}; shift 2 ;;
    --only=*) only=${1#--only=}; shift ;;
    *) echo "usage: scripts/test.sh [--list] [--only STEP,STEP...]" >&2; exit 2 ;;
  esac
done
declared=()
for row in "${steps[@]}"; do declared+=("${row%%|*}"); done
if [ -n "$only" ]; then
  for name in ${only//,/ }; do
    [[ " ${declared[*]} " == *" $name "* ]] || { echo "--only: no step named '$name' (scripts/test.sh --list)" >&2; exit 2; }
  done
fi
selected() { [ -z "$only" ] || [[ ",$only," == *",$1,"* ]]; }

# ---- the steps' commands: each is called as COMMAND BUILDDIR REPORTSDIR ----

# Runs `meson test` in DIR with the remaining arguments; its JUnit report becomes REPORT.xml.
meson_test_report() {
  local dir=$1 report=$2
  shift 2
  local log=testlog.junit.xml
  [[ " $* " == *" --setup=valgrind "* ]] && log=testlog-valgrind.junit.xml
  rm -f "$dir/meson-logs/$log"
  meson test -C "$dir" --no-rebuild --print-errorlogs "$@"
  local rc=$?
  cp "$dir/meson-logs/$log" "$reports/$report.xml" 2>/dev/null
  return $rc
}

step_meson() { meson_test_report "$1" meson; }

step_valgrind() { meson_test_report "$1" valgrind --setup=valgrind --suite=check; }

step_differential() {
  CTENSOR_LIB="$root/$1/src/libctensor.so" \
    "$python" -m pytest -q -p no:cacheprovider --junitxml="$2/differential.xml" tests/differential
}

# The build tools meson-python runs with (PyPI, pinned), in the test venvs.
mesonpy_pins=(meson-python==0.17.1 meson==1.6.1 ninja==1.11.1.3 pyproject-metadata==0.9.0 packaging==24.2)
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

step_python() {
  local venv="$1/venv-py"
  install_package . "$venv" --system-site-packages || { echo "pip install . failed"; return 1; }
  CTENSOR_LIB="$root/$1/src/libctensor.so" CTENSOR_PYTHON_BUILD=installed \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider --junitxml="$2/python.xml" bindings/python/tests
}

# A plain venv (no Debian packages, so no torch) with NumPy 2 from PyPI.
step_numpy2() {
  local venv="$1/venv-np2" rc=0
  extra_pins=(numpy==2.1.3 pytest==8.3.4 iniconfig==2.3.1 pluggy==1.7.0
              mypy==1.13.0 mypy_extensions==1.2.0 typing_extensions==4.16.0)
  if install_package ./bindings/python "$venv"; then
    "$venv/bin/python" -m pytest -q -p no:cacheprovider --junitxml="$2/numpy2.xml" bindings/python/tests_numpy2 || rc=1
  else
    echo "pip install ./bindings/python failed"
    rc=1
  fi
  extra_pins=()
  return $rc
}

step_julia() {
  "$python" -m pytest -q -p no:cacheprovider --junitxml="$2/julia_static.xml" tests/check_julia_ccalls.py
}

step_rust() {
  # rustup's cargo, also when CI's PATH lacks ~/.cargo/bin; a missing cargo fails the step.
  [ -x "${HOME:-}/.cargo/bin/cargo" ] && PATH="$HOME/.cargo/bin:$PATH"
  (cd bindings/rust &&
    PKG_CONFIG_PATH="$root/$1/meson-uninstalled" \
    LD_LIBRARY_PATH="$root/$1/src${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
    CARGO_TARGET_DIR="$root/$1/cargo-target" \
    cargo test --locked --workspace --all-features 2>&1) |
    "$python" scripts/junit.py cargo "$2/rust.xml"
}

step_go() {
  local go rc=0 gocache gopath
  go=$(command -v go || echo /usr/local/go/bin/go)
  # The library from this build; the Go toolchain on the machine, no downloads.
  # Without HOME go's cache is "off" (builds need one) and GOPATH is empty (then
  # go 1.26 takes every directory for the module cache and lists stale files).
  gocache=$("$go" env GOCACHE 2>/dev/null || true)
  [ -n "$gocache" ] && [ "$gocache" != off ] || gocache="$root/$1/go-cache"
  gopath=$("$go" env GOPATH 2>/dev/null || true)
  [ -n "$gopath" ] || gopath="$root/$1/go-path"
  local goenv=(env PKG_CONFIG_PATH="$root/$1/meson-uninstalled" LD_LIBRARY_PATH="$root/$1/src"
               CGO_ENABLED=1 GOTOOLCHAIN=local GOPROXY=off GOFLAGS=-mod=readonly GOCACHE="$gocache" GOPATH="$gopath")
  gotest() {  # gotest REPORT ARGS...: go test -json ARGS into REPORTSDIR/REPORT.xml
    local report=$1
    shift
    (cd bindings/go && "${goenv[@]}" "$go" test -json "$@" 2>&1) |
      "$python" "$root/scripts/junit.py" go "$reports/$report.xml"
  }
  # Without and with the experimental functions (build tag ctensor_experimental);
  # cgocheck2 runs the tagged build, a superset of the other.
  (cd bindings/go && "${goenv[@]}" "$go" vet ./... && "${goenv[@]}" "$go" vet -tags ctensor_experimental ./...) ||
    { echo "go vet failed"; rc=1; }
  gotest go -race -count=1 ./... || rc=1
  gotest go-experimental -race -count=1 -tags ctensor_experimental ./... || rc=1
  GOEXPERIMENT=cgocheck2 gotest go-cgocheck2 -count=1 -tags ctensor_experimental ./... || rc=1
  gotest go-fuzz -run '^$' -fuzz '^FuzzViewChain$' -fuzztime 20s . || rc=1
  return $rc
}

# A build in its own directory (DIR SETUP_ARGS...): configured once, reconfigured later.
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

step_asan() {
  local rc=0
  local asan_args=(-Dbuildtype=debugoptimized -Db_sanitize=address,undefined -Db_lundef=false
                   -Dc_args=-fno-sanitize-recover=all -Dcpp_args=-fno-sanitize-recover=all)
  [[ " ${setup_args[*]} " == *" -Dpython=true "* ]] && asan_args+=(-Dpython=true)
  if ! sanitizer_build build-asan "${asan_args[@]}" || ! meson compile -C build-asan >/dev/null; then
    echo "ASan build failed"
    return 1
  fi
  meson_test_report build-asan asan --suite check --suite internal --suite stress || rc=1
  # Python is not built with ASan: its runtime (and libstdc++, whose throw it
  # intercepts) is preloaded; CPython's own exit-time leaks are not ours.
  local preload
  preload="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so)"
  CTENSOR_LIB="$root/build-asan/src/libctensor.so" LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 \
    "$python" -m pytest -q -p no:cacheprovider --junitxml="$2/asan-differential.xml" tests/differential || rc=1
  CTENSOR_LIB="$root/build-asan/src/libctensor.so" CTENSOR_PYTHON_BUILD="$root/build-asan/bindings/python" \
    LD_PRELOAD="$preload" ASAN_OPTIONS=detect_leaks=0 \
    "$python" -m pytest -q -p no:cacheprovider --junitxml="$2/asan-python.xml" bindings/python/tests || rc=1
  return $rc
}

step_tsan() {
  if ! sanitizer_build build-tsan -Dbuildtype=debugoptimized -Db_sanitize=thread -Db_lundef=false ||
     ! meson compile -C build-tsan tests/test_stress >/dev/null; then
    echo "TSan build failed"
    return 1
  fi
  TSAN_OPTIONS=halt_on_error=1 meson_test_report build-tsan tsan --suite stress
}

step_fault() {
  if ! sanitizer_build build-fault -Dbuildtype=debugoptimized -Dfault_injection=true ||
     ! meson compile -C build-fault >/dev/null; then
    echo "fault-injection build failed"
    return 1
  fi
  meson_test_report build-fault fault-loop --suite fault-loop --suite fault
}

# 30 s per target: the fuzz build itself takes about 6 minutes on 2 cores, and
# the whole run is to stay under 40 minutes. Longer campaigns: bash fuzz/run.sh SECONDS.
step_fuzz() { REPORT="$2/fuzz.xml" bash fuzz/run.sh "${CTENSOR_FUZZ_SECONDS:-30}"; }

step_safetensors() {
  local venv="$1/venv-safetensors"
  bash scripts/safetensors-venv.sh "$venv" || { echo "could not make the safetensors virtual environment"; return 1; }
  CTENSOR_LIB="$root/$1/src/libctensor.so" CTENSOR_PYTHON_BUILD="$root/$1/bindings/python" \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider --junitxml="$2/safetensors.xml" tests/safetensors
}

# ---- dependencies and the build every step uses ----

bash scripts/install-deps.sh || { echo "install-deps failed"; echo "0 passed, 1 failed"; exit 1; }

# Installed into the build directory: the Python package finds it there through pkg-config.
setup_args=(-Dbuildtype=debugoptimized "--prefix=$root/$builddir/install")
# The Python binding is built when the tree has it (bindings/python with the option).
if grep -q "option('python'" meson_options.txt 2>/dev/null && [ -f bindings/python/meson.build ]; then
  setup_args+=(-Dpython=true)
fi

echo
echo "== configure and build ($builddir) =="
build_start=$SECONDS
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
build_seconds=$((SECONDS - build_start))
rm -rf "$reports"
mkdir -p "$reports"

# ---- the steps ----

results=()  # name|reports|status (passed, failed or not selected)|seconds
for row in "${steps[@]}"; do
  IFS='|' read -r name report command heading <<<"$row"
  if ! selected "$name"; then
    results+=("$name|$report|not selected|0")
    continue
  fi
  echo
  echo "== $name: ${heading//BUILDDIR/$builddir} =="
  start=$SECONDS
  status=passed
  # shellcheck disable=SC2086  # the command is words: a function or `bash scripts/test-x.sh`
  $command "$builddir" "$reports" || status=failed
  results+=("$name|$report|$status|$((SECONDS - start))")
done

echo
echo "== summary =="
echo "$(printf '%5d s' "$build_seconds")  configure and build"
"$python" scripts/test_summary.py "$reports" README.md "$SECONDS" "${results[@]}"
