#!/usr/bin/env bash
# Installs everything the build, the demo and the tests need on Debian 12.
# Idempotent and non-interactive (works with no stdin, e.g. CI=true); installs
# only what is missing. Run as root, or as a user who may use sudo.
set -euo pipefail

packages=(
  build-essential binutils meson ninja-build pkg-config check valgrind
  python3 python3-dev python3-numpy python3-pytest python3-torch python3-venv
  libclang-dev  # bindgen (the Rust bindings' regeneration check) loads libclang
  clang libclang-rt-14-dev abigail-tools
  libsleef-dev  # vectorized transcendental functions (the unary math ops)
  llvm-14  # llvm-profdata and llvm-cov for fuzz/campaign.sh
  libbenchmark-dev  # bench/bench_small_ops (meson -Dbench=true)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: not root and no sudo; run as root" >&2; exit 1; }
  SUDO=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq </dev/null
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive \
  apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
