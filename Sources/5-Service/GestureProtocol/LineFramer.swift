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
    /// Where the bytes not yet cut into lines begin in ``pending``.
    private var start = 0
    /// How far ``pending`` is known to hold no newline: a long unfinished line is looked
    /// through once, not again each time more of it comes.
    private var scanned = 0
    /// Bytes held: lines not yet taken and an unfinished one.
    public var pendingBytes: Int { pending.count - start }
    /// Skipping the rest of a line that was too long.
    private var skipping = false

    public init(maximumBytes: Int) {
        self.maximumBytes = maximumBytes
    }

    /// Takes what was read; returns the lines it completed, in order.
    public mutating func feed(_ bytes: some Collection<UInt8>) -> [Line] {
        append(bytes)
        var lines: [Line] = []
        while let line = next() { lines.append(line) }
        return lines
    }

    /// Takes what was read, to be cut into lines by ``next()`` as they are wanted.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if start > 0 && start >= pending.count / 2 {
            pending.removeFirst(start)
            scanned -= start
            start = 0
        }
        pending.append(contentsOf: bytes)
    }

    /// The next whole line taken in, or nil until more comes. A line longer than
    /// ``maximumBytes`` is ``Line/tooLarge`` once, as soon as that is clear, and its bytes are
    /// dropped up to its newline.
    public mutating func next() -> Line? {
        while true {
            guard let newline = pending[max(start, scanned)...].firstIndex(of: UInt8(ascii: "\n")) else {
                scanned = pending.count
                if pending.count - start > maximumBytes || skipping {
                    clear()
                    if !skipping {
                        skipping = true
                        return .tooLarge
                    }
                }
                return nil
            }
            let line = take(start, newline)
            start = newline + 1
            scanned = start
            if start == pending.count { clear() }
            if let line { return line }
        }
    }

    /// Drops every byte held, keeping the buffer unless a long line grew it far.
    private mutating func clear() {
        pending.removeAll(keepingCapacity: pending.capacity / 4 <= maximumBytes)
        start = 0
        scanned = 0
    }

    /// The line from `begin` to the newline at `end`; nil for the end of a skipped line.
    private mutating func take(_ begin: Int, _ end: Int) -> Line? {
        if skipping {
            skipping = false
            return nil
        }
        var line = pending[begin..<end]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return line.count > maximumBytes ? .tooLarge : .line(Array(line))
    }

    /// The stream ended: what is left after the last newline is a last line (a peer that
    /// writes its last request without a newline and closes its side); nil when nothing is.
    /// Take the whole lines with ``next()`` first.
    public mutating func finish() -> Line? {
        defer {
            pending.removeAll()
            start = 0
            scanned = 0
            skipping = false
        }
        guard !skipping, pending.count > start else { return nil }
        var line = pending[start...]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        return line.count > maximumBytes ? .tooLarge : .line(Array(line))
    }
}
