#!/usr/bin/env python3
"""scripts/check-dbus.py GESTURED — gestured on a D-Bus system bus of its own, heard by Debian's
own client (gdbus): a dbus-daemon with the packaged policy (dbus/org.gestured.Gestured.conf, its
group made this user's), `GESTURED run --dbus --play RECORDING` on it, then

- `gdbus monitor` hears the played taps as GestureRecognized signals, with their values;
- `gdbus call … Properties.Get` reads the devices and the layouts;
- (as root) a user outside the group is refused: its Properties.Get is denied, and its own
  monitor hears none of the signals the first one heard.

Prints PASS/FAIL lines; exit 1 on a failure, 0 otherwise."""
import grp
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
RECORDING = ROOT / "fixtures/recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"
NAME, PATH, INTERFACE = "org.gestured.Gestured", "/org/gestured/Gestured", "org.gestured.Gestured1"
WAIT = 60
failures = []


def check(ok, what):
    print(("PASS " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def lines_until(process, pattern, count=1, seconds=WAIT):
    """Lines of `process`'s stdout until `count` of them match `pattern` (or the time is up, or
    the output ends)."""
    seen, matched = [], 0
    deadline = time.monotonic() + seconds
    fd = process.stdout.fileno()
    buffer = b""
    while matched < count:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            break
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        buffer += chunk
        *complete, buffer = buffer.split(b"\n")
        for line in complete:
            text = line.decode("utf-8", "replace")
            seen.append(text)
            if re.search(pattern, text):
                matched += 1
    return seen, matched >= count


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/check-dbus.py GESTURED")
    binary = os.path.abspath(sys.argv[1])
    for tool in ("dbus-daemon", "gdbus"):
        if shutil.which(tool) is None:
            sys.exit(f"check-dbus: {tool} is missing (Debian: dbus-daemon, libglib2.0-bin)")
    folder = tempfile.mkdtemp(prefix="gestured-dbus-")
    os.chmod(folder, 0o755)
    group = grp.getgrgid(os.getgid()).gr_name
    policy = (ROOT / "dbus/org.gestured.Gestured.conf").read_text().replace('group="gestured"', f'group="{group}"')
    (pathlib.Path(folder) / "gestured.conf").write_text(policy)
    socket = os.path.join(folder, "system_bus_socket")
    bus_conf = (ROOT / "scripts/fakes/system-bus.conf").read_text().replace("@SOCKET@", socket).replace("@INCLUDE@", f"<include>{folder}/gestured.conf</include>")
    (pathlib.Path(folder) / "bus.conf").write_text(bus_conf)
    env = dict(os.environ, DBUS_SYSTEM_BUS_ADDRESS=f"unix:path={socket}")
    started = []
    try:
        daemon = subprocess.Popen(["dbus-daemon", "--nofork", "--nopidfile", f"--config-file={folder}/bus.conf", "--print-address"],
                                  stdout=subprocess.PIPE, text=True)
        started.append(daemon)
        daemon.stdout.readline()  # the address: the bus is listening
        service = subprocess.Popen([binary, "run", "--dbus", "--no-socket", "--play", str(RECORDING)], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        started.append(service)
        log, on_bus = lines_until(_stderr_reader(service), "on the system bus|not on the system bus")
        check(on_bus and any("on the system bus" in line and "not on" not in line for line in log),
              f"gestured run --dbus takes {NAME} on the bus ({log[-1] if log else 'nothing logged'})")
        outsider = None
        if os.geteuid() == 0:
            outsider = subprocess.Popen(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "gdbus", "monitor",
                                         "--system", "--dest", NAME], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            started.append(outsider)
        monitor = subprocess.Popen(["gdbus", "monitor", "--system", "--dest", NAME], env=env, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
        started.append(monitor)
        heard, ok = lines_until(monitor, rf"{INTERFACE}\.GestureRecognized \('tap', 'root', 'Atmel maXTouch Touchscreen', uint32 1, [0-9.]+, [0-9.]+, .*'taps': <1>", count=2)
        check(ok, "gdbus monitor hears the played taps as GestureRecognized signals: "
              + next((line.strip() for line in heard if "GestureRecognized" in line), "none heard"))
        get = subprocess.run(["gdbus", "call", "--system", "--dest", NAME, "--object-path", PATH, "--method",
                              "org.freedesktop.DBus.Properties.Get", INTERFACE, "Devices"], env=env, capture_output=True, text=True)
        check(get.returncode == 0 and "('Atmel maXTouch Touchscreen', 'touchscreen', 'played:" in get.stdout,
              f"Properties.Get Devices: {get.stdout.strip() or get.stderr.strip()}")
        layouts = subprocess.run(["gdbus", "call", "--system", "--dest", NAME, "--object-path", PATH, "--method",
                                  "org.freedesktop.DBus.Properties.Get", INTERFACE, "Layouts"], env=env, capture_output=True, text=True)
        check(layouts.stdout.strip() == "(<['root']>,)", f"Properties.Get Layouts: {layouts.stdout.strip() or layouts.stderr.strip()}")
        if outsider is not None:
            denied = subprocess.run(["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "gdbus", "call", "--system",
                                     "--dest", NAME, "--object-path", PATH, "--method", "org.freedesktop.DBus.Properties.Get",
                                     INTERFACE, "Devices"], env=env, capture_output=True, text=True)
            check(denied.returncode != 0 and "AccessDenied" in denied.stderr,
                  f"a user outside the group is refused Properties.Get: {denied.stderr.strip()[:160]}")
            outsider.send_signal(signal.SIGTERM)
            rest, _ = lines_until(outsider, "$^", seconds=2)
            signals = [line for line in rest if f"{INTERFACE}.Gesture" in line]
            check(ok and not signals, f"a user outside the group hears no signal ({len(signals)} heard)")
        else:
            print("SKIP a user outside the group (needs root to run a client as nobody)", flush=True)
    finally:
        for process in reversed(started):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        shutil.rmtree(folder, ignore_errors=True)
    print(f"check-dbus: {'FAIL' if failures else 'ok'}", flush=True)
    sys.exit(1 if failures else 0)


class _stderr_reader:
    """A process whose stderr `lines_until` reads as if it were its stdout."""

    def __init__(self, process):
        self.stdout = process.stderr


if __name__ == "__main__":
    main()
