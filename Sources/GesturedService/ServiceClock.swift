import TouchInput

/// The service's clock: `CLOCK_MONOTONIC` µs, the clock the kernel stamps device events
/// with. Tests use a manual one.
public protocol ServiceClock: AnyObject {
    func now() -> Int64
}

/// The real clock.
public final class MonotonicClock: ServiceClock {
    public init() {}
    public func now() -> Int64 { EventLoop.monotonicNow() }
}

/// A clock that moves only when told to.
public final class ManualServiceClock: ServiceClock {
    public var time: Int64
    public init(time: Int64 = 0) { self.time = time }
    public func now() -> Int64 { time }
    public func advance(milliseconds: Double) { time += Int64(milliseconds * 1000) }
}
