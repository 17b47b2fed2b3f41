import TouchEvents
import TouchInput

/// An owned device's twin that keeps what it is given, for tests: put it in
/// `GestureRuntime.makeTwin` and read ``events`` (what the compositor would have read).
public final class RecordingTwin: TwinOutput {
    public let node: String
    /// Every event written, in order.
    public private(set) var events: [InputEvent] = []
    /// How many writes there were (each is one `write(2)` on a real twin).
    public private(set) var writes = 0

    public init(node: String = "/dev/input/event99") {
        self.node = node
    }

    public func write(_ events: [InputEvent]) throws(InputError) {
        self.events += events
        writes += 1
    }

    /// ``events`` as lines, one per frame (``lines(of:)``).
    public var lines: [String] { Self.lines(of: events) }

    /// Events as lines, one per frame, for whole-log assertions: `slot 0, id 7, x 100, y 200,
    /// touch 1`, `palm`, `id -1, touch 0`. A frame left without its `SYN_REPORT` ends the list
    /// as `unfinished frame: …`.
    public static func lines(of events: [InputEvent]) -> [String] {
        var lines: [String] = []
        var line: [String] = []
        for e in events {
            if e.isReport {
                lines.append(line.joined(separator: ", "))
                line = []
                continue
            }
            switch (e.type, e.code) {
            case (EventType.abs, AbsCode.mtSlot): line.append("slot \(e.value)")
            case (EventType.abs, AbsCode.mtTrackingID): line.append("id \(e.value)")
            case (EventType.abs, AbsCode.mtPositionX): line.append("x \(e.value)")
            case (EventType.abs, AbsCode.mtPositionY): line.append("y \(e.value)")
            case (EventType.abs, AbsCode.mtToolType): line.append(e.value == MTToolType.palm ? "palm" : "finger")
            case (EventType.key, KeyCode.touch): line.append("touch \(e.value)")
            default: line.append("\(EventCodeNames.codeName(type: e.type, code: e.code)) \(e.value)")
            }
        }
        if !line.isEmpty { lines.append("unfinished frame: " + line.joined(separator: ", ")) }
        return lines
    }
}
