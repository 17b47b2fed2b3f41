#!/usr/bin/env bash
# scripts/vm/e2e.sh — the real-kernel lane, run inside the VM (scripts/vm/run.sh) as root from
# the repository: uinput devices, udev, libinput and the built gestured. Each check prints
# PASS or FAIL; the last line is "e2e: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
. scripts/vm/lib.sh
gestured=${GESTURED:-.build/debug/gestured}
echo "testing $gestured"
out=${VM_OUT:-/tmp/gestured-e2e}
mkdir -p "$out"
passed=0
failed=0

# Inside paced (below) the verdicts of an attempt are kept until it is judged.
pacing=0
attempt_verdicts=()
attempt_failed=0
pass() {
    if [ "$pacing" = 1 ]; then attempt_verdicts+=("PASS $1"); return; fi
    echo "PASS $1"; passed=$((passed + 1))
}
fail() {
    if [ "$pacing" = 1 ]; then attempt_verdicts+=("FAIL $1${2:+: $2}"); attempt_failed=1; return; fi
    echo "FAIL $1${2:+: $2}"; failed=$((failed + 1))
}

# Waits (up to 30 s) until FILE contains TEXT.
wait_for() {
    local file=$1 text=$2
    for _ in $(seq 300); do
        grep -qF -- "$text" "$file" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "timed out waiting for \"$text\" in $file" >&2
    return 1
}

# Waits (up to 30 s) until FILE has at least N lines that contain TEXT.
wait_count() {
    local file=$1 text=$2 n=$3
    for _ in $(seq 300); do
        [ "$(grep -cF -- "$text" "$file" 2>/dev/null)" -ge "$n" ] && return 0
        sleep 0.1
    done
    echo "timed out waiting for $n lines with \"$text\" in $file (found $(grep -cF -- "$text" "$file" 2>/dev/null))" >&2
    return 1
}

# bounded_wait PID: waits (up to 30 s) for PID to end, then ends it; its exit status, or 124.
bounded_wait() {
    for _ in $(seq 300); do
        kill -0 "$1" 2>/dev/null || { wait "$1"; return; }
        sleep 0.1
    done
    echo "$1 did not end within 30 s: stopped" >&2
    kill "$1" 2>/dev/null
    wait "$1" 2>/dev/null
    return 124
}

# How the lanes stay independent of the emulator's pacing (docs/testing.md): a player under
# emulation can stall and then write the frames it owes together, which the kernel stamps
# together, and a reader rightly recognizes something else in them than in the recording. So
# every player that a comparison rests on reads its device back (`replay --uinput --as-played
# FILE`): FILE holds what the kernel passed on to every reader, with the kernel's times, and its
# replay is what the live service must give. Where the service owns the device (its grab hides
# the events from every other reader) or a check expects fixed output, a run whose player fell
# behind by more than $PACE_MS is played again (paced, below).
PACE_MS=${PACE_MS:-20}

# player_lag LOG: how late (ms) the player of LOG wrote, or the kernel stamped, its latest frame.
player_lag() {
    grep -o '[0-9.]* ms after its time' "$1" 2>/dev/null | awk '$1 > m {m = $1} END {print m + 0}'
}

# kept_pace LOG...: whether every player of the LOGs kept within $PACE_MS of its recording.
kept_pace() {
    local log
    for log in "$@"; do
        awk -v lag="$(player_lag "$log")" -v limit="$PACE_MS" 'BEGIN {exit !(lag <= limit)}' || return 1
    done
}

# paced NAME FUNCTION: runs FUNCTION, whose checks expect fixed output (a key sequence, the
# touches on a twin), and its verdicts count; when one of them failed while a player it lists in
# $paced_logs fell behind by more than $PACE_MS (or FUNCTION set $paced_again: what the check
# needed did not happen in time), the attempt does not count and FUNCTION runs again, up to 3
# times. A check that fails with its players in pace fails at once.
paced() {
    local name=$1 fn=$2 attempt verdict
    for attempt in 1 2 3; do
        pacing=1; attempt_verdicts=(); attempt_failed=0; paced_logs=(); paced_again=
        "$fn"
        pacing=0
        if [ "$attempt_failed" = 0 ] || [ "$attempt" = 3 ]; then break; fi
        if [ -n "$paced_again" ]; then
            echo "$name: a check failed where it could not be made as meant ($paced_again): played again"
        elif ! kept_pace "${paced_logs[@]}"; then
            echo "$name: a check failed while a player fell $(for l in "${paced_logs[@]}"; do player_lag "$l"; done | sort -n | tail -1) ms behind (over $PACE_MS): played again"
        else
            break
        fi
    done
    for verdict in "${attempt_verdicts[@]}"; do
        echo "$verdict"
        case $verdict in PASS*) passed=$((passed + 1)) ;; *) failed=$((failed + 1)) ;; esac
    done
}

# played_wait LOG: waits (up to 30 s) until the player of LOG has played (and written its
# recording as played).
played_wait() { wait_for "$1" "played "; }

# replays OUT [--config FILE] AS_PLAYED...: the replays of the recordings as played, in order,
# into OUT (JSON lines).
replays() {
    local into=$1 config_args=()
    shift
    if [ "$1" = --config ]; then config_args=(--config "$2"); shift 2; fi
    : > "$into"
    local f
    for f in "$@"; do "$gestured" replay "$f" --json "${config_args[@]}" >> "$into" 2>> "$into.err"; done
}

# Starts the service: start_service NAME [ARGS...]; sets $service and $log.
start_service() {
    local name=$1
    shift
    log=$out/$name.service.log
    "$gestured" run --json "$@" > "$out/$name.live.jsonl" 2> "$log" &
    service=$!
    # Ready once libinput has the seat and the service has said what it found.
    wait_for "$log" "touch devices" || wait_for "$log" "touch device added"
}

stop_service() {
    kill -TERM "$service" 2>/dev/null
    wait "$service" 2>/dev/null
}

# The VM's init brings no network up; the metrics and the view listen on loopback.
ip link set lo up 2>/dev/null || /run/busybox ip link set lo up

echo "== a keyboard, typed on throughout"
# It types for 200 s and stays until the end: a keyboard gone early would leave its node to a
# later device, which the checks below would take for the keyboard.
"$gestured" replay fixtures/synthetic/keyboard-typing.yaml --device 0 --uinput --linger 86400000 2> "$out/keyboard.log" &
keyboard=$!
wait_for "$out/keyboard.log" "/dev/input/event" || fail "virtual keyboard" "not created: $(cat "$out/keyboard.log")"
keyboard_node=$(grep -o '/dev/input/event[0-9]*' "$out/keyboard.log" | head -1)
echo "keyboard at $keyboard_node"

echo "== live gestures equal the replay's"
lane() {  # lane NAME RECORDING [CONFIG]
    local name=$1 recording=$2 config=${3:-}
    local config_args=()
    [ -n "$config" ] && config_args=(--config "$config")
    start_service "$name" --no-socket "${config_args[@]}"
    "$gestured" replay "$recording" --uinput --wait-for-log "$log" --as-played "$out/$name.played.yaml" 2> "$out/$name.player.log"
    stop_service
    replays "$out/$name.replay.jsonl" "${config_args[@]}" "$out/$name.played.yaml"
    if [ ! -s "$out/$name.replay.jsonl" ]; then
        fail "$name" "the replay of the recording as played recognised nothing: $(cat "$out/$name.player.log" "$out/$name.replay.jsonl.err")"
    elif python3 scripts/vm/compare.py "$out/$name.replay.jsonl" "$out/$name.live.jsonl" > "$out/$name.compare.txt"; then
        pass "$name: $(cat "$out/$name.compare.txt") (the player at most $(player_lag "$out/$name.player.log") ms late)"
    else
        fail "$name" "$(cat "$out/$name.compare.txt")"
    fi
    # The keyboard was there all along: never opened, never in the output.
    if grep -q "Keyboard" "$out/$name.live.jsonl"; then fail "$name: keyboard kept out of the output"; fi
}
ts=fixtures/recordings/evemu-devices/touchscreens
tp=fixtures/recordings/evemu-devices/touchpads
lane fast-taps "$ts/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"
lane four-finger-drag "$ts/Atmel maXTouch Touchscreen.4-finger-drag-down.events"
lane kiosk-session fixtures/synthetic/kiosk-session.yaml examples/kiosk.yaml
lane clickpad-scroll "fixtures/recordings/xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-down.events"

echo "== --metrics: the counters of a recording played into the service are the replay's"
start_service metrics --no-socket --config examples/kiosk.yaml --metrics 127.0.0.1:9464 --view 127.0.0.1:0
# The device stays while the metrics are read (gestured_devices 1), until the player is stopped.
"$gestured" replay fixtures/synthetic/kiosk-session.yaml --uinput --wait-for-log "$log" --linger 86400000 \
    --as-played "$out/metrics.played.yaml" 2> "$out/metrics.player.log" &
player=$!
played_wait "$out/metrics.player.log"
replays "$out/metrics.replay.jsonl" --config examples/kiosk.yaml "$out/metrics.played.yaml"
# Counted as handled: every gesture the replay gives printed live means all are counted.
wait_count "$out/metrics.live.jsonl" '"kind"' "$(grep -c '"kind"' "$out/metrics.replay.jsonl")" || true
if python3 scripts/vm/metrics-check.py http://127.0.0.1:9464/metrics "$out/metrics.replay.jsonl" > "$out/metrics.check.txt"; then
    pass "metrics: $(cat "$out/metrics.check.txt")"
else
    fail "metrics" "$(cat "$out/metrics.check.txt")"
fi
view_url=$(grep -o 'http://127\.0\.0\.1:[0-9]*/?token=[0-9a-f]*' "$log" | head -1)
view_status=$(python3 - "$view_url" <<'PY'
import sys, urllib.request, urllib.error
url = sys.argv[1]
def status(u):
    try:
        return urllib.request.urlopen(u, timeout=10).status
    except urllib.error.HTTPError as e:
        return e.code
    except Exception as e:
        return repr(e)
print(status(url), status(url.split("?")[0] + "?token=wrong"))
PY
)
[ "$view_status" = "200 403" ] && pass "the live view is served alongside: its logged address opens (200), a wrong token is refused (403)" \
    || fail "view" "statuses '$view_status' for $view_url: $(grep -i view "$log" | tail -2)"
kill "$player" 2>/dev/null
wait "$player"
stop_service
lane two-finger-tap "$tp/CyPS2 Cypress Trackpad.two_finger_tap.events"

echo "== hotplug: a device removed mid-gesture, then again"
# The drag never lifts: what the replay of each recording as played ends cancelled (the
# recording's end), the live service must end cancelled when the device goes.
start_service hotplug --no-socket
"$gestured" replay fixtures/synthetic/drag-without-lift.yaml --uinput --wait-for-log "$log" --linger 300 --as-played "$out/hotplug.1.played.yaml" 2> "$out/hotplug.1.player.log"
wait_count "$out/hotplug.live.jsonl" '"state": "cancelled"' 1 && pass "removed mid-gesture: the pan is cancelled" || fail "removed mid-gesture" "no cancelled pan: $(tail -c 300 "$out/hotplug.live.jsonl")"
kill -0 "$service" 2>/dev/null && pass "the service stays up" || fail "the service stays up"
"$gestured" replay fixtures/synthetic/drag-without-lift.yaml --uinput --wait-for-log "$log" --linger 300 --as-played "$out/hotplug.2.played.yaml" 2> "$out/hotplug.2.player.log"
wait_count "$out/hotplug.live.jsonl" '"state": "cancelled"' 2
replays "$out/hotplug.replay.jsonl" "$out/hotplug.1.played.yaml" "$out/hotplug.2.played.yaml"
began=$(grep -c '"state": "began"' "$out/hotplug.live.jsonl")
if [ "$began" -eq 2 ] && python3 scripts/vm/compare.py "$out/hotplug.replay.jsonl" "$out/hotplug.live.jsonl" > "$out/hotplug.compare.txt"; then
    pass "a device created again is used again: $(cat "$out/hotplug.compare.txt"), both as the replays of what was played"
else
    fail "created again" "$began pans began; $(cat "$out/hotplug.compare.txt")"
fi

echo "== the keyboard is never opened"
if [ -z "$keyboard_node" ]; then
    fail "keyboard never opened" "the virtual keyboard was never made: $(cat "$out/keyboard.log")"
else
    opened=$(for fd in /proc/"$service"/fd/*; do readlink "$fd"; done | grep -c -x -F "$keyboard_node")
    [ "$opened" -eq 0 ] && pass "the service holds no descriptor of the keyboard" || fail "keyboard" "the service has it open"
    grep -q "not a touch device: refused" "$log" 2>/dev/null || true
fi
stop_service

# now_ms: the time in milliseconds.
now_ms() { local ns; ns=$(date +%s%N); echo $((ns / 1000000)); }

# frames_handled PORT: the frames the service with --metrics 127.0.0.1:PORT has handled (its
# frame latency histogram's count); empty when it does not answer. Plain bash: a Python started
# every 0.1 s would take a core of the emulated machine.
frames_handled() {
    local reply
    reply=$( { exec 3<>"/dev/tcp/127.0.0.1/$1" && printf 'GET /metrics HTTP/1.0\r\n\r\n' >&3 && cat <&3; } 2>/dev/null)
    awk '$1 == "gestured_frame_latency_seconds_count" {print $2}' <<< "${reply//$'\r'/}"
}

# The kernel drops events: dropped_lane NAME RECORDING FRAMES. The burst comes 3.0 to 3.05 s
# into the recording, and the next frame at 6.0 s. The service is stopped once it has handled
# the drag's FRAMES frames (as its metrics count them: whatever it recognized in them) and
# continued 4.5 s after the playback began, so that its buffer in the kernel overflows
# (SYN_DROPPED) with nothing of it read. Read again, the device's state goes on as libevdev's
# sync makes the burst: the gestures equal the replay of NAME's .collapsed.yaml, at the times
# the kernel stamped the recording's frames with (scripts/vm/retime.py). Paced: a run where the
# lane stopped the service too late, or continued it after 5.9 s, is made again.
dropped_lane() {
    local name=$1 recording=$2 drag_frames=$3 port=9470 handled="" ready=$out/$1.ready
    : > "$ready"
    start_service "$name" --no-socket --metrics "127.0.0.1:$port"
    "$gestured" replay "$recording" --uinput --wait-for-log "$ready" --linger 300 --as-played "$out/$name.played.yaml" 2> "$out/$name.player.log" &
    local player=$!
    wait_for "$out/$name.player.log" "/dev/input/event"
    local node
    node=$(grep -o '/dev/input/event[0-9]*' "$out/$name.player.log" | head -1)
    wait_for "$log" "node=$node"
    # The playback begins now (the player looks at the file every 10 ms). Times in ms, with
    # bash's arithmetic: a Python started here took over a second under load.
    echo "$node" > "$ready"
    local began stopped_at continued_at rest
    began=$(now_ms)
    for _ in $(seq 300); do
        handled=$(frames_handled "$port")
        [ "${handled:-0}" -ge "$drag_frames" ] && break
        sleep 0.1
    done
    if [ "${handled:-0}" -ge "$drag_frames" ]; then
        kill -STOP "$service"
        stopped_at=$(now_ms)
        rest=$((began + 4500 - stopped_at))
        [ "$rest" -gt 0 ] && sleep "$((rest / 1000)).$(printf '%03d' $((rest % 1000)))"
        kill -CONT "$service"
        continued_at=$(now_ms)
        if [ $((stopped_at - began)) -ge 2900 ] || [ $((continued_at - began)) -ge 5900 ]; then
            paced_again="the service stopped $((stopped_at - began)) ms and continued $((continued_at - began)) ms into the playback (before 2900 and 5900 ms were needed)"
        fi
    else
        fail "$name: stopped after the drag" "the service handled ${handled:-no} frames of the drag's $drag_frames in 30 s"
    fi
    wait "$player"
    wait_for "$out/$name.live.jsonl" '"kind": "tap"'
    stop_service
    grep -q "the kernel dropped events" "$log" && pass "$name: the service saw the kernel drop events (SYN_DROPPED)" || fail "$name: SYN_DROPPED" "no drop in the log"
    if grep -q "sent what no device should" "$log"; then fail "$name: resynchronized" "$(grep "sent what no device should" "$log" | head -1)"; fi
    python3 scripts/vm/retime.py "$recording" "$out/$name.played.yaml" "${recording%.yaml}.collapsed.yaml" > "$out/$name.expected.yaml" 2> "$out/$name.retime.err" \
        || fail "$name: retimed" "$(cat "$out/$name.retime.err" "$out/$name.player.log")"
    replays "$out/$name.replay.jsonl" "$out/$name.expected.yaml"
    if python3 scripts/vm/compare.py "$out/$name.replay.jsonl" "$out/$name.live.jsonl" > "$out/$name.compare.txt"; then
        pass "$name: after the drop, contacts and gestures are right: $(cat "$out/$name.compare.txt") (the player at most $(player_lag "$out/$name.player.log") ms late)"
    else
        fail "$name: after the drop" "$(cat "$out/$name.compare.txt")"
    fi
}
dropped_burst() { dropped_lane dropped fixtures/synthetic/burst-while-stopped.yaml 21; }
dropped_lift() { dropped_lane dropped-lift fixtures/synthetic/lift-while-stopped.yaml 41; }

echo "== the kernel drops events (the service stopped through a burst): the state is read again"
# A second finger lands during the burst.
paced dropped dropped_burst
echo "== the kernel drops events while a finger lifts: the lift is read from the device's state"
# Nothing after the burst says the right finger lifted: only the state kept of the device, against
# the kernel's, does (libevdev ends the slot).
paced dropped-lift dropped_lift

echo "== desktop actions: keys, a held key, a button and the wheel (examples/desktop.yaml)"
debug_events=/usr/libexec/libinput/libinput-debug-events
# desktop_round: the three recordings played into a service with examples/desktop.yaml while
# libinput watches its virtual keyboard and pointer; $out/desktop.*.txt.
desktop_round() {
    start_service desktop --no-socket --config examples/desktop.yaml
    wait_for "$log" "virtual pointer ready"
    kbd=$(grep "virtual keyboard ready" "$log" | grep -o '/dev/input/event[0-9]*' | head -1)
    ptr=$(grep "virtual pointer ready" "$log" | grep -o '/dev/input/event[0-9]*' | head -1)
    echo "virtual keyboard at $kbd, pointer at $ptr"
    "$debug_events" --device "$kbd" --show-keycodes > "$out/desktop.keyboard.txt" 2>&1 &
    kbd_watch=$!
    "$debug_events" --device "$ptr" > "$out/desktop.pointer.txt" 2>&1 &
    ptr_watch=$!
    wait_for "$out/desktop.keyboard.txt" "DEVICE_ADDED"
    wait_for "$out/desktop.pointer.txt" "DEVICE_ADDED"
    # A three-finger flick left, tap and drag on a touchpad; two fingers scrolling and a drag in
    # from the right edge on a touchscreen; a three-finger drag whose touchpad goes mid-drag.
    : > "$out/desktop.player.log"
    for f in desktop-touchpad desktop-touchscreen desktop-touchpad-unplugged; do
        "$gestured" replay "fixtures/synthetic/$f.yaml" --uinput --wait-for-log "$log" --linger 300 \
            --as-played "$out/desktop.$f.played.yaml" 2>> "$out/desktop.player.log"
    done
    wait_for "$out/desktop.live.jsonl" '"state": "cancelled"'
    # What libinput has of the last chord's release and the middle click.
    wait_count "$out/desktop.keyboard.txt" "KEY_LEFTALT (56) released" 2
    wait_for "$out/desktop.pointer.txt" "BTN_MIDDLE (274) released"
    wait_for "$out/desktop.pointer.txt" "POINTER_SCROLL_WHEEL"
    kill "$kbd_watch" "$ptr_watch" 2>/dev/null
    wait "$kbd_watch" "$ptr_watch" 2>/dev/null
    stop_service
    replays "$out/desktop.replay.jsonl" --config examples/desktop.yaml \
        "$out"/desktop.desktop-touchpad.played.yaml "$out"/desktop.desktop-touchscreen.played.yaml "$out"/desktop.desktop-touchpad-unplugged.played.yaml
}
cat > "$out/desktop.keys.expected.txt" <<'KEYS'
KEY_LEFTMETA (125) pressed
KEY_RIGHT (106) pressed
KEY_RIGHT (106) released
KEY_LEFTMETA (125) released
KEY_LEFTALT (56) pressed
KEY_LEFTALT (56) released
KEY_LEFTMETA (125) pressed
KEY_A (30) pressed
KEY_A (30) released
KEY_LEFTMETA (125) released
KEY_LEFTALT (56) pressed
KEY_LEFTALT (56) released
KEYS
if [ ! -x "$debug_events" ]; then
    fail "desktop actions" "libinput debug-events is not installed (Debian: libinput-tools)"
else
    # The keys, the click and the wheel are what the recordings' gestures ask for: played again
    # (paced) where they differ while the player fell behind (and so may rightly have given other
    # gestures).
    desktop_checks() {
        desktop_round
        paced_logs+=("$out/desktop.player.log")
        if python3 scripts/vm/compare.py "$out/desktop.replay.jsonl" "$out/desktop.live.jsonl" > "$out/desktop.compare.txt"; then
            pass "desktop: the gestures equal the replays of what was played: $(cat "$out/desktop.compare.txt")"
        else
            fail "desktop gestures" "$(cat "$out/desktop.compare.txt")"
        fi
        grep -o 'KEY_[A-Z]* ([0-9]*) \(pressed\|released\)' "$out/desktop.keyboard.txt" > "$out/desktop.keys.txt"
        if diff "$out/desktop.keys.expected.txt" "$out/desktop.keys.txt" > "$out/desktop.keys.diff"; then
            pass "desktop: libinput sees the virtual keyboard's chords and held keys in order, the last released when its touchpad went mid-drag"
        else
            fail "desktop keys" "$(tr '\n' ';' < "$out/desktop.keys.diff" | head -c 600) (the player at most $(player_lag "$out/desktop.player.log") ms late)"
        fi
        if grep -q "BTN_MIDDLE (274) pressed" "$out/desktop.pointer.txt" && grep -q "BTN_MIDDLE (274) released" "$out/desktop.pointer.txt"; then
            pass "desktop: the three-finger tap clicks the virtual pointer's middle button"
        else
            fail "desktop button" "no middle click in $out/desktop.pointer.txt"
        fi
        wheel=$(grep -c "POINTER_SCROLL_WHEEL" "$out/desktop.pointer.txt")
        if [ "$wheel" -gt 0 ] && grep "POINTER_SCROLL_WHEEL" "$out/desktop.pointer.txt" | grep -q "vert -[1-9]"; then
            # libinput's negative vertical scroll is up: the page comes down with the fingers.
            pass "desktop: two fingers moving down scroll the virtual wheel up ($wheel wheel events, the content following the fingers)"
        else
            fail "desktop scroll" "$(grep POINTER_SCROLL "$out/desktop.pointer.txt" | head -3)"
        fi
    }
    paced desktop desktop_checks
fi

echo "== examples/LiveKiosk: an app's closures on a live device, as in a replay, across unplug and replug"
kiosk=${LIVE_KIOSK:-.build/debug/live-kiosk}
if [ ! -x "$kiosk" ]; then
    fail "live-kiosk" "$kiosk is not built"
else
    klog=$out/live-kiosk.log
    "$kiosk" > "$out/live-kiosk.live.txt" 2> "$klog" &
    kpid=$!
    wait_for "$klog" "touch devices"
    # Taps, a swipe and a long press; a drag whose device is unplugged mid-gesture; the first
    # device again, plugged back in.
    played=()
    for f in kiosk-session drag-without-lift kiosk-session; do
        played+=("$out/live-kiosk.${#played[@]}.played.yaml")
        "$gestured" replay "fixtures/synthetic/$f.yaml" --uinput --wait-for-log "$klog" --linger 300 --as-played "${played[-1]}" 2>> "$out/live-kiosk.player.log"
    done
    for f in "${played[@]}"; do "$kiosk" --replay "$f"; done > "$out/live-kiosk.replay.txt"
    # Stopped once it has made as many closure calls as the replays.
    wait_count "$out/live-kiosk.live.txt" "" "$(wc -l < "$out/live-kiosk.replay.txt")"
    kill -TERM "$kpid"
    wait "$kpid"
    kstatus=$?
    if [ ! -s "$out/live-kiosk.replay.txt" ]; then
        fail "live-kiosk" "the replay called no closure"
    elif diff "$out/live-kiosk.replay.txt" "$out/live-kiosk.live.txt" > "$out/live-kiosk.diff"; then
        pass "live-kiosk: $(wc -l < "$out/live-kiosk.live.txt") closure calls, the same as the replay's, including the unplugged drag cancelled"
    else
        fail "live-kiosk" "closure calls differ from the replay's: $(head -c 600 "$out/live-kiosk.diff")"
    fi
    [ "$kstatus" -eq 0 ] && pass "live-kiosk stops cleanly on SIGTERM (graceful shutdown)" || fail "live-kiosk stop" "exit status $kstatus"
fi

echo "== gestured devices and gestured record"
# A kiosk touchscreen that stays after its session until both recordings are made: one recorder
# stops after its --duration, another on Ctrl-C (SIGINT); both while the keyboard types on.
"$gestured" replay fixtures/synthetic/kiosk-session.yaml --uinput --wait-for-log "$out/record-a.log" --linger 86400000 \
    --as-played "$out/record.played.yaml" 2> "$out/record.player.log" &
player=$!
wait_for "$out/record.player.log" "/dev/input/event" || fail "record" "no virtual device"
node=$(grep -o '/dev/input/event[0-9]*' "$out/record.player.log" | head -1)
# devices_json NODE FILE: `gestured devices --json` into FILE (its stderr into FILE.err), until
# NODE is listed or 10 s have passed.
devices_json() {
    for _ in $(seq 100); do
        "$gestured" devices --json > "$2" 2> "$2.err"
        grep -q "\"node\": \"$1\"" "$2" && return 0
        sleep 0.1
    done
    return 1
}
devices_json "$node" "$out/devices.jsonl"
if grep "\"node\": \"$node\"" "$out/devices.jsonl" | grep -q '"name": "Synthetic Kiosk Touchscreen", "kind": "touchscreen", "seat": "seat0", "protocol": "slots", "slots": 10, "width_mm": null, "height_mm": null, "resolution": \[0, 0\], "x_range": \[0, 799\], "y_range": \[0, 479\], "quirks": \[\], "readable": true'; then
    pass "devices lists the virtual touchscreen: kind, slots, no resolution, readable"
else
    fail "devices" "$(cat "$out/devices.jsonl" "$out/devices.jsonl.err")"
fi
if [ -z "$keyboard_node" ]; then
    fail "devices leaves the keyboard out" "the virtual keyboard was never made: $(cat "$out/keyboard.log")"
elif ! kill -0 "$keyboard" 2>/dev/null; then
    fail "devices leaves the keyboard out" "the keyboard's player has ended ($keyboard_node may be another device's now): $(cat "$out/keyboard.log")"
elif grep -q "\"node\": \"$keyboard_node\"" "$out/devices.jsonl"; then
    fail "devices" "the keyboard is listed: $(grep "\"node\": \"$keyboard_node\"" "$out/devices.jsonl")"
else
    pass "devices leaves the keyboard out"
fi
"$gestured" devices > "$out/devices.txt" 2>&1
grep -q "Size:        unknown: the device reports no resolution" "$out/devices.txt" && pass "devices says the size is unknown" || fail "devices (readable)" "$(cat "$out/devices.txt")"
# Another user may not read it, and is told what would fix that.
setpriv --reuid=65534 --regid=65534 --clear-groups "$gestured" devices --json > "$out/devices-nobody.jsonl" 2>&1
grep "\"node\": \"$node\"" "$out/devices-nobody.jsonl" | grep -q '"readable": false, "reason": "cannot open: Permission denied", "fix": ".*gestured' \
    && pass "devices, as another user: not readable, and the fix" || fail "devices as nobody" "$(cat "$out/devices-nobody.jsonl")"
# libinput's quirks, as libinput reads them for the live device: a Cypress PS/2 trackpad's say
# its pressure tells no palm (issue 45, item 1's pad).
# The trackpad stays until both listings are made.
"$gestured" replay "$tp/CyPS2 Cypress Trackpad.two_finger_tap.events" --uinput --linger 86400000 2> "$out/cyps2.player.log" &
cyps2=$!
wait_for "$out/cyps2.player.log" "/dev/input/event" || fail "quirks" "no virtual Cypress trackpad"
cnode=$(grep -o '/dev/input/event[0-9]*' "$out/cyps2.player.log" | head -1)
devices_json "$cnode" "$out/devices-cyps2.jsonl"
grep "\"node\": \"$cnode\"" "$out/devices-cyps2.jsonl" \
    | grep -q '"key": "AttrPalmPressureThreshold", "value": "254", "section": "Cypress Touchpads", "file": "/usr/share/libinput/30-vendor-cypress.quirks"' \
    && pass "devices shows a live Cypress PS/2 trackpad's quirks: AttrPalmPressureThreshold=254 from libinput's files" \
    || fail "devices quirks" "$(cat "$out/devices-cyps2.jsonl" "$out/devices-cyps2.jsonl.err")"
"$gestured" devices > "$out/devices-cyps2.txt" 2>&1
grep -q "Quirks:      AttrPressureRange=10:8 (\[Cypress Touchpads\] 30-vendor-cypress.quirks:10)" "$out/devices-cyps2.txt" \
    && pass "devices (readable) names each quirk's section and file" || fail "devices quirks (readable)" "$(cat "$out/devices-cyps2.txt")"
kill $cyps2 2>/dev/null
wait $cyps2
# The session lasts 6.3 s, and starts when recorder a says it is recording.
"$gestured" record "$node" -o "$out/recorded-b.yaml" 2> "$out/record-b.log" &
recorder_b=$!
wait_for "$out/record-b.log" "recording $node" || fail "record" "recorder b never started"
"$gestured" record "Synthetic Kiosk" -o "$out/recorded-a.yaml" --duration 8 2> "$out/record-a.log" &
recorder_a=$!
wait "$recorder_a"; status_a=$?
played_wait "$out/record.player.log"
kill -INT "$recorder_b"; wait "$recorder_b"; status_b=$?
kill "$player" 2>/dev/null
wait "$player"
grep -q "8.0 s passed: wrote" "$out/record-a.log" && [ "$status_a" -eq 0 ] && pass "record --duration stops and writes" || fail "record --duration" "exit $status_a: $(cat "$out/record-a.log")"
grep -q "stopped: wrote" "$out/record-b.log" && [ "$status_b" -eq 0 ] && pass "record stops on Ctrl-C and writes" || fail "record on SIGINT" "exit $status_b: $(cat "$out/record-b.log")"
# What a recorder reads is what the kernel passed on, at its times: the recording as played.
# (Recorder a stops 8 s after it starts: a player more than 1.7 s late would be cut short, and
# the comparison says so.)
replays "$out/record.expected.jsonl" --config examples/kiosk.yaml "$out/record.played.yaml"
for which in a b; do
    "$gestured" replay "$out/recorded-$which.yaml" --config examples/kiosk.yaml --json > "$out/record.$which.jsonl" 2> "$out/record.$which.err"
    if [ -s "$out/record.$which.jsonl" ] && python3 scripts/vm/compare.py "$out/record.expected.jsonl" "$out/record.$which.jsonl" > "$out/record.$which.compare.txt"; then
        pass "a live recording ($which) replays to the session's gestures: $(cat "$out/record.$which.compare.txt")"
    else
        fail "recording $which replayed" "$(cat "$out/record.$which.compare.txt" "$out/record.$which.err" 2>/dev/null) (the player at most $(player_lag "$out/record.player.log") ms late)"
    fi
done

echo "== an exec action and a socket client"
cat > "$out/actions.yaml" <<EOF
service: {socket: /tmp/gestured-e2e.sock, actions-as-root: true}
layout:
  id: screen
  gestures:
    - kind: tap
      taps: 2
      action:
        exec: ["/bin/sh", "-c", "env | sort > $out/action-env.txt"]
        emit: true
EOF
chmod 644 "$out/actions.yaml"
start_service actions --config "$out/actions.yaml"
"$gestured" listen --json --socket /tmp/gestured-e2e.sock > "$out/listen.jsonl" 2> "$out/listen.log" &
listener=$!
wait_for "$out/listen.log" "connected: gestured"
"$gestured" replay "$ts/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" --uinput --wait-for-log "$log" \
    --as-played "$out/actions.played.yaml" 2> "$out/actions.player.log"
wait_for "$out/action-env.txt" "GESTURE_KIND=tap" && pass "the action ran with the gesture in its environment" || fail "exec action"
grep -q "GESTURE_TAPS=2" "$out/action-env.txt" 2>/dev/null && pass "… including its values (GESTURE_TAPS=2)" || fail "action environment" "no GESTURE_TAPS"
# The recording's four double taps, as what was played gives them.
replays "$out/actions.replay.jsonl" --config "$out/actions.yaml" "$out/actions.played.yaml"
expected=$(grep -c '"kind": "tap"' "$out/actions.replay.jsonl")
wait_count "$out/listen.jsonl" '"kind": "tap"' "$expected"
taps=$(grep -c '"kind": "tap"' "$out/listen.jsonl")
[ "$taps" -eq "$expected" ] && [ "$expected" -gt 0 ] && pass "the socket client received the $taps double taps" \
    || fail "socket client" "$taps taps received, $expected in the replay of what was played"
stop_service
kill "$listener" 2>/dev/null

echo "== protocol v1: the greeting, and buttons of other processes (Python, and the Swift client in gestured listen)"
# The fast taps land around (93, 65) mm on the built-in layout; the clients' buttons cover them.
# The double tap the Swift client expects needs the player in pace (paced).
# client_taps NAME: the fast taps played into the service for client NAME.
client_taps() {
    "$gestured" replay "$ts/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" --uinput --wait-for-log "$log" 2> "$out/clients.$1.player.log"
    paced_logs+=("$out/clients.$1.player.log")
}
clients_checks() {
    start_service clients --socket /tmp/gestured-clients.sock
    python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("/tmp/gestured-clients.sock"); print(s.makefile().readline(), end="")' > "$out/greeting.json"
    grep -q '^{"protocol": "gestured", "version": 1, "type": "greeting"' "$out/greeting.json" \
        && pass "a raw client's first line is the greeting with the version" || fail "greeting" "$(head -c 300 "$out/greeting.json")"
    python3 examples/python/gestured_button.py --socket /tmp/gestured-clients.sock --frame 70 40 50 50 --taps 1 > "$out/python-client.txt" 2>&1 &
    python_client=$!
    wait_for "$out/python-client.txt" "registered the button"
    client_taps python
    bounded_wait "$python_client"
    grep -q "^tap recognized on button at ([0-9.]*, [0-9.]*)$" "$out/python-client.txt" \
        && pass "the Python example registered a button and got its tap (in the button's own coordinates)" \
        || fail "python client" "$(cat "$out/python-client.txt")"
    "$gestured" listen --socket /tmp/gestured-clients.sock --region ok=70,40,50,50 --own-only --exit-after 1 --json \
        > "$out/swift-client.jsonl" 2> "$out/swift-client.log" &
    swift_client=$!
    wait_for "$out/swift-client.log" "connected: gestured"
    client_taps swift
    bounded_wait "$swift_client"
    grep -q '"type": "gesture", .*"kind": "tap", "state": "recognized", "region": "ok", .*"taps": 2' "$out/swift-client.jsonl" \
        && pass "the Swift client (gestured listen --region) registered a region and got its double tap" \
        || fail "swift client" "$(cat "$out/swift-client.jsonl" "$out/swift-client.log")"
    grep -q '"region": "root"' "$out/swift-client.jsonl" && fail "swift client --own-only" "got the service's own gestures"
    stop_service
    # gestured run --json names a client's region as the client does, with which client.
    grep -c '"client": [0-9]' "$out/clients.live.jsonl" > "$out/clients.count" || true
    [ "$(cat "$out/clients.count")" -ge 2 ] && pass "the service recognised both clients' taps on their regions ($(cat "$out/clients.count") events)" \
        || fail "client regions in the service" "$(cat "$out/clients.count")"
}
paced clients clients_checks

echo "== SIGHUP reloads; a broken file leaves the old configuration"
printf 'layout:\n  id: first\n  gestures:\n    - kind: tap\n' > "$out/reload.yaml"
chmod 644 "$out/reload.yaml"
start_service reload --no-socket --config "$out/reload.yaml"
printf 'layout:\n  id: second\n  gestures:\n    - kind: tapp\n' > "$out/reload.yaml"
kill -HUP "$service"
wait_for "$log" "configuration not reloaded" && pass "a broken file is reported and the old one stays" || fail "reload of a broken file"
grep -q 'reload.yaml:4:13: unknown gesture kind' "$log" && pass "… with FILE:LINE:COLUMN" || fail "reload message"
printf 'layout:\n  id: second\n  gestures:\n    - kind: tap\n' > "$out/reload.yaml"
kill -HUP "$service"
wait_for "$log" "configuration reloaded" && pass "a good file is reloaded" || fail "reload of a good file"
kill -0 "$service" 2>/dev/null && pass "the service runs on after reloads" || fail "service after reloads"
stop_service

. scripts/vm/ownership.sh
. scripts/vm/compositors.sh
. scripts/vm/touchpad.sh

echo "== idle: no wakeups, small"
# The lanes before this one created and removed many devices; under emulation udevd can still be
# announcing them. Those announcements would wake the service (its hotplug monitor) in the window.
udevadm settle --timeout=30
start_service idle --no-socket
"$gestured" replay fixtures/synthetic/drag-without-lift.yaml --uinput --wait-for-log "$log" --linger 86400000 2>/dev/null &
player=$!
# The drag's last move, then the device stays with nothing happening (until the player is stopped).
wait_for "$out/idle.live.jsonl" '"dx": 80.0' || fail "idle" "the drag never arrived"
udevadm settle --timeout=30
# Idle once its CPU time stands still for 0.5 s (up to 10 s).
for _ in $(seq 20); do
    before=$(cpu_ns "$service"); sleep 0.5
    [ "$(cpu_ns "$service")" = "$before" ] && break
done
timeout -s INT 5 strace -f -c -o "$out/idle.strace" -p "$service" 2>/dev/null
calls=$(awk '$NF == "total" {print $4}' "$out/idle.strace" 2>/dev/null)
others=$(awk 'NR > 2 && $NF != "total" && $NF !~ /^-+$/ && $NF != "restart_syscall" && $NF != "epoll_wait" && $NF != "clock_gettime" && $NF != "timerfd_settime" {print $NF}' "$out/idle.strace" 2>/dev/null | tr '\n' ' ')
# Attaching the tracer interrupts the blocked epoll_wait: the loop turns once (reads the clock,
# perhaps re-arms the timer) and blocks again. That one turn is all that may show.
if [ -z "$others" ] && [ "${calls:-0}" -le 3 ]; then pass "no wakeups over 5 s (${calls:-0} calls: the one loop turn the tracer causes)"; else fail "idle" "${calls:-?} calls ($others)"; cat "$out/idle.strace"; fi
# Each event is read once: libinput found the device, then let go of it (send-events
# disabled), so the service holds one descriptor of it, its own.
idle_node=$(grep -o 'node=/dev/input/event[0-9]*' "$log" | tail -1 | cut -d= -f2)
held=$(for fd in /proc/"$service"/fd/*; do readlink "$fd"; done | grep -c -x -F "$idle_node")
[ "$held" -eq 1 ] && pass "one descriptor of the device ($idle_node): libinput does not read it too" || fail "descriptors" "$held of $idle_node"
rss=$(awk '/VmRSS/ {print $2}' /proc/"$service"/status)
[ "$rss" -lt 20480 ] && pass "RSS $rss kB < 20 MB" || fail "RSS" "$rss kB"
stop_service
kill "$player" 2>/dev/null

kill "$keyboard" 2>/dev/null
# Every check ran: a block that stopped early (a helper not defined, a sourced file missing)
# would otherwise pass by saying nothing.
expected_checks=${E2E_CHECKS:-74}
if [ $((passed + failed)) -lt "$expected_checks" ]; then
    fail "the lane" "$((passed + failed)) checks gave a verdict, $expected_checks expected"
fi
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
