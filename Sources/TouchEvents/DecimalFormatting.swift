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

/// `value` rounded to `places` decimals (half away from zero). Not finite: zero.
public func formatDecimal(_ value: Double, places: Int, trailingZeros: TrailingZeros = .trimToOne) -> String {
    precondition(places >= 0 && places <= 12, "0 to 12 decimal places")
    guard value.isFinite else { return formatDecimal(scaled: 0, places: places, trailingZeros: trailingZeros) }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    return formatDecimal(scaled: Int64((value * scale).rounded()), places: places, trailingZeros: trailingZeros)
}

/// `scaled` counted in units of 10^-`places` (microseconds as seconds: `places: 6`), exactly.
/// With `places` 0, a whole number.
public func formatDecimal(scaled: Int64, places: Int, trailingZeros: TrailingZeros = .trimToOne) -> String {
    precondition(places >= 0 && places <= 18, "0 to 18 decimal places")
    let sign = scaled < 0 ? "-" : ""
    let magnitude = scaled.magnitude
    guard places > 0 else { return "\(sign)\(magnitude)" }
    var scale: UInt64 = 1
    for _ in 0..<places { scale *= 10 }
    var fraction = String(magnitude % scale)
    fraction = String(repeating: "0", count: places - fraction.count) + fraction
    let keep = trailingZeros == .trimAll ? 0 : trailingZeros == .trimToOne ? 1 : places
    while fraction.count > keep && fraction.hasSuffix("0") { fraction.removeLast() }
    return fraction.isEmpty ? "\(sign)\(magnitude / scale)" : "\(sign)\(magnitude / scale).\(fraction)"
}

/// A duration as seconds with up to six decimals, trailing zeros dropped: `0.0123`.
public func formatSeconds(_ duration: Duration) -> String {
    formatDecimal(scaled: duration.inMicroseconds, places: 6)
}
