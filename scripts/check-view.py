#!/usr/bin/env python3
"""The live view in a real browser (make view-test).

Starts `gestured view RECORDING`, opens its page in headless Chromium (driven through the
DevTools protocol over a pipe: no fixed waits) or, with --firefox, in headless Firefox (through
WebDriver BiDi), waits until the page says the recording has played to its end, then checks the
DOM:

- the layout's regions, in order, are the ones `gestured render` draws for the same recording;
- the gesture events, in order, are the ones `gestured replay --json` prints (time, kind, state,
  region);
- the latest touches' failures are listed, as `replay --explain` words them;
- the page reads to a person: region labels apart, each inside its region (clear of what is
  drawn over it) or just beside it, a legend, the recorded device titled as a recording, the
  counter at the end;
- a viewer connecting after the end (the page opened again) gets the same gestures and failures.

It also checks the page refuses a wrong token, and writes a screenshot (--screenshot FILE).

With --bench (no recording), it checks the touch bench on --config instead: a tap, a
three-finger swipe and a pinch drawn with pointer events on the page, then "save as recording";
the page's gestures must be exactly those `replay` of the saved recording prints, with the tap
and the pinch among them, and the tap's action shown (not run).

    scripts/check-view.py GESTURED RECORDING [--config FILE] [--screenshot FILE] [--firefox PATH]
    scripts/check-view.py GESTURED --bench --config FILE [--steps FILE.json] [--expect 'KIND STATE REGION [FINGERS]']...
        [--expect-action TEXT]... [--screenshot FILE] [--firefox PATH]

On a layout of your own, --steps says what to draw (docs/view.md shows the format) and
--expect what must come of it; the page's gestures must still equal replay's.
"""
import argparse
import base64
import json
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

TIMEOUT_S = 120  # the whole check; a healthy run takes a few seconds


def stop_browser(proc, profile):
    """After the browser was asked to close: gives it time to, then kills what is left of its
    process group (helpers such as renderers write into the profile as they go), then removes
    its profile."""
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    for _ in range(50):
        shutil.rmtree(profile, ignore_errors=True)
        if not os.path.exists(profile):
            break
        time.sleep(0.1)


class Browser:
    """Chromium with --remote-debugging-pipe: CDP messages are JSON, each ended by a NUL,
    written to its fd 3 and read from its fd 4."""

    def __init__(self, chromium):
        to_browser_r, self.to_browser = os.pipe()
        self.from_browser, from_browser_w = os.pipe()
        self.profile = tempfile.mkdtemp(prefix="gestured-view-chromium-")
        # The child's fds 3 and 4, set by the shell (a preexec dup2 may clobber one with the other).
        command = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--remote-debugging-pipe",
                   "--user-data-dir=" + self.profile, "--window-size=1280,900", "about:blank"]
        self.proc = subprocess.Popen(
            ["sh", "-c", f'exec "$@" 3<&{to_browser_r} 4>&{from_browser_w}', "sh"] + command,
            pass_fds=(to_browser_r, from_browser_w), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        os.close(to_browser_r)
        os.close(from_browser_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def read_message(self, deadline):
        while b"\0" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("no answer from Chromium")
            ready, _, _ = select.select([self.from_browser], [], [], remaining)
            if ready:
                chunk = os.read(self.from_browser, 65536)
                if not chunk:
                    raise RuntimeError("Chromium closed its pipe (did it start? try: chromium --headless --no-sandbox)")
                self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, deadline=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_browser, json.dumps(message).encode() + b"\0")
        deadline = deadline or time.monotonic() + 30
        while True:
            m = self.read_message(deadline)
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, method, deadline):
        while True:
            for i, m in enumerate(self.events):
                if m.get("method") == method:
                    return self.events.pop(i)
            self.events.append(self.read_message(deadline))

    def close(self):
        try:
            self.call("Browser.close", deadline=time.monotonic() + 5)
        except Exception:
            pass
        stop_browser(self.proc, self.profile)


class ChromiumPage:
    """A page of headless Chromium: open, evaluate, screenshot, close."""

    def __init__(self, chromium, deadline):
        self.browser = Browser(chromium)
        self.deadline = deadline
        target = self.browser.call("Target.createTarget", {"url": "about:blank"}, deadline=deadline)["targetId"]
        self.session = self.browser.call("Target.attachToTarget", {"targetId": target, "flatten": True}, deadline=deadline)["sessionId"]
        self.browser.call("Page.enable", session=self.session, deadline=deadline)

    def open(self, url):
        self.browser.call("Page.navigate", {"url": url}, session=self.session, deadline=self.deadline)
        self.browser.wait_event("Page.loadEventFired", self.deadline)

    def evaluate(self, expression):
        result = self.browser.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True},
                                   session=self.session, deadline=self.deadline)
        if "exceptionDetails" in result:
            raise RuntimeError(f"the page's script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self):
        return base64.b64decode(self.browser.call("Page.captureScreenshot", {"format": "png"}, session=self.session,
                                                  deadline=self.deadline)["data"])

    def close(self):
        self.browser.close()


class FirefoxPage:
    """A page of headless Firefox, driven through WebDriver BiDi (--remote-debugging-port) with
    a minimal WebSocket client: open, evaluate, screenshot, close."""

    def __init__(self, firefox, deadline):
        self.deadline = deadline
        self.profile = tempfile.mkdtemp(prefix="gestured-view-firefox-")
        with open(os.path.join(self.profile, "user.js"), "w") as f:
            # No first-run pages, updates or telemetry: a quiet browser for a test.
            for pref in ['"browser.shell.checkDefaultBrowser", false', '"app.update.disabledForTesting", true',
                         '"datareporting.policy.dataSubmissionEnabled", false', '"toolkit.telemetry.reportingpolicy.firstRun", false',
                         '"browser.startup.homepage_override.mstone", "ignore"', '"remote.prefs.recommended", true']:
                f.write(f"user_pref({pref});\n")
        self.proc = subprocess.Popen([firefox, "--headless", "--remote-debugging-port=0", "--profile", self.profile,
                                      "--no-remote", "--window-size=1280,900", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
        address = None
        while address is None:
            if time.monotonic() > deadline:
                raise TimeoutError("Firefox never said where WebDriver BiDi listens")
            line = self.proc.stderr.readline()
            if not line:
                raise RuntimeError("Firefox exited before WebDriver BiDi listened")
            match = re.search(r"WebDriver BiDi listening on (ws://[^\s]+)", line)
            if match:
                address = match.group(1)
        host, port = re.match(r"ws://([^:/]+):(\d+)", address).groups()
        self.sock = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /session HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise RuntimeError("Firefox closed the WebDriver BiDi connection")
            head += chunk
        head, self.buffer = head.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError(f"Firefox refused the WebSocket: {head.decode(errors='replace')}")
        self.next_id = 0
        self.call("session.new", {"capabilities": {}})
        self.context = self.call("browsingContext.getTree", {})["contexts"][0]["context"]

    def _send(self, text):
        payload = text.encode()
        mask = os.urandom(4)
        head = bytes([0x81])
        if len(payload) < 126:
            head += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            head += bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
        else:
            head += bytes([0x80 | 127]) + len(payload).to_bytes(8, "big")
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _read_exactly(self, n):
        while len(self.buffer) < n:
            self.sock.settimeout(max(0.1, self.deadline - time.monotonic()))
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("Firefox closed the WebDriver BiDi connection")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def _receive(self):
        message = b""
        while True:
            b0, b1 = self._read_exactly(2)
            length = b1 & 0x7F
            if length == 126:
                length = int.from_bytes(self._read_exactly(2), "big")
            elif length == 127:
                length = int.from_bytes(self._read_exactly(8), "big")
            message += self._read_exactly(length)
            if b0 & 0x80:
                return json.loads(message)

    def call(self, method, params):
        self.next_id += 1
        self._send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            m = self._receive()
            if m.get("id") == self.next_id:
                if m.get("type") == "error":
                    raise RuntimeError(f"{method}: {m.get('error')}: {m.get('message')}")
                return m.get("result", {})

    def open(self, url):
        self.call("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})

    def evaluate(self, expression):
        # The value comes back as JSON text: BiDi's own serialization of objects is not plain JSON.
        result = self.call("script.evaluate", {"expression": f"Promise.resolve({expression.strip()}).then(v => JSON.stringify(v))",
                                               "target": {"context": self.context}, "awaitPromise": True})
        if result.get("type") == "exception":
            raise RuntimeError(f"the page's script failed: {result.get('exceptionDetails')}")
        return json.loads(result["result"]["value"])

    def screenshot(self):
        return base64.b64decode(self.call("browsingContext.captureScreenshot", {"context": self.context})["data"])

    def close(self):
        try:
            self.call("browser.close", {})
        except Exception:
            pass
        stop_browser(self.proc, self.profile)


# Resolves once the page says the recording ended (no polling: a MutationObserver).
WAIT_FOR_END = """
new Promise(resolve => {
  const done = () => document.body && document.body.dataset.ended === 'true';
  if (done()) return resolve(true);
  new MutationObserver((m, o) => { if (done()) { o.disconnect(); resolve(true); } })
    .observe(document.documentElement, {attributes: true, subtree: true, childList: true});
})
"""

# Resolves once the page has connected and says the recording ended, or that it was refused
# (another viewer still connected: the one before has not been let go yet).
WAIT_FOR_END_OR_REFUSED = """
new Promise(resolve => {
  const done = () => document.body && (document.body.dataset.ended === 'true' || document.body.dataset.refused === 'true');
  if (done()) return resolve(document.body.dataset.refused === 'true' ? 'refused' : 'ended');
  new MutationObserver((m, o) => { if (done()) { o.disconnect(); resolve(document.body.dataset.refused === 'true' ? 'refused' : 'ended'); } })
    .observe(document.documentElement, {attributes: true, subtree: true, childList: true});
})
"""

# How the page reads to a person: region labels inside their regions and apart, a legend, a
# recorded device titled as a recording, the play counter.
READ_LOOKS = """
(() => {
  const box = e => { const b = e.getBBox(); return {x: b.x, y: b.y, w: b.width, h: b.height}; };
  const labels = [...document.querySelectorAll('text.region-label')].map(t => Object.assign(box(t), {id: t.dataset.id}));
  const apart = (a, b) => a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
  const overlapping = [];
  labels.forEach((a, i) => labels.slice(i + 1).forEach(b => { if (!apart(a, b)) overlapping.push([a.id, b.id]); }));
  // A label is inside its region, or (a region too small for it, class "beside") just below or
  // above it, overlapping it horizontally.
  const outside = [...document.querySelectorAll('text.region-label')].filter(t => {
    const l = box(t);
    const r = document.querySelector(`rect.region[data-id="${CSS.escape(t.dataset.id)}"]`);
    const f = {x: +r.getAttribute('x'), y: +r.getAttribute('y'), w: +r.getAttribute('width'), h: +r.getAttribute('height')};
    const slack = 0.01 * f.w;
    if (t.classList.contains('beside')) {
      const near = Math.min(Math.abs(l.y - (f.y + f.h)), Math.abs(f.y - (l.y + l.h)));
      return near > l.h || l.x + l.w < f.x || f.x + f.w < l.x;
    }
    return l.x < f.x - slack || l.y < f.y - slack || l.x + l.w > f.x + f.w + slack || l.y + l.h > f.y + f.h + slack;
  }).map(t => t.dataset.id);
  // Nor does a label lie under a region, or a hit area, drawn after its own (a child's).
  const rects = [...document.querySelectorAll('section.device rect.region, section.device rect.hit-area')];
  const covered = [...document.querySelectorAll('text.region-label')].filter(t => {
    const l = box(t);
    const own = rects.findIndex(r => r.classList.contains('region') && r.dataset.id === t.dataset.id);
    return rects.slice(own + 1).some(r => r.dataset.id !== t.dataset.id &&
      !apart(l, {x: +r.getAttribute('x'), y: +r.getAttribute('y'), w: +r.getAttribute('width'), h: +r.getAttribute('height')}));
  }).map(t => t.dataset.id);
  return {labels: labels.map(l => l.id), overlapping, outside, covered,
          legend: document.querySelectorAll('#legend .key').length,
          titles: [...document.querySelectorAll('section.device h3')].map(h => h.textContent),
          position: document.getElementById('position').textContent};
})()
"""

READ_DOM = """
({
  devices: [...document.querySelectorAll('section.device')].map(s => s.dataset.device),
  regions: [...document.querySelectorAll('section.device rect.region')].map(r => r.dataset.id),
  gestures: [...document.querySelectorAll('#gestures li.gesture')].map(li =>
    [Number(li.dataset.time), li.dataset.kind, li.dataset.state, li.dataset.region]),
  failures: [...document.querySelectorAll('#failures li.failure')].map(li => li.textContent),
  status: document.getElementById('status').textContent,
})
"""


# The touch bench, driven as a person would: pointer events on the drawing (the page's own
# handlers turn them into touches), each step in the layout's units, 600 ms apart (a double
# tap's wait passes): {"tap": [x, y]}, {"drag": [[x, y], [x, y]], "ms": 150}, either with
# "fingers": N (the page's keys 1 to 5: that many fingers in a row) or, for a drag, "pivot":
# [x, y] (shift-click: two fingers mirrored about it, to pinch and rotate). Then "save as
# recording". Resolves with the recording's YAML. KIOSK_STEPS are examples/kiosk.yaml's: a tap
# on play, a three-finger swipe left on the photo, a pinch about a pivot on it.
KIOSK_STEPS = [
    {"tap": [206, 420]},
    {"drag": [[500, 185], [300, 185]], "ms": 150, "fingers": 3},
    {"drag": [[430, 185], [540, 185]], "ms": 250, "pivot": [400, 185]},
]
KIOSK_EXPECT = ["tap recognized play", "pinch began photo", "pinch ended photo"]
KIOSK_ACTIONS = ["tap(1 tap, 1 touch)@play would run: exec"]

DRIVE_BENCH = """
(async steps => {
  const svg = document.querySelector('section.device svg');
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  const client = (x, y) => {
    const p = svg.createSVGPoint(); p.x = x; p.y = y;
    const q = p.matrixTransform(svg.getScreenCTM());
    return {clientX: q.x, clientY: q.y};
  };
  const fire = (type, x, y, extra) => svg.dispatchEvent(new PointerEvent(type, Object.assign(
    {bubbles: true, cancelable: true, pointerId: 7, pointerType: 'mouse', isPrimary: true}, client(x, y), extra || {})));
  const key = k => document.dispatchEvent(new KeyboardEvent('keydown', {key: k}));
  const drag = async (from, to, ms) => {
    fire('pointerdown', from[0], from[1]);
    for (let i = 1; i <= 10; i++) {
      await sleep(ms / 10);
      fire('pointermove', from[0] + (to[0] - from[0]) * i / 10, from[1] + (to[1] - from[1]) * i / 10);
    }
    await sleep(10);
    fire('pointerup', to[0], to[1]);
  };
  for (const step of steps) {
    key(String(step.fingers || 1));
    if (step.tap) {
      fire('pointerdown', step.tap[0], step.tap[1]);
      await sleep(step.ms || 50);
      fire('pointerup', step.tap[0], step.tap[1]);
    } else {
      if (step.pivot) fire('pointerdown', step.pivot[0], step.pivot[1], {shiftKey: true});
      await drag(step.drag[0], step.drag[1], step.ms || 150);
      if (step.pivot) key('Escape');
    }
    await sleep(600);
  }
  const link = document.getElementById('download');
  document.getElementById('save').click();
  while (!link.dataset.yaml) await sleep(20);
  return link.dataset.yaml;
})(STEPS)
"""


def check_bench(args, deadline):
    """The touch bench: the page's gestures are exactly those replay of its saved recording
    gives, and they include the expected ones (by default, on examples/kiosk.yaml, the tap on
    play and the pinch on the photo), with the expected actions shown."""
    failures = []
    steps = json.load(open(args.steps)) if args.steps else KIOSK_STEPS
    expect = args.expect if args.expect is not None else ([] if args.steps else KIOSK_EXPECT)
    expect_actions = args.expect_action if args.expect_action is not None else ([] if args.steps else KIOSK_ACTIONS)
    view = subprocess.Popen([args.gestured, "view", "--config", args.config], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    browser = None
    try:
        line = view.stdout.readline()
        if not line.startswith("view: http://"):
            raise RuntimeError(f"gestured view printed {line!r}; stderr: {view.stderr.read()}")
        url = line.split(" ", 1)[1].strip()
        browser = FirefoxPage(args.firefox, deadline) if args.firefox else ChromiumPage(args.chromium, deadline)
        browser.open(url)
        browser.evaluate(WAIT_FOR_DEVICE)
        yaml = browser.evaluate(DRIVE_BENCH.replace("STEPS", json.dumps(steps)))
        dom = browser.evaluate(READ_DOM)
        actions = browser.evaluate("[...document.querySelectorAll('#gestures li.action')].map(li => li.textContent)")
        if args.screenshot:
            with open(args.screenshot, "wb") as f:
                f.write(browser.screenshot())
        with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
            f.write(yaml)
            saved = f.name
        try:
            replay = subprocess.run([args.gestured, "replay", saved, "--json", "--config", args.config],
                                    check=True, capture_output=True, text=True).stdout.splitlines()
        finally:
            os.unlink(saved)
        expected = [[round(e["time"], 6), e["kind"], e["state"], e["region"]] for e in map(json.loads, replay)]
        got = [[round(g[0], 6)] + g[1:] for g in dom["gestures"]]
        if got != expected:
            failures.append(f"the bench's gestures differ from replay of its recording:\n  page:   {got}\n  replay: {expected}")
        seen = {(g[1], g[2], g[3]) for g in got}
        # With a fourth word, the fingers too (the saved recording's replay says how many).
        fingers = {(e["kind"], e["state"], e["region"], str(e["touches"])) for e in map(json.loads, replay)}
        for want in expect:
            words = want.split()
            if len(words) == 4 and tuple(words) not in fingers:
                failures.append(f"the bench drew no {words[0]} {words[1]} on {words[2]} with {words[3]} fingers: {sorted(fingers)}")
            elif len(words) == 3 and tuple(words) not in seen:
                failures.append(f"the bench drew no {words[0]} {words[1]} on {words[2]}: {sorted(seen)}")
            elif len(words) not in (3, 4):
                failures.append(f"--expect {want!r}: give KIND STATE REGION [FINGERS]")
        for want in expect_actions:
            if not any(want in a for a in actions):
                failures.append(f"no action shown contains {want!r}: {actions}")
        print(f"bench ({'Firefox' if args.firefox else 'Chromium'}): {len(got)} gesture events drawn, as replay of the saved recording "
              f"({yaml.count(chr(10))} lines) has them; {len(actions)} actions shown, none run")
    finally:
        if browser:
            browser.close()
        view.terminate()
        try:
            view.wait(timeout=10)
        except subprocess.TimeoutExpired:
            view.kill()
    for f in failures:
        print("bench: FAIL: " + f, file=sys.stderr)
    return 1 if failures else 0


WAIT_FOR_DEVICE = """
new Promise(resolve => {
  const done = () => document.querySelector('section.device svg');
  if (done()) return resolve(true);
  new MutationObserver((m, o) => { if (done()) { o.disconnect(); resolve(true); } })
    .observe(document.documentElement, {subtree: true, childList: true});
})
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gestured")
    parser.add_argument("recording", nargs="?", help="none with --bench")
    parser.add_argument("--bench", action="store_true", help="check the touch bench on --config instead")
    parser.add_argument("--config")
    parser.add_argument("--steps", help="with --bench: a JSON file of the touches to draw, in the layout's units "
                        "(default: examples/kiosk.yaml's tap, swipe and pinch)")
    parser.add_argument("--expect", action="append", metavar="'KIND STATE REGION [FINGERS]'",
                        help="with --bench: a gesture event the touches must give, with that many fingers if given (repeatable)")
    parser.add_argument("--expect-action", action="append", metavar="TEXT",
                        help="with --bench: text an action shown must contain (repeatable)")
    parser.add_argument("--screenshot")
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--firefox", help="check in Firefox (this executable) instead of Chromium")
    args = parser.parse_args()
    deadline = time.monotonic() + TIMEOUT_S
    if args.bench:
        return check_bench(args, deadline)
    config = ["--config", args.config] if args.config else []

    # What the page must show, from the commands that print it.
    replay = subprocess.run([args.gestured, "replay", args.recording, "--json"] + config,
                            check=True, capture_output=True, text=True).stdout.splitlines()
    expected_gestures = [[round(e["time"], 6), e["kind"], e["state"], e["region"]] for e in map(json.loads, replay)]
    with tempfile.NamedTemporaryFile(suffix=".svg") as svg:
        subprocess.run([args.gestured, "render", args.recording, "-o", svg.name] + config, check=True, capture_output=True)
        drawn = open(svg.name).read()
    expected_regions = re.findall(r'<rect class="region[^"]*" data-id="([^"]*)"', drawn)
    explain = subprocess.run([args.gestured, "replay", args.recording, "--explain"] + config,
                             check=True, capture_output=True, text=True).stdout

    view = subprocess.Popen([args.gestured, "view", args.recording, "--speed", "8"] + config,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    browser = None
    failures = []
    try:
        line = view.stdout.readline()
        if not line.startswith("view: http://"):
            raise RuntimeError(f"gestured view printed {line!r}; stderr: {view.stderr.read()}")
        url = line.split(" ", 1)[1].strip()

        # A wrong token: refused, and nothing served.
        wrong = url.split("?token=")[0] + "?token=0000"
        try:
            urllib.request.urlopen(wrong, timeout=10)
            failures.append("a wrong token was served the page")
        except urllib.error.HTTPError as e:
            if e.code != 403:
                failures.append(f"a wrong token got HTTP {e.code}, not 403")

        browser = FirefoxPage(args.firefox, deadline) if args.firefox else ChromiumPage(args.chromium, deadline)
        browser.open(url)
        browser.evaluate(WAIT_FOR_END)
        dom = browser.evaluate(READ_DOM)

        if len(dom["devices"]) != 1:
            failures.append(f"one device expected on the page, found {dom['devices']}")
        if dom["regions"] != expected_regions:
            failures.append(f"regions on the page {dom['regions']} are not render's {expected_regions}")
        got = [[round(g[0], 6)] + g[1:] for g in dom["gestures"]]
        if got != expected_gestures:
            failures.append(f"gestures on the page differ from replay --json:\n  page:   {got}\n  replay: {expected_gestures}")
        for text in dom["failures"]:
            reason = text.split(" s", 1)[1] if " s" in text else text
            if reason not in explain:
                failures.append(f"a failure on the page is not replay --explain's: {text!r}")
        looks = browser.evaluate(READ_LOOKS)
        if looks["overlapping"]:
            failures.append(f"region labels overlap: {looks['overlapping']}")
        if looks["covered"]:
            failures.append(f"region labels under a region drawn over them: {looks['covered']}")
        if looks["outside"]:
            failures.append(f"region labels neither inside nor beside their regions: {looks['outside']}")
        if looks["legend"] < 5:
            failures.append(f"the legend has {looks['legend']} keys")
        if any("/dev/input" in t or "as recorded" not in t for t in looks["titles"]):
            failures.append(f"a recording is titled as a live device: {looks['titles']}")
        if not re.match(r"frame (\d+) of \1 — the end", looks["position"]):
            failures.append(f"the counter did not reach the end: {looks['position']!r}")
        if args.screenshot:
            with open(args.screenshot, "wb") as f:
                f.write(browser.screenshot())

        # A viewer connecting after the end: the gestures so far and the latest touches'
        # failures, as the first viewer had them. The first viewer's page is left, then the
        # page opened again until the view has let it go (at most 5 s).
        browser.open("about:blank")
        for attempt in range(50):
            browser.open(url)
            if browser.evaluate(WAIT_FOR_END_OR_REFUSED) == "ended":
                break
            time.sleep(0.1)
        late = browser.evaluate(READ_DOM)
        if [[round(g[0], 6)] + g[1:] for g in late["gestures"]] != got:
            failures.append(f"a viewer connecting late sees other gestures: {late['gestures'][:5]}…")
        if late["failures"] != dom["failures"]:
            failures.append(f"a viewer connecting late sees other failures:\n  late:  {late['failures']}\n  first: {dom['failures']}")
        print(f"view ({'Firefox' if args.firefox else 'Chromium'}): {len(dom['regions'])} regions and {len(got)} gesture events on the page, as render and replay have them; "
              f"{len(dom['failures'])} failures of the latest touches listed; {len(looks['labels'])} region labels apart, "
              f"each inside or beside its region; a late viewer sees the same")
    finally:
        if browser:
            browser.close()
        view.terminate()
        try:
            view.wait(timeout=10)
        except subprocess.TimeoutExpired:
            view.kill()
    for f in failures:
        print("view: FAIL: " + f, file=sys.stderr)
    if view.returncode not in (0, -15):
        print(f"view: FAIL: gestured view exited {view.returncode} on SIGTERM", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
