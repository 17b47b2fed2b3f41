/// Decimal text for JSON and readable output: rounded to `places`, trailing zeros
/// dropped but one decimal kept (`73.6`, `150.0`, `0.0123`); with `places` 0, a whole
/// number (`45`). Deterministic, no locale.
public func formatDecimal(_ value: Double, places: Int) -> String {
    precondition(places >= 0 && places <= 12, "0 to 12 decimal places")
    guard value.isFinite else { return places == 0 ? "0" : "0.0" }
    if places == 0 {
        let whole = Int64(value.rounded())
        return "\(whole)"
    }
    var scale: Int64 = 1
    for _ in 0..<places { scale *= 10 }
    let scaled = Int64((value * Double(scale)).rounded())
    return formatScaled(scaled, scale: scale, places: places)
}

/// Microseconds as seconds, e.g. 12300 → `0.0123`.
public func formatSecondsTrimmed(_ microseconds: Int64) -> String {
    formatScaled(microseconds, scale: 1_000_000, places: 6)
}

private func formatScaled(_ scaled: Int64, scale: Int64, places: Int) -> String {
    let sign = scaled < 0 ? "-" : ""
    let magnitude = scaled.magnitude
    let whole = magnitude / UInt64(scale)
    var fraction = String(magnitude % UInt64(scale))
    fraction = String(repeating: "0", count: places - fraction.count) + fraction
    while fraction.count > 1 && fraction.hasSuffix("0") { fraction.removeLast() }
    return "\(sign)\(whole).\(fraction)"
}
