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
        if let tap = e.tap { s += "  taps \(tap.taps)" }
        if let swipe = e.swipe { s += "  \(swipe.direction)" }
        if let edgePan = e.edgePan { s += "  from the \(edgePan.edge) edge" }
        let u = unit.isEmpty ? "" : " " + unit
        s += "  at \(formatDecimal(e.x, places: 1)), \(formatDecimal(e.y, places: 1))\(u)"
        if let t = e.translation { s += "  moved \(formatDecimal(t.x, places: 1)), \(formatDecimal(t.y, places: 1))\(u)" }
        if let pinch = e.pinch { s += "  scale \(formatDecimal(pinch.scale, places: 3))" }
        if let rotate = e.rotate { s += "  rotation \(formatDecimal(rotate.degrees, places: 1))°" }
        return s + "\n"
    }
}
