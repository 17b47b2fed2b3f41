import TouchEvents

/// A pan that starts within `bandWidth` millimetres of one of `edges` of its region and
/// moves inward (UIKit's screen-edge pan). Reports the edge, the translation and velocity.
public final class EdgePanRecognizer: GestureRecognizer {
    public override var readsFrameValues: TouchTracker.FrameValues { [] }
    public override var fingerCounts: ClosedRange<Int>? { touches...touches }
    public var edges: Set<Edge> {
        @inline(__always) get { _edges }
        set {
            _edges = newValue
            configurationChanged()
        }
    }
    @exclusivity(unchecked) private var _edges: Set<Edge>
    public var touches: Int {
        @inline(__always) get { _touches }
        set { _touches = newValue }
    }
    @exclusivity(unchecked) private var _touches: Int
    /// Millimetres from the edge where the first touch must land.
    public var bandWidth: Double {
        @inline(__always) get { _bandWidth }
        set { _bandWidth = newValue }
    }
    @exclusivity(unchecked) private var _bandWidth: Double = GestureDefaults.edgeBandWidth
    /// Millimetres the fingers must move inward before the edge pan begins.
    public var minimumDistance: Double {
        @inline(__always) get { _minimumDistance }
        set { _minimumDistance = newValue }
    }
    @exclusivity(unchecked) private var _minimumDistance: Double = GestureDefaults.panMinimumDistance

    private enum Phase {
        case starting
        case tracking(Edge)
        case panning(Edge)
    }

    // Unchecked exclusivity on this type's per-frame state: ARCHITECTURE.md's rule ("Unchecked
    // exclusivity"), its contract checked by `EntryCheck`.
    @exclusivity(unchecked) private var phase = Phase.starting
    @exclusivity(unchecked) private var translation = Point.zero
    private let velocity = VelocityTracker()

    public init(edges: Set<Edge> = Set(Edge.allCases), touches: Int = 1) {
        self._edges = edges
        self._touches = max(1, touches)
        super.init(kind: .edgePan)
    }

    public override var name: String {
        "edge-pan(\(Edge.allCases.filter(edges.contains).map(\.rawValue).joined(separator: "/")))"
    }

    public override func reset() {
        super.reset()
        phase = .starting
        translation = .zero
        velocity.reset()
    }

    public override func handle(_ t: TouchTracker) -> RecognizerUpdate {
        translation += t.centroidDelta
        velocity.add(time: t.time, translation)
        switch phase {
        case .starting:
            // Edges are the region's, in layout units; the band is millimetres on the surface.
            guard let frame = region?.absoluteFrame else { return .fail(.noRegion) }
            let p = t.mapping.point(t.pressStartLocation)
            let unitsPerMillimetre = max(t.mapping.scale, 1e-9)
            // The nearest configured edge; ties go to the first of left, right, top, bottom.
            var nearest: (edge: Edge, distance: Double)?
            for e in Edge.allCases where edges.contains(e) {
                let d: Double
                switch e {
                case .left: d = p.x - frame.minX
                case .right: d = frame.maxX - p.x
                case .top: d = p.y - frame.minY
                case .bottom: d = frame.maxY - p.y
                }
                let mm = d / unitsPerMillimetre
                if mm < nearest?.distance ?? .infinity { nearest = (e, mm) }
            }
            guard let nearest else { return .fail(.noEdges) }
            guard nearest.distance <= bandWidth else {
                return .fail(.tooFarFromEdge(millimetres: nearest.distance, edge: nearest.edge, band: bandWidth))
            }
            phase = .tracking(nearest.edge)
            return handle(t)
        case .tracking(let e):
            if t.pressMaxTouches > touches { return .fail(.tooManyTouches(t.pressMaxTouches, limit: touches, required: false)) }
            if !t.isDown { return .fail(.liftedBeforeMovingInward(millimetres: translation.length, required: minimumDistance)) }
            guard translation.length >= minimumDistance else { return .none }
            let inward = Self.inward(e)
            let turned = t.mapping.orient(translation)
            let along = turned.x * inward.x + turned.y * inward.y
            // Inward: within 60° of the edge's inward normal.
            guard along >= translation.length * 0.5 else {
                return .fail(.notInward(millimetres: translation.length, edge: e))
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

    public override func values(_ state: GestureState, time: Instant, _ t: TouchTracker) -> GestureValues {
        // Its events are those of a pan that has begun: it has its edge.
        guard case .panning(let edge) = phase else { preconditionFailure("an edge pan reports only once it pans") }
        return .edgePan(.init(edge: edge, translation: translation, velocity: velocity.velocity(at: time)))
    }
}
