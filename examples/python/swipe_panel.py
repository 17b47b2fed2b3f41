#!/usr/bin/python3
"""A kiosk's panel that pages left and right with a swipe, on gestured's Python client
(clients/python: `pip install ./clients/python`, or run from a checkout as below).

    python3 examples/python/swipe_panel.py --frame 40 20 120 60
    python3 examples/python/swipe_panel.py --socket /tmp/try.sock --swipes 1   # beside `gestured run --play …`
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
import gestured  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser(description="A panel that pages with a swipe, as a region of gestured's.")
    p.add_argument("--socket", default=None, help="the service's socket (default: $GESTURED_SOCKET, else /run/gestured/gestured.sock)")
    p.add_argument("--frame", nargs=4, type=float, default=[40, 20, 120, 60], metavar=("X", "Y", "W", "H"),
                   help="where the panel is, in the service's layout units")
    p.add_argument("--swipes", type=int, default=0, help="exit after this many swipes (0: never)")
    args = p.parse_args()

    page = 0
    swipes = 0

    def swiped(event: gestured.GestureEvent) -> None:
        nonlocal page, swipes
        if event.swipe is None:
            return
        page += {"left": 1, "right": -1}.get(event.swipe.direction, 0)
        swipes += 1
        print(f"swiped {event.swipe.direction} with {event.touches} finger(s): page {page}", flush=True)

    try:
        client = gestured.Client.connect(args.socket)
    except OSError as error:
        sys.exit(f"cannot connect to gestured: {error.strerror} (is it running? is this user in its socket group?)")
    print(f"connected to gestured {client.greeting.service}; devices: {[d.name for d in client.greeting.devices]}", flush=True)
    client.subscribe(gestured.Filter(kinds=[]))  # none of the service's own gestures: only the panel's
    panel = gestured.Region("panel", tuple(args.frame), [gestured.gesture("swipe", directions=["left", "right"], touches=1)])
    client.register(panel, swiped)
    for event in client.events():
        if isinstance(event, gestured.Disconnected):
            print("gestured went away; waiting for it to come back", flush=True)
        if args.swipes and swipes >= args.swipes:
            break
    client.close()


if __name__ == "__main__":
    main()
