/// An area of the touch surface with the recognizers (and through them the handlers)
/// attached to it. A region's recognizers compete for its touch sequences.
public final class Region {
    public let id: String
    /// The area, in millimetres on the touch surface until layouts map devices onto screens.
    public var frame: Rect
    public private(set) var recognizers: [GestureRecognizer] = []

    public init(id: String, frame: Rect) {
        self.id = id
        self.frame = frame
    }

    /// Attaches a recognizer (moving it from any other region). Recognizers added earlier
    /// are asked first when two want to succeed in the same frame.
    public func add(_ recognizer: GestureRecognizer) {
        recognizer.region?.remove(recognizer)
        recognizer.region = self
        recognizers.append(recognizer)
        refreshAutomaticRequirements()
    }

    /// Detaches a recognizer; it takes part in nothing after this.
    public func remove(_ recognizer: GestureRecognizer) {
        guard let i = recognizers.firstIndex(where: { $0 === recognizer }) else { return }
        recognizers.remove(at: i)
        recognizer.region = nil
        recognizer.automaticRequirements = []
        refreshAutomaticRequirements()
    }

    /// The block libraries' rule: a tap recognizer waits for every tap recognizer on the same
    /// region with the same touches and more taps to fail — so a double tap never also fires
    /// the single tap, in whichever order they were added.
    func refreshAutomaticRequirements() {
        let taps = recognizers.compactMap { $0 as? TapRecognizer }
        for a in taps {
            a.automaticRequirements = taps.filter { $0 !== a && $0.touches == a.touches && $0.taps > a.taps }.map(WeakRecognizer.init)
        }
    }
}

/// The regions gestures are recognised in. Today one region, `root`; the region tree with
/// hit testing arrives with the layout work.
public final class Layout {
    public let root: Region

    public init(root: Region) {
        self.root = root
    }

    /// The region with this id.
    public func region(_ id: String) -> Region? { root.id == id ? root : nil }

    /// The built-in layout: one region `root` covering the whole surface with every
    /// recognizer on —
    /// - edge pan from all four edges (touchscreens only: on a touchpad an edge means nothing);
    /// - taps of 1 and 2 taps with 1 to 5 touches;
    /// - long press with 1 to 5 touches;
    /// - pan with 1 to 5 touches; swipe with 1 to 5 touches in four directions;
    /// - pinch and rotate;
    ///
    /// with pan, swipe, pinch and rotate allowed to succeed together. Edge pan is added first,
    /// so a drag from an edge is an edge pan rather than a pan.
    public static func standard(size: (width: Double, height: Double), touchscreen: Bool) -> Layout {
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: size.width, height: size.height))
        if touchscreen { root.add(EdgePanRecognizer()) }
        for touches in 1...5 {
            for taps in 1...2 { root.add(TapRecognizer(taps: taps, touches: touches)) }
        }
        for touches in 1...5 { root.add(LongPressRecognizer(touches: touches)) }
        let together: [GestureKind] = [.pan, .swipe, .pinch, .rotate]
        let pan = PanRecognizer(minimumTouches: 1, maximumTouches: 5)
        root.add(pan)
        for touches in 1...5 { root.add(SwipeRecognizer(touches: touches)) }
        root.add(PinchRecognizer())
        root.add(RotateRecognizer())
        for r in root.recognizers where together.contains(r.kind) {
            r.simultaneousKinds.formUnion(together.filter { $0 != r.kind })
        }
        return Layout(root: root)
    }
}
