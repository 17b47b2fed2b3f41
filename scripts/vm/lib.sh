# scripts/vm/lib.sh — shell functions the scripts run in the VM share (sourced, not run).

# wait_open PID NODE: waits (up to 60 s) until PID holds NODE open; fails if PID ends first.
wait_open() {
    local pid=$1 node=$2 fd
    for _ in $(seq 600); do
        for fd in /proc/"$pid"/fd/*; do
            [ "$(readlink "$fd" 2>/dev/null)" = "$node" ] && return 0
        done
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
