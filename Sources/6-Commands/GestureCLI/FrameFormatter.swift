import Gestures
import TouchEvents

/// Prints decoded frames: one JSON object per line, or one readable line per frame.
struct FrameFormatter {
    /// Times are printed relative to this: the recording's first event.
    var origin: Instant

    /// `{"time": 0.0123, "contacts": [{"id": 1, "slot": 0, "phase": "began", "device_x": 810,
    /// "device_y": 1650, "x": 73.6, "y": 150.0}], "fingers": 1}` — pressure and touch
    /// major/minor follow x and y where the device reports them.
    func json(_ frame: TouchFrame) -> String {
        var s = "{\"time\": \(formatSeconds(frame.time - origin)), \"contacts\": ["
        for (i, c) in frame.contacts.enumerated() {
            if i > 0 { s += ", " }
            s += "{\"id\": \(c.id), \"slot\": \(c.slot), \"phase\": \"\(c.phase.rawValue)\", "
            s += "\"device_x\": \(c.deviceX), \"device_y\": \(c.deviceY), "
            s += "\"x\": \(formatDecimal(c.x, places: 2)), \"y\": \(formatDecimal(c.y, places: 2))"
            if let p = c.pressure { s += ", \"pressure\": \(p)" }
            if let m = c.touchMajor { s += ", \"touch_major\": \(m)" }
            if let m = c.touchMinor { s += ", \"touch_minor\": \(m)" }
            s += "}"
        }
        s += "], \"fingers\": \(frame.fingerCount)}\n"
        return s
    }

    /// `  0.0123s  fingers 1  #1 slot 0 began (810, 1650) 73.6 x 150.0 mm`
    func readable(_ frame: TouchFrame) -> String {
        var s = formatSeconds(frame.time - origin).leftPadded(to: 10) + "s  fingers \(frame.fingerCount)"
        if frame.contacts.isEmpty { s += "  (no contacts)" }
        for c in frame.contacts {
            s += "  #\(c.id) slot \(c.slot) \(c.phase.rawValue) (\(c.deviceX), \(c.deviceY)) "
            s += "\(formatDecimal(c.x, places: 2)) x \(formatDecimal(c.y, places: 2)) mm"
        }
        return s + "\n"
    }
}
