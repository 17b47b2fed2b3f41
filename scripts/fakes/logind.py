#!/usr/bin/python3
"""A fake logind for the VM lane's touchpad check (scripts/vm/touchpad.sh): the name
`org.freedesktop.login1` on the system bus ($DBUS_SYSTEM_BUS_ADDRESS), whose Manager at
/org/freedesktop/login1 emits PrepareForSleep(true) for a line `sleep` on stdin and
PrepareForSleep(false) for `wake`, as logind does around a suspend. Prints `ready` once it has
its name, and each signal it sent. Debian's python3-dbus and python3-gi."""
import dbus.service

import fakebus

NAME, PATH, INTERFACE = "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager"


class Manager(dbus.service.Object):
    @dbus.service.signal(INTERFACE, signature="b")
    def PrepareForSleep(self, start):
        pass


def say(manager, word):
    if word in ("sleep", "wake"):
        manager.PrepareForSleep(word == "sleep")
        print("sent PrepareForSleep(" + ("true" if word == "sleep" else "false") + ")", flush=True)


def main():
    fakebus.serve(NAME, lambda bus: Manager(bus, PATH), say)


if __name__ == "__main__":
    main()
