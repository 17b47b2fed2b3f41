import TouchEvents

/// Taps: `taps` presses of exactly `touches` fingers, each short and still, close together
/// in time and place. Recognised at the last lift — at once, unless a recognizer with more
/// taps on the same region makes it wait for that one to fail.
///
/// Fingers are counted with the device's `BTN_TOOL_*` count, so a three-finger tap works
/// on touchpads that report the third finger only through `BTN_TOOL_TRIPLETAP`.
public final class TapRecognizer: GestureRecognizer {
    public override var readsFrameValues: TouchTracker.FrameValues { [] }
    public override var fingerCounts: ClosedRange<Int>? { touches...touches }
    /// Taps required (1 for a tap, 2 for a double tap…).
    public var taps: Int {
        @inline(__always) get { _taps }
        set {
            _taps = newValue
            tapsChanged()
        }
    }
    @exclusivity(unchecked) private var _taps: Int
    /// Fingers required in each tap.
    public var touches: Int {
        @inline(__always) get { _touches }
        set {
            _touches = newValue
            tapsChanged()
        }
    }
    @exclusivity(unchecked) private var _touches: Int
    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
    /// Millimetres any finger may move during a tap.
    public var maximumMovement: Double {
        @inline(__always) get { _maximumMovement }
        set { _maximumMovement = newValue }
    }
    @exclusivity(unchecked) private var _maximumMovement: Double = GestureDefaults.tapMaximumMovement
    /// How long a tap may be held.
    @WithMicroseconds public var maximumPressDuration = GestureDefaults.tapMaximumPressDuration
    /// How long from a lift to the next tap's touch.
    @WithMicroseconds public var maximumInterval = GestureDefaults.tapMaximumInterval
    /// Millimetres between the first tap and a later one.
    public var maximumDistance: Double {
        @inline(__always) get { _maximumDistance }
        set { _maximumDistance = newValue }
    }
    @exclusivity(unchecked) private var _maximumDistance: Double = GestureDefaults.tapMaximumDistance

    private enum Phase {
        /// Waiting for tap `done + 1` to touch down (until `deadline`, after the first tap).
        case waiting(done: Int, deadline: Instant?)
        /// Tap `done + 1` is down; it must lift by `deadline`.
        case pressing(done: Int, deadline: Instant)
        case finished
    }

    @exclusivity(unchecked) private var phase = Phase.waiting(done: 0, deadline: nil)
    @exclusivity(unchecked) private var firstLocation = Point.zero
    @exclusivity(unchecked) private var tapLocation = Point.zero

    public init(taps: Int = 1, touches: Int = 1) {
        self._taps = max(1, taps)
        self._touches = max(1, touches)
        super.init(kind: .tap)
    }

    private func tapsChanged() {
        configurationChanged()
        region?.refreshAutomaticRequirements()
    }

    public override var name: String { "tap(\(plural(taps, "tap")), \(plural(touches, "touch")))" }

    public override func reset() {
        super.reset()
        phase = .waiting(done: 0, deadline: nil)
    }

    public override func handle(_ t: TouchTracker) -> RecognizerUpdate {
        switch phase {
        case .waiting(let done, let deadline):
            guard t.isDown else { return RecognizerUpdate(.none, deadline: deadline) }
            // A contact landing again where one just lifted: that lift was no tap's, and this
            // press is none.
            if t.bounced || t.pressBounced { return .fail(.bounced) }
            if done == 0 {
                firstLocation = t.pressStartLocation
            } else {
                let distance = (t.pressStartLocation - firstLocation).length
                let allowed = maximumDistance * t.policy.movementAllowance
                if distance > allowed {
                    return .fail(.tapTooFar(tap: done + 1, millimetres: distance, allowed: allowed))
                }
            }
            let deadline = t.pressStartTime.advanced(byMicroseconds: $maximumPressDuration.microseconds)
            phase = .pressing(done: done, deadline: deadline)
            return pressing(done: done, until: deadline, t)
        case .pressing(let done, let deadline):
            return pressing(done: done, until: deadline, t)
        case .finished:
            return .none
        }
    }

    private func pressing(done: Int, until deadline: Instant, _ t: TouchTracker) -> RecognizerUpdate {
        // A thumb that rested, left out, and crept out of the thumb area: no tap, however briefly
        // it counted.
        if let rested = t.pressRestedBefore { return .fail(.restedBefore(rested)) }
        if t.pressMaxTouches > touches {
            return .fail(.tooManyTouches(t.pressMaxTouches, limit: touches, required: true))
        }
        let allowed = maximumMovement * t.policy.movementAllowance
        if t.pressMaxMovement > allowed {
            return .fail(.moved(millimetres: t.pressMaxMovement, allowed: allowed))
        }
        if t.isDown {
            tapLocation = t.centroid
            return .wait(until: deadline)
        }
        // All fingers lifted.
        if t.pressMaxTouches < touches {
            return .fail(.tooFewTouches(t.pressMaxTouches, required: touches))
        }
        // No finger lifted: the sensor lost what it saw.
        if t.pressLiftsVanished { return .fail(.vanished) }
        if done + 1 == taps {
            phase = .finished
            return .recognize
        }
        let next = t.time.advanced(byMicroseconds: $maximumInterval.microseconds)
        phase = .waiting(done: done + 1, deadline: next)
        return .wait(until: next)
    }

    public override func deadlinePassed(_ now: Instant, _ t: TouchTracker) -> RecognizerUpdate {
        switch phase {
        case .pressing:
            return .fail(.held(now - t.pressStartTime, allowed: maximumPressDuration))
        case .waiting(let done, _):
            return .fail(.noFurtherTap(next: done + 1, within: maximumInterval))
        case .finished:
            return .none
        }
    }

    public override func values(_ state: GestureState, time: Instant, _ t: TouchTracker) -> GestureValues { .tap(.init(taps: taps)) }
    public override func location(_ t: TouchTracker) -> Point { tapLocation }
    public override func fingers(_ t: TouchTracker) -> Int { touches }
}
