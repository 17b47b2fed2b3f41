import Gestures
import TouchEvents

/// One gesture event as it leaves the process: the one model behind `gestured replay --json`,
/// `gestured run --json`, the socket's `gesture` messages and an `exec` action's environment,
/// so the three cannot drift apart. Values are rounded as they are written (positions and
/// distances to 0.01, times to the microsecond), so an event read back from its line equals
/// the event written.
///
/// Units: positions and translations in layout units (millimetres on the touch surface unless a
/// configuration maps the device onto a screen); `vx`/`vy` in layout units per second;
/// `scale_velocity` in scale per second; `rotation` in degrees (clockwise positive, y down) and
/// `rotation_velocity` in degrees per second; `time` in seconds from the recording's or
/// session's first event.
public struct GestureEvent: Sendable, Equatable {
    public var time: Double
    public var device: String?
    public var kind: GestureKind
    public var state: GestureState
    public var region: String
    /// The socket client whose region it is (its number, as the service's log names it), in
    /// `gestured run --json`; nil for the service's own regions, and in the messages a client
    /// gets (its own regions are the only client regions it sees).
    public var client: Int?
    /// The gesture's fingers (the most it has had down); `currentTouches` the fingers down now,
    /// where they differ.
    public var touches: Int
    public var currentTouches: Int?
    public var x: Double
    public var y: Double
    /// The location in the region's own coordinates, where that differs from `x`/`y`.
    public var localX: Double?
    public var localY: Double?
    public var taps: Int?
    /// A long press: how long its fingers have been down, in milliseconds (protocol 1.1).
    public var durationMS: Double?
    public var dx: Double?
    public var dy: Double?
    public var vx: Double?
    public var vy: Double?
    public var scale: Double?
    public var scaleVelocity: Double?
    /// A pinch: the fingers' mean distance from their centroid, in millimetres on the surface
    /// (protocol 1.1).
    public var spanMM: Double?
    public var rotation: Double?
    public var rotationVelocity: Double?
    public var direction: SwipeDirection?
    /// A swipe: after how many millimetres and milliseconds its direction was decided.
    public var decidedMM: Double?
    public var decidedMS: Double?
    public var edge: Edge?

    public init(kind: GestureKind, state: GestureState, region: String, touches: Int, x: Double, y: Double, time: Double = 0) {
        self.kind = kind
        self.state = state
        self.region = region
        self.touches = touches
        self.x = x
        self.y = y
        self.time = time
    }

    /// `g` as it is written; `time` counts from `origin`.
    public init(_ g: Gesture, origin: Instant) {
        time = Double((g.time - origin).inMicroseconds) / 1_000_000
        device = g.device
        kind = g.kind
        state = g.state
        region = g.region
        touches = g.touches
        currentTouches = g.currentTouches
        x = Self.round(g.location.x, 2)
        y = Self.round(g.location.y, 2)
        if g.localLocation != g.location {
            localX = Self.round(g.localLocation.x, 2)
            localY = Self.round(g.localLocation.y, 2)
        }
        // The kind's payload, once: each value under its key.
        func movement(_ t: Point, _ v: Point) {
            dx = Self.round(t.x, 2)
            dy = Self.round(t.y, 2)
            vx = Self.round(v.x, 2)
            vy = Self.round(v.y, 2)
        }
        switch g.values {
        case .tap(let tap):
            taps = tap.taps
        case .pan(let pan):
            movement(pan.translation, pan.velocity)
        case .swipe(let swipe):
            movement(swipe.translation, swipe.velocity)
            direction = swipe.direction
            decidedMM = Self.round(swipe.decidedAfterMillimetres, 1)
            decidedMS = Self.round(swipe.decidedAfter.inMilliseconds, 1)
        case .edgePan(let edgePan):
            movement(edgePan.translation, edgePan.velocity)
            edge = edgePan.edge
        case .pinch(let pinch):
            scale = Self.round(pinch.scale, 4)
            scaleVelocity = Self.round(pinch.scalePerSecond, 4)
            spanMM = Self.round(pinch.spanMillimetres, 2)
        case .rotate(let rotate):
            rotation = Self.round(rotate.degrees, 2)
            rotationVelocity = Self.round(rotate.degreesPerSecond, 2)
        case .longPress(let press):
            durationMS = Self.round(press.duration.inMilliseconds, 1)
        case .custom:
            break
        }
    }

    static func round(_ v: Double, _ places: Int) -> Double {
        guard v.isFinite else { return 0 }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (v * scale).rounded() / scale
    }

    /// The event's keys and their JSON text, in the documented order, only those that apply.
    public var fields: [(key: String, json: String)] {
        var f: [(key: String, json: String)] = []
        forEachField { key, value in
            var text: [UInt8] = []
            value.append(to: &text, quoted: true)
            f.append((key, String(decoding: text, as: UTF8.self)))
        }
        return f
    }

    /// One value of ``forEachField(_:)``: a number rounded to some decimals, a whole number, text.
    enum FieldValue {
        case decimal(Double, places: Int)
        case integer(Int)
        case text(String)

        /// The value as JSON (`quoted`) or as plain text.
        func append(to text: inout [UInt8], quoted: Bool) {
            switch self {
            case .decimal(let v, let places): appendDecimal(v, places: places, to: &text)
            case .integer(let n): appendDecimal(scaled: Int64(n), places: 0, to: &text)
            case .text(let s): if quoted { appendJSONString(s, to: &text) } else { text.append(contentsOf: s.utf8) }
            }
        }
    }

    /// One key of the message: its name, its value in an event (nil: left out), and how it is
    /// read back from a JSON object.
    struct Key: Sendable {
        let name: String
        let value: @Sendable (GestureEvent) -> FieldValue?
        let read: @Sendable (inout GestureEvent, FieldReader) throws(ProtocolError) -> Void
    }

    /// The message's keys, in the documented order (docs/protocol.md's table lists them so; a
    /// test holds it to this): the writer (JSON lines, ``fields``, ``environment``) and the
    /// reader (``init(json:)``) both walk this one list. Values are rounded as they are written.
    static let keys: [Key] = [
        Key(name: "time", value: { .decimal($0.time, places: 6) }, read: { e, r throws(ProtocolError) in e.time = try r.number("time") }),
        Key(name: "device", value: { $0.device.map { .text($0) } },
            read: { e, r throws(ProtocolError) in e.device = try r.optionalString("device") }),
        Key(name: "kind", value: { .text($0.kind.rawValue) }, read: { e, r throws(ProtocolError) in e.kind = try r.enumeration("kind") }),
        Key(name: "state", value: { .text($0.state.rawValue) }, read: { e, r throws(ProtocolError) in e.state = try r.enumeration("state") }),
        Key(name: "region", value: { .text($0.region) }, read: { e, r throws(ProtocolError) in e.region = try r.string("region") }),
        Key(name: "client", value: { $0.client.map { .integer($0) } },
            read: { e, r throws(ProtocolError) in e.client = try r.optionalInteger("client") }),
        Key(name: "touches", value: { .integer($0.touches) }, read: { e, r throws(ProtocolError) in e.touches = try r.integer("touches") }),
        Key(name: "current_touches", value: { $0.currentTouches.map { .integer($0) } },
            read: { e, r throws(ProtocolError) in e.currentTouches = try r.optionalInteger("current_touches") }),
        Key(name: "x", value: { .decimal($0.x, places: 2) }, read: { e, r throws(ProtocolError) in e.x = try r.number("x") }),
        Key(name: "y", value: { .decimal($0.y, places: 2) }, read: { e, r throws(ProtocolError) in e.y = try r.number("y") }),
        // A pair is written whole or not at all.
        Key(name: "local_x", value: { e in e.localY == nil ? nil : e.localX.map { .decimal($0, places: 2) } },
            read: { e, r throws(ProtocolError) in e.localX = try r.optionalNumber("local_x") }),
        Key(name: "local_y", value: { e in e.localX == nil ? nil : e.localY.map { .decimal($0, places: 2) } },
            read: { e, r throws(ProtocolError) in e.localY = try r.optionalNumber("local_y") }),
        Key(name: "taps", value: { $0.taps.map { .integer($0) } }, read: { e, r throws(ProtocolError) in e.taps = try r.optionalInteger("taps") }),
        Key(name: "duration_ms", value: { $0.durationMS.map { .decimal($0, places: 1) } },
            read: { e, r throws(ProtocolError) in e.durationMS = try r.optionalNumber("duration_ms") }),
        Key(name: "dx", value: { e in e.dy == nil ? nil : e.dx.map { .decimal($0, places: 2) } },
            read: { e, r throws(ProtocolError) in e.dx = try r.optionalNumber("dx") }),
        Key(name: "dy", value: { e in e.dx == nil ? nil : e.dy.map { .decimal($0, places: 2) } },
            read: { e, r throws(ProtocolError) in e.dy = try r.optionalNumber("dy") }),
        Key(name: "vx", value: { e in e.vy == nil ? nil : e.vx.map { .decimal($0, places: 2) } },
            read: { e, r throws(ProtocolError) in e.vx = try r.optionalNumber("vx") }),
        Key(name: "vy", value: { e in e.vx == nil ? nil : e.vy.map { .decimal($0, places: 2) } },
            read: { e, r throws(ProtocolError) in e.vy = try r.optionalNumber("vy") }),
        Key(name: "scale", value: { $0.scale.map { .decimal($0, places: 4) } },
            read: { e, r throws(ProtocolError) in e.scale = try r.optionalNumber("scale") }),
        Key(name: "scale_velocity", value: { $0.scaleVelocity.map { .decimal($0, places: 4) } },
            read: { e, r throws(ProtocolError) in e.scaleVelocity = try r.optionalNumber("scale_velocity") }),
        Key(name: "span_mm", value: { $0.spanMM.map { .decimal($0, places: 2) } },
            read: { e, r throws(ProtocolError) in e.spanMM = try r.optionalNumber("span_mm") }),
        Key(name: "rotation", value: { $0.rotation.map { .decimal($0, places: 2) } },
            read: { e, r throws(ProtocolError) in e.rotation = try r.optionalNumber("rotation") }),
        Key(name: "rotation_velocity", value: { $0.rotationVelocity.map { .decimal($0, places: 2) } },
            read: { e, r throws(ProtocolError) in e.rotationVelocity = try r.optionalNumber("rotation_velocity") }),
        Key(name: "direction", value: { $0.direction.map { .text($0.rawValue) } },
            read: { e, r throws(ProtocolError) in e.direction = try r.optionalEnumeration("direction") }),
        Key(name: "decided_mm", value: { $0.decidedMM.map { .decimal($0, places: 1) } },
            read: { e, r throws(ProtocolError) in e.decidedMM = try r.optionalNumber("decided_mm") }),
        Key(name: "decided_ms", value: { $0.decidedMS.map { .decimal($0, places: 1) } },
            read: { e, r throws(ProtocolError) in e.decidedMS = try r.optionalNumber("decided_ms") }),
        Key(name: "edge", value: { $0.edge.map { .text($0.rawValue) } }, read: { e, r throws(ProtocolError) in e.edge = try r.optionalEnumeration("edge") }),
    ]

    /// The names of the message's keys, in the documented order.
    public static var keyNames: [String] { keys.map(\.name) }

    /// The event's keys and values, in the documented order, only those that apply.
    private func forEachField(_ body: (String, FieldValue) -> Void) {
        for key in Self.keys {
            if let value = key.value(self) { body(key.name, value) }
        }
    }

    /// One line of JSON (with its newline): `prefix` (already JSON, e.g. `"type": "gesture"`)
    /// first, then ``fields``.
    public func jsonLine(prefix: String? = nil) -> String {
        var text: [UInt8] = []
        appendJSONLine(to: &text, prefix: prefix)
        return String(decoding: text, as: UTF8.self)
    }

    /// ``jsonLine(prefix:)`` appended to `text`, with no string made on the way: what
    /// `gestured run --json` writes per frame (a buffer kept with its capacity allocates nothing).
    public func appendJSONLine(to text: inout [UInt8], prefix: String? = nil) {
        text.append(UInt8(ascii: "{"))
        var first = true
        if let prefix {
            text.append(contentsOf: prefix.utf8)
            first = false
        }
        forEachField { key, value in
            if !first {
                text.append(UInt8(ascii: ","))
                text.append(UInt8(ascii: " "))
            }
            first = false
            text.append(UInt8(ascii: "\""))
            text.append(contentsOf: key.utf8)
            text.append(UInt8(ascii: "\""))
            text.append(UInt8(ascii: ":"))
            text.append(UInt8(ascii: " "))
            value.append(to: &text, quoted: true)
        }
        text.append(UInt8(ascii: "}"))
        text.append(UInt8(ascii: "\n"))
    }

    /// What an `exec` action sees: `GESTURE_` and each key in capitals (`GESTURE_CURRENT_TOUCHES`),
    /// text without quotes.
    public var environment: [String: String] {
        var env: [String: String] = [:]
        forEachField { key, value in
            var text: [UInt8] = []
            value.append(to: &text, quoted: false)
            env["GESTURE_" + key.uppercased()] = String(decoding: text, as: UTF8.self)
        }
        return env
    }

    /// Reads an event back from one `--json` line (without its newline).
    public static func parse(_ line: some Collection<UInt8>) throws(ProtocolError) -> GestureEvent {
        try GestureEvent(json: try JSONObject.line(line, mustBe: "a gesture must be a JSON object"))
    }

    /// Reads an event back from its JSON object (a `gesture` message or a `--json` line); keys
    /// it does not know are ignored.
    public init(json o: JSONObject) throws(ProtocolError) {
        let r = FieldReader(o, path: "")
        self.init(kind: .tap, state: .possible, region: "", touches: 0, x: 0, y: 0)  // each key read below
        for key in Self.keys { try key.read(&self, r) }
    }
}

extension Gesture {
    /// The gesture as one line of JSON (``GestureEvent``), as `--json` prints it.
    public func jsonLine(origin: Instant) -> String {
        GestureEvent(self, origin: origin).jsonLine()
    }
}

// MARK: - The kinds' values, typed

extension GestureEvent {
    /// A tap's values as the line carries them: nil for another kind, or a line without them.
    public var tap: GestureValues.Tap? {
        guard kind == .tap, let taps else { return nil }
        return GestureValues.Tap(taps: taps)
    }

    /// A long press's values (its duration as written: to 0.1 ms), from a 1.1 service.
    public var longPress: GestureValues.LongPress? {
        guard kind == .longPress, let durationMS else { return nil }
        return GestureValues.LongPress(duration: .microseconds(Int64((durationMS * 1000).rounded())))
    }

    /// A pinch's values, from a 1.1 service (a 1.0 service's messages have no span).
    public var pinch: GestureValues.Pinch? {
        guard kind == .pinch, let scale, let spanMM, let scaleVelocity else { return nil }
        return GestureValues.Pinch(scale: scale, spanMillimetres: spanMM, scalePerSecond: scaleVelocity)
    }

    /// A pan's values (translation and velocity in layout units, as written: two decimals).
    public var pan: GestureValues.Pan? {
        guard kind == .pan, let translation, let velocity else { return nil }
        return GestureValues.Pan(translation: translation, velocity: velocity)
    }

    /// A swipe's values.
    public var swipe: GestureValues.Swipe? {
        guard kind == .swipe, let direction, let translation, let velocity, let decidedMM, let decidedMS else { return nil }
        return GestureValues.Swipe(direction: direction, translation: translation, velocity: velocity,
                                   decidedAfterMillimetres: decidedMM,
                                   decidedAfter: .microseconds(Int64((decidedMS * 1000).rounded())))
    }

    /// A rotation's values.
    public var rotate: GestureValues.Rotate? {
        guard kind == .rotate, let rotation, let rotationVelocity else { return nil }
        return GestureValues.Rotate(degrees: rotation, degreesPerSecond: rotationVelocity)
    }

    /// An edge pan's values.
    public var edgePan: GestureValues.EdgePan? {
        guard kind == .edgePan, let edge, let translation, let velocity else { return nil }
        return GestureValues.EdgePan(edge: edge, translation: translation, velocity: velocity)
    }

    /// `dx`, `dy` as a point, when the line has both.
    public var translation: Point? { dx.flatMap { x in dy.map { Point(x: x, y: $0) } } }
    /// `vx`, `vy` as a point, when the line has both.
    public var velocity: Point? { vx.flatMap { x in vy.map { Point(x: x, y: $0) } } }
}
