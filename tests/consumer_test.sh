#!/usr/bin/env bash
# Consumer test: installs the built library into a temporary root, then builds
# examples/quickstart.c the way a user would (cc + pkg-config, nothing from the
# build tree) and runs it against the installed shared library.
# usage: consumer_test.sh SOURCE_ROOT BUILD_ROOT
set -euo pipefail

src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
root=$(mktemp -d "${TMPDIR:-/tmp}/ctensor-consumer.XXXXXX")
trap 'rm -rf "$root"' EXIT

meson install -C "$build" --no-rebuild --quiet --destdir "$root/dest" >"$root/install.log" 2>&1 ||
  { cat "$root/install.log"; echo "FAIL: meson install"; exit 1; }

pc=$(find "$root/dest" -name ctensor.pc -print -quit)
[ -n "$pc" ] || { echo "FAIL: no ctensor.pc installed"; exit 1; }
header=$(find "$root/dest" -path '*/include/ctensor.h' -print -quit)
[ -n "$header" ] || { echo "FAIL: ctensor.h not installed"; exit 1; }
libso=$(find "$root/dest" -name 'libctensor.so*' -type f -print -quit)
[ -n "$libso" ] || { echo "FAIL: libctensor.so not installed"; exit 1; }

# The .pc names the final prefix; the sysroot maps it into the staging root.
export PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_SYSROOT_DIR="$root/dest"
export PKG_CONFIG_LIBDIR="$PKG_CONFIG_PATH"
flags=$(pkg-config --cflags --libs ctensor)
echo "pkg-config --cflags --libs ctensor: $flags"

cc=${CC:-cc}
# shellcheck disable=SC2086 # the flags are meant to be split
"$cc" -std=c99 -Wall -Wextra -Werror -o "$root/quickstart" "$src/examples/quickstart.c" $flags

export LD_LIBRARY_PATH=$(dirname "$libso")
resolved=$(ldd "$root/quickstart" | awk '/libctensor/ {print $3}')
case "$resolved" in
  "$root"/*) ;;
  *) echo "FAIL: quickstart resolves libctensor to '$resolved', not the installed copy"; exit 1 ;;
esac

"$root/quickstart" >"$root/out.txt"
cat "$root/out.txt"
grep -q 'TENSOR_E_BOUNDS' "$root/out.txt" || { echo "FAIL: quickstart did not show the bounds error"; exit 1; }
echo "consumer test passed"
