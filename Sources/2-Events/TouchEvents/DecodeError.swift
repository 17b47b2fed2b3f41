/// Input that no real device can produce. The decoder stops at the first one; the caller
/// knows where the event came from (a recording's line, a live device's node).
public enum DecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    case negativeTime(Instant)
    case timeWentBackwards(previous: Instant, current: Instant)
    case slotOutOfRange(slot: Int32, slotCount: Int)
    case tooManyContacts(count: Int, limit: Int)
    /// A slot axis on a device whose `ABS_MT_SLOT` range holds no slot (maximum below minimum).
    case noSlots

    public var description: String {
        switch self {
        case .negativeTime(let t):
            "negative timestamp \(t)"
        case .timeWentBackwards(let previous, let current):
            "timestamp \(current) is earlier than the event before it (\(previous))"
        case .slotOutOfRange(let slot, let count):
            "ABS_MT_SLOT \(slot) is out of range: the device has \(count) slots (0-\(count - 1))"
        case .tooManyContacts(let count, let limit):
            "\(count) contacts in one frame; at most \(limit) are decoded"
        case .noSlots:
            "a multitouch event, but the device's ABS_MT_SLOT range holds no slot (its maximum is below its minimum)"
        }
    }
}
