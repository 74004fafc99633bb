#!/usr/bin/env bash
# The Node.js binding's tests (bindings/node) against the library built in BUILDDIR:
#   scripts/test-node.sh BUILDDIR REPORTSDIR
# Installs the pinned npm packages (npm ci from package-lock.json; the npm cache may
# serve them), builds the addon with the node-gyp bundled with npm against the
# installed Node headers (--nodedir: nothing is downloaded) and BUILDDIR's libctensor
# (pkg-config through BUILDDIR/meson-uninstalled, or BUILDDIR as an installed prefix),
# checks the TypeScript declarations (tsc --noEmit), then runs the node:test suites
# with a spec reporter on stdout and JUnit XML in REPORTSDIR/node.xml.
# Exits non-zero on any failure.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 BUILDDIR REPORTSDIR" >&2
  exit 2
fi
builddir=$(realpath "$1")
reports=$(realpath -m "$2")
mkdir -p "$reports"
cd "$(dirname "$0")/../bindings/node"

if [ -d "$builddir/meson-uninstalled" ]; then
  pc="$builddir/meson-uninstalled"
else
  pc=$(find "$builddir" -name ctensor.pc -printf '%h\n' -quit)
fi
if [ -z "$pc" ]; then
  echo "test-node: no pkg-config file for ctensor under $builddir" >&2
  exit 1
fi
export PKG_CONFIG_PATH="$pc${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"

command -v node >/dev/null || { echo "test-node: node is not installed" >&2; exit 1; }
echo "test-node: node $(node --version), npm $(npm --version), libctensor from $pc"
npm ci --ignore-scripts --prefer-offline --no-audit --no-fund
npm run build
npm run typecheck
node --expose-gc --test \
  --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=junit --test-reporter-destination="$reports/node.xml" \
  test/
