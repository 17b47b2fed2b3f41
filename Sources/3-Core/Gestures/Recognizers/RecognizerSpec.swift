import GestureVocabulary
import TouchEvents

extension RecognizerSpec {
    /// The recognizer with this gesture's parameters (defaults where none is given).
    public func makeRecognizer() -> GestureRecognizer {
        func n(_ key: GestureParameterName) -> Double? { numbers[key] }
        func i(_ key: GestureParameterName) -> Int? { numbers[key].map { Int($0) } }
        let r: GestureRecognizer
        switch kind {
        case .tap:
            let t = TapRecognizer(taps: i(.taps) ?? 1, touches: i(.touches) ?? 1)
            if let v = n(.maxMovement) { t.maximumMovement = v }
            if let v = n(.maxDuration) { t.maximumPressDuration = .milliseconds(v) }
            if let v = n(.maxInterval) { t.maximumInterval = .milliseconds(v) }
            if let v = n(.maxDistance) { t.maximumDistance = v }
            r = t
        case .longPress:
            let l = LongPressRecognizer(touches: i(.touches) ?? 1)
            if let v = n(.minDuration) { l.minimumDuration = .milliseconds(v) }
            if let v = n(.maxMovement) { l.allowedMovement = v }
            r = l
        case .pan:
            let p = PanRecognizer(minimumTouches: i(.minTouches) ?? 1, maximumTouches: i(.maxTouches) ?? max(5, i(.minTouches) ?? 1))
            if let v = n(.minDistance) { p.minimumDistance = v }
            r = p
        case .swipe:
            let s = SwipeRecognizer(directions: directions ?? SwipeDirection.straight, touches: i(.touches) ?? 1)
            if let v = n(.minDistance) { s.minimumDistance = v }
            if let v = n(.minVelocity) { s.minimumVelocity = v }
            if let v = n(.maxDuration) { s.maximumDuration = .milliseconds(v) }
            if let v = n(.angleTolerance) { s.angleTolerance = v }
            r = s
        case .pinch:
            let p = PinchRecognizer(minimumTouches: i(.minTouches) ?? 2)
            if let v = n(.minSpreadChange) { p.minimumSpreadChange = v }
            r = p
        case .rotate:
            let p = RotateRecognizer(minimumTouches: i(.minTouches) ?? 2)
            if let v = n(.minAngle) { p.minimumAngle = v }
            r = p
        case .edgePan:
            let e = EdgePanRecognizer(edges: edges ?? Set(Edge.allCases), touches: i(.touches) ?? 1)
            if let v = n(.bandWidth) { e.bandWidth = v }
            if let v = n(.minDistance) { e.minimumDistance = v }
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
            numbers = [.taps: Double(t.taps), .touches: Double(t.touches), .maxMovement: t.maximumMovement,
                       .maxDuration: t.maximumPressDuration.inMilliseconds, .maxInterval: t.maximumInterval.inMilliseconds, .maxDistance: t.maximumDistance]
        case let l as LongPressRecognizer:
            numbers = [.touches: Double(l.touches), .minDuration: l.minimumDuration.inMilliseconds, .maxMovement: l.allowedMovement]
        case let p as PanRecognizer:
            numbers = [.minTouches: Double(p.minimumTouches), .maxTouches: Double(p.maximumTouches)]
            if let distance = p.minimumDistance { numbers[.minDistance] = distance }
        case let s as SwipeRecognizer:
            numbers = [.touches: Double(s.touches), .minDistance: s.minimumDistance, .minVelocity: s.minimumVelocity,
                       .maxDuration: s.maximumDuration.inMilliseconds, .angleTolerance: s.angleTolerance]
            directions = s.directions
        case let p as PinchRecognizer:
            numbers = [.minTouches: Double(p.minimumTouches), .minSpreadChange: p.minimumSpreadChange]
        case let p as RotateRecognizer:
            numbers = [.minTouches: Double(p.minimumTouches), .minAngle: p.minimumAngle]
        case let e as EdgePanRecognizer:
            numbers = [.touches: Double(e.touches), .bandWidth: e.bandWidth, .minDistance: e.minimumDistance]
            edges = e.edges
        default:
            break
        }
        simultaneousWith = r.simultaneousKinds
    }
}
