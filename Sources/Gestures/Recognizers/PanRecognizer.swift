import TouchEvents

/// Dragging with `minimumTouches`…`maximumTouches` fingers. Begins once the fingers have
/// moved `minimumDistance` together; reports the translation since the first touch and the
/// velocity; the finger count may change while it goes on (as in UIKit), each event says
/// how many.
public final class PanRecognizer: GestureRecognizer {
    public var minimumTouches: Int {
        didSet { configurationChanged() }
    }
    public var maximumTouches: Int {
        didSet { configurationChanged() }
    }
    /// Millimetres the fingers must move before the pan begins.
    public var minimumDistance = GestureDefaults.panMinimumDistance

    private enum Phase {
        case tracking
        case panning
    }

    @exclusivity(unchecked) private var phase = Phase.tracking
    @exclusivity(unchecked) private(set) var translation = Point.zero
    private let velocity = VelocityTracker()

    public init(minimumTouches: Int = 1, maximumTouches: Int = 5) {
        self.minimumTouches = max(1, minimumTouches)
        self.maximumTouches = max(self.minimumTouches, maximumTouches)
        super.init(kind: .pan)
    }

    public override var name: String {
        minimumTouches == maximumTouches ? "pan(\(plural(minimumTouches, "touch")))" : "pan(\(minimumTouches)-\(maximumTouches) touches)"
    }

    override func reset() {
        super.reset()
        phase = .tracking
        translation = .zero
        velocity.reset()
    }

    override func handle(_ t: TouchTracker) -> RecognizerUpdate {
        translation += t.centroidDelta
        velocity.add(time: t.time, translation)
        switch phase {
        case .tracking:
            if !t.isDown { return .fail(.liftedBeforeMoving(millimetres: translation.length, required: minimumDistance)) }
            if t.touches > maximumTouches { return .fail(.tooManyTouches(t.touches, limit: maximumTouches, required: false)) }
            guard t.touches >= minimumTouches, translation.length >= minimumDistance,
                  t.time >= t.lastLandingTime.advanced(byMicroseconds: t.policy.fingerSettleMicroseconds) else { return .none }
            phase = .panning
            return .begin
        case .panning:
            if !t.isDown || t.touches < minimumTouches { return .end }
            return t.centroidDelta == .zero && t.beganCount == 0 && t.endedCount == 0 ? .none : .change
        }
    }

    override func gesture(_ state: GestureState, time: Instant, _ t: TouchTracker) -> Gesture {
        var g = super.gesture(state, time: time, t)
        g.translation = translation
        g.velocity = velocity.velocity(at: time)
        return g
    }
}
