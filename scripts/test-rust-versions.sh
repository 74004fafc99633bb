#!/usr/bin/env bash
# scripts/test-rust-versions.sh BUILDDIR REPORTSDIR
#
# The Rust binding at the ends of its dependency ranges, and installed:
#   1. the safe crate's tests (all features) with ndarray, half and num-complex at
#      the oldest versions bindings/rust/Cargo.toml accepts   -> REPORTSDIR/rust-oldest.xml
#   2. the same at the newest versions known to exist        -> REPORTSDIR/rust-newest.xml
#   3. the library installed (meson install --destdir) and examples/rust built
#      against the installed ctensor.pc, run without LD_LIBRARY_PATH (the rpath
#      from ctensor-sys's build script)                        -> REPORTSDIR/rust-installed.xml
# Each runs in a copy of the workspace under BUILDDIR/rust-versions, so the
# checked-in Cargo.lock (the pinned versions scripts/test.sh tests) never changes.
# Needs the crates.io index (cargo update --precise). Exits non-zero on any failure.
set -u -o pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILDDIR REPORTSDIR" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
builddir=$(cd "$1" && pwd)
mkdir -p "$2"
reports=$(cd "$2" && pwd)
python=/usr/bin/python3
[ -x "${HOME:-}/.cargo/bin/cargo" ] && PATH="$HOME/.cargo/bin:$PATH"

# Bump NEWEST when a release inside a range appears; widen a range in
# bindings/rust/Cargo.toml only with these tests green at its new ends.
OLDEST=(ndarray@0.16.0 half@2.1.0 num-complex@0.4.6)
NEWEST=(ndarray@0.17.2 half@2.7.1 num-complex@0.4.6)

work="$builddir/rust-versions"
rm -rf "$work"
mkdir -p "$work/bindings" "$work/examples"
# The workspace as the repository lays it out (members, include/ for regen).
(cd "$root" && tar --exclude=target -cf - bindings/rust examples/rust include) | tar -xf - -C "$work"
ws="$work/bindings/rust"
pinned="$work/Cargo.lock.pinned"
cp "$ws/Cargo.lock" "$pinned"
failed=()

uninstalled=(env PKG_CONFIG_PATH="$builddir/meson-uninstalled"
             LD_LIBRARY_PATH="$builddir/src${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
             CARGO_TARGET_DIR="$builddir/cargo-target-versions")

for end in oldest newest; do
  echo "=== ctensor's tests with the $end ndarray, half and num-complex"
  cp "$pinned" "$ws/Cargo.lock"
  if [ "$end" = oldest ]; then pins=("${OLDEST[@]}"); else pins=("${NEWEST[@]}"); fi
  ok=1
  for pin in "${pins[@]}"; do
    (cd "$ws" && cargo update -p "${pin%@*}" --precise "${pin#*@}") || ok=0
  done
  (cd "$ws" && cargo tree -p ctensor --all-features -e normal --depth 1)
  if [ $ok = 1 ]; then
    (cd "$ws" && "${uninstalled[@]}" cargo test --locked -p ctensor --all-features 2>&1) |
      "$python" "$root/scripts/junit.py" cargo "$reports/rust-$end.xml" || failed+=("rust $end")
  else
    failed+=("rust $end (cargo update)")
  fi
done

echo "=== examples/rust against an installed prefix, run without LD_LIBRARY_PATH"
cp "$pinned" "$ws/Cargo.lock"
destdir="$work/installed"
meson install -C "$builddir" --no-rebuild --quiet --destdir "$destdir" || failed+=("meson install")
pc=$(find "$destdir" -name ctensor.pc | head -n 1)
# The prefix as a user's: PKG_CONFIG_PATH at <prefix>/lib/<triplet>/pkgconfig; the
# sysroot maps the .pc's own prefix into the destdir.
installed=(env -u LD_LIBRARY_PATH PKG_CONFIG_PATH="$(dirname "${pc:-/nonexistent/x}")"
           PKG_CONFIG_SYSROOT_DIR="$destdir" CARGO_TARGET_DIR="$builddir/cargo-target-installed")
(cd "$ws" && "${installed[@]}" cargo test --locked -p ctensor-quickstart 2>&1) |
  "$python" "$root/scripts/junit.py" cargo "$reports/rust-installed.xml" || failed+=("rust installed")
quickstart="$builddir/cargo-target-installed/debug/quickstart"
if (cd "$ws" && "${installed[@]}" cargo run --locked -q -p ctensor-quickstart) > "$work/quickstart.out" 2>&1 &&
   readelf -d "$quickstart" | grep -E 'R(UN)?PATH' | grep -qF "$destdir"; then
  echo "cargo run without LD_LIBRARY_PATH: ok ($(head -n 1 "$work/quickstart.out"))"
else
  cat "$work/quickstart.out"
  readelf -d "$quickstart" 2>&1 | grep -E 'R(UN)?PATH|NEEDED'
  failed+=("cargo run installed")
fi

if [ ${#failed[@]} -gt 0 ]; then
  echo "FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "all Rust version and install checks passed"
