#!/usr/bin/env python3
"""scripts/check-rotation.py GESTURED — `rotation: auto` following an accelerometer on a D-Bus
system bus of its own: a dbus-daemon, a fake iio-sensor-proxy on it (scripts/fakes/sensor-proxy.py,
Debian's python3-dbus), and `GESTURED run --play` of a one-tap recording (made with
`GESTURED synth`: a tap 40 mm from the left and 30 mm from the top of a 200 x 100 mm
touchscreen) under a configuration whose device rule says `rotation: auto` on a 2000 x 1000
screen. Each play taps again, a second apart; the fake turns the device between plays, and each
turn must re-map the next tap as the user sees the screen:

  normal (2000 x 1000)       400, 300
  left-up (90: 1000 x 2000)  700, 400
  bottom-up (180)           1600, 700
  right-up (270)             300, 1600
  undefined (flat)          changes nothing
  normal again               400, 300

and, with `service: rotation-lock` naming a file that exists, a turn is not followed; when
iio-sensor-proxy restarts, gestured claims the accelerometer again and follows it.
Prints PASS/FAIL lines; exit 1 on a failure, 0 otherwise."""
import json
import os
import pathlib
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
FAKE = ROOT / "scripts/fakes/sensor-proxy.py"
WAIT = 30
failures = []

CONFIG = """devices:
  - match: {kind: touchscreen}
    rotation: auto
    output: [2000, 1000]
service:
  rotation-lock: LOCK
layout:
  id: screen
  gestures:
    - kind: tap
"""


def check(ok, what):
    print(("PASS " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


class Lines:
    """A process's output, line by line, waited on with a deadline."""

    def __init__(self, stream):
        self.fd = stream.fileno()
        self.buffer = b""
        self.seen = []

    def until(self, pattern, seconds=WAIT):
        """Lines until one matches `pattern` (returned), or None when the time is up."""
        deadline = time.monotonic() + seconds
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                text = line.decode("utf-8", "replace")
                self.seen.append(text)
                if re.search(pattern, text):
                    return text
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return None
            chunk = os.read(self.fd, 65536)
            if not chunk:
                return None
            self.buffer += chunk


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/check-rotation.py GESTURED")
    binary = os.path.abspath(sys.argv[1])
    if shutil.which("dbus-daemon") is None:
        sys.exit("check-rotation: dbus-daemon is missing (Debian: dbus-daemon)")
    if subprocess.run(["/usr/bin/python3", "-c", "import dbus, gi"], capture_output=True).returncode != 0:
        sys.exit("check-rotation: Debian's python3-dbus and python3-gi are missing")
    folder = tempfile.mkdtemp(prefix="gestured-rotation-")
    socket = os.path.join(folder, "system_bus_socket")
    bus_conf = (ROOT / "scripts/fakes/system-bus.conf").read_text().replace("@SOCKET@", socket).replace("@INCLUDE@", "")
    (pathlib.Path(folder) / "bus.conf").write_text(bus_conf)
    lock = os.path.join(folder, "rotation.lock")
    config = os.path.join(folder, "gestured.yaml")
    pathlib.Path(config).write_text(CONFIG.replace("LOCK", lock))
    recording = os.path.join(folder, "tap.yaml")
    synth = subprocess.run([binary, "synth", "-e", "tap at 40,30", "--size", "200x100", "-o", recording], capture_output=True, text=True)
    check(synth.returncode == 0, f"gestured synth writes the one-tap recording {synth.stderr.strip()}")
    env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=f"unix:path={socket}")
    started = []
    try:
        daemon = subprocess.Popen(["dbus-daemon", "--nofork", "--nopidfile", f"--config-file={folder}/bus.conf", "--print-address"],
                                  stdout=subprocess.PIPE, text=True)
        started.append(daemon)
        daemon.stdout.readline()  # the address: the bus is listening
        fake = subprocess.Popen(["/usr/bin/python3", str(FAKE)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        started.append(fake)
        proxy = Lines(fake.stdout)
        check(proxy.until("^ready$") is not None, "the fake iio-sensor-proxy is on the bus")
        service = subprocess.Popen([binary, "run", "--no-socket", "--json", "--config", config, "--play", recording], env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        started.append(service)
        taps, log = Lines(service.stdout), Lines(service.stderr)
        check(proxy.until("^claimed$") is not None, "gestured claims the accelerometer")
        check(log.until("following the accelerometer") is not None, "gestured reads its orientation: "
              + next((line for line in log.seen if "accelerometer" in line), "nothing said"))

        def next_tap():
            line = taps.until(r'"kind": "tap"')
            if line is None:
                return None
            event = json.loads(line)
            return round(event["x"]), round(event["y"])

        def turn(orientation, expected, transform=None):
            fake.stdin.write(orientation + "\n")
            fake.stdin.flush()
            proxy.until("^turned ")
            if transform:
                said = log.until(f"transform={transform} .*the screen turned")
                check(said is not None, f"{orientation}: gestured says the screen turned {transform} ({said or 'nothing said'})")
            else:
                time.sleep(1.5)  # what a turn would have said, had it been followed
            # The tap of a play begun before the turn may still come as it was: the one after is the check.
            tap = next_tap()
            tap = next_tap() if tap != expected else tap
            check(tap == expected, f"{orientation}: the next tap lands at {expected} (at {tap})")

        first = next_tap()
        check(first == (400, 300), f"normal: a tap 40 mm from the left, 30 mm from the top is at (400, 300) of 2000 x 1000 (at {first})")
        turn("left-up", (700, 400), "90")
        turn("bottom-up", (1600, 700), "180")
        turn("right-up", (300, 1600), "270")
        turn("undefined", (300, 1600))
        turn("normal", (400, 300), "normal")
        pathlib.Path(lock).touch()
        turn("left-up", (400, 300))
        check(log.until("rotation locked", seconds=5) is not None, "with the lock file there, the turn is heard and not followed")
        turned = [line for line in log.seen if "the screen turned" in line]
        check(len(turned) == 4, f"the screen turned four times, no more ({len(turned)})")
        # iio-sensor-proxy restarts: gestured claims the accelerometer again and follows it.
        os.unlink(lock)
        fake.stdin.close()
        fake.wait(timeout=10)
        check(log.until("iio-sensor-proxy left the bus", seconds=10) is not None, "gestured hears iio-sensor-proxy leave")
        fake = subprocess.Popen(["/usr/bin/python3", str(FAKE)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        started.append(fake)
        proxy = Lines(fake.stdout)
        check(proxy.until("^claimed$") is not None, "a new iio-sensor-proxy: gestured claims its accelerometer")
        turn("left-up", (700, 400), "90")
        said = [line for line in log.seen if "accelerometer" in line and "following" not in line]
        check(len([line for line in said if "no accelerometer" in line]) == 0, "nothing says the accelerometer is missing")
        # A lock the service cannot look for (its folder is a file: ENOTDIR, even for root) does
        # not hold, and says so once: reloaded with one, two turns are followed, one warning.
        blocker = os.path.join(folder, "not-a-folder")
        pathlib.Path(blocker).write_text("")
        pathlib.Path(config).write_text(CONFIG.replace("LOCK", os.path.join(blocker, "rotation.lock")))
        service.send_signal(signal.SIGHUP)
        check(log.until("configuration reloaded", seconds=10) is not None, "SIGHUP reloads the configuration with the unreadable lock")
        turn("bottom-up", (1600, 700), "180")
        turn("normal", (400, 300), "normal")
        unreadable = [line for line in log.seen if "cannot tell whether the rotation lock exists" in line]
        check(len(unreadable) == 1 and "Not a directory" in unreadable[0],
              f"an unreadable lock is said once, with why ({len(unreadable)}: {unreadable[:1]})")
    finally:
        for process in reversed(started):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    process.kill()
        shutil.rmtree(folder, ignore_errors=True)
    if failures:
        print(f"{len(failures)} check(s) failed", flush=True)
        sys.exit(1)
    print("rotation: all checks passed", flush=True)


if __name__ == "__main__":
    main()
