import TouchEvents

/// How a rotation turns the surface onto the layout.
public enum Rotation: Int, Sendable, Hashable, CaseIterable {
    case none = 0
    case clockwise90 = 90
    case upsideDown = 180
    case clockwise270 = 270
}

/// Maps millimetres on a touch surface to layout units: an affine map built from the
/// surface size, libinput's calibration matrix, flips, a rotation and the output size.
///
/// The order is libinput's: positions are normalised to 0…1 over the surface, the
/// calibration matrix `[a, b, c, d, e, f]` applies (`x' = a·x + b·y + c`, `y' = d·x + e·y + f`,
/// as in `LIBINPUT_CALIBRATION_MATRIX`), then the corrections of a panel whose axes disagree
/// with the kernel's (axes swapped, then flipped), then the screen's transform (a rotation,
/// clockwise: with 90°, the surface's top edge becomes the layout's right edge; or a
/// compositor's ``OutputTransform``), then the scale to the output.
/// Recognizer thresholds stay in millimetres of the physical surface whatever the mapping.
public struct SurfaceMapping: Sendable, Hashable {
    // layout = (a b; c d) · mm + (tx, ty)
    public private(set) var a = 1.0
    public private(set) var b = 0.0
    public private(set) var c = 0.0
    public private(set) var d = 1.0
    public private(set) var tx = 0.0
    public private(set) var ty = 0.0

    /// Millimetres stay millimetres (touchpads, and replays without a configuration or screen).
    public static let identity = SurfaceMapping()

    private init() {}

    private init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The mapping of a `surface` (mm) onto an `output` (layout units).
    public init(surface: SurfaceSize, output: SurfaceSize, rotation: Rotation = .none,
                flipX: Bool = false, flipY: Bool = false, calibration: [Double]? = nil) {
        self.init(surface: surface, output: output, transform: OutputTransform(rotation),
                  flipX: flipX, flipY: flipY, calibration: calibration)
    }

    /// The mapping of a `surface` (mm) onto an `output` (layout units, as the user sees the
    /// screen) under a compositor's `transform`; `swapAxes`, `flipX` and `flipY` correct a
    /// panel whose axes disagree with the kernel's, before the transform.
    public init(surface: SurfaceSize, output: SurfaceSize, transform: OutputTransform, swapAxes: Bool = false,
                flipX: Bool = false, flipY: Bool = false, calibration: [Double]? = nil) {
        let calibration = calibration ?? [1, 0, 0, 0, 1, 0]  // none
        precondition(calibration.count == 6, "a calibration matrix has six values")
        // mm → normalised.
        var m = SurfaceMapping(a: 1 / surface.width, b: 0, c: 0, d: 1 / surface.height, tx: 0, ty: 0)
        let k = calibration
        m = SurfaceMapping(a: k[0], b: k[1], c: k[3], d: k[4], tx: k[2], ty: k[5]).after(m)
        if swapAxes { m = SurfaceMapping(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0).after(m) }
        if flipX { m = Self.mirrorX.after(m) }
        if flipY { m = SurfaceMapping(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 1).after(m) }
        switch transform.rotation {
        case .none: break
        case .clockwise90: m = SurfaceMapping(a: 0, b: -1, c: 1, d: 0, tx: 1, ty: 0).after(m)
        case .upsideDown: m = SurfaceMapping(a: -1, b: 0, c: 0, d: -1, tx: 1, ty: 1).after(m)
        case .clockwise270: m = SurfaceMapping(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 1).after(m)
        }
        if transform.isFlipped { m = Self.mirrorX.after(m) }
        self = SurfaceMapping(a: output.width, b: 0, c: 0, d: output.height, tx: 0, ty: 0).after(m)
    }

    /// Left and right mirrored, on positions normalised to 0…1.
    private static let mirrorX = SurfaceMapping(a: -1, b: 0, c: 0, d: 1, tx: 1, ty: 0)

    /// `self` applied after `first`.
    func after(_ first: SurfaceMapping) -> SurfaceMapping {
        SurfaceMapping(
            a: a * first.a + b * first.c, b: a * first.b + b * first.d,
            c: c * first.a + d * first.c, d: c * first.b + d * first.d,
            tx: a * first.tx + b * first.ty + tx, ty: c * first.tx + d * first.ty + ty)
    }

    /// A position on the surface (mm) in layout units.
    @inlinable
    public func point(_ p: Point) -> Point { Point(x: a * p.x + b * p.y + tx, y: c * p.x + d * p.y + ty) }

    /// A displacement or velocity on the surface (mm, mm/s) in layout units.
    @inlinable
    public func vector(_ v: Point) -> Point { Point(x: a * v.x + b * v.y, y: c * v.x + d * v.y) }

    /// A position in layout units back on the surface (mm): where a touch must land to be at
    /// `p` in the layout (`gestured synth`, the view's touch bench). nil when the mapping
    /// flattens the surface (a calibration of determinant 0).
    public func surfacePoint(_ p: Point) -> Point? {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return nil }
        let x = p.x - tx, y = p.y - ty
        return Point(x: (d * x - b * y) / det, y: (a * y - c * x) / det)
    }

    /// Layout units per millimetre, on average over both axes.
    public var scale: Double { abs(a * d - b * c).squareRoot() }

    /// True when the mapping mirrors (an odd number of flips): clockwise becomes anticlockwise.
    public var mirrors: Bool { a * d - b * c < 0 }

    /// The unit vector on the surface that the mapping turns into the layout's x axis
    /// (`horizontal`) or y axis: what an axis-locked pan keeps of a movement.
    public func surfaceDirection(ofLayoutAxisHorizontal horizontal: Bool) -> Point {
        let v = horizontal ? Point(x: d, y: -c) : Point(x: -b, y: a)
        let length = v.length
        guard length > 0 else { return horizontal ? Point(x: 1, y: 0) : Point(x: 0, y: 1) }
        let det = a * d - b * c
        return v * ((det < 0 ? -1 : 1) / length)
    }

    /// A displacement on the surface turned the way the layout is, still in millimetres:
    /// for directions (swipes, edges) judged in layout terms against millimetre thresholds.
    public func orient(_ v: Point) -> Point {
        let s = scale
        guard s > 0 else { return v }
        return vector(v) * (1 / s)
    }
}
