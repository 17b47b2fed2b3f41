#!/usr/bin/env python3
"""scripts/vm/libinput-agreement.py OUTDIR [--labels FILE] [--gestured BINARY] — run on the host
after scripts/vm/libinput-compare.sh (`make libinput-vm`). For each recording OUTDIR/files.txt
names it reads libinput's output (OUTDIR/raw/FILE.txt) and what the kernel delivered
(raw/FILE.kernel, for the touch sequences and the physical clicks), turns libinput's events into
started gestures, writes them as gesture logs (OUTDIR/libinput/FILE.jsonl, the lines
`gestured replay --json` prints), has `BINARY evaluate FOLDER --gestures OUTDIR/libinput` judge
them by the very rules that judge gestured (Judgement.swift: no second copy of them here) and sets
them beside gestured's own verdicts (`BINARY evaluate FOLDER --json`). Prints a markdown report
and writes OUTDIR/agreement.md, OUTDIR/agreement.json, OUTDIR/gestured-evaluate.json,
OUTDIR/libinput-lenient/FILE.jsonl (the lenient variant's logs, below) and
OUTDIR/libinput-labels.json (the labels of the recordings compared).

libinput's events as gestures, in the order libinput emitted them:
  POINTER_MOTION          pan/1: one pan per touch sequence (first finger down to last up) until
                          another gesture; translation: the unaccelerated deltas
  POINTER_SCROLL_FINGER   pan/2, until libinput's scroll stop (both axes 0); translation: the
                          scroll values (natural scrolling is off: a finger moving down scrolls
                          down, positive, as our y)
  GESTURE_SWIPE_BEGIN N   pan/N; translation: the updates' unaccelerated deltas
  GESTURE_PINCH_BEGIN N   pinch/N; scale: the last update's (relative to the begin)
  GESTURE_HOLD_BEGIN N    long-press/N, unless its end says cancelled, or its touch sequence also
                          had another gesture or a physical click: libinput holds every still
                          finger (a tap, a click, a scroll each start with one), so a hold that
                          turns into something else is nothing
  POINTER_BUTTON pressed  BTN_LEFT/RIGHT/MIDDLE, with no physical press (BTN_LEFT in the capture)
                          within 100 ms: tap/1, tap/2, tap/3 (the default tap map, LRM); taps of
                          one finger count with at most 300 ms from a release to the next press
                          make one multi-tap (gestured's tapMaximumInterval, counted the same way)
libinput has no swipe of its own: a `swipe` label is never right for it.

Also judged: a lenient variant with gestured's own thresholds (pointer motion that never gets
6 mm from where it began is no pan, gestured's touchpad pan slop; a hold that ends within 500 ms of its sequence's first touch
is no long press). Bad input: `FILE:LINE: what is wrong` on stderr, exit status 2.
"""
import argparse
import copy
import json
import math
import os
import re
import subprocess
import sys

TAP_BUTTONS = {"BTN_LEFT": 1, "BTN_RIGHT": 2, "BTN_MIDDLE": 3}
PHYSICAL_WINDOW = 0.1      # s between a physical press in the capture and libinput's button event
MULTI_TAP_PAUSE = 0.3      # s from a tap's release to the next tap's press
SEQUENCE_SLACK = 0.3       # s after the last lift that still belong to the sequence (tap timeout)
WRAP = 2 ** 32 / 1000      # s: debug-events prints (uint32 ms - its start) / 1000
MM_PER_UNIT = 0.0254       # libinput's unaccelerated deltas are units of a 1000 dpi device
LENIENT_PAN_MM = 6.0       # gestured's touchpad pan slop (GestureDefaults.touchpadPanMinimumDistance)
LENIENT_HOLD_S = 0.5       # gestured's longPressMinimumDuration

HEADER = re.compile(r"^[- ]event\d+\s+([A-Z_]+)\s*(.*)$")
TIMED = re.compile(r"^([+-]\d+\.\d+)s\s+(.*)$")
NUM = r"([-+]?\d+(?:\.\d+)?)"


class BadInput(Exception):
    pass


def bad(path, line, what):
    raise BadInput(f"{path}:{line}: {what}" if line else f"{path}: {what}")


class Gesture:
    def __init__(self, kind, touches, time, source):
        self.kind, self.touches, self.time, self.source = kind, touches, time, source
        self.taps = 1
        self.release = time         # taps: when the button was released
        self.dx = self.dy = 0.0     # pans: translation
        self.reach = 0.0            # pointer-motion pans: the farthest (mm) from where they began
        self.scale = 1.0            # pinches
        self.cancelled = False      # holds
        self.end = None             # holds: when they ended
        self.open = True            # still taking updates

    def class_name(self):
        kind = "multi-tap" if self.kind == "tap" and self.taps >= 2 else self.kind
        return f"{kind}/{self.touches}"


class Capture:
    """What the kernel delivered (evemu-record): touch sequences and physical presses, in seconds
    from the first event, as libinput's times are (debug-events counts from its first wakeup)."""

    def __init__(self, path):
        self.sequences, self.presses = [], []
        down, last = None, 0.0
        with open(path, errors="replace") as f:
            for number, line in enumerate(f, 1):
                if not line.startswith("E:"):
                    continue
                try:
                    _, t, kind, code, value = line.split()[:5]
                    t, kind, code, value = float(t), int(kind, 16), int(code, 16), int(value)
                except ValueError:
                    bad(path, number, f"not an evemu event line: {line.strip()!r}")
                last = t
                if (kind, code) == (1, 0x14A):              # BTN_TOUCH
                    if value and down is None:
                        down = t
                    elif not value and down is not None:
                        self.sequences.append((down, t))
                        down = None
                elif (kind, code, value) == (1, 0x110, 1):  # BTN_LEFT pressed
                    self.presses.append(t)
        if down is not None:
            self.sequences.append((down, last))

    def sequence_of(self, t):
        """The index of the touch sequence time t belongs to (the latest that could hold it)."""
        found = None
        for i, (start, end) in enumerate(self.sequences):
            if start - 0.05 <= t <= end + SEQUENCE_SLACK:
                found = i
        return found


def read_play(path):
    """The player's worst lateness in ms (raw/FILE.play)."""
    text = open(path).read()
    m = re.match(r"frames \d+ latest_ms (\d+(?:\.\d+)?)\s*$", text)
    if not m:
        bad(path, 1, f"not the player's report: {text.strip()[:80]!r}")
    return float(m.group(1))


def read_libinput(path, capture):
    """libinput debug-events' output as started gestures (in the order emitted), and the times of
    the button presses that were physical clicks."""
    gestures, clicks, holds, taps = [], [], {}, {}
    presses = list(capture.presses)
    current = None                  # the pan or gesture that takes the next deltas
    added = False

    def latest(source):
        return next((g for g in reversed(gestures) if g.source == source and g.open), None)

    with open(path, errors="replace") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            m = HEADER.match(line.rstrip("\n"))
            if not m:
                bad(path, number, f"not a libinput debug-events line: {line.strip()!r}")
            event, rest = m.groups()
            if event in ("DEVICE_ADDED", "DEVICE_REMOVED"):
                added = True
                continue
            tm = TIMED.match(rest)
            if not tm:
                bad(path, number, f"{event} without a time: {rest!r}")
            t, body = float(tm.group(1)), tm.group(2).strip()
            if t > WRAP / 2:        # stamped before debug-events' first wakeup: the unsigned
                t -= WRAP           # millisecond difference wrapped around

            def start(kind, touches, source):
                g = Gesture(kind, touches, t, source)
                gestures.append(g)
                return g

            if event == "POINTER_MOTION":
                d = re.search(r"\(\s*" + NUM + r"\s*/\s*" + NUM + r"\s*\)$", body)
                if not d:
                    bad(path, number, f"POINTER_MOTION without its unaccelerated deltas: {body!r}")
                if not (current and current.open and current.source == "motion"
                        and capture.sequence_of(current.time) == capture.sequence_of(t)):
                    current = start("pan", 1, "motion")
                current.dx += float(d.group(1))
                current.dy += float(d.group(2))
                current.reach = max(current.reach, math.hypot(current.dx, current.dy) * MM_PER_UNIT)
            elif event == "POINTER_SCROLL_FINGER":
                s = re.match(r"vert\s+" + NUM + r"/\S+\s+horiz\s+" + NUM + r"/\S+\s+\(finger\)$", body)
                if not s:
                    bad(path, number, f"POINTER_SCROLL_FINGER not as expected: {body!r}")
                v, h = float(s.group(1)), float(s.group(2))
                if v == 0 and h == 0 and body.count("*") == 2:     # the scroll stops
                    if current and current.source == "scroll":
                        current.open = False
                    continue
                if not (current and current.open and current.source == "scroll"):
                    current = start("pan", 2, "scroll")
                current.dx += h
                current.dy += v
            elif event in ("GESTURE_SWIPE_BEGIN", "GESTURE_PINCH_BEGIN", "GESTURE_HOLD_BEGIN"):
                if not body.isdigit():
                    bad(path, number, f"{event} without a finger count: {body!r}")
                kind = {"GESTURE_SWIPE_BEGIN": "pan", "GESTURE_PINCH_BEGIN": "pinch", "GESTURE_HOLD_BEGIN": "long-press"}[event]
                g = start(kind, int(body), event)
                if kind == "long-press":
                    holds[g.touches] = g
                else:
                    current = g
            elif event in ("GESTURE_SWIPE_UPDATE", "GESTURE_PINCH_UPDATE"):
                u = re.match(r"\d+\s+" + NUM + r"/\s*" + NUM + r"\s+\(\s*" + NUM + r"/\s*" + NUM
                             + r"\s+unaccelerated\)(?:\s+" + NUM + r"\s+@\s+" + NUM + r")?$", body)
                g = latest(event.replace("UPDATE", "BEGIN"))
                if not u or g is None:
                    bad(path, number, f"{event} not as expected, or without its begin: {body!r}")
                g.dx += float(u.group(3))
                g.dy += float(u.group(4))
                if u.group(5) is not None:
                    g.scale = float(u.group(5))
            elif event in ("GESTURE_SWIPE_END", "GESTURE_PINCH_END", "GESTURE_HOLD_END"):
                e = re.match(r"(\d+)( cancelled)?$", body)
                g = holds.pop(int(e.group(1)), None) if e and event == "GESTURE_HOLD_END" else latest(event.replace("END", "BEGIN"))
                if not e or g is None:
                    bad(path, number, f"{event} not as expected, or without its begin: {body!r}")
                g.open, g.cancelled, g.end = False, bool(e.group(2)), t
            elif event == "POINTER_BUTTON":
                b = re.match(r"(\w+) \(\d+\) (pressed|released)", body)
                if not b:
                    bad(path, number, f"POINTER_BUTTON not as expected: {body!r}")
                button = b.group(1)
                if b.group(2) == "released":
                    if button in taps:
                        taps.pop(button).release = t
                    continue
                near = [p for p in presses if abs(p - t) <= PHYSICAL_WINDOW]
                if near:
                    presses.remove(min(near, key=lambda p: abs(p - t)))
                    clicks.append(t)
                elif button in TAP_BUTTONS:
                    taps[button] = start("tap", TAP_BUTTONS[button], "tap")
                else:
                    bad(path, number, f"{button} pressed with no physical click: not a tap button")
                if current:
                    current.open = False
            else:
                bad(path, number, f"unexpected libinput event {event} for a touchpad")
    if not added:
        bad(path, 1, "no DEVICE_ADDED line: libinput never opened the device")
    return gestures, clicks


def settle(gestures, clicks, capture):
    """The gestures as judged: holds that were cancelled or shared their touch sequence with
    another gesture or a physical click go; taps of one finger count in quick succession become
    one multi-tap. Works on copies."""
    busy = {capture.sequence_of(g.time) for g in gestures if g.kind != "long-press"}
    busy |= {capture.sequence_of(t) for t in clicks}
    kept = []
    for g in map(copy.copy, gestures):
        if g.kind == "long-press":
            seq = capture.sequence_of(g.time)
            if g.cancelled or (seq is not None and seq in busy):
                continue
        prev = kept[-1] if kept else None
        if (g.kind == "tap" and prev is not None and prev.kind == "tap" and prev.touches == g.touches
                and g.time - prev.release <= MULTI_TAP_PAUSE):
            prev.taps += 1
            prev.release = g.release
            continue
        kept.append(g)
    return kept


def lenient(gestures, capture):
    """Without pointer motion that never got LENIENT_PAN_MM from where it began, and without holds that
    ended within 500 ms of their sequence's first touch."""
    def keep(g):
        if g.source == "motion":
            return g.reach >= LENIENT_PAN_MM
        if g.kind == "long-press" and g.end is not None:
            seq = capture.sequence_of(g.time)
            first = capture.sequences[seq][0] if seq is not None else g.time
            return g.end - first >= LENIENT_HOLD_S
        return True
    return [g for g in gestures if keep(g)]


def write_log(gestures, path):
    """libinput's gestures as a gesture log: a start line for each (a tap's `recognized` with its
    taps; a pan's, pinch's or hold's `began`), then its `ended`: a pan's with the translation
    (mm, for pointer motion and swipes; scroll units for scrolls: only the direction is judged),
    a pinch's with the scale. Times in seconds from the first event, as libinput's are; each
    start at least a microsecond after the one before (an `ended` belongs to the last start of
    its kind, so no two may share a time)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    last = -1.0
    with open(path, "w") as f:
        for g in gestures:
            last = max(round(max(0.0, g.time), 6), round(last + 0.000001, 6))
            base = {"time": last, "kind": g.kind, "region": "root", "touches": g.touches, "x": 0, "y": 0}
            if g.kind == "tap":
                f.write(json.dumps({**base, "state": "recognized", "taps": g.taps}) + "\n")
                continue
            f.write(json.dumps({**base, "state": "began"}) + "\n")
            unit = 1.0 if g.source == "scroll" else MM_PER_UNIT
            if g.kind == "pan":
                f.write(json.dumps({**base, "state": "ended", "dx": round(g.dx * unit, 3), "dy": round(g.dy * unit, 3)}) + "\n")
            elif g.kind == "pinch":
                f.write(json.dumps({**base, "state": "ended", "scale": g.scale}) + "\n")
            else:
                f.write(json.dumps({**base, "state": "ended"}) + "\n")


def evaluate(binary, folder, labels, gestures=None):
    """gestured evaluate's verdict per file (its --json), on its own gestures or on the logs in
    `gestures`; and its output."""
    command = [binary, "evaluate", folder, "--labels", labels, "--json"] + (["--gestures", gestures] if gestures else [])
    try:
        run = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as e:
        bad(binary, None, f"cannot run gestured: {e.strerror}")
    if run.returncode != 0:
        bad(binary, None, f"evaluate exited {run.returncode}: {run.stderr.strip()[:300]}")
    try:
        files = json.loads(run.stdout)["files"]
    except (ValueError, KeyError, TypeError):
        bad(f"{binary} evaluate --json", None, "not one JSON object with per-file results")
    return {f["file"]: f for f in files}, run.stdout


def summary(gestures):
    """`tap/1 ×3, pan/2`: the started gestures, runs of one class counted."""
    runs = []
    for g in gestures:
        if runs and runs[-1][0] == g.class_name():
            runs[-1][1] += 1
        else:
            runs.append([g.class_name(), 1])
    return ", ".join(name if k == 1 else f"{name} ×{k}" for name, k in runs) or "nothing"


def pct(a, b):
    return f"{100 * a / b:.1f}%" if b else "-"


def judge_all(args):
    listing = os.path.join(args.outdir, "files.txt")
    if not os.path.isfile(listing):
        bad(listing, None, "missing: run scripts/vm/libinput-compare.sh first (make libinput-vm)")
    wanted = [line.strip() for line in open(listing) if line.strip()]
    try:
        records = {r["file"]: r for r in json.load(open(args.labels))}
    except (OSError, ValueError, KeyError, TypeError) as e:
        bad(args.labels, None, f"cannot read the labels: {e}")
    folder = os.path.dirname(args.labels) or "."
    compared = os.path.join(args.outdir, "libinput-labels.json")
    strict, gentle = os.path.join(args.outdir, "libinput"), os.path.join(args.outdir, "libinput-lenient")
    rows = []
    for number, file in enumerate(wanted, 1):
        record = records.get(file)
        if record is None:
            bad(listing, number, f"{file}: not a recording {args.labels} names")
        raw = os.path.join(args.outdir, "raw", file)
        for ext in (".txt", ".kernel", ".play"):
            if not os.path.isfile(raw + ext):
                bad(listing, number, f"{raw + ext} is missing (libinput-compare.sh did not finish this recording)")
        capture = Capture(raw + ".kernel")
        events, clicks = read_libinput(raw + ".txt", capture)
        judged = settle(events, clicks, capture)
        lenient_judged = settle(lenient(events, capture), clicks, capture)
        write_log(judged, os.path.join(strict, file + ".jsonl"))
        write_log(lenient_judged, os.path.join(gentle, file + ".jsonl"))
        rows.append({"file": file, "device": record["device"], "latest_frame_ms": read_play(raw + ".play"),
                     "libinput": {"gestures": summary(judged)}, "libinput_lenient": {"gestures": summary(lenient_judged)}})
    with open(compared, "w") as f:
        json.dump([records[file] for file in wanted], f, indent=1, ensure_ascii=False)
    ours, evaluate_text = evaluate(args.gestured, folder, compared)
    with open(os.path.join(args.outdir, "gestured-evaluate.json"), "w") as f:
        f.write(evaluate_text)
    theirs, _ = evaluate(args.gestured, folder, compared, strict)
    theirs_lenient, _ = evaluate(args.gestured, folder, compared, gentle)
    for number, row in enumerate(rows, 1):
        if row["file"] not in ours:
            bad(listing, number, f"{row['file']}: not a recording gestured evaluate judges (see its labels' flags)")
        row["class"] = ours[row["file"]]["class"]
        for verdicts, key in ((ours, "gestured"), (theirs, "libinput"), (theirs_lenient, "libinput_lenient")):
            verdict = verdicts[row["file"]]
            row.setdefault(key, {}).update({"right": verdict["right"], "recognized": verdict["recognized"],
                                            "why": verdict.get("why", "")})
    return rows


def report(args, rows):
    keys = ("files", "libinput_right", "gestured_right", "both_right", "libinput_only", "gestured_only")
    classes = {}
    for r in rows:
        c = classes.setdefault(r["class"], dict.fromkeys(keys, 0))
        li, ge = r["libinput"]["right"], r["gestured"]["right"]
        for key, add in zip(keys, (True, li, ge, li and ge, li and not ge, ge and not li)):
            c[key] += add
    total = {k: sum(c[k] for c in classes.values()) for k in keys}
    same_class = sum(r["libinput"]["recognized"] == r["gestured"]["recognized"] for r in rows)
    same_verdict = sum(r["libinput"]["right"] == r["gestured"]["right"] for r in rows)
    ours_wrong = [r for r in rows if r["libinput"]["right"] and not r["gestured"]["right"]]
    gentle_right = sum(r["libinput_lenient"]["right"] for r in rows)
    gentle_ours = [r for r in rows if r["libinput_lenient"]["right"] and not r["gestured"]["right"]]
    gentle_extra = [r for r in gentle_ours if r not in ours_wrong]
    lates = sorted(r["latest_frame_ms"] for r in rows) or [0.0]
    devices = sorted({r["device"] for r in rows})
    by_device = ", ".join(f"{d} {sum(r['device'] == d for r in rows)}" for d in devices)
    n = len(rows)

    def listing(chosen, side):
        out = ["| file | class | libinput | gestured | gestured's why |", "|---|---|---|---|---|"]
        return out + [f"| {r['file']} | {r['class']} | {r[side]['gestures']} | {r['gestured']['recognized']} | "
                      f"{r['gestured']['why']} |" for r in chosen]

    md = [f"# libinput against gestured on {args.labels}", "",
          f"{n} recordings ({by_device}); libinput right {total['libinput_right']} ({pct(total['libinput_right'], n)}), "
          f"gestured right {total['gestured_right']} ({pct(total['gestured_right'], n)}).", "",
          f"Agreement: the same first gesture (or none; a pan its swipe follows counts as the swipe) in {same_class} of {n} ({pct(same_class, n)}); "
          f"the same verdict (both right or both wrong) in {same_verdict} ({pct(same_verdict, n)}).", "",
          f"Playback: every frame written at most {lates[-1]:.1f} ms after its recorded time "
          f"(the median recording's latest: {lates[len(lates) // 2]:.1f} ms).", "",
          "| class | files | libinput right | gestured right | both right | libinput only (our bugs) | gestured only |",
          "|---|---|---|---|---|---|---|"]
    for name, c in sorted(classes.items()) + [("**all**", total)]:
        md.append(f"| {name} | " + " | ".join(str(c[k]) for k in keys) + " |")
    md += ["", f"## libinput right, gestured wrong ({len(ours_wrong)})", ""]
    md += listing(ours_wrong, "libinput") if ours_wrong else ["none"]
    md += ["", "## With gestured's thresholds", "",
           f"Counting libinput's pointer motion as a pan only once it gets {LENIENT_PAN_MM:g} mm from where it "
           f"began, and a hold as a long press only when it lasts {LENIENT_HOLD_S * 1000:.0f} ms from the first "
           f"touch (gestured's pan slop and long-press time): libinput right {gentle_right} ({pct(gentle_right, n)}); "
           f"libinput right and gestured wrong {len(gentle_ours)}" + (", these besides the above:" if gentle_extra else "."), ""]
    if gentle_extra:
        md += listing(gentle_extra, "libinput_lenient")
    text = "\n".join(md) + "\n"
    with open(os.path.join(args.outdir, "agreement.md"), "w") as f:
        f.write(text)
    with open(os.path.join(args.outdir, "agreement.json"), "w") as f:
        json.dump({"labels": args.labels, "gestured": args.gestured, "files": n, "classes": classes, "total": total,
                   "same_first_class": same_class, "same_verdict": same_verdict,
                   "lenient_libinput_right": gentle_right, "recordings": rows}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(text, end="")


def main():
    parser = argparse.ArgumentParser(description="libinput's gestures on the labelled recordings, judged as gestured evaluate judges")
    parser.add_argument("outdir")
    parser.add_argument("--labels", default="fixtures/chromiumos/labels.json")
    parser.add_argument("--gestured", default=".build-release/release/gestured")
    args = parser.parse_args()
    try:
        rows = judge_all(args)
    except BadInput as e:
        print(e, file=sys.stderr)
        sys.exit(2)
    report(args, rows)


if __name__ == "__main__":
    main()
