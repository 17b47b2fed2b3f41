# scripts/vm/touchpad.sh — sourced by scripts/vm/e2e.sh (its helpers and counters): the
# touchpad action (docs/desktop.md) — touchscreen gestures replayed on gestured's virtual
# touchpad, as libinput reads it in a compositor: libinput debug-events on the virtual touchpad
# while a four-finger drag, the same drag unplugged midway and a pinch are played on a
# touchscreen. scripts/vm/touchpad-check.py judges libinput's gestures against the service's.
debug_events=/usr/libexec/libinput/libinput-debug-events

echo "== the touchpad action: a touchscreen's gestures as libinput's touchpad gestures"
if [ ! -x "$debug_events" ]; then
    fail "touchpad action" "libinput debug-events is not installed (Debian: libinput-tools)"
else
    # The package's udev rule, so that the virtual touchpad is external as it is on an install.
    mkdir -p /etc/udev/rules.d
    cp udev/70-gestured.rules /etc/udev/rules.d/
    udevadm control --reload 2>/dev/null
    cat > "$out/touchpad.yaml" <<'YAML'
devices:
  - match: {kind: touchscreen}
    output: [1280, 800]
layout:
  id: screen
  frame: [0, 0, 1280, 800]
  gestures:
    - kind: pan
      min-touches: 4
      max-touches: 4
      action: {touchpad: {swipe: 3}}
    - kind: pinch
      action: {touchpad: {pinch: 2}}
YAML
    "$gestured" synth -e "4 fingers drag from 200,400 to 1080,400 over 600 ms" --config "$out/touchpad.yaml" -o "$out/touchpad-swipe.yaml" 2>> "$out/touchpad.synth.log"
    "$gestured" synth -e "pinch out at 640,400 from 300 to 600 over 500 ms" --config "$out/touchpad.yaml" -o "$out/touchpad-pinch.yaml" 2>> "$out/touchpad.synth.log"
    # The drag again, its lift cut off: the player's device goes with the fingers down.
    python3 - "$out/touchpad-swipe.yaml" "$out/touchpad-unplugged.yaml" <<'PY'
import sys
text = open(sys.argv[1]).read()
cut = text.rindex("  - evdev:")
open(sys.argv[2], "w").write(text[:cut])
PY
    start_service touchpad --no-socket --config "$out/touchpad.yaml"
    wait_for "$log" "virtual touchpad ready"
    pad=$(grep "virtual touchpad ready" "$log" | grep -o '/dev/input/event[0-9]*' | head -1)
    echo "virtual touchpad at $pad"
    integration=$(udevadm info --query=property --name="$pad" 2>/dev/null | grep -E '^ID_INPUT_TOUCHPAD_INTEGRATION=' || true)
    [ "$integration" = "ID_INPUT_TOUCHPAD_INTEGRATION=external" ] \
        && pass "the virtual touchpad is a touchpad udev marks external (the package's rule): $integration" \
        || fail "virtual touchpad integration" "udev says '$integration' for $pad"
    "$debug_events" --device "$pad" > "$out/touchpad.libinput.txt" 2>&1 &
    watch=$!
    wait_for "$out/touchpad.libinput.txt" "DEVICE_ADDED"
    grep -q "DEVICE_ADDED.*gestured virtual touchpad.*cap:[a-z]*g.*size 100x70mm" "$out/touchpad.libinput.txt" \
        && pass "libinput takes the virtual touchpad for a touchpad of 100 x 70 mm with gestures (cap:pg)" \
        || fail "virtual touchpad capabilities" "$(grep DEVICE_ADDED "$out/touchpad.libinput.txt")"
    : > "$out/touchpad.player.log"
    "$gestured" replay "$out/touchpad-swipe.yaml" --uinput --wait-for-log "$log" --linger 300 2>> "$out/touchpad.player.log"
    wait_for "$out/touchpad.libinput.txt" "GESTURE_SWIPE_END"
    "$gestured" replay "$out/touchpad-unplugged.yaml" --uinput --wait-for-log "$log" --linger 300 2>> "$out/touchpad.player.log"
    wait_count "$out/touchpad.libinput.txt" "GESTURE_SWIPE_END" 2
    "$gestured" replay "$out/touchpad-pinch.yaml" --uinput --wait-for-log "$log" --linger 300 2>> "$out/touchpad.player.log"
    wait_for "$out/touchpad.libinput.txt" "GESTURE_PINCH_END"
    sleep 0.5
    kill "$watch" 2>/dev/null
    wait "$watch" 2>/dev/null
    stop_service
    python3 scripts/vm/touchpad-check.py "$out/touchpad.live.jsonl" "$out/touchpad.libinput.txt" > "$out/touchpad.check.txt" 2>&1
    grep -q "^PASS\|^FAIL" "$out/touchpad.check.txt" || fail "touchpad check" "$(tail -c 400 "$out/touchpad.check.txt")"
    while IFS= read -r verdict; do
        case "$verdict" in
            PASS\ *) pass "${verdict#PASS }" ;;
            FAIL\ *) fail "${verdict#FAIL }" ;;
            *) echo "$verdict" ;;
        esac
    done < "$out/touchpad.check.txt"
    # The service stopped while its virtual touchpad's fingers are down mid-swipe. With SIGTERM
    # it cancels the swipe, keeps the fingers until libinput has ended it cancelled, then lets
    # the device go; killed (SIGKILL: no cleanup of its own), the kernel takes the uinput device
    # away with the process. Either way libinput removes the device, and nothing is left down in
    # the compositor.
    for stop_signal in TERM KILL; do
        start_service "touchpad-$stop_signal" --no-socket --config "$out/touchpad.yaml"
        wait_for "$log" "virtual touchpad ready"
        stopped_pad=$(grep "virtual touchpad ready" "$log" | grep -o '/dev/input/event[0-9]*' | head -1)
        events=$out/touchpad-$stop_signal.libinput.txt
        "$debug_events" --device "$stopped_pad" > "$events" 2>&1 &
        watch=$!
        wait_for "$events" "DEVICE_ADDED"
        "$gestured" replay "$out/touchpad-unplugged.yaml" --uinput --wait-for-log "$log" --linger 20000 2>> "$out/touchpad.player.log" &
        player=$!
        wait_for "$events" "GESTURE_SWIPE_BEGIN"
        kill "-$stop_signal" "$service" 2>/dev/null
        wait "$service" 2>/dev/null
        wait_for "$events" "DEVICE_REMOVED"
        sleep 0.5
        swipe_end=$(grep "GESTURE_SWIPE_END" "$events" | tail -1 | sed 's/^ *//; s/[[:space:]]\+/ /g')
        if [ "$stop_signal" = TERM ]; then
            if grep -q "DEVICE_REMOVED" "$events" && [ ! -e "$stopped_pad" ] && echo "$swipe_end" | grep -q cancelled; then
                pass "the service stopped (SIGTERM) mid-swipe: libinput's swipe ends cancelled ($swipe_end), then the virtual touchpad goes"
            else
                fail "virtual touchpad after SIGTERM" "swipe end '$swipe_end'; $(tail -3 "$events")"
            fi
        elif grep -q "DEVICE_REMOVED" "$events" && [ ! -e "$stopped_pad" ]; then
            pass "the service killed (SIGKILL) mid-swipe: its virtual touchpad goes with it, libinput removes it (its swipe ends as libinput ends it: $swipe_end)"
        else
            fail "virtual touchpad after SIGKILL" "$stopped_pad still there or not removed: $(tail -3 "$events")"
        fi
        kill "$watch" "$player" 2>/dev/null
        wait "$watch" "$player" 2>/dev/null
    done
    # A lid closed and opened: logind's PrepareForSleep(true), then (false), on a system bus of
    # the lane's own (a dbus-daemon and scripts/fakes/logind.py); the service makes its virtual
    # touchpad again, and libinput reads the new one.
    if command -v dbus-daemon >/dev/null && /usr/bin/python3 -c "import dbus, gi" 2>/dev/null; then
        bus_dir=$(mktemp -d /tmp/gestured-bus.XXXXXX)  # (a socket and a fifo: not on the shared folder)
        mkdir -p "$bus_dir"
        sed -e "s|@SOCKET@|$bus_dir/socket|" -e "s|@INCLUDE@||" scripts/fakes/system-bus.conf > "$bus_dir/bus.conf"
        dbus-daemon --nofork --nopidfile --config-file="$bus_dir/bus.conf" > /dev/null 2>&1 &
        bus_pid=$!
        for _ in $(seq 100); do [ -S "$bus_dir/socket" ] && break; sleep 0.1; done
        export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$bus_dir/socket
        mkfifo "$bus_dir/logind.in"
        /usr/bin/python3 scripts/fakes/logind.py < "$bus_dir/logind.in" > "$bus_dir/logind.log" 2>&1 &
        logind_pid=$!
        exec 9> "$bus_dir/logind.in"
        wait_for "$bus_dir/logind.log" "ready"
        start_service touchpad-resume --no-socket --config "$out/touchpad.yaml"
        wait_for "$log" "virtual touchpad ready"
        first=$(grep "virtual touchpad ready" "$log" | grep -o '/dev/input/event[0-9]*' | head -1)
        echo sleep >&9
        echo wake >&9
        wait_for "$log" "virtual touchpad made again"
        again=$(grep "virtual touchpad made again" "$log" | grep -o '/dev/input/event[0-9]*' | head -1)
        "$debug_events" --device "$again" > "$out/touchpad-resume.libinput.txt" 2>&1 &
        watch=$!
        wait_for "$out/touchpad-resume.libinput.txt" "DEVICE_ADDED"
        "$gestured" replay "$out/touchpad-swipe.yaml" --uinput --wait-for-log "$log" --linger 300 2>> "$out/touchpad.player.log"
        wait_for "$out/touchpad-resume.libinput.txt" "GESTURE_SWIPE_END"
        kill "$watch" 2>/dev/null
        wait "$watch" 2>/dev/null
        stop_service
        # (The kernel may give the new device the old one's number.)
        if [ -n "$again" ] && grep -q "the machine woke up" "$log" && grep -q "GESTURE_SWIPE_END" "$out/touchpad-resume.libinput.txt"; then
            pass "after logind's PrepareForSleep(false) the virtual touchpad is made again ($first, then $again), and libinput reads its swipes"
        else
            fail "touchpad after a wake" "first $first, again '${again}': $(grep -i "woke\|touchpad" "$log" | tail -3)"
        fi
        exec 9>&-
        kill "$logind_pid" "$bus_pid" 2>/dev/null
        wait "$logind_pid" "$bus_pid" 2>/dev/null
        unset DBUS_SYSTEM_BUS_ADDRESS
    else
        fail "touchpad after a wake" "dbus-daemon or Debian's python3-dbus is missing"
    fi
    # sway's bindgesture (a workspace swipe bound to a touchpad gesture) came in sway 1.8.
    sway_version=$(sway --version 2>/dev/null | grep -o '[0-9]\+\.[0-9]\+' | head -1)
    echo "note: sway ${sway_version:-(none)} here; bindgesture, which would run a workspace swipe from this touchpad, is sway 1.8 and later"
fi
