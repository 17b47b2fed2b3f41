/// A JSON string literal.
public func jsonString(_ s: String) -> String {
    var text: [UInt8] = []
    appendJSONString(s, to: &text)
    return String(decoding: text, as: UTF8.self)
}

/// ``jsonString(_:)`` appended to `text` as UTF-8: quotes, backslashes and control characters
/// escaped, everything else as it is.
public func appendJSONString(_ s: String, to text: inout [UInt8]) {
    text.append(UInt8(ascii: "\""))
    let backslash = UInt8(ascii: "\\")
    for byte in s.utf8 {
        let escaped: UInt8? = switch byte {
        case UInt8(ascii: "\""), backslash: byte
        case UInt8(ascii: "\n"): UInt8(ascii: "n")
        case UInt8(ascii: "\r"): UInt8(ascii: "r")
        case UInt8(ascii: "\t"): UInt8(ascii: "t")
        default: nil
        }
        if let escaped {
            text.append(backslash)
            text.append(escaped)
        } else if byte < 0x20 {
            text.append(backslash)
            text.append(UInt8(ascii: "u"))
            text.append(UInt8(ascii: "0"))
            text.append(UInt8(ascii: "0"))
            for nibble in [byte >> 4, byte & 15] { text.append(nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10) }
        } else {
            text.append(byte)  // bytes of multi-byte characters too: UTF-8 as it came
        }
    }
    text.append(UInt8(ascii: "\""))
}
