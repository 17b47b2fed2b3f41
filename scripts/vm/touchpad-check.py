#!/usr/bin/env python3
"""scripts/vm/touchpad-check.py LIVE.jsonl LIBINPUT.txt — the touchpad action judged by what
libinput made of gestured's virtual touchpad (`libinput debug-events --device` on it), against
the gestures the service printed (`gestured run --json`) for the touchscreen recordings played
(scripts/vm/touchpad.sh): a four-finger drag, the same drag unplugged midway, a pinch.

- the drag: GESTURE_SWIPE_BEGIN with 3 fingers, UPDATEs whose unaccelerated deltas add up to the
  pan's movement at the documented scale (a stroke across the 1280-unit screen is
  STROKE_MM across the pad; libinput's unaccelerated units per mm of a touchpad, MM_UNITS), then
  a GESTURE_SWIPE_END that is not cancelled;
- the unplugged drag: a GESTURE_SWIPE_END marked cancelled;
- the pinch: GESTURE_PINCH_BEGIN with 2 fingers, and each UPDATE's scale within 5% of the
  touchscreen's fingers' spread since libinput's gesture began (aligned from the end: the last
  update is the pinch's last movement).

Prints PASS/FAIL lines (and measurements)."""
import json
import re
import sys

SCREEN_WIDTH = 1280.0
# libinput's unaccelerated gesture units per mm of a touchpad: 1000 dpi (39.37 a mm), times its
# touchpad constant (TP_MAGIC_SLOWDOWN 0.2968 and the 0.9 baseline of filter-touchpad.c).
MM_UNITS = 1000 / 25.4 * 0.2968 * 0.9
# TouchpadAction.defaultStroke across: GNOME's page, 400 of those units.
STROKE_MM = 400 / MM_UNITS


def verdict(ok, what):
    print(("PASS " if ok else "FAIL ") + what)


def gestures(path):
    return [json.loads(line) for line in open(path) if line.startswith("{")]


def libinput_events(path):
    """(type, fingers, fields, cancelled) of each GESTURE_ line: fields are the numbers after the finger count."""
    out = []
    for line in open(path):
        m = re.search(r"(GESTURE_\w+)\s+\+[0-9.]+s\s+(\d+)(.*)$", line)
        if not m:
            continue
        rest = m.group(3)
        numbers = [float(x) for x in re.findall(r"-?\d+\.\d+", rest)]
        out.append((m.group(1), int(m.group(2)), numbers, "cancelled" in rest))
    return out


def main():
    live, events = gestures(sys.argv[1]), libinput_events(sys.argv[2])
    stroke = STROKE_MM
    print(f"measured: GNOME's page is {STROKE_MM:.2f} mm of the virtual touchpad at {MM_UNITS:.3f} units a mm")
    pans = [g for g in live if g["kind"] == "pan"]
    pinches = [g for g in live if g["kind"] == "pinch"]
    # The swipes, split at their ends.
    swipes, current = [], []
    for e in events:
        if e[0].startswith("GESTURE_SWIPE"):
            current.append(e)
            if e[0] == "GESTURE_SWIPE_END":
                swipes.append(current)
                current = []
    first_pan = []
    for g in pans:
        first_pan.append(g)
        if g["state"] in ("ended", "cancelled"):
            break
    if len(swipes) < 2 or not first_pan:
        verdict(False, f"two touchpad swipes and a pan: {len(swipes)} swipes, {len(pans)} pan events; libinput: {[e[0] for e in events][:12]}")
        return
    swipe = swipes[0]
    begin_ok = swipe[0][0] == "GESTURE_SWIPE_BEGIN" and swipe[0][1] == 3
    updates = [e for e in swipe if e[0] == "GESTURE_SWIPE_UPDATE"]
    # UPDATE fields: dx dy (accelerated), dx dy (unaccelerated).
    unaccel_dx = sum(e[2][2] for e in updates if len(e[2]) >= 4)
    unaccel_dy = sum(e[2][3] for e in updates if len(e[2]) >= 4)
    moved = first_pan[-1]["dx"] - first_pan[0]["dx"]
    expected_mm = moved / SCREEN_WIDTH * stroke
    measured_mm = unaccel_dx / MM_UNITS
    print(f"measured: the pan moved {moved:.1f} of {SCREEN_WIDTH:.0f} units after it began: {expected_mm:.2f} mm on the pad; "
          f"libinput's {len(updates)} updates add up to {unaccel_dx:.1f}/{unaccel_dy:.1f} unaccelerated units ({measured_mm:.2f} mm at {MM_UNITS:.3f} a mm)")
    verdict(begin_ok and swipe[-1][0] == "GESTURE_SWIPE_END" and not swipe[-1][3] and abs(measured_mm - expected_mm) <= 0.05 * expected_mm + 0.1
            and abs(unaccel_dy) < 1,
            f"a four-finger drag is GESTURE_SWIPE_BEGIN (3 fingers), {len(updates)} UPDATEs adding up to {measured_mm:.2f} mm across "
            f"({unaccel_dx:.1f} units) for the pan's {expected_mm:.2f} mm at {stroke:.2f} mm a screen's width, then an END not cancelled")
    cancelled = swipes[1]
    verdict(cancelled[-1][3] and any(g["state"] == "cancelled" for g in pans),
            f"the drag unplugged midway: the pan is cancelled, and libinput's swipe ends cancelled ({' '.join(e[0].split('_')[-1] for e in cancelled[-3:])}, cancelled={cancelled[-1][3]})")
    pinch_events = [e for e in events if e[0].startswith("GESTURE_PINCH")]
    pinch_updates = [e for e in pinch_events if e[0] == "GESTURE_PINCH_UPDATE"]
    if not pinch_events or not pinches:
        verdict(False, f"a pinch: libinput {[e[0] for e in pinch_events]}, the service {len(pinches)} pinch events")
        return
    # The pad's spread follows the screen's scale; each service event that moved the pad is one
    # libinput update, the last ones aligned.
    scales = [g["scale"] for g in pinches if g["state"] in ("began", "changed")]
    n = min(len(pinch_updates), len(scales))
    screen = scales[-n:]
    pad = [e[2][-2] for e in pinch_updates[-n:]]  # UPDATE: dx dy (dx dy unaccelerated) scale @ angle
    errors = [abs(p - s / screen[0]) / (s / screen[0]) for p, s in zip(pad, screen)]
    print(f"measured: pinch, {len(pinch_updates)} updates; libinput's last scale {pad[-1]:.3f}, the screen's fingers {screen[-1] / screen[0]:.3f} "
          f"since libinput began; worst {max(errors) * 100:.1f}%")
    verdict(pinch_events[0][0] == "GESTURE_PINCH_BEGIN" and pinch_events[0][1] == 2 and pinch_events[-1][0] == "GESTURE_PINCH_END"
            and not pinch_events[-1][3] and max(errors) <= 0.05,
            f"a pinch is GESTURE_PINCH_* of 2 fingers whose scale follows the screen's fingers within 5% "
            f"(worst {max(errors) * 100:.1f}% over {n} updates; last {pad[-1]:.3f} for {screen[-1] / screen[0]:.3f})")


if __name__ == "__main__":
    main()
