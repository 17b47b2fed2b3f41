import TouchEvents

/// Velocity from position samples: a least-squares line through the samples of the last
/// ``GestureDefaults/velocityHorizon`` milliseconds, as Flutter's VelocityTracker does
/// (which fits a polynomial; a line is enough for the speeds gestures need).
///
/// A class with fixed storage, held in a `let`: adding a sample allocates nothing and needs
/// no exclusivity check on the recognizer that owns it.
final class VelocityTracker {
    private static let capacity = 20
    private let times = UnsafeMutablePointer<Instant>.allocate(capacity: capacity)
    private let xs = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
    private let ys = UnsafeMutablePointer<Double>.allocate(capacity: capacity)
    @exclusivity(unchecked) private var count = 0
    @exclusivity(unchecked) private var head = 0

    deinit {
        times.deallocate()
        xs.deallocate()
        ys.deallocate()
    }

    func reset() {
        count = 0
        head = 0
    }

    func add(time: Instant, _ p: Point) {
        head = head + 1 == Self.capacity ? 0 : head + 1
        times[head] = time
        xs[head] = p.x
        ys[head] = p.y
        if count < Self.capacity { count += 1 }
    }

    // Per tracker, not static: a static is checked for initialisation on every use.
    private let horizonMicroseconds = GestureDefaults.velocityHorizon.inMicroseconds
    private let stopMicroseconds = GestureDefaults.velocityStopTime.inMicroseconds

    /// Units per second at `now`; zero with fewer than two recent samples, or when the
    /// newest sample is older than ``GestureDefaults/velocityStopTime``.
    func velocity(at now: Instant) -> Point {
        guard count >= 2 else { return .zero }
        let newest = times[head]
        if now.microseconds - newest.microseconds > stopMicroseconds { return .zero }
        var n = 0.0, st = 0.0, sx = 0.0, sy = 0.0, stt = 0.0, stx = 0.0, sty = 0.0
        var i = head
        for _ in 0..<count {
            let ageMicroseconds = newest.microseconds - times[i].microseconds
            if ageMicroseconds > horizonMicroseconds { break }
            let t = -Double(ageMicroseconds) / 1_000_000  // seconds, newest at 0
            n += 1
            st += t
            sx += xs[i]
            sy += ys[i]
            stt += t * t
            stx += t * xs[i]
            sty += t * ys[i]
            i = i == 0 ? Self.capacity - 1 : i - 1
        }
        let denominator = n * stt - st * st
        guard n >= 2, denominator > 1e-12 else { return .zero }
        return Point(x: (n * stx - st * sx) / denominator, y: (n * sty - st * sy) / denominator)
    }
}
