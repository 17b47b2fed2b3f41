import TouchEvents

/// A built-in recognizer described by its kind and parameters, already checked (against
/// ``GestureParameter/byKind``): what a configuration file's gesture and a socket client's
/// registration both are, and the one place either becomes a recognizer.
public struct RecognizerSpec: Sendable, Equatable {
    public var kind: GestureKind
    /// Parameters by name (``GestureParameterName``), in their units (``GestureParameter``).
    public var numbers: [GestureParameterName: Double] = [:]
    /// A swipe's directions, an edge pan's edges (nil: the recognizer's defaults).
    public var directions: Set<SwipeDirection>?
    public var edges: Set<Edge>?
    /// The kinds it may be recognised together with.
    public var simultaneousWith: Set<GestureKind> = []

    public init(kind: GestureKind, numbers: [GestureParameterName: Double] = [:], directions: Set<SwipeDirection>? = nil, edges: Set<Edge>? = nil) {
        self.kind = kind
        self.numbers = numbers
        self.directions = directions
        self.edges = edges
    }

    /// The keys a description of a `kind` recognizer may have, in files and messages alike:
    /// `kind`, `simultaneous-with`, its parameters (sorted), and a swipe's `directions` or an
    /// edge pan's `edges`.
    public static func keys(of kind: GestureKind) -> [String] {
        var keys = ["kind", "simultaneous-with"] + GestureParameter.names(of: kind).map(\.rawValue)
        if kind == .swipe { keys.append("directions") }
        if kind == .edgePan { keys.append("edges") }
        return keys
    }

    /// The fewest and most touches when the fewest is more than the most (a mistake either
    /// reader reports in its own words); nil when they are in order or not both given.
    public var invertedTouches: (minimum: Double, maximum: Double)? {
        guard let lo = numbers[.minTouches], let hi = numbers[.maxTouches], lo > hi else { return nil }
        return (lo, hi)
    }
}
