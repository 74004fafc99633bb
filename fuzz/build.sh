#!/usr/bin/env bash
# Configures (once; later runs reconfigure) and builds the fuzz targets with clang
# in BUILDDIR, with the fuzzer instrumentation plus FLAGS for C and C++ and the
# remaining meson options. Used by fuzz/run.sh and fuzz/campaign.sh.
# usage: fuzz/build.sh BUILDDIR "FLAGS" [MESON_OPTION...]
set -uo pipefail
cd "$(dirname "$0")/.."
builddir=$1 flags="-fsanitize=fuzzer-no-link $2"
shift 2
setup=(-Dbuildtype=debugoptimized -Dfuzz=true -Dtests=false -Dpython=false "-Dc_args=$flags" "-Dcpp_args=$flags" "$@")
if [ -f "$builddir/build.ninja" ]; then
  meson setup --reconfigure "$builddir" "${setup[@]}" >/dev/null
else
  rm -rf "$builddir"
  CC=clang CXX=clang++ meson setup "$builddir" "${setup[@]}" >/dev/null
fi || { echo "fuzz: configuring $builddir failed"; exit 1; }
# Only the targets (and the library they link): other executables, such as the
# examples, have no libFuzzer runtime for the instrumentation to call.
targets=()
for src in fuzz/fuzz_*.c; do targets+=("fuzz/$(basename "$src" .c)"); done
meson compile -C "$builddir" "${targets[@]}" >/dev/null || { echo "fuzz: building $builddir failed"; exit 1; }
