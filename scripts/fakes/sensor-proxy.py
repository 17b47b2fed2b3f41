#!/usr/bin/python3
"""A fake iio-sensor-proxy for scripts/check-rotation.py: `net.hadess.SensorProxy` on the
system bus ($DBUS_SYSTEM_BUS_ADDRESS) at /net/hadess/SensorProxy, with an accelerometer whose
orientation each line on stdin sets (`normal`, `left-up`, `bottom-up`, `right-up`,
`undefined`), announced with PropertiesChanged as iio-sensor-proxy does. It prints `ready` once
it has its name, and `claimed` at each ClaimAccelerometer. Debian's python3-dbus and
python3-gi; the interface as iio-sensor-proxy's net.hadess.SensorProxy.xml describes it."""
import dbus
import dbus.service

import fakebus

NAME, PATH, INTERFACE = "net.hadess.SensorProxy", "/net/hadess/SensorProxy", "net.hadess.SensorProxy"
PROPERTIES = "org.freedesktop.DBus.Properties"


class SensorProxy(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, PATH)
        self.orientation = "normal"

    def properties(self):
        return {
            "HasAccelerometer": dbus.Boolean(True),
            "AccelerometerOrientation": dbus.String(self.orientation),
            "HasAmbientLight": dbus.Boolean(False),
        }

    @dbus.service.method(INTERFACE)
    def ClaimAccelerometer(self):
        print("claimed", flush=True)

    @dbus.service.method(INTERFACE)
    def ReleaseAccelerometer(self):
        print("released", flush=True)

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.properties()[name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return self.properties()

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def turn(self, orientation):
        self.orientation = orientation
        self.PropertiesChanged(INTERFACE, {"AccelerometerOrientation": dbus.String(orientation)}, dbus.Array([], signature="s"))


def turn(proxy, orientation):
    proxy.turn(orientation)
    print("turned " + orientation, flush=True)


def main():
    fakebus.serve(NAME, SensorProxy, turn)


if __name__ == "__main__":
    main()
