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
        case time, device, kind, state, region, touches
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
        values.map { ($0.key, $0.isText ? jsonString($0.value) : $0.value) }
    }

    /// ``fields`` before JSON: each value as text, and whether JSON quotes it.
    private var values: [(key: String, value: String, isText: Bool)] {
        var f: [(String, String, Bool)] = [("time", formatDecimal(time, places: 6), false)]
        if let device { f.append(("device", device, true)) }
        f.append(("kind", kind.rawValue, true))
        f.append(("state", state.rawValue, true))
        f.append(("region", region, true))
        f.append(("touches", String(touches), false))
        if let currentTouches { f.append(("current_touches", String(currentTouches), false)) }
        f.append(("x", formatDecimal(x, places: 2), false))
        f.append(("y", formatDecimal(y, places: 2), false))
        if let localX, let localY {
            f.append(("local_x", formatDecimal(localX, places: 2), false))
            f.append(("local_y", formatDecimal(localY, places: 2), false))
        }
        if let taps { f.append(("taps", String(taps), false)) }
        if let dx, let dy {
            f.append(("dx", formatDecimal(dx, places: 2), false))
            f.append(("dy", formatDecimal(dy, places: 2), false))
        }
        if let vx, let vy {
            f.append(("vx", formatDecimal(vx, places: 2), false))
            f.append(("vy", formatDecimal(vy, places: 2), false))
        }
        if let scale { f.append(("scale", formatDecimal(scale, places: 4), false)) }
        if let scaleVelocity { f.append(("scale_velocity", formatDecimal(scaleVelocity, places: 4), false)) }
        if let rotation { f.append(("rotation", formatDecimal(rotation, places: 2), false)) }
        if let rotationVelocity { f.append(("rotation_velocity", formatDecimal(rotationVelocity, places: 2), false)) }
        if let direction { f.append(("direction", direction.rawValue, true)) }
        if let decidedMM { f.append(("decided_mm", formatDecimal(decidedMM, places: 1), false)) }
        if let decidedMS { f.append(("decided_ms", formatDecimal(decidedMS, places: 1), false)) }
        if let edge { f.append(("edge", edge.rawValue, true)) }
        return f
    }

    /// One line of JSON (with its newline): `prefix` (already JSON, e.g. `"type": "gesture"`)
    /// first, then ``fields``.
    public func jsonLine(prefix: String? = nil) -> String {
        var s = "{"
        if let prefix { s += prefix + ", " }
        for (i, f) in fields.enumerated() {
            if i > 0 { s += ", " }
            s += "\"\(f.key)\": \(f.json)"
        }
        return s + "}\n"
    }

    /// What an `exec` action sees: `GESTURE_` and each key in capitals (`GESTURE_CURRENT_TOUCHES`),
    /// text without quotes.
    public var environment: [String: String] {
        var env: [String: String] = [:]
        for f in values { env["GESTURE_" + f.key.uppercased()] = f.value }
        return env
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
