import TouchEvents

/// The screen a layout built in code covers, in the app's own units (points or pixels), and
/// how a touchscreen's surface lies on it.
///
/// Give it to `GestureRuntime(layout:screen:)` or `RecordingReplay.run(…, screen:)`: every
/// touchscreen then maps onto the screen — its surface normalised to 0…1, then the calibration
/// matrix, the flips and the rotation (``SurfaceMapping``'s order, which is libinput's) — and
/// gesture positions, translations and velocities come in screen units. Recognizer thresholds
/// stay in millimetres of the surface, whatever the screen. Touchpads keep millimetres unless
/// ``includesTouchpads`` is set: a touchpad is not on the screen.
///
/// ```swift
/// import Gestures
///
/// let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 1280, height: 800))
/// let layout = Layout(root: root)
/// let screen = Screen.rootFrame                    // 1280 × 800, the root's frame
/// let turned = Screen(width: 800, height: 1280, rotation: .clockwise90)
/// ```
///
/// Without a screen, a layout built in code is in surface millimetres (the mapping is the
/// identity).
public struct Screen: Sendable, Hashable {
    /// The screen's size in layout units; nil: the size of the layout root's frame.
    public var size: SurfaceSize?
    /// How the surface is turned onto the screen (clockwise).
    public var rotation: Rotation
    /// Mirror the surface left to right, or top to bottom (before the rotation).
    public var flipX: Bool
    public var flipY: Bool
    /// libinput's six-value calibration matrix (`LIBINPUT_CALIBRATION_MATRIX`'s order). Nil:
    /// the device's own — udev's `LIBINPUT_CALIBRATION_MATRIX` where the device has one —
    /// or else none.
    public var calibration: [Double]?
    /// Touchpads map onto the screen too (a drawing tablet used as a screen). Off by default:
    /// a touchpad's gestures stay in millimetres.
    public var includesTouchpads: Bool

    /// A screen `width` × `height` layout units.
    public init(width: Double, height: Double, rotation: Rotation = .none, flipX: Bool = false, flipY: Bool = false,
                calibration: [Double]? = nil, includesTouchpads: Bool = false) {
        self.init(size: SurfaceSize(width: width, height: height), rotation: rotation, flipX: flipX, flipY: flipY,
                  calibration: calibration, includesTouchpads: includesTouchpads)
    }

    /// A screen of `size` (nil: the layout root's frame).
    public init(size: SurfaceSize?, rotation: Rotation = .none, flipX: Bool = false, flipY: Bool = false,
                calibration: [Double]? = nil, includesTouchpads: Bool = false) {
        precondition(calibration.map { $0.count == 6 } ?? true, "a calibration matrix has six values")
        self.size = size
        self.rotation = rotation
        self.flipX = flipX
        self.flipY = flipY
        self.calibration = calibration
        self.includesTouchpads = includesTouchpads
    }

    /// The screen is the layout root's frame: the layout's size is stated once, in the root.
    public static let rootFrame = Screen(size: nil)

    /// How a surface of `surface` millimetres maps onto this screen for `layout`, or nil when
    /// the device keeps millimetres (a touchpad, unless ``includesTouchpads``; or no size: a
    /// root without a frame). `deviceCalibration` is the device's own matrix, if it has one.
    public func mapping(surface: SurfaceSize, touchscreen: Bool, deviceCalibration: [Double]?, layout: Layout) -> SurfaceMapping? {
        guard touchscreen || includesTouchpads else { return nil }
        let root = layout.root.frame
        let output = size ?? SurfaceSize(width: root.width, height: root.height)
        guard output.width > 0, output.height > 0 else { return nil }
        return SurfaceMapping(surface: surface, output: output, rotation: rotation, flipX: flipX, flipY: flipY,
                              calibration: calibration ?? deviceCalibration)
    }
}
