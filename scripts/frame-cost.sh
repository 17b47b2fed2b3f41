#!/usr/bin/env bash
# scripts/frame-cost.sh [RECORDING] — what a frame of the live part costs: decoding plus the
# gesture pipeline, as `gestured run` has them, counted in instructions under valgrind's
# callgrind (`gestured-bench --frame-cost`; the recording is read into memory first and not
# counted). For three layouts — every gesture kind (the built-in layout), swipes of 1 to 5
# fingers in 8 directions only (lisgd's job), and a root region with no gesture — and for the
# decoder alone; then where the built-in layout's instructions go, by phase. Also what only a
# kernel device adds before decoding: the device's state kept for a resynchronization after
# SYN_DROPPED, by gestured's mirror (frame_instructions_mirror) and, for comparison, by
# libevdev's own calls as gestured made them before (frame_instructions_libevdev_mirror). And
# the whole turn of `gestured run --no-socket`'s loop a frame (frame_instructions_service, with
# every kind; frame_instructions_service_swipes): a GestureService reading a pipe device, each
# frame written (one write(2)) and one turn of the loop — what the service adds around decode and
# pipeline. (A pipe device reads until EAGAIN and keeps no state for a resynchronization: a kernel
# device's turn differs by a read and the mirror; `make bench-vm-instructions` counts that one.)
# Prints JSON.
# RECORDING defaults to the long stream (evemu's 3M touchscreen, 29 s, up to 10 fingers).
# Instruction counts do not depend on the machine's load; they do on the Swift version.
set -euo pipefail
cd "$(dirname "$0")/.."
recording=${1:-fixtures/recordings/evemu/3m.events}

command -v valgrind >/dev/null || scripts/install-deps.sh valgrind
swift build -c release --product gestured-bench >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# Without its debug information (valgrind 3.19 cannot read the DWARF 5 Swift writes), with its
# symbols (the counted functions are found by name).
bench=$out/gestured-bench
strip --strip-debug -o "$bench" .build/release/gestured-bench

count() { # layout → instructions in its counted function (playLivePart, decodeOnly, mirrorOnly, libevdevMirrorOnly, playServiceTurns)
    SWIFT_DETERMINISTIC_HASHING=1 valgrind --tool=callgrind --callgrind-out-file="$out/$1.out" \
        --toggle-collect='*playLivePart*' --toggle-collect='*decodeOnly*' --toggle-collect='*irrorOnly*' \
        --toggle-collect='*playServiceTurns*' \
        "$bench" --frame-cost "$1" "$recording" > "$out/$1.json" 2> "$out/$1.log" || { cat "$out/$1.log" >&2; exit 1; }
    awk '/^(summary|totals):/ {print $2; exit}' "$out/$1.out"
}
frames=0
json="{\"recording\": \"$recording\""
for layout in every swipes none decode mirror libevdev service service-swipes; do
    n=$(count $layout)
    frames=$(sed -E 's/.*"frames": ([0-9]+).*/\1/' "$out/$layout.json")
    key=${layout//-/_}; [ "$layout" = libevdev ] && key=libevdev_mirror
    json+=", \"frame_instructions_$key\": $((n / frames))"
done
json+=", \"frames\": $frames"

# The built-in layout by phase: inclusive counts of each phase's functions, per frame. The
# phases add up to the whole: the session with the decoder inlined in it (everything outside the
# pipeline: each event decoded, each frame delivered, the end of the stream: contacts cancelled,
# deadlines fired), then the pipeline's contact filter, router, tracker, arena with its
# recognizers, deadlines and the rest; the gesture events are counted within the arena's and the
# deadlines' phases. (The decoder alone is frame_instructions_decode.)
callgrind_annotate --inclusive=yes --threshold=100 "$out/every.out" > "$out/every.txt" \
    || { echo "frame-cost: callgrind_annotate failed" >&2; exit 1; }
total=$(awk '/^(summary|totals):/ {print $2; exit}' "$out/every.out")
inclusive() { # symbol pattern [optional] → the instructions of its first (largest) line; fails when none
    local n
    n=$(grep -m1 -E "$1" "$out/every.txt" | awk '{gsub(",", "", $1); print $1}')
    if [ -z "$n" ] && [ "${2:-}" = optional ]; then echo 0; return; fi
    [ -n "$n" ] || { echo "frame-cost: no function matches $1 (inlined or renamed?)" >&2; return 1; }
    echo "$n"
}
pipeline=$(inclusive 'GesturePipelineC7processyy')
track=$(inclusive 'ContactFilterC5track')
# Inlined into the pipeline when the compiler chooses: then counted in the rest of it.
fingers_only=$(inclusive 'ContactFilterC11fingersOnly' optional)
router=$(inclusive 'TouchRouterC5route_8listener')
tracker=$(inclusive 'TouchSequenceC5track')
arena=$(inclusive 'ArenaC12frameArrived')
events=$(inclusive 'GesturePipelineC5arena_5emits')
deadlines=$(inclusive 'GesturePipelineC7advance2to')
filter=$((track + fingers_only))
per() { echo $(( $1 / frames )); }
json+=", \"every_by_phase\": {\"session_and_decoder\": $(per $((total - pipeline)))"
json+=", \"contact_filter\": $(per $filter), \"router\": $(per $router), \"tracker\": $(per $tracker)"
json+=", \"arena_and_recognizers\": $(per $arena), \"deadlines\": $(per $deadlines)"
json+=", \"rest_of_pipeline\": $(per $((pipeline - filter - router - tracker - arena - deadlines)))"
json+=", \"gesture_events_within_the_above\": $(per $events)}"
echo "$json}"
