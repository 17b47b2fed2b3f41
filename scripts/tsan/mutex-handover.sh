#!/usr/bin/env bash
# Builds scripts/tsan/mutex-handover.swift under ThreadSanitizer and runs it RUNS times (10) with
# each lock: how many runs the sanitizer reported a race in. Synchronization.Mutex: most runs;
# pthread_mutex_t (the package's Lock): none. See Sources/2-Events/TouchEvents/Lock.swift.
set -euo pipefail
runs=${1:-10}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
swiftc -sanitize=thread -Onone -use-ld=lld "$here/mutex-handover.swift" -o "$work/mutex-handover"
for lock in mutex pthread; do
    reported=0
    for _ in $(seq "$runs"); do
        if ! TSAN_OPTIONS=exitcode=66 "$work/mutex-handover" "$lock" >"$work/out" 2>&1; then
            grep -q "ThreadSanitizer: Swift access race\|WARNING: ThreadSanitizer" "$work/out" || { cat "$work/out"; exit 1; }
            reported=$((reported + 1))
        fi
    done
    echo "$lock: a race reported in $reported of $runs runs"
done
