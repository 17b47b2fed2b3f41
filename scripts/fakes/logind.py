#!/usr/bin/python3
"""A fake logind for the VM lane's touchpad check (scripts/vm/touchpad.sh): the name
`org.freedesktop.login1` on the system bus ($DBUS_SYSTEM_BUS_ADDRESS), whose Manager at
/org/freedesktop/login1 emits PrepareForSleep(true) for a line `sleep` on stdin and
PrepareForSleep(false) for `wake`, as logind does around a suspend. Prints `ready` once it has
its name, and each signal it sent. Debian's python3-dbus and python3-gi."""
import os
import sys

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

NAME, PATH, INTERFACE = "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager"


class Manager(dbus.service.Object):
    @dbus.service.signal(INTERFACE, signature="b")
    def PrepareForSleep(self, start):
        pass


def main():
    DBusGMainLoop(set_as_default=True)
    bus = dbus.SystemBus()
    manager = Manager(bus, PATH)
    name = dbus.service.BusName(NAME, bus)
    loop = GLib.MainLoop()

    def line(source, condition):
        # Raw reads: a buffered readline would leave a second line unseen by the watch.
        data = os.read(sys.stdin.fileno(), 4096)
        if not data:
            loop.quit()
            return False
        for word in data.decode().split():
            if word in ("sleep", "wake"):
                manager.PrepareForSleep(word == "sleep")
                print("sent PrepareForSleep(" + ("true" if word == "sleep" else "false") + ")", flush=True)
        return True

    GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, line)
    print("ready", flush=True)
    loop.run()
    del name


if __name__ == "__main__":
    main()
