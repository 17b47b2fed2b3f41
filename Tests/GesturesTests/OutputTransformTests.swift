import Gestures
import Testing
import TouchEvents

/// A compositor's output transforms, as wlroots maps a touch through them.
@Suite("Output transforms")
struct OutputTransformTests {
    /// wlroots' `apply_output_transform` (types/wlr_cursor.c), on positions normalised to 0…1:
    /// written out here on its own, so that the mapping is checked against it and not against itself.
    static func wlroots(_ t: OutputTransform, _ x: Double, _ y: Double) -> (Double, Double) {
        switch t {
        case .normal: (x, y)
        case .rotated90: (1 - y, x)
        case .rotated180: (1 - x, 1 - y)
        case .rotated270: (y, 1 - x)
        case .flipped: (1 - x, y)
        case .flipped90: (y, x)
        case .flipped180: (x, 1 - y)
        case .flipped270: (1 - y, 1 - x)
        }
    }

    @Test(arguments: OutputTransform.allCases)
    func everyTransformMapsATouchAsWlrootsDoes(transform: OutputTransform) {
        let surface = SurfaceSize(width: 200, height: 100)
        let seen = transform.seen(SurfaceSize(width: 1920, height: 1080))
        let m = SurfaceMapping(surface: surface, output: seen, transform: transform)
        for (x, y) in [(0.0, 0.0), (0.25, 0.1), (1.0, 0.5), (0.7, 1.0)] {
            let expected = Self.wlroots(transform, x, y)
            let p = m.point(Point(x: x * 200, y: y * 100))
            #expect(abs(p.x - expected.0 * seen.width) < 1e-9 && abs(p.y - expected.1 * seen.height) < 1e-9,
                    "\(transform) at (\(x), \(y)): \(p), not \(expected)")
        }
        #expect(m.mirrors == transform.isFlipped)
    }

    @Test func aFixedRotationIsTheTransformOfTheSameTurn() {
        let surface = SurfaceSize(width: 200, height: 100), output = SurfaceSize(width: 480, height: 800)
        for r in Rotation.allCases {
            #expect(SurfaceMapping(surface: surface, output: output, rotation: r)
                == SurfaceMapping(surface: surface, output: output, transform: OutputTransform(r)))
        }
    }

    @Test func swappedAxesComeBeforeTheFlipsAndTheTurn() {
        // A panel whose kernel x runs down the glass: the touch at kernel (50, 25) mm of 100 x 100 is at
        // (25, 50) on the glass; flipped in x after, at (75, 50); turned 90° after that, (50, 75) of 100 x 100.
        let square = SurfaceSize(width: 100, height: 100)
        let p = Point(x: 50, y: 25)
        #expect(SurfaceMapping(surface: square, output: square, transform: .normal, swapAxes: true).point(p) == Point(x: 25, y: 50))
        #expect(SurfaceMapping(surface: square, output: square, transform: .normal, swapAxes: true, flipX: true).point(p) == Point(x: 75, y: 50))
        #expect(SurfaceMapping(surface: square, output: square, transform: .rotated90, swapAxes: true, flipX: true).point(p) == Point(x: 50, y: 75))
    }

    @Test func swaysNamesAndTheSidesATurnSwaps() {
        #expect(OutputTransform.allCases.map(\.description)
            == ["normal", "90", "180", "270", "flipped", "flipped-90", "flipped-180", "flipped-270"])
        #expect(OutputTransform(swayName: "flipped-90") == .flipped90)
        #expect(OutputTransform(swayName: "sideways") == nil)
        #expect(OutputTransform.rotated270.seen(SurfaceSize(width: 1920, height: 1080)) == SurfaceSize(width: 1080, height: 1920))
        #expect(OutputTransform.flipped180.seen(SurfaceSize(width: 1920, height: 1080)) == SurfaceSize(width: 1920, height: 1080))
    }
}
