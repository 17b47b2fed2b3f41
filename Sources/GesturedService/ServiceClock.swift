import TouchEvents
import TouchInput

/// The real clock: `CLOCK_MONOTONIC`, the clock the kernel stamps live device events with.
/// Tests use a manual one (GestureTesting's `ManualClock`).
public final class MonotonicClock: TouchClock {
    public init() {}
    public var now: Instant { EventLoop.monotonicNow() }
}
