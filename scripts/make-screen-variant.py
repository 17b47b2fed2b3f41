#!/usr/bin/env python3
"""scripts/make-screen-variant.py — a real touchscreen recording moved to a corner of the screen.

The Atmel maXTouch panel's recording of five fast one-finger taps (fixtures/recordings/
evemu-devices/touchscreens, near the middle of the panel) is moved, every position by one
offset in device units, so that its first tap lands where a 1280 x 800 app layout has a button
at (1200, 40): x 1200/1280 and y 40/800 of the panel's axes. Timing, order and every other
value stay as recorded. The device description (N/I/P/B/A lines of the .desc) is written into
the file, so it replays on its own:

    fixtures/variants/Atmel maXTouch Touchscreen.1-finger-fast-taps.top-right.evemu

Run from the repository: python3 scripts/make-screen-variant.py (it rewrites the file).
"""
import os

SOURCE_DIR = "fixtures/recordings/evemu-devices/touchscreens"
NAME = "Atmel maXTouch Touchscreen"
EVENTS = f"{SOURCE_DIR}/{NAME}.1-finger-fast-taps.events"
DESC = f"{SOURCE_DIR}/{NAME}.desc"
OUT = f"fixtures/variants/{NAME}.1-finger-fast-taps.top-right.evemu"
# Where the first tap goes, as a fraction of each axis: (1200, 40) on 1280 x 800.
TARGET = (1200 / 1280, 40 / 800)
X_CODES = {0x00, 0x35}  # ABS_X, ABS_MT_POSITION_X
Y_CODES = {0x01, 0x36}  # ABS_Y, ABS_MT_POSITION_Y


def main():
    desc = [l for l in open(DESC).read().splitlines() if l[:2] in ("N:", "I:", "P:", "B:", "A:")]
    axes = {int(l.split()[1], 16): (int(l.split()[2]), int(l.split()[3])) for l in desc if l.startswith("A:")}
    events = [l for l in open(EVENTS).read().splitlines() if l.startswith("E:")]

    def fields(line):
        head = line.split("#")[0].split()
        return head[1], int(head[2], 16), int(head[3], 16), int(head[4])

    first = {}
    for line in events:
        _, kind, code, value = fields(line)
        if kind == 3 and code in (0x35, 0x36) and code not in first:
            first[code] = value
    (x0, x1), (y0, y1) = axes[0x35], axes[0x36]
    dx = round(x0 + TARGET[0] * (x1 - x0)) - first[0x35]
    dy = round(y0 + TARGET[1] * (y1 - y0)) - first[0x36]
    out = [f"# Variant 'top-right' of {EVENTS} by scripts/make-screen-variant.py: every position moved by",
           f"# ({dx:+d}, {dy:+d}) device units, so that the first tap lands at x {TARGET[0]:.4f}, y {TARGET[1]:.4f} of the axes",
           "# ((1200, 40) on a 1280 x 800 screen); times and every other value as recorded. License: see",
           "# fixtures/recordings/evemu-devices/LICENSE (the source's).",
           "# EVEMU 1.3"] + desc
    for line in events:
        time, kind, code, value = fields(line)
        if kind == 3 and code in X_CODES:
            value = min(max(value + dx, x0), x1)
        elif kind == 3 and code in Y_CODES:
            value = min(max(value + dy, y0), y1)
        out.append(f"E: {time} {kind:04x} {code:04x} {value:04d}")
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write("\n".join(out) + "\n")
    print(f"wrote {OUT}: {len(events)} events, moved by ({dx:+d}, {dy:+d})")


if __name__ == "__main__":
    main()
