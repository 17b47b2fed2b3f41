#!/usr/bin/env python3
"""retime.py RECORDING AS_PLAYED EXPECTED > OUT — EXPECTED (a libinput record YAML made from
RECORDING, such as the lane's .collapsed.yaml) with each frame's time moved to when the kernel
stamped RECORDING's frame of that time, as AS_PLAYED (`replay --uinput --as-played`) has it.

A player that falls behind writes the frames it owes together, and the kernel stamps them
together: what a reader recognizes then is what the recording gives at those times, not at the
recorded ones. Each AS_PLAYED frame is matched to the RECORDING frame it came from, in order (the
kernel leaves out values that did not change, and a frame whose values all did not: an
AS_PLAYED frame's events are those of its RECORDING frame, some left out). An EXPECTED frame
whose time no RECORDING frame has keeps its distance from the latest one before it.

Fails (exit 2, with the reason) when AS_PLAYED's frames cannot be matched to RECORDING's."""
import bisect
import re
import sys


def refuse(message):
    print(f"retime.py: {message}", file=sys.stderr)
    sys.exit(2)

EVENT = re.compile(r"^(\s*- \[\s*)(\d+)(,\s*)(\d+)(,\s*)(\d+),\s*(\d+),\s*(-?\d+)(\].*)$")


def frames(path):
    """[(time in µs, [(type, code, value)])] of a libinput record YAML, a frame per SYN_REPORT."""
    result, current = [], []
    with open(path) as f:
        for line in f:
            m = EVENT.match(line)
            if not m:
                continue
            t = int(m.group(2)) * 1_000_000 + int(m.group(4))
            ev = (int(m.group(6)), int(m.group(7)), int(m.group(8)))
            current.append(ev)
            if ev[0] == 0 and ev[1] == 0:
                result.append((t, current))
                current = []
    return result


def passed(stamped, written):
    """Whether the kernel could have passed on `stamped` for `written` (some left out)."""
    it = iter(written)
    return all(any(e == w for w in it) for e in stamped)


def time_map(recording, played):
    """{recorded time: stamped time} for each recorded frame the kernel passed on."""
    mapping, r = {}, 0
    for t, events in played:
        while r < len(recording) and not passed(events, recording[r][1]):
            r += 1
        if r == len(recording):
            refuse(f"a frame stamped at {t} µs matches no frame of the recording after the one of "
                     f"{recording[-1][0] if recording else 0} µs: is it the recording as played of this recording?")
        mapping[recording[r][0]] = t
        r += 1
    return mapping


def main():
    if len(sys.argv) != 4:
        refuse("usage: " + __doc__.split("\n\n")[0].split(" — ")[0])
    recording, played = frames(sys.argv[1]), frames(sys.argv[2])
    if not played:
        refuse(f"{sys.argv[2]} holds no frame")
    mapping = time_map(recording, played)
    known = sorted(mapping)

    def moved(t):
        i = bisect.bisect_right(known, t)
        base = known[i - 1] if i else known[0]
        return mapping[base] + (t - base)

    with open(sys.argv[3]) as f:
        for line in f:
            m = EVENT.match(line)
            if m:
                t = moved(int(m.group(2)) * 1_000_000 + int(m.group(4)))
                line = (f"{m.group(1)}{t // 1_000_000}{m.group(3)}{t % 1_000_000:6d}{m.group(5)}"
                        f"{m.group(6)}, {m.group(7)}, {m.group(8)}{m.group(9)}\n")
            sys.stdout.write(line)


main()
