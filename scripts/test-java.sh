#!/usr/bin/env bash
# The Java binding's tests: scripts/test-java.sh BUILDDIR REPORTSDIR
#   runs `mvn test` in bindings/java against BUILDDIR/src/libctensor.so (JUnit 5: values
#   against the C results, threads, the 10^6 create/release memory check, and
#   gen_native.py --check: the generated downcalls current with api.json and every
#   api.json function wrapped or listed in bindings/java/not-wrapped.txt), then
#   `mvn javadoc:javadoc`. Surefire's XML reports are copied to REPORTSDIR/java-*.xml.
# Needs Maven (Debian's 3.8.7 is fine) and a JDK >= 22 (JAVA_HOME, else the Temurin 25
# JDK at /usr/lib/jvm/temurin-25-jdk-amd64). Plugins, JUnit and Arrow Java's arrow-c-data
# (the Arrow interop test; exact versions in pom.xml) come from Maven Central into $CTENSOR_M2 (default ~/.m2/repository) on
# the first run; later runs need no network. Maven's output goes to BUILDDIR/java.
# Exits non-zero if a test, the check or javadoc fails.
set -uo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 BUILDDIR REPORTSDIR" >&2
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
builddir=$(cd "$1" && pwd) || exit 2
mkdir -p "$2" && reports=$(cd "$2" && pwd) || exit 2
lib="$builddir/src/libctensor.so"
[ -e "$lib" ] || { echo "test-java: $lib not found (build the library first)" >&2; exit 1; }

java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'; }
if [ -z "${JAVA_HOME:-}" ] || [ "$(java_major "$JAVA_HOME")" -lt 22 ] 2>/dev/null; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
if [ ! -x "$JAVA_HOME/bin/java" ] || [ "$(java_major "$JAVA_HOME")" -lt 22 ]; then
  echo "test-java: needs a JDK >= 22 (set JAVA_HOME)" >&2
  exit 1
fi
command -v mvn >/dev/null || { echo "test-java: needs Maven (mvn) on PATH" >&2; exit 1; }
# Maven 3.8's bundled Guava calls sun.misc.Unsafe, which JDK 24+ warns about.
export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"

out="$builddir/java"
mvn_args=(-B -q -Dstyle.color=never -f "$root/bindings/java/pom.xml" "-Dmaven.repo.local=${CTENSOR_M2:-$HOME/.m2/repository}"
  "-Dctensor.build.dir=$out" "-Dctensor.library=$lib")
rm -rf "$out/surefire-reports"
status=0
mvn "${mvn_args[@]}" test || status=1
for f in "$out"/surefire-reports/TEST-*.xml; do
  [ -e "$f" ] || continue
  name=$(basename "$f" .xml)
  cp "$f" "$reports/java-${name#TEST-dev.ctensor.}.xml"
done
ls "$out"/surefire-reports/TEST-*.xml >/dev/null 2>&1 || { echo "test-java: no Surefire reports" >&2; status=1; }
mvn "${mvn_args[@]}" javadoc:javadoc || { echo "test-java: javadoc failed" >&2; status=1; }
exit $status
