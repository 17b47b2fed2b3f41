import TouchEvents

/// A pinch or a rotation: two or more fingers transforming about their centroid, with what both
/// share — the fewest fingers, and how the transform progresses (begin once large enough and
/// dominant) — and each its own value and threshold.
public class TransformRecognizer: GestureRecognizer {
    public override var fingerCounts: ClosedRange<Int>? { minimumTouches...Int.max }
    public var minimumTouches: Int {
        @inline(__always) get { _minimumTouches }
        set {
            _minimumTouches = newValue
            configurationChanged()
        }
    }
    @exclusivity(unchecked) private var _minimumTouches: Int
    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
    @exclusivity(unchecked) var progress = TransformProgress()

    init(kind: GestureKind, minimumTouches: Int) {
        self._minimumTouches = max(2, minimumTouches)
        super.init(kind: kind)
    }

    public override var name: String { "\(kind)(\(minimumTouches)+ touches)" }

    public override func reset() {
        super.reset()
        progress.reset()
    }
}

/// What a pinch and a rotation share: how far the fingers went the transform's way (the
/// spread's change, the arc: millimetres on the surface) and how far together, the rate of the
/// transform's value, and the one decision — begin once the transform is large enough and
/// outweighs the fingers' moving together (fingers dragged side by side change their spread and
/// angle a little: that is a pan); fail at the lift, saying which of the two it lacked.
struct TransformProgress {
    /// Begun (the recognizer's `began` has been reported).
    private(set) var isTransforming = false
    /// Millimetres the fingers went the transform's way, signed.
    private(set) var motion = 0.0
    /// How far the fingers moved together, mm, since the fingers the transform needs were down:
    /// what fewer fingers did before the others joined them is no motion of the transform's.
    private(set) var translation = Point.zero
    /// The transform's value over time (scale, degrees), for its rate per second.
    let rate = VelocityTracker()
    /// ``TouchTracker/transformBar`` at the last frame with fingers down.
    private(set) var bar = 1.0

    mutating func reset() {
        isTransforming = false
        motion = 0
        bar = 1
        translation = .zero
        rate.reset()
    }

    /// One frame: the fingers went `motionDelta` mm the transform's way, and its value is now
    /// `value`; `reached` says whether the transform is large enough to begin (given the motion
    /// so far), `changed` whether it changed in this frame, `tooLittle` why it fails at the lift
    /// when it never was (given the motion).
    @inline(__always)
    mutating func step(_ t: TouchTracker, value: Double, motionDelta: Double, minimumTouches: Int, changed: Bool,
                       reached: (Double) -> Bool, tooLittle: (Double) -> FailureReason) -> RecognizerUpdate {
        motion += motionDelta
        // The transform's own motion starts when the fingers it needs are down (and again
        // when one more joins within the stagger window): what fewer did before is not its.
        if !isTransforming && (t.landedStaggered || t.touches >= minimumTouches && t.previousTouches < minimumTouches) {
            translation = .zero
        }
        translation += t.centroidDelta
        rate.add(time: t.time, Point(x: value, y: 0))
        guard isTransforming else {
            if !t.isDown {
                // Never as many fingers as it needs: that is why, whatever they did.
                if t.pressMaxTouches < minimumTouches { return .fail(.tooFewTouches(t.pressMaxTouches, required: minimumTouches)) }
                if reached(motion) {
                    return .fail(.movedTogether(transform: abs(motion), together: translation.length,
                                                required: translation.length * bar / GestureDefaults.transformDominance))
                }
                return .fail(tooLittle(motion))
            }
            // The bar as it stood while the fingers were down (at the lift none are).
            bar = t.transformBar
            guard t.touches >= minimumTouches, reached(motion), t.transformDominates(motion, over: translation) else { return .none }
            isTransforming = true
            return .begin
        }
        if t.touches < minimumTouches { return .end }
        return !changed && t.centroidDelta == .zero ? .none : .change
    }
}
