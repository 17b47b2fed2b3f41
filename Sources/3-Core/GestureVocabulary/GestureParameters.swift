/// A parameter of a built-in recognizer, by its name in configuration files and socket messages
/// (`max-movement`): each name is spelt here once, and code names it by its case, so a misspelt
/// one does not compile and an unknown one in a file or a message is an error. The cases are in
/// the order the configuration reference lists them.
public enum GestureParameterName: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case taps
    case touches
    case minTouches = "min-touches"
    case maxTouches = "max-touches"
    case maxMovement = "max-movement"
    case maxDuration = "max-duration"
    case minDuration = "min-duration"
    case maxInterval = "max-interval"
    case maxDistance = "max-distance"
    case minDistance = "min-distance"
    case minVelocity = "min-velocity"
    case angleTolerance = "angle-tolerance"
    case minSpreadChange = "min-spread-change"
    case minAngle = "min-angle"
    case bandWidth = "band-width"

    public var description: String { rawValue }
}

/// What a gesture parameter measures, and the range it must be in.
public enum GestureParameter: Sendable, Equatable {
    case count(ClosedRange<Int>)
    case millimetres(allowZero: Bool)
    case milliseconds
    case velocity
    /// More than 0, at most the bound.
    case degrees(max: Double)

    /// Each kind's parameters.
    public static let byKind: [GestureKind: [GestureParameterName: GestureParameter]] = [
        .tap: [.taps: .count(1...10), .touches: .count(1...10), .maxMovement: .millimetres(allowZero: true),
               .maxDuration: .milliseconds, .maxInterval: .milliseconds, .maxDistance: .millimetres(allowZero: true)],
        .longPress: [.touches: .count(1...10), .minDuration: .milliseconds, .maxMovement: .millimetres(allowZero: true)],
        .pan: [.minTouches: .count(1...10), .maxTouches: .count(1...10), .minDistance: .millimetres(allowZero: true)],
        .swipe: [.touches: .count(1...10), .minDistance: .millimetres(allowZero: false), .minVelocity: .velocity,
                 .maxDuration: .milliseconds, .angleTolerance: .degrees(max: 45)],
        .pinch: [.minTouches: .count(2...10), .minSpreadChange: .millimetres(allowZero: true)],
        .rotate: [.minTouches: .count(2...10), .minAngle: .degrees(max: 180)],
        .edgePan: [.touches: .count(1...10), .bandWidth: .millimetres(allowZero: false), .minDistance: .millimetres(allowZero: true)],
    ]

    /// `kind`'s parameters, sorted by name (the order readers check them in).
    public static func names(of kind: GestureKind) -> [GestureParameterName] {
        sortedNames[kind] ?? []
    }

    /// ``byKind``'s names, each kind's sorted once.
    private static let sortedNames: [GestureKind: [GestureParameterName]] =
        byKind.mapValues { $0.keys.sorted { $0.rawValue < $1.rawValue } }

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
