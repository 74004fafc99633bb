#!/usr/bin/env bash
# Builds the libFuzzer targets with clang, ASan and UBSan in ./build-fuzz and
# runs each for SECONDS (default 60), or for RUNS executions when the
# environment sets RUNS (fuzz/campaign.sh), from its committed seed corpus
# (fuzz/corpus/TARGET; new inputs go to build-fuzz/corpus/TARGET, not into the
# repository). Prints executions and coverage per target; with REPORT=file.xml
# also writes a JUnit report (one test case per target). A crash, leak or broken
# invariant leaves its input as build-fuzz/crash-* and fails the run.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
builddir=build-fuzz
bash fuzz/build.sh "$builddir" "-fno-sanitize-recover=all -fno-omit-frame-pointer" \
  -Db_sanitize=address,undefined -Db_lundef=false || exit 1

targets=()
for exe in "$builddir"/fuzz/fuzz_*; do
  [ -x "$exe" ] && [ -f "$exe" ] && targets+=("$(basename "$exe")")
done
failed=0
cases=""
limit=(-max_total_time="$seconds")
[ -n "${RUNS:-}" ] && limit=(-runs="$RUNS")
printf '%-18s %10s %8s %8s %8s %7s  %s\n' target execs exec/s cov ft corpus result
for t in "${targets[@]}"; do
  work="$builddir/corpus/$t"
  mkdir -p "$work" "fuzz/corpus/$t"
  log="$builddir/$t.log"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$builddir/fuzz/$t" "${limit[@]}" -print_final_stats=1 -rss_limit_mb=2048 \
    -artifact_prefix="$builddir/crash-$t-" "$work" "fuzz/corpus/$t" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  corpus=$(ls "$work" | wc -l)
  result=ok
  if [ $rc -ne 0 ]; then
    result="FAILED (rc $rc, see $log)"
    failed=1
    tail -40 "$log"
    cases+="<testcase classname=\"fuzz\" name=\"$t\"><failure message=\"exit status $rc\"/></testcase>"
  else
    cases+="<testcase classname=\"fuzz\" name=\"$t\"/>"
  fi
  printf '%-18s %10s %8s %8s %8s %7s  %s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$corpus" "$result"
done
if [ -n "${REPORT:-}" ]; then
  printf '<?xml version="1.0" encoding="utf-8"?>\n<testsuites><testsuite name="fuzz">%s</testsuite></testsuites>\n' \
    "$cases" >"$REPORT"
fi
exit $failed
