# scripts/vm/compositors.sh — sourced by scripts/vm/e2e.sh (its helpers and counters): what
# an app gets of an owned touchscreen under real compositors from Debian (cage, sway), started
# as a kiosk starts them — an unprivileged user, seatd, wlroots' headless and libinput
# backends, the pixman renderer, no devices but libinput's — with Debian's `wev` as the app,
# logging every wl_touch and wl_keyboard event with its position (docs/ownership.md,
# "Compositors"). libinput's debug-events (ownership.sh) shows what a compositor reads; this
# shows what its app gets.
kiosk_user=gestured-kiosk
kiosk_uid=1642
kiosk_run=/run/user/$kiosk_uid
app_events="python3 scripts/vm/app_events.py"

# comp_setup: the kiosk user, its runtime directory, seatd.
comp_setup() {
    id "$kiosk_user" >/dev/null 2>&1 || useradd -M -u "$kiosk_uid" -d /nonexistent -s /usr/sbin/nologin "$kiosk_user" || return 1
    mkdir -p "$kiosk_run" && chown "$kiosk_user:" "$kiosk_run" && chmod 700 "$kiosk_run"
    rm -f /run/seatd.sock
    seatd -g "$kiosk_user" -l error > "$out/comp-seatd.log" 2>&1 &
    seatd_pid=$!
    for _ in $(seq 100); do [ -S /run/seatd.sock ] && return 0; sleep 0.1; done
    return 1
}

# comp_start COMPOSITOR: the compositor with wev as its app; sets $comp_pid and $wev_log, and
# waits until wev's window is mapped (configured to the output's width).
comp_start() {
    local name=$1
    wev_log=$kiosk_run/wev-$name.log
    : > "$wev_log"; chown "$kiosk_user:" "$wev_log"
    local env=(XDG_RUNTIME_DIR="$kiosk_run" LIBSEAT_BACKEND=seatd WLR_BACKENDS=headless,libinput
               WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1)
    case $name in
        cage)
            runuser -u "$kiosk_user" -- env "${env[@]}" cage -- stdbuf -oL wev > "$wev_log" 2> "$out/comp-cage.log" &
            ;;
        sway)
            printf 'output HEADLESS-1 mode 1280x720\ndefault_border none\nexec stdbuf -oL wev > %s 2>&1\n' "$wev_log" > "$kiosk_run/sway.conf"
            chown "$kiosk_user:" "$kiosk_run/sway.conf"
            runuser -u "$kiosk_user" -- env "${env[@]}" sway -c "$kiosk_run/sway.conf" > "$out/comp-sway.log" 2>&1 &
            ;;
    esac
    local runner=$!
    comp_pid=
    for _ in $(seq 100); do
        comp_pid=$(pgrep -x -u "$kiosk_user" "$name" | head -1)
        [ -n "$comp_pid" ] && break
        kill -0 "$runner" 2>/dev/null || break
        sleep 0.1
    done
    [ -n "$comp_pid" ] && wait_for "$wev_log" "width: 1280"
}

comp_stop() {
    [ -n "${comp_pid:-}" ] && kill "$comp_pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$comp_pid" 2>/dev/null || break; sleep 0.1; done
    pkill -u "$kiosk_user" 2>/dev/null
    cp "$wev_log" "$out/" 2>/dev/null
    comp_pid=
}

# app_ready NODE: waits until the compositor holds NODE open and wev has bound a wl_touch
# after it ($caps_before: the seat's touch announcements before the device came).
app_ready() {
    wait_open "$comp_pid" "$1" || { echo "the compositor never opened $1" >&2; return 1; }
    for _ in $(seq 300); do
        [ "$(grep -c 'capabilities:.*touch' "$wev_log")" -gt "$caps_before" ] && return 0
        sleep 0.1
    done
    echo "wev was never told of a touch device" >&2
    return 1
}

# app_collect NAME MARK: the app's events since line MARK of wev's log, once the compositor
# has passed them on (wev logs the seat losing its touch device after its touches), into
# $out/comp-NAME.app.txt.
app_collect() {
    local name=$1 mark=$2
    for _ in $(seq 100); do
        tail -n +"$((mark + 1))" "$wev_log" | grep 'capabilities:' | grep -qv touch && break
        sleep 0.1
    done
    $app_events events "$wev_log" "$mark" > "$out/comp-$name.app.txt"
}

# comp_play NAME RECORDING OWNED: plays RECORDING into a new device once the app can get its
# touches (the twin's, with OWNED "yes"), and collects what the app got.
comp_play() {
    local name=$1 recording=$2 owned=$3
    caps_before=$(grep -c 'capabilities:.*touch' "$wev_log")
    local mark
    mark=$(wc -l < "$wev_log")
    own_start "comp-$name" "$recording" "$owned" || { fail "$name" "no device, or the service did not own it"; return 1; }
    app_ready "${twin_node:-$player_node}" || { fail "$name" "the app never had the device"; kill "$own_player"; return 1; }
    echo "$player_node" > "$out/own-comp-$name.ready"
    wait "$own_player"
    app_collect "$name" "$mark"
}

# expect_same NAME BASE WHAT: the app got the touch events of BASE (positions within 3 px; keys are
# another device's).
expect_same() {
    local name=$1 base=$2 what=$3 why
    if why=$($app_events same "$out/comp-$base.app.txt" "$out/comp-$name.app.txt"); then
        pass "$comp: $what ($(grep -vc '^key ' "$out/comp-$name.app.txt") touch events, within 3 px of the same recording on a plain device)"
    else
        fail "$comp: $what" "$why"
    fi
}

# expect_none_down NAME WHAT: every touch the app got ended.
expect_none_down() {
    local name=$1 what=$2 why
    local app=$out/comp-$name.app.txt
    if why=$($app_events left-down "$app") && grep -q '^down' "$app"; then
        pass "$comp: $what ($(grep -c '^down' "$app") touches down, $(grep -c '^up' "$app") up, $(grep -c '^cancel' "$app") cancels)"
    else
        fail "$comp: $what" "${why:-the app got no touch}; $(grep -v '^motion' "$app" | tr '\n' ' ' | head -c 300)"
    fi
}

# comp_stop_service: the service stops on SIGTERM (within 30 s), or the check fails.
comp_stop_service() {
    kill -TERM "$service" 2>/dev/null
    bounded_wait "$service" > /dev/null || { [ $? = 124 ] && fail "$comp: the service" "did not stop on SIGTERM within 30 s"; }
}

comp_config=$out/comp.yaml
comp_config_held=$out/comp-held.yaml
comp_actions=$out/comp-actions.txt
for held in no yes; do
    cat > "$([ $held = yes ] && echo "$comp_config_held" || echo "$comp_config")" <<YAML
service: {actions-as-root: true, socket: /tmp/gestured-comp.sock}
devices:
  - match: {kind: touchscreen}
    own: true
$([ $held = yes ] && echo "    hold-back: 60ms")
layout:
  id: root
  gestures:
$([ $held = yes ] && echo "    - {kind: swipe, touches: 4, directions: [down], action: {key: leftctrl+k}}" \
    || echo "    - {kind: swipe, touches: 4, directions: [down], action: {exec: [/bin/sh, -c, echo swipe4 >> $comp_actions]}}")
    - {kind: edge-pan, edges: [left], action: {exec: [/bin/sh, -c, "echo edge >> $comp_actions"]}}
    - {kind: tap, action: {emit: true}}
YAML
done
chmod 644 "$comp_config" "$comp_config_held"

comp_lane() {
    comp=$1
    # As a kiosk boots: the service owns the panel before the compositor starts.
    start_service "comp-$comp" --config "$comp_config"
    caps_before=0
    own_start "comp-$comp-boot" "$syn/owned-tap-drag.yaml" yes || { fail "$comp" "the service did not own the panel"; stop_service; return; }
    comp_start "$comp" || { fail "$comp" "did not start: $(tail -3 "$out/comp-$comp.log")"; kill "$own_player"; stop_service; return; }
    local mark
    mark=$(wc -l < "$wev_log")
    # wlroots (0.15, Debian 12's) with WLR_LIBINPUT_NO_DEVICES=1 adds the devices there at its
    # start only once libinput's descriptor wakes it — on a kiosk, at the first touch, which
    # the app then misses (a plain device's as much as a twin's). A udev event wakes it here.
    udevadm trigger --action=change --subsystem-match=input
    app_ready "$twin_node" || fail "$comp boot" "the app never had the twin"
    echo "$player_node" > "$out/own-comp-$comp-boot.ready"
    wait "$own_player"
    app_collect "$comp-boot" "$mark"

    rm -f "$comp_actions"
    comp_play "$comp-four" "fixtures/recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events" yes
    expect_none_down "$comp-four" "an owning four-finger swipe (a real Atmel panel's) leaves no touch down in the app"
    grep -q swipe4 "$comp_actions" 2>/dev/null || fail "$comp: the swipe's program" "did not run"
    grep "owned touches the apps had end" "$log" | tail -1 | sed 's/^.*\] //; s/^/    /'
    comp_play "$comp-edge" "$syn/owned-edge-drags.yaml" yes
    expect_none_down "$comp-edge" "two owning edge pans leave no touch down in the app"
    [ "$(grep -c edge "$comp_actions" 2>/dev/null)" = 2 ] || fail "$comp: the edge pans' program" "ran $(grep -c edge "$comp_actions" 2>/dev/null) times, not 2"

    # kill -9 during a hold: the twin goes with the service; the next tap reaches the app from
    # the device itself.
    caps_before=$(grep -c 'capabilities:.*touch' "$wev_log")
    mark=$(wc -l < "$wev_log")
    own_start "comp-$comp-kill" "$syn/owned-hold-then-tap.yaml" yes
    app_ready "$twin_node" && echo "$player_node" > "$out/own-comp-$comp-kill.ready"
    for _ in $(seq 100); do tail -n +"$((mark + 1))" "$wev_log" | grep -q 'wl_touch\] down' && break; sleep 0.05; done
    kill -9 "$service"; wait "$service" 2>/dev/null
    wait "$own_player"
    app_collect "$comp-kill" "$mark"
    local kill_app=$out/comp-$comp-kill.app.txt
    if [ "$(grep -c '^down' "$kill_app")" -ge 2 ] && [ "$(grep -v '^motion' "$kill_app" | tail -1 | cut -d' ' -f1)" = up ]; then
        pass "$comp: after kill -9 during a hold, the next tap reaches the app ($(grep -v '^motion' "$kill_app" | tr '\n' ',' | sed 's/,$//'))"
    else
        fail "$comp: kill -9" "$(grep -v '^motion' "$kill_app" | tr '\n' ' ')"
    fi
    $app_events left-down "$kill_app" > /dev/null || echo "    note: $comp left the held touch down in the app when the twin went with the killed service ($(grep -v '^motion' "$kill_app" | tr '\n' ' '))"

    # The same tap and drag on a plain device: what the owned ones must give.
    comp_play "$comp-plain" "$syn/owned-tap-drag.yaml" no
    expect_same "$comp-boot" "$comp-plain" "a passed tap and drag, first touches on a twin there before the compositor, land where the finger was"

    # The tap "at the screen's corner": a panel touched before the service owned it. Its second
    # tap, where the first was, brings no position (the kernel leaves unchanged values out);
    # the twin, made between the taps, must still put it there.
    caps_before=$(grep -c 'capabilities:.*touch' "$wev_log")
    mark=$(wc -l < "$wev_log")
    own_start "comp-$comp-again" "$syn/owned-tap-again.yaml" no
    app_ready "$player_node" && echo "$player_node" > "$out/own-comp-$comp-again.ready"
    for _ in $(seq 100); do tail -n +"$((mark + 1))" "$wev_log" | grep -q 'wl_touch\] up' && break; sleep 0.1; done
    echo "    $(date +%T) $comp: the first tap is in; the service starts"
    # (Not start_service: with a device there already, the service never says "touch devices".)
    log=$out/comp-$comp-again.service.log
    "$gestured" run --json --config "$comp_config" > "$out/comp-$comp-again.live.jsonl" 2> "$log" &
    service=$!
    local again_twin=
    wait_for "$log" "node=$player_node twin=" && again_twin=$(grep "node=$player_node twin=" "$log" | grep -o 'twin=/dev/input/event[0-9]*' | cut -d= -f2)
    [ -n "$again_twin" ] && wait_open "$comp_pid" "$again_twin" && echo "    $comp has the twin of a device touched before $(date +%T.%N | cut -c1-12)"
    wait "$own_player"
    comp_stop_service
    app_collect "$comp-again" "$mark"
    local downs
    downs=$(grep '^down' "$out/comp-$comp-again.app.txt" | cut -d' ' -f3,4 | tr '\n' ' ')
    if [ "$(grep -c '^up' "$out/comp-$comp-again.app.txt")" = 2 ] && grep -q '"x": 50.0, "y": 50.0' "$out/comp-$comp-again.live.jsonl" && awk -v d="$downs" 'BEGIN {
            n = split(d, v, " "); if (n != 4) exit 1
            dx = v[1] - v[3]; dy = v[2] - v[4]; exit !(dx * dx <= 9 && dy * dy <= 9) }'; then
        pass "$comp: a tap through a twin made after the panel was touched, where the last touch was (no position of its own), lands there: $downs; gestured's own: $(grep -o '"x": [0-9.]*, "y": [0-9.]*' "$out/comp-$comp-again.live.jsonl" | head -1)"
    else
        fail "$comp: a tap where the last touch was, through a twin made since" "$(grep -v '^motion' "$out/comp-$comp-again.app.txt" | tr '\n' ' ')"
    fi

    # Hold-back, on twins plugged into the running compositor.
    start_service "comp-$comp-held" --config "$comp_config_held"
    wait_for "$log" "virtual keyboard ready"
    local keyboard
    keyboard=$(grep "virtual keyboard ready" "$log" | grep -o 'node=/dev/input/event[0-9]*' | cut -d= -f2)
    wait_open "$comp_pid" "$keyboard" || fail "$comp: key action" "the compositor never opened the virtual keyboard $keyboard"
    comp_play "$comp-unplug" "fixtures/synthetic/drag-without-lift.yaml" yes
    expect_none_down "$comp-unplug" "a drag on an owned device unplugged mid-touch is not left down in the app"
    comp_play "$comp-held" "$syn/owned-tap-drag.yaml" yes
    expect_same "$comp-held" "$comp-plain" "with hold-back 60ms, a passed tap and drag, first touches on a fresh twin, land where the finger was"
    comp_play "$comp-flick" "$syn/owned-four-finger-flick.yaml" yes
    local flick=$out/comp-$comp-flick.app.txt
    # (The lane's typing keyboard may still be typing: the chord is looked for among its keys.)
    # wev names keys by their XKB keycodes: the kernel's plus 8 (leftctrl 29 is 37, k 37 is 45).
    if ! grep -q '^down' "$flick" && grep '^key' "$flick" | tr '\n' ' ' | grep -q "key 37 pressed key 45 pressed key 45 released key 37 released"; then
        pass "$comp: hold-back hides a quick four-finger swipe from the app, and its key action (leftctrl+k) reaches the app as wl_keyboard keys"
    else
        fail "$comp: hold-back and key" "$(grep -v '^motion' "$flick" | tr '\n' ' ')"
    fi
    comp_stop_service
    comp_stop
}

echo "== owned touches as an app sees them, under cage and sway (issue 64)"
missing=$(for tool in cage sway wev seatd Xwayland; do command -v "$tool" > /dev/null || echo "$tool"; done | tr '\n' ' ')
if [ -n "$missing" ]; then
    fail "compositors" "missing: $missing (Debian: cage sway wev seatd xwayland)"
elif ! comp_setup; then
    fail "compositors" "seatd did not start: $(cat "$out/comp-seatd.log")"
else
    comp_lane cage
    comp_lane sway
fi
kill "${seatd_pid:-}" 2>/dev/null
