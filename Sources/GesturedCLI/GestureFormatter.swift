import Gestures

/// Prints gesture events: one JSON object per line, or one readable line each.
struct GestureFormatter {
    /// Times are printed relative to this (µs): the recording's first event.
    var origin: Int64
    /// "mm" on the device surface, or "" for a configuration's layout units.
    var unit = "mm"

    /// The documented keys, in order, only where they apply: `time device kind state region
    /// touches x y taps dx dy vx vy scale rotation direction edge`; pinch and rotate add
    /// their rate as `velocity` (scale/s, degrees/s).
    func json(_ g: Gesture) -> String {
        var s = "{\"time\": \(formatSecondsTrimmed(g.time - origin))"
        if let device = g.device { s += ", \"device\": \(jsonString(device))" }
        s += ", \"kind\": \"\(g.kind.rawValue)\", \"state\": \"\(g.state.rawValue)\", \"region\": \(jsonString(g.region))"
        s += ", \"touches\": \(g.touches), \"x\": \(mm(g.location.x)), \"y\": \(mm(g.location.y))"
        if let taps = g.taps { s += ", \"taps\": \(taps)" }
        if let t = g.translation { s += ", \"dx\": \(mm(t.x)), \"dy\": \(mm(t.y))" }
        switch g.kind {
        case .pan, .swipe, .edgePan:
            if let v = g.velocity { s += ", \"vx\": \(mm(v.x)), \"vy\": \(mm(v.y))" }
        case .pinch:
            if let scale = g.scale { s += ", \"scale\": \(formatDecimal(scale, places: 4))" }
            if let v = g.velocity { s += ", \"velocity\": \(formatDecimal(v.x, places: 4))" }
        case .rotate:
            if let r = g.rotation { s += ", \"rotation\": \(formatDecimal(r, places: 2))" }
            if let v = g.velocity { s += ", \"velocity\": \(formatDecimal(v.x, places: 2))" }
        case .tap, .longPress:
            break
        }
        if let d = g.direction { s += ", \"direction\": \"\(d.rawValue)\"" }
        if let e = g.edge { s += ", \"edge\": \"\(e.rawValue)\"" }
        return s + "}\n"
    }

    /// `  0.4316s  tap recognized  root  1 touch  taps 2  at 12.3, 45.6 mm` (no unit for layout units)
    func readable(_ g: Gesture) -> String {
        var s = formatSecondsTrimmed(g.time - origin).leftPadded(to: 10) + "s  \(g.kind) \(g.state)  \(g.region)"
        s += "  \(g.touches) touch\(g.touches == 1 ? "" : "es")"
        if let taps = g.taps { s += "  taps \(taps)" }
        if let d = g.direction { s += "  \(d)" }
        if let e = g.edge { s += "  from the \(e) edge" }
        let u = unit.isEmpty ? "" : " " + unit
        s += "  at \(formatDecimal(g.location.x, places: 1)), \(formatDecimal(g.location.y, places: 1))\(u)"
        if let t = g.translation { s += "  moved \(formatDecimal(t.x, places: 1)), \(formatDecimal(t.y, places: 1))\(u)" }
        if let scale = g.scale { s += "  scale \(formatDecimal(scale, places: 3))" }
        if let r = g.rotation { s += "  rotation \(formatDecimal(r, places: 1))°" }
        return s + "\n"
    }

    private func mm(_ v: Double) -> String { formatDecimal(v, places: 2) }
}

/// A JSON string literal.
func jsonString(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 {
                out += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4, with: "0")
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
