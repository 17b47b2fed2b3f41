#!/usr/bin/env python3
"""Give the ChromiumOS recordings' devices the names their pads have in libinput's quirks.

The conversion gave link and alex placeholder names ("link-touch-device", "alex touchpad"); the
quirks files match devices by name (MatchName), so a replay of a copy with the placeholder gets
no quirk. Each file's pad is told by its x axis (A: 35, ABS_MT_POSITION_X):
  0-1280, 12 units/mm (or 0, nores variants)  -> Cypress APA Trackpad (cyapa)  (link, 2012 session user_20120508_034842)
  0-2039/2040, 20 units/mm (or 0)             -> Atmel maXTouch Touchpad        (link, the other link recordings)
  alex's files                                -> SynPS/2 Synaptics TouchPad     (bus 0x11, 0002:0007, as before)
Only the N: line changes. Usage: scripts/name-chromiumos-devices.py fixtures/chromiumos
"""
import os
import re
import sys

NAMES = {"1280": "Cypress APA Trackpad (cyapa)", "2039": "Atmel maXTouch Touchpad", "2040": "Atmel maXTouch Touchpad"}


def name_for(path, text):
    if os.sep + "alex" + os.sep in path or "-alex-" in os.path.basename(path):
        return "SynPS/2 Synaptics TouchPad"
    m = re.search(r"^A: 35 -?\d+ (\d+) ", text, re.M)
    return NAMES.get(m.group(1)) if m else None


def main(root):
    changed = 0
    for folder, _, files in os.walk(root):
        for f in sorted(files):
            if not f.endswith(".evemu"):
                continue
            path = os.path.join(folder, f)
            with open(path) as fh:
                text = fh.read()
            name = name_for(path, text)
            if name is None:
                sys.exit(f"{path}: no pad known for its x axis")
            new = re.sub(r"^N: .*$", "N: " + name, text, count=1, flags=re.M)
            if new != text:
                with open(path, "w") as fh:
                    fh.write(new)
                changed += 1
    print(f"{changed} files renamed")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "fixtures/chromiumos")
