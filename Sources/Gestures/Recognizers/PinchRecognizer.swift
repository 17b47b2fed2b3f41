import TouchEvents

/// Two or more fingers moving apart or together. Begins when their spread (mean distance
/// from the centroid) has changed by `minimumSpreadChange`, and by more than the fingers have
/// moved together (fingers dragged side by side change their spread a little: that is a pan);
/// reports the scale relative to the spread at the first touch, the centroid, and the scale's
/// rate per second.
public final class PinchRecognizer: GestureRecognizer {
    public var minimumTouches: Int {
        didSet { configurationChanged() }
    }
    /// Millimetres the spread must change before the pinch begins.
    public var minimumSpreadChange = GestureDefaults.pinchMinimumSpreadChange

    private enum Phase {
        case tracking
        case pinching
    }

    @exclusivity(unchecked) private var phase = Phase.tracking
    @exclusivity(unchecked) private var scale = 1.0
    @exclusivity(unchecked) private var spreadChange = 0.0
    /// How far the fingers moved together, mm.
    @exclusivity(unchecked) private var translation = Point.zero
    private let rate = VelocityTracker()

    public init(minimumTouches: Int = 2) {
        self.minimumTouches = max(2, minimumTouches)
        super.init(kind: .pinch)
    }

    public override var name: String { "pinch(\(minimumTouches)+ touches)" }

    public override func reset() {
        super.reset()
        phase = .tracking
        scale = 1
        spreadChange = 0
        translation = .zero
        rate.reset()
    }

    public override func handle(_ t: TouchTracker) -> RecognizerUpdate {
        scale *= t.spreadFactor
        spreadChange += t.spreadDelta
        // What fewer fingers did before one joined them is no motion of this pinch's.
        if t.landedStaggered && phase == .tracking { translation = .zero }
        translation += t.centroidDelta
        rate.add(time: t.time, Point(x: scale, y: 0))
        switch phase {
        case .tracking:
            if !t.isDown {
                if abs(spreadChange) >= minimumSpreadChange {
                    return .fail(.movedTogether(transform: abs(spreadChange), together: translation.length))
                }
                return .fail(.spreadTooSmall(millimetres: abs(spreadChange), required: minimumSpreadChange))
            }
            guard t.touches >= minimumTouches, abs(spreadChange) >= minimumSpreadChange,
                  t.transformDominates(spreadChange, over: translation) else { return .none }
            phase = .pinching
            return .begin
        case .pinching:
            if t.touches < minimumTouches { return .end }
            return t.spreadFactor == 1 && t.centroidDelta == .zero ? .none : .change
        }
    }

    public override func gesture(_ state: GestureState, time: Instant, _ t: TouchTracker) -> Gesture {
        var g = super.gesture(state, time: time, t)
        g.scale = scale
        g.span = t.spread
        g.velocity = Point(x: rate.velocity(at: time).x, y: 0)
        return g
    }
}
