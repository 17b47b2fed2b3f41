/// The one number formatter of the project: decimal text for JSON, readable output, messages
/// and configuration files. Deterministic, no locale, no exponent: `73.6`, `-0.0123`, `150.0`.
public enum TrailingZeros: Sendable {
    /// Exactly `places` decimals: `1.50`.
    case keep
    /// Trailing zeros dropped, one decimal kept: `1.5`, `150.0`.
    case trimToOne
    /// Trailing zeros and a bare point dropped: `1.5`, `150`.
    case trimAll
}

/// `value` rounded to `places` decimals (half away from zero). Not finite: zero. Beyond
/// ±9e18 once scaled, Swift's shortest form (`1e+20`).
public func formatDecimal(_ value: Double, places: Int, trailingZeros: TrailingZeros = .trimToOne) -> String {
    var text: [UInt8] = []
    appendDecimal(value, places: places, trailingZeros: trailingZeros, to: &text)
    return String(decoding: text, as: UTF8.self)
}

/// `scaled` counted in units of 10^-`places` (microseconds as seconds: `places: 6`), exactly.
/// With `places` 0, a whole number.
public func formatDecimal(scaled: Int64, places: Int, trailingZeros: TrailingZeros = .trimToOne) -> String {
    var text: [UInt8] = []
    appendDecimal(scaled: scaled, places: places, trailingZeros: trailingZeros, to: &text)
    return String(decoding: text, as: UTF8.self)
}

/// ``formatDecimal(_:places:trailingZeros:)`` as ASCII appended to `text`: for output written
/// per frame, with no string made on the way.
public func appendDecimal(_ value: Double, places: Int, trailingZeros: TrailingZeros = .trimToOne, to text: inout [UInt8]) {
    precondition(places >= 0 && places <= 12, "0 to 12 decimal places")
    guard value.isFinite else { return appendDecimal(scaled: 0, places: places, trailingZeros: trailingZeros, to: &text) }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = (value * scale).rounded()
    // Beyond what Int64 counts (a coordinate of 1e20 in a message about it): Swift's own
    // shortest form, exponent and all, rather than a trap.
    guard abs(scaled) < 9.0e18 else { return text.append(contentsOf: Array("\(value)".utf8)) }
    appendDecimal(scaled: Int64(scaled), places: places, trailingZeros: trailingZeros, to: &text)
}

/// ``formatDecimal(scaled:places:trailingZeros:)`` as ASCII appended to `text`.
public func appendDecimal(scaled: Int64, places: Int, trailingZeros: TrailingZeros = .trimToOne, to text: inout [UInt8]) {
    precondition(places >= 0 && places <= 18, "0 to 18 decimal places")
    if scaled < 0 { text.append(UInt8(ascii: "-")) }
    let magnitude = scaled.magnitude
    guard places > 0 else { return appendDigits(magnitude, count: nil, to: &text) }
    var scale: UInt64 = 1
    for _ in 0..<places { scale *= 10 }
    appendDigits(magnitude / scale, count: nil, to: &text)
    let point = text.count
    text.append(UInt8(ascii: "."))
    appendDigits(magnitude % scale, count: places, to: &text)
    let keep = trailingZeros == .trimAll ? 0 : trailingZeros == .trimToOne ? 1 : places
    while text.count - point - 1 > keep && text.last == UInt8(ascii: "0") { text.removeLast() }
    if text.count == point + 1 { text.removeLast() }  // no decimals left: no point
}

/// `value`'s decimal digits; with `count`, exactly that many (leading zeros added).
private func appendDigits(_ value: UInt64, count: Int?, to text: inout [UInt8]) {
    var divisor: UInt64 = 1
    var digits = 1
    while let count, digits < count {
        divisor *= 10
        digits += 1
    }
    while value / divisor >= 10 {
        divisor *= 10
        digits += 1
    }
    var rest = value
    while true {
        text.append(UInt8(ascii: "0") + UInt8(rest / divisor))
        rest %= divisor
        if divisor == 1 { break }
        divisor /= 10
    }
}

/// A duration as seconds with up to six decimals, trailing zeros dropped: `0.0123`.
public func formatSeconds(_ duration: Duration) -> String {
    formatDecimal(scaled: duration.inMicroseconds, places: 6)
}
