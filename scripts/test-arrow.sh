#!/usr/bin/env bash
# scripts/test-arrow.sh BUILDDIR REPORTSDIR: the Arrow exchange against the real
# libraries. Makes (once) a venv BUILDDIR/venv-arrow that sees the system's
# NumPy 1.24 and PyTorch (--system-site-packages) with pinned pyarrow, polars,
# DuckDB, nanoarrow and Ray from PyPI, installs the ctensor package into it
# (against BUILDDIR/install's libctensor when scripts/test.sh made it, else `pip
# install .` with libctensor built in) and runs
# bindings/python/tests_arrow with a JUnit report REPORTSDIR/arrow.xml.
# The C side (tests/test_arrow.c) runs with the Check suites.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
builddir=${1:?usage: scripts/test-arrow.sh BUILDDIR REPORTSDIR}
reports=${2:?usage: scripts/test-arrow.sh BUILDDIR REPORTSDIR}
case $builddir in /*) ;; *) builddir=$root/$builddir ;; esac
case $reports in /*) ;; *) reports=$root/$reports ;; esac
mkdir -p "$reports"
cd "$root"

python=/usr/bin/python3
venv=$builddir/venv-arrow
mesonpy_pins=(meson-python==0.17.1 meson==1.6.1 ninja==1.11.1.3 pyproject-metadata==0.9.0 packaging==24.2)
# Wheels that run with the system's NumPy 1.24 (pyarrow 26 refuses NumPy 1.x; 19.0.1 runs with it).
# Ray Data (the engine run end to end) with pandas 2.2.3, which keeps NumPy 1.24
# (the pandas Ray would pick needs NumPy 2).
arrow_pins=(pyarrow==19.0.1 polars==1.44.2 polars-runtime-32==1.44.2 duckdb==1.5.6 nanoarrow==0.9.0
            "ray[data]==2.60.0" pandas==2.2.3 pytest==8.3.4 iniconfig==2.3.1 pluggy==1.7.0)

if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv --system-site-packages "$venv"
fi
"$venv/bin/pip" install -q --disable-pip-version-check "${mesonpy_pins[@]}" "${arrow_pins[@]}"
"$venv/bin/python" -c 'import numpy; assert numpy.__version__.startswith("1."), numpy.__version__'  # the system's
# The package: against the libctensor that scripts/test.sh installed into
# BUILDDIR/install (only the extension is built), else with libctensor built in.
pcfile=$( { find "$builddir/install" -name ctensor.pc 2>/dev/null || true; } | head -n 1)  # none: no install made
if [ -n "$pcfile" ]; then
  PKG_CONFIG_PATH=$(dirname "$pcfile") "$venv/bin/pip" install -q --disable-pip-version-check --no-build-isolation \
    --force-reinstall --no-deps ./bindings/python
else
  "$venv/bin/pip" install -q --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps .
fi

"$venv/bin/python" -m pytest -q -p no:cacheprovider --junitxml="$reports/arrow.xml" bindings/python/tests_arrow
