# scripts/vm/ownership.sh — sourced by scripts/vm/e2e.sh (its helpers and counters): owned
# devices (own: true, docs/ownership.md) checked with the real kernel and libinput reading the
# twin, as a compositor would.
debug_events=/usr/libexec/libinput/libinput-debug-events
list_devices=/usr/libexec/libinput/libinput-list-devices
syn=fixtures/synthetic

# The touch and pointer events of a debug-events log, without device names and times:
# "TOUCH_DOWN 0 (0) 16.67/25.00 (50.00/50.00mm)".
libinput_events() {
    grep -E '(TOUCH|POINTER|GESTURE)_' "$1" | grep -v TOUCH_FRAME \
        | sed -E 's/^[-+ ]?event[0-9]+ +//; s/[[:space:]]+\+[0-9]+\.[0-9]+s[[:space:]]*/ /; s/[[:space:]]+$//'
}

# own_start NAME RECORDING OWNED: a player of RECORDING that makes its device and plays once
# $out/own-NAME.ready names it (the caller writes "$player_node" there); its log joins
# $paced_logs. Sets $own_player (its pid) and $player_node, and with OWNED "yes" $twin_node, the
# twin the running service made for it. Returns 1 when no device was made, 2 when the service
# did not own it.
own_start() {
    local name=$1 recording=$2 owned=$3
    : > "$out/own-$name.ready"
    "$gestured" replay "$recording" --uinput --wait-for-log "$out/own-$name.ready" --linger 1500 2> "$out/own-$name.player.log" &
    own_player=$!
    paced_logs+=("$out/own-$name.player.log")
    twin_node=
    wait_for "$out/own-$name.player.log" "/dev/input/event" || return 1
    player_node=$(grep -o '/dev/input/event[0-9]*' "$out/own-$name.player.log" | head -1)
    [ "$owned" = yes ] || return 0
    wait_for "$log" "node=$player_node twin=" || return 2
    twin_node=$(grep "node=$player_node twin=" "$log" | grep -o 'twin=/dev/input/event[0-9]*' | head -1 | cut -d= -f2)
}

# own_play NAME RECORDING CONFIG [SERVICE ARGS...]: the service owning the device
# RECORDING is played into, libinput reading its twin; sets $twin_log, $player_node,
# $twin_node. With CONFIG "running": the service started already. With CONFIG "none": no
# service, libinput reading the device itself (the baseline); then $twin_log is that log.
own_play() {
    local name=$1 recording=$2 config=$3 status=0
    shift 3
    case $config in none | running) ;; *) start_service "own-$name" --config "$config" "$@" ;; esac
    own_start "$name" "$recording" "$([ "$config" = none ] && echo no || echo yes)" || status=$?
    [ "$status" = 1 ] && { fail "own $name" "no virtual device"; return 1; }
    [ "$status" = 2 ] && { fail "own $name" "the service did not own $player_node: $(tail -3 "$log")"; kill "$own_player"; return 1; }
    twin_log=$out/own-$name.libinput.txt
    "$debug_events" --device "${twin_node:-$player_node}" > "$twin_log" 2>&1 &
    local watch=$!
    wait_for "$twin_log" "DEVICE_ADDED"
    echo "$player_node" > "$out/own-$name.ready"
    # What to do while the devices are there (list them).
    if [ -n "${own_during:-}" ]; then eval "$own_during"; fi
    wait "$own_player"
    # The device went with its player (and the twin with it): libinput has said all it had.
    wait_for "$twin_log" "DEVICE_REMOVED"
    kill "$watch" 2>/dev/null
    wait "$watch" 2>/dev/null
    libinput_events "$twin_log" > "$out/own-$name.events.txt"
}

echo "== owned devices: a twin stands in for the device (issue 48)"
actions=$out/own-actions.txt
own_config=$out/own.yaml
own_config_held=$out/own-held.yaml
for held in no yes; do
    cat > "$([ $held = yes ] && echo "$own_config_held" || echo "$own_config")" <<YAML
service: {actions-as-root: true, socket: /tmp/gestured-own.sock}
devices:
  - match: {kind: touchscreen}
    own: true
$([ $held = yes ] && echo "    hold-back: 60ms")
  - match: {kind: touchpad}
    own: true
layout:
  id: root
  gestures:
    - {kind: swipe, touches: 4, directions: [down], action: {exec: ["/bin/sh", "-c", "echo swipe4 >> $actions"]}}
    - {kind: swipe, touches: 3, directions: [left], action: {exec: ["/bin/sh", "-c", "echo swipe3 >> $actions"]}}
    - {kind: edge-pan, edges: [left], action: {exec: ["/bin/sh", "-c", "echo edge >> $actions"]}}
    - {kind: tap}
    - {kind: pan, max-touches: 2}
YAML
done
chmod 644 "$own_config" "$own_config_held"

if [ ! -x "$debug_events" ]; then
    fail "owned devices" "libinput debug-events is not installed (Debian: libinput-tools)"
else
    # Each block below is paced (e2e.sh): its checks expect fixed output, and are played again
    # when one failed while its player fell behind.
    # A tap and a drag: libinput reads on the twin what it reads on the device itself.
    own_tap_drag() {
        own_play tap-drag-baseline "$syn/owned-tap-drag.yaml" none
        cp "$out/own-tap-drag-baseline.events.txt" "$out/own-baseline.txt"
        own_play tap-drag "$syn/owned-tap-drag.yaml" "$own_config"
        # A second instance on the same seat, started while the first owns the device: stopped once
        # it has looked at the seat's devices.
        "$gestured" run --no-socket > /dev/null 2> "$out/own-second.log" &
        second=$!
        wait_for "$out/own-second.log" "touch device"
        kill -TERM "$second"; wait "$second" 2>/dev/null
        stop_service
        if [ -s "$out/own-baseline.txt" ] && diff "$out/own-baseline.txt" "$out/own-tap-drag.events.txt" > "$out/own-tap-drag.diff"; then
            pass "owned: a tap and a drag reach libinput on the twin as on the device itself ($(grep -c TOUCH_ "$out/own-baseline.txt") touch events, same positions)"
        else
            fail "owned tap and drag" "$(head -c 600 "$out/own-tap-drag.diff") (baseline: $(wc -l < "$out/own-baseline.txt") lines)"
        fi
        live=$out/own-tap-drag.live.jsonl
        grep -q '"kind": "tap", "state": "recognized"' "$live" && grep -q '"kind": "pan", "state": "ended"' "$live" \
            && pass "owned: gestured's own tap and pan fire too" || fail "owned gestures" "$(head -c 300 "$live")"
        if grep -q "node=$twin_node" "$log" "$out/own-second.log"; then
            fail "twin never read" "$(grep "node=$twin_node" "$log" "$out/own-second.log" | head -2)"
        else
            pass "owned: neither the owning service nor a second instance reads the twin ($twin_node) as a touch device"
        fi
    }
    paced "owned tap and drag" own_tap_drag

    # A real four-finger drag down (Atmel), recognized as a swipe bound to a program.
    own_four_finger() {
        rm -f "$actions"
        own_play four-finger "fixtures/recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events" "$own_config"
        stop_service
        e=$out/own-four-finger.events.txt
        downs=$(grep -c '^TOUCH_DOWN' "$e"); cancels=$(grep -c '^TOUCH_CANCEL' "$e"); ups=$(grep -c '^TOUCH_UP' "$e")
        grep -q swipe4 "$actions" 2>/dev/null && pass "owned: the four-finger swipe ran its program" || fail "owned swipe action" "no swipe4 in $actions"
        [ "$downs" -eq 4 ] && [ "$cancels" -eq 4 ] && [ "$ups" -eq 0 ] \
            && pass "owned: each of the swipe's 4 touches the app had ends in TOUCH_CANCEL on the twin, none in TOUCH_UP" \
            || fail "owned swipe on the twin" "$downs downs, $cancels cancels, $ups ups"
    }
    paced "owned four-finger swipe" own_four_finger

    # The same kind of swipe, quicker (recognized 30 ms after landing), with hold-back: 60ms.
    own_held() {
        rm -f "$actions"
        own_play held "$syn/owned-four-finger-flick.yaml" "$own_config_held"
        stop_service
        e=$out/own-held.events.txt
        grep -q swipe4 "$actions" 2>/dev/null && [ "$(grep -c '^TOUCH_' "$e")" -eq 0 ] \
            && pass "owned, hold-back 60ms: the quick four-finger swipe ran its program and no touch of it reached the twin" \
            || fail "hold-back" "$(grep -c '^TOUCH_' "$e") touch events on the twin; actions: $(cat "$actions" 2>/dev/null)"
    }
    paced "owned, hold-back" own_held

    # Left-edge drags: one inside a client's exclusion region (0..20 x 100..200 mm), one above it.
    own_edge() {
        rm -f "$actions"
        start_service own-edge --config "$own_config"
        "$gestured" listen --socket /tmp/gestured-own.sock --exclusion drawer=0,100,20,100 > /dev/null 2> "$out/own-listen.log" &
        listener=$!
        wait_for "$out/own-listen.log" "connected: gestured"
        own_play edge "$syn/owned-edge-drags.yaml" running
        kill "$listener" 2>/dev/null
        stop_service
        e=$out/own-edge.events.txt
        # The first touch: down, motion, up; the second: down (and what motion came before the edge
        # pan began), cancelled.
        shape=$(awk '{print $1}' "$e" | uniq | tr '\n' ' ')
        echo "$shape" | grep -qE '^TOUCH_DOWN TOUCH_MOTION TOUCH_UP TOUCH_DOWN (TOUCH_MOTION )?TOUCH_CANCEL $' && [ "$(grep -c edge "$actions" 2>/dev/null)" = 1 ] \
            && pass "owned: a left-edge pan's touch ends in TOUCH_CANCEL; the same drag in a client's exclusion region passes whole and the edge pan does not fire" \
            || fail "edge pan and exclusion" "twin: $shape; actions: $(tr '\n' ' ' < "$actions" 2>/dev/null)"
    }
    paced "owned edge pan" own_edge

    # A double tap bound to a program, beside a tap that shares its touches: the double tap's
    # first tap lifts before it is recognized, so that lift waits on the twin; both its taps
    # end cancelled. A single tap's lift reaches the twin once the double tap has failed.
    own_double_tap() {
        rm -f "$actions"
        own_config_double=$out/own-double.yaml
        cat > "$own_config_double" <<YAML
service: {actions-as-root: true}
devices:
  - match: {kind: touchscreen}
    own: true
layout:
  id: root
  gestures:
    - {kind: tap, taps: 2, action: {exec: ["/bin/sh", "-c", "echo double >> $actions"]}}
    - {kind: tap}
YAML
        chmod 644 "$own_config_double"
        own_play double-tap "$syn/owned-double-tap.yaml" "$own_config_double" --no-socket
        stop_service
        e=$out/own-double-tap.events.txt
        shape=$(awk '{print $1}' "$e" | tr '\n' ' ')
        taps=$(grep -c '"kind": "tap", "state": "recognized"' "$out/own-double-tap.live.jsonl" 2>/dev/null)
        echo "$shape" | grep -qE '^TOUCH_DOWN TOUCH_DOWN TOUCH_CANCEL TOUCH_CANCEL TOUCH_DOWN TOUCH_UP $' \
            && [ "$(grep -c double "$actions" 2>/dev/null)" = 1 ] && [ "$taps" = 2 ] \
            && pass "owned: a double tap bound to a program ends both its taps in TOUCH_CANCEL on the twin (the first's lift waited for it); a single tap after it, in the same slot, reaches it whole (its lift once the double tap failed)" \
            || fail "double tap" "twin: $shape; actions: $(tr '\n' ' ' < "$actions" 2>/dev/null); taps recognized: $taps"
    }
    paced "owned double tap" own_double_tap

    # An owned touchpad: the pointer, scrolling and clicks pass; the three-finger swipe is
    # gestured's alone. The control: libinput on the device itself does its own swipe.
    own_touchpad() {
        rm -f "$actions"
        own_play touchpad-baseline "$syn/owned-touchpad.yaml" none
        own_during='"$list_devices" > "$out/own-list-devices.txt" 2>&1' own_play touchpad "$syn/owned-touchpad.yaml" "$own_config"
        stop_service
        b=$out/own-touchpad-baseline.events.txt
        e=$out/own-touchpad.events.txt
        if ! grep -q GESTURE_SWIPE_BEGIN "$b"; then
            fail "owned touchpad" "the control failed: libinput did no swipe of its own on the device ($(awk '{print $1}' "$b" | sort | uniq -c | tr '\n' ' '))"
        else
            # The three-finger flick comes after the click: nothing of libinput's may follow the
            # click's release on the twin (on the device itself, its swipe does). How many motions
            # the one-finger move before gives is the emulator's timing: uinput stamps events with
            # the time of the write, so frames the service reads late together reach the twin close
            # together, and libinput may drop a motion between them as a jump.
            after_click() { awk '/^POINTER_BUTTON/ {n = 0; next} /^(POINTER_MOTION|GESTURE_SWIPE)/ {n++} END {print n + 0}' "$1"; }
            motion_twin=$(grep -c '^POINTER_MOTION' "$e"); motion_device=$(grep -c '^POINTER_MOTION' "$b")
            if grep -q GESTURE_SWIPE "$e" || [ "$(after_click "$e")" -ne 0 ] || [ "$(after_click "$b")" -eq 0 ]; then
                fail "owned touchpad swipe" "$(grep -c GESTURE_SWIPE "$e") swipe events, $(after_click "$e") after the click on the twin ($(after_click "$b") on the device); pointer motions $motion_twin on the twin, $motion_device on the device"
            else
                pass "owned touchpad: libinput on the twin does no swipe of its own and moves no pointer for the three fingers (it does on the device itself)"
            fi
            grep -q swipe3 "$actions" 2>/dev/null && pass "owned touchpad: gestured's three-finger swipe ran its program" || fail "touchpad swipe action"
            grep -q POINTER_MOTION "$e" && grep -qE 'POINTER_SCROLL_FINGER|POINTER_AXIS' "$e" && grep -q 'POINTER_BUTTON.*pressed' "$e" && grep -q 'POINTER_BUTTON.*released' "$e" \
                && pass "owned touchpad: one finger moves the pointer, two scroll, a click clicks ($(grep -c POINTER_MOTION "$e") motions, $motion_device on the device; libinput took $(grep -c 'Touch jump detected' "$out/own-touchpad.libinput.txt") for jumps on the twin, $(grep -c 'Touch jump detected' "$out/own-touchpad-baseline.libinput.txt") on the device)" \
                || fail "owned touchpad pass-through" "$(awk '{print $1}' "$e" | sort | uniq -c | tr '\n' ' ')"
        fi
        # libinput sees the twin as it sees the device: the same attributes but its node.
        block() { awk -v k="$1" '/^Device:/{b=""} {b=b $0 "\n"} /^Kernel:/{if (index($0, k)) f=1} /^$/{if (f) {printf "%s", b; f=0}; b=""}' "$out/own-list-devices.txt" | grep -vE '^(Kernel|Group):'; }
        if [ -n "$twin_node" ] && [ -n "$(block "$player_node")" ] && [ "$(block "$player_node")" = "$(block "$twin_node")" ]; then
            pass "owned touchpad: libinput list-devices gives the twin the device's attributes (name, size, tap, scroll, click methods, disable-while-typing)"
        else
            # Files, not process substitution: the VM's /dev has no /dev/fd.
            block "$player_node" > "$out/own-list-devices.device.txt"; block "$twin_node" > "$out/own-list-devices.twin.txt"
            fail "list-devices" "$(diff "$out/own-list-devices.device.txt" "$out/own-list-devices.twin.txt" | head -c 600)"
        fi
    }
    paced "owned touchpad" own_touchpad

    # SIGKILL while a finger is down on the twin: the grab goes, the twin goes, the device is read again.
    own_kill() {
        start_service own-kill --no-socket --config "$own_config"
        own_start kill "$syn/owned-hold-then-tap.yaml" yes
        player=$own_player
        "$debug_events" --device "$twin_node" > "$out/own-kill.twin.txt" 2>&1 &
        twin_watch=$!
        "$debug_events" --device "$player_node" > "$out/own-kill.device.txt" 2>&1 &
        device_watch=$!
        wait_for "$out/own-kill.twin.txt" "DEVICE_ADDED"
        wait_for "$out/own-kill.device.txt" "DEVICE_ADDED"
        echo "$player_node" > "$out/own-kill.ready"
        # The recording plays from now: its finger holds 2 s, its tap lands at 2.1 s.
        played_at=$(date +%s.%N)
        wait_for "$out/own-kill.twin.txt" "TOUCH_DOWN"
        kill -KILL "$service"
        killed_at=$(date +%s.%N)
        wait "$service" 2>/dev/null
        wait_for "$out/own-kill.device.txt" "TOUCH_DOWN"
        reached_at=$(date +%s.%N)
        # The kernel removes the twin when the killed service's uinput descriptor closes.
        for _ in $(seq 50); do [ -e "$twin_node" ] || break; sleep 0.1; done
        gone=yes
        [ -e "$twin_node" ] && gone=no
        wait "$player"
        kill "$twin_watch" "$device_watch" 2>/dev/null
        wait "$twin_watch" "$device_watch" 2>/dev/null
        # The new touch reaches libinput on the device within a second of landing (or of the kill,
        # had it landed before); the kill came while the first finger was down.
        after=$(python3 -c "print(round($reached_at - max($killed_at, $played_at + 2.1), 2))")
        killed_after=$(python3 -c "print(round($killed_at - $played_at, 2))")
        # A kill after the hold's end (the lane itself too slow to see the touch) tests nothing: again.
        python3 -c "import sys; sys.exit(0 if $killed_after < 2.0 else 1)" || paced_again="the lane killed the service ${killed_after} s into a 2 s hold"
        if grep -q TOUCH_DOWN "$out/own-kill.device.txt" && python3 -c "import sys; sys.exit(0 if $after < 1.0 and $killed_after < 2.0 else 1)" && [ $gone = yes ]; then
            pass "kill -9 mid-touch (${killed_after} s into a 2 s hold): a new touch reached libinput on the device itself ${after} s after it landed, and the twin is gone"
        else
            fail "kill -9" "killed ${killed_after} s into the hold; device touch ${after} s after landing: $(grep -c TOUCH_DOWN "$out/own-kill.device.txt"); twin gone: $gone"
        fi
    }
    paced "kill -9" own_kill
fi
