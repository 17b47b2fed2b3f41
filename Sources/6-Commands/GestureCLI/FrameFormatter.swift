import Gestures
import TouchEvents

/// Prints decoded frames: one JSON object per line, or one readable line per frame.
struct FrameFormatter {
    /// Times are printed relative to this: the recording's first event.
    var origin: Instant
    /// How the surface maps onto a configuration's layout: with it, positions are in the
    /// layout's units (as gestures are), not millimetres on the surface.
    var mapping: SurfaceMapping? = nil

    /// A contact's position: millimetres on the surface, or with ``mapping`` layout units.
    func position(_ c: TouchContact) -> Point {
        let mm = Point(x: c.x, y: c.y)
        return mapping?.point(mm) ?? mm
    }

    /// `{"time": 0.0123, "contacts": [{"id": 1, "slot": 0, "phase": "began", "device_x": 810,
    /// "device_y": 1650, "x": 73.6, "y": 150.0}], "fingers": 1}` — pressure and touch
    /// major/minor follow x and y where the device reports them; x and y are millimetres, or
    /// with ``mapping`` layout units.
    func json(_ frame: TouchFrame) -> String {
        var s = "{\"time\": \(formatSeconds(frame.time - origin)), \"contacts\": ["
        for (i, c) in frame.contacts.enumerated() {
            if i > 0 { s += ", " }
            s += "{\"id\": \(c.id), \"slot\": \(c.slot), \"phase\": \"\(c.phase.rawValue)\", "
            s += "\"device_x\": \(c.deviceX), \"device_y\": \(c.deviceY), "
            let p = position(c)
            s += "\"x\": \(formatDecimal(p.x, places: 2)), \"y\": \(formatDecimal(p.y, places: 2))"
            if let p = c.pressure { s += ", \"pressure\": \(p)" }
            if let m = c.touchMajor { s += ", \"touch_major\": \(m)" }
            if let m = c.touchMinor { s += ", \"touch_minor\": \(m)" }
            s += "}"
        }
        s += "], \"fingers\": \(frame.fingerCount)}\n"
        return s
    }

    /// `  0.012300s  fingers 1  #1 slot 0 began (810, 1650) 73.6 x 150.0 mm`; with ``mapping``,
    /// `… began (810, 1650) at 314.0, 640.0` in layout units.
    func readable(_ frame: TouchFrame) -> String {
        var s = readableSeconds(frame.time - origin) + "  fingers \(frame.fingerCount)"
        if frame.contacts.isEmpty { s += "  (no contacts)" }
        for c in frame.contacts {
            s += "  #\(c.id) slot \(c.slot) \(c.phase.rawValue) (\(c.deviceX), \(c.deviceY)) "
            let p = position(c)
            s += mapping == nil ? "\(formatDecimal(p.x, places: 2)) x \(formatDecimal(p.y, places: 2)) mm"
                : "at \(formatDecimal(p.x, places: 1)), \(formatDecimal(p.y, places: 1))"
        }
        return s + "\n"
    }
}
