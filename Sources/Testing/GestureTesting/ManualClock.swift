import Gestures
import TouchEvents

/// The one manual clock for tests: time moves only when told to — the model of swift-nio's
/// `EmbeddedEventLoop.advanceTime(by:)`. It can drive a pipeline's deadlines as it moves, and
/// it stands in for the monotonic clock wherever a `TouchClock` (of `TouchEvents`) is asked
/// for (the service).
public final class ManualClock: TouchClock {
    /// The pipeline whose deadlines fire as time moves, if any.
    public let pipeline: GesturePipeline?
    public private(set) var now: Instant

    /// Starts at `start`; with `pipeline`, fires its deadlines as time moves.
    public init(start: Instant = .zero, pipeline: GesturePipeline? = nil) {
        now = start
        self.pipeline = pipeline
    }

    /// Only ``advance(by:)`` moves this clock: no system timer can wait for it.
    public func monotonicInstant(at instant: Instant) -> Instant? { nil }

    /// Moves time forward by `duration`, firing the deadlines on the way.
    public func advance(by duration: Duration) {
        advance(to: now + duration)
    }

    /// Moves time forward to `instant` (never backwards), firing the deadlines on the way.
    public func advance(to instant: Instant) {
        let target = max(now, instant)
        pipeline?.advance(to: target)
        now = target
    }

    /// Feeds frames to the pipeline in order, moving time with them.
    public func play(_ frames: [TouchFrame]) {
        for frame in frames {
            now = max(now, frame.time)
            pipeline?.process(frame)
        }
    }
}
