"""gestured's socket from Python, standard library only (docs/python.md).

    import gestured

    client = gestured.Client.connect()
    client.register(gestured.Region("ok", (80, 40, 40, 20), [gestured.gesture("tap")]),
                    lambda tap: print("OK at", tap.local_x, tap.local_y))
    for event in client.events():
        ...

`AsyncClient` is the same on asyncio."""
from .aio import AsyncClient
from .client import DEFAULT_SOCKET, Client, default_socket_path
from .messages import (KINDS, PROTOCOL_VERSION, STATES, Connected, Device, Disconnected, EdgePan, Error, Event, Filter,
                       GestureEvent, Greeting, LongPress, Pan, Pinch, ProtocolError, Region, Rotate, Swipe, Tap, Values,
                       gesture)

__all__ = [
    "AsyncClient", "Client", "DEFAULT_SOCKET", "default_socket_path", "KINDS", "PROTOCOL_VERSION", "STATES", "Connected",
    "Device", "Disconnected", "EdgePan", "Error", "Event", "Filter", "GestureEvent", "Greeting", "LongPress", "Pan",
    "Pinch", "ProtocolError", "Region", "Rotate", "Swipe", "Tap", "Values", "gesture",
]
__version__ = "0.1.0"
