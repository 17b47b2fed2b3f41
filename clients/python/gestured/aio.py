"""The asyncio client: the same protocol and reconnecting as `Client`, on an event loop."""
from __future__ import annotations

import asyncio
import itertools
from typing import Any, AsyncIterator, Dict, Optional

from .client import MAXIMUM_BACKOFF, MINIMUM_BACKOFF, Handler, default_socket_path
from .messages import (Connected, Disconnected, Error, Event, Filter, GestureEvent, Greeting, ProtocolError, Region,
                       decode, encode)


class AsyncClient:
    """gestured's socket on asyncio:

        client = await gestured.AsyncClient.connect()
        await client.register(gestured.Region("panel", (40, 20, 120, 60), [gestured.gesture("swipe")]))
        async for event in client.events():
            ...

    One task reads the socket: it answers the requests' awaits, calls the regions' handlers
    and queues events for `events()`. Reconnects as `Client` does."""

    def __init__(self, path: Optional[str] = None, *, reconnect: bool = True, timeout: float = 5.0) -> None:
        self.path = path or default_socket_path()
        self.reconnect = reconnect
        self.timeout = timeout
        self.greeting: Optional[Greeting] = None
        self._reader: Optional[asyncio.StreamReader] = None
        self._writer: Optional[asyncio.StreamWriter] = None
        self._ids = itertools.count(1)
        self._waiting: Dict[int, "asyncio.Future[Dict[str, Any]]"] = {}
        self._events: "asyncio.Queue[Optional[Event]]" = asyncio.Queue()
        self._regions: Dict[str, Region] = {}
        self._handlers: Dict[str, Handler] = {}
        self._filter: Optional[Filter] = None
        self._subscribed = True
        self._context: Optional[Dict[str, str]] = None
        self._task: Optional["asyncio.Task[None]"] = None
        self._restoring: Optional["asyncio.Task[None]"] = None
        self._connected = asyncio.Event()
        self._closed = False

    @classmethod
    async def connect(cls, path: Optional[str] = None, *, reconnect: bool = True, timeout: float = 5.0) -> "AsyncClient":
        """Connects and reads the greeting; raises OSError when nobody listens at `path`."""
        client = cls(path, reconnect=reconnect, timeout=timeout)
        await client._open()
        client._task = asyncio.get_running_loop().create_task(client._read_loop())
        return client

    async def register(self, region: Region, handler: Optional[Handler] = None) -> None:
        """As `Client.register`."""
        await self._request({"type": "register", "region": region.to_json()})
        self._regions[region.id] = region
        if handler is not None:
            self._handlers[region.id] = handler

    async def update(self, region_id: str, **fields: Any) -> None:
        """As `Client.update`."""
        change: Dict[str, Any] = {"id": region_id}
        for key, value in fields.items():
            change[key.replace("_", "-")] = list(value) if isinstance(value, tuple) else value
        await self._request({"type": "update", "region": change})
        region = self._regions.get(region_id)
        if region is not None:
            for key, value in fields.items():
                setattr(region, key, value)

    async def unregister(self, region_id: str) -> None:
        """As `Client.unregister`."""
        await self._request({"type": "unregister", "region": region_id})
        gone = {region_id}
        changed = True
        while changed:
            changed = False
            for r, region in self._regions.items():
                if r not in gone and region.parent in gone:
                    gone.add(r)
                    changed = True
        for r in gone:
            self._regions.pop(r, None)
            self._handlers.pop(r, None)

    async def subscribe(self, filter: Optional[Filter] = None) -> None:
        """As `Client.subscribe`."""
        message: Dict[str, Any] = {"type": "subscribe"}
        if filter is not None:
            message["filter"] = filter.to_json()
        await self._request(message)
        self._filter, self._subscribed = filter, True

    async def unsubscribe(self) -> None:
        await self._request({"type": "unsubscribe"})
        self._filter, self._subscribed = None, False

    async def set_context(self, context: Dict[str, str]) -> None:
        await self._request({"type": "context", "context": dict(context)})
        self._context = dict(context)

    async def ping(self) -> float:
        loop = asyncio.get_running_loop()
        start = loop.time()
        await self._request({"type": "ping"})
        return loop.time() - start

    async def events(self) -> AsyncIterator[Event]:
        """As `Client.events`: ends when the client is closed, or the connection is lost and
        `reconnect` is False."""
        while True:
            event = await self._events.get()
            if event is None:
                return
            yield event

    async def close(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
        if self._writer is not None:
            self._writer.close()
        self._events.put_nowait(None)

    async def __aenter__(self) -> "AsyncClient":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    # The connection.

    async def _open(self) -> None:
        self._reader, self._writer = await asyncio.wait_for(asyncio.open_unix_connection(self.path, limit=1 << 20), self.timeout)
        line = await asyncio.wait_for(self._reader.readline(), self.timeout)
        if not line:
            raise ConnectionError("the service closed the connection before its greeting")
        self.greeting = Greeting.from_json(decode(line.rstrip(b"\r\n")))
        self._events.put_nowait(Connected(self.greeting))
        self._connected.set()

    async def _request(self, message: Dict[str, Any]) -> Dict[str, Any]:
        await asyncio.wait_for(self._connected.wait(), self.timeout)
        request_id = next(self._ids)
        answer: "asyncio.Future[Dict[str, Any]]" = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = answer
        try:
            assert self._writer is not None
            self._writer.write(encode({**message, "id": request_id}))
            await self._writer.drain()
            o = await asyncio.wait_for(answer, self.timeout)
        finally:
            self._waiting.pop(request_id, None)
        if o.get("type") == "error":
            raise ProtocolError.from_json(o)
        return o

    async def _read_loop(self) -> None:
        backoff = MINIMUM_BACKOFF
        while not self._closed:
            reason = "the service closed the connection"
            try:
                assert self._reader is not None
                while True:
                    line = await self._reader.readline()
                    if not line:
                        break
                    self._dispatch(decode(line.rstrip(b"\r\n")))
            except (ConnectionError, OSError) as error:
                reason = str(error)
            self._connected.clear()
            for answer in self._waiting.values():
                if not answer.done():
                    answer.set_exception(ConnectionError(reason))
            self._events.put_nowait(Disconnected(reason))
            if not self.reconnect or self._closed:
                self._events.put_nowait(None)
                return
            while not self._closed:
                await asyncio.sleep(backoff)
                try:
                    await self._open()
                    backoff = MINIMUM_BACKOFF
                    self._restoring = asyncio.get_running_loop().create_task(self._restore())
                    break
                except (OSError, ProtocolError, asyncio.TimeoutError):
                    backoff = min(backoff * 2, MAXIMUM_BACKOFF)

    async def _restore(self) -> None:
        """After connecting again: the subscription, the context and the regions, parents first."""
        requests = []
        if not self._subscribed:
            requests.append({"type": "unsubscribe"})
        elif self._filter is not None:
            requests.append({"type": "subscribe", "filter": self._filter.to_json()})
        if self._context is not None:
            requests.append({"type": "context", "context": self._context})
        requests += [{"type": "register", "region": r.to_json()} for r in list(self._regions.values())]
        for message in requests:
            try:
                await self._request(message)
            except ProtocolError as error:
                self._events.put_nowait(Error(error))
            except (ConnectionError, OSError, asyncio.TimeoutError):
                return

    def _dispatch(self, o: Dict[str, Any]) -> None:
        kind = o.get("type")
        request_id = o.get("id")
        if kind in ("reply", "pong", "error") and isinstance(request_id, int) and request_id in self._waiting:
            answer = self._waiting[request_id]
            if not answer.done():
                answer.set_result(o)
            return
        if kind == "gesture":
            event = GestureEvent.from_json(o)
            handler = self._handlers.get(event.region)
            if handler is not None:
                handler(event)
            self._events.put_nowait(event)
        elif kind == "error":
            self._events.put_nowait(Error(ProtocolError.from_json(o)))
