#!/usr/bin/env bash
# Prints what a gestured binary says of every fixture, into a folder, so that a re-cut can show
# its outputs byte-identical before and after (a behaviour-preserving change):
#
#   scripts/snapshot-outputs.sh .build/debug/gestured out/before   # on the old revision
#   scripts/snapshot-outputs.sh .build/debug/gestured out/after    # on the new one
#   diff -r out/before out/after && echo identical
#
# For every recording under fixtures/ (libinput record YAML, evemu): `replay --json`, `--frames`,
# `--summary` and `--explain`, alone and with each example configuration; and `evaluate --json`
# of every labelled corpus. Each output file holds stdout, then stderr, then the exit code.
# Runs two at a time (JOBS=N to change it).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(realpath "${1:?usage: scripts/snapshot-outputs.sh GESTURED OUTDIR}")
out=${2:?usage: scripts/snapshot-outputs.sh GESTURED OUTDIR}
jobs=${JOBS:-2}
rm -rf "$out"
mkdir -p "$out"

# One run: its name, then the arguments.
run() {
    local name=$1
    shift
    local status=0
    "$bin" "$@" >"$out/$name" 2>"$out/$name.stderr" || status=$?
    cat "$out/$name.stderr" >>"$out/$name"
    rm "$out/$name.stderr"
    echo "exit $status" >>"$out/$name"
}
# One line of the list of runs: the name and the arguments, separated by tabs.
runline() {
    local IFS=$'\t'
    # shellcheck disable=SC2086
    set -f
    run $1
}
export -f run runline
export bin out

find fixtures -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.evemu' -o -name '*.events' \) \
    ! -path 'fixtures/golden/*' -print | LC_ALL=C sort >"$out/recordings.txt"
while IFS= read -r recording; do
    flat=${recording//\//_}
    for config in none examples/kiosk.yaml examples/desktop.yaml; do
        c=$(basename "$config" .yaml)
        for mode in --json --frames --summary --explain; do
            if [ "$config" = none ]; then
                printf '%s\t%s\t%s\t%s\n' "$flat.$c$mode" replay "$recording" "$mode"
            else
                printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$flat.$c$mode" replay "$recording" --config "$config" "$mode"
            fi
        done
    done
done <"$out/recordings.txt" >"$out/runs.txt"
xargs -d '\n' -n 1 -P "$jobs" bash -c 'runline "$1"' _ <"$out/runs.txt"
rm "$out/runs.txt"

for labels in $(find fixtures -name labels.json | LC_ALL=C sort); do
    corpus=$(dirname "$labels")
    run "evaluate.${corpus//\//_}.json" evaluate "$corpus" --json
done
echo "snapshot: $(find "$out" -type f | wc -l) files in $out"
