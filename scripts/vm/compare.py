#!/usr/bin/env python3
"""compare.py EXPECTED LIVE — compare two gesture logs (JSON lines): the live service's and
`gestured replay --json`'s. Kinds, states, touches, regions, taps, directions and edges must be
equal, in order; positions and values within a tolerance. Times and velocities are not
compared: they depend on when the kernel stamped each event, which a player under emulation
cannot reproduce to the millisecond. Prints the first difference; exits 1 on one."""
import json
import sys

EXACT = ["kind", "state", "touches", "region", "taps", "direction", "edge"]
# Tolerances: positions 0.5 units + 2 %, scale 0.05, rotation 2 degrees.
NEAR = {"x": (0.5, 0.02), "y": (0.5, 0.02), "dx": (0.5, 0.02), "dy": (0.5, 0.02), "scale": (0.05, 0.0), "rotation": (2.0, 0.0)}


def load(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    expected, live = load(sys.argv[1]), load(sys.argv[2])
    for i, (e, g) in enumerate(zip(expected, live)):
        for key in EXACT:
            if e.get(key) != g.get(key):
                print(f"event {i}: {key} is {g.get(key)!r} live, {e.get(key)!r} replayed\n  live:     {g}\n  replayed: {e}")
                return 1
        for key, (absolute, relative) in NEAR.items():
            if (key in e) != (key in g):
                print(f"event {i}: {key} present in one log only\n  live:     {g}\n  replayed: {e}")
                return 1
            if key in e and abs(e[key] - g[key]) > absolute + relative * abs(e[key]):
                print(f"event {i}: {key} is {g[key]} live, {e[key]} replayed\n  live:     {g}\n  replayed: {e}")
                return 1
    if len(expected) != len(live):
        print(f"{len(live)} events live, {len(expected)} replayed")
        return 1
    print(f"{len(live)} events agree")
    return 0


sys.exit(main())
