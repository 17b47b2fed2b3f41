/// Cuts a byte stream into the protocol's lines (the service reading its clients, a client
/// reading the service): each line without its `\n` (and a `\r` before it); a line longer than
/// `maximumBytes` is reported once, as ``Line/tooLarge``, and skipped up to its newline
/// without being kept in memory.
public struct LineFramer: Sendable {
    public enum Line: Equatable, Sendable {
        case line([UInt8])
        case tooLarge
    }

    public let maximumBytes: Int
    private var pending: [UInt8] = []
    /// Bytes of an unfinished line held (waiting for its newline).
    public var pendingBytes: Int { pending.count }
    /// Skipping the rest of a line that was too long.
    private var skipping = false

    public init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// Takes what was read; returns the lines it completed, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [Line] {
        pending.append(contentsOf: bytes)
        var lines: [Line] = []
        var start = 0
        while let newline = pending[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if skipping {
                skipping = false
            } else {
                var line = pending[start..<newline]
                if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
                lines.append(line.count > maximumBytes ? .tooLarge : .line(Array(line)))
            }
            start = newline + 1
        }
        pending.removeFirst(start)
        if pending.count > maximumBytes {
            if !skipping { lines.append(.tooLarge) }
            skipping = true
            pending.removeAll(keepingCapacity: true)
        }
        return lines
    }

    /// The stream ended: what is left after the last newline is a last line (a peer that
    /// writes its last request without a newline and closes its side); nil when nothing is.
    public mutating func finish() -> Line? {
        defer {
            pending.removeAll()
            skipping = false
        }
        guard !skipping, !pending.isEmpty else { return nil }
        var line = pending[...]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return line.count > maximumBytes ? .tooLarge : .line(Array(line))
    }
}
