import TouchEvents

/// Dragging with `minimumTouches`…`maximumTouches` fingers. Begins once the fingers have
/// moved `minimumDistance` together; reports the translation since the first touch and the
/// velocity; the finger count may change while it goes on (as in UIKit), each event says
/// how many. With an ``axis`` it is a horizontal or vertical drag (a slider, a scrolling
/// list): it begins only if the fingers moved more along the axis than across it, and reports
/// the movement along the axis only.
public final class PanRecognizer: GestureRecognizer {
    public override var readsFrameValues: TouchTracker.FrameValues { [] }
    public override var fingerCounts: ClosedRange<Int>? { minimumTouches...maximumTouches }
    public var minimumTouches: Int {
        @inline(__always) get { _minimumTouches }
        set {
            _minimumTouches = newValue
            configurationChanged()
        }
    }
    @exclusivity(unchecked) private var _minimumTouches: Int
    public var maximumTouches: Int {
        @inline(__always) get { _maximumTouches }
        set {
            _maximumTouches = newValue
            configurationChanged()
        }
    }
    @exclusivity(unchecked) private var _maximumTouches: Int
    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
    /// Millimetres the fingers must move before the pan begins (nil: the device kind's,
    /// ``TouchPolicy/panMinimumDistance``: 3 mm on a touchscreen, 6 mm on a touchpad).
    public var minimumDistance: Double? {
        @inline(__always) get { _minimumDistance }
        set { _minimumDistance = newValue }
    }
    @exclusivity(unchecked) private var _minimumDistance: Double?
    /// Locks the pan to the layout's horizontal or vertical axis (nil: free).
    public var axis: PanAxis? {
        @inline(__always) get { _axis }
        set {
            _axis = newValue
            configurationChanged()
        }
    }
    @exclusivity(unchecked) private var _axis: PanAxis?

    private enum Phase {
        case tracking
        case panning
    }

    @exclusivity(unchecked) private var phase = Phase.tracking
    @exclusivity(unchecked) private(set) var translation = Point.zero
    /// The fingers it began with.
    @exclusivity(unchecked) private var fingers = 0
    private let velocity = VelocityTracker()

    public init(minimumTouches: Int = 1, maximumTouches: Int = 5) {
        self._minimumTouches = max(1, minimumTouches)
        self._maximumTouches = max(self._minimumTouches, maximumTouches)
        super.init(kind: .pan)
    }

    public override var name: String {
        let touches = minimumTouches == maximumTouches ? plural(minimumTouches, "touch") : "\(minimumTouches)-\(maximumTouches) touches"
        return axis.map { "pan(\(touches), \($0))" } ?? "pan(\(touches))"
    }

    public override func reset() {
        super.reset()
        phase = .tracking
        translation = .zero
        fingers = 0
        velocity.reset()
    }

    public override func handle(_ t: TouchTracker) -> RecognizerUpdate {
        translation += t.centroidDelta
        velocity.add(time: t.time, translation)
        switch phase {
        case .tracking:
            let minimumDistance = minimumDistance ?? t.policy.panMinimumDistance
            if !t.isDown {
                if translation.length >= minimumDistance && t.previousTouches >= minimumTouches {
                    return .fail(.liftedBeforeSettling(t.policy.fingerSettleTime))
                }
                return .fail(.liftedBeforeMoving(millimetres: translation.length, required: minimumDistance))
            }
            if t.touches > maximumTouches { return .fail(.tooManyTouches(t.touches, limit: maximumTouches, required: false)) }
            guard t.touches >= minimumTouches, translation.length >= minimumDistance,
                  t.time >= t.lastLandingTime.advanced(byMicroseconds: t.policy.$fingerSettleTime.microseconds) else { return .none }
            if let axis {
                let oriented = t.mapping.orient(translation)
                let along = abs(axis == .horizontal ? oriented.x : oriented.y)
                let across = abs(axis == .horizontal ? oriented.y : oriented.x)
                if across > along { return .fail(.wrongAxis(axis, along: along, across: across)) }
            }
            phase = .panning
            fingers = t.touches
            // Fingers may still land and make it another gesture (a pinch): until then it
            // leaves the others possible.
            return t.time < t.staggerDeadline ? .beginTentatively : .begin
        case .panning:
            if !t.isDown || t.touches < minimumTouches { return .end }
            // A finger landed (``TouchPolicy/fingerCountEndsPan``): the touches go on, and a pan
            // of the new count may follow in the same sequence.
            if t.policy.fingerCountEndsPan && t.touches > fingers { return .endAndStartOver }
            return t.centroidDelta == .zero && t.beganCount == 0 && t.endedCount == 0 ? .none : .change
        }
    }

    /// Once a pan has begun, a transform of the same press must outweigh its translation.
    public override var establishesTranslation: Bool { true }

    public override func values(_ state: GestureState, time: Instant, _ t: TouchTracker) -> GestureValues {
        var moved = translation
        var v = velocity.velocity(at: time)
        if let axis {
            // Only the movement along the axis, on the surface: the mapping turns it onto the axis.
            let u = t.mapping.surfaceDirection(ofLayoutAxisHorizontal: axis == .horizontal)
            moved = u * (translation.x * u.x + translation.y * u.y)
            v = u * (v.x * u.x + v.y * u.y)
        }
        return .pan(.init(translation: moved, velocity: v))
    }
}

/// The axis an axis-locked pan moves along, in the layout's terms.
public enum PanAxis: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case horizontal, vertical
    public var description: String { rawValue }
}
