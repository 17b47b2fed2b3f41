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

    /// Blocks the calling thread until `instant` on this clock (at once if it has passed).
    public static func sleep(until instant: Instant) {
        var left = instant - now
        while left > .zero {
            let microseconds = left.inMicroseconds
            var request = timespec(tv_sec: Int(microseconds / 1_000_000), tv_nsec: Int(microseconds % 1_000_000) * 1000)
            guard nanosleep(&request, nil) == 0 || errno == EINTR else { return }
            left = instant - now
        }
    }
}
