/// A pan that starts within `bandWidth` millimetres of one of `edges` of its region and
/// moves inward (UIKit's screen-edge pan). Reports the edge, the translation and velocity.
public final class EdgePanRecognizer: GestureRecognizer {
    public var edges: Set<Edge>
    public var touches: Int
    /// Millimetres from the edge where the first touch must land.
    public var bandWidth = GestureDefaults.edgeBandWidth
    /// Millimetres the fingers must move inward before the edge pan begins.
    public var minimumDistance = GestureDefaults.panMinimumDistance

    private enum Phase {
        case starting
        case tracking(Edge)
        case panning(Edge)
    }

    private var phase = Phase.starting
    private var translation = Point.zero
    private var velocity = VelocityTracker()
    private var edge: Edge?

    public init(edges: Set<Edge> = Set(Edge.allCases), touches: Int = 1) {
        self.edges = edges
        self.touches = max(1, touches)
        super.init(kind: .edgePan)
    }

    public override var name: String {
        "edge-pan(\(Edge.allCases.filter(edges.contains).map(\.rawValue).joined(separator: "/")))"
    }

    override func reset() {
        super.reset()
        phase = .starting
        translation = .zero
        velocity.reset()
        edge = nil
    }

    override func handle(_ t: TouchTracker) -> RecognizerStep {
        translation += t.centroidDelta
        velocity.add(time: t.time, translation)
        switch phase {
        case .starting:
            guard let frame = region?.frame else { return .fail("no region") }
            let p = t.pressStartLocation
            let distances: [(Edge, Double)] = [
                (.left, p.x - frame.minX), (.right, frame.maxX - p.x), (.top, p.y - frame.minY), (.bottom, frame.maxY - p.y),
            ]
            guard let nearest = distances.filter({ edges.contains($0.0) }).min(by: { $0.1 < $1.1 }) else {
                return .fail("no edges configured")
            }
            guard nearest.1 <= bandWidth else {
                return .fail("began \(one(nearest.1)) mm from the \(nearest.0) edge > \(one(bandWidth)) mm band")
            }
            edge = nearest.0
            phase = .tracking(nearest.0)
            return handle(t)
        case .tracking(let e):
            if t.pressMaxTouches > touches { return .fail("\(plural(t.pressMaxTouches, "touch")) > \(touches) allowed") }
            if !t.isDown { return .fail("lifted after \(one(translation.length)) mm < \(one(minimumDistance)) mm inward") }
            guard translation.length >= minimumDistance else { return .none }
            let inward = Self.inward(e)
            let along = translation.x * inward.x + translation.y * inward.y
            guard along >= translation.length * 0.5 else {
                return .fail("moved \(one(translation.length)) mm but not inward from the \(e) edge")
            }
            phase = .panning(e)
            return .begin
        case .panning:
            if !t.isDown { return .end }
            return t.centroidDelta == .zero && t.beganCount == 0 && t.endedCount == 0 ? .none : .change
        }
    }

    static func inward(_ e: Edge) -> Point {
        switch e {
        case .left: Point(x: 1, y: 0)
        case .right: Point(x: -1, y: 0)
        case .top: Point(x: 0, y: 1)
        case .bottom: Point(x: 0, y: -1)
        }
    }

    override func gesture(_ state: GestureState, time: Int64, _ t: TouchTracker) -> Gesture {
        var g = super.gesture(state, time: time, t)
        g.translation = translation
        g.velocity = velocity.velocity(at: time)
        g.edge = edge
        return g
    }
}
