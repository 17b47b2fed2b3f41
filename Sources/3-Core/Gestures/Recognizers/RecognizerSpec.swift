import TouchEvents

/// A built-in recognizer described by its kind and parameters, already checked (against
/// ``GestureParameter/byKind``): what a configuration file's gesture and a socket client's
/// registration both are, and the one place either becomes a recognizer.
public struct RecognizerSpec: Sendable, Equatable {
    public var kind: GestureKind
    /// Parameters by their names in files and messages (`max-movement`).
    public var numbers: [String: Double] = [:]
    /// A swipe's directions, an edge pan's edges (nil: the recognizer's defaults).
    public var directions: Set<SwipeDirection>?
    public var edges: Set<Edge>?
    /// The kinds it may be recognised together with.
    public var simultaneousWith: Set<GestureKind> = []

    public init(kind: GestureKind, numbers: [String: Double] = [:], directions: Set<SwipeDirection>? = nil, edges: Set<Edge>? = nil) {
        self.kind = kind
        self.numbers = numbers
        self.directions = directions
        self.edges = edges
    }

    /// The keys a description of a `kind` recognizer may have, in files and messages alike:
    /// `kind`, `simultaneous-with`, its parameters (sorted), and a swipe's `directions` or an
    /// edge pan's `edges`.
    public static func keys(of kind: GestureKind) -> [String] {
        var keys = ["kind", "simultaneous-with"] + (GestureParameter.byKind[kind] ?? [:]).keys.sorted()
        if kind == .swipe { keys.append("directions") }
        if kind == .edgePan { keys.append("edges") }
        return keys
    }

    /// The fewest and most touches when the fewest is more than the most (a mistake either
    /// reader reports in its own words); nil when they are in order or not both given.
    public var invertedTouches: (minimum: Double, maximum: Double)? {
        guard let lo = numbers["min-touches"], let hi = numbers["max-touches"], lo > hi else { return nil }
        return (lo, hi)
    }
}

extension RecognizerSpec {
    /// The recognizer with this gesture's parameters (defaults where none is given).
    public func makeRecognizer() -> GestureRecognizer {
        func n(_ key: String) -> Double? { numbers[key] }
        func i(_ key: String) -> Int? { numbers[key].map { Int($0) } }
        let r: GestureRecognizer
        switch kind {
        case .tap:
            let t = TapRecognizer(taps: i("taps") ?? 1, touches: i("touches") ?? 1)
            if let v = n("max-movement") { t.maximumMovement = v }
            if let v = n("max-duration") { t.maximumPressDuration = .milliseconds(v) }
            if let v = n("max-interval") { t.maximumInterval = .milliseconds(v) }
            if let v = n("max-distance") { t.maximumDistance = v }
            r = t
        case .longPress:
            let l = LongPressRecognizer(touches: i("touches") ?? 1)
            if let v = n("min-duration") { l.minimumDuration = .milliseconds(v) }
            if let v = n("max-movement") { l.allowedMovement = v }
            r = l
        case .pan:
            let p = PanRecognizer(minimumTouches: i("min-touches") ?? 1, maximumTouches: i("max-touches") ?? max(5, i("min-touches") ?? 1))
            if let v = n("min-distance") { p.minimumDistance = v }
            r = p
        case .swipe:
            let s = SwipeRecognizer(directions: directions ?? SwipeDirection.straight, touches: i("touches") ?? 1)
            if let v = n("min-distance") { s.minimumDistance = v }
            if let v = n("min-velocity") { s.minimumVelocity = v }
            if let v = n("max-duration") { s.maximumDuration = .milliseconds(v) }
            if let v = n("angle-tolerance") { s.angleTolerance = v }
            r = s
        case .pinch:
            let p = PinchRecognizer(minimumTouches: i("min-touches") ?? 2)
            if let v = n("min-spread-change") { p.minimumSpreadChange = v }
            r = p
        case .rotate:
            let p = RotateRecognizer(minimumTouches: i("min-touches") ?? 2)
            if let v = n("min-angle") { p.minimumAngle = v }
            r = p
        case .edgePan:
            let e = EdgePanRecognizer(edges: edges ?? Set(Edge.allCases), touches: i("touches") ?? 1)
            if let v = n("band-width") { e.bandWidth = v }
            if let v = n("min-distance") { e.minimumDistance = v }
            r = e
        case .custom:
            // A configuration cannot describe a recognizer of your own (the parser refuses
            // `kind: custom`): a spec made in code gets one that recognises nothing.
            r = GestureRecognizer(kind: .custom)
        }
        r.simultaneousKinds = simultaneousWith
        return r
    }
}

extension RecognizerSpec {
    /// The spec that makes a recognizer like `r` (its parameters; nothing for one of your own).
    public init(describing r: GestureRecognizer) {
        self.init(kind: r.kind)
        switch r {
        case let t as TapRecognizer:
            numbers = ["taps": Double(t.taps), "touches": Double(t.touches), "max-movement": t.maximumMovement,
                       "max-duration": t.maximumPressDuration.inMilliseconds, "max-interval": t.maximumInterval.inMilliseconds, "max-distance": t.maximumDistance]
        case let l as LongPressRecognizer:
            numbers = ["touches": Double(l.touches), "min-duration": l.minimumDuration.inMilliseconds, "max-movement": l.allowedMovement]
        case let p as PanRecognizer:
            numbers = ["min-touches": Double(p.minimumTouches), "max-touches": Double(p.maximumTouches)]
            if let distance = p.minimumDistance { numbers["min-distance"] = distance }
        case let s as SwipeRecognizer:
            numbers = ["touches": Double(s.touches), "min-distance": s.minimumDistance, "min-velocity": s.minimumVelocity,
                       "max-duration": s.maximumDuration.inMilliseconds, "angle-tolerance": s.angleTolerance]
            directions = s.directions
        case let p as PinchRecognizer:
            numbers = ["min-touches": Double(p.minimumTouches), "min-spread-change": p.minimumSpreadChange]
        case let p as RotateRecognizer:
            numbers = ["min-touches": Double(p.minimumTouches), "min-angle": p.minimumAngle]
        case let e as EdgePanRecognizer:
            numbers = ["touches": Double(e.touches), "band-width": e.bandWidth, "min-distance": e.minimumDistance]
            edges = e.edges
        default:
            break
        }
        simultaneousWith = r.simultaneousKinds
    }
}
