/// Input that no real device can produce. The decoder stops at the first one; the caller
/// knows where the event came from (a recording's line, a live device's node).
public enum DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    case negativeTime(microseconds: Int64)
    case timeWentBackwards(previous: Int64, current: Int64)
    case slotOutOfRange(slot: Int32, slotCount: Int)
    case trackingIDOnActiveSlot(slot: Int, current: Int32, new: Int32)
    case tooManyContacts(count: Int, limit: Int)
    /// A slot axis on a device whose `ABS_MT_SLOT` range holds no slot (maximum below minimum).
    case noSlots

    public var description: String {
        switch self {
        case .negativeTime(let t):
            "negative timestamp \(formatSeconds(t))s"
        case .timeWentBackwards(let previous, let current):
            "timestamp \(formatSeconds(current))s is earlier than the event before it (\(formatSeconds(previous))s)"
        case .slotOutOfRange(let slot, let count):
            "ABS_MT_SLOT \(slot) is out of range: the device has \(count) slots (0-\(count - 1))"
        case .trackingIDOnActiveSlot(let slot, let current, let new):
            "tracking id \(new) on slot \(slot), which still has tracking id \(current) (no -1 in between)"
        case .tooManyContacts(let count, let limit):
            "\(count) contacts in one frame; at most \(limit) are decoded"
        case .noSlots:
            "a multitouch event, but the device's ABS_MT_SLOT range holds no slot (its maximum is below its minimum)"
        }
    }
}

/// `12.000345` — microseconds as seconds with six decimals.
package func formatSeconds(_ microseconds: Int64) -> String {
    let sign = microseconds < 0 ? "-" : ""
    let m = microseconds.magnitude
    return "\(sign)\(m / 1_000_000)." + String(m % 1_000_000).leftPadded(to: 6, with: "0")
}
