/// Taps: `taps` presses of exactly `touches` fingers, each short and still, close together
/// in time and place. Recognised at the last lift — at once, unless a recognizer with more
/// taps on the same region makes it wait for that one to fail.
///
/// Fingers are counted with the device's `BTN_TOOL_*` count, so a three-finger tap works
/// on touchpads that report the third finger only through `BTN_TOOL_TRIPLETAP`.
public final class TapRecognizer: GestureRecognizer {
    /// Taps required (1 for a tap, 2 for a double tap…).
    public var taps: Int
    /// Fingers required in each tap.
    public var touches: Int
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

    private var phase = Phase.waiting(done: 0)
    private var firstLocation = Point.zero
    private var tapLocation = Point.zero

    public init(taps: Int = 1, touches: Int = 1) {
        self.taps = max(1, taps)
        self.touches = max(1, touches)
        super.init(kind: .tap)
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
                    return .fail("tap \(done + 1) landed \(one(distance)) mm from the first > \(one(maximumDistance)) mm allowed")
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
            return .fail("\(plural(t.pressMaxTouches, "touch")) > \(touches) required")
        }
        if t.pressMaxMovement > maximumMovement {
            return .fail("moved \(one(t.pressMaxMovement)) mm > \(one(maximumMovement)) mm allowed")
        }
        if t.isDown {
            tapLocation = t.centroid
            return .none
        }
        // All fingers lifted.
        if t.pressMaxTouches < touches {
            return .fail("\(plural(t.pressMaxTouches, "touch")) < \(touches) required")
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
            return .fail("held \(one(Double(now - t.pressStartTime) / 1000)) ms > \(one(maximumPressDuration)) ms allowed")
        case .waiting(let done):
            return .fail("no tap \(done + 1) within \(one(maximumInterval)) ms")
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
