import TouchEvents

/// A tree of regions and the hit testing over it.
///
/// **Hit testing** (done once, when a touch sequence begins): the front-most, deepest region
/// whose hit area contains the point wins. Hidden and disabled regions are neither hit nor
/// extended, and neither are their children. A child's extended hit area counts even where
/// it reaches outside its parent's frame, so a small button on the border of a panel stays
/// hittable in its extended area. Among siblings, a point inside a true frame goes to the
/// front-most such region; a point only in extended areas goes to the region whose true
/// frame is nearest (ties to the front-most), so enlarging two adjacent buttons never hides
/// one of them. A child hit beats its parent.
public final class Layout {
    public let root: Region
    /// Bumped whenever regions or their recognizers change: caches compare it.
    public private(set) var version = 0
    private var index: HitIndex?
    private var regionsByID: [String: Region]?
    /// Each region's path and recognizers, as touch sequences starting in it need them. Kept
    /// only while the tree stays the same: a removed region is never kept alive by it.
    private var paths: [ObjectIdentifier: (regions: [Region], recognizers: [GestureRecognizer])] = [:]
    /// The recognizers with a handler bound to an owner (``releaseHandlersOfGoneOwners()``
    /// looks at these only); nil until asked for after a change.
    private var ownerBound: [GestureRecognizer]?
    /// The regions with a press handler bound to an owner.
    private var ownerBoundPresses: [Region] = []

    public init(root: Region) {
        self.root = root
        root.removeFromParent()
        setLayout(root)
    }

    private func setLayout(_ r: Region) {
        r.layout = self
        for c in r.children { setLayout(c) }
    }

    func invalidate() {
        index = nil
        regionsByID = nil
        if !paths.isEmpty { paths.removeAll() }
        ownerBound = nil
        version &+= 1
    }

    /// A handler bound to an owner was attached to a recognizer of the layout.
    func ownerBoundHandlersChanged() {
        ownerBound = nil
    }

    /// `owner`'s path (deepest first) and the recognizers of the regions on it, cached until
    /// the tree changes.
    func path(of owner: Region) -> (regions: [Region], recognizers: [GestureRecognizer]) {
        let key = ObjectIdentifier(owner)
        if let cached = paths[key] { return cached }
        let regions = owner.path
        let entry = (regions, regions.flatMap(\.recognizers))
        paths[key] = entry
        return entry
    }

    /// Releases every handler whose owner is gone (and the recognizers made for them alone) —
    /// the pipeline calls this on every frame, so a gone owner's closures go no later than the
    /// next frame processed anywhere in the layout. Only recognizers that have a handler bound
    /// to an owner are looked at; without any, this costs nothing.
    public func releaseHandlersOfGoneOwners() {
        if ownerBound == nil {
            let all = regions
            ownerBound = all.flatMap(\.recognizers).filter { $0.handlers.contains(where: \.hasOwner) }
            ownerBoundPresses = all.filter { $0.pressHandlers.contains(where: \.hasOwner) }
        }
        for region in ownerBoundPresses { _ = HandlerEntry.removeReleased(from: &region.pressHandlers) }
        guard let list = ownerBound, !list.isEmpty else { return }
        for recognizer in list { recognizer.sweepReleasedHandlers() }
    }

    /// The region with this id, anywhere in the tree.
    public func region(_ id: String) -> Region? {
        if regionsByID == nil {
            var map: [String: Region] = [:]
            for r in root.subtree where map[r.id] == nil { map[r.id] = r }
            regionsByID = map
        }
        return regionsByID?[id]
    }

    /// Every region, depth first.
    public var regions: [Region] { root.subtree }

    /// The region a touch at `p` (layout units) belongs to, or nil.
    public func hitTest(_ p: Point) -> Region? {
        if index == nil { index = HitIndex(root) }
        return index!.hitTest(p)
    }

    /// The built-in layout: one region `root` covering the whole surface with every
    /// recognizer on —
    /// - edge pan from all four edges (touchscreens only: on a touchpad an edge means nothing);
    /// - taps of 1 and 2 taps with 1 to 5 touches;
    /// - long press with 1 to 5 touches;
    /// - pan with 1 to 5 touches; swipe with 1 to 5 touches in four directions;
    /// - pinch and rotate;
    ///
    /// with pan, swipe, pinch and rotate allowed to succeed together on a touchscreen; on a
    /// touchpad pan with swipe and pinch with rotate, but a translation never with a transform.
    /// Edge pan (touchscreens only) is added first,
    /// so a drag from an edge is an edge pan rather than a pan.
    public static func standard(size: (width: Double, height: Double), touchscreen: Bool) -> Layout {
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
        addStandardRecognizers(to: root, touchscreen: touchscreen)
        return Layout(root: root)
    }

    /// Adds the built-in layout's recognizers to `region`.
    public static func addStandardRecognizers(to root: Region, touchscreen: Bool) {
        if touchscreen { root.add(EdgePanRecognizer()) }
        for touches in 1...5 {
            for taps in 1...2 { root.add(TapRecognizer(taps: taps, touches: touches)) }
        }
        for touches in 1...5 { root.add(LongPressRecognizer(touches: touches)) }
        root.add(PanRecognizer(minimumTouches: 1, maximumTouches: 5))
        for touches in 1...5 { root.add(SwipeRecognizer(touches: touches)) }
        root.add(PinchRecognizer())
        root.add(RotateRecognizer())
        // A touchscreen lets a pan, a swipe, a pinch and a rotation happen at once (a map, a
        // photo). On a touchpad a stroke is a translation (pan, swipe) or a transform (pinch,
        // rotate), decided once, as libinput decides between scrolling and pinching.
        let families: [[GestureKind]] = touchscreen ? [[.pan, .swipe, .pinch, .rotate]] : [[.pan, .swipe], [.pinch, .rotate]]
        for family in families {
            for r in root.recognizers where family.contains(r.kind) {
                r.simultaneousKinds.formUnion(family.filter { $0 != r.kind })
            }
        }
    }
}

/// The region tree flattened for hit testing: absolute rectangles, and for each region the
/// bounds of its whole subtree's hit areas, so that subtrees that cannot contain the point
/// are skipped. Rebuilt when the tree changes.
struct HitIndex {
    struct Node {
        var frame: Rect
        var hitArea: Rect
        /// The union of the hit areas of the node and everything below it.
        var bounds: Rect
        /// Children: childList[childStart ..< childStart + childCount], in order.
        var childStart: Int
        var childCount: Int
    }

    private var regions: [Region] = []
    private var nodes: [Node] = []
    private var childList: [Int] = []

    init(_ root: Region) {
        guard root.isEnabled && !root.isHidden else { return }
        _ = add(root, origin: .zero)
    }

    /// Adds `r` and its visible, enabled subtree; returns its index.
    private mutating func add(_ r: Region, origin: Point) -> Int {
        let i = nodes.count
        let frame = r.frame.offset(by: origin)
        let area = frame.inset(by: r.hitInsets)
        regions.append(r)
        nodes.append(Node(frame: frame, hitArea: area, bounds: area, childStart: 0, childCount: 0))
        var kids: [Int] = []
        for c in r.children where c.isEnabled && !c.isHidden {
            kids.append(add(c, origin: Point(x: frame.x, y: frame.y)))
        }
        nodes[i].childStart = childList.count
        nodes[i].childCount = kids.count
        childList.append(contentsOf: kids)
        for k in kids { nodes[i].bounds = nodes[i].bounds.union(nodes[k].bounds) }
        return i
    }

    func hitTest(_ p: Point) -> Region? {
        guard let first = nodes.first, first.bounds.contains(p) else { return nil }
        let found: (index: Int, distance: Double)? = nodes.withUnsafeBufferPointer { n in
            childList.withUnsafeBufferPointer { c in Self.hit(0, p, n, c) }
        }
        return found.map { regions[$0.index] }
    }

    /// The best hit in node `i`'s subtree (whose bounds contain `p`): its index and the
    /// distance from `p` to its true frame (0 when `p` is inside it).
    private static func hit(_ i: Int, _ p: Point, _ nodes: UnsafeBufferPointer<Node>, _ children: UnsafeBufferPointer<Int>)
        -> (index: Int, distance: Double)? {
        let node = nodes[i]
        var best: (index: Int, distance: Double)?
        var k = node.childStart + node.childCount
        while k > node.childStart {  // front-most (last) child first
            k -= 1
            let child = children[k]
            guard nodes[child].bounds.contains(p), let h = hit(child, p, nodes, children) else { continue }
            if h.distance == 0 { return h }  // a true frame, and nothing in front of it was one
            if best == nil || h.distance < best!.distance { best = h }
        }
        if let best { return best }
        guard node.hitArea.contains(p) else { return nil }
        return (i, node.frame.distance(to: p))
    }
}
