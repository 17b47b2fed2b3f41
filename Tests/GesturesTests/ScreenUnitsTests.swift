import GestureTesting
import GestureReplay
import GestureRuntime
import Gestures
import TouchEvents
import TouchRecordings
import Testing

/// Layouts in the app's own units: a touchscreen maps onto the screen the app states
/// (`screen:`), with rotation, flips and calibration; without one, a layout is in millimetres.
@Suite("Screen units")
struct ScreenUnitsTests {
    /// The Atmel panel's five real taps (fixtures/recordings), moved by
    /// scripts/make-screen-variant.py so that the first lands at (1200, 40) of 1280 x 800.
    let topRight = fixtures + "../variants/Atmel maXTouch Touchscreen.1-finger-fast-taps.top-right.evemu"

    /// A 1280 x 800 app layout with a button whose centre is (1200, 40), 12 px bigger all
    /// round than it looks; what its taps and the root's log.
    func app(width: Double = 1280, height: Double = 800, button centre: Point = Point(x: 1200, y: 40))
        -> (layout: Layout, log: () -> [String]) {
        final class Log { var lines: [String] = [] }
        let log = Log()
        let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: width, height: height))
        let button = Region(id: "save", frame: Rect(x: centre.x - 48, y: centre.y - 32, width: 96, height: 64))
        button.hitInsets = EdgeInsets(top: -12, left: -12, bottom: -12, right: -12)
        root.addChild(button)
        for region in [root, button] {
            let id = region.id  // not the region: its own closure would keep it alive
            region.onTap { tap in
                log.lines.append("\(id) taps=\(tap.taps) at \(Int(tap.location.x.rounded())),\(Int(tap.location.y.rounded()))")
            }
        }
        return (Layout(root: root), { log.lines })
    }

    @Test func aButtonAt1200x40GetsTheTapsOfARealRecordingTappedThere() throws {
        let (layout, log) = app()
        let result = try RecordingReplay.run(path: topRight, layout: layout, screen: .rootFrame)
        // Nine quick taps (the recording's fast taps), every one on the button (its extended area
        // takes the lowest); positions in the layout's pixels, the first where it was put.
        #expect(log() == [
            "save taps=1 at 1200,40", "save taps=1 at 1222,17", "save taps=1 at 1227,35", "save taps=1 at 1238,62",
            "save taps=1 at 1238,55", "save taps=1 at 1208,55", "save taps=1 at 1214,53", "save taps=1 at 1214,77",
            "save taps=1 at 1253,57",
        ])
        #expect(result.warnings == [])
        // 800 device units onto 1280 pixels; thresholds still in the panel's millimetres.
        #expect(result.mapping.point(Point(x: result.surface.size.width, y: result.surface.size.height)) == Point(x: 1280, y: 800))
    }

    @Test func withoutAScreenTheLayoutIsInMillimetresAndTheMismatchIsAWarning() throws {
        let (layout, log) = app()
        let result = try RecordingReplay.run(path: topRight, layout: layout)
        // 211 x 127 mm of a 1280 x 800 layout: every tap lands near the root's top left.
        #expect(log() == [
            "screen taps=1 at 198,6", "screen taps=1 at 202,3", "screen taps=1 at 203,6", "screen taps=1 at 205,10",
            "screen taps=1 at 205,9", "screen taps=1 at 199,9", "screen taps=1 at 201,8", "screen taps=1 at 201,12",
            "screen taps=1 at 207,9",
        ])
        #expect(result.warnings == [
            "the layout's root is 1280 × 800 but the touchscreen maps onto 211.4 × 126.7 mm (its own millimetres: no screen) of it: "
                + "most of the layout cannot be touched; give the layout's screen (GestureRuntime(layout:screen:), replay's screen:), "
                + "or a configuration's output",
        ])
    }

    /// A panel mounted turned a quarter clockwise: its top edge is the portrait screen's right edge.
    @Test func aRotatedScreenTurnsTheSurfaceOntoIt() throws {
        let (layout, log) = app(width: 800, height: 1280, button: Point(x: 760, y: 1200))
        _ = try RecordingReplay.run(path: topRight, layout: layout,
                                    screen: Screen(width: 800, height: 1280, rotation: .clockwise90))
        // Each tap at (800 − y, x) of where it was on the landscape screen; the last, 53 px right
        // of the first there, is 53 px below it here: past the button's extended area.
        #expect(log() == [
            "save taps=1 at 760,1200", "save taps=1 at 783,1222", "save taps=1 at 765,1227", "save taps=1 at 738,1238",
            "save taps=1 at 745,1238", "save taps=1 at 745,1208", "save taps=1 at 747,1214", "save taps=1 at 723,1214",
            "screen taps=1 at 743,1253",
        ])
    }

    /// udev's LIBINPUT_CALIBRATION_MATRIX applies when the screen gives none; the screen's own wins.
    @Test func theDevicesCalibrationMatrixAppliesUnlessTheScreenHasOne() throws {
        let recording = try Recording.load(path: topRight, descPath: nil)
        var device = try recording.device(nil).description
        #expect(device.calibrationMatrix == nil)
        // Half the panel's width covers the whole screen (its right half is beyond the screen).
        device.udevProperties = ["ID_INPUT_TOUCHSCREEN=1", "LIBINPUT_CALIBRATION_MATRIX=2 0 0 0 1 0"]
        #expect(device.calibrationMatrix == [2, 0, 0, 0, 1, 0])
        let (layout, _) = app()
        let session = try DeviceSession(device: device, layout: layout, screen: .rootFrame)
        let surface = session.surface.size
        #expect(session.mapping.point(Point(x: surface.width / 2, y: surface.height)) == Point(x: 1280, y: 800))
        let own = try DeviceSession(device: device, layout: app().layout, screen: Screen(size: nil, calibration: [1, 0, 0, 0, 1, 0]))
        #expect(own.mapping.point(Point(x: surface.width, y: surface.height)) == Point(x: 1280, y: 800))
        device.udevProperties = ["LIBINPUT_CALIBRATION_MATRIX=2 0 0 0 1"]
        #expect(device.calibrationMatrix == nil)
    }

    /// A touchpad is not on the screen: it keeps millimetres unless the screen includes it.
    @Test func touchpadsKeepMillimetresUnlessIncluded() throws {
        let pad = try Recording.load(path: fixtures + "evemu-devices/touchpads/AlpsPS2 ALPS GlidePoint.single-tap.events", descPath: nil)
        let device = try pad.device(nil).description
        #expect(device.kind == .touchpad)
        let kept = try DeviceSession(device: device, layout: app().layout, screen: .rootFrame)
        #expect(kept.mapping == .identity)
        #expect(kept.warnings.count == 1 && kept.warnings[0].contains("touchpads keep millimetres"))
        let included = try DeviceSession(device: device, layout: app().layout, screen: Screen(size: nil, includesTouchpads: true))
        let size = included.surface.size
        #expect(included.mapping.point(Point(x: size.width, y: size.height)) == Point(x: 1280, y: 800))
        #expect(included.warnings == [])
    }
}
