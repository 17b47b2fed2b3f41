/// Taps: `taps` presses of exactly `touches` fingers, each short and still, close together
/// in time and place. Recognised at the last lift — at once, unless a recognizer with more
/// taps on the same region makes it wait for that one to fail.
///
/// Fingers are counted with the device's `BTN_TOOL_*` count, so a three-finger tap works
/// on touchpads that report the third finger only through `BTN_TOOL_TRIPLETAP`.
public final class TapRecognizer: GestureRecognizer {
    /// Taps required (1 for a tap, 2 for a double tap…).
    public var taps: Int {
        didSet { tapsChanged() }
    }
    /// Fingers required in each tap.
    public var touches: Int {
        didSet { tapsChanged() }
    }
    /// Millimetres any finger may move during a tap.
    public var maximumMovement = GestureDefaults.tapMaximumMovement
    /// Milliseconds a tap may be held.
    public var maximumPressDuration = GestureDefaults.tapMaximumPressDuration
    /// Milliseconds from a lift to the next tap's touch.
    public var maximumInterval = GestureDefaults.tapMaximumInterval
    /// Millimetres between the first tap and a later one.
    public var maximumDistance = GestureDefaults.tapMaximumDistance

    private enum Phase {
        /// Waiting for tap `done + 1` to touch down.
        case waiting(done: Int)
        /// Tap `done + 1` is down.
        case pressing(done: Int)
        case finished
    }

    @exclusivity(unchecked) private var phase = Phase.waiting(done: 0)
    @exclusivity(unchecked) private var firstLocation = Point.zero
    @exclusivity(unchecked) private var tapLocation = Point.zero

    public init(taps: Int = 1, touches: Int = 1) {
        self.taps = max(1, taps)
        self.touches = max(1, touches)
        super.init(kind: .tap)
    }

    private func tapsChanged() {
        configurationChanged()
        region?.refreshAutomaticRequirements()
    }

    public override var name: String { "tap(\(plural(taps, "tap")), \(plural(touches, "touch")))" }

    override func reset() {
        super.reset()
        phase = .waiting(done: 0)
    }

    override func handle(_ t: TouchTracker) -> RecognizerStep {
        switch phase {
        case .waiting(let done):
            guard t.isDown else { return .none }
            if done == 0 {
                firstLocation = t.pressStartLocation
            } else {
                let distance = (t.pressStartLocation - firstLocation).length
                if distance > maximumDistance {
                    return .fail(.tapTooFar(tap: done + 1, millimetres: distance, allowed: maximumDistance))
                }
            }
            phase = .pressing(done: done)
            deadline = t.pressStartTime + Int64(maximumPressDuration * 1000)
            return pressing(done: done, t)
        case .pressing(let done):
            return pressing(done: done, t)
        case .finished:
            return .none
        }
    }

    private func pressing(done: Int, _ t: TouchTracker) -> RecognizerStep {
        if t.pressMaxTouches > touches {
            return .fail(.tooManyTouches(t.pressMaxTouches, limit: touches, required: true))
        }
        if t.pressMaxMovement > maximumMovement {
            return .fail(.moved(millimetres: t.pressMaxMovement, allowed: maximumMovement))
        }
        if t.isDown {
            tapLocation = t.centroid
            return .none
        }
        // All fingers lifted.
        if t.pressMaxTouches < touches {
            return .fail(.tooFewTouches(t.pressMaxTouches, required: touches))
        }
        if done + 1 == taps {
            phase = .finished
            deadline = nil
            return .recognize
        }
        phase = .waiting(done: done + 1)
        deadline = t.time + Int64(maximumInterval * 1000)
        return .none
    }

    override func deadlinePassed(_ now: Int64, _ t: TouchTracker) -> RecognizerStep {
        switch phase {
        case .pressing:
            return .fail(.held(milliseconds: Double(now - t.pressStartTime) / 1000, allowed: maximumPressDuration))
        case .waiting(let done):
            return .fail(.noFurtherTap(next: done + 1, withinMilliseconds: maximumInterval))
        case .finished:
            return .none
        }
    }

    override func gesture(_ state: GestureState, time: Int64, _ t: TouchTracker) -> Gesture {
        var g = super.gesture(state, time: time, t)
        g.touches = touches
        g.taps = taps
        g.location = tapLocation
        return g
    }
}
