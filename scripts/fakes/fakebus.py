"""What the fake services (sensor-proxy.py, logind.py) share: a name on the system bus
($DBUS_SYSTEM_BUS_ADDRESS) and a GLib loop that hands each word written on stdin to the fake,
until stdin closes. Debian's python3-dbus and python3-gi."""
import os
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib


def serve(name, make, on_word):
    """Takes `name` on the system bus for the object `make(bus)` returns, prints `ready`, and
    calls `on_word(object, word)` for every word on stdin until it closes."""
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    served = make(bus)
    owned = dbus.service.BusName(name, bus)
    loop = GLib.MainLoop()

    def readable(source, condition):
        # Raw reads: a buffered readline would leave a second line unseen by the watch.
        data = os.read(sys.stdin.fileno(), 4096)
        if not data:
            loop.quit()
            return False
        for word in data.decode().split():
            on_word(served, word)
        return True

    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, readable)
    print("ready", flush=True)
    loop.run()
    del owned
