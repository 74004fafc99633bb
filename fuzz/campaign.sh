#!/usr/bin/env bash
# A fuzzing campaign beyond CI's 30 seconds a target, with coverage:
#   1. every libFuzzer target under ASan+UBSan (fuzz/run.sh, build-fuzz) for RUNS
#      executions each (default 10^7), or SECONDS each with --time SECONDS, growing
#      build-fuzz/corpus/TARGET from the committed seeds (fuzz/corpus/TARGET);
#   2. a source-based coverage build (clang -fprofile-instr-generate
#      -fcoverage-mapping, no sanitizer) in build-fuzz-cov, which replays each
#      target's whole corpus once; llvm-profdata merges the profiles and llvm-cov
#      reports the library's line, function and region coverage (src/ only) into
#      build-fuzz-cov/coverage.txt, and per-line HTML into build-fuzz-cov/html.
# A crash, leak or broken invariant fails step 1 and leaves build-fuzz/crash-*.
# usage: fuzz/campaign.sh [RUNS] | fuzz/campaign.sh --time SECONDS
set -uo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --time ]; then
  bash fuzz/run.sh "${2:?--time needs SECONDS}"
else
  RUNS=${1:-10000000} bash fuzz/run.sh
fi
fuzz_rc=$?

covdir=build-fuzz-cov
# b_lundef=false: the library's fuzzer instrumentation (sancov) resolves against the
# libFuzzer runtime linked into each target, as in fuzz/run.sh's build.
bash fuzz/build.sh "$covdir" "-fprofile-instr-generate -fcoverage-mapping" -Db_lundef=false \
  -Dc_link_args=-fprofile-instr-generate -Dcpp_link_args=-fprofile-instr-generate || exit 1

rm -rf "$covdir/profiles"
mkdir -p "$covdir/profiles"
objects=()
for exe in "$covdir"/fuzz/fuzz_*; do
  [ -x "$exe" ] && [ -f "$exe" ] || continue
  t=$(basename "$exe")
  mkdir -p "build-fuzz/corpus/$t"
  # -runs=0 replays every input once; the profile is written at exit.
  LLVM_PROFILE_FILE="$covdir/profiles/$t.profraw" "$exe" -runs=0 "build-fuzz/corpus/$t" "fuzz/corpus/$t" \
    >"$covdir/$t.replay.log" 2>&1 || echo "campaign: replaying $t's corpus failed (see $covdir/$t.replay.log)"
  objects+=(-object "$exe")
done
llvm-profdata-14 merge -sparse "$covdir"/profiles/*.profraw -o "$covdir/fuzz.profdata" ||
  { echo "campaign: llvm-profdata-14 failed"; exit 1; }
lib=$(ls "$covdir"/src/libctensor.so.*.*.* | head -n 1)
only_src=(-ignore-filename-regex='(^|/)(fuzz|tests|include|bench|examples)/|/usr/')
llvm-cov-14 report "$lib" "${objects[@]}" -instr-profile="$covdir/fuzz.profdata" "${only_src[@]}" \
  >"$covdir/coverage.txt" || { echo "campaign: llvm-cov failed"; exit 1; }
llvm-cov-14 show "$lib" "${objects[@]}" -instr-profile="$covdir/fuzz.profdata" "${only_src[@]}" \
  -format=html -output-dir="$covdir/html" >/dev/null
echo
echo "library coverage over the corpora (src/; $covdir/coverage.txt, $covdir/html/index.html):"
head -n 2 "$covdir/coverage.txt" | tail -n 1
grep '^TOTAL' "$covdir/coverage.txt"
exit $fuzz_rc
