#!/usr/bin/env bash
# scripts/vm/soak.sh — hostile socket clients while touches stream in, run inside the VM
# (scripts/vm/run.sh) as root from the repository: `make soak`. A recording (a 10-finger
# touchscreen, 29 s: fixtures/recordings/evemu/3m.events) is played into a uinput device twice
# while `gestured run` reads it with its socket open and measures every frame's latency
# (--latency-report): once alone, once with gestured-abuse attacking the socket the whole time
# (every case of `make abuse`, round after round). Resident memory is sampled every second.
# Passes when, with the attack, no frame is lost (as many frames handled as without) and the
# frame latency p99 is within 1.5 times the run without. Results: $VM_OUT/soak.json.
#
# Under software emulation the attacker, the player and the service share the VM's CPUs:
# the figures compare the two runs, they are not what hardware does.
set -u
cd "$(dirname "$0")/../.."
gestured=${GESTURED:-.build-release/release/gestured}
abuse=${ABUSE:-.build-release/release/gestured-abuse}
out=${VM_OUT:-/tmp/gestured-soak}
events=${SOAK_EVENTS:-fixtures/recordings/evemu/3m.events}
work=$out/work  # kept with the results: the service's and the attacker's logs
mkdir -p "$out" "$work"
. scripts/vm/lib.sh

say() { echo "soak: $*"; }
for tool in evemu-device evemu-play "$gestured" "$abuse"; do
    command -v "$tool" >/dev/null || { say "error: $tool is missing"; exit 1; }
done

# run TAG ATTACK(0|1): one playback; writes $work/TAG.latency.json, TAG.rss, TAG.abuse.json.
run() {
    local tag=$1 attack=$2
    evemu-device "$events" > "$work/$tag.device" 2>&1 &
    local device=$! node=""
    for _ in $(seq 300); do
        node=$(grep -o '/dev/input/event[0-9]*' "$work/$tag.device" | head -1)
        [ -n "$node" ] && break
        sleep 0.1
    done
    [ -n "$node" ] || { say "error: evemu-device made no device"; kill $device; return 1; }
    udevadm settle --timeout=30
    local socket=/tmp/gestured-soak-$tag.sock
    rm -f "$socket"
    "$gestured" run --socket "$socket" --latency-report "$work/$tag.latency.json" > /dev/null 2> "$work/$tag.log" &
    local pid=$!
    wait_open "$pid" "$node" || { say "error: gestured never opened $node"; cat "$work/$tag.log"; kill $pid $device; return 1; }
    sleep 1
    : > "$work/$tag.rss"
    ( while kill -0 "$pid" 2>/dev/null; do awk '/^VmRSS:/ {print $2}' /proc/"$pid"/status >> "$work/$tag.rss"; sleep 1; done ) &
    local sampler=$! attacker=""
    if [ "$attack" = 1 ]; then
        timeout 600 "$abuse" --socket "$socket" --pid "$pid" --log "$work/$tag.log" --seconds "${SOAK_CASE_SECONDS:-1}" \
            --rounds "${SOAK_ROUNDS:-3}" --report "$work/$tag.abuse.json" > /dev/null 2> "$work/$tag.abuse.log" &
        attacker=$!
        sleep 0.5
    fi
    evemu-play "$node" < "$events"
    [ -n "$attacker" ] && wait "$attacker"
    sleep 1
    kill -TERM "$pid"; wait "$pid" 2>/dev/null
    kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
    kill -TERM "$device"; wait "$device" 2>/dev/null
    [ -s "$work/$tag.latency.json" ] || { say "error: no latency report for $tag"; cat "$work/$tag.log"; return 1; }
    say "$tag: $(cat "$work/$tag.latency.json")"
}

run alone 0 || exit 1
run attacked 1 || exit 1
python3 - "$work" "$out/soak.json" <<'EOF'
import json, sys
work, result = sys.argv[1], sys.argv[2]
alone = json.load(open(f"{work}/alone.latency.json"))["frame"]
attacked = json.load(open(f"{work}/attacked.latency.json"))["frame"]
rss = [int(x) for x in open(f"{work}/attacked.rss").read().split()]
try:
    abuse = json.load(open(f"{work}/attacked.abuse.json"))
except Exception:
    abuse = None
lost = alone["count"] - attacked["count"]
ratio = attacked["p99_us"] / alone["p99_us"] if alone["p99_us"] else None
report = {"frames_alone": alone["count"], "frames_attacked": attacked["count"], "frames_lost": lost,
          "frame_p50_us_alone": alone["p50_us"], "frame_p99_us_alone": alone["p99_us"],
          "frame_p50_us_attacked": attacked["p50_us"], "frame_p99_us_attacked": attacked["p99_us"],
          "p99_ratio": round(ratio, 2) if ratio else None, "rss_kib_every_second": rss, "abuse": abuse}
failures = []
if lost != 0: failures.append(f"{lost} frames lost under attack")
if ratio is None or ratio > 1.5: failures.append(f"frame p99 {attacked['p99_us']} us under attack, {alone['p99_us']} us alone: more than 1.5 times")
report["failures"] = failures
json.dump(report, open(result, "w"), indent=1)
print("soak: " + json.dumps({k: v for k, v in report.items() if k not in ("rss_kib_every_second", "abuse")}))
print("soak: resident memory (KiB) every second under attack: " + " ".join(map(str, rss)))
sys.exit(1 if failures else 0)
EOF
