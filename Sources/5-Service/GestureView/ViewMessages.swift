import GestureProtocol
import Gestures
import GestureRuntime
import TouchEvents

/// The live view's messages, one JSON object per WebSocket message (docs/view.md lists
/// them). Positions are in the layout's units (millimetres, or the screen's units), as `render`
/// draws them; times are seconds from the device's first event.
enum ViewMessages {
    static func number(_ v: Double) -> String { formatDecimal(v, places: 2, trailingZeros: .trimAll) }

    static func rect(_ r: Rect) -> String {
        "{\"x\": \(number(r.minX)), \"y\": \(number(r.minY)), \"width\": \(number(r.width)), \"height\": \(number(r.height))}"
    }

    /// The first message: what is being shown.
    static func hello(source: String, title: String, paused: Bool) -> String {
        "{\"type\": \"hello\", \"version\": 1, \"source\": \(jsonString(source)), \"title\": \(jsonString(title)), \"paused\": \(paused)}"
    }

    /// A device and its layout: every region back to front, its frame, its hit area (when it
    /// differs) and whether touches can reach it.
    static func device(_ session: DeviceSession, key: String) -> String {
        let layout = session.layout
        let root = layout.root.absoluteFrame
        var regions: [String] = []
        for region in layout.regions {
            let f = region.absoluteFrame
            var s = "{\"id\": \(jsonString(region.id)), \"frame\": \(rect(f))"
            let area = region.hitArea
            if area != f { s += ", \"hit_area\": \(rect(area))" }
            s += ", \"active\": \(!region.isHidden && region.isEnabled)"
            if let client = region.client { s += ", \"client\": \(client)" }
            if region.isHidden { s += ", \"hidden\": true" } else if !region.isEnabled { s += ", \"disabled\": true" }
            let kinds = region.recognizers.map { $0.name }
            if !kinds.isEmpty { s += ", \"recognizers\": [" + kinds.map(jsonString).joined(separator: ", ") + "]" }
            regions.append(s + "}")
        }
        let d = session.description
        return "{\"type\": \"device\", \"device\": \(jsonString(key)), \"name\": \(jsonString(d.name)), \"kind\": \"\(d.kind)\", "
            + "\"layout\": \(rect(root)), \"regions\": [" + regions.joined(separator: ", ") + "]}"
    }

    static func removed(key: String) -> String {
        "{\"type\": \"removed\", \"device\": \(jsonString(key))}"
    }

    /// One frame's contacts where they are on the layout; a contact the pipeline leaves out
    /// says why (`palm`, `thumb`, `hover`).
    static func frame(_ frame: TouchFrame, session: DeviceSession, key: String, origin: Instant) -> String {
        var s = "{\"type\": \"frame\", \"device\": \(jsonString(key)), \"time\": \(formatSeconds(frame.time - origin)), \"contacts\": ["
        for (i, c) in frame.contacts.enumerated() {
            let p = session.mapping.point(Point(x: c.x, y: c.y))
            if i > 0 { s += ", " }
            s += "{\"id\": \(c.id), \"x\": \(number(p.x)), \"y\": \(number(p.y)), \"phase\": \"\(c.phase.rawValue)\""
            if let why = session.pipeline.leftOutReason(contact: c.id) { s += ", \"left_out\": \"\(why.rawValue)\"" }
            s += "}"
        }
        return s + "]}"
    }

    /// A gesture event, as `--json` prints it, with the device it came from.
    static func gesture(_ g: Gesture, session: DeviceSession, key: String) -> String {
        var event = GestureEvent(g, origin: session.origin ?? g.startTime)
        if let client = g.client { event.client = client }
        var line = event.jsonLine(prefix: "\"type\": \"gesture\", \"source_device\": \(jsonString(key))")
        if line.hasSuffix("\n") { line.removeLast() }
        return line
    }

    /// A recognizer that failed, with `replay --explain`'s text.
    static func failure(recognizer: String, kind: GestureKind, region: String, reason: FailureReason, time: Instant,
                        session: DeviceSession, key: String) -> String {
        let t = formatSeconds(time - (session.origin ?? time))
        let text = "\(recognizer)@\(region) failed: \(reason)"
        return "{\"type\": \"failure\", \"device\": \(jsonString(key)), \"time\": \(t), \"kind\": \"\(kind.rawValue)\", "
            + "\"region\": \(jsonString(region)), \"recognizer\": \(jsonString(recognizer)), \"reason\": \(jsonString(reason.description)), "
            + "\"text\": \(jsonString(text))}"
    }

    /// Where a recording's play is (`gestured view`).
    static func playState(paused: Bool, frame: Int, frames: Int, ended: Bool) -> String {
        "{\"type\": \"state\", \"paused\": \(paused), \"frame\": \(frame), \"frames\": \(frames), \"ended\": \(ended)}"
    }
}
