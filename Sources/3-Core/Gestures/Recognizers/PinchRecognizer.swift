import TouchEvents

/// Two or more fingers moving apart or together. Begins when their spread (mean distance
/// from the centroid) has changed by `minimumSpreadChange`, and by more than the fingers have
/// moved together (fingers dragged side by side change their spread a little: that is a pan);
/// reports the scale relative to the spread at the first touch, the centroid, and the scale's
/// rate per second.
public final class PinchRecognizer: TransformRecognizer {
    public override var readsFrameValues: TouchTracker.FrameValues { .spreadChange }
    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
    /// Millimetres the spread must change before the pinch begins.
    public var minimumSpreadChange: Double {
        @inline(__always) get { _minimumSpreadChange }
        set { _minimumSpreadChange = newValue }
    }
    @exclusivity(unchecked) private var _minimumSpreadChange: Double = GestureDefaults.pinchMinimumSpreadChange

    @exclusivity(unchecked) private var scale = 1.0

    public init(minimumTouches: Int = 2) {
        super.init(kind: .pinch, minimumTouches: minimumTouches)
    }

    public override func reset() {
        super.reset()
        scale = 1
    }

    public override func handle(_ t: TouchTracker) -> RecognizerUpdate {
        scale *= t.spreadFactor
        let minimum = minimumSpreadChange
        return progress.step(t, value: scale, motionDelta: t.spreadDelta, minimumTouches: minimumTouches, changed: t.spreadFactor != 1,
                             reached: { abs($0) >= minimum },
                             tooLittle: { .spreadTooSmall(millimetres: abs($0), required: minimum) })
    }

    public override func values(_ state: GestureState, time: Instant, _ t: TouchTracker) -> GestureValues {
        .pinch(.init(scale: scale, spanMillimetres: t.spread, scalePerSecond: progress.rate.velocity(at: time).x))
    }
}
