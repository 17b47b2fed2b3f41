#!/usr/bin/env bash
# scripts/replay-outputs.sh GESTURED OUTDIR — every output a change that must not change behaviour
# compares: `replay --json` and `replay --explain` of every fixture recording (fixtures/, less the
# fuzz inputs, golden files and quirks), and `evaluate --json` of fixtures/chromiumos, its
# variants and fixtures/recordings, one file each in OUTDIR. Run it with the binaries from
# before and after, then `diff -r BEFORE AFTER` (about a minute each).
set -euo pipefail
gestured=$(realpath "$1")
out=$2
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out"
find fixtures \( -name '*.events' -o -name '*.evemu' -o -name '*.yaml' \) | grep -v -e /fuzz/ -e /golden/ -e /quirks/ | sort |
while read -r f; do
    o=$out/$(echo "$f" | tr '/' '_')
    "$gestured" replay "$f" --json > "$o" 2>&1 || true
    "$gestured" replay "$f" --explain > "$o.explain" 2>&1 || true
done
for corpus in fixtures/chromiumos fixtures/chromiumos/variants fixtures/recordings; do
    "$gestured" evaluate "$corpus" --json > "$out/evaluate-$(echo "$corpus" | tr '/' '_').json" 2>&1 || true
done
echo "replay-outputs: $(ls "$out" | wc -l) files in $out"
