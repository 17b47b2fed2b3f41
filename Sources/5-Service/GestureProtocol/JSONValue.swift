import GestureVocabulary
import TouchEvents

/// A JSON value, as the protocol's messages are parsed and written: small, ordered (an
/// object keeps its keys in the order they came), no Foundation.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The value's kind, for messages: `a number`, `text`, `an object`…
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "true or false"
        case .number: "a number"
        case .string: "text"
        case .array: "a list"
        case .object: "an object"
        }
    }

    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var numberValue: Double? { if case .number(let n) = self { n } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }

    /// The value as JSON text on one line (no newline).
    public var text: String {
        var out = ""
        write(to: &out)
        return out
    }

    func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += Self.numberText(n)
        case .string(let s): out += jsonString(s)
        case .array(let a):
            out += "["
            for (i, v) in a.enumerated() {
                if i > 0 { out += ", " }
                v.write(to: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (i, (k, v)) in o.pairs.enumerated() {
                if i > 0 { out += ", " }
                out += jsonString(k)
                out += ": "
                v.write(to: &out)
            }
            out += "}"
        }
    }

    /// `v` rounded to `places` decimals, as the gesture messages round their values (a value
    /// that is not finite is 0).
    public static func number(_ v: Double, places: Int) -> JSONValue {
        .number(GestureEvent.round(v, places))
    }

    /// Whole numbers below 2^53 without a point (every one of them exactly: an id of
    /// 1000000000000000 comes back so, not as `1e+15` or with `.0`); others as the shortest text
    /// that reads back as the same number (`0.25`, `1e-07`).
    static func numberText(_ n: Double) -> String {
        if n == n.rounded(), abs(n) < 9_007_199_254_740_992 { return String(Int64(n)) }
        return "\(n)"
    }
}

/// A JSON object: its keys in order. Looking a key up is linear (messages have a handful).
public struct JSONObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    public var pairs: [(String, JSONValue)]

    public init(_ pairs: [(String, JSONValue)] = []) {
        self.pairs = pairs
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        pairs = elements
    }

    /// The first value under `key`.
    public subscript(key: String) -> JSONValue? {
        get { pairs.first { $0.0 == key }?.1 }
        set {
            if let i = pairs.firstIndex(where: { $0.0 == key }) {
                if let newValue { pairs[i].1 = newValue } else { pairs.remove(at: i) }
            } else if let newValue {
                pairs.append((key, newValue))
            }
        }
    }

    public var keys: [String] { pairs.map(\.0) }

    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.pairs.count == b.pairs.count && zip(a.pairs, b.pairs).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }
}

/// Why a text is not JSON: where (byte offset from 0) and what.
public struct JSONParseError: Error, Equatable, CustomStringConvertible, Sendable {
    public var offset: Int
    public var message: String
    public var description: String { "byte \(offset + 1): \(message)" }

    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }
}

extension JSONValue {
    /// Nesting deeper than this is refused (a message needs four or five levels).
    public static let maximumDepth = 32

    /// Parses one JSON value filling all of `bytes` (whitespace around it allowed). Numbers
    /// must be finite; strings valid UTF-8; nothing may follow the value.
    /// `maximumDepth` may be raised for documents of others' (a compositor's window tree).
    public static func parse(_ bytes: some Collection<UInt8>, maximumDepth: Int = JSONValue.maximumDepth) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: Array(bytes), maximumDepth: maximumDepth)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.index == parser.bytes.count else { throw parser.fail("text after the JSON value") }
        return value
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func fail(_ message: String) -> JSONParseError { JSONParseError(offset: index, message: message) }

    mutating func skipSpace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < maximumDepth else { throw fail("nested more than \(maximumDepth) levels deep") }
        guard index < bytes.count else { throw fail("the text ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default: throw fail("unexpected character \(describe(bytes[index]))")
        }
    }

    func describe(_ b: UInt8) -> String {
        b >= 0x20 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16))"
    }

    mutating func literal(_ word: String) throws(JSONParseError) {
        for b in word.utf8 {
            guard index < bytes.count, bytes[index] == b else { throw fail("expected \(word)") }
            index += 1
        }
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var object = JSONObject()
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a key in quotes") }
            let key = try string()
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':' after the key \"\(key)\"") }
            index += 1
            skipSpace()
            let v = try value(depth: depth + 1)
            guard object[key] == nil else { throw fail("the key \"\(key)\" appears twice") }
            object.pairs.append((key, v))
            skipSpace()
            guard index < bytes.count else { throw fail("the text ends inside an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw fail("expected ',' or '}' in an object") }
            index += 1
            return .object(object)
        }
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipSpace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard index < bytes.count else { throw fail("the text ends inside a list") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw fail("expected ',' or ']' in a list") }
            index += 1
            return .array(items)
        }
    }

    mutating func number() throws(JSONParseError) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) { p.index += 1 }
            return p.index - s
        }
        let first = index
        guard digits(&self) > 0 else { throw fail("a number needs digits") }
        if bytes[first] == UInt8(ascii: "0") { index = first + 1 }  // no leading zeros: 01 is 0, then text
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw fail("a number needs digits after its point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw fail("a number needs digits in its exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let v = Double(text), v.isFinite else {
            index = start
            throw fail("the number \(text) is out of range")
        }
        return v
    }

    mutating func string() throws(JSONParseError) -> String {
        index += 1
        // Most strings (ids, kinds, names) have no escape: made from their bytes at once.
        let start = index
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                guard let s = String(validating: bytes[start..<index], as: UTF8.self) else { break }
                index += 1
                return s
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            index += 1
        }
        guard index < bytes.count else { throw fail("the text ends inside a string") }
        // An escape, a control character or invalid UTF-8: each said where it is.
        index = start
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush(_ p: JSONParser) throws(JSONParseError) {
            guard !run.isEmpty else { return }
            guard let s = String(validating: run, as: UTF8.self) else { throw p.fail("text that is not valid UTF-8") }
            scalars.append(contentsOf: s.unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while true {
            guard index < bytes.count else { throw fail("the text ends inside a string") }
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                try flush(self)
                index += 1
                return String(scalars)
            }
            if b < 0x20 { throw fail("a control character inside a string (write it as \\n, \\t or \\u)") }
            if b != UInt8(ascii: "\\") {
                run.append(b)
                index += 1
                continue
            }
            try flush(self)
            index += 1
            guard index < bytes.count else { throw fail("the text ends inside a string") }
            let e = bytes[index]
            index += 1
            switch e {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                        throw fail("a lone surrogate in \\u escapes")
                    }
                    index += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw fail("a lone surrogate in \\u escapes") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw fail("a lone surrogate in \\u escapes") }
                scalars.append(scalar)
            default:
                index -= 1
                throw fail("unknown escape \\\(describe(e))")
            }
        }
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("\\u needs four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[index]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw fail("\\u needs four hex digits")
            }
            v = v * 16 + d
            index += 1
        }
        return v
    }
}
