import TouchEvents

/// The time between a device's reports, as it usually is: the median of the last
/// ``capacity`` intervals between frames of 2 to 100 ms. A touched device reports at its scan
/// rate (in fixtures/chromiumos the link's pads every 5 to 18 ms, alex every 12 to 29), but
/// frames also come out of step — a button press, a firmware that sends a contact's x and y in
/// two frames 1 ms apart, an alex frame 13 ms after the last of a recording at 29 ms — and not
/// at all while nothing changes (a pause is no interval). Kept sorted as intervals come, so
/// neither recording one nor reading the median allocates.
struct ReportIntervals {
    /// How many intervals the median is taken over.
    static let capacity = 15
    /// Shorter intervals are frames split by the firmware, not its scan.
    static let shortest = Duration.milliseconds(2)
    /// Longer ones are pauses: nothing changed, or nothing touched.
    static let longest = Duration.milliseconds(100)

    /// The intervals in the order they came, oldest overwritten first.
    private var arrived: [Duration] = []
    /// The same intervals, sorted.
    private var sorted: [Duration] = []
    /// Where in ``arrived`` the next interval goes once it is full.
    private var next = 0
    /// The time of the last frame recorded.
    private var last: Instant?

    init() {
        arrived.reserveCapacity(Self.capacity)
        sorted.reserveCapacity(Self.capacity)
    }

    /// Takes in a frame's time.
    mutating func record(_ time: Instant) {
        defer { last = time }
        guard let last else { return }
        let interval = time - last
        guard interval >= Self.shortest, interval <= Self.longest else { return }
        if arrived.count < Self.capacity {
            arrived.append(interval)
        } else {
            let oldest = arrived[next]
            arrived[next] = interval
            next = (next + 1) % Self.capacity
            if let i = sorted.firstIndex(of: oldest) { sorted.remove(at: i) }
        }
        sorted.insert(interval, at: sorted.firstIndex { $0 > interval } ?? sorted.count)
    }

    /// The median interval (of an even count, the mean of the middle two), once three have been
    /// seen; nil before.
    var typical: Duration? {
        let n = sorted.count
        guard n >= 3 else { return nil }
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}
