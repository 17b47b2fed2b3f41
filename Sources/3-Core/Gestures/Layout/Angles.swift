/// Degrees in (-180, 180].
@inlinable
func normalizedDegrees(_ d: Double) -> Double {
    // Already in range (a frame's turn, nearly always): the remainder would be `d` itself, and
    // it is a call into libm (about 30 instructions).
    if d > -180 && d <= 180 { return d }
    var a = d.truncatingRemainder(dividingBy: 360)
    if a > 180 { a -= 360 }
    if a <= -180 { a += 360 }
    return a
}
