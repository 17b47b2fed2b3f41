#!/usr/bin/env python3
"""scripts/vm/instructions-report.py OUTDIR --frames N [--recording PATH] [--stretch K]

Reads the callgrind files scripts/vm/instructions.sh left in OUTDIR (one per program: the
counters from just before the playback to 3 s after it) and writes OUTDIR/instructions.json and
OUTDIR/instructions.md: each program's user-space instructions over the playback, per frame of
the recording, against lisgd's, with its wakeups (epoll_wait calls) and the events it read, so a
row whose program missed events stands out.
"""
import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

PROGRAMS = ["gestured", "gestured swipes", "lisgd", "floor"]


def read_callgrind(path):
    """Total instructions and the number of calls to each function, from a callgrind file."""
    names = {}
    calls = Counter()
    callee = None
    total = None
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
            if m:
                kind, ident, name = m.groups()
                if name:
                    names[ident] = name
                if kind == "cfn":
                    callee = names.get(ident)
                continue
            m = re.match(r"^calls=(\d+)", line)
            if m and callee:
                calls[callee] += int(m.group(1))
                continue
            m = re.match(r"^(summary|totals): (\d+)", line)
            if m and total is None:
                total = int(m.group(2))
    if total is None:
        raise ValueError(f"{path}: no summary line")
    return total, calls


def calls_to(calls, pattern):
    return sum(n for name, n in calls.items() if re.search(pattern, name))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--frames", type=int, required=True)
    parser.add_argument("--recording", default="")
    parser.add_argument("--stretch", type=int, default=1)
    args = parser.parse_args()
    out = Path(args.outdir)
    rows = []
    for program in PROGRAMS:
        path = out / (program.replace(" ", "-") + ".callgrind")
        if not path.exists():
            print(f"instructions-report: {path}: missing", file=sys.stderr)
            return 1
        total, calls = read_callgrind(path)
        wakeups = calls_to(calls, r"^epoll_wait\b")
        if program.startswith("gestured"):
            # Each event the kernel passed on goes through the device's session once.
            events = calls_to(calls, r"DeviceSessionC7process\w*KF$")
        elif program == "lisgd":
            # libinput reads with libevdev_next_event until it says -EAGAIN: once per dispatch.
            events = calls_to(calls, r"^libevdev_next_event\b") - calls_to(calls, r"^libinput_dispatch\b")
        else:
            events = None
        rows.append({"program": program, "instructions": total, "per_frame": round(total / max(args.frames, 1)),
                     "wakeups": wakeups, "events_read": events})
    lisgd = next(r for r in rows if r["program"] == "lisgd")["instructions"]
    if lisgd == 0 or args.frames == 0:
        print("instructions-report: lisgd counted nothing, or the recording has no frame", file=sys.stderr)
        return 1
    for r in rows:
        r["x_lisgd"] = round(r["instructions"] / lisgd, 2)
    read = {r["events_read"] for r in rows if r["events_read"] is not None}
    result = {"recording": args.recording, "frames": args.frames, "stretch": args.stretch,
              "same_events_read": len(read) == 1, "programs": rows}
    (out / "instructions.json").write_text(json.dumps(result, indent=2) + "\n")
    lines = [
        f"User-space instructions over the playback of {args.recording or 'the recording'} "
        f"({args.frames} frames, played {args.stretch}× slower than recorded), callgrind in the VM:",
        "",
        "| program | instructions | per frame | × lisgd | wakeups | events read |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        events = "–" if r["events_read"] is None else f"{r['events_read']:,}"
        lines.append(f"| {r['program']} | {r['instructions']:,} | {r['per_frame']:,} | {r['x_lisgd']:.2f} | {r['wakeups']:,} | {events} |")
    if len(read) != 1:
        lines += ["", "**The programs read different numbers of events: a count is not of the whole playback.**"]
    (out / "instructions.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0 if len(read) == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
