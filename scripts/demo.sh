#!/usr/bin/env bash
# The README's first command: installs the build dependencies, builds ctensor
# in ./build and runs the quickstart example. Works as root (no sudo needed).
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-deps.sh
if [ ! -f build/build.ninja ]; then
  meson setup build
fi
meson compile -C build
./build/examples/quickstart
