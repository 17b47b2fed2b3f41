#!/usr/bin/env bash
# scripts/vm/instructions.sh — what each live reader of a touch device executes of its own: the
# user-space instructions of gestured and lisgd (and the floor) over one playback, counted by
# valgrind's callgrind on a real kernel device. Run inside the VM (scripts/vm/run.sh) as root:
# `make bench-vm-instructions`.
#
# Why: under the VM's software emulation a program's CPU seconds vary by a quarter from one run
# to the next, and much of them is the kernel's (waking, reading). An instruction count does not
# depend on the machine's speed or load, so it compares the programs' own work where the CPU
# figures of `make bench-vm` cannot. It does not count the kernel's part, which is the same for
# every reader of the device (the floor's row of `make bench-vm`).
#
# For each program in turn: a uinput device made from the recording's description, the program
# started under callgrind, the counters zeroed once it has opened the device and is idle
# (`callgrind_control -z`), the recording played (evemu-play), the counters dumped 3 s after its
# end (`callgrind_control -d`). The recording is played BENCH_STRETCH (3) times slower than
# recorded, so that the programs, slowed down by valgrind and the emulator, keep up: the events
# and frames stay the same and the kernel drops nothing (gestured's and lisgd's rows say how
# many events each read; the report fails when they differ). Nothing else should load the
# machine meanwhile, or a program may still fall behind. The kernel stamps each event when it
# is played, so the programs see the gestures 3 times slower too: gestured recognizes nearly
# the same (3,478 gesture events against 3,480), and its whole turn counted natively on the
# stretched stream differs from the recorded pace by −2.4% (every kind) and +1.4% (swipes
# only). At 5 times slower it recognizes long presses instead of pans (−8.9%).
#
#   gestured          gestured run --no-socket (every gesture kind of the built-in layout)
#   gestured swipes   gestured run --no-socket, swipes of 1–5 fingers in 8 directions only (lisgd's job)
#   lisgd             lisgd -d NODE, the same swipes bound to `:`
#   floor             scripts/vm/floor.c: epoll_wait and one read(2) per wakeup
#
# Writes $VM_OUT/instructions.json and instructions.md (scripts/vm/instructions-report.py) and
# keeps each program's callgrind file ($VM_OUT/PROGRAM.callgrind) for callgrind_annotate.
# GESTURED: the gestured to count (default .build-release/release/gestured; valgrind 3.19 cannot
# read the DWARF 5 Swift writes, so `make bench-vm-instructions` passes a copy without it).
# RECORDING: an evemu recording (default the long stream, fixtures/recordings/evemu/3m.events).
set -u
cd "$(dirname "$0")/../.."
gestured=${GESTURED:-.build-release/release/gestured}
recording=${RECORDING:-fixtures/recordings/evemu/3m.events}
stretch=${BENCH_STRETCH:-3}
out=${VM_OUT:-/tmp/gestured-instructions}
work=/tmp/gestured-instructions-work
mkdir -p "$out" "$work"
say() { echo "instructions: $*"; }

for tool in valgrind callgrind_control evemu-device evemu-play lisgd python3 "$gestured"; do
    command -v "$tool" >/dev/null || { say "error: $tool is missing (make bench-vm-instructions installs valgrind, evemu-tools and lisgd)"; exit 1; }
done
. scripts/vm/lib.sh

# The recording with its times between events stretched: the same events and frames, slower.
events=$work/stretched.events
python3 - "$recording" "$stretch" "$events" <<'EOF' || { say "error: cannot stretch $recording"; exit 1; }
import sys
source, stretch, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
first = None
with open(source) as f, open(target, "w") as out:
    for line in f:
        if line.startswith("E: "):
            fields = line.split()
            seconds, micros = fields[1].split(".")
            t = int(seconds) * 1_000_000 + int(micros)
            first = t if first is None else first
            t = first + (t - first) * stretch
            fields[1] = "%d.%06d" % (t // 1_000_000, t % 1_000_000)
            line = " ".join(fields[:5]) + "\n"
        out.write(line)
EOF
frames=$(awk '$1 == "E:" && $3 == "0000" && $4 == "0000" {n++} END {print n + 0}' "$events")

cc -O2 -o "$work/floor" scripts/vm/floor.c || { say "error: cannot build scripts/vm/floor.c"; exit 1; }
write_swipes_config "$work/swipes.yaml"
lisgd_swipes

status=0
for program in gestured "gestured swipes" lisgd floor; do
    tag=${program// /-}
    evemu-device "$events" > "$work/$tag.device" 2>&1 &
    device=$!
    node=$(device_node "$work/$tag.device")
    [ -n "$node" ] || { say "error: evemu-device made no device"; cat "$work/$tag.device"; kill $device; exit 1; }
    udevadm settle --timeout=30
    rm -f "$out/$tag.callgrind"*
    valgrind=(valgrind --tool=callgrind --callgrind-out-file="$out/$tag.callgrind")
    case $program in
        gestured) "${valgrind[@]}" "$gestured" run --no-socket > /dev/null 2> "$out/$tag.log" & ;;
        "gestured swipes") "${valgrind[@]}" "$gestured" run --no-socket --config "$work/swipes.yaml" > /dev/null 2> "$out/$tag.log" & ;;
        lisgd) "${valgrind[@]}" lisgd -d "$node" -w 1920 -h 1080 "${lisgd_gestures[@]}" > /dev/null 2> "$out/$tag.log" & ;;
        floor) "${valgrind[@]}" "$work/floor" "$node" 2> "$out/$tag.log" & ;;
    esac
    pid=$!
    wait_open "$pid" "$node" || { say "error: $program never opened $node"; cat "$out/$tag.log"; kill "$pid" "$device"; exit 1; }
    # gestured's seat opens the device before the service is done starting (under valgrind and
    # the emulator, seconds): its log says when the device is in use.
    case $program in gestured*)
        for _ in $(seq 1200); do grep -q "touch device added" "$out/$tag.log" && break; sleep 0.5; done
        grep -q "touch device added" "$out/$tag.log" || { say "error: $program never took the device"; cat "$out/$tag.log"; kill "$pid" "$device"; exit 1; } ;;
    esac
    # Then until it is idle: under valgrind and the emulator a program starts for seconds after
    # it opens the device (libinput's set-up, for one), and events played meanwhile pile up in
    # the kernel until it drops them. Idle: under 20 ms of CPU in 2 s, twice in a row.
    quiet=0
    for _ in $(seq 150); do
        before=$(cpu_ns "$pid"); sleep 2; after=$(cpu_ns "$pid")
        if [ $((after - before)) -lt 20000000 ]; then quiet=$((quiet + 1)); else quiet=0; fi
        [ "$quiet" -ge 2 ] && break
    done
    [ "$quiet" -ge 2 ] || { say "error: $program never went idle"; kill "$pid" "$device"; exit 1; }
    callgrind_control -z "$pid" > "$work/$tag.zero" 2>&1 || { say "error: callgrind_control -z failed"; cat "$work/$tag.zero"; status=1; }
    evemu-play "$node" < "$events"
    sleep 3
    callgrind_control -d "$pid" > "$work/$tag.dump" 2>&1 || { say "error: callgrind_control -d failed"; cat "$work/$tag.dump"; status=1; }
    sleep 1
    kill -TERM "$pid"; wait "$pid" 2>/dev/null
    kill -TERM "$device"; wait "$device" 2>/dev/null
    # callgrind writes the dump as PROGRAM.callgrind.1 and what came after it at the end.
    if [ -f "$out/$tag.callgrind.1" ]; then mv "$out/$tag.callgrind.1" "$out/$tag.callgrind"; else say "error: no dump for $program"; status=1; fi
    if grep -q "kernel dropped events" "$out/$tag.log"; then say "error: the kernel dropped events of $program's device: its count is not the whole playback"; status=1; fi
    say "$program done"
done
python3 scripts/vm/instructions-report.py "$out" --frames "$frames" --recording "$recording" --stretch "$stretch" || status=1
exit $status
