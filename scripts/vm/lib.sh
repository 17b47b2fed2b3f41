# scripts/vm/lib.sh — shell functions the scripts run in the VM share (sourced, not run).

# wait_open PID NODE: waits (up to 60 s) until PID holds NODE open; fails if PID ends first.
# (One `ls` a look: a readlink per descriptor forks as many times, and a compositor holds
# dozens — seconds a look under emulation.)
wait_open() {
    local pid=$1 node=$2 start=$SECONDS
    while [ $((SECONDS - start)) -lt 60 ]; do
        ls -l /proc/"$pid"/fd/ 2>/dev/null | grep -q -- "-> $node\$" && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}

# cpu_ns PID: CPU nanoseconds of every thread of PID (schedstat's first field).
cpu_ns() {
    local total=0 ns rest t
    for t in /proc/"$1"/task/*/schedstat; do
        read -r ns rest < "$t" 2>/dev/null || continue
        total=$((total + ns))
    done
    echo "$total"
}

# device_node LOG: the node evemu-device printed into LOG (waits up to 30 s); empty if none.
device_node() {
    local node=""
    for _ in $(seq 300); do
        node=$(grep -o '/dev/input/event[0-9]*' "$1" | head -1)
        [ -n "$node" ] && break
        sleep 0.1
    done
    echo "$node"
}

# write_swipes_config FILE: swipes of 1 to 5 fingers in 8 directions and nothing else — lisgd's
# job, as gestured does it. lisgd_swipes sets lisgd_gestures to the same swipes as lisgd's -g
# arguments, each bound to `:`.
write_swipes_config() {
    {
        echo "layout:"
        echo "  id: root"
        echo "  gestures:"
        for fingers in 1 2 3 4 5; do
            echo "    - {kind: swipe, touches: $fingers, directions: [left, right, up, down, up-left, up-right, down-left, down-right]}"
        done
    } > "$1"
}
lisgd_swipes() {
    lisgd_gestures=()
    for fingers in 1 2 3 4 5; do
        for direction in LR RL DU UD DLUR DRUL URDL ULDR; do lisgd_gestures+=(-g "$fingers,$direction,*,*,R,:"); done
    done
}
