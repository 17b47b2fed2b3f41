#!/usr/bin/env python3
"""What a Wayland app got, from the log of `wev` (Debian's) under a compositor.

  app_events.py events LOG FROM   the touch and key events of LOG after its line FROM, one a
                                  line: "down ID X Y", "motion ID X Y", "up ID", "cancel",
                                  "key CODE pressed|released" (positions in surface pixels)
  app_events.py same BASE GOT     exit 0 when GOT has the touch events of BASE, positions
                                  within 3 px; else says the first difference (key events are
                                  another device's: the lane's typing keyboard may still type)
  app_events.py left-down FILE    exit 0 when every touch of FILE ended (up, or a cancel,
                                  which ends every touch) before another took its id; else
                                  names those left down

wev makes a wl_touch and a wl_keyboard each time the seat says it has one, and each gets the
events: one event reaches the log once per object, with the same time, so repeats are dropped.
"""
import re
import sys

TOLERANCE_PX = 3.0

TOUCH = re.compile(r"wl_touch\] (down|motion|up|cancel)(?::(.*))?$")
KEY = re.compile(r"wl_keyboard\] key: .*time: (\d+); key: (\d+); state: \d+ \((pressed|released)\)")


def fields(text):
    out = {}
    for part in (text or "").split(";"):
        if ":" in part:
            k, v = part.split(":", 1)
            out[k.strip()] = v.strip()
    return out


def events(path, start):
    seen = set()
    out = []
    with open(path, errors="replace") as f:
        for n, line in enumerate(f, 1):
            if n <= start:
                continue
            m = TOUCH.search(line.rstrip())
            if m:
                kind, f_ = m.group(1), fields(m.group(2))
                key = (kind, f_.get("time"), f_.get("id"), f_.get("x, y"))
                if kind != "cancel" and key in seen:
                    continue
                seen.add(key)
                if kind in ("down", "motion"):
                    x, y = (float(v) for v in f_["x, y"].split(","))
                    out.append(f"{kind} {f_['id']} {x:.2f} {y:.2f}")
                elif kind == "up":
                    out.append(f"up {f_['id']}")
                elif not out or out[-1] != "cancel":
                    out.append("cancel")
                continue
            m = KEY.search(line)
            if m:
                key = ("key",) + m.groups()
                if key in seen:
                    continue
                seen.add(key)
                out.append(f"key {m.group(2)} {m.group(3)}")
    return out


def same(base, got):
    base = [line for line in base if not line.startswith("key ")]
    got = [line for line in got if not line.startswith("key ")]
    if len(base) != len(got):
        return f"{len(got)} events, not {len(base)} (first: {got[:1]} and {base[:1]})"
    for i, (b, g) in enumerate(zip(base, got)):
        bw, gw = b.split(), g.split()
        if bw[:2] != gw[:2] or len(bw) != len(gw):
            return f"event {i + 1}: \"{g}\", not \"{b}\""
        if len(bw) == 4:
            dx, dy = abs(float(bw[2]) - float(gw[2])), abs(float(bw[3]) - float(gw[3]))
            if max(dx, dy) > TOLERANCE_PX:
                return f"event {i + 1}: \"{g}\", {max(dx, dy):.1f} px from \"{b}\""
    return None


def left_down(lines):
    down = set()
    left = []
    for line in lines:
        w = line.split()
        if w[0] == "down":
            if w[1] in down:
                left.append(w[1])  # a new touch with its id: the one before never ended
            down.add(w[1])
        elif w[0] == "up":
            down.discard(w[1])
        elif w[0] == "cancel":
            down.clear()
    return left + sorted(down)


def main(argv):
    if len(argv) == 4 and argv[1] == "events":
        print("\n".join(events(argv[2], int(argv[3]))))
        return 0
    if len(argv) == 4 and argv[1] == "same":
        base = open(argv[2]).read().split("\n")
        got = open(argv[3]).read().split("\n")
        problem = same([l for l in base if l], [l for l in got if l])
        if problem:
            print(problem)
            return 1
        return 0
    if len(argv) == 3 and argv[1] == "left-down":
        ids = left_down([l for l in open(argv[2]).read().split("\n") if l])
        if ids:
            print("touch " + ", ".join(ids) + " left down")
            return 1
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
