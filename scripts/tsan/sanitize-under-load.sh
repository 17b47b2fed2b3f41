#!/usr/bin/env bash
# Runs `make sanitize` RUNS times in a row (10) with a CPU hog on every core beside it
# (stress-ng, else busy shell loops), stopping at the first failure: the check that the
# sanitizer suites are not flaky under contention (a lock hand-over the sanitizer cannot see
# shows up only when threads really wait for each other). Not part of `make test`.
set -euo pipefail
runs=${1:-10}
cd "$(dirname "$0")/../.."
cores=$(nproc)
if command -v stress-ng >/dev/null; then
    stress-ng --cpu "$cores" --timeout 0 >/dev/null 2>&1 &
    hog=$!
else
    pids=()
    for _ in $(seq "$cores"); do (while :; do :; done) & pids+=($!); done
    hog="${pids[*]}"
fi
trap 'kill $hog 2>/dev/null || true' EXIT
mkdir -p out/sanitize-under-load
for run in $(seq "$runs"); do
    log=out/sanitize-under-load/run-$run.log
    start=$(date +%s)
    if make sanitize >"$log" 2>&1; then
        echo "run $run of $runs: passed in $(( $(date +%s) - start )) s; ASan, then TSan: $(grep -o 'Test run with [0-9]* tests in [0-9]* suites passed' "$log" | sed 's/Test run with //' | paste -sd '/' -)"
    else
        echo "run $run of $runs: FAILED (see $log)"
        grep -m5 'WARNING: ThreadSanitizer\|ERROR: AddressSanitizer\|✘' "$log" || tail -5 "$log"
        exit 1
    fi
done
echo "all $runs loaded runs passed"
