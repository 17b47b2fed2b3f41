#!/usr/bin/env bash
# scripts/vm/libinput-compare.sh [LABELS] — run inside the VM (scripts/vm/run.sh) as root from the
# repository: `make libinput-vm`. Every recording the labels file names and `gestured evaluate`
# evaluates (as its --json lists them) is made a uinput device and played into it at its
# recorded pace by `gestured replay --uinput` while `libinput debug-events --enable-tap` watches it (libinput's defaults
# otherwise: click method, tap button map, scrolling as the device gets them) and `evemu-record`
# captures what the kernel delivered, with its time stamps. A second after the playback
# (libinput's tap timeouts run in real time) both are stopped.
#
# The player is `gestured replay --uinput`, not evemu-play: evemu-play sleeps from one event to
# the next, so under emulation every frame's oversleep adds up (a 137 ms tap came out 180-230 ms
# long, past libinput's 180 ms tap timeout). gestured writes each frame whole at its recorded
# offset from the start, so lateness does not accumulate, and says how late it was at worst. It
# makes the device, names its node on stderr, and plays once a file we write names it: by then
# libinput and evemu-record have it open.
#
# Writes, under $VM_OUT (default /tmp/gestured-libinput): raw/FILE.txt (libinput's output),
# raw/FILE.err (its messages), raw/FILE.kernel (the capture), raw/FILE.play (the player's worst
# lateness), and files.txt, the recordings run, in order. scripts/vm/libinput-agreement.py judges
# them on the host.
#
# Knobs: LIBINPUT_ONLY=SUBSTRING (recordings whose path contains it), LIBINPUT_LIMIT=N (the
# first N of those), LIBINPUT_SETTLE=SECONDS after the playback (1), GESTURED (the binary that
# lists the evaluated recordings and plays them; .build-release/release/gestured).
set -u
cd "$(dirname "$0")/../.."
labels=${1:-fixtures/chromiumos/labels.json}
out=${VM_OUT:-/tmp/gestured-libinput}
settle=${LIBINPUT_SETTLE:-1}
work=/tmp/gestured-libinput-work
debug_events=/usr/libexec/libinput/libinput-debug-events
gestured=${GESTURED:-.build-release/release/gestured}
mkdir -p "$out/raw" "$work"

say() { echo "libinput-compare: $*"; }

for tool in evemu-record "$debug_events" python3; do
    command -v "$tool" >/dev/null || { say "error: $tool is missing (make libinput-vm installs evemu-tools and libinput-tools)"; exit 1; }
done
[ -x "$gestured" ] || { say "error: $gestured is missing (make release builds it)"; exit 1; }
[ -f "$labels" ] || { say "error: no labels file $labels"; exit 1; }

# wait_open PID NODE
. scripts/vm/lib.sh

folder=$(dirname "$labels")
# The evaluated recordings, as gestured evaluate picks them (its --json lists them), filtered.
"$gestured" evaluate "$folder" --labels "$labels" --json > "$work/evaluate.json" || { say "error: gestured evaluate failed on $labels"; exit 1; }
python3 - "$work/evaluate.json" "${LIBINPUT_ONLY:-}" "${LIBINPUT_LIMIT:-0}" > "$out/files.txt" <<'PY' || { say "error: cannot read gestured evaluate's list"; exit 1; }
import json, sys
only, limit = sys.argv[2], int(sys.argv[3] or 0)
files = [f["file"] for f in json.load(open(sys.argv[1]))["files"] if only in f["file"]]
print("\n".join(files[:limit] if limit > 0 else files))
PY
total=$(grep -c . "$out/files.txt")
say "$total recordings, $(cat /proc/sys/kernel/osrelease), libinput $(libinput --version 2>/dev/null)"

# run_one FILE: one recording; 0 when it was played and libinput's output saved.
run_one() {
    local file=$1 recording=$folder/$1 raw=$out/raw/$1
    mkdir -p "$(dirname "$raw")"
    : > "$work/ready"
    # It lingers until stopped: libinput is stopped first, with the device still there.
    "$gestured" replay "$recording" --uinput --wait-for-log "$work/ready" --linger 600000 > /dev/null 2> "$work/player" &
    local player=$! node=""
    for _ in $(seq 300); do
        node=$(grep -o '/dev/input/event[0-9]*' "$work/player" | head -1)
        [ -n "$node" ] && break
        kill -0 "$player" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$node" ] || { say "error: gestured made no device for $file: $(cat "$work/player")"; stop "$player" TERM; return 1; }
    udevadm settle --timeout=30
    "$debug_events" --device "$node" --enable-tap > "$raw.txt" 2> "$raw.err" &
    local libinput=$!
    evemu-record "$node" > "$raw.kernel" 2> /dev/null &
    local capture=$!
    if ! wait_open "$libinput" "$node" || ! wait_open "$capture" "$node"; then
        say "error: libinput or evemu-record never opened $node for $file: $(cat "$raw.err")"
        kill "$libinput" "$capture" "$player" 2>/dev/null; wait 2>/dev/null; return 1
    fi
    sleep 0.3
    echo "$node" >> "$work/ready"    # the player plays now
    # The summary line comes once every frame is written (and only then).
    local played=""
    while kill -0 "$player" 2>/dev/null; do
        played=$(sed -n 's/^played \([0-9]*\) frames in .* the latest was written \([0-9.]*\) ms after its time$/frames \1 latest_ms \2/p' "$work/player")
        [ -n "$played" ] && break
        sleep 0.1
    done
    sleep "$settle"
    stop "$libinput" INT    # libinput debug-events ends its loop on SIGINT
    stop "$player" TERM
    stop "$capture" TERM    # evemu-record may sit in poll(2) through SIGTERM: then SIGKILL
    [ -n "$played" ] || { say "error: the player failed on $file: $(cat "$work/player")"; rm -f "$raw.play"; return 1; }
    echo "$played" > "$raw.play"
    return 0
}

# stop PID SIGNAL: the signal, up to 3 s for the process to end, then SIGKILL.
stop() {
    kill -"$2" "$1" 2>/dev/null
    for _ in $(seq 30); do kill -0 "$1" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$1" 2>/dev/null
    wait "$1" 2>/dev/null
}

started=$(date +%s)
n=0 failed=0
while IFS= read -r file; do
    [ -n "$file" ] || continue
    n=$((n + 1))
    if run_one "$file"; then
        say "$n/$total $file: $(grep -cE 'GESTURE_|POINTER_' "$out/raw/$file.txt") events"
    else
        failed=$((failed + 1))
    fi
done < "$out/files.txt"
say "done: $n recordings, $failed failed, in $(( $(date +%s) - started )) s"
[ "$failed" -eq 0 ]
