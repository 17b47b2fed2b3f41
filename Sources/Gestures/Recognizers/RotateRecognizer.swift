import TouchEvents

/// Two or more fingers turning about their centroid. Begins after `minimumAngle` degrees, when
/// the fingers have gone further around the centroid than they have moved together (the
/// wobble of fingers dragged side by side is not a rotation);
/// reports the rotation since the first touch in degrees, clockwise positive in y-down
/// coordinates (as the screen shows it), and its rate in degrees per second (`velocity.x`).
public final class RotateRecognizer: GestureRecognizer {
    public var minimumTouches: Int {
        didSet { configurationChanged() }
    }
    /// Degrees the fingers must turn before the rotation begins.
    public var minimumAngle = GestureDefaults.rotationMinimumAngle

    private enum Phase {
        case tracking
        case rotating
    }

    @exclusivity(unchecked) private var phase = Phase.tracking
    @exclusivity(unchecked) private var rotation = 0.0
    /// How far the fingers went around the centroid (the arc at their spread), and together, mm.
    @exclusivity(unchecked) private var arc = 0.0
    @exclusivity(unchecked) private var translation = Point.zero
    private let rate = VelocityTracker()

    public init(minimumTouches: Int = 2) {
        self.minimumTouches = max(2, minimumTouches)
        super.init(kind: .rotate)
    }

    public override var name: String { "rotate(\(minimumTouches)+ touches)" }

    public override func reset() {
        super.reset()
        phase = .tracking
        rotation = 0
        arc = 0
        translation = .zero
        rate.reset()
    }

    public override func handle(_ t: TouchTracker) -> RecognizerUpdate {
        rotation += t.rotationDelta
        arc += t.rotationDelta * .pi / 180 * t.spread
        // What fewer fingers did before one joined them is no motion of this rotation's.
        if t.landedStaggered && phase == .tracking { translation = .zero }
        translation += t.centroidDelta
        rate.add(time: t.time, Point(x: rotation, y: 0))
        switch phase {
        case .tracking:
            if !t.isDown {
                if abs(rotation) >= minimumAngle { return .fail(.movedTogether(transform: abs(arc), together: translation.length)) }
                return .fail(.turnedTooLittle(degrees: abs(rotation), required: minimumAngle))
            }
            guard t.touches >= minimumTouches, abs(rotation) >= minimumAngle,
                  t.transformDominates(arc, over: translation) else { return .none }
            phase = .rotating
            return .begin
        case .rotating:
            if t.touches < minimumTouches { return .end }
            return t.rotationDelta == 0 && t.centroidDelta == .zero ? .none : .change
        }
    }

    public override func gesture(_ state: GestureState, time: Instant, _ t: TouchTracker) -> Gesture {
        var g = super.gesture(state, time: time, t)
        g.rotation = rotation
        g.velocity = Point(x: rate.velocity(at: time).x, y: 0)
        return g
    }
}
