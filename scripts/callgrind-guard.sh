#!/usr/bin/env bash
# scripts/callgrind-guard.sh [--update] — the performance regression guard. Counts the
# instructions `gestured-bench --instructions` executes (a fixed decode + gesture pipeline +
# hit-test workload; no clock, no files) under valgrind's callgrind, and compares them with
# benchmarks/instructions-baseline.txt: more than 25% above fails. Instruction counts do not
# depend on the machine's load, so this is stable on shared CI machines where wall-clock
# figures are not. --update writes the current count as the new baseline (after a deliberate
# change; commit it with the reason). The baseline belongs to the Swift version it records.
set -euo pipefail
cd "$(dirname "$0")/.."
baseline_file=benchmarks/instructions-baseline.txt
limit_percent=25

command -v valgrind >/dev/null || scripts/install-deps.sh valgrind
swift build -c release --product gestured-bench >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Without its debug information: valgrind 3.19 cannot read the DWARF 5 Swift writes.
bench=$out/gestured-bench
strip -o "$bench" .build/release/gestured-bench
# Swift seeds its hashing per process; fixed, the count is the same run after run.
SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" \
    "$bench" --instructions > "$out/result.json" 2> "$out/valgrind.log" || { cat "$out/valgrind.log"; exit 1; }
count=$(awk '/^(summary|totals):/ {print $2; exit}' "$out/callgrind.out")
swift_version=$(swift --version 2>/dev/null | head -1)

if [ "${1:-}" = "--update" ]; then
    printf '%s\n# %s\n' "$count" "$swift_version" > "$baseline_file"
    echo "guard: baseline set to $count instructions ($swift_version)"
    exit 0
fi
baseline=$(head -1 "$baseline_file")
change=$(awk -v c="$count" -v b="$baseline" 'BEGIN { printf "%+.1f", (c - b) * 100 / b }')
echo "guard: $count instructions, baseline $baseline ($change%; fails above +$limit_percent%)"
if awk -v c="$count" -v b="$baseline" -v l="$limit_percent" 'BEGIN { exit !(c > b * (1 + l / 100)) }'; then
    echo "guard: FAIL: more than $limit_percent% more instructions than the baseline" >&2
    echo "guard: the baseline was taken with $(sed -n 2p "$baseline_file" | sed 's/^# //')" >&2
    exit 1
fi
