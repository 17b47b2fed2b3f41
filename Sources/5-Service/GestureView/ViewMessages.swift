import GestureProtocol
import Gestures
import GestureRuntime
import TouchEvents

/// The live view's messages, one JSON object per WebSocket message (docs/view.md lists
/// them). Positions are in the layout's units (millimetres, or the screen's units), as `render`
/// draws them; times are seconds from the device's first event.
///
/// Written with the protocol's JSON writer (`JSONValue`): numbers in layout units rounded to two
/// decimals, times to the microsecond.
enum ViewMessages {
    static func number(_ v: Double) -> JSONValue { .number(v, places: 2) }

    static func seconds(_ d: Duration) -> JSONValue { .number(Double(d.inMicroseconds) / 1_000_000) }

    static func rect(_ r: Rect) -> JSONValue {
        .object(["x": number(r.minX), "y": number(r.minY), "width": number(r.width), "height": number(r.height)])
    }

    /// The first message: what is being shown.
    static func hello(source: String, title: String, paused: Bool) -> String {
        JSONValue.object(["type": "hello", "version": .number(1), "source": .string(source), "title": .string(title),
                          "paused": .bool(paused)]).text
    }

    /// A device and its layout: every region back to front, its frame, its hit area (when it
    /// differs) and whether touches can reach it.
    static func device(_ session: DeviceSession, key: String) -> String {
        let layout = session.layout
        let regions = layout.regions.map { region -> JSONValue in
            let f = region.absoluteFrame
            var o: JSONObject = ["id": .string(region.id), "frame": rect(f)]
            let area = region.hitArea
            if area != f { o.pairs.append(("hit_area", rect(area))) }
            o.pairs.append(("active", .bool(!region.isHidden && region.isEnabled)))
            if let client = region.namespace { o.pairs.append(("client", .number(Double(client)))) }
            if region.isHidden { o.pairs.append(("hidden", .bool(true))) } else if !region.isEnabled { o.pairs.append(("disabled", .bool(true))) }
            let kinds = region.recognizers.map { JSONValue.string($0.name) }
            if !kinds.isEmpty { o.pairs.append(("recognizers", .array(kinds))) }
            return .object(o)
        }
        let d = session.description
        return JSONValue.object(["type": "device", "device": .string(key), "name": .string(d.name), "kind": .string("\(d.kind)"),
                                 "layout": rect(layout.root.absoluteFrame), "units_per_mm": .number(session.mapping.scale, places: 4),
                                 "regions": .array(regions)]).text
    }

    static func removed(key: String) -> String {
        JSONValue.object(["type": "removed", "device": .string(key)]).text
    }

    /// One frame's contacts where they are on the layout; a contact the pipeline leaves out
    /// says why (`palm`, `thumb`, `resting`, `hover`).
    static func frame(_ frame: TouchFrame, session: DeviceSession, key: String, origin: Instant) -> String {
        let contacts = frame.contacts.map { c -> JSONValue in
            let p = session.mapping.point(Point(x: c.x, y: c.y))
            var o: JSONObject = ["id": .number(Double(c.id)), "x": number(p.x), "y": number(p.y), "phase": .string(c.phase.rawValue)]
            if let why = session.pipeline.leftOutReason(contact: c.id) { o.pairs.append(("left_out", .string(why.rawValue))) }
            return .object(o)
        }
        return JSONValue.object(["type": "frame", "device": .string(key), "time": seconds(frame.time - origin),
                                 "contacts": .array(contacts)]).text
    }

    /// A gesture event, as `--json` prints it, with the device it came from.
    static func gesture(_ g: Gesture, session: DeviceSession, key: String) -> String {
        var event = GestureEvent(g, origin: session.origin ?? g.startTime)
        if let client = g.namespace { event.client = client }
        var line = event.jsonLine(prefix: "\"type\": \"gesture\", \"source_device\": \(jsonString(key))")
        if line.hasSuffix("\n") { line.removeLast() }
        return line
    }

    /// A recognizer that failed, with `replay --explain`'s text.
    static func failure(recognizer: String, kind: GestureKind, region: String, reason: FailureReason, time: Instant,
                        session: DeviceSession, key: String) -> String {
        JSONValue.object([
            "type": "failure", "device": .string(key), "time": seconds(time - (session.origin ?? time)), "kind": .string(kind.rawValue),
            "region": .string(region), "recognizer": .string(recognizer), "reason": .string(reason.description),
            "text": .string("\(recognizer)@\(region) failed: \(reason)"),
        ]).text
    }

    /// An action a gesture runs on the touch bench (`run`: with `--run-actions`), or would.
    static func action(label: String, action: String, run: Bool, time: Duration) -> String {
        JSONValue.object(["type": "action", "time": seconds(time), "recognizer": .string(label), "action": .string(action),
                          "run": .bool(run)]).text
    }

    /// What the touch bench recorded, as libinput-record YAML; where it was written, if anywhere.
    static func recording(yaml: String, events: Int, savedTo: String?) -> String {
        var o: JSONObject = ["type": "recording", "events": .number(Double(events)), "yaml": .string(yaml)]
        if let savedTo { o.pairs.append(("saved_to", .string(savedTo))) }
        return JSONValue.object(o).text
    }

    /// The view could not do what the page asked.
    static func error(_ reason: String) -> String {
        JSONValue.object(["type": "error", "reason": .string(reason)]).text
    }

    /// Where a recording's play is (`gestured view`).
    static func playState(paused: Bool, frame: Int, frames: Int, ended: Bool) -> String {
        JSONValue.object(["type": "state", "paused": .bool(paused), "frame": .number(Double(frame)), "frames": .number(Double(frames)),
                          "ended": .bool(ended)]).text
    }
}
