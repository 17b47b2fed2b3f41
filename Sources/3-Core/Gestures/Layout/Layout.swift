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
///
/// **Beyond the root** (the same rule for routing touches and for ``hitTest(_:)``): a point
/// beyond the root's frame by at most ``rootOvershoot`` of its width (horizontally) or height
/// (vertically) is taken at the root's nearest point — devices report a little past their
/// declared range now and then; farther out, nothing is hit, and a touch there is ignored.
/// (Before that, the pipeline takes a touch the device reports past its own surface at the
/// surface's nearest edge.)
public final class Layout {
    /// How far beyond the root's frame a point is still taken at the root's nearest point: 3%
    /// of the root's width horizontally, of its height vertically. It scales with the root as
    /// a device's overshoot scales with its axis range (a few percent past the declared
    /// maximum); a layout smaller than the screen still ignores touches well outside it.
    public static let rootOvershoot = 0.03

    public let root: Region
    // Unchecked exclusivity on its stored properties, as on the regions' and the recognizers':
    // the pipeline reads them on every frame and event, from one thread (the loop's, where
    // handlers change them too), and never while one of them is being changed.
    /// Bumped whenever regions or their recognizers change: caches compare it.
    public private(set) var version: Int {
        @inline(__always) get { _version }
        set { _version = newValue }
    }
    @exclusivity(unchecked) private var _version: Int = 0
    @exclusivity(unchecked) private var index: HitIndex?
    /// Each id's region (the first in depth-first order), kept as regions come and go.
    @exclusivity(unchecked) private var regionsByID: [String: Region]?
    /// Two regions had one id when the map was made: one leaving makes it again.
    @exclusivity(unchecked) private var hadDuplicateIDs = false
    /// Each region's path and recognizers, as touch sequences starting in it need them. Kept
    /// only while the tree stays the same: a removed region is never kept alive by it.
    @exclusivity(unchecked) private var paths: [ObjectIdentifier: (regions: [Region], recognizers: [GestureRecognizer])] = [:]
    /// The recognizers with a handler bound to an owner (``releaseHandlersOfGoneOwners()``
    /// looks at these only); nil until asked for after a change.
    @exclusivity(unchecked) private var ownerBound: [GestureRecognizer]?
    /// The regions with a press handler bound to an owner.
    @exclusivity(unchecked) private var ownerBoundPresses: [Region] = []

    public init(root: Region) {
        self.root = root
        // Storage now, with room for a few owners: the first touch sequence would otherwise pay
        // for the runtime's making the storage's generic type metadata, once per process (about
        // 410,000 instructions: `scripts/frame-cost.sh` counted it in the live part).
        paths.reserveCapacity(4)
        root.removeFromParent()
        root.attach(to: self)
    }

    /// A region's place, size or visibility changed, or regions were added or removed: the
    /// hit index is made again when next asked for (groups that did not change keep theirs).
    func invalidate() {
        index = nil
        if !paths.isEmpty { paths.removeAll() }
        version &+= 1
    }

    /// Recognizers or press handlers were added or removed (`ownerBound`: one of them is
    /// bound to an owner).
    func recognizersChanged(ownerBound: Bool) {
        if ownerBound { self.ownerBound = nil }
        if !paths.isEmpty { paths.removeAll() }
        version &+= 1
    }

    /// `region` is in the layout now (each region of an added subtree is told): the id map
    /// learns it (unless it is in a namespace: ``Region/namespace``), and the owner-bound lists are
    /// made again if it has such handlers.
    func regionJoined(_ region: Region) {
        if regionsByID != nil && region.namespace == nil {
            // Two regions with one id: the first in depth-first order is the one `region(_:)`
            // finds, which only a walk of the tree tells.
            if regionsByID![region.id] == nil { regionsByID![region.id] = region } else { regionsByID = nil }
        }
        if ownerBound != nil && region.hasOwnerBoundHandlers { ownerBound = nil }
    }

    /// `region` left the layout.
    func regionLeft(_ region: Region) {
        if regionsByID != nil, region.namespace == nil, regionsByID![region.id] === region {
            regionsByID![region.id] = nil
            // Another region with the same id may be in the tree still.
            if hadDuplicateIDs { regionsByID = nil }
        }
        if ownerBound != nil && region.hasOwnerBoundHandlers { ownerBound = nil }
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
    @inline(__always)
    public func releaseHandlersOfGoneOwners() {
        // Usually there is none: checked where it is called (a call cost about 25 instructions
        // a frame).
        if let list = ownerBound, list.isEmpty, ownerBoundPresses.isEmpty { return }
        releaseOwnerBoundHandlers()
    }

    @inline(never)
    private func releaseOwnerBoundHandlers() {
        if ownerBound == nil {
            let all = regions
            ownerBound = all.flatMap(\.recognizers).filter { $0.handlers.contains(where: \.hasOwner) }
            ownerBoundPresses = all.filter { $0.pressHandlers.contains(where: \.hasOwner) }
        }
        for region in ownerBoundPresses { _ = HandlerEntry.removeReleased(from: &region.pressHandlers) }
        guard let list = ownerBound, !list.isEmpty else { return }
        for recognizer in list { recognizer.sweepReleasedHandlers() }
    }

    /// The region with this id, anywhere in the tree (the first in depth-first order, if two
    /// share it).
    public func region(_ id: String) -> Region? {
        if regionsByID == nil {
            var map: [String: Region] = [:]
            hadDuplicateIDs = false
            for r in regionsOutsideNamespaces {
                if map[r.id] == nil { map[r.id] = r } else { hadDuplicateIDs = true }
            }
            regionsByID = map
        }
        return regionsByID?[id]
    }

    /// Every region but those in a namespace (``Region/namespace``), depth first: what a
    /// layout's own regions cost to walk, however many regions namespaces hold.
    package var regionsOutsideNamespaces: [Region] {
        var out: [Region] = []
        func walk(_ r: Region) {
            out.append(r)
            for c in r._children where c.namespace == nil { walk(c) }
        }
        walk(root)
        return out
    }

    /// Every region, depth first.
    public var regions: [Region] { root.subtree }

    /// The region a touch at `p` (layout units) belongs to, or nil: `p` taken as
    /// ``landing(_:)`` says, then the front-most, deepest region whose hit area contains it.
    public func hitTest(_ p: Point) -> Region? {
        guard let point = landing(p) else { return nil }
        if index == nil { index = HitIndex(root) }
        return index!.hitTest(point)
    }

    /// Where a touch at `p` (layout units) lands: `p` itself inside the root's frame; the
    /// root's nearest point when `p` is beyond it by at most ``rootOvershoot``; nil farther out.
    @inlinable
    public func landing(_ p: Point) -> Point? {
        let root = self.root.frame
        let slackX = root.width * Self.rootOvershoot
        let slackY = root.height * Self.rootOvershoot
        guard p.x >= root.minX - slackX, p.x <= root.maxX + slackX,
              p.y >= root.minY - slackY, p.y <= root.maxY + slackY else { return nil }
        return Point(x: min(max(p.x, root.minX), root.maxX), y: min(max(p.y, root.minY), root.maxY))
    }

    /// The built-in layout: one region `root` covering the whole surface with every
    /// recognizer on —
    /// - edge pan from all four edges (touchscreens only: on a touchpad an edge means nothing);
    /// - taps of 1 and 2 taps with 1 to 5 touches;
    /// - long press with 1 to 5 touches;
    /// - pan with 1 to 5 touches; swipe in four directions with 1 to 5 touches on a
    ///   touchscreen, 2 to 5 on a touchpad (one finger on a touchpad moves the pointer, as in
    ///   libinput and the ChromiumOS gestures library: its stroke is a pan, never a swipe);
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
        // One finger on a touchpad is the pointer: libinput and the ChromiumOS gestures library
        // have no one-finger swipe, and a pointer's quick stroke (15–25 mm in 100–350 ms) is
        // as fast as a flick.
        for touches in (touchscreen ? 1 : 2)...5 { root.add(SwipeRecognizer(touches: touches)) }
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
/// are skipped. Rebuilt when the tree changes — except a group's subtree (``Region/isGroup``),
/// which has a hit index of its own, kept on the group until something in it changes: a
/// change in one group re-indexes that group and the regions outside every group, never
/// another group's regions.
struct HitIndex {
    struct Node {
        var frame: Rect
        var hitArea: Rect
        /// The union of the hit areas of the node and everything below it.
        var bounds: Rect
        /// Children: childList[childStart ..< childStart + childCount], in order.
        var childStart: Int
        var childCount: Int
        /// A group: its index in `groups` (-1: not a group). A group is never hit itself.
        var group: Int
    }

    private var regions: [Region] = []
    private var nodes: [Node] = []
    private var childList: [Int] = []
    /// The groups' own indexes, each in its group's parent's coordinates, with where that
    /// parent's origin lies in this index's coordinates.
    private var groups: [(index: HitIndex, origin: Point)] = []

    /// The index of the layout: `root` and everything under it.
    init(_ root: Region) {
        guard root.isEnabled && !root.isHidden else { return }
        _ = add(root, origin: .zero)
    }

    /// The index of `group`'s subtree, in its parent's coordinates.
    private init(group: Region) {
        _ = add(group, origin: .zero)
    }

    /// Stands for a group at the top of its own index.
    nonisolated(unsafe) private static let placeholder = Region(id: "", frame: Rect(x: 0, y: 0, width: 0, height: 0))

    /// The union of every hit area in the index (nil: nothing can be hit).
    private var bounds: Rect? { nodes.first?.bounds }

    /// Adds `r` and its visible, enabled subtree; returns its index. A group below the top (the
    /// first node) is one node whose subtree is its own index (made now if it has none).
    private mutating func add(_ r: Region, origin: Point) -> Int {
        let i = nodes.count
        let frame = r.frame.offset(by: origin)
        // A group at the top is not held (it is never hit): the group holds its own index, and
        // holding the group back would keep both alive for ever.
        regions.append(r.isGroup && i == 0 ? Self.placeholder : r)
        if r.isGroup && i > 0 {
            if r.groupIndex == nil { r.groupIndex = HitIndex(group: r) }
            let sub = r.groupIndex!
            let bounds = sub.bounds.map { $0.offset(by: origin) } ?? Rect(x: frame.x, y: frame.y, width: 0, height: 0)
            nodes.append(Node(frame: frame, hitArea: bounds, bounds: bounds, childStart: 0, childCount: 0, group: groups.count))
            groups.append((sub, origin))
            return i
        }
        let area = frame.inset(by: r.hitInsets)
        // A group is never hit itself: no hit area of its own.
        let hitArea = r.isGroup ? Rect(x: frame.x, y: frame.y, width: 0, height: 0) : area
        nodes.append(Node(frame: frame, hitArea: hitArea, bounds: area, childStart: 0, childCount: 0, group: -1))
        var kids: [Int] = []
        for c in r._children where c.isEnabled && !c.isHidden {
            kids.append(add(c, origin: Point(x: frame.x, y: frame.y)))
        }
        nodes[i].childStart = childList.count
        nodes[i].childCount = kids.count
        childList.append(contentsOf: kids)
        // A group's own area is no hit area: its bounds are its children's.
        if r.isGroup, let first = kids.first {
            nodes[i].bounds = nodes[first].bounds
        }
        for k in kids { nodes[i].bounds = nodes[i].bounds.union(nodes[k].bounds) }
        return i
    }

    func hitTest(_ p: Point) -> Region? {
        hit(p)?.region.takeUnretainedValue()
    }

    /// The best hit and the distance from `p` to its true frame (0 when `p` is inside it). The
    /// region is unretained (the index holds it): the walk costs no reference counting.
    private func hit(_ p: Point) -> (region: Unmanaged<Region>, distance: Double)? {
        guard let first = nodes.first, first.bounds.contains(p) else { return nil }
        return nodes.withUnsafeBufferPointer { n in
            childList.withUnsafeBufferPointer { c in
                regions.withUnsafeBufferPointer { r in
                    groups.withUnsafeBufferPointer { g in Self.hit(0, p, n, c, r, g) }
                }
            }
        }
    }

    /// The best hit in node `i`'s subtree (whose bounds contain `p`).
    private static func hit(_ i: Int, _ p: Point, _ nodes: UnsafeBufferPointer<Node>, _ children: UnsafeBufferPointer<Int>,
                            _ regions: UnsafeBufferPointer<Region>, _ groups: UnsafeBufferPointer<(index: HitIndex, origin: Point)>)
        -> (region: Unmanaged<Region>, distance: Double)? {
        let node = nodes[i]
        if node.group >= 0 {
            let origin = groups[node.group].origin
            return groups[node.group].index.hit(Point(x: p.x - origin.x, y: p.y - origin.y))
        }
        var best: (region: Unmanaged<Region>, distance: Double)?
        var k = node.childStart + node.childCount
        while k > node.childStart {  // front-most (last) child first
            k -= 1
            let child = children[k]
            guard nodes[child].bounds.contains(p), let h = hit(child, p, nodes, children, regions, groups) else { continue }
            if h.distance == 0 { return h }  // a true frame, and nothing in front of it was one
            if best == nil || h.distance < best!.distance { best = h }
        }
        if let best { return best }
        // A group is never hit itself (its node's hit area is empty).
        guard node.hitArea.contains(p) else { return nil }
        return (Unmanaged.passUnretained(regions[i]), node.frame.distance(to: p))
    }
}
