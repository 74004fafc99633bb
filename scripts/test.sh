#!/usr/bin/env bash
# Runs every test: the Check suites (plain and under valgrind) and the
# differential/binding tests. Exits non-zero if anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh

builddir=build-test
if [ ! -d "$builddir" ]; then
  meson setup "$builddir" -Dbuildtype=debugoptimized
fi
meson compile -C "$builddir"

echo "== Check suites =="
meson test -C "$builddir" --print-errorlogs

echo "== Check suites under valgrind =="
meson test -C "$builddir" --setup=valgrind --suite=check --print-errorlogs
