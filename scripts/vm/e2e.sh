#!/usr/bin/env bash
# scripts/vm/e2e.sh — the real-kernel lane, run inside the VM (scripts/vm/run.sh) as root from
# the repository: uinput devices, udev, libinput and the built gestured. Each check prints
# PASS or FAIL; the last line is "e2e: N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
gestured=${GESTURED:-.build/debug/gestured}
echo "testing $gestured"
out=${VM_OUT:-/tmp/gestured-e2e}
mkdir -p "$out"
passed=0
failed=0

pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1${2:+: $2}"; failed=$((failed + 1)); }

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

echo "== a keyboard, typed on throughout"
"$gestured" replay fixtures/synthetic/keyboard-typing.yaml --device 0 --uinput --linger 0 2> "$out/keyboard.log" &
keyboard=$!
wait_for "$out/keyboard.log" "/dev/input/event" || fail "virtual keyboard" "not created"
keyboard_node=$(grep -o '/dev/input/event[0-9]*' "$out/keyboard.log" | head -1)
echo "keyboard at $keyboard_node"

echo "== live gestures equal the replay's"
lane() {  # lane NAME RECORDING [CONFIG]
    local name=$1 recording=$2 config=${3:-}
    local config_args=()
    [ -n "$config" ] && config_args=(--config "$config")
    start_service "$name" --no-socket "${config_args[@]}"
    "$gestured" replay "$recording" --uinput --wait-for-log "$log" 2> "$out/$name.player.log"
    stop_service
    "$gestured" replay "$recording" --json "${config_args[@]}" > "$out/$name.replay.jsonl" 2>/dev/null
    if [ ! -s "$out/$name.replay.jsonl" ]; then
        fail "$name" "the replay recognised nothing"
    elif python3 scripts/vm/compare.py "$out/$name.replay.jsonl" "$out/$name.live.jsonl" > "$out/$name.compare.txt"; then
        pass "$name: $(cat "$out/$name.compare.txt")"
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
# The VM's init brings no network up; the metrics and the view listen on loopback.
ip link set lo up 2>/dev/null || /run/busybox ip link set lo up
start_service metrics --no-socket --config examples/kiosk.yaml --metrics 127.0.0.1:9464 --view 127.0.0.1:0
# The device stays while the metrics are read (gestured_devices 1).
"$gestured" replay fixtures/synthetic/kiosk-session.yaml --uinput --wait-for-log "$log" --linger 8000 2> "$out/metrics.player.log" &
player=$!
"$gestured" replay fixtures/synthetic/kiosk-session.yaml --config examples/kiosk.yaml --json > "$out/metrics.replay.jsonl" 2>/dev/null
# Counted as handled: the last gesture (the pan on the volume ends) printed means all are counted.
wait_for "$out/metrics.live.jsonl" '"kind": "pan", "state": "ended", "region": "volume"' || true
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
wait "$player"
stop_service
lane two-finger-tap "$tp/CyPS2 Cypress Trackpad.two_finger_tap.events"

echo "== hotplug: a device removed mid-gesture, then again"
start_service hotplug --no-socket
"$gestured" replay fixtures/synthetic/drag-without-lift.yaml --uinput --wait-for-log "$log" --linger 300 2>/dev/null
wait_for "$out/hotplug.live.jsonl" '"state": "cancelled"' && pass "removed mid-gesture: the pan is cancelled" || fail "removed mid-gesture" "no cancelled pan"
kill -0 "$service" 2>/dev/null && pass "the service stays up" || fail "the service stays up"
"$gestured" replay fixtures/synthetic/drag-without-lift.yaml --uinput --wait-for-log "$log" --linger 300 2>/dev/null
sleep 0.5
began=$(grep -c '"state": "began"' "$out/hotplug.live.jsonl")
[ "$began" -eq 2 ] && pass "a device created again is used again" || fail "created again" "$began pans began"

echo "== the keyboard is never opened"
if [ -n "$keyboard_node" ]; then
    opened=$(for fd in /proc/"$service"/fd/*; do readlink "$fd"; done | grep -c -x -F "$keyboard_node")
    [ "$opened" -eq 0 ] && pass "the service holds no descriptor of the keyboard" || fail "keyboard" "the service has it open"
    grep -q "not a touch device: refused" "$log" 2>/dev/null || true
fi
stop_service

# The kernel drops events: dropped_lane NAME RECORDING MARK. The burst comes 3 s into the
# recording, while the service is stopped (from when MARK, the drag's last frame, is printed):
# its buffer in the kernel overflows (SYN_DROPPED). Read again, the device's state goes on as
# libevdev's sync makes the burst: the gestures equal the replay of NAME's .collapsed.yaml.
dropped_lane() {
    local name=$1 recording=$2 mark=$3
    start_service "$name" --no-socket
    "$gestured" replay "$recording" --uinput --wait-for-log "$log" --linger 300 2> "$out/$name.player.log" &
    local player=$!
    # Stopped once the drag's last frame is handled, the service holds nothing when the burst comes.
    if wait_for "$out/$name.live.jsonl" "$mark"; then
        kill -STOP "$service"
        sleep 4.5
        kill -CONT "$service"
    fi
    wait "$player"
    wait_for "$out/$name.live.jsonl" '"kind": "tap"'
    stop_service
    grep -q "the kernel dropped events" "$log" && pass "$name: the service saw the kernel drop events (SYN_DROPPED)" || fail "$name: SYN_DROPPED" "no drop in the log"
    if grep -q "sent what no device should" "$log"; then fail "$name: resynchronized" "$(grep "sent what no device should" "$log" | head -1)"; fi
    "$gestured" replay "${recording%.yaml}.collapsed.yaml" --json > "$out/$name.replay.jsonl" 2>/dev/null
    if python3 scripts/vm/compare.py "$out/$name.replay.jsonl" "$out/$name.live.jsonl" > "$out/$name.compare.txt"; then
        pass "$name: after the drop, contacts and gestures are right: $(cat "$out/$name.compare.txt")"
    else
        fail "$name: after the drop" "$(cat "$out/$name.compare.txt")"
    fi
}

echo "== the kernel drops events (the service stopped through a burst): the state is read again"
# A second finger lands during the burst.
dropped_lane dropped fixtures/synthetic/burst-while-stopped.yaml '"dx": 40.0'
echo "== the kernel drops events while a finger lifts: the lift is read from the device's state"
# Nothing after the burst says the right finger lifted: only the state kept of the device, against
# the kernel's, does (libevdev ends the slot).
dropped_lane dropped-lift fixtures/synthetic/lift-while-stopped.yaml '"dx": 20.0'

echo "== desktop actions: keys, a held key, a button and the wheel (examples/desktop.yaml)"
debug_events=/usr/libexec/libinput/libinput-debug-events
if [ ! -x "$debug_events" ]; then
    fail "desktop actions" "libinput debug-events is not installed (Debian: libinput-tools)"
else
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
    for f in desktop-touchpad desktop-touchscreen desktop-touchpad-unplugged; do
        "$gestured" replay "fixtures/synthetic/$f.yaml" --uinput --wait-for-log "$log" --linger 300 2>> "$out/desktop.player.log"
    done
    wait_for "$out/desktop.live.jsonl" '"state": "cancelled"'
    sleep 0.5
    kill "$kbd_watch" "$ptr_watch" 2>/dev/null
    wait "$kbd_watch" "$ptr_watch" 2>/dev/null
    stop_service
    grep -o 'KEY_[A-Z]* ([0-9]*) \(pressed\|released\)' "$out/desktop.keyboard.txt" > "$out/desktop.keys.txt"
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
    if diff "$out/desktop.keys.expected.txt" "$out/desktop.keys.txt" > "$out/desktop.keys.diff"; then
        pass "desktop: libinput sees the virtual keyboard's chords and held keys in order, the last released when its touchpad went mid-drag"
    else
        fail "desktop keys" "$(tr '\n' ';' < "$out/desktop.keys.diff" | head -c 600)"
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
    "$gestured" replay fixtures/synthetic/kiosk-session.yaml --uinput --wait-for-log "$klog" --linger 300 2>/dev/null
    "$gestured" replay fixtures/synthetic/drag-without-lift.yaml --uinput --wait-for-log "$klog" --linger 300 2>/dev/null
    "$gestured" replay fixtures/synthetic/kiosk-session.yaml --uinput --wait-for-log "$klog" --linger 300 2>/dev/null
    kill -TERM "$kpid"
    wait "$kpid"
    kstatus=$?
    for f in kiosk-session drag-without-lift kiosk-session; do "$kiosk" --replay "fixtures/synthetic/$f.yaml"; done > "$out/live-kiosk.replay.txt"
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
# A kiosk touchscreen that stays a while after its session: one recorder stops after its
# --duration, another on Ctrl-C (SIGINT); both while the keyboard types on.
"$gestured" replay fixtures/synthetic/kiosk-session.yaml --uinput --wait-for-log "$out/record-a.log" --linger 4000 2> "$out/record.player.log" &
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
[ -n "$keyboard_node" ] && ! grep -q "\"node\": \"$keyboard_node\"" "$out/devices.jsonl" && pass "devices leaves the keyboard out" || fail "devices" "the keyboard is listed"
"$gestured" devices > "$out/devices.txt" 2>&1
grep -q "Size:        unknown: the device reports no resolution" "$out/devices.txt" && pass "devices says the size is unknown" || fail "devices (readable)" "$(cat "$out/devices.txt")"
# Another user may not read it, and is told what would fix that.
setpriv --reuid=65534 --regid=65534 --clear-groups "$gestured" devices --json > "$out/devices-nobody.jsonl" 2>&1
grep "\"node\": \"$node\"" "$out/devices-nobody.jsonl" | grep -q '"readable": false, "reason": "cannot open: Permission denied", "fix": ".*gestured' \
    && pass "devices, as another user: not readable, and the fix" || fail "devices as nobody" "$(cat "$out/devices-nobody.jsonl")"
# libinput's quirks, as libinput reads them for the live device: a Cypress PS/2 trackpad's say
# its pressure tells no palm (issue 45, item 1's pad).
"$gestured" replay "$tp/CyPS2 Cypress Trackpad.two_finger_tap.events" --uinput --linger 4000 2> "$out/cyps2.player.log" &
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
wait $cyps2
# The session lasts 6.3 s, and starts when recorder a says it is recording.
"$gestured" record "$node" -o "$out/recorded-b.yaml" 2> "$out/record-b.log" &
recorder_b=$!
wait_for "$out/record-b.log" "recording $node" || fail "record" "recorder b never started"
"$gestured" record "Synthetic Kiosk" -o "$out/recorded-a.yaml" --duration 8 2> "$out/record-a.log" &
recorder_a=$!
wait "$recorder_a"; status_a=$?
kill -INT "$recorder_b"; wait "$recorder_b"; status_b=$?
wait "$player"
grep -q "8.0 s passed: wrote" "$out/record-a.log" && [ "$status_a" -eq 0 ] && pass "record --duration stops and writes" || fail "record --duration" "exit $status_a: $(cat "$out/record-a.log")"
grep -q "stopped: wrote" "$out/record-b.log" && [ "$status_b" -eq 0 ] && pass "record stops on Ctrl-C and writes" || fail "record on SIGINT" "exit $status_b: $(cat "$out/record-b.log")"
"$gestured" replay fixtures/synthetic/kiosk-session.yaml --config examples/kiosk.yaml --json > "$out/record.expected.jsonl" 2>/dev/null
for which in a b; do
    "$gestured" replay "$out/recorded-$which.yaml" --config examples/kiosk.yaml --json > "$out/record.$which.jsonl" 2> "$out/record.$which.err"
    if [ -s "$out/record.$which.jsonl" ] && python3 scripts/vm/compare.py "$out/record.expected.jsonl" "$out/record.$which.jsonl" > "$out/record.$which.compare.txt"; then
        pass "a live recording ($which) replays to the session's gestures: $(cat "$out/record.$which.compare.txt")"
    else
        fail "recording $which replayed" "$(cat "$out/record.$which.compare.txt" "$out/record.$which.err" 2>/dev/null)"
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
sleep 0.5
"$gestured" replay "$ts/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" --uinput --wait-for-log "$log" 2>/dev/null
wait_for "$out/action-env.txt" "GESTURE_KIND=tap" && pass "the action ran with the gesture in its environment" || fail "exec action"
grep -q "GESTURE_TAPS=2" "$out/action-env.txt" 2>/dev/null && pass "… including its values (GESTURE_TAPS=2)" || fail "action environment" "no GESTURE_TAPS"
taps=$(grep -c '"kind": "tap"' "$out/listen.jsonl")
[ "$taps" -eq 4 ] && pass "the socket client received the 4 double taps" || fail "socket client" "$taps taps received"
stop_service
kill "$listener" 2>/dev/null

echo "== protocol v1: the greeting, and buttons of other processes (Python, and the Swift client in gestured listen)"
# The fast taps land around (93, 65) mm on the built-in layout; the clients' buttons cover them.
start_service clients --socket /tmp/gestured-clients.sock
python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("/tmp/gestured-clients.sock"); print(s.makefile().readline(), end="")' > "$out/greeting.json"
grep -q '^{"protocol": "gestured", "version": 1, "type": "greeting"' "$out/greeting.json" \
    && pass "a raw client's first line is the greeting with the version" || fail "greeting" "$(head -c 300 "$out/greeting.json")"
python3 examples/python/gestured_button.py --socket /tmp/gestured-clients.sock --frame 70 40 50 50 --taps 1 > "$out/python-client.txt" 2>&1 &
python_client=$!
wait_for "$out/python-client.txt" "registered the button"
"$gestured" replay "$ts/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" --uinput --wait-for-log "$log" 2>/dev/null
wait "$python_client"
grep -q "^tap recognized on button at ([0-9.]*, [0-9.]*)$" "$out/python-client.txt" \
    && pass "the Python example registered a button and got its tap (in the button's own coordinates)" \
    || fail "python client" "$(cat "$out/python-client.txt")"
"$gestured" listen --socket /tmp/gestured-clients.sock --region ok=70,40,50,50 --own-only --exit-after 1 --json \
    > "$out/swift-client.jsonl" 2> "$out/swift-client.log" &
swift_client=$!
wait_for "$out/swift-client.log" "connected: gestured"
"$gestured" replay "$ts/Atmel maXTouch Touchscreen.1-finger-fast-taps.events" --uinput --wait-for-log "$log" 2>/dev/null
wait "$swift_client"
grep -q '"type": "gesture", .*"kind": "tap", "state": "recognized", "region": "ok", .*"taps": 2' "$out/swift-client.jsonl" \
    && pass "the Swift client (gestured listen --region) registered a region and got its double tap" \
    || fail "swift client" "$(cat "$out/swift-client.jsonl" "$out/swift-client.log")"
grep -q '"region": "root"' "$out/swift-client.jsonl" && fail "swift client --own-only" "got the service's own gestures"
stop_service
# gestured run --json names a client's region as the client does, with which client.
grep -c '"client": [0-9]' "$out/clients.live.jsonl" > "$out/clients.count" || true
[ "$(cat "$out/clients.count")" -ge 2 ] && pass "the service recognised both clients' taps on their regions ($(cat "$out/clients.count") events)" \
    || fail "client regions in the service" "$(cat "$out/clients.count")"

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

echo "== idle: no wakeups, small"
# The lanes before this one created and removed many devices; under emulation udevd can still be
# announcing them. Those announcements would wake the service (its hotplug monitor) in the window.
udevadm settle --timeout=30
start_service idle --no-socket
"$gestured" replay fixtures/synthetic/drag-without-lift.yaml --uinput --wait-for-log "$log" --linger 15000 2>/dev/null &
player=$!
# The drag's last move, then the device stays with nothing happening.
wait_for "$out/idle.live.jsonl" '"dx": 80.0' || fail "idle" "the drag never arrived"
udevadm settle --timeout=30
sleep 0.5
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
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
