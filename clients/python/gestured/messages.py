"""The protocol's messages as Python values (docs/protocol.md): what the service sends, typed,
and what a client asks for, checked where the protocol is strict."""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

PROTOCOL_VERSION = 1
"""The protocol's major version this client speaks: a greeting with another is refused."""

KINDS = ("tap", "long-press", "pan", "swipe", "pinch", "rotate", "edge-pan")
STATES = ("recognized", "began", "changed", "ended", "cancelled")


class ProtocolError(Exception):
    """The service's `error` reply (or one this client makes for a line it cannot read).

    `code` is the protocol's (`invalid-field`, `unknown-region`, …), `field` the path of the
    field at fault (`region.gestures[0].taps`) or None, `message` the service's words."""

    def __init__(self, code: str, message: str, field: Optional[str] = None, id: Any = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.field = field
        self.id = id

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "ProtocolError":
        return cls(str(o.get("code", "")), str(o.get("message", "")), o.get("field"), o.get("id"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ProtocolError) and (self.code, self.message, self.field) == (other.code, other.message, other.field)

    def __repr__(self) -> str:
        return f"ProtocolError({self.code!r}, {self.message!r}, field={self.field!r})"


@dataclass(frozen=True)
class Device:
    """A device the service uses: its name, `touchscreen` or `touchpad`, and its node."""
    name: str
    kind: str
    node: str


@dataclass(frozen=True)
class Greeting:
    """The service's first line: its protocol version, what it is using, its limits."""
    version: int
    minor: int
    service: str
    devices: Tuple[Device, ...]
    layouts: Tuple[str, ...]
    kinds: Tuple[str, ...]
    limits: Dict[str, int]

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "Greeting":
        if o.get("protocol") != "gestured" or o.get("type") != "greeting":
            raise ProtocolError("malformed", "the first line is not gestured's greeting")
        if o.get("version") != PROTOCOL_VERSION:
            raise ProtocolError("malformed", f"the service speaks protocol {o.get('version')}, this client {PROTOCOL_VERSION}")
        devices = tuple(Device(str(d.get("name", "")), str(d.get("kind", "")), str(d.get("node", ""))) for d in o.get("devices", []))
        return cls(PROTOCOL_VERSION, int(o.get("minor", 0)), str(o.get("service", "")), devices,
                   tuple(o.get("layouts", [])), tuple(o.get("kinds", [])), dict(o.get("limits", {})))


# The kinds' values, as a gesture message carries them (layout units; seconds for rates).

@dataclass(frozen=True)
class Tap:
    taps: int


@dataclass(frozen=True)
class LongPress:
    """How long the fingers have been down, in milliseconds (protocol 1.1)."""
    duration_ms: float


@dataclass(frozen=True)
class Pan:
    """Movement since the pan began, and velocity, in layout units (per second)."""
    dx: float
    dy: float
    vx: float
    vy: float


@dataclass(frozen=True)
class Swipe:
    """`left` `right` `up` `down` (or a diagonal); the movement and velocity when recognized;
    after how many millimetres and milliseconds the direction was decided."""
    direction: str
    dx: float
    dy: float
    vx: float
    vy: float
    decided_mm: float
    decided_ms: float


@dataclass(frozen=True)
class Pinch:
    """Scale relative to the start, its change per second, and the fingers' mean distance from
    their centroid in millimetres on the surface (protocol 1.1)."""
    scale: float
    scale_velocity: float
    span_mm: float


@dataclass(frozen=True)
class Rotate:
    """Degrees turned since the start (clockwise positive, y down), and degrees per second."""
    rotation: float
    rotation_velocity: float


@dataclass(frozen=True)
class EdgePan:
    """The edge it began at (`left` `right` `top` `bottom`), its movement and velocity."""
    edge: str
    dx: float
    dy: float
    vx: float
    vy: float


Values = Union[Tap, LongPress, Pan, Swipe, Pinch, Rotate, EdgePan]

# Each kind's values, and the keys that carry them, in the order of the values' fields.
_VALUES: Dict[str, Tuple[type, Tuple[str, ...]]] = {
    "tap": (Tap, ("taps",)),
    "long-press": (LongPress, ("duration_ms",)),
    "pan": (Pan, ("dx", "dy", "vx", "vy")),
    "swipe": (Swipe, ("direction", "dx", "dy", "vx", "vy", "decided_mm", "decided_ms")),
    "pinch": (Pinch, ("scale", "scale_velocity", "span_mm")),
    "rotate": (Rotate, ("rotation", "rotation_velocity")),
    "edge-pan": (EdgePan, ("edge", "dx", "dy", "vx", "vy")),
}


@dataclass(frozen=True)
class GestureEvent:
    """One `gesture` message: a gesture on one of the client's regions, or one of the service's
    its subscription lets through.

    `values` are the kind's values, typed (`Tap`, `Swipe`, …), decoded once: None for a message
    that does not carry all of them (a 1.0 service's long press or pinch) rather than made-up
    ones. `tap`, `swipe`, … give them by kind, None for another."""
    time: float
    kind: str
    state: str
    region: str
    touches: int
    x: float
    y: float
    device: Optional[str] = None
    current_touches: Optional[int] = None
    local_x: Optional[float] = None
    local_y: Optional[float] = None
    values: Optional[Values] = None

    @classmethod
    def from_json(cls, o: Dict[str, Any]) -> "GestureEvent":
        try:
            kind = str(o["kind"])
            values = None
            if kind in _VALUES:
                make, keys = _VALUES[kind]
                if all(o.get(k) is not None for k in keys):
                    values = make(*(o[k] if k in ("direction", "edge") else _number(o[k], k) for k in keys))
            return cls(time=_number(o["time"], "time"), kind=kind, state=str(o["state"]), region=str(o["region"]),
                       touches=int(o["touches"]), x=_number(o["x"], "x"), y=_number(o["y"], "y"), device=o.get("device"),
                       current_touches=o.get("current_touches"), local_x=o.get("local_x"), local_y=o.get("local_y"),
                       values=values)
        except KeyError as missing:
            raise ProtocolError("missing-field", f"a gesture message must have {missing.args[0]!r}", str(missing.args[0])) from None

    def _as(self, kind: type) -> Any:
        return self.values if isinstance(self.values, kind) else None

    @property
    def tap(self) -> Optional[Tap]:
        return self._as(Tap)

    @property
    def long_press(self) -> Optional[LongPress]:
        return self._as(LongPress)

    @property
    def pan(self) -> Optional[Pan]:
        return self._as(Pan)

    @property
    def swipe(self) -> Optional[Swipe]:
        return self._as(Swipe)

    @property
    def pinch(self) -> Optional[Pinch]:
        return self._as(Pinch)

    @property
    def rotate(self) -> Optional[Rotate]:
        return self._as(Rotate)

    @property
    def edge_pan(self) -> Optional[EdgePan]:
        return self._as(EdgePan)


def _number(v: Any, key: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise ProtocolError("invalid-field", f"{key} must be a number, not {json.dumps(v)}", key)
    return float(v)


# What a client asks for.

def gesture(kind: str, **parameters: Any) -> Dict[str, Any]:
    """A recognizer for a region: `kind` and its parameters with the configuration's names,
    written with underscores (`gesture("long-press", min_duration=600)`,
    `gesture("swipe", directions=["left", "right"])`, `gesture("tap", taps=2)`)."""
    if kind not in KINDS:
        raise ValueError(f"unknown gesture kind {kind!r}: one of {', '.join(KINDS)}")
    spec: Dict[str, Any] = {"kind": kind}
    for key, value in parameters.items():
        spec[key.replace("_", "-")] = value
    return spec


Frame = Tuple[float, float, float, float]
Insets = Union[float, Tuple[float, float, float, float]]


@dataclass
class Region:
    """A region of the client's own: its id, `frame` (x, y, width, height) in its parent's
    coordinates (the service's layout units for a region without a parent), and the gestures
    it recognises (`gesture(...)`). `hit_insets` is one number for all sides or (top, left,
    bottom, right), negative to extend the hit area. An `exclusion` region (protocol 1.1)
    keeps the touches that begin in it from the service's own gestures."""
    id: str
    frame: Frame
    gestures: Sequence[Dict[str, Any]] = field(default_factory=list)
    hit_insets: Optional[Insets] = None
    parent: Optional[str] = None
    hidden: bool = False
    enabled: bool = True
    exclusion: bool = False

    def to_json(self) -> Dict[str, Any]:
        o: Dict[str, Any] = {"id": self.id, "frame": list(self.frame), "gestures": list(self.gestures)}
        if self.hit_insets is not None:
            o["hit-insets"] = self.hit_insets if isinstance(self.hit_insets, (int, float)) else list(self.hit_insets)
        if self.parent is not None:
            o["parent"] = self.parent
        if self.hidden:
            o["hidden"] = True
        if not self.enabled:
            o["enabled"] = False
        if self.exclusion:
            o["exclusion"] = True
        return o


@dataclass(frozen=True)
class Filter:
    """Which of the service's own gestures to get: an event must match every list given (None:
    any; an empty list: none)."""
    kinds: Optional[Sequence[str]] = None
    states: Optional[Sequence[str]] = None
    regions: Optional[Sequence[str]] = None
    devices: Optional[Sequence[str]] = None

    def to_json(self) -> Dict[str, Any]:
        return {k: list(v) for k, v in (("kinds", self.kinds), ("states", self.states), ("regions", self.regions),
                                          ("devices", self.devices)) if v is not None}


def encode(message: Dict[str, Any]) -> bytes:
    """One line of the protocol: no NaN or infinity, which JSON has not."""
    return (json.dumps(message, allow_nan=False, separators=(", ", ": ")) + "\n").encode("utf-8")


def decode(line: bytes) -> Dict[str, Any]:
    """A line the service wrote, as an object."""
    try:
        o = json.loads(line.decode("utf-8"), parse_constant=_refuse_constant)
    except (ValueError, UnicodeDecodeError) as error:
        raise ProtocolError("malformed", f"the service wrote a line that is not JSON: {error}") from None
    if not isinstance(o, dict):
        raise ProtocolError("not-an-object", "the service wrote a line that is not a JSON object")
    return o


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def finite(v: float) -> bool:
    return isinstance(v, (int, float)) and math.isfinite(v)


# Events a client's `events()` gives.

@dataclass(frozen=True)
class Connected:
    """Connected (again), with the service's greeting; the client's regions are registered again."""
    greeting: Greeting


@dataclass(frozen=True)
class Disconnected:
    """The connection was lost; the client tries again unless it was made with `reconnect=False`."""
    reason: str


@dataclass(frozen=True)
class Error:
    """An error the service sent that answers no request of this client's blocking calls (one
    for a region registered again after reconnecting, say)."""
    error: ProtocolError


Event = Union[GestureEvent, Connected, Disconnected, Error]
