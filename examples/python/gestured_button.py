#!/usr/bin/python3
"""A button of your own on gestured's socket, in any language: this one is Python with the
standard library only. It registers a 40 x 20 region, prints every gesture it gets, and
exits after --taps taps (or runs until interrupted). Protocol: docs/protocol.md.

    python3 examples/python/gestured_button.py --frame 80 40 40 20 --taps 1
"""
import argparse
import json
import os
import socket
import sys


def main():
    p = argparse.ArgumentParser(description="Register a button with gestured and print its taps.")
    p.add_argument("--socket", default=os.environ.get("GESTURED_SOCKET", "/run/gestured/gestured.sock"))
    p.add_argument("--frame", nargs=4, type=float, default=[80, 40, 40, 20], metavar=("X", "Y", "W", "H"),
                   help="where the button is, in the service's layout units")
    p.add_argument("--taps", type=int, default=0, help="exit after this many taps (0: never)")
    args = p.parse_args()

    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(args.socket)
    except OSError as error:
        sys.exit(f"cannot connect to {args.socket}: {error.strerror} "
                 "(is gestured running? is this user in its socket group? --socket or $GESTURED_SOCKET says where)")
    lines = conn.makefile("r", encoding="utf-8")

    greeting = json.loads(lines.readline())
    if greeting.get("protocol") != "gestured" or greeting.get("version") != 1:
        sys.exit(f"not a gestured protocol 1 socket: {greeting}")
    print(f"connected to gestured {greeting['service']}; devices: {[d['name'] for d in greeting['devices']]}", flush=True)

    def send(request):
        conn.sendall((json.dumps(request) + "\n").encode())

    send({"type": "unsubscribe", "id": 1})  # only this client's own button
    send({"type": "register", "id": 2, "region": {
        "id": "button", "frame": args.frame, "hit-insets": -2,
        "gestures": [{"kind": "tap"}, {"kind": "long-press"}]}})

    taps = 0
    for line in lines:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "error":
            sys.exit(f"gestured refused request {message['id']}: {message['message']}")
        if kind == "reply" and message["id"] == 2:
            print("registered the button", flush=True)
        if kind == "gesture":
            print(f"{message['kind']} {message['state']} on {message['region']} at "
                  f"({message['local_x'] if 'local_x' in message else message['x']}, "
                  f"{message['local_y'] if 'local_y' in message else message['y']})", flush=True)
            if message["kind"] == "tap":
                taps += 1
                if args.taps and taps >= args.taps:
                    return
    sys.exit("gestured closed the connection")


if __name__ == "__main__":
    main()
