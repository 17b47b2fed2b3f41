/// An area of the layout with the recognizers (and through them the handlers) attached to
/// it, and child regions drawn over it (later children on top).
///
/// A region's `frame` is in its parent's coordinates (layout units: millimetres on the
/// touch surface unless a configuration or a `Screen` maps the device onto a screen). Its hit area is the
/// frame inset by `hitInsets` — negative insets extend it, the seed libraries'
/// `touchExtendInset` — and may reach beyond the parent's frame.
public final class Region {
    public let id: String
    // Unchecked exclusivity: see ``Layout``'s properties.
    public var frame: Rect {
        @inline(__always) get { _frame }
        set {
            _frame = newValue
            invalidate()
        }
    }
    @exclusivity(unchecked) private var _frame: Rect
    /// Hidden regions are neither hit nor extended, nor are their children.
    public var isHidden: Bool {
        @inline(__always) get { _isHidden }
        set {
            _isHidden = newValue
            invalidate()
        }
    }
    @exclusivity(unchecked) private var _isHidden: Bool = false
    /// Disabled regions are neither hit nor extended, nor are their children.
    public var isEnabled: Bool {
        @inline(__always) get { _isEnabled }
        set {
            _isEnabled = newValue
            invalidate()
        }
    }
    @exclusivity(unchecked) private var _isEnabled: Bool = true
    /// Negative values extend the hit area beyond the frame, positive ones shrink it; a width
    /// or height below zero becomes zero.
    public var hitInsets: EdgeInsets {
        @inline(__always) get { _hitInsets }
        set {
            _hitInsets = newValue
            invalidate()
        }
    }
    @exclusivity(unchecked) private var _hitInsets: EdgeInsets = EdgeInsets.zero
    /// A group holds regions and is never hit itself: touches pass through it to what lies
    /// below, and reach its children as anywhere else (its frame places them). The layout
    /// indexes a group's subtree for hit testing apart from the rest, so adding, changing or
    /// removing regions inside one group re-indexes that group only: what a layout with many
    /// independent sets of regions needs (the service keeps each namespace's regions in a group
    /// of their own). Its recognizers, as any ancestor's, take part in touches on its
    /// children.
    public var isGroup: Bool {
        @inline(__always) get { _isGroup }
        set {
            _isGroup = newValue
            invalidate()
        }
    }
    @exclusivity(unchecked) private var _isGroup: Bool = false
    /// An exclusion region (Android's system gesture exclusion): a touch sequence that begins
    /// in it (or in a region under it) is left to its own namespace's recognizers — the
    /// layout's own gestures (an edge pan of the root, a swipe bound to a program) do not take
    /// it, and on an owned device its touches reach the app beneath. What a socket client
    /// registers over its app's own controls (protocol 1.1's `exclusion`). Hit testing is the
    /// same as for any region.
    public var isGestureExclusion: Bool {
        @inline(__always) get { _isGestureExclusion }
        set { _isGestureExclusion = newValue }
    }
    @exclusivity(unchecked) private var _isGestureExclusion: Bool = false
    /// A group's hit index, in its parent's coordinates; nil until asked for after a change.
    @exclusivity(unchecked) var groupIndex: HitIndex?
    /// The namespace of a region added apart from the layout's own ones (whoever adds it keeps
    /// the regions of each namespace by id: the service gives each socket client one), or nil
    /// for a region of the layout's own. Its id is unique within its namespace only:
    /// ``Layout/region(_:)`` does not find it, and its gestures carry the namespace. Set before
    /// the region joins a layout or gets recognizers.
    package var namespace: Int?
    public private(set) var children: [Region] {
        @inline(__always) get { _children }
        set { _children = newValue }
    }
    /// The children themselves, for the module's walks (``children`` is the public view: a
    /// computed read would copy the array's reference on every visit of a walk run each frame,
    /// 4.2 M instructions of the guard's 115 M).
    @exclusivity(unchecked) var _children: [Region] = []
    public private(set) var parent: Region? {
        @inline(__always) get { _parent }
        set { _parent = newValue }
    }
    @exclusivity(unchecked) private weak var _parent: Region?
    public private(set) var recognizers: [GestureRecognizer] {
        @inline(__always) get { _recognizers }
        set { _recognizers = newValue }
    }
    @exclusivity(unchecked) private var _recognizers: [GestureRecognizer] = []
    /// Press feedback handlers (``onPress(_:)``).
    var pressHandlers: [HandlerEntry<Press>] = []
    /// The layout the region belongs to, told when the tree changes.
    @exclusivity(unchecked) weak var layout: Layout?

    public init(id: String, frame: Rect, hitInsets: EdgeInsets = .zero) {
        self.id = id
        self._frame = frame
        self._hitInsets = hitInsets
    }

    /// Its recognizers' uncounted reference to it (``GestureRecognizer/placedIn``) goes as
    /// their weak one does.
    deinit {
        let me = Unmanaged.passUnretained(self).toOpaque()
        for recognizer in recognizers where recognizer.placedIn?.toOpaque() == me { recognizer.placedIn = nil }
    }

    /// Adds `child` on top of the existing children (moving it from any other parent).
    public func addChild(_ child: Region) {
        precondition(child !== self && !child.isAncestor(of: self), "a region cannot contain itself")
        child.removeFromParent()
        child.parent = self
        _children.append(child)
        child.setLayout(layout)
        invalidate()
    }

    /// Detaches the region (and its children) from its parent.
    public func removeFromParent() {
        guard let parent else { return }
        if let i = parent._children.lastIndex(where: { $0 === self }) { parent._children.remove(at: i) }
        self.parent = nil
        parent.invalidate()
        setLayout(nil)
    }

    func isAncestor(of other: Region) -> Bool {
        var p = other.parent
        while let r = p {
            if r === self { return true }
            p = r.parent
        }
        return false
    }

    private func setLayout(_ l: Layout?) {
        if layout !== l {
            layout?.regionLeft(self)
            layout = l
            l?.regionJoined(self)
        }
        for c in _children { c.setLayout(l) }
    }

    /// Makes the region (the root) and its subtree `layout`'s.
    func attach(to layout: Layout) { setLayout(layout) }

    /// Whether a recognizer of the region, or a press handler, is bound to an owner.
    var hasOwnerBoundHandlers: Bool {
        pressHandlers.contains(where: \.hasOwner) || recognizers.contains { $0.handlers.contains(where: \.hasOwner) }
    }

    /// Its place, size or visibility changed: the hit index of every group it is in (or is)
    /// and the layout's.
    private func invalidate() {
        var r: Region? = self
        while let region = r {
            if region.isGroup { region.groupIndex = nil }
            r = region.parent
        }
        layout?.invalidate()
    }

    /// True while the region is in `layout` and neither it nor an ancestor is hidden or
    /// disabled: touches can reach it.
    func isReachable(in layout: Layout) -> Bool {
        guard self.layout === layout else { return false }
        var r: Region? = self
        while let region = r {
            if region.isHidden || !region.isEnabled { return false }
            r = region.parent
        }
        return true
    }

    /// How gestures reach the region without keeping it alive (``Gesture/target``).
    private(set) lazy var reference = RegionReference(self)

    /// What a gesture event needs of the region: `point` (layout coordinates) in its own, and
    /// its ``reference``. One call, not inlined: the caller reaches the region once, without a
    /// reference count (``GestureRecognizer/placedIn``).
    @inline(never)
    func place(_ point: Point) -> (local: Point, reference: RegionReference) {
        (local(point), reference)
    }

    /// The frame in layout coordinates.
    public var absoluteFrame: Rect {
        var f = frame
        var p = parent
        while let r = p {
            f = f.offset(by: Point(x: r.frame.x, y: r.frame.y))
            p = r.parent
        }
        return f
    }

    /// `point` (layout coordinates) in the region's own: from its frame's top-left corner.
    public func local(_ point: Point) -> Point {
        let frame = absoluteFrame
        return Point(x: point.x - frame.x, y: point.y - frame.y)
    }

    /// The hit area in layout coordinates: the absolute frame inset by `hitInsets`.
    public var hitArea: Rect { absoluteFrame.inset(by: hitInsets) }

    /// The region and its ancestors, deepest first.
    public var path: [Region] {
        var list = [self]
        var p = parent
        while let r = p {
            list.append(r)
            p = r.parent
        }
        return list
    }

    /// Every region of the subtree, this one first (depth first, children in order).
    public var subtree: [Region] { [self] + _children.flatMap(\.subtree) }

    /// Attaches a recognizer (moving it from any other region). Recognizers added earlier
    /// are asked first when two want to succeed in the same frame.
    public func add(_ recognizer: GestureRecognizer) {
        recognizer.region?.remove(recognizer)
        recognizer.region = self
        recognizers.append(recognizer)
        refreshAutomaticRequirements()
        layout?.recognizersChanged(ownerBound: recognizer.handlers.contains(where: \.hasOwner))
    }

    /// Detaches a recognizer; it takes part in nothing after this.
    public func remove(_ recognizer: GestureRecognizer) {
        guard let i = recognizers.firstIndex(where: { $0 === recognizer }) else { return }
        recognizers.remove(at: i)
        recognizer.region = nil
        recognizer.automaticRequirements = []
        refreshAutomaticRequirements()
        layout?.recognizersChanged(ownerBound: recognizer.handlers.contains(where: \.hasOwner))
    }

    /// The block libraries' rule: a tap recognizer waits for every tap recognizer on the same
    /// region with the same touches and more taps to fail — so a double tap never also fires
    /// the single tap, in whichever order they were added.
    func refreshAutomaticRequirements() {
        let taps = recognizers.compactMap { $0 as? TapRecognizer }
        for a in taps {
            a.automaticRequirements = taps.filter { $0 !== a && $0.touches == a.touches && $0.taps > a.taps }
        }
    }
}
