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
public struct GestureEvent: Codable, Sendable, Equatable {
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
    public var dx: Double?
    public var dy: Double?
    public var vx: Double?
    public var vy: Double?
    public var scale: Double?
    public var scaleVelocity: Double?
    public var rotation: Double?
    public var rotationVelocity: Double?
    public var direction: SwipeDirection?
    /// A swipe: after how many millimetres and milliseconds its direction was decided.
    public var decidedMM: Double?
    public var decidedMS: Double?
    public var edge: Edge?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case time, device, kind, state, region, client, touches
        case currentTouches = "current_touches"
        case x, y
        case localX = "local_x", localY = "local_y"
        case taps, dx, dy, vx, vy, scale
        case scaleVelocity = "scale_velocity"
        case rotation
        case rotationVelocity = "rotation_velocity"
        case direction
        case decidedMM = "decided_mm", decidedMS = "decided_ms"
        case edge
    }

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
        taps = g.taps
        if let t = g.translation {
            dx = Self.round(t.x, 2)
            dy = Self.round(t.y, 2)
        }
        switch g.kind {
        case .pan, .swipe, .edgePan:
            if let v = g.velocity {
                vx = Self.round(v.x, 2)
                vy = Self.round(v.y, 2)
            }
        case .pinch:
            scale = g.scale.map { Self.round($0, 4) }
            scaleVelocity = g.velocity.map { Self.round($0.x, 4) }
        case .rotate:
            rotation = g.rotation.map { Self.round($0, 2) }
            rotationVelocity = g.velocity.map { Self.round($0.x, 2) }
        case .tap, .longPress, .custom:
            break
        }
        direction = g.direction
        decidedMM = g.decidedAfterDistance.map { Self.round($0, 1) }
        decidedMS = g.decidedAfterTime.map { Self.round($0.inMilliseconds, 1) }
        edge = g.edge
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
    private enum FieldValue {
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

    /// The one list of the event's keys and values, in the documented order, only those that
    /// apply: JSON lines, ``fields`` and ``environment`` all walk it.
    private func forEachField(_ body: (String, FieldValue) -> Void) {
        body("time", .decimal(time, places: 6))
        if let device { body("device", .text(device)) }
        body("kind", .text(kind.rawValue))
        body("state", .text(state.rawValue))
        body("region", .text(region))
        if let client { body("client", .integer(client)) }
        body("touches", .integer(touches))
        if let currentTouches { body("current_touches", .integer(currentTouches)) }
        body("x", .decimal(x, places: 2))
        body("y", .decimal(y, places: 2))
        if let localX, let localY {
            body("local_x", .decimal(localX, places: 2))
            body("local_y", .decimal(localY, places: 2))
        }
        if let taps { body("taps", .integer(taps)) }
        if let dx, let dy {
            body("dx", .decimal(dx, places: 2))
            body("dy", .decimal(dy, places: 2))
        }
        if let vx, let vy {
            body("vx", .decimal(vx, places: 2))
            body("vy", .decimal(vy, places: 2))
        }
        if let scale { body("scale", .decimal(scale, places: 4)) }
        if let scaleVelocity { body("scale_velocity", .decimal(scaleVelocity, places: 4)) }
        if let rotation { body("rotation", .decimal(rotation, places: 2)) }
        if let rotationVelocity { body("rotation_velocity", .decimal(rotationVelocity, places: 2)) }
        if let direction { body("direction", .text(direction.rawValue)) }
        if let decidedMM { body("decided_mm", .decimal(decidedMM, places: 1)) }
        if let decidedMS { body("decided_ms", .decimal(decidedMS, places: 1)) }
        if let edge { body("edge", .text(edge.rawValue)) }
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
        time = try r.number("time")
        device = try r.optionalString("device")
        kind = try r.enumeration("kind")
        state = try r.enumeration("state")
        region = try r.string("region")
        client = try r.optionalInteger("client")
        touches = try r.integer("touches")
        currentTouches = try r.optionalInteger("current_touches")
        x = try r.number("x")
        y = try r.number("y")
        localX = try r.optionalNumber("local_x")
        localY = try r.optionalNumber("local_y")
        taps = try r.optionalInteger("taps")
        dx = try r.optionalNumber("dx")
        dy = try r.optionalNumber("dy")
        vx = try r.optionalNumber("vx")
        vy = try r.optionalNumber("vy")
        scale = try r.optionalNumber("scale")
        scaleVelocity = try r.optionalNumber("scale_velocity")
        rotation = try r.optionalNumber("rotation")
        rotationVelocity = try r.optionalNumber("rotation_velocity")
        direction = try r.optionalEnumeration("direction")
        decidedMM = try r.optionalNumber("decided_mm")
        decidedMS = try r.optionalNumber("decided_ms")
        edge = try r.optionalEnumeration("edge")
    }
}

extension Gesture {
    /// The gesture as one line of JSON (``GestureEvent``), as `--json` prints it.
    public func jsonLine(origin: Instant) -> String {
        GestureEvent(self, origin: origin).jsonLine()
    }
}
