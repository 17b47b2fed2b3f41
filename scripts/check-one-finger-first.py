#!/usr/bin/env python3
"""Which labelled multi-finger pans start with one finger moving alone, and are they labelled so.

A recording labelled as a pan of two or more fingers in which, in the data, one finger moves
10 mm or more alone before another lands holds a one-finger pan first: the pad reported one
finger moving. Such a record must allow it (`"also": ["pan/1", ...]` in labels.json).

Usage: scripts/check-one-finger-first.py [FOLDER] [--gestured PATH]   (make release builds PATH)
Prints each such record with how far the finger moved alone; exits 1 if one lacks "pan/1" in
"also", 2 on bad input (FILE: what is wrong, on stderr).
"""
import argparse
import json
import math
import subprocess
import sys

ALONE_MM = 10.0


def bad(what):
    print(what, file=sys.stderr)
    sys.exit(2)


def moved_alone(gestured, path):
    """The farthest one finger moved from where it landed while it was alone, before a second landed (mm)."""
    try:
        out = subprocess.run([gestured, "replay", path, "--frames", "--json"], capture_output=True, text=True)
    except OSError as error:
        bad(f"{gestured}: cannot run it ({error.strerror}): build it with make release, or give --gestured")
    if out.returncode != 0:
        bad(f"{path}: gestured replay failed: {out.stderr.strip()}")
    start = {}
    farthest = 0.0
    for line in out.stdout.splitlines():
        frame = json.loads(line)
        active = [c for c in frame["contacts"] if c["phase"] not in ("ended", "cancelled")]
        if len(active) >= 2:
            break
        for c in frame["contacts"]:
            if c["phase"] == "began":
                start[c["id"]] = (c["x"], c["y"])
        if len(active) == 1:
            c = active[0]
            x, y = start.setdefault(c["id"], (c["x"], c["y"]))
            farthest = max(farthest, math.hypot(c["x"] - x, c["y"] - y))
    return farthest


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("folder", nargs="?", default="fixtures/chromiumos")
    parser.add_argument("--gestured", default=".build-release/release/gestured")
    args = parser.parse_args()
    try:
        with open(f"{args.folder}/labels.json") as f:
            labels = json.load(f)
    except (OSError, ValueError) as error:
        bad(f"{args.folder}/labels.json: {error}")
    if not isinstance(labels, list):
        bad(f"{args.folder}/labels.json: not a list of records")
    missing = 0
    for number, record in enumerate(labels, 1):
        if not isinstance(record, dict) or not isinstance(record.get("file"), str):
            bad(f"{args.folder}/labels.json: record {number}: \"file\" is missing")
        if record.get("label") != "pan" or (record.get("touches") or 0) < 2:
            continue
        mm = moved_alone(args.gestured, f"{args.folder}/{record['file']}")
        if mm < ALONE_MM:
            continue
        allowed = "pan/1" in (record.get("also") or [])
        missing += not allowed
        print(f"{mm:5.1f} mm  {'ok     ' if allowed else 'MISSING'}  {record['file']}")
    if missing:
        print(f"{missing} record(s) lack \"also\": [\"pan/1\"]", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
