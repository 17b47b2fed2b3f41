import TouchEvents

/// The time between a device's reports, as it usually is: the median of the last
/// ``capacity`` intervals between frames of 2 to 100 ms. A touched device reports at its scan
/// rate (in fixtures/chromiumos the link's pads every 5 to 18 ms, alex every 12 to 29), but
/// frames also come out of step — a button press, a firmware that sends a contact's x and y in
/// two frames 1 ms apart, an alex frame 13 ms after the last of a recording at 29 ms — and not
/// at all while nothing changes (a pause is no interval).
struct ReportIntervals {
    /// How many intervals the median is taken over.
    static let capacity = 15
    /// Shorter intervals are frames split by the firmware, not its scan.
    static let shortest: Int64 = 2_000
    /// Longer ones are pauses: nothing changed, or nothing touched.
    static let longest: Int64 = 100_000

    /// The intervals, in microseconds, oldest overwritten first.
    private var samples: [Int64] = []
    private var next = 0
    private var last: Instant?

    /// Takes in a frame's time.
    mutating func record(_ time: Instant) {
        defer { last = time }
        guard let last else { return }
        let interval = (time - last).inMicroseconds
        guard interval >= Self.shortest, interval <= Self.longest else { return }
        if samples.count < Self.capacity {
            samples.append(interval)
        } else {
            samples[next] = interval
            next = (next + 1) % Self.capacity
        }
    }

    /// The median interval, once three have been seen; nil before.
    var typical: Duration? {
        guard samples.count >= 3 else { return nil }
        return .microseconds(samples.sorted()[samples.count / 2])
    }
}
