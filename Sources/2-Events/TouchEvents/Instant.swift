/// A moment on a touch device's clock, to the microsecond: the one time type of every event,
/// frame, gesture and deadline. Durations between instants are Swift's `Duration`.
///
/// The clock is the source's: `CLOCK_MONOTONIC` for live devices (the kernel is asked for it),
/// the recorded clock for recordings, a manual clock in tests. Only differences between two
/// instants of one source mean anything.
public struct Instant: Sendable, Hashable, Comparable, InstantProtocol, CustomStringConvertible {
    /// Microseconds since the clock's origin. The raw number, for file formats and system calls.
    public var microseconds: Int64

    @inlinable
    public init(microseconds: Int64) {
        self.microseconds = microseconds
    }

    /// `seconds` and `microseconds` since the clock's origin (a `struct timeval`, a recording's
    /// timestamp); nil when the sum does not fit.
    @inlinable
    public init?(seconds: Int64, microseconds: Int64) {
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return nil }
        let (sum, overflowSum) = whole.addingReportingOverflow(microseconds)
        guard !overflowSum else { return nil }
        self.microseconds = sum
    }

    // Computed and inlinable, not stored: a stored static read from another module is a call
    // (and a check that it is initialised) each time; these are constants where they are read.
    /// The clock's origin.
    @inlinable public static var zero: Instant { Instant(microseconds: 0) }
    /// Before and after every real instant.
    @inlinable public static var distantPast: Instant { Instant(microseconds: .min) }
    @inlinable public static var distantFuture: Instant { Instant(microseconds: .max) }

    /// Whole seconds and the microseconds after them (the remainder has the sign of the instant).
    @inlinable
    public var secondsAndMicroseconds: (seconds: Int64, microseconds: Int64) {
        (microseconds / 1_000_000, microseconds % 1_000_000)
    }

    @inlinable
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.microseconds < rhs.microseconds }

    /// `duration` later, to the microsecond (saturating at the ends of time).
    @inlinable
    public static func + (lhs: Instant, rhs: Duration) -> Instant {
        lhs.advanced(byMicroseconds: rhs.inMicroseconds)
    }

    @inlinable
    public static func - (lhs: Instant, rhs: Duration) -> Instant { lhs + (Duration.zero - rhs) }

    @inlinable
    public static func += (lhs: inout Instant, rhs: Duration) { lhs = lhs + rhs }

    /// The time from `rhs` to `lhs`.
    @inlinable
    public static func - (lhs: Instant, rhs: Instant) -> Duration {
        .microseconds(lhs.microseconds &- rhs.microseconds)
    }

    @inlinable
    public func advanced(by duration: Duration) -> Instant { self + duration }

    /// `microseconds` later (saturating): for hot paths that keep a duration as a count.
    @inlinable
    public func advanced(byMicroseconds microseconds: Int64) -> Instant {
        let (sum, overflow) = self.microseconds.addingReportingOverflow(microseconds)
        return overflow ? (microseconds > 0 ? .distantFuture : .distantPast) : Instant(microseconds: sum)
    }

    @inlinable
    public func duration(to other: Instant) -> Duration { other - self }

    /// `12.000345s`.
    public var description: String { formatDecimal(scaled: microseconds, places: 6, trailingZeros: .keep) + "s" }
}

extension Duration {
    /// Whole microseconds, truncated toward zero (saturating for durations beyond ±292,000 years).
    @inlinable
    public var inMicroseconds: Int64 {
        let microseconds = attoseconds / 1_000_000_000_000
        return Int64(exactly: microseconds) ?? (microseconds < 0 ? .min : .max)
    }

    /// Milliseconds, with fractions: for thresholds written in milliseconds and messages.
    @inlinable
    public var inMilliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }

    /// Seconds, with fractions: for rates per second.
    @inlinable
    public var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

/// Where "now" comes from: the monotonic clock live, a manual clock in tests. The gesture
/// core never asks; it is handed times.
public protocol TouchClock: AnyObject {
    /// The current instant on the clock device events are stamped with.
    var now: Instant { get }

    /// When this clock will read `instant`, on `CLOCK_MONOTONIC` (what a kernel timer can wait
    /// for); nil for a clock no system timer follows (a manual clock: only its owner moves it).
    func monotonicInstant(at instant: Instant) -> Instant?
}

/// A `Duration` property that keeps its whole microseconds too (``Duration/inMicroseconds``,
/// worked out once, when it is set), for deadlines worked out on every frame:
/// `t.time.advanced(byMicroseconds: $maximumInterval.microseconds)`. Reading `Duration`'s
/// attoseconds costs a 128-bit division; a recognizer's threshold changes seldom.
@propertyWrapper
public struct WithMicroseconds: Sendable, Hashable {
    public var wrappedValue: Duration {
        didSet { microseconds = wrappedValue.inMicroseconds }
    }
    /// ``wrappedValue`` in whole microseconds.
    public private(set) var microseconds: Int64
    public var projectedValue: WithMicroseconds { self }

    public init(wrappedValue: Duration) {
        self.wrappedValue = wrappedValue
        microseconds = wrappedValue.inMicroseconds
    }
}
