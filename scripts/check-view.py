#!/usr/bin/env python3
"""The live view in a real browser (make view-test).

Starts `gestured view RECORDING`, opens its page in headless Chromium (driven through the
DevTools protocol over a pipe: no WebSocket client, no fixed waits), waits until the page says
the recording has played to its end, then checks the DOM:

- the layout's regions, in order, are the ones `gestured render` draws for the same recording;
- the gesture events, in order, are the ones `gestured replay --json` prints (time, kind, state,
  region);
- the latest touches' failures are listed, as `replay --explain` words them.

It also checks the page refuses a wrong token, and writes a screenshot (--screenshot FILE).

    scripts/check-view.py GESTURED RECORDING [--config FILE] [--screenshot FILE]
"""
import argparse
import base64
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

TIMEOUT_S = 120  # the whole check; a healthy run takes a few seconds


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
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        # Its helpers (renderer, utility processes) too: they write into the profile as they go.
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait()
        for _ in range(50):
            shutil.rmtree(self.profile, ignore_errors=True)
            if not os.path.exists(self.profile):
                break
            time.sleep(0.1)


def evaluate(browser, session, expression, deadline):
    result = browser.call("Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True},
                          session=session, deadline=deadline)
    if "exceptionDetails" in result:
        raise RuntimeError(f"the page's script failed: {result['exceptionDetails']}")
    return result["result"].get("value")


# Resolves once the page says the recording ended (no polling: a MutationObserver).
WAIT_FOR_END = """
new Promise(resolve => {
  const done = () => document.body && document.body.dataset.ended === 'true';
  if (done()) return resolve(true);
  new MutationObserver((m, o) => { if (done()) { o.disconnect(); resolve(true); } })
    .observe(document.documentElement, {attributes: true, subtree: true, childList: true});
})
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gestured")
    parser.add_argument("recording")
    parser.add_argument("--config")
    parser.add_argument("--screenshot")
    parser.add_argument("--chromium", default="chromium")
    args = parser.parse_args()
    deadline = time.monotonic() + TIMEOUT_S
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

        browser = Browser(args.chromium)
        target = browser.call("Target.createTarget", {"url": "about:blank"}, deadline=deadline)["targetId"]
        session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True}, deadline=deadline)["sessionId"]
        browser.call("Page.enable", session=session, deadline=deadline)
        browser.call("Page.navigate", {"url": url}, session=session, deadline=deadline)
        browser.wait_event("Page.loadEventFired", deadline)
        evaluate(browser, session, WAIT_FOR_END, deadline)
        dom = evaluate(browser, session, READ_DOM, deadline)

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
        if args.screenshot:
            shot = browser.call("Page.captureScreenshot", {"format": "png"}, session=session, deadline=deadline)
            with open(args.screenshot, "wb") as f:
                f.write(base64.b64decode(shot["data"]))
        print(f"view: {len(dom['regions'])} regions and {len(got)} gesture events on the page, as render and replay have them; "
              f"{len(dom['failures'])} failures of the latest touches listed")
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
