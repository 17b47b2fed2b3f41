#!/usr/bin/env python3
"""Writes fixtures/synthetic/*.yaml: libinput record v1 files for cases the real
recordings lack. Deterministic; run from the repository root. Each file's header
comment says what it exercises."""

EV_SYN, EV_KEY, EV_ABS = 0, 1, 3
SYN_REPORT, SYN_MT_REPORT, SYN_DROPPED = 0, 2, 3
ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR = 0, 1, 0x2f, 0x30
ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TOOL_TYPE, ABS_MT_TRACKING_ID, ABS_MT_PRESSURE = 0x35, 0x36, 0x37, 0x39, 0x3a
BTN_TOUCH, BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP = 0x14a, 0x145, 0x14d
MT_TOOL_PALM = 2


def device_block(name, codes, absinfo, props, udev):
    out = ["- node: /dev/input/event9", "  evdev:", f'    name: "{name}"', "    id: [3, 1, 2, 1]", "    codes:"]
    for t, cs in codes.items():
        out.append(f"      {t}: [{', '.join(map(str, cs))}]")
    out.append("    absinfo:")
    for c, v in absinfo.items():
        out.append(f"      {c}: [{', '.join(map(str, v))}]")
    out.append(f"    properties: [{', '.join(map(str, props))}]")
    out += ["  udev:", "    properties:"] + [f"    - {u}" for u in udev] + ["  quirks:", "  events:"]
    return out


def frames_block(frames):
    out = []
    for t, events in frames:
        out.append("  - evdev:")
        for (typ, code, value) in events + [(EV_SYN, SYN_REPORT, 0)]:
            out.append(f"    - [{t // 1000000:3d}, {t % 1000000:6d}, {typ:3d}, {code:3d}, {value:6d}]")
    return out


def write(path, comment, blocks):
    lines = [f"# {c}" for c in comment] + ["version: 1", f"ndevices: {len(blocks)}", "devices:"]
    for b in blocks:
        lines += b
    open(path, "w").write("\n".join(lines) + "\n")


# A 10-slot touchscreen, 300 x 200 mm at 10 units/mm.
TS_CODES = {0: [0, 1, 2, 3], 1: [BTN_TOUCH], 3: [ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR, ABS_MT_POSITION_X,
                                                   ABS_MT_POSITION_Y, ABS_MT_TOOL_TYPE, ABS_MT_TRACKING_ID, ABS_MT_PRESSURE]}
TS_ABS = {ABS_X: [0, 3000, 0, 0, 10], ABS_Y: [0, 2000, 0, 0, 10], ABS_MT_SLOT: [0, 9, 0, 0, 0],
          ABS_MT_TOUCH_MAJOR: [0, 255, 0, 0, 0], ABS_MT_POSITION_X: [0, 3000, 0, 0, 10],
          ABS_MT_POSITION_Y: [0, 2000, 0, 0, 10], ABS_MT_TOOL_TYPE: [0, 2, 0, 0, 0],
          ABS_MT_TRACKING_ID: [0, 65535, 0, 0, 0], ABS_MT_PRESSURE: [0, 255, 0, 0, 0]}
TS = ("Synthetic 10-finger Touchscreen", TS_CODES, TS_ABS, [1], ["ID_INPUT=1", "ID_INPUT_TOUCHSCREEN=1"])


def down(slot, tid, x, y):
    return [(EV_ABS, ABS_MT_SLOT, slot), (EV_ABS, ABS_MT_TRACKING_ID, tid),
            (EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_MT_POSITION_Y, y), (EV_ABS, ABS_MT_PRESSURE, 40)]


def move(slot, x, y):
    return [(EV_ABS, ABS_MT_SLOT, slot), (EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_MT_POSITION_Y, y)]


def up(slot):
    return [(EV_ABS, ABS_MT_SLOT, slot), (EV_ABS, ABS_MT_TRACKING_ID, -1)]


# 10 fingers land one by one (10 ms apart), all drag 20 mm down together, then lift.
frames = []
for i in range(10):
    frames.append((i * 10000, down(i, 100 + i, 300 + i * 250, 500) + ([(EV_KEY, BTN_TOUCH, 1)] if i == 0 else [])))
for step in range(1, 11):
    ev = []
    for i in range(10):
        ev += move(i, 300 + i * 250, 500 + step * 20)
    frames.append((100000 + step * 10000, ev))
lift = []
for i in range(10):
    lift += up(i)
frames.append((220000, lift + [(EV_KEY, BTN_TOUCH, 0)]))
write("fixtures/synthetic/10-finger-drag-down.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): 10 fingers land 10 ms apart,",
       "drag 20 mm down together in 10 steps and lift in one frame."],
      [device_block(*TS) + frames_block(frames)])

# SYN_DROPPED mid-gesture: two fingers down; the kernel's buffer overflows in the middle
# of a frame; events up to the next SYN_REPORT are lost; slot 0's finger lifts and
# lands again (new tracking id) after the drop, slot 1's goes on.
frames = [
    (0, down(0, 7, 1000, 1000) + down(1, 8, 2000, 1000) + [(EV_KEY, BTN_TOUCH, 1)]),
    (10000, move(0, 1010, 1000) + move(1, 2010, 1000)),
    (20000, move(0, 1020, 1000) + [(EV_SYN, SYN_DROPPED, 0)] + move(1, 2020, 1000)),
    (30000, move(0, 1030, 1000) + move(1, 2030, 1000)),
    (40000, up(0)),
    (50000, down(0, 9, 1500, 1500)),
    (60000, move(0, 1510, 1500)),
    (70000, up(0) + up(1) + [(EV_KEY, BTN_TOUCH, 0)]),
]
write("fixtures/synthetic/syn-dropped-mid-gesture.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): SYN_DROPPED in the middle of a",
       "two-finger drag. Expected: both contacts cancelled at the next SYN_REPORT; slot 1's",
       "later motion ignored; slot 0 starts a new contact with tracking id 9."],
      [device_block(*TS) + frames_block(frames)])

# Palm: finger 1 touches and moves; finger 2 lands as a finger, then the firmware
# reclassifies it MT_TOOL_PALM; finger 3 lands as a palm from the start.
frames = [
    (0, down(0, 20, 1000, 1000) + [(EV_KEY, BTN_TOUCH, 1)]),
    (10000, down(1, 21, 2500, 1500)),
    (20000, move(0, 1010, 1000) + [(EV_ABS, ABS_MT_SLOT, 1), (EV_ABS, ABS_MT_TOUCH_MAJOR, 200),
                                    (EV_ABS, ABS_MT_TOOL_TYPE, MT_TOOL_PALM)]),
    (30000, move(0, 1020, 1000) + move(1, 2600, 1600)),
    (40000, [(EV_ABS, ABS_MT_SLOT, 2), (EV_ABS, ABS_MT_TRACKING_ID, 22), (EV_ABS, ABS_MT_TOOL_TYPE, MT_TOOL_PALM),
             (EV_ABS, ABS_MT_POSITION_X, 2800), (EV_ABS, ABS_MT_POSITION_Y, 1800)]),
    (50000, up(1) + up(2)),
    (60000, up(0) + [(EV_KEY, BTN_TOUCH, 0)]),
]
write("fixtures/synthetic/palm-during-touch.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): MT_TOOL_PALM. Expected: contact 2",
       "cancelled when it turns into a palm and never seen again; the palm in slot 2 never",
       "reported; contact 1 unaffected."],
      [device_block(*TS) + frames_block(frames)])

# Protocol A with two fingers crossing paths (no tracking ids): contacts must keep
# their identity by nearest position although the device lists them in swapped order.
PA_CODES = {0: [0, 1, 2, 3], 1: [BTN_TOUCH], 3: [ABS_X, ABS_Y, ABS_MT_POSITION_X, ABS_MT_POSITION_Y]}
PA_ABS = {ABS_X: [0, 4000, 0, 0, 20], ABS_Y: [0, 3000, 0, 0, 20],
          ABS_MT_POSITION_X: [0, 4000, 0, 0, 20], ABS_MT_POSITION_Y: [0, 3000, 0, 0, 20]}


def packet(x, y):
    return [(EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_MT_POSITION_Y, y), (EV_SYN, SYN_MT_REPORT, 0)]


frames = [(0, packet(1000, 1000) + [(EV_KEY, BTN_TOUCH, 1)])]
frames.append((10000, packet(1000, 1010) + packet(3000, 1000)))
frames.append((20000, packet(2990, 1020) + packet(1010, 1020)))   # listed in swapped order
frames.append((30000, packet(1020, 1030) + packet(2980, 1030)))
frames.append((40000, packet(2970, 1040)))                         # first finger lifted
frames.append((50000, [(EV_SYN, SYN_MT_REPORT, 0), (EV_KEY, BTN_TOUCH, 0)]))  # empty report: none left
write("fixtures/synthetic/protocol-a-two-fingers.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): multitouch protocol A, two",
       "fingers, reported in swapped order in one frame. Expected: 2 contacts whose ids follow",
       "their positions; the left one ends first, the right one at the empty SYN_MT_REPORT."],
      [device_block("Synthetic Protocol A Touchscreen", PA_CODES, PA_ABS, [1],
                    ["ID_INPUT=1", "ID_INPUT_TOUCHSCREEN=1"]) + frames_block(frames)])

# Two devices in one recording: a keyboard first, then a touchpad (2 slots, 100 x 60 mm).
KB = ("Synthetic Keyboard", {0: [0, 1, 2, 3], 1: [30, 31, 32]}, {}, [], ["ID_INPUT=1", "ID_INPUT_KEYBOARD=1"])
TP_CODES = {0: [0, 1, 2, 3], 1: [BTN_TOUCH, BTN_TOOL_FINGER, BTN_TOOL_DOUBLETAP, 0x110],
            3: [ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID]}
TP_ABS = {ABS_X: [0, 1000, 0, 0, 10], ABS_Y: [0, 600, 0, 0, 10], ABS_MT_SLOT: [0, 1, 0, 0, 0],
          ABS_MT_POSITION_X: [0, 1000, 0, 0, 10], ABS_MT_POSITION_Y: [0, 600, 0, 0, 10],
          ABS_MT_TRACKING_ID: [0, 65535, 0, 0, 0]}
kb = device_block(*KB)
kb = [l for l in kb if not l.startswith("    absinfo:")] + frames_block([(0, [(EV_KEY, 30, 1)]), (50000, [(EV_KEY, 30, 0)])])
tp = device_block("Synthetic Touchpad", TP_CODES, TP_ABS, [0], ["ID_INPUT=1", "ID_INPUT_TOUCHPAD=1"])
tp += ["  # Current time is 12:00:00"]
tp += frames_block([(0, down(0, 1, 500, 300) + [(EV_KEY, BTN_TOUCH, 1), (EV_KEY, BTN_TOOL_FINGER, 1)]),
                    (10000, move(0, 510, 300)),
                    (20000, up(0) + [(EV_KEY, BTN_TOUCH, 0), (EV_KEY, BTN_TOOL_FINGER, 0)])])
write("fixtures/synthetic/keyboard-and-touchpad.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): two devices; the keyboard",
       "comes first, so replay picks the touchpad (device 1) unless --device says otherwise."],
      [kb, tp])
print("written")

# A session on the kiosk of examples/kiosk.yaml: an 800 x 480 panel that, like the Atmel
# panel in fixtures/, reports no resolution. Each step exercises one rule of the layout.
KIOSK_CODES = {0: [0, 1, 2, 3], 1: [BTN_TOUCH], 3: [ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID]}
KIOSK_ABS = {ABS_X: [0, 799, 0, 0, 0], ABS_Y: [0, 479, 0, 0, 0], ABS_MT_SLOT: [0, 9, 0, 0, 0],
             ABS_MT_POSITION_X: [0, 799, 0, 0, 0], ABS_MT_POSITION_Y: [0, 479, 0, 0, 0],
             ABS_MT_TRACKING_ID: [0, 65535, 0, 0, 0]}
tid = [1000]


def touch(slot, x, y):
    tid[0] += 1
    return [(EV_ABS, ABS_MT_SLOT, slot), (EV_ABS, ABS_MT_TRACKING_ID, tid[0]),
            (EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_MT_POSITION_Y, y)]


def kiosk_tap(t, x, y):
    return [(t, touch(0, x, y) + [(EV_KEY, BTN_TOUCH, 1)]), (t + 80000, up(0) + [(EV_KEY, BTN_TOUCH, 0)])]


def kiosk_drag(t, start, end, fingers=1, duration=200000, steps=10):
    """fingers: list of (dx, dy) offsets from the centre path, moving apart by spread."""
    frames = [(t, sum((touch(i, start[0] + i * 100, start[1]) for i in range(fingers)), []) + [(EV_KEY, BTN_TOUCH, 1)])]
    for step in range(1, steps + 1):
        k = step / steps
        ev = []
        for i in range(fingers):
            ev += move(i, round(start[0] + i * 100 + (end[0] - start[0]) * k), round(start[1] + (end[1] - start[1]) * k))
        frames.append((t + duration * step // steps, ev))
    frames.append((t + duration + 10000, sum((up(i) for i in range(fingers)), []) + [(EV_KEY, BTN_TOUCH, 0)]))
    return frames


frames = []
frames += kiosk_tap(0, 206, 420)          # the play button, in its frame
frames += kiosk_tap(600000, 176, 420)     # between previous and play: nearer play's frame (8 px vs 12)
frames += kiosk_tap(1200000, 172, 420)    # between them, nearer previous (8 px vs 12)
frames += kiosk_tap(1800000, 270, 420)    # next
frames += kiosk_drag(2400000, (8, 200), (208, 200))      # in from the left edge: the menu
frames += kiosk_drag(3200000, (600, 476), (600, 296))    # up from the bottom edge: the dock
# A pinch on the photo: two fingers 100 px apart spreading to 300 px.
pinch = [(4000000, touch(0, 350, 200) + touch(1, 450, 200) + [(EV_KEY, BTN_TOUCH, 1)])]
for step in range(1, 11):
    pinch.append((4000000 + step * 20000, move(0, 350 - step * 10, 200) + move(1, 450 + step * 10, 200)))
pinch.append((4230000, up(0) + up(1) + [(EV_KEY, BTN_TOUCH, 0)]))
frames += pinch
# A long press where the hidden settings button is: nothing (hidden regions are not hit).
frames += [(4800000, touch(0, 662, 420) + [(EV_KEY, BTN_TOUCH, 1)]), (5600000, up(0) + [(EV_KEY, BTN_TOUCH, 0)])]
frames += kiosk_drag(6000000, (400, 380), (400, 460), duration=300000)  # the volume strip
write("fixtures/synthetic/kiosk-session.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): a session on the kiosk of",
       "examples/kiosk.yaml (800 x 480 panel, no resolution). Expected with that configuration:",
       "taps on play, play (extension overlap, nearer play), previous (nearer previous), next;",
       "edge pans from the left and the bottom; a pinch on the photo; nothing for a long press",
       "on the hidden settings button; a pan on the volume strip."],
      [device_block("Synthetic Kiosk Touchscreen", KIOSK_CODES, KIOSK_ABS, [1],
                    ["ID_INPUT=1", "ID_INPUT_TOUCHSCREEN=1"]) + frames_block(frames)])
print("written kiosk")

# A keyboard typed on for 200 s (a key every 250 ms): the real-kernel lane keeps it busy
# throughout (and past its end: its removal must not fall in the idle check) to show the
# service never opens it.
KEYS = [30, 48, 46, 32, 18, 33, 34, 35, 23, 36]  # a b c d e f g h i j
kb_frames = []
for i in range(800):
    t = i * 250000
    kb_frames.append((t, [(EV_KEY, KEYS[i % len(KEYS)], 1)]))
    kb_frames.append((t + 50000, [(EV_KEY, KEYS[i % len(KEYS)], 0)]))
typing = device_block("Synthetic Typing Keyboard", {0: [0, 1, 2, 3], 1: KEYS}, {}, [], ["ID_INPUT=1", "ID_INPUT_KEY=1", "ID_INPUT_KEYBOARD=1"])
typing = [l for l in typing if not l.startswith("    absinfo:")] + frames_block(kb_frames)
write("fixtures/synthetic/keyboard-typing.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): a keyboard typing a to j, a key",
       "every 250 ms for 200 s. Not a touch device: gestured must never open it."],
      [typing])

# A one-finger drag that never lifts: replayed into a virtual device that is then removed,
# the pan must end cancelled.
frames = [(0, down(0, 500, 1000, 500) + [(EV_KEY, BTN_TOUCH, 1)])]
for step in range(1, 41):
    frames.append((step * 10000, move(0, 1000 + step * 20, 500)))
write("fixtures/synthetic/drag-without-lift.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): a drag of 80 mm that never lifts.",
       "Expected: a pan that begins, and is cancelled when the device goes away."],
      [device_block(*TS) + frames_block(frames)])
print("written keyboard and drag")

# The kernel drops events: a finger drags 40 mm and rests; 3 s later a burst of 5,000 frames
# (10 us apart; 10,000 events pass the kernel's filter of unchanged values) moves it 30 mm further while a second finger lands — more than
# the kernel's buffer for a reader holds, if the reader is not reading (the real-kernel lane
# stops the service meanwhile); 3 s later both move a little and lift, and a tap follows.
# burst-while-stopped.collapsed.yaml is the same with the burst as one frame of its end state:
# what a reader that resynchronizes after SYN_DROPPED decodes.
def burst_recording(collapsed):
    frames = [(0, down(0, 600, 500, 1000) + [(EV_KEY, BTN_TOUCH, 1)])]
    for step in range(1, 21):
        frames.append((step * 10000, move(0, 500 + step * 20, 1000)))
    burst = 5000
    if collapsed:
        frames.append((3000000 + burst * 10, move(0, 1200, 1000) + down(1, 601, 2000, 1500)))
    else:
        for step in range(1, burst + 1):
            # A unit of jitter in every frame: the kernel passes on only values that change.
            ev = move(0, 900 + round(step * 300 / burst) + step % 2, 1000)
            if step == burst // 2:
                ev += down(1, 601, 2000, 1500)
            frames.append((3000000 + step * 10, ev))
    frames.append((6000000, move(0, 1210, 1000) + move(1, 2010, 1500)))
    frames.append((6010000, move(0, 1220, 1000) + move(1, 2020, 1500)))
    frames.append((6100000, up(0) + up(1) + [(EV_KEY, BTN_TOUCH, 0)]))
    frames.append((7000000, down(0, 602, 2500, 500) + [(EV_KEY, BTN_TOUCH, 1)]))
    frames.append((7050000, up(0) + [(EV_KEY, BTN_TOUCH, 0)]))
    return frames


write("fixtures/synthetic/burst-while-stopped.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): a drag, then a burst of 20,000",
       "events in 50 ms while a second finger lands, more than the kernel buffers for a reader that",
       "is not reading (the real-kernel lane stops the service meanwhile: SYN_DROPPED), then both",
       "move, lift, and a tap follows. Expected live: what burst-while-stopped.collapsed.yaml gives."],
      [device_block(*TS) + frames_block(burst_recording(False))])
write("fixtures/synthetic/burst-while-stopped.collapsed.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): burst-while-stopped.yaml with its",
       "burst as one frame of the state it ends in: what a reader that resynchronizes decodes."],
      [device_block(*TS) + frames_block(burst_recording(True))])

# The kernel drops events while a finger lifts: two fingers land 50 mm apart, the left one drags
# 40 mm in 400 ms and both rest; 3 s later a burst like burst-while-stopped.yaml's moves the left one 30 mm
# further, and halfway through it the right one lifts. A reader that resynchronizes must learn of
# the lift from the device's state (libevdev ends the slot): nothing tells it otherwise. Then the
# left one moves a little and lifts, and a tap follows. lift-while-stopped.collapsed.yaml is the
# same with the burst as what libevdev's sync makes of it: a frame that ends the lifted touch,
# then one of the state the burst ends in.
def lift_recording(collapsed):
    frames = [(0, down(0, 610, 500, 1000) + down(1, 611, 1000, 1000) + [(EV_KEY, BTN_TOUCH, 1)])]
    # 100 mm/s, the two fingers' centroid half of it: well below a swipe's speed, so no swipe is
    # decided on when a frame happens to be stamped (the live run's times are not the recording's).
    for step in range(1, 41):
        frames.append((step * 10000, move(0, 500 + step * 10, 1000)))
    burst = 5000
    if collapsed:
        frames.append((3000000 + burst * 10, up(1)))
        frames.append((3000000 + burst * 10, move(0, 1200, 1000)))
    else:
        for step in range(1, burst + 1):
            ev = move(0, 900 + round(step * 300 / burst) + step % 2, 1000)
            if step == burst // 2:
                ev += up(1)
            frames.append((3000000 + step * 10, ev))
    frames.append((6000000, move(0, 1210, 1000)))
    frames.append((6010000, move(0, 1220, 1000)))
    frames.append((6100000, up(0) + [(EV_KEY, BTN_TOUCH, 0)]))
    frames.append((7000000, down(0, 612, 2500, 500) + [(EV_KEY, BTN_TOUCH, 1)]))
    frames.append((7050000, up(0) + [(EV_KEY, BTN_TOUCH, 0)]))
    return frames


write("fixtures/synthetic/lift-while-stopped.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): two fingers, one drags, then a burst of",
       "20,000 events in 50 ms during which the other lifts, more than the kernel buffers for a reader",
       "that is not reading (SYN_DROPPED), then the first moves and lifts, and a tap follows.",
       "Expected live: what lift-while-stopped.collapsed.yaml gives."],
      [device_block(*TS) + frames_block(lift_recording(False))])
write("fixtures/synthetic/lift-while-stopped.collapsed.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): lift-while-stopped.yaml with its",
       "burst as a frame ending the lifted touch, then one of the state it ends in: what a reader",
       "that resynchronizes decodes."],
      [device_block(*TS) + frames_block(lift_recording(True))])

# Two fingers on the 300 x 200 mm touchscreen, 40 mm apart around (150, 100) mm, spreading to
# 120 mm while turning 60 degrees clockwise over 600 ms (a frame every 10 ms), then lifting.
import math
frames = []
for step in range(61):
    k = step / 60
    half = (40 + 80 * k) / 2 * 10  # device units: 10/mm
    angle = math.radians(60 * k)
    dx, dy = half * math.cos(angle), half * math.sin(angle)
    a = (round(1500 - dx), round(1000 - dy))
    b = (round(1500 + dx), round(1000 + dy))
    t = step * 10000
    if step == 0:
        frames.append((t, down(0, 300, *a) + down(1, 301, *b) + [(EV_KEY, BTN_TOUCH, 1)]))
    else:
        frames.append((t, move(0, *a) + move(1, *b)))
frames.append((620000, up(0) + up(1) + [(EV_KEY, BTN_TOUCH, 0)]))
write("fixtures/synthetic/pinch-rotate.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): two fingers 40 mm apart spread to",
       "120 mm (scale 3) while turning 60 degrees clockwise over 600 ms. Expected: a pinch and a rotate."],
      [device_block(*TS) + frames_block(frames)])
print("written pinch-rotate")

# A laptop touchpad for examples/desktop.yaml (issue 18's configuration): 100 x 60 mm at
# 30 units/mm, a clickpad. A three-finger flick left, a three-finger tap, then a slow
# three-finger drag right, each in the middle of the pad, 1 s apart.
BTN_LEFT, BTN_TOOL_TRIPLETAP = 0x110, 0x14e
TP_CODES = {0: [0, 1, 2, 3], 1: [BTN_LEFT, BTN_TOOL_FINGER, BTN_TOUCH, BTN_TOOL_DOUBLETAP, BTN_TOOL_TRIPLETAP],
            3: [ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_POSITION_X, ABS_MT_POSITION_Y, ABS_MT_TRACKING_ID]}
TP_ABS = {ABS_X: [0, 3000, 0, 0, 30], ABS_Y: [0, 1800, 0, 0, 30], ABS_MT_SLOT: [0, 4, 0, 0, 0],
          ABS_MT_POSITION_X: [0, 3000, 0, 0, 30], ABS_MT_POSITION_Y: [0, 1800, 0, 0, 30],
          ABS_MT_TRACKING_ID: [0, 65535, 0, 0, 0]}
TP3 = ("Synthetic Laptop Touchpad", TP_CODES, TP_ABS, [0, 2], ["ID_INPUT=1", "ID_INPUT_TOUCHPAD=1"])
frames = []
tid = [2000]


def three_down(t, xs, y):
    ev = []
    for slot, x in enumerate(xs):
        tid[0] += 1
        ev += [(EV_ABS, ABS_MT_SLOT, slot), (EV_ABS, ABS_MT_TRACKING_ID, tid[0]),
               (EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_MT_POSITION_Y, y)]
    frames.append((t, ev + [(EV_KEY, BTN_TOUCH, 1), (EV_KEY, BTN_TOOL_TRIPLETAP, 1)]))


def three_up(t):
    frames.append((t, up(0) + up(1) + up(2) + [(EV_KEY, BTN_TOUCH, 0), (EV_KEY, BTN_TOOL_TRIPLETAP, 0)]))


def three_move(t0, xs, y, dx_total, duration, steps):
    for step in range(1, steps + 1):
        dx = dx_total * step // steps
        ev = []
        for slot, x in enumerate(xs):
            ev += move(slot, x + dx, y)
        frames.append((t0 + duration * step // steps, ev))


xs = [1900, 2200, 2500]
three_down(0, xs, 800)                                # flick: 50 mm left in 100 ms
three_move(0, xs, 800, -1500, 100000, 10)
three_up(110000)
three_down(1000000, [1200, 1500, 1800], 800)          # tap: 70 ms, no movement
three_up(1070000)
three_down(2000000, [600, 900, 1200], 800)            # drag: 30 mm right in 600 ms
three_move(2000000, [600, 900, 1200], 800, 900, 600000, 30)
three_up(2620000)
write("fixtures/synthetic/desktop-touchpad.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): a 100 x 60 mm clickpad with the",
       "gestures of examples/desktop.yaml's touchpad layout: a three-finger flick left (its key chord), a",
       "three-finger tap (the middle button), a slow three-finger drag right (alt held while it lasts)."],
      [device_block(*TP3) + frames_block(frames)])
print("written desktop-touchpad")

# The same touchpad: a slow three-finger drag whose device goes away before the fingers lift
# (the player exits): a key held for the drag must be released.
frames = []
three_down(0, [600, 900, 1200], 800)
three_move(0, [600, 900, 1200], 800, 600, 400000, 20)
write("fixtures/synthetic/desktop-touchpad-unplugged.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): examples/desktop.yaml's touchpad,",
       "a slow three-finger drag right (20 mm in 400 ms) that never lifts: the device goes mid-drag."],
      [device_block(*TP3) + frames_block(frames)])

# examples/desktop.yaml's touchscreen (the 300 x 200 mm panel above): two fingers scroll
# 30 mm down in 300 ms, then one finger drags in 40 mm from the right edge.
frames = []
frames.append((0, down(0, 3001, 1400, 600) + down(1, 3002, 1700, 600) + [(EV_KEY, BTN_TOUCH, 1)]))
for step in range(1, 31):
    frames.append((step * 10000, move(0, 1400, 600 + step * 10) + move(1, 1700, 600 + step * 10)))
frames.append((310000, up(0) + up(1) + [(EV_KEY, BTN_TOUCH, 0)]))
frames.append((1000000, down(0, 3003, 2995, 1000) + [(EV_KEY, BTN_TOUCH, 1)]))
for step in range(1, 21):
    frames.append((1000000 + step * 10000, move(0, 2995 - step * 20, 1000)))
frames.append((1210000, up(0) + [(EV_KEY, BTN_TOUCH, 0)]))
write("fixtures/synthetic/desktop-touchscreen.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): examples/desktop.yaml's touchscreen:",
       "two fingers scroll 30 mm down in 300 ms (the wheel), then a drag in from the right edge (a key chord)."],
      [device_block(*TS) + frames_block(frames)])
print("written desktop fixtures")

# Owned devices (issue 48; docs/ownership.md), on the 300 x 200 mm panel above. Each file is
# one case of the real-kernel lane's checks of what the twin gets.
tid = [4000]


def finger(slot, x, y):
    tid[0] += 1
    return down(slot, tid[0], x, y)


# A tap at (50, 50) mm (80 ms), then a drag of 30 mm right in 200 ms: shared gestures, which
# the twin gets as the device sent them.
frames = [(0, finger(0, 500, 500) + [(EV_KEY, BTN_TOUCH, 1)]), (80000, up(0) + [(EV_KEY, BTN_TOUCH, 0)])]
frames.append((600000, finger(0, 800, 800) + [(EV_KEY, BTN_TOUCH, 1)]))
for step in range(1, 11):
    frames.append((600000 + step * 20000, move(0, 800 + step * 30, 800)))
frames.append((820000, up(0) + [(EV_KEY, BTN_TOUCH, 0)]))
write("fixtures/synthetic/owned-tap-drag.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): a one-finger tap at (50, 50) mm, then a",
       "one-finger drag of 30 mm right in 200 ms. On an owned panel whose tap and pan own nothing, the twin",
       "gets both as they are."],
      [device_block(*TS) + frames_block(frames)])

# A tap at (50, 50) mm, then 10 s later another at the same place: played into one device, the
# kernel leaves the second tap's position out (unchanged in its slot). The real-kernel lane
# starts the service between them: a twin made then must still put the second tap there.
frames = [(0, down(0, 9001, 500, 500) + [(EV_KEY, BTN_TOUCH, 1)]), (80000, up(0) + [(EV_KEY, BTN_TOUCH, 0)]),
          (10000000, down(0, 9002, 500, 500) + [(EV_KEY, BTN_TOUCH, 1)]), (10080000, up(0) + [(EV_KEY, BTN_TOUCH, 0)])]
write("fixtures/synthetic/owned-tap-again.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): a tap at (50, 50) mm, then 10 s later",
       "another at the same place, whose position the kernel leaves out (unchanged in its slot)."],
      [device_block(*TS) + frames_block(frames)])

# Four fingers landing in one frame and flicking 40 mm down in 80 ms (a frame every 10 ms),
# recognized as a swipe within 60 ms of landing: with hold-back: 60ms the app never sees it.
xs4 = [1000, 1300, 1600, 1900]
frames = [(0, sum((finger(i, x, 600) for i, x in enumerate(xs4)), []) + [(EV_KEY, BTN_TOUCH, 1)])]
for step in range(1, 9):
    frames.append((step * 10000, sum((move(i, x, 600 + step * 50) for i, x in enumerate(xs4)), [])))
frames.append((90000, sum((up(i) for i in range(4)), []) + [(EV_KEY, BTN_TOUCH, 0)]))
write("fixtures/synthetic/owned-four-finger-flick.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): four fingers land together and flick",
       "40 mm down in 80 ms: a four-finger swipe recognized within 60 ms of the landing."],
      [device_block(*TS) + frames_block(frames)])

# Two drags in from the left edge, 40 mm right in 200 ms each: at y = 150 mm (inside an
# exclusion region of the lane's client: 0..20 x 100..200 mm), then at y = 50 mm.
frames = []
for t0, y in [(0, 1500), (1000000, 500)]:
    frames.append((t0, finger(0, 5, y) + [(EV_KEY, BTN_TOUCH, 1)]))
    for step in range(1, 11):
        frames.append((t0 + step * 20000, move(0, 5 + step * 40, y)))
    frames.append((t0 + 220000, up(0) + [(EV_KEY, BTN_TOUCH, 0)]))
write("fixtures/synthetic/owned-edge-drags.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): two drags in from the left edge",
       "(40 mm right in 200 ms), at y = 150 mm and then at y = 50 mm."],
      [device_block(*TS) + frames_block(frames)])

# A finger that lands and holds 2 s (moving 0.1 mm every 100 ms), then a tap at 2.1 s: the
# lane kills the service (SIGKILL) while the finger is down (the hold is long enough for an
# emulated machine's delays); the tap must reach libinput on the device itself, within a
# second of the kill.
frames = [(0, finger(0, 1500, 1000) + [(EV_KEY, BTN_TOUCH, 1)])]
for step in range(1, 20):
    frames.append((step * 100000, move(0, 1500 + step, 1000)))
frames.append((2010000, up(0) + [(EV_KEY, BTN_TOUCH, 0)]))
frames += [(2100000, finger(0, 500, 500) + [(EV_KEY, BTN_TOUCH, 1)]), (2180000, up(0) + [(EV_KEY, BTN_TOUCH, 0)])]
write("fixtures/synthetic/owned-hold-then-tap.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): a finger holds 2 s, then a tap",
       "at 2.1 s."],
      [device_block(*TS) + frames_block(frames)])

# examples/desktop.yaml's touchpad, owned: one finger moves 30 mm right in 300 ms (pointer
# motion), two fingers scroll 20 mm down in 300 ms, a click (a finger down, the pad's button
# pressed and released), then three fingers flick 50 mm left in 100 ms (gestured's swipe,
# which must not reach libinput's own).
frames = []


def tp_fingers(t, xs, y, count_key):
    ev = []
    for slot, x in enumerate(xs):
        tid[0] += 1
        ev += [(EV_ABS, ABS_MT_SLOT, slot), (EV_ABS, ABS_MT_TRACKING_ID, tid[0]),
               (EV_ABS, ABS_MT_POSITION_X, x), (EV_ABS, ABS_MT_POSITION_Y, y)]
    frames.append((t, ev + [(EV_KEY, BTN_TOUCH, 1), (EV_KEY, count_key, 1)]))


def tp_lift(t, n, count_key):
    frames.append((t, sum((up(i) for i in range(n)), []) + [(EV_KEY, BTN_TOUCH, 0), (EV_KEY, count_key, 0)]))


def tp_move(t0, xs, y, dx_total, dy_total, duration, steps):
    for step in range(1, steps + 1):
        ev = []
        for slot, x in enumerate(xs):
            ev += move(slot, x + dx_total * step // steps, y + dy_total * step // steps)
        frames.append((t0 + duration * step // steps, ev))


tp_fingers(0, [1000], 900, BTN_TOOL_FINGER)
tp_move(0, [1000], 900, 900, 0, 300000, 30)
tp_lift(310000, 1, BTN_TOOL_FINGER)
tp_fingers(1000000, [1200, 1600], 500, BTN_TOOL_DOUBLETAP)
tp_move(1000000, [1200, 1600], 500, 0, 600, 300000, 30)
tp_lift(1310000, 2, BTN_TOOL_DOUBLETAP)
tp_fingers(2000000, [1500], 1500, BTN_TOOL_FINGER)
frames.append((2050000, [(EV_KEY, BTN_LEFT, 1)]))
frames.append((2150000, [(EV_KEY, BTN_LEFT, 0)]))
tp_lift(2200000, 1, BTN_TOOL_FINGER)
tp_fingers(3000000, [1900, 2200, 2500], 800, BTN_TOOL_TRIPLETAP)
tp_move(3000000, [1900, 2200, 2500], 800, -1500, 0, 100000, 10)
tp_lift(3110000, 3, BTN_TOOL_TRIPLETAP)
write("fixtures/synthetic/owned-touchpad.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): examples/desktop.yaml's clickpad: one",
       "finger moves 30 mm right, two fingers scroll 20 mm down, a click, then three fingers flick 50 mm left",
       "in 100 ms."],
      [device_block(*TP3) + frames_block(frames)])
# A double tap at (100, 100) mm (taps 80 ms long, the second landing 200 ms after the first,
# 1 mm beside it), then a single tap there at 1 s: with a double tap bound to a program, both
# of its taps end cancelled on the twin (the first lifted before the double tap was recognized:
# its lift waited); the single tap's lift reaches the twin once the double tap has failed.
frames = []
for t0, x in [(0, 1000), (200000, 1010), (1000000, 1000)]:
    frames.append((t0, finger(0, x, 1000) + [(EV_KEY, BTN_TOUCH, 1)]))
    frames.append((t0 + 80000, up(0) + [(EV_KEY, BTN_TOUCH, 0)]))
write("fixtures/synthetic/owned-double-tap.yaml",
      ["libinput record", "Synthetic (scripts/make-synthetic-fixtures.py): a double tap at (100, 100) mm (80 ms",
       "taps, the second 200 ms after the first), then a single tap there at 1 s."],
      [device_block(*TS) + frames_block(frames)])

print("written owned-device fixtures")
