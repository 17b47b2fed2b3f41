#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Walks the lines of a byte buffer (`\n` or `\r\n`), counting them from 1.
struct LineIterator {
    let base: UnsafePointer<UInt8>
    let count: Int
    var position = 0
    var lineNumber = 0

    init(_ buffer: UnsafeBufferPointer<UInt8>) {
        base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)!
        count = buffer.count
    }

    /// The next line, without its terminator.
    mutating func next() -> ByteCursor? {
        guard position < count else { return nil }
        let start = position
        var end: Int
        if let hit = memchr(base + start, Int32(UInt8(ascii: "\n")), count - start) {
            end = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
            position = end + 1
        } else {
            end = count
            position = count
        }
        if end > start && base[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        lineNumber += 1
        return ByteCursor(base: base, start: start, end: end, line: lineNumber)
    }
}

/// A position within one line, with the small parsers the recording formats need.
struct ByteCursor {
    let base: UnsafePointer<UInt8>
    let start: Int
    let end: Int
    let line: Int
    var pos: Int

    init(base: UnsafePointer<UInt8>, start: Int, end: Int, line: Int) {
        self.base = base
        self.start = start
        self.end = end
        self.line = line
        pos = start
    }

    /// 1-based column of the current position.
    var column: Int { pos - start + 1 }
    var atEnd: Bool { pos >= end }
    var current: UInt8 { pos < end ? base[pos] : 0 }

    /// Leading spaces of the line.
    var indent: Int {
        var i = start
        while i < end && base[i] == UInt8(ascii: " ") { i += 1 }
        return i - start
    }

    mutating func skipSpaces() {
        while pos < end, base[pos] == UInt8(ascii: " ") || base[pos] == UInt8(ascii: "\t") { pos += 1 }
    }

    /// True if only spaces or a `#` comment remain.
    mutating func restIsBlankOrComment() -> Bool {
        skipSpaces()
        return pos >= end || base[pos] == UInt8(ascii: "#")
    }

    /// True (and consumes it) if the line continues with `literal`.
    mutating func consume(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard end - pos >= n else { return false }
        let p = literal.utf8Start
        for i in 0..<n where base[pos + i] != p[i] { return false }
        pos += n
        return true
    }

    mutating func consume(byte: UInt8) -> Bool {
        guard pos < end, base[pos] == byte else { return false }
        pos += 1
        return true
    }

    /// An optionally signed decimal integer (leading zeros allowed). Nil if there are no
    /// digits or more than 18 of them (nothing valid here is that long).
    mutating func decimal() -> Int64? {
        var negative = false
        if pos < end && (base[pos] == UInt8(ascii: "-") || base[pos] == UInt8(ascii: "+")) {
            negative = base[pos] == UInt8(ascii: "-")
            pos += 1
        }
        let digitsStart = pos
        var value: Int64 = 0
        while pos < end {
            let d = base[pos] &- UInt8(ascii: "0")
            if d > 9 { break }
            value = value &* 10 &+ Int64(d)
            pos += 1
        }
        let digits = pos - digitsStart
        guard digits > 0, digits <= 18 else { return nil }
        return negative ? -value : value
    }

    /// A hexadecimal integer without prefix. Nil if there are no digits or more than 8.
    mutating func hex() -> Int64? {
        let digitsStart = pos
        var value: Int64 = 0
        while pos < end {
            let c = base[pos]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: d = 255
            }
            if d == 255 { break }
            value = value << 4 | Int64(d)
            pos += 1
        }
        let digits = pos - digitsStart
        guard digits > 0, digits <= 8 else { return nil }
        return value
    }

    /// The rest of the line from the current position, as text (nil if not UTF-8).
    func rest() -> String? {
        String(validating: UnsafeBufferPointer(start: base + pos, count: max(0, end - pos)), as: UTF8.self)
    }

    /// The rest of the line, lossily decoded, for messages.
    func restForMessage(limit: Int = 40) -> String {
        let n = max(0, min(end - pos, limit))
        return String(decoding: UnsafeBufferPointer(start: base + pos, count: n), as: UTF8.self)
    }
}
