/// The parameters a gesture takes by name (`max-movement`), as a configuration file and a
/// socket client's region write them, and the range each must be in.
public enum GestureParameter: Sendable, Equatable {
    case count(ClosedRange<Int>)
    case millimetres(allowZero: Bool)
    case milliseconds
    case velocity
    /// More than 0, at most the bound.
    case degrees(max: Double)

    /// Each kind's parameters.
    public static let byKind: [GestureKind: [String: GestureParameter]] = [
        .tap: ["taps": .count(1...10), "touches": .count(1...10), "max-movement": .millimetres(allowZero: true),
               "max-duration": .milliseconds, "max-interval": .milliseconds, "max-distance": .millimetres(allowZero: true)],
        .longPress: ["touches": .count(1...10), "min-duration": .milliseconds, "max-movement": .millimetres(allowZero: true)],
        .pan: ["min-touches": .count(1...10), "max-touches": .count(1...10), "min-distance": .millimetres(allowZero: true)],
        .swipe: ["touches": .count(1...10), "min-distance": .millimetres(allowZero: false), "min-velocity": .velocity,
                 "max-duration": .milliseconds, "angle-tolerance": .degrees(max: 45)],
        .pinch: ["min-touches": .count(2...10), "min-spread-change": .millimetres(allowZero: true)],
        .rotate: ["min-touches": .count(2...10), "min-angle": .degrees(max: 180)],
        .edgePan: ["touches": .count(1...10), "band-width": .millimetres(allowZero: false), "min-distance": .millimetres(allowZero: true)],
    ]

    /// Nil when `v` is allowed; else what is wrong, naming `key` (`written` is the value as
    /// the user wrote it).
    public func problem(with v: Double, key: String, written: String) -> String? {
        switch self {
        case .count(let range):
            guard v == v.rounded(), v >= Double(range.lowerBound), v <= Double(range.upperBound) else {
                return "\(key) must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(written)"
            }
        case .millimetres(let allowZero):
            guard allowZero ? v >= 0 : v > 0, v <= 1000 else {
                return "\(key) is in millimetres and must be \(allowZero ? "0" : "more than 0") to 1000, not \(written)"
            }
        case .milliseconds:
            guard v > 0, v <= 60000 else { return "\(key) is in milliseconds and must be more than 0 and at most 60000, not \(written)" }
        case .velocity:
            guard v > 0, v <= 100_000 else { return "\(key) is in millimetres per second and must be more than 0, not \(written)" }
        case .degrees(let bound):
            guard v > 0, v <= bound else {
                return "\(key) is in degrees and must be more than 0 and at most \(Int(bound)), not \(written)"
            }
        }
        return nil
    }
}
