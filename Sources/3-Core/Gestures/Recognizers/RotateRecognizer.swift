import TouchEvents

/// Two or more fingers turning about their centroid. Begins after `minimumAngle` degrees, when
/// the fingers have gone further around the centroid than they have moved together (the
/// wobble of fingers dragged side by side is not a rotation);
/// reports the rotation since the first touch in degrees, clockwise positive in y-down
/// coordinates (as the screen shows it), and its rate in degrees per second (`velocity.x`).
public final class RotateRecognizer: TransformRecognizer {
    public override var readsFrameValues: TouchTracker.FrameValues { .rotation }
    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
    /// Degrees the fingers must turn before the rotation begins.
    public var minimumAngle: Double {
        @inline(__always) get { _minimumAngle }
        set { _minimumAngle = newValue }
    }
    @exclusivity(unchecked) private var _minimumAngle: Double = GestureDefaults.rotationMinimumAngle

    /// (How far the fingers went around the centroid, the arc at their spread, is the progress's motion.)
    @exclusivity(unchecked) private var rotation = 0.0

    public init(minimumTouches: Int = 2) {
        super.init(kind: .rotate, minimumTouches: minimumTouches)
    }

    public override func reset() {
        super.reset()
        rotation = 0
    }

    public override func handle(_ t: TouchTracker) -> RecognizerUpdate {
        rotation += t.rotationDelta
        let degrees = rotation, minimum = minimumAngle
        return progress.step(t, value: rotation, motionDelta: t.rotationDelta * .pi / 180 * t.spread, minimumTouches: minimumTouches,
                             changed: t.rotationDelta != 0,
                             reached: { _ in abs(degrees) >= minimum },
                             tooLittle: { _ in .turnedTooLittle(degrees: abs(degrees), required: minimum) })
    }

    public override func values(_ state: GestureState, time: Instant, _ t: TouchTracker) -> GestureValues {
        .rotate(.init(degrees: rotation, degreesPerSecond: progress.rate.velocity(at: time).x))
    }
}
