#!/usr/bin/env python3
"""scripts/make-variants.py — scripted variants of real touchpad strokes, for gestured evaluate.

From labelled recordings of the link touchpad in fixtures/chromiumos (taps, one- and two-finger
pans), it writes fixtures/chromiumos/variants/KIND/NAME.evemu and variants/labels.json, each
variant keeping its source's label:

- jitter:  every position moved by up to ±0.4 mm, at random;
- apart:   (two fingers: pans, taps and the pinch) the second finger lands 20 to 150 ms after
           the first (while the first is still down);
- thumb:   a thumb rests in the lower area of the pad the whole time;
- drift:   (one-finger pans) the finger first creeps 4 mm sideways over 150 ms.
- hold:    (taps) the first press of the recording: once all its fingers are down they rest
           1 s (±100 ms), reported at the source's own report interval with ±0.1 mm of noise,
           then lift as they did: labelled long-press of the tap's fingers;
- hold3:   (two-finger taps) the same with a third finger resting 15 mm beside the second:
           a long-press of three;
- rest:    (pans) once all the stroke's fingers are down they rest 600 ms (±50 ms) before the
           stroke goes on: still the pan it was (a touchpad's hold begins and gives way to it).
- flat:    (taps) the first press, every contact pressing its hardest from landing to lift, as
           firmware that reports a contact's pressure once does (a Cypress PS/2 pad): still a
           tap of one press;
- flat3:   (two-finger taps) the same with a third finger beside the second: a tap of three.
- nores:   (one-finger taps) the first press on a pad that reports no resolution (the
           description's axes say 0: its size is assumed, 69 x 50 mm over the same units),
           the finger rolling sideways once it has settled, 3.3 mm as read: on a pad 30%
           smaller than assumed, a 2.3 mm wobble. Still a tap.
- close:   (two-finger pans) the finger that moved less is put 9 mm behind the one that
           moved more, along its stroke (one behind the other, close together), keeping its
           own motion around that place: still the pan of two (no pinch or rotation).
- edgepalm: (two-finger pans) a palm touches the pad's edge during the scroll: a still contact
           6 mm in from the left or right edge, at mid-height, pressing like the fingers,
           landing once both have been down 320 ms and one is moving, and lifting with the
           last of them: still the pan of two.
- turn:    (one-finger swipes) the finger first drifts 10 mm sideways in 40 ms — across the
           stroke, to the side none of the label's directions names — then makes the stroke:
           still the labelled swipe (it is judged on where it goes, not its first centimetre).
- screen:  (the pinch) the stroke on a touchscreen (the description says
           INPUT_PROP_DIRECT), one finger landing 80 to 150 ms after the other, once that one
           has gone 3.2 mm (more than a touchscreen pan's 3 mm) from where it landed: the
           one-finger pan has begun when the second finger lands. Still the pinch; what came
           before is left out (both fingers land within the stroke). The built-in touchscreen
           layout pans, pinches and rotates at once (a map): its pan, of one finger and then
           of two, is allowed beside the pinch (the label's "also").

Variants made from an issue's description of a recording held out of this corpus, numbers
for numbers (no source file; the device's description from fixtures/recordings):

- rise3:   (issue 45, item 1) a three-finger tap on a Cypress PS/2 trackpad ("CyPS/2 Cypress
           Trackpad", bus 0x11, 0002:0011, 1600 x 900 at 16 x 15 units/mm, two slots):
           BTN_TOOL_TRIPLETAP says three fingers; slot 0 lands and moves 1 unit, slot 1 never
           reports a position of its own; six reports, 15.7 ms apart but the last gap, before
           the lift, 42 ms: five pressing harder each time (65, 77, 85, 89, 91 of 0-255), then
           every contact lifting from its highest pressure. The first lands at (642, 252) as
           described; the seeded ones elsewhere on the pad. A tap of three.

- stagger2: (issue 45, item 2) a staggered pinch on a 12.85" touchscreen (the Chromebook Pixel
           2015's Atmel panel: 272 x 181 mm at 15 units/mm, reports every 10 ms): the second
           finger lands 175 ms after the first, which has gone 3.2 mm in its first 73 ms and
           wandered to 6.7 mm from where it landed by then; the fingers then spread from 18 to
           55 mm apart in 0.95 s while their centre drifts 11.5 mm, and lift. A pinch out of two
           (the one-finger pan before it, and a pan of two beside it, are allowed: the
           touchscreen layout pans and pinches at once). Where and which way are seeded.

- curve1:  (issue 45, item 3) a one-finger flick on a tablet's touchscreen (AOSP's Pixel Tablet
           recording; the panel written as 233 x 145 mm at 11 units/mm): 182 ms long, reports
           every 8 to 9 ms, 49 mm left and 95 mm up overall; it starts right and up (+14.8 mm,
           -12.6 mm after 83 ms), then curves up and to the left (x back to 0 at 133 ms). Between
           the described points each axis goes in a straight line (y is not given at 133 ms: it
           is on the line from 83 to 182 ms). A swipe up. The seeded ones start elsewhere and
           mirror it left and right.

Variants made from issue 65's descriptions of real recordings of boards this corpus does not
hold (the mechanisms it names; the link Atmel pad's description, 102 x 68 mm at 20 units/mm,
where the issue names no pad):

- pointer1: (issue 65, item 1) one finger moving the pointer: it lands anywhere but the
           bottom 12%, pressing 13-35% of the range, moves 1.0-1.7 mm per 10 ms (one report
           every 10 ms) in a straight or gently curving line (its heading turning up to 20
           degrees), 15-25 mm within 100-350 ms, then goes on looping (circles of 6-12 mm
           at 20-60 mm/s) or stopping (+-0.1 mm of noise) for 1-7 s (1-2 s here, to keep
           the files small: what follows the stroke is the same all along). The fourth
           has a second finger join 20-30 mm below it once it stops, and click (BTN_LEFT
           held 80-150 ms) before both lift. A pan of one: the pointer, never a swipe.
- noslot7: (issue 65, item 7) a recording where a new tracking id arrives on a slot that
           still has a contact, with no -1 in between: two taps of one finger on slot 0
           (each pressed 70-120 ms, 8-14 mm apart), the first one's -1 missing, the second
           landing 200-280 ms after the first's last report. The decoder ends the first contact
           where the new one begins and goes on (it stopped with exit status 2): two taps.
- lift4:   (issue 65, item 4) taps that slide as they lift, on a Synaptics pad with 2 slots,
           no resolution (69 x 50 mm assumed) and no pressure per contact (alex's description
           without ABS_MT_PRESSURE and with its resolutions 0): five taps a file, 450-600 ms
           apart, reported every 12.6 ms. The whole-touch ABS_PRESSURE rises to 70-110 of 260
           in 12-25 ms, holds 45-100 ms (the point rolling 1.5-2.4 mm meanwhile), then falls
           over 4 reports (60, 26, 10, 5 of a peak of 100, scaled); once it is 24 or less,
           BTN_TOUCH is 0 and the point slides 1-4.5 mm (0.5-2.6 mm a report) while
           ABS_TOOL_WIDTH rises from 4 to 11-15; then it lifts. Five taps.
- ease5:   (issue 65, item 5) five 55 ms taps on the link Atmel pad, 0.6-0.9 s apart, each
           four reports 14 ms apart pressing 55-75%, 85-97% and 100% of a peak of 40-80 (of
           255), the last 96% of it: easing off after a heavier report. Five taps.
- low5:    (issue 65, item 5) three 100 ms fingertip taps 91.5-92.5% of the way down a 50 mm
           pad (alex's description with resolutions 0: 69 x 50 mm assumed), 0.6-0.9 s apart,
           reported every 12.6 ms, pressing 8% of the range as they land, 22% at their hardest,
           and easing to 10%. Three taps.
- jump6:   (issue 65, item 6) a robot's fast two-finger swipe on the link pad: two fingers
           20 mm apart land together, their first report's y 6 times the axis maximum; from
           14 ms they move 11.5-14.3 mm per 11-12 ms report (1.0-1.2 mm/ms) for two reports,
           and lift 45 ms after landing. A swipe of two, down.
- hook8:   (issue 65, item 8) a flick on a 10-slot portrait panel (145 x 233 mm, 11 units/mm,
           reports every 7.5 and 9.1 ms in turn): it hooks right and up for 20 mm, its heading
           turning from 18 to 74 degrees above +x in 83 ms (240 mm/s); then it runs straight,
           37-41 degrees left of straight up (the description's 37-44, within its other
           numbers), as far as puts the whole stroke 26-28 degrees left of up (its 27), 60-100
           mm (its "about 90"), accelerating evenly to 0.9-1.4 m/s (its 0.9-1.7), and lifts in
           place at 208 ms (the lift reported 7.5 ms later). A swipe up, to be decided by
           110-140 ms.
- box3:    (issue 65, item 3) a semi-multitouch pad (the ALPS GlidePoint's description:
           INPUT_PROP_SEMI_MT, two slots reporting the box of all contacts, slot 0 at (min x,
           max y) and slot 1 at (max x, min y); no resolution, 69 x 50 mm assumed; reports
           every 21-25 ms): five two-finger taps a file, the fingers side by side 17-18 mm
           apart, pressed 70-130 ms, landing together or the second 22-25 ms after the first,
           on the first's left; at each count change the old id jumps by the fingers'
           separation in the report after it (the kernel reports the new count first). Five
           taps of two.
- inline3: (issue 65, item 3) on the same pad, the second finger lands 6 mm below and 5 mm
           left of the first (slot 0, the lower-left corner, jumps to it in the report after
           the count change); the lower corner stays still for 218 ms while the upper goes
           7 mm up; then both go 20-34 mm up at 60 mm/s, and lift. A pan of two, up.
- palm2:   (issue 65, item 2) a palm counted as a third finger on a two-slot Synaptics pad (alex's
           description without ABS_MT_PRESSURE, resolutions 0: 69 x 50 mm assumed; whole-touch
           ABS_PRESSURE 0-260, ABS_TOOL_WIDTH 0-16; reports every 12.5 ms). At t = 0 a palm
           lands near a corner (x 6-11 or 57-65 mm, y 42-49 or 6-12 mm); its whole-touch
           pressure rises from 5% to 72-83% in 100-500 ms and its width from 4 to 10-15; it
           creeps 3-8 mm meanwhile, then stays within 0.3 mm. After 0.45-1.8 s two fingers land
           together: BTN_TOOL_TRIPLETAP at once, or 30-146 ms after BTN_TOOL_DOUBLETAP; only
           slot 1 carries them, its position reported 0-190 ms after its tracking id (the
           slot's last values until then). It goes 13-45 mm up or down at 40-160 mm/s for
           0.35-0.8 s; TRIPLETAP ends 0-75 ms before slot 1 lifts, and the palm lifts last.
           A pan of two in the scroll's direction.
- thumb2:  (issue 65, item 2) the same with a thumb instead of the palm, on the board whose pad
           reports pressure per contact (0-199): the thumb rests at 86% of the height, 1 mm
           above the 12% line, pressing 24-43% and still within 0.3 mm. A pan of two.

Random choices come from generators seeded with the source's name and the variant: the same
files every run. The variants are derived from GPL-2.0-only data and are GPL-2.0-only too
(fixtures/chromiumos/LICENSE).

Usage: scripts/make-variants.py [CORPUS]   (default: fixtures/chromiumos)
"""
import json
import os
import random
import sys
import zlib

ABS, KEY, SYN = 3, 1, 0
SLOT, TRACKING, MT_X, MT_Y, MT_PRESSURE, MT_MAJOR = 0x2F, 0x39, 0x35, 0x36, 0x3A, 0x30
ABS_X, ABS_Y, ABS_PRESSURE = 0x00, 0x01, 0x18
BTN_TOUCH, TOOL_FINGER, TOOL_DOUBLE, TOOL_TRIPLE, TOOL_QUAD = 0x14A, 0x145, 0x14D, 0x14E, 0x14F
TOOLS = [TOOL_FINGER, TOOL_DOUBLE, TOOL_TRIPLE, TOOL_QUAD]
SOURCES = {("pan", 2): 10, ("pan", 1): 8, ("tap", 1): 8, ("tap", 2): 6, ("swipe", 1): 6, ("pinch-out", 2): 1}
STROKES = {("pan", 1), ("pan", 2), ("tap", 1), ("tap", 2)}


def read(path):
    """The header lines and the frames: each frame the events before its SYN_REPORT."""
    header, frames, frame = [], [], []
    for line in open(path):
        if not line.startswith("E:"):
            header.append(line)
            continue
        _, t, typ, code, value = line.split()
        event = (float(t), int(typ, 16), int(code, 16), int(value))
        frame.append(event)
        if event[1] == SYN and event[2] == 0:
            frames.append(frame)
            frame = []
    return header, frames


def geometry(header):
    """From the source's description: (x units/mm, y units/mm, x max, y max, whether it has
    ABS_MT_TOUCH_MAJOR). The 2012 link sessions were recorded on two pads (see
    fixtures/chromiumos/SOURCES.md), so millimetres come from each source's own A: lines."""
    axes = {}
    for line in header:
        if line.startswith("A: "):
            code, _, maximum, _, _, resolution = line.split()[1:7]
            axes[int(code, 16)] = (int(maximum), int(resolution))
    (x_max, x_res), (y_max, y_res) = axes[MT_X], axes[MT_Y]
    return x_res, y_res, x_max, y_max, MT_MAJOR in axes


def states(frames):
    """Per frame: time, the slots' contacts {slot: {id, x, y, p, major}}, other key events (buttons)."""
    slot, slots, out = 0, {}, []
    for frame in frames:
        keys = []
        for _, typ, code, value in frame:
            if typ == ABS and code == SLOT:
                slot = value
            elif typ == ABS and code == TRACKING:
                if value < 0:
                    slots.pop(slot, None)
                else:
                    slots[slot] = {"id": value, "x": 0, "y": 0, "p": 0, "major": 0}
            elif typ == ABS and slot in slots and code in (MT_X, MT_Y, MT_PRESSURE, MT_MAJOR):
                slots[slot][{MT_X: "x", MT_Y: "y", MT_PRESSURE: "p", MT_MAJOR: "major"}[code]] = value
            elif typ == KEY and code not in TOOLS and code != BTN_TOUCH:
                keys.append((code, value))
        out.append((frame[-1][0], {s: dict(c) for s, c in slots.items()}, keys))
    return out


def write(path, header, states_, has_major):
    """The states as evemu events again: slot changes, keys and BTN_TOOL_* counts per frame
    (ABS_MT_TOUCH_MAJOR only where the description declares it)."""
    lines = list(header)
    previous, current_slot, tools = {}, None, 0
    for t, slots, keys in states_:
        events = []
        for s in sorted(set(previous) | set(slots)):
            old, new = previous.get(s), slots.get(s)
            if old == new:
                continue
            if current_slot != s:
                events.append((ABS, SLOT, s))
                current_slot = s
            if new is None:
                events.append((ABS, TRACKING, -1))
                continue
            if old is None or old["id"] != new["id"]:
                events.append((ABS, TRACKING, new["id"]))
                old = None
            for key, code in (("x", MT_X), ("y", MT_Y), ("p", MT_PRESSURE), ("major", MT_MAJOR)):
                if code == MT_MAJOR and not has_major:
                    continue
                if old is None or old[key] != new[key]:
                    events.append((ABS, code, new[key]))
        count = min(len(slots), 4)
        if count != tools:
            if tools > 0:
                events.append((KEY, TOOLS[tools - 1], 0))
            if count > 0:
                events.append((KEY, TOOLS[count - 1], 1))
            if (tools > 0) != (count > 0):
                events.append((KEY, BTN_TOUCH, 1 if count else 0))
            tools = count
        events += [(KEY, code, value) for code, value in keys]
        events.append((SYN, 0, 0))
        for typ, code, value in events:
            lines.append(f"E: {t:.6f} {typ:04x} {code:04x} {value}\n")
        previous = {s: dict(c) for s, c in slots.items()}
    with open(path, "w") as f:
        f.writelines(lines)


def contact_ids(states_):
    """The contacts' tracking ids in the order they landed."""
    ids = []
    for _, slots, _ in states_:
        for c in slots.values():
            if c["id"] not in ids:
                ids.append(c["id"])
    return ids


def jitter(states_, rng, geo):
    jx, jy = int(0.4 * geo[0]), int(0.4 * geo[1])
    return [(t, {s: dict(c, x=c["x"] + rng.randint(-jx, jx), y=c["y"] + rng.randint(-jy, jy)) for s, c in slots.items()}, keys)
            for t, slots, keys in states_]


def apart(states_, rng, geo):
    """The second contact lands 20 to 150 ms later than it did, and still at least 20 ms before
    it or a contact down with it lifts: the two fingers are still down together, as the label
    says (a two-finger tap stays one). None when no frame allows both."""
    ids = contact_ids(states_)
    if len(ids) < 2:
        return None
    late = ids[1]
    landed = next(t for t, slots, _ in states_ if any(c["id"] == late for c in slots.values()))
    together = [c["id"] for t, slots, _ in states_ if t == landed for c in slots.values()]
    # The first frame, from the landing on, without the late contact or one that was down with it.
    lift = next((t for t, slots, _ in states_
                 if t > landed and not all(i in [c["id"] for c in slots.values()] for i in together)), states_[-1][0])
    delay = rng.randint(20, 150) / 1000
    times = [t for t, _, _ in states_]
    # The frame it lands in now: the first at or after the delay, unless that is within 20 ms of
    # the lift; then the last one at least 20 ms after it landed and 20 ms before the lift.
    lands = next((t for t in times if t >= landed + delay), None)
    if lands is None or lands > lift - 0.020:
        lands = max((t for t in times if landed + 0.020 <= t <= lift - 0.020), default=None)
    if lands is None:
        return None
    return [(t, {s: c for s, c in slots.items() if c["id"] != late or t >= lands}, keys)
            for t, slots, keys in states_]


def thumb(states_, rng, geo):
    """A thumb resting in the lower area (x 30% ± 5%, 6 mm from the bottom edge) throughout."""
    x_res, y_res, x_max, y_max, _ = geo
    x = int(x_max * (0.30 + rng.uniform(-0.05, 0.05)))
    y = y_max - 6 * y_res
    slot = 9
    out = []
    for t, slots, keys in states_:
        slots = dict(slots)
        slots[slot] = {"id": 60000, "x": x, "y": y, "p": 70, "major": 300}
        out.append((t, slots, keys))
    # The thumb lifts with the last finger.
    out.append((out[-1][0] + 0.01, {}, []))
    return out


def drift(states_, rng, geo):
    """The first 150 ms creep 4 mm sideways (the stroke's own motion follows, shifted)."""
    start = states_[0][0]
    sideways = 4 * geo[0] * rng.choice([-1, 1])
    out = []
    for t, slots, keys in states_:
        k = min(1.0, (t - start) / 0.150)
        out.append((t, {s: dict(c, x=c["x"] + int(sideways * k)) for s, c in slots.items()}, keys))
    return out


def interval(states_):
    """The source's usual report interval: the median of its frames' gaps of 2 to 100 ms."""
    gaps = sorted(b[0] - a[0] for a, b in zip(states_, states_[1:]) if 0.002 <= b[0] - a[0] <= 0.1)
    return gaps[len(gaps) // 2] if gaps else 0.01


def rested(states_, rng, geo, seconds):
    """The stroke with a rest of `seconds` inserted at the first frame where all its fingers are
    down: that frame's contacts reported again at the source's interval, each position moved by
    up to ±0.1 mm (a resting finger's noise); every later frame comes `seconds` later."""
    most = max(len(slots) for _, slots, _ in states_)
    at = next(i for i, (_, slots, _) in enumerate(states_) if len(slots) == most)
    t0, slots0, _ = states_[at]
    step = interval(states_)
    jx, jy = max(1, int(0.1 * geo[0])), max(1, int(0.1 * geo[1]))
    rest = []
    t = step
    while t < seconds:
        rest.append((t0 + t, {s: dict(c, x=c["x"] + rng.randint(-jx, jx), y=c["y"] + rng.randint(-jy, jy)) for s, c in slots0.items()}, []))
        t += step
    # Back where they rested before the stroke goes on.
    rest.append((t0 + seconds, {s: dict(c) for s, c in slots0.items()}, []))
    later = [(t + seconds, slots, keys) for t, slots, keys in states_[at + 1:]]
    return states_[:at + 1] + rest + later


def hold(states_, rng, geo):
    """The first press only (a tap recording may hold ten), with the rest."""
    return first_press(rested(states_, rng, geo, round(rng.uniform(0.9, 1.1), 3)))


def hold3(states_, rng, geo):
    """A third finger beside the second, then the rest."""
    three = third_finger(states_, geo)
    return hold(three, rng, geo) if three else None


def third_finger(states_, geo):
    """A third finger 15 mm to the right of the second (or left, near the right edge), down and
    up with it; None unless the stroke has two contacts."""
    ids = contact_ids(states_)
    if len(ids) != 2:
        return None
    x_res, _, x_max, _, _ = geo
    out = []
    for t, slots, keys in states_:
        slots = dict(slots)
        second = next((c for c in slots.values() if c["id"] == ids[1]), None)
        if second is not None:
            dx = 15 * x_res if second["x"] + 15 * x_res <= x_max else -15 * x_res
            slots[8] = dict(second, id=second["id"] + 30000, x=second["x"] + dx)
        out.append((t, slots, keys))
    return out


def first_press(states_):
    """The frames up to the first lift of every contact."""
    down = next(i for i, (_, slots, _) in enumerate(states_) if slots)
    lifted = next((i for i, (_, slots, _) in enumerate(states_) if i > down and not slots), len(states_) - 1)
    return states_[:lifted + 1]


def flat(states_, rng, geo):
    press = first_press(states_)
    peak = {}
    for _, slots, _ in press:
        for c in slots.values():
            peak[c["id"]] = max(peak.get(c["id"], 0), c["p"])
    return [(t, {s: dict(c, p=peak[c["id"]]) for s, c in slots.items()}, keys) for t, slots, keys in press]


def flat3(states_, rng, geo):
    three = third_finger(states_, geo)
    return flat(three, rng, geo) if three else None


def turn(states_, rng, geo):
    """The contact drifts 10 mm across its stroke in 40 ms after landing (frames at the source's
    interval), then the source's stroke follows, 40 ms later and 10 mm aside. The side is the
    one whose nearest straight direction the stroke's own does not share."""
    x_res, y_res = geo[0], geo[1]
    track = [(t, next(iter(slots.values()))) for t, slots, _ in states_ if len(slots) == 1]
    (t0, first), (_, last) = track[0], track[-1]
    dx, dy = (last["x"] - first["x"]) / x_res, (last["y"] - first["y"]) / y_res
    length = (dx * dx + dy * dy) ** 0.5
    # Across the stroke, either way; the way that does not point like the stroke's larger part.
    across = [(-dy / length, dx / length), (dy / length, -dx / length)]
    def straight(v):
        return ("x", v[0] > 0) if abs(v[0]) >= abs(v[1]) else ("y", v[1] > 0)
    stroke_ways = {("x", dx > 0), ("y", dy > 0)}
    side = next((v for v in across if straight(v) not in stroke_ways), across[rng.randrange(2)])
    ox, oy = side[0] * 10 * x_res, side[1] * 10 * y_res
    step = interval(states_)
    at = next(i for i, (_, slots, _) in enumerate(states_) if slots)
    t_land, slots0, keys0 = states_[at]
    drift, t = [], step
    while t < 0.040:
        k = t / 0.040
        drift.append((t_land + t, {s: dict(c, x=c["x"] + int(ox * k), y=c["y"] + int(oy * k)) for s, c in slots0.items()}, []))
        t += step
    moved = [(t + 0.040, {s: dict(c, x=c["x"] + int(ox), y=c["y"] + int(oy)) for s, c in slots.items()}, keys)
             for t, slots, keys in states_[at:]]
    return states_[:at + 1] + drift + moved


def nores(states_, rng, geo):
    """The first press, rolling 3.3 mm along x as read at the assumed 69 mm width, over its
    frames from the second report on; the description loses its resolutions in main()."""
    press = first_press(states_)
    # From its second report on: the first settles where it landed.
    rolling = [i for i, (_, slots, _) in enumerate(press) if slots][2:]
    if len(rolling) < 2:
        return None
    shift = 3.3 * geo[2] / 69 * rng.choice([-1, 1])
    out = list(press)
    for n, i in enumerate(rolling):
        t, slots, keys = press[i]
        k = min(1.0, (n + 1) / (len(rolling) - 1))
        out[i] = (t, {s: dict(c, x=c["x"] + int(shift * k)) for s, c in slots.items()}, keys)
    return out


def without_resolution(header):
    """The description's position axes with resolution 0."""
    out = []
    for line in header:
        parts = line.split()
        if line.startswith("A: ") and int(parts[1], 16) in (ABS_X, ABS_Y, MT_X, MT_Y):
            parts[6] = "0"
            line = " ".join(parts) + "\n"
        out.append(line)
    return out


def close(states_, rng, geo):
    """The finger that moved less put 9 mm behind the one that moved more (the leader), along
    the leader's stroke: each of its frames moved by one offset, so it keeps its own motion
    around a place 9 mm behind the leader's start."""
    x_res, y_res = geo[0], geo[1]
    tracks = {}
    for _, slots, _ in states_:
        for c in slots.values():
            tracks.setdefault(c["id"], []).append(c)
    if len(tracks) != 2:
        return None
    def travel(track):
        return (((track[-1]["x"] - track[0]["x"]) / x_res) ** 2 + ((track[-1]["y"] - track[0]["y"]) / y_res) ** 2) ** 0.5
    leader, other = sorted(tracks, key=lambda i: -travel(tracks[i]))
    lead = tracks[leader]
    length = travel(lead)
    if length < 5:
        return None
    dx, dy = (lead[-1]["x"] - lead[0]["x"]) / x_res / length, (lead[-1]["y"] - lead[0]["y"]) / y_res / length
    ox = lead[0]["x"] - dx * 9 * x_res - tracks[other][0]["x"]
    oy = lead[0]["y"] - dy * 9 * y_res - tracks[other][0]["y"]
    x_max, y_max = geo[2], geo[3]
    out = []
    for t, slots, keys in states_:
        moved = {}
        for s, c in slots.items():
            if c["id"] == other:
                c = dict(c, x=min(max(int(c["x"] + ox), 0), x_max), y=min(max(int(c["y"] + oy), 0), y_max))
            moved[s] = c
        out.append((t, moved, keys))
    return out


def edgepalm(states_, rng, geo):
    x_res, y_res, x_max, y_max, _ = geo
    both = next(t for t, slots, _ in states_ if len(slots) == 2)
    previous = {}
    lands = None
    for i, (t, slots, _) in enumerate(states_):
        moving = [s for s, c in slots.items() if s in previous and (c["x"], c["y"]) != (previous[s]["x"], previous[s]["y"])]
        if t >= both + 0.320 and len(slots) == 2 and moving:
            lands = i
            break
        previous = slots
    if lands is None:
        return None
    pressure = max(c["p"] for c in states_[lands][1].values())
    x = int(6 * x_res) if rng.random() < 0.5 else x_max - int(6 * x_res)
    y = y_max // 2
    jx, jy = max(1, int(0.2 * x_res)), max(1, int(0.2 * y_res))
    out = list(states_[:lands])
    for t, slots, keys in states_[lands:]:
        if not slots:
            out.append((t, slots, keys))
            continue
        slots = dict(slots)
        slots[10] = {"id": 61000, "x": x + rng.randint(-jx, jx), "y": y + rng.randint(-jy, jy), "p": pressure, "major": 600}
        out.append((t, slots, keys))
    return out


def screen(states_, rng, geo):
    """One contact lands at frame a, the other at frame b: b is 80 ms to the delay drawn (up to
    150 ms) after a, and the contact that lands first is 3.2 mm or more from where it was at a
    in the frame before the other lands (so a one-finger pan has begun by then). The contact landing first is the one that allows it (the recorded
    first, else the other: in a scroll one finger may rest while the other moves); a is the
    first frame, from when both are down, that allows it; both keep their own recorded motion
    from there. None when no frame allows it."""
    ids = contact_ids(states_)
    if len(ids) != 2:
        return None
    x_res, y_res = geo[0], geo[1]
    delay = rng.randint(80, 150) / 1000

    def where(slots, i):
        return next(((c["x"] / x_res, c["y"] / y_res) for c in slots.values() if c["id"] == i), None)

    for first, second in (ids, ids[::-1]):
        for a, (ta, slots_a, _) in enumerate(states_):
            pa = where(slots_a, first)
            if pa is None or where(slots_a, second) is None:
                continue
            for b in range(a + 1, len(states_)):
                tb, slots_b, _ = states_[b]
                if tb - ta > delay:
                    break
                # Where the first contact was in the frame before the other lands.
                pb = where(states_[b - 1][1], first)
                if pb is None or where(slots_b, second) is None:
                    break
                if tb - ta >= 0.080 and ((pb[0] - pa[0]) ** 2 + (pb[1] - pa[1]) ** 2) ** 0.5 >= 3.2:
                    out = [(t, {s: c for s, c in slots.items() if c["id"] != second or i >= b}, keys)
                           for i, (t, slots, keys) in enumerate(states_) if i >= a]
                    return [(t - ta + states_[0][0], slots, keys) for t, slots, keys in out]
    return None


def direct(header):
    """The description of a touchscreen: INPUT_PROP_DIRECT instead of the pad's properties."""
    out = []
    for line in header:
        if line.startswith("P: "):
            line = "P: 02 00 00 00 00 00 00 00\n"
        elif line.startswith("# Properties:"):
            line = "# Properties: INPUT_PROP_DIRECT (the variant's; the source's pad was a touchpad)\n"
        out.append(line)
    return out


def rest(states_, rng, geo):
    return rested(states_, rng, geo, round(rng.uniform(0.55, 0.65), 3))


VARIANTS = {"jitter": jitter, "apart": apart, "thumb": thumb, "drift": drift, "hold": hold, "hold3": hold3, "rest": rest,
            "flat": flat, "flat3": flat3, "nores": nores, "close": close, "edgepalm": edgepalm, "turn": turn,
            "screen": screen}
# Which sources each variant is made of (label, fingers); the others take every source.
ONLY = {"jitter": STROKES, "thumb": STROKES, "apart": {("pan", 2), ("tap", 2), ("pinch-out", 2)}, "drift": {("pan", 1)}, "hold": {("tap", 1), ("tap", 2)}, "hold3": {("tap", 2)},
        "rest": {("pan", 1), ("pan", 2)}, "flat": {("tap", 1), ("tap", 2)}, "flat3": {("tap", 2)},
        "nores": {("tap", 1)}, "close": {("pan", 2)}, "edgepalm": {("pan", 2)}, "turn": {("swipe", 1)},
        "screen": {("pinch-out", 2)}}
# The label a variant has instead of its source's: (label, fingers).
HEADERS = {"nores": without_resolution, "screen": direct}
# Gestures a variant's label allows besides its own ("also").
ALSO = {"screen": ["pan/1", "pan/2"]}
RELABEL = {"nores": lambda source: ("tap", 1, 1), "hold": lambda source: ("long-press", source["touches"], None), "hold3": lambda source: ("long-press", 3, None),
           "flat": lambda source: ("tap", source["touches"], 1), "flat3": lambda source: ("tap", 3, 1)}


CYPS2 = "fixtures/recordings/evemu-devices/touchpads/CyPS2 Cypress Trackpad.three_finger_press.events"


def rise3(rng, first):
    """Issue 45's item 1, as evemu events: (time, [(type, code, value)]) per frame."""
    x, y = (642, 252) if first else (rng.randint(300, 1300), rng.randint(150, 750))
    step = 1 if first else rng.choice((-1, 1))
    pressures = [65, 77, 85, 89, 91]
    frames = [(0.0, [(ABS, SLOT, 0), (ABS, TRACKING, 1), (ABS, MT_X, x), (ABS, MT_Y, y), (ABS, MT_PRESSURE, pressures[0]),
                     (ABS, SLOT, 1), (ABS, TRACKING, 2), (ABS, MT_PRESSURE, pressures[0]),
                     (KEY, BTN_TOUCH, 1), (KEY, TOOL_TRIPLE, 1), (ABS, ABS_X, x), (ABS, ABS_Y, y), (ABS, ABS_PRESSURE, pressures[0])])]
    # Slot 0 moves its one unit in one of the reports (the third of the described one).
    moves = 2 if first else rng.randint(1, 4)
    for n, p in enumerate(pressures[1:], start=1):
        moved = [(ABS, MT_X, x + step)] if n == moves else []
        frames.append((n * 0.0157, [(ABS, SLOT, 0)] + moved + [(ABS, MT_PRESSURE, p), (ABS, SLOT, 1), (ABS, MT_PRESSURE, p)]
                       + ([(ABS, ABS_X, x + step)] if moved else []) + [(ABS, ABS_PRESSURE, p)]))
    # The sixth report, 42 ms after the fifth: every contact lifts, pressing its hardest.
    frames.append((4 * 0.0157 + 0.042, [(ABS, SLOT, 0), (ABS, TRACKING, -1), (ABS, SLOT, 1), (ABS, TRACKING, -1),
                                        (KEY, BTN_TOUCH, 0), (KEY, TOOL_TRIPLE, 0), (ABS, ABS_PRESSURE, 0)]))
    return frames


ATMEL_SCREEN = ["N: Atmel maXTouch Touchscreen\n", "I: 0018 03eb 8a10 0100\n", "P: 02 00 00 00 00 00 00 00\n",
                "B: 00 0b 00 00 00 00 00 00 00\n", "B: 01 00 00 00 00 00 00 00 00\n", "B: 01 00 00 00 00 00 00 00 00\n",
                "B: 01 00 00 00 00 00 00 00 00\n", "B: 01 00 00 00 00 00 00 00 00\n", "B: 01 00 00 00 00 00 00 00 00\n",
                "B: 01 00 04 00 00 00 00 00 00\n",
                "B: 03 03 00 00 00 00 80 60 06\n",
                "A: 00 0 4080 0 0 15\n", "A: 01 0 2716 0 0 15\n", "A: 2f 0 9 0 0 0\n", "A: 35 0 4080 0 0 15\n",
                "A: 36 0 2716 0 0 15\n", "A: 39 0 65535 0 0 0\n", "A: 3a 0 255 0 0 0\n"]


def stagger2(rng, first):
    """Issue 45's item 2, as evemu events: (time, [(type, code, value)]) per frame, 15 units/mm."""
    import math
    u = 15.0
    x0, y0 = (120.0, 90.0) if first else (rng.uniform(90, 180), rng.uniform(70, 110))
    a1 = 0.0 if first else rng.uniform(0, 2 * math.pi)      # the first finger's wander
    axis = math.pi / 4 if first else rng.uniform(0, math.pi)  # the line the fingers spread along
    drift = math.pi / 2 if first else rng.uniform(0, 2 * math.pi)
    frames, t, step = [], 0.0, 0.010

    def at(x, y):
        return int(round(x * u)), int(round(y * u))

    def first_finger(t):
        # 3.2 mm in its first 73 ms, then on, bending, to 6.7 mm from where it landed at 175 ms.
        if t <= 0.073:
            d, a = 3.2 * t / 0.073, a1
        else:
            d, a = 3.2 + 3.5 * (t - 0.073) / 0.102, a1 + 0.6 * (t - 0.073) / 0.102
        return x0 + d * math.cos(a), y0 + d * math.sin(a)

    ax, ay = first_finger(0.175)
    # At 175 ms the second lands 18 mm from the first, along the axis.
    cx, cy = ax + 9 * math.cos(axis), ay + 9 * math.sin(axis)
    times = [round(i * step, 3) for i in range(0, 113)] + [1.125]
    last = {}
    for t in times:
        events = []
        if t < 0.175:
            pos = {0: first_finger(t)}
        else:
            k = min(1.0, (t - 0.175) / 0.95)
            half = (18 + 37 * k) / 2
            mx, my = cx + 11.5 * k * math.cos(drift), cy + 11.5 * k * math.sin(drift)
            pos = {0: (mx - half * math.cos(axis), my - half * math.sin(axis)), 1: (mx + half * math.cos(axis), my + half * math.sin(axis))}
        for slot, (x, y) in pos.items():
            ux, uy = at(x, y)
            events.append((ABS, SLOT, slot))
            if slot not in last:
                events += [(ABS, TRACKING, slot + 1), (ABS, MT_PRESSURE, 50)]
                if slot == 0:
                    events.append((KEY, BTN_TOUCH, 1))
            if last.get(slot, (None, None))[0] != ux:
                events.append((ABS, MT_X, ux))
            if last.get(slot, (None, None))[1] != uy:
                events.append((ABS, MT_Y, uy))
            last[slot] = (ux, uy)
        frames.append((t, events))
    frames.append((1.135, [(ABS, SLOT, 0), (ABS, TRACKING, -1), (ABS, SLOT, 1), (ABS, TRACKING, -1), (KEY, BTN_TOUCH, 0)]))
    return frames


TABLET_SCREEN = ["N: Pixel Tablet touchscreen\n", "I: 0018 18d1 0001 0100\n", "P: 02 00 00 00 00 00 00 00\n",
                 "B: 00 0b 00 00 00 00 00 00 00\n", "B: 01 00 00 00 00 00 00 00 00\n", "B: 01 00 00 00 00 00 00 00 00\n",
                 "B: 01 00 00 00 00 00 00 00 00\n", "B: 01 00 00 00 00 00 00 00 00\n", "B: 01 00 00 00 00 00 00 00 00\n",
                 "B: 01 00 04 00 00 00 00 00 00\n", "B: 03 03 00 00 00 00 80 60 06\n",
                 "A: 00 0 2560 0 0 11\n", "A: 01 0 1600 0 0 11\n", "A: 2f 0 9 0 0 0\n", "A: 35 0 2560 0 0 11\n",
                 "A: 36 0 1600 0 0 11\n", "A: 39 0 65535 0 0 0\n", "A: 3a 0 255 0 0 0\n"]


def through(knots, t):
    """The value at `t` on straight lines between (time, value) knots: nothing the description
    does not say."""
    for (t0, v0), (t1, v1) in zip(knots, knots[1:]):
        if t0 <= t <= t1:
            return v0 + (v1 - v0) * (t - t0) / (t1 - t0)
    return knots[-1][1]


def curve1(rng, first):
    """Issue 45's item 3, as evemu events: (time, [(type, code, value)]) per frame, 11 units/mm."""
    u = 11.0
    x0, y0 = (140.0, 120.0) if first else (rng.uniform(80, 160), rng.uniform(110, 135))
    mirror = 1 if first or rng.random() < 0.5 else -1
    xs = [(0, 0.0), (83, 14.8), (133, 0.0), (182, -49.0)]
    ys = [(0, 0.0), (83, -12.6), (182, -95.0)]
    times, t = [0], 0
    while t < 182:
        t = min(182, t + (8 if len(times) % 2 else 9))
        times.append(t)
    points = [(t / 1000, x0 + mirror * through(xs, t), y0 + through(ys, t)) for t in times]
    return one_finger(points, u, 190 / 1000)


def one_finger(points, u, lift):
    """One finger on slot 0 of a touchscreen, pressing 40, as evemu events: (time, [(type,
    code, value)]) per frame at each (seconds, x mm, y mm) of `points` (`u` units/mm; an axis
    only where its value changed), then lifting at `lift` seconds."""
    frames, last = [], None
    for t, x, y in points:
        ux, uy = int(round(x * u)), int(round(y * u))
        events = [(ABS, SLOT, 0)]
        if last is None:
            events += [(ABS, TRACKING, 1), (ABS, MT_PRESSURE, 40)]
        if last is None or last[0] != ux:
            events.append((ABS, MT_X, ux))
        if last is None or last[1] != uy:
            events.append((ABS, MT_Y, uy))
        if last is None:
            events.append((KEY, BTN_TOUCH, 1))
        frames.append((t, events))
        last = (ux, uy)
    frames.append((lift, [(ABS, SLOT, 0), (ABS, TRACKING, -1), (KEY, BTN_TOUCH, 0)]))
    return frames


LINK = "fixtures/chromiumos/link/one_finger_tracking.bottom_left_to_top_right.normal-link-fw_1.0.AA-robot-20130806_222025.evemu"
BTN_LEFT = 0x110


def pointer1(rng, first, n=0):
    """Issue 65's item 1, as evemu events: (time, [(type, code, value)]) per frame, on the link
    Atmel pad (2040 x 1360 at 20 units/mm, pressure 0-255)."""
    import math
    u, width, height = 20.0, 102.0, 68.0
    x, y = rng.uniform(10, width - 10), rng.uniform(8, height * 0.88 - 4)
    speed = rng.uniform(1.0, 1.7)          # mm per 10 ms
    length = rng.uniform(15, 25)           # mm, within 100-350 ms at that speed
    heading = rng.uniform(0, 2 * math.pi)
    turn = math.radians(rng.uniform(-20, 20))   # the stroke's whole turn: straight or gently curving
    # Keep the stroke on the pad: head toward the pad's middle when it would leave.
    ex, ey = x + length * math.cos(heading), y + length * math.sin(heading)
    if not (3 < ex < width - 3 and 3 < ey < height * 0.88):
        heading = math.atan2(height * 0.44 - y, width / 2 - x)
    pressure = rng.randint(round(0.13 * 255), round(0.35 * 255))
    loops = n % 2 == 0
    clicks = n == 3
    frames, t, gone = [], 0.0, 0.0
    steps = max(1, round(length / speed))
    positions = [(x, y)]
    for i in range(steps):
        a = heading + turn * i / steps
        x, y = x + speed * math.cos(a), y + speed * math.sin(a)
        positions.append((x, y))
    after = rng.uniform(1.0, 2.0)
    radius, around = rng.uniform(6, 12), rng.uniform(20, 60)
    cx, cy = x - radius * math.cos(heading), y - radius * math.sin(heading)
    for i in range(1, round(after / 0.010) + 1):
        if loops:
            angle = heading + around * 0.010 * i / radius
            positions.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
        else:
            positions.append((x + rng.uniform(-0.1, 0.1), y + rng.uniform(-0.1, 0.1)))
    last = None
    for i, (px, py) in enumerate(positions):
        ux, uy = int(round(px * u)), int(round(py * u))
        events = [(ABS, SLOT, 0)]
        if last is None:
            events += [(ABS, TRACKING, 1)]
        if last is None or last[0] != ux:
            events.append((ABS, MT_X, ux))
        if last is None or last[1] != uy:
            events.append((ABS, MT_Y, uy))
        p = max(0, min(255, pressure + rng.randint(-3, 3)))
        events.append((ABS, MT_PRESSURE, p))
        if last is None:
            events += [(KEY, BTN_TOUCH, 1), (KEY, TOOL_FINGER, 1)]
        events += [(ABS, ABS_X, ux), (ABS, ABS_Y, uy), (ABS, ABS_PRESSURE, p)]
        frames.append((round(i * 0.010, 6), events))
        last = (ux, uy)
    t = len(positions) * 0.010
    if clicks:
        # A second finger joins 20-30 mm below the stopped pointer and clicks.
        below = rng.uniform(20, 30)
        sx, sy = int(round(last[0] + rng.uniform(-5, 5) * u)), int(round(min(height - 2, last[1] / u + below) * u))
        frames.append((t, [(ABS, SLOT, 1), (ABS, TRACKING, 2), (ABS, MT_X, sx), (ABS, MT_Y, sy), (ABS, MT_PRESSURE, pressure),
                           (KEY, TOOL_FINGER, 0), (KEY, TOOL_DOUBLE, 1)]))
        press = t + rng.uniform(0.06, 0.12)
        hold = rng.uniform(0.08, 0.15)
        frames.append((press, [(ABS, SLOT, 1), (ABS, MT_PRESSURE, min(255, pressure + 20)), (KEY, BTN_LEFT, 1)]))
        frames.append((press + hold, [(ABS, MT_PRESSURE, pressure), (KEY, BTN_LEFT, 0)]))
        t = press + hold + 0.05
        frames.append((t, [(ABS, SLOT, 1), (ABS, TRACKING, -1), (KEY, TOOL_DOUBLE, 0), (KEY, TOOL_FINGER, 1)]))
        t += 0.03
    frames.append((t, [(ABS, SLOT, 0), (ABS, TRACKING, -1), (KEY, BTN_TOUCH, 0), (KEY, TOOL_FINGER, 0), (ABS, ABS_PRESSURE, 0)]))
    return frames


def noslot7(rng, first, n=0):
    """Issue 65's item 7, as evemu events: two one-finger taps on slot 0 of the link pad, the
    first one's lift (tracking id -1) missing."""
    import math
    u = 20.0
    x, y = (40.0, 30.0) if first else (rng.uniform(20, 80), rng.uniform(15, 50))
    apart, angle = rng.uniform(8, 14), rng.uniform(0, 2 * math.pi)
    frames, t = [], 0.0
    for tap, (px, py) in enumerate([(x, y), (x + apart * math.cos(angle), y + apart * math.sin(angle))]):
        ux, uy = int(round(px * u)), int(round(py * u))
        pressure = rng.randint(40, 70)
        press = rng.uniform(0.07, 0.12)
        begin = [(ABS, TRACKING, 10 + tap), (ABS, MT_X, ux), (ABS, MT_Y, uy), (ABS, MT_PRESSURE, pressure)]
        frames.append((t, ([(ABS, SLOT, 0)] if tap else []) + begin + ([(KEY, BTN_TOUCH, 1), (KEY, TOOL_FINGER, 1)] if tap == 0 else [])
                       + [(ABS, ABS_X, ux), (ABS, ABS_Y, uy), (ABS, ABS_PRESSURE, pressure)]))
        for k in range(1, round(press / 0.010)):
            frames.append((t + k * 0.010, [(ABS, MT_PRESSURE, pressure - k), (ABS, ABS_PRESSURE, pressure - k)]))
        t = frames[-1][0]
        if tap == 1:
            frames.append((t + 0.010, [(ABS, TRACKING, -1), (KEY, BTN_TOUCH, 0), (KEY, TOOL_FINGER, 0), (ABS, ABS_PRESSURE, 0)]))
        t += rng.uniform(0.20, 0.28)
    return frames


ALEX = "fixtures/chromiumos/alex/click-any_angle_click.tap-alex-user-20120430_114808.evemu"
TOOL_WIDTH = 0x1C


def synaptics_without_mt_pressure(header):
    """alex's description without ABS_MT_PRESSURE, and with no resolution: the Synaptics pad of
    issue 65 (2 slots, whole-touch pressure 0-260, tool width 0-15)."""
    out = []
    for line in header:
        if line.startswith("B: 03 "):
            line = "B: 03 03 00 00 11 00 80 60 02\n"
        if line.startswith("A: 3a "):
            continue
        if line.startswith("A: 18 "):
            line = "A: 18 0 260 0 0 0\n"
        if line.startswith("A: 1c "):
            line = "A: 1c 0 16 0 0 0\n"
        if line.startswith("A: "):
            parts = line.split()
            parts[-1] = "0"
            line = " ".join(parts) + "\n"
        out.append(line)
    return out


def lift4(rng, first, n=0):
    """Issue 65's item 4, as evemu events: five taps sliding as they lift, 12.6 ms reports, on
    alex's axes (x 1472-5472, y 1408-4448; 69 x 50 mm assumed: 58 and 61 units/mm)."""
    import math
    ux, uy = (5472 - 1472) / 69.0, (4448 - 1408) / 50.0
    frames, t = [], 0.0
    dt = 0.0126
    for tap in range(5):
        x, y = rng.uniform(12, 57), rng.uniform(8, 40)
        peak = rng.randint(70, 110)
        rise = rng.choice((1, 2))                 # 12.6 or 25.2 ms to the peak
        hold = rng.uniform(0.045, 0.100)
        roll, roll_angle = rng.uniform(1.5, 2.4), rng.uniform(0, 2 * math.pi)
        slide, slide_angle = rng.uniform(1.0, 4.5), rng.uniform(0, 2 * math.pi)
        width_top = rng.randint(11, 15)
        reports = []                              # (x mm, y mm, pressure, width, touching)
        for k in range(rise):
            reports.append((x, y, round(peak * (k + 1) / (rise + 1)) + 10, 4, True))
        steps = max(1, round(hold / dt))
        for k in range(steps + 1):
            f = k / steps
            reports.append((x + roll * f * math.cos(roll_angle), y + roll * f * math.sin(roll_angle),
                            peak + rng.randint(-3, 3), 4, True))
        rx, ry = reports[-1][0], reports[-1][1]
        falls = [0.60, 0.26]
        for share in falls:
            reports.append((rx, ry, round(peak * share), 4 + (1 if share < 0.3 else 0), True))
        # Below 25: BTN_TOUCH up, and the point slides while the width grows.
        per = slide / 3
        for k, share in enumerate((0.10, 0.05, 0.05), start=1):
            reports.append((rx + per * k * math.cos(slide_angle), ry + per * k * math.sin(slide_angle),
                            max(1, round(peak * share)), 4 + round((width_top - 4) * k / 3), False))
        touching = False
        for i, (px, py, p, w, touch) in enumerate(reports):
            vx, vy = int(round(1472 + px * ux)), int(round(1408 + py * uy))
            events = []
            if i == 0:
                events += [(ABS, SLOT, 0), (ABS, TRACKING, 100 + tap)]
            events += [(ABS, MT_X, vx), (ABS, MT_Y, vy)]
            if touch != touching:
                events.append((KEY, BTN_TOUCH, 1 if touch else 0))
                touching = touch
            if i == 0:
                events.append((KEY, TOOL_FINGER, 1))
            events += [(ABS, ABS_X, vx), (ABS, ABS_Y, vy), (ABS, ABS_PRESSURE, p), (ABS, TOOL_WIDTH, w)]
            frames.append((round(t + i * dt, 6), events))
        t += len(reports) * dt
        frames.append((round(t, 6), [(ABS, TRACKING, -1), (KEY, TOOL_FINGER, 0), (ABS, ABS_PRESSURE, 0), (ABS, TOOL_WIDTH, 0)]))
        t += rng.uniform(0.45, 0.60)
    return frames


def jump6(rng, first, n=0):
    """Issue 65's item 6, as evemu events, on the link Atmel pad (2040 x 1360, 20 units/mm)."""
    u = 20.0
    x, y = (40.0, 12.0) if first else (rng.uniform(15, 65), rng.uniform(6, 20))
    apart = 20.0
    frames = []
    fingers = [(x, y), (x + apart, y)]
    ids = [(ABS, SLOT, 0), (ABS, TRACKING, 1), (ABS, MT_X, int(round(fingers[0][0] * u))), (ABS, MT_Y, 6 * 1360), (ABS, MT_PRESSURE, 60),
           (ABS, SLOT, 1), (ABS, TRACKING, 2), (ABS, MT_X, int(round(fingers[1][0] * u))), (ABS, MT_Y, 6 * 1360), (ABS, MT_PRESSURE, 60),
           (KEY, BTN_TOUCH, 1), (KEY, TOOL_DOUBLE, 1)]
    frames.append((0.0, ids))
    t = 0.014
    ys = [y]
    for step in range(2):
        ys.append(ys[-1] + rng.uniform(11.5, 14.3))
    for k, yy in enumerate(ys):
        events = []
        for slot, (fx, _) in enumerate(fingers):
            events += [(ABS, SLOT, slot), (ABS, MT_Y, int(round(yy * u))), (ABS, MT_PRESSURE, 60 + k)]
        frames.append((round(t, 6), events))
        t += rng.uniform(0.011, 0.012)
    frames.append((0.045, [(ABS, SLOT, 0), (ABS, TRACKING, -1), (ABS, SLOT, 1), (ABS, TRACKING, -1),
                           (KEY, BTN_TOUCH, 0), (KEY, TOOL_DOUBLE, 0)]))
    return frames


def ease5(rng, first, n=0):
    """Issue 65's item 5, second case, as evemu events: five 55 ms taps on the link Atmel pad
    (2040 x 1360, 20 units/mm, pressure 0-255), each four reports 14 ms apart whose last presses
    96% of the peak, which the report before it pressed."""
    u = 20.0
    frames, t = [], 0.0
    for tap in range(5):
        x, y = (40.0, 30.0) if first and tap == 0 else (rng.uniform(15, 87), rng.uniform(10, 52))
        peak = rng.randint(40, 80)
        pressures = [round(peak * rng.uniform(0.55, 0.75)), round(peak * rng.uniform(0.85, 0.97)), peak, round(peak * 0.96)]
        for k, p in enumerate(pressures):
            ux, uy = int(round((x + rng.uniform(-0.05, 0.05)) * u)), int(round((y + rng.uniform(-0.05, 0.05)) * u))
            events = [(ABS, SLOT, 0)]
            if k == 0:
                events.append((ABS, TRACKING, 10 + tap))
            events += [(ABS, MT_X, ux), (ABS, MT_Y, uy), (ABS, MT_PRESSURE, p)]
            if k == 0:
                events += [(KEY, BTN_TOUCH, 1), (KEY, TOOL_FINGER, 1)]
            events += [(ABS, ABS_X, ux), (ABS, ABS_Y, uy), (ABS, ABS_PRESSURE, p)]
            frames.append((round(t + k * 0.014, 6), events))
        frames.append((round(t + 0.055, 6), [(ABS, SLOT, 0), (ABS, TRACKING, -1), (KEY, BTN_TOUCH, 0), (KEY, TOOL_FINGER, 0),
                                             (ABS, ABS_PRESSURE, 0)]))
        t += 0.055 + rng.uniform(0.6, 0.9)
    return frames


def low5(rng, first, n=0):
    """Issue 65's item 5, first case, as evemu events: three 100 ms fingertip taps 92% of the
    way down alex's pad (69 x 50 mm assumed: x 1472-5472, y 1408-4448), each pressing 8% of
    the range (255) as it lands, 22% at its hardest, and easing off, every 12.6 ms."""
    ux, uy = (5472 - 1472) / 69.0, (4448 - 1408) / 50.0
    frames, t = [], 0.0
    dt = 0.0126
    for tap in range(3):
        x, y = (34.0, 46.0) if first and tap == 0 else (rng.uniform(10, 59), 50 * rng.uniform(0.915, 0.925))
        shares = [0.08, 0.14, 0.20, 0.22, 0.21, 0.18, 0.14, 0.10]
        for k, share in enumerate(shares):
            p = round(255 * share)
            vx = int(round(1472 + (x + rng.uniform(-0.05, 0.05)) * ux))
            vy = int(round(1408 + (y + rng.uniform(-0.05, 0.05)) * uy))
            events = [(ABS, SLOT, 0)]
            if k == 0:
                events.append((ABS, TRACKING, 20 + tap))
            events += [(ABS, MT_X, vx), (ABS, MT_Y, vy), (ABS, MT_PRESSURE, p)]
            if k == 0:
                events += [(KEY, BTN_TOUCH, 1), (KEY, TOOL_FINGER, 1)]
            events += [(ABS, ABS_X, vx), (ABS, ABS_Y, vy), (ABS, ABS_PRESSURE, p)]
            frames.append((round(t + k * dt, 6), events))
        frames.append((round(t + 0.100, 6), [(ABS, SLOT, 0), (ABS, TRACKING, -1), (KEY, BTN_TOUCH, 0), (KEY, TOOL_FINGER, 0),
                                             (ABS, ABS_PRESSURE, 0)]))
        t += 0.100 + rng.uniform(0.6, 0.9)
    return frames


PORTRAIT_SCREEN = ["N: Portrait touchscreen\n", "I: 0018 0eef 0001 0100\n", "P: 02 00 00 00 00 00 00 00\n",
                   "B: 00 0b 00 00 00 00 00 00 00\n", "B: 01 00 00 00 00 00 00 00 00\n", "B: 01 00 00 00 00 00 00 00 00\n",
                   "B: 01 00 00 00 00 00 00 00 00\n", "B: 01 00 00 00 00 00 00 00 00\n", "B: 01 00 00 00 00 00 00 00 00\n",
                   "B: 01 00 04 00 00 00 00 00 00\n", "B: 03 03 00 00 00 00 80 60 06\n",
                   "A: 00 0 1595 0 0 11\n", "A: 01 0 2563 0 0 11\n", "A: 2f 0 9 0 0 0\n", "A: 35 0 1595 0 0 11\n",
                   "A: 36 0 2563 0 0 11\n", "A: 39 0 65535 0 0 0\n", "A: 3a 0 255 0 0 0\n"]


def hook8(rng, first, n=0):
    """Issue 65's item 8, as evemu events: (time, [(type, code, value)]) per frame, 11 units/mm."""
    import math
    u = 11.0
    x, y = (80.0, 190.0) if first else (rng.uniform(75, 105), rng.uniform(170, 200))
    lean = math.radians(40.0 if first else rng.uniform(37, 41))    # left of straight up
    whole = math.radians(27.0 if first else rng.uniform(26, 28))   # the whole stroke, left of up
    times, t, k = [0.0], 0.0, 0
    while t < 0.208:
        t = min(0.208, t + (0.0075 if k % 2 == 0 else 0.0091))
        times.append(round(t, 6))
        k += 1
    # The hook: 20 mm in 83 ms, the heading 18 -> 74 degrees above +x (y up).
    def hook(tt):
        steps = 200
        px = py = 0.0
        for i in range(steps):
            s0 = min(tt, 0.083) * i / steps
            heading = math.radians(18 + (74 - 18) * s0 / 0.083)
            ds = 20.0 * (min(tt, 0.083) / steps) / 0.083
            px += ds * math.cos(heading)
            py += ds * math.sin(heading)
        return px, py
    hx, hy = hook(0.083)
    v0 = 0.020 / 0.083 * 1000                                       # mm/s at the end of the hook
    duration = 0.208 - 0.083
    # The run's length puts the whole stroke `whole` left of up (the description's 27 degrees):
    # 75 mm at 40 degrees; accelerating evenly from v0, it ends at 0.9-1.4 m/s.
    length = (hx + math.tan(whole) * hy) / (math.sin(lean) - math.tan(whole) * math.cos(lean))
    top = (2 * length / duration - v0) / 1000
    accel = (top * 1000 - v0) / duration
    def run(tt):
        d = v0 * tt + accel * tt * tt / 2
        wobble = math.radians(rng.uniform(-1.5, 1.5)) if tt > 0 else 0.0
        a = lean + wobble
        return -d * math.sin(a), d * math.cos(a)
    points = []
    for tt in times:
        if tt <= 0.083:
            dx, dy = hook(tt)
        else:
            rx, ry = run(tt - 0.083)
            dx, dy = hx + rx, hy + ry
        points.append((tt, x + dx, y - dy))
    return one_finger(points, u, 0.2155)


ALPS = "fixtures/recordings/evemu-devices/touchpads/AlpsPS2 ALPS GlidePoint.2-finger-tap.events"
ALPS_UNITS = (2000 / 69.0, 1400 / 50.0)


def box_frames(reports):
    """Semi-MT events from (time, [finger positions in mm], slot-0 position override or None,
    pressure) reports: the box's corners, BTN_TOOL_* by the finger count, BTN_TOUCH."""
    ux, uy = ALPS_UNITS
    frames, ids, tools, last = [], [None, None], 0, {}
    next_id = [1]
    for t, fingers, slot0, pressure in reports:
        events = []
        count = len(fingers)
        if count == 0:
            corners = []
        elif count == 1:
            corners = [fingers[0]]
        else:
            xs, ys = [f[0] for f in fingers], [f[1] for f in fingers]
            corners = [(min(xs), max(ys)), (max(xs), min(ys))]
        if slot0 is not None and corners:
            corners[0] = slot0
        for slot in range(2):
            want = slot < len(corners)
            if not want and ids[slot] is not None:
                events += [(ABS, SLOT, slot), (ABS, TRACKING, -1)]
                ids[slot] = None
                last.pop(slot, None)
            elif want:
                vx, vy = int(round(corners[slot][0] * ux)), int(round(corners[slot][1] * uy))
                slot_events = []
                if ids[slot] is None:
                    ids[slot] = next_id[0]
                    next_id[0] += 1
                    slot_events.append((ABS, TRACKING, ids[slot]))
                if last.get(slot, (None, None))[0] != vx:
                    slot_events.append((ABS, MT_X, vx))
                if last.get(slot, (None, None))[1] != vy:
                    slot_events.append((ABS, MT_Y, vy))
                last[slot] = (vx, vy)
                if slot_events:
                    events += [(ABS, SLOT, slot)] + slot_events
        if count != tools:
            if tools:
                events.append((KEY, TOOLS[tools - 1], 0))
            if count:
                events.append((KEY, TOOLS[count - 1], 1))
            if (tools > 0) != (count > 0):
                events.append((KEY, BTN_TOUCH, 1 if count else 0))
            tools = count
        if corners:
            events += [(ABS, ABS_X, int(round(corners[0][0] * ux))), (ABS, ABS_Y, int(round(corners[0][1] * uy)))]
        events.append((ABS, ABS_PRESSURE, pressure if count else 0))
        frames.append((round(t, 6), events))
    return frames


def box3(rng, first, n=0):
    """Issue 65's item 3, two-finger taps: as evemu events on the ALPS GlidePoint's axes."""
    reports, t = [], 0.0
    for tap in range(5):
        x, y = rng.uniform(30, 50), rng.uniform(15, 35)
        apart = rng.uniform(17, 18)
        a, b = (x, y), (x - apart, y + rng.uniform(-1, 1))      # the second on the first's left
        together = tap in (1, 3)
        press = rng.uniform(0.070, 0.130)
        p = rng.randint(40, 70)
        gap = lambda: rng.uniform(0.021, 0.025)
        start = t
        if together:
            reports.append((t, [a, b], None, p))
        else:
            reports.append((t, [a], None, p))
            t += rng.uniform(0.022, 0.025)
            # The count changes; slot 0 stays where it was for one report, then jumps.
            reports.append((t, [a, b], a, p))
        while True:
            t += gap()
            if t - start >= press:
                break
            reports.append((t, [a, b], None, p))
        if not together:
            # 2 -> 1: the second lifts; slot 0 stays at the box's corner one report, then jumps back.
            xs, ys = [a[0], b[0]], [a[1], b[1]]
            reports.append((t, [a], (min(xs), max(ys)), p))
            t += gap()
            reports.append((t, [a], None, p))
            t += gap()
        reports.append((t, [], None, 0))
        t += rng.uniform(0.6, 0.8)
    return box_frames(reports)


def inline3(rng, first, n=0):
    """Issue 65's item 3, inline fingers: as evemu events on the ALPS GlidePoint's axes."""
    reports, t = [], 0.0
    a = (rng.uniform(30, 45), rng.uniform(30, 38))
    b = (a[0] - 5 + rng.uniform(-0.5, 0.5), a[1] + 6 + rng.uniform(-0.5, 0.5))
    p = rng.randint(40, 70)
    gap = lambda: rng.uniform(0.021, 0.025)
    reports.append((t, [a], None, p))
    t += gap()
    reports.append((t, [a], None, p))
    t += gap()
    reports.append((t, [a, b], a, p))          # the count changes; slot 0 jumps in the next report
    start = t
    upper = list(a)
    while t - start < 0.218:
        t += gap()
        upper[1] = a[1] - 7 * min(1.0, (t - start) / 0.218)
        reports.append((t, [tuple(upper), b], None, p))
    total = rng.uniform(20, 34)
    moved = 0.0
    lower = list(b)
    while moved < total:
        dt = gap()
        t += dt
        step = min(0.060 * dt * 1000, total - moved)
        moved += step
        upper[1] -= step
        lower[1] -= step
        reports.append((t, [tuple(upper), tuple(lower)], None, p))
    t += gap()
    reports.append((t, [], None, 0))
    return box_frames(reports)


def thumb2(rng, first, n=0):
    """Issue 65's item 2 (the thumb), as evemu events: palm2's with a resting thumb in slot 0."""
    return palm2(rng, first, n, thumb=True)


def palm2(rng, first, n=0, thumb=False):
    """Issue 65's item 2 (the palm), as evemu events on alex's axes (69 x 50 mm assumed)."""
    import math
    ux, uy = (5472 - 1472) / 69.0, (4448 - 1408) / 50.0
    dt = 0.0125
    def at(x, y):
        return int(round(1472 + x * ux)), int(round(1408 + y * uy))
    px = rng.uniform(6, 11) if rng.random() < 0.5 else rng.uniform(57, 65)
    py = rng.uniform(42, 49) if rng.random() < 0.5 else rng.uniform(6, 12)
    if thumb:
        px, py = rng.uniform(15, 55), 0.86 * 50
    thumb_pressure = rng.randint(round(0.24 * 199), round(0.43 * 199))
    rise = rng.uniform(0.1, 0.5)
    top_p, top_w = rng.uniform(0.72, 0.83) * 260, rng.randint(10, 15)
    creep, creep_angle = rng.uniform(3, 8), rng.uniform(0, 2 * math.pi)
    wait = rng.uniform(0.45, 1.8)
    staged = n % 2 == 1                                   # DOUBLETAP first
    stage_gap = rng.uniform(0.030, 0.146)
    late_position = rng.uniform(0.0, 0.190)
    distance = rng.uniform(13, 45) * (1 if n < 2 else -1)  # down, or up
    speed = rng.uniform(40, 160)
    stroke = min(0.8, max(0.35, abs(distance) / speed))
    speed = abs(distance) / stroke
    triple_ends = rng.uniform(0.0, 0.075)
    fx, fy = rng.uniform(25, 45), (rng.uniform(10, 18) if distance > 0 else rng.uniform(30, 40))
    frames, t = [], 0.0
    palm = (px, py)
    tools = 0
    slot1 = None                                          # (x, y) once its position is reported
    slot1_since = None
    last = {}
    def tool_events(count):
        nonlocal tools
        ev = []
        if count != tools:
            if tools:
                ev.append((KEY, TOOLS[tools - 1], 0))
            if count:
                ev.append((KEY, TOOLS[count - 1], 1))
            tools = count
        return ev
    end_palm = wait + (stage_gap if staged else 0) + stroke + 0.3
    while t <= end_palm + 1e-9:
        events = []
        # The palm, slot 0.
        k = min(1.0, t / rise)
        if thumb:
            k, creep = 1.0, 0.0
        cx = px + creep * k * math.cos(creep_angle) + (rng.uniform(-0.3, 0.3) if k >= 1 else 0)
        cy = py + creep * k * math.sin(creep_angle) + (rng.uniform(-0.3, 0.3) if k >= 1 else 0)
        vx, vy = at(cx, cy)
        events += [(ABS, SLOT, 0)]
        if t == 0:
            events += [(ABS, TRACKING, 1)]
        if last.get(0, (None, None))[0] != vx:
            events.append((ABS, MT_X, vx))
        if last.get(0, (None, None))[1] != vy:
            events.append((ABS, MT_Y, vy))
        last[0] = (vx, vy)
        pressure = int(round(0.05 * 260 + (top_p - 0.05 * 260) * k))
        width = int(round(4 + (top_w - 4) * k))
        if thumb:
            events.append((ABS, MT_PRESSURE, thumb_pressure))
            pressure, width = int(thumb_pressure * 260 / 199), 6
        # The fingers, slot 1.
        landed = t >= wait
        count = 1
        if landed:
            count = 2 if staged and t < wait + stage_gap else 3
            since = t - wait - (stage_gap if staged else 0)
            ends_at = stroke
            if since >= ends_at:
                count = 1
            elif since >= ends_at - triple_ends:
                count = 2
            if slot1_since is None:
                slot1_since = t
                events += [(ABS, SLOT, 1), (ABS, TRACKING, 2)] + ([(ABS, MT_PRESSURE, rng.randint(50, 80))] if thumb else [])
            if since < ends_at:
                if t - slot1_since >= late_position:
                    moved = max(0.0, since) * speed * (1 if distance > 0 else -1)
                    sx, sy = at(fx, fy + moved)
                    ev = []
                    if last.get(1, (None, None))[0] != sx:
                        ev.append((ABS, MT_X, sx))
                    if last.get(1, (None, None))[1] != sy:
                        ev.append((ABS, MT_Y, sy))
                    last[1] = (sx, sy)
                    if ev:
                        events += [(ABS, SLOT, 1)] + ev
            elif 1 in last or slot1_since is not None:
                if slot1_since != -1:
                    events += [(ABS, SLOT, 1), (ABS, TRACKING, -1)]
                    slot1_since = -1
        if t == 0:
            events.append((KEY, BTN_TOUCH, 1))
        events += tool_events(count)
        events += [(ABS, ABS_X, vx), (ABS, ABS_Y, vy), (ABS, ABS_PRESSURE, pressure), (ABS, TOOL_WIDTH, width)]
        frames.append((round(t, 6), events))
        t += dt
    frames.append((round(t, 6), [(ABS, SLOT, 0), (ABS, TRACKING, -1), (KEY, BTN_TOUCH, 0)] + tool_events(0)
                   + [(ABS, ABS_PRESSURE, 0), (ABS, TOOL_WIDTH, 0)]))
    return frames


DESCRIBED = {"rise3": (CYPS2, rise3, 4, {"device": "cyps2", "label": "tap", "touches": 3, "repetitions": 1, "direction": None},
                       "issue 45 item 1: a three-finger tap on a Cypress PS/2 trackpad, pressure rising at every report"),
             "stagger2": (None, stagger2, 4, {"device": "atmel-screen", "label": "pinch-out", "touches": 2, "repetitions": 1,
                                              "direction": None, "also": ["pan/1", "pan/2"]},
                          "issue 45 item 2: a pinch on a touchscreen whose second finger lands 175 ms after the first"),
             "curve1": ("tablet", curve1, 4, {"device": "tablet-screen", "label": "swipe", "touches": 1, "repetitions": 1,
                                              "direction": "up"},
                        "issue 45 item 3: a one-finger flick up on a tablet that starts right and up, then curves up and left"),
             "pointer1": (LINK, pointer1, 4, {"device": "link", "label": "pan", "touches": 1, "repetitions": 1, "direction": None},
                          "issue 65 item 1: one finger moving the pointer, a quick stroke then looping or stopping"),
             "noslot7": (LINK, noslot7, 4, {"device": "link", "label": "tap", "touches": 1, "repetitions": 2, "direction": None},
                         "issue 65 item 7: two taps on one slot, the first one's lift missing"),
             "lift4": (ALEX, lift4, 4, {"device": "synaptics-nomtp", "label": "tap", "touches": 1, "repetitions": 5, "direction": None},
                       "issue 65 item 4: five taps sliding as they lift, BTN_TOUCH up below pressure 25, on a pad with no pressure per contact"),
             "ease5": (LINK, ease5, 4, {"device": "link", "label": "tap", "touches": 1, "repetitions": 5, "direction": None},
                       "issue 65 item 5: five 55 ms taps whose last of four 14 ms reports presses 96% of the peak, after a heavier one"),
             "low5": (ALEX, low5, 4, {"device": "alex", "label": "tap", "touches": 1, "repetitions": 3, "direction": None},
                      "issue 65 item 5: three 100 ms fingertip taps 92% of the way down a 50 mm pad, pressing 8-22%"),
             "jump6": (LINK, jump6, 4, {"device": "link", "label": "swipe", "touches": 2, "repetitions": 1, "direction": "down"},
                       "issue 65 item 6: a fast two-finger swipe down whose first report is out of range"),
             "hook8": ("portrait", hook8, 4, {"device": "portrait-screen", "label": "swipe", "touches": 1, "repetitions": 1, "direction": "up"},
                       "issue 65 item 8: a flick that hooks right and up, then runs 37-44 degrees left of up, a swipe up"),
             "box3": (ALPS, box3, 4, {"device": "alps-semi-mt", "label": "tap", "touches": 2, "repetitions": 5, "direction": None},
                      "issue 65 item 3: five two-finger taps on a semi-multitouch pad, the old id jumping a report after each count change"),
             "inline3": (ALPS, inline3, 4, {"device": "alps-semi-mt", "label": "pan", "touches": 2, "repetitions": 1, "direction": "up"},
                         "issue 65 item 3: inline fingers on a semi-multitouch pad, the lower corner still while the upper moves, then both up"),
             "palm2": (ALEX, palm2, 4, {"device": "synaptics-nomtp", "label": "pan", "touches": 2, "repetitions": 1, "direction": None},
                       "issue 65 item 2: a palm resting in a corner while two fingers on one slot scroll"),
             "thumb2": (ALEX, thumb2, 4, {"device": "synaptics-mtp199", "label": "pan", "touches": 2, "repetitions": 1, "direction": None},
                        "issue 65 item 2: a thumb resting at 86% of the height while two fingers on one slot scroll")}

# Directions that differ between a described variant's files, by their number.
DIRECTIONS = {"palm2": lambda n: "down" if n < 2 else "up", "thumb2": lambda n: "down" if n < 2 else "up"}


def described(out_dir, records):
    """The variants DESCRIBED names: each from its device's description and its maker."""
    for name, (device, make, count, label, note) in DESCRIBED.items():
        folder = os.path.join(out_dir, name)
        os.makedirs(folder, exist_ok=True)
        for old in os.listdir(folder):
            if old.endswith(".evemu"):
                os.remove(os.path.join(folder, old))
        header = {None: ATMEL_SCREEN, "tablet": TABLET_SCREEN, "portrait": PORTRAIT_SCREEN}.get(device) or [
            line for line in open(device) if line[:2] in ("N:", "I:", "P:", "B:", "A:")]
        if device == ALEX and name == "low5":
            header = without_resolution(header)
        elif device == ALEX:
            header = synaptics_without_mt_pressure(header)
            if name == "thumb2":
                header = [("B: 03 03 00 00 11 00 80 60 06\n" if line.startswith("B: 03 ") else line) for line in header]
                header.insert(next(i for i, line in enumerate(header) if line.startswith("A: 39 ")) + 1, "A: 3a 0 199 0 0 0\n")
        for n in range(count):
            seed = zlib.crc32(f"{name}:{n}".encode())
            rel = f"{name}/{name}-{n}.evemu"
            source = {None: "# The device's description written from the issue's: a 272 x 181 mm panel at 15 units/mm.\n",
                      LINK: f"# The device's description from {LINK} (GPL-2.0-only, fixtures/chromiumos/LICENSE).\n",
                      ALEX: f"# The device's description from {ALEX} without ABS_MT_PRESSURE, resolutions 0, ABS_PRESSURE 0-260 (GPL-2.0-only).\n",
                      "alex-nores": f"# The device's description from {ALEX} with resolutions 0: 69 x 50 mm assumed (GPL-2.0-only).\n",
                      "tablet": "# The device's description written for the variant: a 233 x 145 mm panel at 11 units/mm.\n",
                      "portrait": "# The device's description written from the issue's: a 145 x 233 mm panel at 11 units/mm, 10 slots.\n"}.get(
                "alex-nores" if name == "low5" else device, f"# The device's description from {device} (MIT, fixtures/recordings/evemu-devices/LICENSE).\n")
            lines = [f"# EVEMU 1.3\n# Variant '{name}' {n} by scripts/make-variants.py (seed {seed}): {note}.\n", source] + header
            maker = make if make.__code__.co_argcount == 2 else (lambda rng, first, make=make, n=n: make(rng, first, n))
            for t, events in maker(random.Random(seed), n == 0):
                for typ, code, value in events + [(SYN, 0, 0)]:
                    lines.append(f"E: {t + 0.000001:.6f} {typ:04x} {code:04x} {value}\n")
            with open(os.path.join(out_dir, rel), "w") as f:
                f.writelines(lines)
            record = {**label, "file": rel, "flags": [], "notes": f"{name} variant {n}: {note}"}
            if name in DIRECTIONS:
                record["direction"] = DIRECTIONS[name](n)
            records.append(record)


def main():
    corpus = sys.argv[1] if len(sys.argv) > 1 else "fixtures/chromiumos"
    labels = json.load(open(os.path.join(corpus, "labels.json")))
    picked = []
    for (label, touches), n in SOURCES.items():
        # Clean strokes: not the palm and thumb studies (a palm is a variant of its own).
        candidates = sorted((x for x in labels if x["device"] == "link" and x["label"] == label and x["touches"] == touches
                             and not x["flags"] and not os.path.basename(x["file"]).startswith("palm")),
                            key=lambda x: x["file"])
        picked += candidates[:n]
    out_dir = os.path.join(corpus, "variants")
    # Every variant file is written anew: one a source or a rule no longer makes must not stay.
    for name in VARIANTS:
        folder = os.path.join(out_dir, name)
        for old in os.listdir(folder) if os.path.isdir(folder) else []:
            if old.endswith(".evemu"):
                os.remove(os.path.join(folder, old))
    records = []
    for source in picked:
        header, frames = read(os.path.join(corpus, source["file"]))
        base = states(frames)
        for name, make in VARIANTS.items():
            if name in ONLY and (source["label"], source["touches"]) not in ONLY[name]:
                continue
            seed = zlib.crc32(f"{source['file']}:{name}".encode())
            variant = make(base, random.Random(seed), geometry(header))
            if variant is None:
                continue
            rel = f"{name}/{os.path.basename(source['file'])}"
            os.makedirs(os.path.join(out_dir, name), exist_ok=True)
            note = [f"# Variant '{name}' of {source['file']} by scripts/make-variants.py (seed {seed}).\n"]
            write(os.path.join(out_dir, rel), note + HEADERS.get(name, lambda h: h)(header), variant, geometry(header)[4])
            record = {k: source[k] for k in ("device", "label", "touches", "repetitions", "direction")}
            if name in RELABEL:
                record["label"], record["touches"], record["repetitions"] = RELABEL[name](source)
                record["direction"] = None
            if name in ALSO:
                record["also"] = ALSO[name]
            records.append({**record, "file": rel, "flags": [], "notes": f"{name} variant of {source['file']}"})
    described(out_dir, records)
    with open(os.path.join(out_dir, "labels.json"), "w") as f:
        json.dump(records, f, indent=1)
        f.write("\n")
    print(f"{len(records)} variants of {len(picked)} recordings in {out_dir}")


if __name__ == "__main__":
    main()
