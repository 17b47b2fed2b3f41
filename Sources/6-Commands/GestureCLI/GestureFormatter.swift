import GestureProtocol
import Gestures
import TouchEvents

/// Prints gesture events: one JSON object per line, or one readable line each.
struct GestureFormatter {
    /// Times are printed relative to this: the recording's first event.
    var origin: Instant
    /// "mm" on the device surface, or "" for a configuration's layout units.
    var unit = "mm"

    func json(_ g: Gesture) -> String { g.jsonLine(origin: origin) }

    /// `  0.431600s  tap recognized  root  1 touch  taps 2  at 12.3, 45.6 mm` (no unit for layout units)
    func readable(_ g: Gesture) -> String { Self.readable(GestureEvent(g, origin: origin), unit: unit) }

    /// One event as a readable line: as replays print it, and `gestured listen`.
    static func readable(_ e: GestureEvent, unit: String) -> String {
        var s = readableSeconds(e.time) + "  \(e.kind) \(e.state)  \(e.region)"
        s += "  \(e.touches) touch\(e.touches == 1 ? "" : "es")"
        if let taps = e.taps { s += "  taps \(taps)" }
        if let d = e.direction { s += "  \(d)" }
        if let edge = e.edge { s += "  from the \(edge) edge" }
        let u = unit.isEmpty ? "" : " " + unit
        s += "  at \(formatDecimal(e.x, places: 1)), \(formatDecimal(e.y, places: 1))\(u)"
        if let dx = e.dx, let dy = e.dy { s += "  moved \(formatDecimal(dx, places: 1)), \(formatDecimal(dy, places: 1))\(u)" }
        if let scale = e.scale { s += "  scale \(formatDecimal(scale, places: 3))" }
        if let r = e.rotation { s += "  rotation \(formatDecimal(r, places: 1))°" }
        return s + "\n"
    }
}
