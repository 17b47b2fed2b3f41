import TouchEvents

/// A press of exactly `touches` fingers held still for `minimumDuration`; continuous once
/// it begins (changed as the fingers move, ended when they lift).
///
/// With a touchpad's ``TouchPolicy/longPressYieldsToMotion`` it is libinput's hold: it begins
/// while the fingers rest, and ends at the lift; fingers that then move more than
/// ``allowedMovement``, another finger landing or a click end it `cancelled`, and so does any other
/// gesture of the sequence beginning (a pan or swipe takes over from the rest, with no second
/// rest needed).
public final class LongPressRecognizer: GestureRecognizer {
    public override var readsFrameValues: TouchTracker.FrameValues { [] }
    public override var fingerCounts: ClosedRange<Int>? { touches...touches }
    public var touches: Int {
        @inline(__always) get { _touches }
        set {
            _touches = newValue
            configurationChanged()
        }
    }
    @exclusivity(unchecked) private var _touches: Int
    /// How long the fingers must stay down.
    @WithMicroseconds public var minimumDuration = GestureDefaults.longPressMinimumDuration
    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
    /// Millimetres any finger may move before the press begins.
    public var allowedMovement: Double {
        @inline(__always) get { _allowedMovement }
        set { _allowedMovement = newValue }
    }
    @exclusivity(unchecked) private var _allowedMovement: Double = GestureDefaults.longPressAllowedMovement

    private enum Phase {
        /// Not all `touches` fingers are down yet.
        case gathering
        /// All fingers down; at `deadline` the press begins.
        case holding(deadline: Instant)
        /// Begun: reporting moves until the lift.
        case pressing
        /// Begun yielding (touchpad): ends at the lift, cancelled when the fingers move.
        case resting
    }

    @exclusivity(unchecked) private var phase = Phase.gathering

    public init(touches: Int = 1) {
        self._touches = max(1, touches)
        super.init(kind: .longPress)
    }

    public override var name: String { "long-press(\(plural(touches, "touch")))" }

    public override func reset() {
        super.reset()
        phase = .gathering
    }

    public override func handle(_ t: TouchTracker) -> RecognizerUpdate {
        let allowed = allowedMovement * t.policy.movementAllowance
        switch phase {
        case .gathering, .holding:
            if t.pressMaxTouches > touches {
                return .fail(.tooManyTouches(t.pressMaxTouches, limit: touches, required: true))
            }
            // A contact that rested, left out, before it counted holds nothing, however far it
            // has moved since it rested.
            if let rested = t.pressRestedBefore { return .fail(.restedBefore(rested)) }
            if t.pressMaxMovement > allowed {
                return .fail(.moved(millimetres: t.pressMaxMovement, allowed: allowed))
            }
            if !t.isDown {
                return .fail(.liftedTooSoon(t.time - t.pressStartTime, required: minimumDuration))
            }
            if case .gathering = phase, t.touches == touches {
                phase = .holding(deadline: t.time.advanced(byMicroseconds: $minimumDuration.microseconds))
            }
            if case .holding(let deadline) = phase { return .wait(until: deadline) }
            return .none
        case .pressing:
            if !t.isDown { return .end }
            return t.centroidDelta == .zero && t.beganCount == 0 && t.endedCount == 0 ? .none : .change
        case .resting:
            // Moved, joined by another finger, or pressed to click: the hold is over, and what
            // the fingers do now is something else (a pan, a swipe, a click).
            if t.pressMaxTouches > touches || t.pressMaxMovement > allowed { return .cancel }
            if t.buttonPressed && t.policy.buttonPressEndsRecognition { return .cancel }
            return t.isDown ? .none : .end
        }
    }

    public override func values(_ state: GestureState, time: Instant, _ t: TouchTracker) -> GestureValues {
        .longPress(.init(duration: time - membership.sequenceStart))
    }

    public override func deadlinePassed(_ now: Instant, _ t: TouchTracker) -> RecognizerUpdate {
        switch phase {
        case .holding:
            if t.policy.longPressYieldsToMotion {
                phase = .resting
                return .beginYielding
            }
            phase = .pressing
            return .begin
        case .gathering, .pressing, .resting:
            return .none
        }
    }
}
