#!/usr/bin/env bash
# scripts/vm/bench.sh — the live-path benchmark, run inside the VM (scripts/vm/run.sh) as root
# from the repository: `make bench-vm`. Each recording is played into a uinput device with
# evemu-play (its recorded timing) while one program at a time watches the device:
#   gestured         gestured run --no-socket (every gesture kind of the built-in layout, no output)
#   gestured swipes  gestured run --no-socket with swipes of 1–5 fingers in 8 directions only (lisgd's job)
#   gestured --json  the same as gestured, printing every gesture event as a JSON line (one write per turn)
#   gestured --latency-report  the same as gestured, measuring every frame's latency (a clock
#                    reading per frame, one more per eighth wakeup)
#   gestured owned   the same as gestured --latency-report with the device owned (own: true,
#                    docs/ownership.md): grabbed, every frame written to its uinput twin — the
#                    twin's write is inside the frame latency
#   gestured --view --metrics  the same, serving the live view (nobody watching) and the metrics
#                    (nobody scraping) on loopback
#   gestured before  $GESTURED_BEFORE, when given (make bench-vm BENCH_BEFORE=REV): the same as
#                    gestured, built from an earlier revision — what a change cost
#   lisgd            lisgd -d NODE, swipes of 1–5 fingers in 8 directions bound to `:`
#   libinput         libinput debug-events --device NODE (its touch events printed)
#   floor            scripts/vm/floor.c: epoll_wait and one read(2) per wakeup, nothing else —
#                    what any reader of the device costs at the least
# and reports, per program: CPU seconds from the start of the playback to 1 s after its end
# (schedstat, every thread) and how it splits into user and system time (/proc/PID/stat, in
# clock ticks), wakeups (voluntary context switches) in that time and over
# $BENCH_IDLE s of idle with the device open, RSS at the end and its peak; for gestured --json
# the frame latency (kernel time stamp → frame handled, p50/p99). One JSON object
# per line in $VM_OUT/bench.jsonl; scripts/vm/bench-report.py turns it into the table. The long
# stream is played $BENCH_REPEAT_LONG times (3) to each program in turn, and the table shows
# each program's median run: under emulation one run's CPU figures vary by 10–20%.
#
# Under software emulation CPU figures compare programs within one run; they are not what the
# same programs cost on hardware.
set -u
cd "$(dirname "$0")/../.."
gestured=${GESTURED:-.build-release/release/gestured}
out=${VM_OUT:-/tmp/gestured-bench}
idle_seconds=${BENCH_IDLE:-5}
work=/tmp/gestured-bench-work
mkdir -p "$out" "$work"
results=$out/bench.jsonl
: > "$results"
debug_events=/usr/libexec/libinput/libinput-debug-events

say() { echo "bench: $*"; }

for tool in evemu-device evemu-play lisgd "$debug_events" "$gestured"; do
    command -v "$tool" >/dev/null || { say "error: $tool is missing (make bench-vm installs evemu-tools, lisgd and libinput-tools)"; exit 1; }
done

# User and system CPU of PID (every thread), in clock ticks: /proc/PID/stat's utime and stime.
# Where a program's CPU goes: its own code, or the kernel's (reading, waiting, waking).
# Prints "- -" when PID is gone.
ticks() { sed 's/.*) //' /proc/"$1"/stat 2>/dev/null | awk '{print $12, $13}' | grep . || echo "- -"; }
# seconds TICKS0 TICKS1: the difference in seconds, or null when either is unknown.
seconds() { awk -v a="$1" -v b="$2" -v t="$clock_ticks" 'BEGIN {if (a == "-" || b == "-") print "null"; else printf "%.2f", (b - a) / t}'; }
clock_ticks=$(getconf CLK_TCK 2>/dev/null || echo 100)

# Voluntary context switches of every thread of PID: each is a wait that ended in a wakeup.
wakeups() {
    awk '/^voluntary_ctxt_switches/ {n += $2} END {print n + 0}' /proc/"$1"/task/*/status 2>/dev/null
}

status_kb() { awk -v key="$2:" '$1 == key {print $2}' /proc/"$1"/status; }

# wait_open PID NODE
. scripts/vm/lib.sh

# The VM's init brings no network up: --view and --metrics listen on loopback.
ip link set lo up 2>/dev/null || /run/busybox ip link set lo up
cc -O2 -o "$work/floor" scripts/vm/floor.c || { say "error: cannot build scripts/vm/floor.c"; exit 1; }
# The built-in layout, every device owned.
{ echo "devices: [{own: true}]"; "$gestured" check-config --print-default; } > "$work/own.yaml"
chmod 644 "$work/own.yaml"

# Swipes of 1 to 5 fingers in 8 directions and nothing else: lisgd's job, as gestured does it.
write_swipes_config "$work/swipes.yaml"
chmod 644 "$work/swipes.yaml"
"$gestured" check-config "$work/swipes.yaml" > /dev/null || { say "error: the swipes-only configuration is refused"; exit 1; }

lisgd_swipes

# run_one WORKLOAD PROGRAM DESCRIPTION EVENTS
run_one() {
    local workload=$1 program=$2 description=$3 events=$4
    local tag=$workload.${program// /}
    evemu-device "$description" > "$work/$tag.device" 2>&1 &
    local device=$!
    local node
    node=$(device_node "$work/$tag.device")
    [ -n "$node" ] || { say "error: evemu-device made no device for $description"; cat "$work/$tag.device"; kill $device; return 1; }
    udevadm settle --timeout=30
    local pid
    case $program in
        gestured)
            "$gestured" run --no-socket > /dev/null 2> "$work/$tag.log" & pid=$! ;;
        "gestured swipes")
            "$gestured" run --no-socket --config "$work/swipes.yaml" > /dev/null 2> "$work/$tag.log" & pid=$! ;;
        "gestured --json")
            "$gestured" run --no-socket --json > "$work/$tag.out" 2> "$work/$tag.log" & pid=$! ;;
        "gestured --view --metrics")
            "$gestured" run --no-socket --view 127.0.0.1:0 --metrics 127.0.0.1:0 > /dev/null 2> "$work/$tag.log" & pid=$! ;;
        "gestured before")
            "$GESTURED_BEFORE" run --no-socket > /dev/null 2> "$work/$tag.log" & pid=$! ;;
        "gestured --latency-report")
            rm -f "$work/$tag.latency.json"
            "$gestured" run --no-socket --latency-report "$work/$tag.latency.json" > /dev/null 2> "$work/$tag.log" & pid=$! ;;
        "gestured owned")
            rm -f "$work/$tag.latency.json"
            "$gestured" run --no-socket --config "$work/own.yaml" --latency-report "$work/$tag.latency.json" > /dev/null 2> "$work/$tag.log" & pid=$! ;;
        lisgd)
            lisgd -d "$node" -w 1920 -h 1080 "${lisgd_gestures[@]}" > "$work/$tag.out" 2> "$work/$tag.log" & pid=$! ;;
        libinput)
            "$debug_events" --device "$node" > "$work/$tag.out" 2> "$work/$tag.log" & pid=$! ;;
        floor)
            "$work/floor" "$node" 2> "$work/$tag.log" & pid=$! ;;
    esac
    if ! wait_open "$pid" "$node"; then
        say "error: $program never opened $node"; cat "$work/$tag.log"
        kill "$pid" "$device" 2>/dev/null; return 1
    fi
    sleep 1
    local idle0 idle1
    idle0=$(wakeups "$pid")
    sleep "$idle_seconds"
    idle1=$(wakeups "$pid")
    local cpu0 wake0 start end cpu1 wake1
    local user0 system0 user1 system1
    # (No process substitution: the VM's /dev has no /dev/fd.)
    set -- $(ticks "$pid"); user0=$1 system0=$2
    cpu0=$(cpu_ns "$pid"); wake0=$(wakeups "$pid"); start=$(date +%s%N)
    evemu-play "$node" < "$events"
    end=$(date +%s%N)
    sleep 1
    cpu1=$(cpu_ns "$pid"); wake1=$(wakeups "$pid")
    set -- $(ticks "$pid"); user1=$1 system1=$2
    local rss hwm
    rss=$(status_kb "$pid" VmRSS); hwm=$(status_kb "$pid" VmHWM)
    kill -TERM "$pid"; wait "$pid" 2>/dev/null
    kill -TERM "$device"; wait "$device" 2>/dev/null
    local latency=null lines=0
    case $program in "gestured --latency-report"|"gestured owned") [ -s "$work/$tag.latency.json" ] && latency=$(cat "$work/$tag.latency.json") ;; esac
    [ -f "$work/$tag.out" ] && lines=$(wc -l < "$work/$tag.out")
    local kinds='[]'
    if [ "$program" = "gestured --json" ]; then
        kinds=$(python3 -c 'import json,sys; print(json.dumps(sorted({json.loads(l)["kind"] for l in open(sys.argv[1]) if l.strip()})))' "$work/$tag.out")
        cp "$work/$tag.out" "$out/$workload.gestures.jsonl"
    fi
    printf '{"workload": "%s", "program": "%s", "playback_s": %s, "cpu_s": %s, "user_s": %s, "system_s": %s, "wakeups": %s, "idle_wakeups": %s, "idle_s": %s, "rss_kb": %s, "peak_rss_kb": %s, "output_lines": %s, "gesture_kinds": %s, "latency": %s}\n' \
        "$workload" "$program" "$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", (b - a) / 1e9}')" \
        "$(awk -v a="$cpu0" -v b="$cpu1" 'BEGIN {printf "%.4f", (b - a) / 1e9}')" \
        "$(seconds "$user0" "$user1")" "$(seconds "$system0" "$system1")" \
        $((wake1 - wake0)) $((idle1 - idle0)) "$idle_seconds" "${rss:-0}" "${hwm:-0}" "$lines" "$kinds" "$latency" >> "$results"
    say "$(tail -1 "$results")"
}

ts=fixtures/recordings/evemu-devices/touchscreens
tp=fixtures/recordings/evemu-devices/touchpads
xt=fixtures/recordings/xorg-integration-tests/touchpads
# name | description | events
workloads=(
    "3m-29s-10-fingers|fixtures/recordings/evemu/3m.events|fixtures/recordings/evemu/3m.events"
    "atmel-1-finger-drag|$ts/Atmel maXTouch Touchscreen.desc|$ts/Atmel maXTouch Touchscreen.1-finger-drag-up-down.events"
    "atmel-4-finger-drag|$ts/Atmel maXTouch Touchscreen.desc|$ts/Atmel maXTouch Touchscreen.4-finger-drag-down.events"
    "clickpad-2-finger-scroll|$xt/SynPS2-Synaptics-TouchPad-Clickpad.desc|$xt/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-down.events"
    "cypress-2-finger-tap|$tp/CyPS2 Cypress Trackpad.two_finger_tap.events|$tp/CyPS2 Cypress Trackpad.two_finger_tap.events"
)
only=${BENCH_ONLY:-}
for entry in "${workloads[@]}"; do
    IFS='|' read -r name description events <<< "$entry"
    [ -n "$only" ] && [[ ",$only," != *",$name,"* ]] && continue
    [ -f "$description" ] || { say "error: $description is missing"; exit 1; }
    repeat=1
    [ "$name" = "3m-29s-10-fingers" ] && repeat=${BENCH_REPEAT_LONG:-3}
    for _ in $(seq "$repeat"); do
        programs=(gestured "gestured swipes" "gestured --json" "gestured --latency-report" "gestured owned" "gestured --view --metrics" lisgd libinput floor)
        [ -n "${GESTURED_BEFORE:-}" ] && programs+=("gestured before")
        for program in "${programs[@]}"; do
            rm -f "$work/$name.${program// /}.out"
            run_one "$name" "$program" "$description" "$events" || exit 1
        done
    done
done
python3 scripts/vm/bench-report.py "$results" --json "$out/bench.json" --markdown "$out/bench.md"
cat "$out/bench.md"
