#if canImport(Glibc)
import Glibc
#endif
import TouchEvents

/// The real clock: `CLOCK_MONOTONIC`, the clock the kernel stamps live device events with
/// (the input layer asks it to). Tests use a manual one (GestureTesting's `ManualClock`).
public final class MonotonicClock: TouchClock {
    public init() {}

    public var now: Instant { Self.now }

    /// This clock is `CLOCK_MONOTONIC`.
    public func monotonicInstant(at instant: Instant) -> Instant? { instant }

    /// Now on `CLOCK_MONOTONIC`.
    public static var now: Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(seconds: Int64(ts.tv_sec), microseconds: Int64(ts.tv_nsec) / 1000) ?? .distantFuture
    }
}
