import Gestures
import TouchEvents

/// Prints gesture events: one JSON object per line, or one readable line each.
struct GestureFormatter {
    /// Times are printed relative to this: the recording's first event.
    var origin: Instant
    /// "mm" on the device surface, or "" for a configuration's layout units.
    var unit = "mm"

    func json(_ g: Gesture) -> String { g.jsonLine(origin: origin) }

    /// `  0.4316s  tap recognized  root  1 touch  taps 2  at 12.3, 45.6 mm` (no unit for layout units)
    func readable(_ g: Gesture) -> String {
        var s = formatSeconds(g.time - origin).leftPadded(to: 10) + "s  \(g.kind) \(g.state)  \(g.region)"
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
}
