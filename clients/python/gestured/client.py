"""The blocking client: one socket, read on the caller's thread (`events()`)."""
from __future__ import annotations

import collections
import itertools
import os
import select
import socket
import time
from typing import Any, Callable, Deque, Dict, Iterator, List, Optional

from .messages import (Connected, Disconnected, Error, Event, Filter, GestureEvent, Greeting, ProtocolError, Region,
                       decode, encode)

DEFAULT_SOCKET = "/run/gestured/gestured.sock"
MINIMUM_BACKOFF = 0.1
"""Seconds before the first try to connect again; it doubles up to `MAXIMUM_BACKOFF`."""
MAXIMUM_BACKOFF = 5.0

Handler = Callable[[GestureEvent], None]


def default_socket_path(environment: Optional[Dict[str, str]] = None) -> str:
    """`$GESTURED_SOCKET`, else /run/gestured/gestured.sock (the service's under systemd)."""
    env = os.environ if environment is None else environment
    return env.get("GESTURED_SOCKET") or DEFAULT_SOCKET


class Client:
    """gestured's socket from Python, blocking: connect, register regions of your own with a
    handler each, subscribe to the service's gestures, and iterate over what comes.

        client = gestured.Client.connect()          # $GESTURED_SOCKET or /run/gestured/gestured.sock
        print(client.greeting.devices)
        client.register(gestured.Region("ok", (80, 40, 40, 20), [gestured.gesture("tap")]))
        for event in client.events():
            print(event)

    Handlers and `events()` run on the thread that iterates. Requests (`register`, `update`,
    `unregister`, `subscribe`, `set_context`, `ping`) wait for the service's answer and raise
    its `ProtocolError`; gestures that come meanwhile wait for `events()`. With `reconnect`
    (the default), a lost connection is tried again after 0.1 s, doubling up to 5 s, and once
    connected the client subscribes, sets its context and registers its regions again."""

    def __init__(self, path: Optional[str] = None, *, reconnect: bool = True, timeout: float = 5.0) -> None:
        self.path = path or default_socket_path()
        self.reconnect = reconnect
        self.timeout = timeout
        self.greeting: Optional[Greeting] = None
        self._sock: Optional[socket.socket] = None
        self._buffer = b""
        self._ids = itertools.count(1)
        self._pending: Deque[Event] = collections.deque()
        self._regions: Dict[str, Region] = {}
        self._handlers: Dict[str, Handler] = {}
        self._filter: Optional[Filter] = None
        self._subscribed = True
        self._context: Optional[Dict[str, str]] = None
        self._closed = False

    @classmethod
    def connect(cls, path: Optional[str] = None, *, reconnect: bool = True, timeout: float = 5.0) -> "Client":
        """Connects and reads the greeting (`client.greeting`); raises OSError when nobody
        listens at `path`, `ProtocolError` when what answers is not gestured's protocol 1."""
        client = cls(path, reconnect=reconnect, timeout=timeout)
        client._open()
        return client

    # Requests.

    def register(self, region: Region, handler: Optional[Handler] = None) -> None:
        """Registers `region`; `handler` gets its gestures (as `events()` does). Raises the
        service's `ProtocolError` (`duplicate-id`, `invalid-field`, …), and the region is not kept."""
        self._request({"type": "register", "region": region.to_json()})
        self._regions[region.id] = region
        if handler is not None:
            self._handlers[region.id] = handler

    def update(self, region_id: str, **fields: Any) -> None:
        """Changes some of a region's fields: `frame`, `hit_insets`, `hidden`, `enabled`, `exclusion`."""
        change: Dict[str, Any] = {"id": region_id}
        for key, value in fields.items():
            change[key.replace("_", "-")] = list(value) if isinstance(value, tuple) else value
        self._request({"type": "update", "region": change})
        region = self._regions.get(region_id)
        if region is not None:
            for key, value in fields.items():
                setattr(region, key, value)

    def unregister(self, region_id: str) -> None:
        """Removes the region and its children; a gesture in progress on it ends `cancelled`."""
        self._request({"type": "unregister", "region": region_id})
        for gone in [r for r in self._regions if r == region_id or self._descends(r, region_id)]:
            self._regions.pop(gone, None)
            self._handlers.pop(gone, None)

    def subscribe(self, filter: Optional[Filter] = None) -> None:
        """Which of the service's own gestures to get (all, without a filter)."""
        message: Dict[str, Any] = {"type": "subscribe"}
        if filter is not None:
            message["filter"] = filter.to_json()
        self._request(message)
        self._filter, self._subscribed = filter, True

    def unsubscribe(self) -> None:
        """None of the service's own gestures; the client's regions' still come."""
        self._request({"type": "unsubscribe"})
        self._filter, self._subscribed = None, False

    def set_context(self, context: Dict[str, str]) -> None:
        """Where the client runs (`{"app": "org.example.kiosk"}` says which app has the focus)."""
        self._request({"type": "context", "context": dict(context)})
        self._context = dict(context)

    def ping(self) -> float:
        """Seconds until the service's `pong`."""
        start = time.monotonic()
        self._request({"type": "ping"})
        return time.monotonic() - start

    # Events.

    def events(self, timeout: Optional[float] = None) -> Iterator[Event]:
        """Gestures (`GestureEvent`), and `Connected`, `Disconnected` and `Error`, as they
        come; a region's handler is called before its gesture is given. Ends after `timeout`
        seconds without any (None: never), when the client is closed, or when the connection
        is lost and `reconnect` is False."""
        while not self._closed:
            if not self._pending:
                if not self._fill(timeout):
                    return
            while self._pending:
                event = self._pending.popleft()
                if isinstance(event, GestureEvent) and event.region in self._handlers:
                    self._handlers[event.region](event)
                yield event

    def close(self) -> None:
        """Closes the connection; the service removes the client's regions."""
        self._closed = True
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # The connection.

    def _open(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.settimeout(self.timeout)
            sock.connect(self.path)
        except OSError:
            sock.close()
            raise
        self._sock, self._buffer = sock, b""
        self.greeting = Greeting.from_json(decode(self._read_line(self.timeout)))
        self._pending.append(Connected(self.greeting))

    def _restore(self) -> None:
        """After connecting again: the subscription, the context and the regions, parents first."""
        if not self._subscribed:
            self._request({"type": "unsubscribe"}, restoring=True)
        elif self._filter is not None:
            self._request({"type": "subscribe", "filter": self._filter.to_json()}, restoring=True)
        if self._context is not None:
            self._request({"type": "context", "context": self._context}, restoring=True)
        for region in list(self._regions.values()):
            self._request({"type": "register", "region": region.to_json()}, restoring=True)

    def _lost(self, reason: str) -> None:
        """The connection is gone: `Disconnected` is given next, and the client connects again
        when next asked for something (unless it does not reconnect)."""
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        self._pending.append(Disconnected(reason))
        if not self.reconnect:
            self._closed = True

    def _connect_again(self) -> bool:
        """Tries until connected (0.1 s, doubling up to 5 s); False once closed."""
        backoff = MINIMUM_BACKOFF
        while not self._closed:
            try:
                self._open()
                self._restore()
                return True
            except (OSError, ProtocolError):
                if self._sock is not None:
                    self._sock.close()
                    self._sock = None
            time.sleep(backoff)
            backoff = min(backoff * 2, MAXIMUM_BACKOFF)
        return False

    def _request(self, message: Dict[str, Any], restoring: bool = False) -> Dict[str, Any]:
        """Sends `message` with a new id and reads until its answer; what else comes waits."""
        while True:
            if self._sock is None and not self._connect_again():
                raise ConnectionError(f"not connected to {self.path}")
            request_id = next(self._ids)
            try:
                assert self._sock is not None
                self._sock.sendall(encode({**message, "id": request_id}))
                while True:
                    o = decode(self._read_line(self.timeout))
                    if o.get("id") == request_id and o.get("type") in ("reply", "pong", "error"):
                        if o["type"] == "error":
                            error = ProtocolError.from_json(o)
                            if restoring:
                                self._pending.append(Error(error))
                                return o
                            raise error
                        return o
                    self._take(o)
            except TimeoutError:
                raise
            except (ConnectionError, OSError) as error:
                if restoring:
                    raise
                self._lost(str(error))
                if self._closed:
                    raise ConnectionError(f"the connection to {self.path} was lost: {error}") from None

    def _take(self, o: Dict[str, Any]) -> None:
        kind = o.get("type")
        if kind == "gesture":
            self._pending.append(GestureEvent.from_json(o))
        elif kind == "error":
            self._pending.append(Error(ProtocolError.from_json(o)))
        # Other types (a later version's) are ignored, as the protocol asks.

    def _fill(self, timeout: Optional[float]) -> bool:
        """Reads until something is pending; False after `timeout` or once closed for good."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while not self._pending:
            if self._sock is None and not self._connect_again():
                return False
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                line = self._read_line(left)
            except TimeoutError:
                return False
            except (ConnectionError, OSError) as error:
                self._lost(str(error))
                continue
            self._take(decode(line))
        return True

    def _read_line(self, timeout: Optional[float]) -> bytes:
        deadline = None if timeout is None else time.monotonic() + timeout
        while b"\n" not in self._buffer:
            sock = self._sock
            if sock is None:
                raise ConnectionError("not connected")
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError("no line from the service in time")
            ready, _, _ = select.select([sock], [], [], left)
            if not ready:
                raise TimeoutError("no line from the service in time")
            chunk = sock.recv(65536)
            if not chunk:
                raise ConnectionError("the service closed the connection")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.rstrip(b"\r")

    def _descends(self, region_id: str, ancestor: str) -> bool:
        parent = self._regions[region_id].parent
        while parent is not None:
            if parent == ancestor:
                return True
            parent = self._regions[parent].parent if parent in self._regions else None
        return False

    @property
    def regions(self) -> List[str]:
        """The ids of the regions the client has registered."""
        return list(self._regions)
