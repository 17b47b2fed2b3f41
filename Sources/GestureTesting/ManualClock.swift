import Gestures
import TouchEvents

/// A clock that moves only when told to, driving a pipeline's deadlines — the model of
/// swift-nio's EmbeddedEventLoop.advanceTime(by:). Times are milliseconds from 0.
public final class ManualClock {
    public let pipeline: GesturePipeline
    /// Current time, µs.
    public private(set) var now: Int64 = 0

    public init(pipeline: GesturePipeline) {
        self.pipeline = pipeline
    }

    /// Moves time forward by `milliseconds`, firing the deadlines on the way.
    public func advance(by milliseconds: Double) {
        advance(toMilliseconds: Double(now) / 1000 + milliseconds)
    }

    /// Moves time forward to `milliseconds` (never backwards).
    public func advance(toMilliseconds milliseconds: Double) {
        let t = max(now, Int64((milliseconds * 1000).rounded()))
        pipeline.advance(to: t)
        now = t
    }

    /// Feeds frames in order, moving time with them.
    public func play(_ frames: [TouchFrame]) {
        for frame in frames {
            now = max(now, frame.time)
            pipeline.process(frame)
        }
    }
}
