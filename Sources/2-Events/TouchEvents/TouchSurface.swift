/// A width and height in millimetres.
public struct SurfaceSize: Sendable, Hashable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// Parses `WIDTHxHEIGHT` in millimetres, e.g. `154x86` or `154.2x85.9`. Nil unless both are positive.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]),
              w.isFinite, h.isFinite, w > 0, h > 0 else { return nil }
        self.init(width: w, height: h)
    }

    public var description: String { "\(formatDecimal(width, places: 1)) x \(formatDecimal(height, places: 1)) mm" }
}

/// Where a surface's millimetre scale came from.
public enum SurfaceSizeSource: String, Sendable, Hashable {
    /// The device's axis resolution.
    case resolution
    /// A size the user gave (command line or configuration); it takes precedence over the resolution.
    case given
    /// Neither: ``TouchSurface/assumedTouchpadSize`` (touchpads) or
    /// ``TouchSurface/assumedUnitsPerMillimetre`` (touchscreens) was used.
    case assumed
}

/// The mapping from device units to millimetres on the physical surface.
///
/// Millimetres are measured from the axis minimum, x to the right and y down, as the
/// device reports them; mapping onto a screen layout happens later.
public struct TouchSurface: Sendable, Hashable {
    public var xMinimum: Int32
    public var xMaximum: Int32
    public var yMinimum: Int32
    public var yMaximum: Int32
    public var xUnitsPerMillimetre: Double
    public var yUnitsPerMillimetre: Double
    public var sizeSource: SurfaceSizeSource

    /// Device units per millimetre assumed when a device reports no resolution and no
    /// size was given: 96 dpi (3.78 units/mm), the X11 default, because touchscreens
    /// without a resolution usually report panel pixels. Always reported as a warning.
    public static let assumedUnitsPerMillimetre = 96.0 / 25.4

    /// The size assumed for a touchpad that reports no resolution and was given no size:
    /// 69 x 50 mm, the size libinput assumes in the same case (a typical laptop touchpad).
    public static let assumedTouchpadSize = SurfaceSize(width: 69, height: 50)

    /// Builds the surface for a device's position axes. A `size` overrides the resolution;
    /// without either, touchpads are taken to be ``assumedTouchpadSize`` and touchscreens
    /// to have ``assumedUnitsPerMillimetre``. Nil if the device has no position axes.
    public init?(device: DeviceDescription, size: SurfaceSize? = nil) {
        guard let axes = device.positionAxes, let x = device.absInfo[axes.x], let y = device.absInfo[axes.y] else {
            return nil
        }
        xMinimum = x.minimum
        xMaximum = x.maximum
        yMinimum = y.minimum
        yMaximum = y.maximum
        let xRange = Double(max(1, Int(x.maximum) - Int(x.minimum)))
        let yRange = Double(max(1, Int(y.maximum) - Int(y.minimum)))
        if let size {
            xUnitsPerMillimetre = xRange / size.width
            yUnitsPerMillimetre = yRange / size.height
            sizeSource = .given
        } else if x.resolution > 0, y.resolution > 0 {
            xUnitsPerMillimetre = Double(x.resolution)
            yUnitsPerMillimetre = Double(y.resolution)
            sizeSource = .resolution
        } else if device.kind == .touchpad {
            xUnitsPerMillimetre = xRange / Self.assumedTouchpadSize.width
            yUnitsPerMillimetre = yRange / Self.assumedTouchpadSize.height
            sizeSource = .assumed
        } else {
            xUnitsPerMillimetre = Self.assumedUnitsPerMillimetre
            yUnitsPerMillimetre = Self.assumedUnitsPerMillimetre
            sizeSource = .assumed
        }
    }

    /// The surface size in millimetres.
    public var size: SurfaceSize {
        SurfaceSize(
            width: Double(Int(xMaximum) - Int(xMinimum)) / xUnitsPerMillimetre,
            height: Double(Int(yMaximum) - Int(yMinimum)) / yUnitsPerMillimetre)
    }

    /// Millimetres from the x axis minimum.
    @inlinable
    public func millimetresX(_ deviceX: Int32) -> Double { Double(Int(deviceX) - Int(xMinimum)) / xUnitsPerMillimetre }

    /// Millimetres from the y axis minimum.
    @inlinable
    public func millimetresY(_ deviceY: Int32) -> Double { Double(Int(deviceY) - Int(yMinimum)) / yUnitsPerMillimetre }
}

