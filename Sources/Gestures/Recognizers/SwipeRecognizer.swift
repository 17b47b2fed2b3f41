import Foundation
import TouchEvents

/// A quick straight stroke of exactly `touches` fingers in one of `directions`. Recognised
/// the moment it has gone `minimumDistance` at `minimumVelocity` within `maximumDuration` —
/// while the fingers are still down, not at the lift — and only when its direction is
/// decisive: the whole stroke and its recent motion (the last 100 ms) both within
/// `angleTolerance` of the same axis. Reports after how many mm and ms it was decided.
///
/// With a diagonal among its `directions` it tells eight directions apart, 45° from each
/// other, and its tolerance is at most ``GestureDefaults/swipeEightWayAngleTolerance`` (15°),
/// so that 15° lie between the cones of neighbours; with none, four, 90° apart.
public final class SwipeRecognizer: GestureRecognizer {
    public var directions: Set<SwipeDirection> {
        didSet {
            eightWay = directions.contains(where: \.isDiagonal)
            configurationChanged()
        }
    }
    /// A diagonal is among ``directions``: eight directions are told apart.
    @exclusivity(unchecked) private var eightWay: Bool
    public var touches: Int {
        didSet { configurationChanged() }
    }
    /// Millimetres along the direction.
    public var minimumDistance = GestureDefaults.swipeMinimumDistance
    /// Millimetres per second along the direction.
    public var minimumVelocity = GestureDefaults.swipeMinimumVelocity
    /// How long from the moment all fingers are down.
    public var maximumDuration = GestureDefaults.swipeMaximumDuration {
        didSet { maximumMicroseconds = maximumDuration.inMicroseconds }
    }
    /// ``maximumDuration`` in microseconds, for the deadline set on every press.
    private var maximumMicroseconds = GestureDefaults.swipeMaximumDuration.inMicroseconds
    /// Degrees the stroke may stray from its axis (with eight directions, at most
    /// ``GestureDefaults/swipeEightWayAngleTolerance``).
    public var angleTolerance = GestureDefaults.swipeAngleTolerance

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

    public init(directions: Set<SwipeDirection> = SwipeDirection.straight, touches: Int = 1) {
        self.directions = directions
        eightWay = directions.contains(where: \.isDiagonal)
        self.touches = max(1, touches)
        super.init(kind: .swipe)
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
    }

    public override func handle(_ t: TouchTracker) -> RecognizerUpdate {
        if t.pressMaxTouches > touches { return .fail(.tooManyTouches(t.pressMaxTouches, limit: touches, required: true)) }
        switch phase {
        case .gathering:
            if !t.isDown { return .fail(.tooFewTouches(t.pressMaxTouches, required: touches)) }
            if t.touches == touches {
                let deadline = t.time.advanced(byMicroseconds: maximumMicroseconds)
                phase = .tracking(since: t.time, deadline: deadline)
                velocity.add(time: t.time, translation)
                return .wait(until: deadline)
            }
            return .none
        case .tracking(let since, let deadline):
            translation += t.centroidDelta
            velocity.add(time: t.time, translation)
            if !t.isDown || t.touches < touches {
                return .fail(.swipeTooShortOrSlow(millimetres: translation.length, required: minimumDistance, velocity: minimumVelocity))
            }
            let distance = translation.length
            guard distance >= minimumDistance else { return .wait(until: deadline) }
            // Directions are the layout's (a panel mounted sideways swipes "up" along its side),
            // distances and speeds the surface's millimetres.
            let turned = t.mapping.orient(translation)
            let direction = Self.direction(of: turned, eightWay: eightWay)
            let axis = Self.unit(direction)
            let along = turned.x * axis.x + turned.y * axis.y
            let off = acos(max(-1, min(1, along / max(turned.length, 1e-9)))) * 180 / .pi
            let tolerance = eightWay ? min(angleTolerance, GestureDefaults.swipeEightWayAngleTolerance) : angleTolerance
            guard off <= tolerance, directions.contains(direction) else { return .wait(until: deadline) }
            // Decisive: the recent motion (the velocity over the last 100 ms) goes the same way,
            // as clear of the diagonal, and fast enough — not only the first millimetres.
            let v = t.mapping.orient(velocity.velocity(at: t.time))
            let speed = v.x * axis.x + v.y * axis.y
            let recentOff = acos(max(-1, min(1, speed / max(v.length, 1e-9)))) * 180 / .pi
            guard speed >= minimumVelocity, recentOff <= tolerance else { return .wait(until: deadline) }
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

    public override func gesture(_ state: GestureState, time: Instant, _ t: TouchTracker) -> Gesture {
        var g = super.gesture(state, time: time, t)
        g.touches = touches
        g.translation = translation
        g.velocity = recognized?.velocity ?? velocity.velocity(at: time)
        g.direction = recognized?.direction ?? Self.direction(of: t.mapping.orient(translation), eightWay: eightWay)
        g.decidedAfterDistance = recognized?.distance
        g.decidedAfterTime = recognized?.after
        return g
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
