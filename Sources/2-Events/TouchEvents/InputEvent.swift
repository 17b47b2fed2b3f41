/// One kernel input event (`struct input_event`), with its time.
///
/// The time is whatever clock the source used: `CLOCK_MONOTONIC` for live devices
/// (the service enables it), the recorded wall-clock or relative time for recordings.
/// Only differences between times are ever used.
public struct InputEvent: Sendable, Hashable {
    /// When the kernel stamped the event.
    public var time: Instant
    /// Event type (`EV_*`), see ``EventType``.
    public var type: UInt16
    /// Event code within the type (`ABS_*`, `BTN_*`, `SYN_*`, …).
    public var code: UInt16
    /// Event value.
    public var value: Int32

    /// Creates an event.
    @inlinable
    public init(time: Instant, type: UInt16, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    /// True for `EV_SYN / SYN_REPORT`, the event that closes a frame.
    @inlinable
    public var isReport: Bool { type == EventType.syn && code == SynCode.report }
}

extension InputEvent: CustomStringConvertible {
    /// `EV_ABS / ABS_MT_POSITION_X 340 @ 1.000123s`
    public var description: String {
        "\(EventCodeNames.typeName(type)) / \(EventCodeNames.codeName(type: type, code: code)) \(value) @ \(time)"
    }
}

extension String {
    /// Pads on the left up to `width` characters.
    package func leftPadded(to width: Int, with pad: Character = " ") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
