import Foundation
import TouchEvents

/// A quick straight stroke of exactly `touches` fingers in one of `directions`. Recognised
/// once it has gone `minimumDistance` at `minimumVelocity` within `maximumDuration` — while
/// the fingers are still down, not at the lift — and only when its direction is decisive and
/// stable: once it has gone a further ``GestureDefaults/swipeStableShare`` of `minimumDistance`,
/// the whole stroke within `angleTolerance` of an axis, and its recent motion (the last 100 ms)
/// and its last stretch of that share nearer that axis than any other
/// (``GestureDefaults/swipeSector``): a stroke that turns is judged on where it goes, not on
/// how it began, and a flick that hooks as it lands is decided as it runs. A stroke that lifts before that is judged at the lift on the
/// whole stroke: far, fast and straight enough, it is a swipe then. Reports after how many mm
/// and ms it was decided.
///
/// With a diagonal among its `directions` it tells eight directions apart, 45° from each
/// other, and its tolerance is at most ``GestureDefaults/swipeEightWayAngleTolerance`` (15°),
/// so that 15° lie between the cones of neighbours; with none, four, 90° apart.
public final class SwipeRecognizer: GestureRecognizer {
    public override var readsFrameValues: TouchTracker.FrameValues { [] }
    public override var fingerCounts: ClosedRange<Int>? { touches...touches }
    public var directions: Set<SwipeDirection> {
        @inline(__always) get { _directions }
        set {
            _directions = newValue
            eightWay = directions.contains(where: \.isDiagonal)
            configurationChanged()
        }
    }
    @exclusivity(unchecked) private var _directions: Set<SwipeDirection>
    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
    /// A diagonal is among ``directions``: eight directions are told apart.
    @exclusivity(unchecked) private var eightWay: Bool
    public var touches: Int {
        @inline(__always) get { _touches }
        set {
            _touches = newValue
            configurationChanged()
        }
    }
    @exclusivity(unchecked) private var _touches: Int
    /// Millimetres along the direction.
    public var minimumDistance: Double {
        @inline(__always) get { _minimumDistance }
        set { _minimumDistance = newValue }
    }
    @exclusivity(unchecked) private var _minimumDistance: Double = GestureDefaults.swipeMinimumDistance
    /// Millimetres per second along the direction.
    public var minimumVelocity: Double {
        @inline(__always) get { _minimumVelocity }
        set { _minimumVelocity = newValue }
    }
    @exclusivity(unchecked) private var _minimumVelocity: Double = GestureDefaults.swipeMinimumVelocity
    /// How long from the moment all fingers are down.
    @WithMicroseconds public var maximumDuration = GestureDefaults.swipeMaximumDuration
    /// Degrees the stroke may stray from its axis (with eight directions, at most
    /// ``GestureDefaults/swipeEightWayAngleTolerance``).
    public var angleTolerance: Double {
        @inline(__always) get { _angleTolerance }
        set { _angleTolerance = newValue }
    }
    @exclusivity(unchecked) private var _angleTolerance: Double = GestureDefaults.swipeAngleTolerance

    private enum Phase {
        case gathering
        /// All fingers down since `since`; the swipe must be recognised by `deadline`.
        case tracking(since: Instant, deadline: Instant)
        case finished
    }

    @exclusivity(unchecked) private var phase = Phase.gathering
    @exclusivity(unchecked) private var translation = Point.zero
    private let velocity = VelocityTracker()
    @exclusivity(unchecked) private var recognized: (direction: SwipeDirection, velocity: Point, distance: Double, after: Duration)?
    /// Where the stroke has been (its translation at each frame), newest last, for the
    /// direction of its last stretch; at most ``pathLength`` kept.
    @exclusivity(unchecked) private var path: [Point] = []
    private static let pathLength = 32

    public init(directions: Set<SwipeDirection> = SwipeDirection.straight, touches: Int = 1) {
        self._directions = directions
        eightWay = directions.contains(where: \.isDiagonal)
        self._touches = max(1, touches)
        super.init(kind: .swipe)
        path.reserveCapacity(Self.pathLength)
    }

    public override var name: String {
        let list = SwipeDirection.allCases.filter(directions.contains).map(\.rawValue).joined(separator: "/")
        return "swipe(\(plural(touches, "touch")), \(list))"
    }

    public override func reset() {
        super.reset()
        phase = .gathering
        translation = .zero
        velocity.reset()
        recognized = nil
        path.removeAll(keepingCapacity: true)
    }

    public override func handle(_ t: TouchTracker) -> RecognizerUpdate {
        if t.pressMaxTouches > touches { return .fail(.tooManyTouches(t.pressMaxTouches, limit: touches, required: true)) }
        switch phase {
        case .gathering:
            if !t.isDown { return .fail(.tooFewTouches(t.pressMaxTouches, required: touches)) }
            if t.touches == touches {
                let deadline = t.time.advanced(byMicroseconds: $maximumDuration.microseconds)
                phase = .tracking(since: t.time, deadline: deadline)
                velocity.add(time: t.time, translation)
                return .wait(until: deadline)
            }
            return .none
        case .tracking(let since, let deadline):
            translation += t.centroidDelta
            velocity.add(time: t.time, translation)
            if path.count == Self.pathLength { path.removeFirst() }
            path.append(translation)
            let distance = translation.length
            let lifted = !t.isDown || t.touches < touches
            guard distance >= minimumDistance else {
                return lifted ? .fail(.swipeTooShortOrSlow(millimetres: distance, required: minimumDistance, velocity: minimumVelocity))
                    : .wait(until: deadline)
            }
            // Directions are the layout's (a panel mounted sideways swipes "up" along its side),
            // distances and speeds the surface's millimetres.
            let turned = t.mapping.orient(translation)
            let direction = Self.direction(of: turned, eightWay: eightWay)
            let axis = Self.unit(direction)
            let tolerance = eightWay ? min(angleTolerance, GestureDefaults.swipeEightWayAngleTolerance) : angleTolerance
            let straight = Self.degrees(turned, from: axis) <= tolerance && directions.contains(direction)
            if lifted {
                // Lifted: the stroke can turn no more, and is judged whole — on where it went
                // and how fast on average.
                let seconds = (t.time - since).inSeconds
                let along = turned.x * axis.x + turned.y * axis.y
                if straight, seconds > 0, along / seconds >= minimumVelocity {
                    phase = .finished
                    recognized = (direction, velocity.velocity(at: t.time), distance, t.time - since)
                    return .recognize
                }
                return .fail(.swipeTooShortOrSlow(millimetres: distance, required: minimumDistance, velocity: minimumVelocity))
            }
            guard straight else { return .wait(until: deadline) }
            // Decisive: the recent motion (the velocity over the last 100 ms) goes the same way
            // — nearer this direction than any other — and fast enough: not only the first
            // millimetres. The whole stroke says which way within the tolerance; the recent
            // motion only must not have turned to another way. A flick that hooks as the finger
            // lands and then runs 37–44° off its axis (issue 65, item 8) is decided as it runs,
            // not at the lift; a diagonal is still no swipe (its whole stroke is 45° off).
            let recentTolerance = max(tolerance, eightWay ? GestureDefaults.swipeEightWaySector : GestureDefaults.swipeSector)
            let v = t.mapping.orient(velocity.velocity(at: t.time))
            let speed = v.x * axis.x + v.y * axis.y
            guard speed >= minimumVelocity, Self.degrees(v, from: axis) < recentTolerance else { return .wait(until: deadline) }
            // Stable: a further share of the minimum distance gone, and the last stretch of
            // that length going the same way (a stroke turning after a drift does not).
            let stretch = minimumDistance * GestureDefaults.swipeStableShare
            guard distance >= minimumDistance + stretch, let last = lastStretch(of: stretch),
                  Self.degrees(t.mapping.orient(last), from: axis) < recentTolerance else { return .wait(until: deadline) }
            phase = .finished
            recognized = (direction, velocity.velocity(at: t.time), distance, t.time - since)
            return .recognize
        case .finished:
            return .none
        }
    }

    public override func deadlinePassed(_ now: Instant, _ t: TouchTracker) -> RecognizerUpdate {
        .fail(.swipeTooSlow(allowed: maximumDuration, moved: translation.length))
    }

    public override func values(_ state: GestureState, time: Instant, _ t: TouchTracker) -> GestureValues {
        // A swipe's one event is its recognition: it has decided.
        guard let recognized else { preconditionFailure("a swipe reports only once it is recognized") }
        return .swipe(GestureValues.Swipe(direction: recognized.direction, translation: translation, velocity: recognized.velocity,
                                          decidedAfterMillimetres: recognized.distance, decidedAfter: recognized.after))
    }

    public override func fingers(_ t: TouchTracker) -> Int { touches }

    /// The stroke's motion from the newest point of its path at least `length` mm back to where
    /// it is now; nil when it has not gone that far from any point kept.
    private func lastStretch(of length: Double) -> Point? {
        let now = translation
        for point in path.reversed() where (now - point).length >= length { return now - point }
        return nil
    }

    /// Degrees between `v` and the unit vector `axis` (90 for a zero `v`).
    static func degrees(_ v: Point, from axis: Point) -> Double {
        let along = v.x * axis.x + v.y * axis.y
        return acos(max(-1, min(1, along / max(v.length, 1e-9)))) * 180 / .pi
    }

    /// The direction nearest `v` (y down): of four, or with `eightWay` of eight.
    static func direction(of v: Point, eightWay: Bool = false) -> SwipeDirection {
        let straight: SwipeDirection = abs(v.x) >= abs(v.y) ? (v.x >= 0 ? .right : .left) : (v.y >= 0 ? .down : .up)
        guard eightWay else { return straight }
        // Diagonal when the smaller component is more than tan(22.5°) of the larger.
        let small = min(abs(v.x), abs(v.y))
        let large = max(abs(v.x), abs(v.y))
        guard small > large * tan(22.5 * .pi / 180) else { return straight }
        return v.y < 0 ? (v.x < 0 ? .upLeft : .upRight) : (v.x < 0 ? .downLeft : .downRight)
    }

    static func unit(_ d: SwipeDirection) -> Point {
        let half = 0.5.squareRoot()
        return switch d {
        case .left: Point(x: -1, y: 0)
        case .right: Point(x: 1, y: 0)
        case .up: Point(x: 0, y: -1)
        case .down: Point(x: 0, y: 1)
        case .upLeft: Point(x: -half, y: -half)
        case .upRight: Point(x: half, y: -half)
        case .downLeft: Point(x: -half, y: half)
        case .downRight: Point(x: half, y: half)
        }
    }
}
