import GestureVocabulary
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
    /// The kind's values, typed (``GestureValues``), as the event carries them: rounded as they
    /// are written (positions and movements to 0.01, scales to 0.0001, angles to 0.01°, times to
    /// 0.1 ms), so an event read back equals the event written. Decoded once, when the event is
    /// read (``init(json:partialValues:)``). Nil for a custom gesture, and for a line that does
    /// not carry every value of its kind (a 1.0 service's pinch has no `span_mm`): no typed
    /// values rather than made-up ones. Every line gestured writes carries all of them.
    public var values: GestureValues?

    /// An event of `kind` with `values` (nil: none; when given, they are `kind`'s own).
    public init(kind: GestureKind, state: GestureState, region: String, touches: Int, x: Double, y: Double, time: Double = 0,
                values: GestureValues? = nil) {
        self.values = values
        self.kind = kind
        self.state = state
        self.region = region
        self.touches = touches
        self.x = x
        self.y = y
        self.time = time
    }

    /// `g` as it is written; `time` counts from `origin`.
    public init(_ g: some GestureRecord, origin: Instant) {
        time = Double((g.time - origin).inMicroseconds) / 1_000_000
        device = g.device
        kind = g.values.kind
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
        values = Self.rounded(g.values)
    }

    /// `v` rounded as it is written, so that the event read back from its line is the same.
    static func rounded(_ v: GestureValues) -> GestureValues? {
        func point(_ p: Point) -> Point { Point(x: round(p.x, 2), y: round(p.y, 2)) }
        func milliseconds(_ d: Duration) -> Duration { .microseconds(Int64((round(d.inMilliseconds, 1) * 1000).rounded())) }
        return switch v {
        case .tap: v
        case .longPress(let press): .longPress(.init(duration: milliseconds(press.duration)))
        case .pan(let pan): .pan(.init(translation: point(pan.translation), velocity: point(pan.velocity)))
        case .swipe(let swipe):
            .swipe(.init(direction: swipe.direction, translation: point(swipe.translation), velocity: point(swipe.velocity),
                         decidedAfterMillimetres: round(swipe.decidedAfterMillimetres, 1), decidedAfter: milliseconds(swipe.decidedAfter)))
        case .edgePan(let edgePan): .edgePan(.init(edge: edgePan.edge, translation: point(edgePan.translation), velocity: point(edgePan.velocity)))
        case .pinch(let pinch):
            .pinch(.init(scale: round(pinch.scale, 4), spanMillimetres: round(pinch.spanMillimetres, 2), scalePerSecond: round(pinch.scalePerSecond, 4)))
        case .rotate(let rotate): .rotate(.init(degrees: round(rotate.degrees, 2), degreesPerSecond: round(rotate.degreesPerSecond, 2)))
        case .custom: nil
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
    package enum FieldValue {
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
    /// read back from a JSON object: into the event, or, for a value of a kind, into what the
    /// line carries (``Carried``), which becomes the event's typed ``values`` once all is read.
    struct Key: Sendable {
        let name: String
        let value: @Sendable (GestureEvent) -> FieldValue?
        let read: @Sendable (inout GestureEvent, inout Carried, FieldReader) throws(ProtocolError) -> Void

        init(name: String, value: @escaping @Sendable (GestureEvent) -> FieldValue?,
             read: @escaping @Sendable (inout GestureEvent, FieldReader) throws(ProtocolError) -> Void) {
            self.name = name
            self.value = value
            self.read = { e, _, r throws(ProtocolError) in try read(&e, r) }
        }

        init(name: String, value: @escaping @Sendable (GestureEvent) -> FieldValue?,
             carried read: @escaping @Sendable (inout Carried, FieldReader) throws(ProtocolError) -> Void) {
            self.name = name
            self.value = value
            self.read = { _, c, r throws(ProtocolError) in try read(&c, r) }
        }
    }

    /// The kinds' values as a line carries them, each on its own, while the line is read: the
    /// typed ``values`` are made of them once (``values(of:)``), and they are gone.
    struct Carried {
        var taps: Int?
        var durationMS: Double?
        var dx: Double?, dy: Double?, vx: Double?, vy: Double?
        var scale: Double?, scaleVelocity: Double?, spanMM: Double?
        var rotation: Double?, rotationVelocity: Double?
        var direction: SwipeDirection?
        var decidedMM: Double?, decidedMS: Double?
        var edge: Edge?

        /// A `kind` event's values: nil unless the line carries every one of them; with
        /// `partial`, nil only without the kind's own value (``definingKeys(of:)``), any other
        /// the line leaves out being 0.
        func values(of kind: GestureKind, partial: Bool) -> GestureValues? {
            guard partial || isComplete(for: kind) else { return nil }
            func milliseconds(_ ms: Double) -> Duration { .microseconds(Int64((ms * 1000).rounded())) }
            let translation = dx.flatMap { x in dy.map { Point(x: x, y: $0) } }
            let velocity = Point(x: vx ?? 0, y: vy ?? 0)
            return switch kind {
            case .tap: taps.map { .tap(.init(taps: $0)) }
            case .longPress: durationMS.map { .longPress(.init(duration: milliseconds($0))) }
            case .pan: translation.map { .pan(.init(translation: $0, velocity: velocity)) }
            case .swipe:
                direction.map {
                    .swipe(.init(direction: $0, translation: translation ?? .zero, velocity: velocity,
                                 decidedAfterMillimetres: decidedMM ?? 0, decidedAfter: milliseconds(decidedMS ?? 0)))
                }
            case .edgePan: edge.map { .edgePan(.init(edge: $0, translation: translation ?? .zero, velocity: velocity)) }
            case .pinch: scale.map { .pinch(.init(scale: $0, spanMillimetres: spanMM ?? 0, scalePerSecond: scaleVelocity ?? 0)) }
            case .rotate: rotation.map { .rotate(.init(degrees: $0, degreesPerSecond: rotationVelocity ?? 0)) }
            case .custom: nil
            }
        }
    }
}

extension GestureEvent.Carried {
    /// Whether the line carried every value of `kind`.
    func isComplete(for kind: GestureKind) -> Bool {
        let moved = dx != nil && dy != nil && vx != nil && vy != nil
        return switch kind {
        case .tap: taps != nil
        case .longPress: durationMS != nil
        case .pan: moved
        case .swipe: moved && direction != nil && decidedMM != nil && decidedMS != nil
        case .edgePan: moved && edge != nil
        case .pinch: scale != nil && scaleVelocity != nil && spanMM != nil
        case .rotate: rotation != nil && rotationVelocity != nil
        case .custom: false
        }
    }
}

extension GestureEvent {
    /// The keys a line of `kind` must carry for typed ``values`` when it is read with partial
    /// values (``init(json:partialValues:)``): the kind's own value (a tap's `taps`, a pan's `dx`
    /// and `dy`, …).
    public static func definingKeys(of kind: GestureKind) -> [String] {
        switch kind {
        case .tap: ["taps"]
        case .longPress: ["duration_ms"]
        case .pan: ["dx", "dy"]
        case .swipe: ["direction"]
        case .edgePan: ["edge"]
        case .pinch: ["scale"]
        case .rotate: ["rotation"]
        case .custom: []
        }
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
        // The kinds' values: each written from the typed values, read into what the line carries.
        Key(name: "taps", value: { $0.tap.map { .integer($0.taps) } },
            carried: { c, r throws(ProtocolError) in c.taps = try r.optionalInteger("taps") }),
        Key(name: "duration_ms", value: { $0.longPress.map { .decimal($0.duration.inMilliseconds, places: 1) } },
            carried: { c, r throws(ProtocolError) in c.durationMS = try r.optionalNumber("duration_ms") }),
        Key(name: "dx", value: { $0.translation.map { .decimal($0.x, places: 2) } },
            carried: { c, r throws(ProtocolError) in c.dx = try r.optionalNumber("dx") }),
        Key(name: "dy", value: { $0.translation.map { .decimal($0.y, places: 2) } },
            carried: { c, r throws(ProtocolError) in c.dy = try r.optionalNumber("dy") }),
        Key(name: "vx", value: { $0.velocity.map { .decimal($0.x, places: 2) } },
            carried: { c, r throws(ProtocolError) in c.vx = try r.optionalNumber("vx") }),
        Key(name: "vy", value: { $0.velocity.map { .decimal($0.y, places: 2) } },
            carried: { c, r throws(ProtocolError) in c.vy = try r.optionalNumber("vy") }),
        Key(name: "scale", value: { $0.pinch.map { .decimal($0.scale, places: 4) } },
            carried: { c, r throws(ProtocolError) in c.scale = try r.optionalNumber("scale") }),
        Key(name: "scale_velocity", value: { $0.pinch.map { .decimal($0.scalePerSecond, places: 4) } },
            carried: { c, r throws(ProtocolError) in c.scaleVelocity = try r.optionalNumber("scale_velocity") }),
        Key(name: "span_mm", value: { $0.pinch.map { .decimal($0.spanMillimetres, places: 2) } },
            carried: { c, r throws(ProtocolError) in c.spanMM = try r.optionalNumber("span_mm") }),
        Key(name: "rotation", value: { $0.rotate.map { .decimal($0.degrees, places: 2) } },
            carried: { c, r throws(ProtocolError) in c.rotation = try r.optionalNumber("rotation") }),
        Key(name: "rotation_velocity", value: { $0.rotate.map { .decimal($0.degreesPerSecond, places: 2) } },
            carried: { c, r throws(ProtocolError) in c.rotationVelocity = try r.optionalNumber("rotation_velocity") }),
        Key(name: "direction", value: { $0.swipe.map { .text($0.direction.rawValue) } },
            carried: { c, r throws(ProtocolError) in c.direction = try r.optionalEnumeration("direction") }),
        Key(name: "decided_mm", value: { $0.swipe.map { .decimal($0.decidedAfterMillimetres, places: 1) } },
            carried: { c, r throws(ProtocolError) in c.decidedMM = try r.optionalNumber("decided_mm") }),
        Key(name: "decided_ms", value: { $0.swipe.map { .decimal($0.decidedAfter.inMilliseconds, places: 1) } },
            carried: { c, r throws(ProtocolError) in c.decidedMS = try r.optionalNumber("decided_ms") }),
        Key(name: "edge", value: { $0.edgePan.map { .text($0.edge.rawValue) } },
            carried: { c, r throws(ProtocolError) in c.edge = try r.optionalEnumeration("edge") }),
    ]

    /// The names of the message's keys, in the documented order.
    public static var keyNames: [String] { keys.map(\.name) }

    /// The event's keys and values, in the documented order, only those that apply.
    package func forEachField(_ body: (String, FieldValue) -> Void) {
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
    /// - Parameter partialValues: A line that carries its kind's own value
    ///   (``definingKeys(of:)``) but not all the others still gets typed ``values``, the others
    ///   0. For judging another recognizer's gestures, which reads only a kind's own value
    ///   (`gestured evaluate --gestures`); a client reads without it.
    public init(json o: JSONObject, partialValues: Bool = false) throws(ProtocolError) {
        let r = FieldReader(o, path: "")
        self.init(kind: .tap, state: .possible, region: "", touches: 0, x: 0, y: 0)  // each key read below
        var carried = Carried()
        for key in Self.keys { try key.read(&self, &carried, r) }
        values = carried.values(of: kind, partial: partialValues)
    }
}

extension GestureRecord {
    /// The gesture as one line of JSON (``GestureEvent``), as `--json` prints it.
    public func jsonLine(origin: Instant) -> String {
        GestureEvent(self, origin: origin).jsonLine()
    }
}

// MARK: - The kinds' values, typed

extension GestureEvent {
    /// A tap's values: nil for another kind, or a line without them.
    public var tap: GestureValues.Tap? { if case .tap(let v)? = values { v } else { nil } }
    /// A long press's values (its duration as written: to 0.1 ms), from a 1.1 service.
    public var longPress: GestureValues.LongPress? { if case .longPress(let v)? = values { v } else { nil } }
    /// A pinch's values, from a 1.1 service (a 1.0 service's messages have no span: nil).
    public var pinch: GestureValues.Pinch? { if case .pinch(let v)? = values { v } else { nil } }
    /// A pan's values (translation and velocity in layout units, as written: two decimals).
    public var pan: GestureValues.Pan? { if case .pan(let v)? = values { v } else { nil } }
    /// A swipe's values.
    public var swipe: GestureValues.Swipe? { if case .swipe(let v)? = values { v } else { nil } }
    /// A rotation's values.
    public var rotate: GestureValues.Rotate? { if case .rotate(let v)? = values { v } else { nil } }
    /// An edge pan's values.
    public var edgePan: GestureValues.EdgePan? { if case .edgePan(let v)? = values { v } else { nil } }

    /// A pan's, swipe's or edge pan's movement (`dx`, `dy`), in layout units.
    public var translation: Point? { values?.translation }

    /// A pan's, swipe's or edge pan's velocity (`vx`, `vy`), in layout units per second.
    public var velocity: Point? { values?.velocity }
}
