import TouchEvents

/// How long touch frames take on a live device, from the kernel to the end of their handling:
/// what a user feels as lag. Give a ``GestureRuntime`` one (``GestureRuntime/latency``) and it
/// measures every frame it reads; `gestured run --latency-report FILE` writes one at exit.
///
/// For each frame (the events up to a `SYN_REPORT`) three spans are kept, in microseconds:
/// - **frame**: the kernel's time stamp on the `SYN_REPORT` → the frame handled (decoded,
///   recognized, every handler and observer called — for `gestured run`, the JSON line and the
///   socket clients' messages written). The kernel stamps `CLOCK_MONOTONIC` when the event
///   enters the input layer, so this includes waiting to be scheduled.
/// - **processing**: the loop woke for the device → the frame handled: the process's own share,
///   for the frames of one wakeup in ``processingSampleEvery`` (timing a wakeup's start is a
///   clock reading more, a system call in a VM: the other frames cost one reading each).
/// - **gesture**: the frame span of the frames that delivered at least one gesture event.
///
/// Fixed histograms (about 23 KB for the three, allocated once): values below 64 µs are exact, longer ones
/// fall in buckets 1/32 of a power of two wide, so a percentile is within 3% of the truth.
public struct LatencyMeter: Sendable {
    /// Durations in microseconds, counted in fixed buckets.
    public struct Histogram: Sendable, Equatable {
        private var buckets: [UInt32]
        /// Durations counted.
        public private(set) var count: Int = 0
        /// The longest, in microseconds.
        public private(set) var maximumMicroseconds: Int64 = 0

        /// Exact below this (µs); above, 32 buckets per power of two.
        static let exactBelow: Int64 = 64
        static let bucketCount = 64 + (63 - 6) * 32 + 32

        public init() {
            buckets = [UInt32](repeating: 0, count: Self.bucketCount)
        }

        /// Counts one duration (negative ones, from a clock that is not the kernel's, as 0).
        public mutating func record(microseconds: Int64) {
            let v = max(0, microseconds)
            let i = Self.index(of: v)
            if buckets[i] < .max { buckets[i] += 1 }
            count += 1
            if v > maximumMicroseconds { maximumMicroseconds = v }
        }

        static func index(of v: Int64) -> Int {
            if v < exactBelow { return Int(v) }
            let exponent = 63 - v.leadingZeroBitCount  // 6 and up
            let sub = Int((v >> (exponent - 5)) & 31)
            return 64 + (exponent - 6) * 32 + sub
        }

        /// The middle of bucket `i`, in microseconds.
        static func value(at i: Int) -> Int64 {
            if i < Int(exactBelow) { return Int64(i) }
            let exponent = (i - 64) / 32 + 6
            let sub = Int64((i - 64) % 32)
            let low = (32 + sub) << (exponent - 5)
            return low + (Int64(1) << (exponent - 5)) / 2
        }

        /// The duration `fraction` (0…1) of the counted ones are at or below, in microseconds
        /// (nil before any).
        public func percentile(_ fraction: Double) -> Int64? {
            guard count > 0 else { return nil }
            let rank = max(1, Int((Double(count) * min(max(fraction, 0), 1)).rounded(.up)))
            var seen = 0
            for (i, n) in buckets.enumerated() where n > 0 {
                seen += Int(n)
                if seen >= rank { return min(Self.value(at: i), maximumMicroseconds) }
            }
            return maximumMicroseconds
        }

        /// `{"count": N, "p50_us": …, "p99_us": …, "max_us": …}` (nulls before any).
        public var json: String {
            func number(_ v: Int64?) -> String { v.map { "\($0)" } ?? "null" }
            return "{\"count\": \(count), \"p50_us\": \(number(percentile(0.5))), \"p99_us\": \(number(percentile(0.99))), \"max_us\": \(number(count > 0 ? maximumMicroseconds : nil))}"
        }
    }

    /// Kernel time stamp → frame handled.
    public private(set) var frames = Histogram()
    /// Loop woken for the device → frame handled (one wakeup in ``processingSampleEvery``).
    public private(set) var processing = Histogram()
    /// Wakeups counted, to time one in ``processingSampleEvery`` from its start.
    private var wakeups: UInt64 = 0
    /// One wakeup in this many is timed from its start (``processing``).
    public static let processingSampleEvery: UInt64 = 8
    /// Kernel time stamp → handled, for frames that delivered a gesture event.
    public private(set) var gestures = Histogram()

    public init() {}

    /// The loop woke to read the device: true when this wakeup is to be timed from its start
    /// (the first, then one in ``processingSampleEvery``).
    public mutating func timesWakeup() -> Bool {
        defer { wakeups &+= 1 }
        return wakeups % Self.processingSampleEvery == 0
    }

    /// One frame: the `SYN_REPORT`'s kernel time, when the loop woke to read it (nil: that
    /// wakeup is not timed), when its handling ended (all on `CLOCK_MONOTONIC`), and whether it
    /// delivered a gesture event.
    public mutating func record(eventTime: Instant, wokeAt: Instant?, handledAt: Instant, deliveredGesture: Bool) {
        let total = handledAt.microseconds &- eventTime.microseconds
        frames.record(microseconds: total)
        if let wokeAt { processing.record(microseconds: handledAt.microseconds &- max(wokeAt, eventTime).microseconds) }
        if deliveredGesture { gestures.record(microseconds: total) }
    }

    /// The three histograms as one JSON object.
    public var json: String {
        "{\"frame\": \(frames.json), \"processing\": \(processing.json), \"gesture\": \(gestures.json)}"
    }
}
