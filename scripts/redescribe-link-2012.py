#!/usr/bin/env python3
"""Give the link recordings of hardware_Trackpad session user_20120508_034842 the
description of the pad that recorded them.

The conversion gave every link recording the 2013 link description (Atmel: 2040 x 1360 at
20 units/mm, 10 slots, ABS_MT_TOUCH_MAJOR). This session's 99 recordings were made on a pad
described by firmware_TouchMTB's tests/device/lumpy.touchpad (Cypress cyapa: 1280 x 680 at
12 x 10 units/mm, 15 slots, no touch major):

- every position lies within 0-1279 x 0-678, while the other link session of the same day
  (user_20120508_060722) reaches 2031 x 1352 on the same prompts;
- no file sends ABS_MT_TOUCH_MAJOR (the other session sends it 16,785 times);
- slots up to 14 are used (the Atmel description has 10);
- two fingers held side by side or one above the other for the same prompts are as far
  apart in both sessions with these resolutions (11-27 mm; with 20 units/mm this session's
  were half as far).

The script checks per file that the data fit the cyapa description (every position, slot and
pressure within its ranges; no ABS_MT_TOUCH_MAJOR) before it rewrites the description (A: lines,
the absolute-axis B: line, the header comment); events are not touched. It is idempotent:
a file already redescribed is left alone. Run from the repository root:

    python3 scripts/redescribe-link-2012.py fixtures/chromiumos/link
"""

import os
import sys

SESSION = "/user_20120508_034842/"
SOURCE = ("client/site_tests/firmware_TouchMTB/tests/device/lumpy.touchpad @ c6c19305d525 "
          "(Cypress cyapa)")
# lumpy.touchpad's A: lines, in code order.
AXES = [
    "A: 00 0 1280 0 0 12",
    "A: 01 0 680 0 0 10",
    "A: 18 0 255 0 0 0",
    "A: 2f 0 14 0 0 0",
    "A: 35 0 1280 0 0 12",
    "A: 36 0 680 0 0 10",
    "A: 39 0 65535 0 0 0",
    "A: 3a 0 255 0 0 0",
]
OLD_ABS_BITS = "B: 03 03 00 00 01 00 80 61 06"
NEW_ABS_BITS = "B: 03 03 00 00 01 00 80 60 06"  # the same axes without ABS_MT_TOUCH_MAJOR (0x30)
LIMITS = {0x00: 1280, 0x01: 680, 0x35: 1280, 0x36: 680, 0x2F: 14, 0x3A: 255}


def check_events(path, lines):
    for number, line in enumerate(lines, 1):
        if not line.startswith("E:"):
            continue
        parts = line.split()
        kind, code, value = int(parts[2], 16), int(parts[3], 16), int(parts[4])
        if kind != 3:
            continue
        if code == 0x30:
            sys.exit(f"{path}:{number}: sends ABS_MT_TOUCH_MAJOR, which the cyapa description lacks")
        if code in LIMITS and not 0 <= value <= LIMITS[code]:
            sys.exit(f"{path}:{number}: value {value} of code 0x{code:02x} is outside 0-{LIMITS[code]}")


def redescribe(path):
    with open(path) as f:
        lines = f.read().split("\n")
    if not any(line.startswith("# Source:") and SESSION in line for line in lines):
        return False
    if any(SOURCE in line for line in lines):
        return False
    check_events(path, lines)
    out = []
    axes_written = False
    for line in lines:
        if line.startswith("#   link: N/I/P/B/A from"):
            out.append(line.replace("N/I/P/B/A from", "N/I/P/B from", 1))
            out.append(f"#   A: lines (and the axes of B:) from {SOURCE}: this session's pad, not the 2013 one; see SOURCES.md")
        elif line.startswith("#   ABS_MT_SLOT max widened"):
            continue
        elif line == OLD_ABS_BITS:
            out.append(NEW_ABS_BITS)
        elif line.startswith("A: "):
            if not axes_written:
                out.extend(AXES)
                axes_written = True
        else:
            out.append(line)
    if not axes_written or NEW_ABS_BITS not in out:
        sys.exit(f"{path}: the description is not the link description this script replaces")
    with open(path, "w") as f:
        f.write("\n".join(out))
    return True


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: redescribe-link-2012.py FOLDER")
    folder = sys.argv[1]
    changed = sum(redescribe(os.path.join(folder, name))
                  for name in sorted(os.listdir(folder)) if name.endswith(".evemu"))
    print(f"{changed} recordings redescribed")


if __name__ == "__main__":
    main()
