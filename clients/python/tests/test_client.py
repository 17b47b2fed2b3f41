"""The Python client: its messages on their own, then both styles against the real service
(`gestured run --play RECORDING` on a socket in a temporary folder: a recording played as a
live device, again and again). GESTURED names the binary (default: the checkout's debug build).

    python3 -m unittest discover -s clients/python/tests -v
"""
import asyncio
import json
import math
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = pathlib.Path(__file__).resolve()
sys.path.insert(0, str(HERE.parents[1]))
import gestured  # noqa: E402

ROOT = HERE.parents[3]
BINARY = os.environ.get("GESTURED", str(ROOT / ".build/debug/gestured"))
SCREENS = ROOT / "fixtures/recordings/evemu-devices/touchscreens"
TAPS = SCREENS / "Atmel maXTouch Touchscreen.1-finger-fast-taps.events"
DRAG = SCREENS / "Atmel maXTouch Touchscreen.4-finger-drag-down.events"
# Long enough for a loaded machine: the recordings play again every second or so.
WAIT = 60.0
EVERYWHERE = (0, 0, 10000, 10000)


class Service:
    """`gestured run --play RECORDING` on a socket of its own; ready once it says it listens."""

    def __init__(self, recording, folder):
        self.socket = os.path.join(folder, "gestured.sock")
        self.process = subprocess.Popen([BINARY, "run", "--play", str(recording), "--socket", self.socket],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        for line in self.process.stderr:
            if "listening for clients" in line:
                break
        else:
            raise RuntimeError(f"{BINARY} run --play ended before listening: exit {self.process.wait()}")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=WAIT)
        self.process.stderr.close()


class MessagesTests(unittest.TestCase):
    def test_a_line_gives_its_kinds_typed_values(self):
        line = {"type": "gesture", "time": 0.5, "kind": "swipe", "state": "recognized", "region": "panel", "touches": 2,
                "x": 60.0, "y": 40.0, "dx": -30.0, "dy": 1.0, "vx": -400.0, "vy": 10.0, "direction": "left",
                "decided_mm": 8.0, "decided_ms": 40.0}
        event = gestured.GestureEvent.from_json(line)
        self.assertEqual(event.swipe, gestured.Swipe("left", -30.0, 1.0, -400.0, 10.0, 8.0, 40.0))
        self.assertIsNone(event.tap)
        self.assertIsNone(event.pan)
        self.assertEqual((event.kind, event.touches, event.local_x), ("swipe", 2, None))

    def test_a_1_0_pinch_without_its_span_has_no_values(self):
        line = {"time": 0.5, "kind": "pinch", "state": "changed", "region": "r", "touches": 2, "x": 1, "y": 2,
                "scale": 1.5, "scale_velocity": 2.0}
        self.assertIsNone(gestured.GestureEvent.from_json(line).values)
        line["span_mm"] = 31.2
        self.assertEqual(gestured.GestureEvent.from_json(line).pinch, gestured.Pinch(1.5, 2.0, 31.2))

    def test_a_gesture_without_a_required_key_is_an_error(self):
        with self.assertRaises(gestured.ProtocolError) as caught:
            gestured.GestureEvent.from_json({"time": 0.5, "kind": "tap", "state": "recognized", "region": "r", "x": 1, "y": 2})
        self.assertEqual((caught.exception.code, caught.exception.field), ("missing-field", "touches"))

    def test_regions_and_gestures_are_written_as_the_protocol_has_them(self):
        region = gestured.Region("ok", (50, 20, 20, 20), [gestured.gesture("tap", taps=2),
                                                          gestured.gesture("long-press", min_duration=600)],
                                 hit_insets=-5, parent="panel", exclusion=True)
        self.assertEqual(region.to_json(), {"id": "ok", "frame": [50, 20, 20, 20],
                                            "gestures": [{"kind": "tap", "taps": 2}, {"kind": "long-press", "min-duration": 600}],
                                            "hit-insets": -5, "parent": "panel", "exclusion": True})
        with self.assertRaises(ValueError):
            gestured.gesture("flick")

    def test_no_nan_goes_on_the_wire(self):
        with self.assertRaises(ValueError):
            gestured.messages.encode({"type": "register", "region": {"frame": [math.nan, 0, 1, 1]}})

    def test_a_greeting_of_another_protocol_version_is_refused(self):
        with self.assertRaises(gestured.ProtocolError):
            gestured.Greeting.from_json({"protocol": "gestured", "version": 2, "type": "greeting"})
        greeting = gestured.Greeting.from_json({"protocol": "gestured", "version": 1, "type": "greeting", "minor": 1,
                                                "service": "0.1.0", "devices": [{"name": "P", "kind": "touchscreen", "node": "n"}],
                                                "layouts": ["root"], "kinds": ["tap"], "limits": {"regions": 256}})
        self.assertEqual(greeting.devices, (gestured.Device("P", "touchscreen", "n"),))

    def test_the_socket_path_comes_from_the_environment(self):
        self.assertEqual(gestured.default_socket_path({"GESTURED_SOCKET": "/tmp/s"}), "/tmp/s")
        self.assertEqual(gestured.default_socket_path({}), "/run/gestured/gestured.sock")


@unittest.skipUnless(os.access(BINARY, os.X_OK), f"no gestured binary at {BINARY} (GESTURED names one)")
class ServiceTests(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp(prefix="gestured-python-")

    def tearDown(self):
        shutil.rmtree(self.folder, ignore_errors=True)

    def first(self, events, match):
        """The first of `events` that matches, within WAIT seconds (gestures of the service's
        own layout keep coming, so the events alone would not end)."""
        deadline = time.monotonic() + WAIT
        for event in events:
            if match(event):
                return event
            if time.monotonic() > deadline:
                break
        self.fail("no such event came")

    def test_blocking_a_region_gets_its_taps_and_a_bad_request_its_error(self):
        service = Service(TAPS, self.folder)
        try:
            client = gestured.Client.connect(service.socket)
            self.assertEqual((client.greeting.version, [d.name for d in client.greeting.devices]),
                             (1, ["Atmel maXTouch Touchscreen"]))
            heard = []
            client.register(gestured.Region("screen", EVERYWHERE, [gestured.gesture("tap")]), heard.append)
            with self.assertRaises(gestured.ProtocolError) as caught:
                client.register(gestured.Region("bad", (0, 0, 10, 10), [gestured.gesture("tap", taps=99)]))
            self.assertEqual((caught.exception.code, caught.exception.field), ("invalid-field", "region.gestures[0].taps"))
            self.assertEqual(client.regions, ["screen"])
            # An exclusion region with no gestures of its own (protocol 1.1).
            client.register(gestured.Region("edge", (0, 0, 5, 5), [], exclusion=True))
            tap = self.first(client.events(timeout=WAIT), lambda e: isinstance(e, gestured.GestureEvent) and e.region == "screen")
            self.assertEqual((tap.kind, tap.state, tap.tap), ("tap", "recognized", gestured.Tap(1)))
            self.assertEqual(heard[-1], tap, "the handler is called before the event is given")
            self.assertGreater(client.ping(), 0)
            client.close()
        finally:
            service.stop()

    def test_asyncio_a_region_gets_its_pan_and_the_service_its_subscription(self):
        service = Service(DRAG, self.folder)

        async def main():
            client = await gestured.AsyncClient.connect(service.socket)
            self.assertEqual(client.greeting.minor, 1)
            await client.subscribe(gestured.Filter(kinds=["pan"], states=["began"]))
            await client.register(gestured.Region("canvas", EVERYWHERE, [gestured.gesture("pan", max_touches=5)]))
            with self.assertRaises(gestured.ProtocolError) as caught:
                await client.unregister("nowhere")
            self.assertEqual(caught.exception.code, "unknown-region")
            async for event in client.events():
                if isinstance(event, gestured.GestureEvent) and event.region == "canvas" and event.state == "changed":
                    self.assertEqual(event.kind, "pan")
                    self.assertIsNotNone(event.pan)
                    break
            await client.close()

        try:
            asyncio.run(asyncio.wait_for(main(), WAIT))
        finally:
            service.stop()

    def test_the_swipe_panel_example_pages_left_and_right(self):
        recording = os.path.join(self.folder, "swipes.yaml")
        subprocess.run([BINARY, "synth", "-e", "swipe left from 100,50", "-e", "swipe right from 60,50", "--output", recording],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        service = Service(recording, self.folder)
        try:
            example = subprocess.run([sys.executable, str(ROOT / "examples/python/swipe_panel.py"), "--socket", service.socket,
                                      "--swipes", "2"], capture_output=True, text=True, timeout=WAIT)
            self.assertEqual(example.returncode, 0, example.stderr)
            # The example may join while the recording plays: its two swipes come in either order.
            lines = example.stdout.splitlines()
            self.assertTrue(lines[0].startswith("connected to gestured"), lines)
            self.assertIn(lines[1:], [["swiped left with 1 finger(s): page 1", "swiped right with 1 finger(s): page 0"],
                                      ["swiped right with 1 finger(s): page -1", "swiped left with 1 finger(s): page 0"]])
        finally:
            service.stop()

    def test_a_client_registers_its_regions_again_when_the_service_comes_back(self):
        service = Service(TAPS, self.folder)
        try:
            client = gestured.Client.connect(service.socket)
            client.set_context({"app": "org.example.kiosk"})
            client.register(gestured.Region("screen", EVERYWHERE, [gestured.gesture("tap")]))
            events = client.events(timeout=WAIT)
            self.first(events, lambda e: isinstance(e, gestured.GestureEvent) and e.region == "screen")
            service.stop()
            self.first(events, lambda e: isinstance(e, gestured.Disconnected))
            service = Service(TAPS, self.folder)
            self.first(events, lambda e: isinstance(e, gestured.Connected))
            tap = self.first(events, lambda e: isinstance(e, gestured.GestureEvent) and e.region == "screen")
            self.assertEqual(tap.kind, "tap")
            client.close()
        finally:
            service.stop()


if __name__ == "__main__":
    unittest.main()
