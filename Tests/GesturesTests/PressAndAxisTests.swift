import GestureTesting
import Gestures
import Testing
import TouchEvents

/// What UIKit users expect of controls: press feedback per region, and pans locked to an axis.
@Suite("Press feedback and axis-locked pans")
struct PressAndAxisTests {
    private func pressLine(_ p: Press) -> String {
        let x = formatDecimal(p.localLocation.x, places: 1, trailingZeros: .keep)
        return "\(p.time) \(p.phase) \(p.region)\(p.phase == .up ? (p.isInside ? " inside" : " outside") : "") at \(x)"
    }

    @Test func aButtonIsPressedFromDownUntilUpOrCancelWhateverTheGesture() {
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let button = Region(id: "button", frame: Rect(x: 10, y: 10, width: 40, height: 40))
        root.addChild(button)
        var log: [String] = []
        button.onTap { log.append("\($0.time) tap") }
        button.onPress { log.append(pressLine($0)) }
        root.onPress { log.append(pressLine($0)) }
        let pipeline = GesturePipeline(layout: Layout(root: root))
        var s = TouchScript()
        s.tap(at: .zero, x: 20, y: 20)                       // a tap: down, tap, up inside
        s.down(1, at: .milliseconds(500), x: 20, y: 20)      // dragged off the button: up outside
        s.move(1, at: .milliseconds(550), x: 120, y: 20)
        s.up(1, at: .milliseconds(600))
        s.down(1, at: .milliseconds(1000), x: 150, y: 50)    // the root only
        s.up(1, at: .milliseconds(1050))
        s.down(1, at: .milliseconds(2000), x: 30, y: 30)     // cancelled: the device goes
        ManualClock(pipeline: pipeline).play(s.frames)
        pipeline.cancelAll(time: .zero + .milliseconds(2100))
        #expect(log == [
            "0.000000s down button at 10.0", "0.000000s down root at 20.0",
            "0.080000s tap",
            "0.080000s up button inside at 10.0", "0.080000s up root inside at 20.0",
            "0.500000s down button at 10.0", "0.500000s down root at 20.0",
            "0.600000s up button outside at 110.0", "0.600000s up root inside at 120.0",
            "1.000000s down root at 150.0", "1.050000s up root inside at 150.0",
            "2.000000s down button at 20.0", "2.000000s down root at 30.0",
            "2.100000s cancelled button at 20.0", "2.100000s cancelled root at 30.0",
        ])
    }

    @Test func aPressHandlerAddedInTheFrameATouchLandsInGetsWhereTheTouchIs() {
        // A tap's handler gives a region with no gesture a press handler, in the frame a finger
        // lands there: that finger's sequence, started before the handler ran, is tracked from
        // its first frame (a sequence nothing reads more of than its finger count keeps no
        // positions), and its `down` and `up` are where the finger is.
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let button = Region(id: "button", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let plain = Region(id: "plain", frame: Rect(x: 100, y: 0, width: 100, height: 100))
        root.addChild(button)
        root.addChild(plain)
        var log: [String] = []
        button.onTap { tap in
            log.append("\(tap.time) tap")
            plain.onPress { log.append(pressLine($0)) }
        }
        let pipeline = GesturePipeline(layout: Layout(root: root))
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 50)
        s.up(1, at: .milliseconds(50))
        s.down(2, at: .milliseconds(50), x: 150, y: 50)
        s.up(2, at: .milliseconds(100))
        ManualClock(pipeline: pipeline).play(s.frames)
        #expect(log == ["0.050000s tap", "0.050000s down plain at 50.0", "0.100000s up plain inside at 50.0"])
    }

    @Test func aPressOnARegionThatIsRemovedIsCancelledAtOnce() {
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let popup = Region(id: "popup", frame: Rect(x: 10, y: 10, width: 40, height: 40))
        root.addChild(popup)
        var log: [String] = []
        popup.onPress { log.append(pressLine($0)) }
        popup.onLongPress { _ in }
        let pipeline = GesturePipeline(layout: Layout(root: root))
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 20)
        s.move(1, at: .milliseconds(100), x: 21, y: 20)
        s.up(1, at: .milliseconds(200))
        let clock = ManualClock(pipeline: pipeline)
        clock.play(Array(s.frames.prefix(1)))
        popup.removeFromParent()
        clock.play(Array(s.frames.dropFirst()))
        #expect(log == ["0.000000s down popup at 10.0", "0.100000s cancelled popup at 10.0"])
    }

    @Test func aHorizontalPanIgnoresVerticalDragsAndReportsOnlyHorizontalMovement() {
        let slider = Region(id: "slider", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        var log: [String] = []
        slider.onPan(axis: .horizontal) { pan in
            log.append("\(pan.state) \(formatDecimal(pan.translation.x, places: 1)),\(formatDecimal(pan.translation.y, places: 1))")
        }
        let pipeline = GesturePipeline(layout: Layout(root: slider))
        let failures = FailureLog(pipeline)
        var s = TouchScript()
        // Mostly down: not this pan.
        s.drag(from: Point(x: 100, y: 20), to: Point(x: 104, y: 60), at: .zero, duration: .milliseconds(100))
        // Mostly right with some wobble down: only x.
        s.drag(from: Point(x: 20, y: 50), to: Point(x: 60, y: 56), at: .milliseconds(1000), duration: .milliseconds(100), steps: 2)
        ManualClock(pipeline: pipeline).play(s.frames)
        #expect(log == ["began 20.0,0.0", "ended 40.0,0.0"])
        #expect(failures.reasons.first == "pan(1-5 touches, horizontal): moved 4.0 mm across the horizontal axis > 0.4 mm along it")
    }

    @Test func theAxisIsTheLayoutsWhenTheDeviceIsTurned() {
        let slider = Region(id: "slider", frame: Rect(x: 0, y: 0, width: 100, height: 200))
        var log: [String] = []
        slider.onPan(axis: .vertical) { pan in
            log.append("\(pan.state) \(formatDecimal(pan.translation.x, places: 1)),\(formatDecimal(pan.translation.y, places: 1))")
        }
        // The surface turned a quarter clockwise onto the layout: surface x is layout y.
        let mapping = SurfaceMapping(surface: SurfaceSize(width: 200, height: 100), output: SurfaceSize(width: 100, height: 200),
                                     rotation: .clockwise90)
        let pipeline = GesturePipeline(layout: Layout(root: slider), mapping: mapping)
        var s = TouchScript()
        s.drag(from: Point(x: 20, y: 50), to: Point(x: 60, y: 53), at: .zero, duration: .milliseconds(100), steps: 2)
        ManualClock(pipeline: pipeline).play(s.frames)
        #expect(log == ["began 0.0,20.0", "ended 0.0,40.0"])
    }
}

/// Every recognizer failure, as "recognizer: reason".
final class FailureLog {
    private(set) var reasons: [String] = []

    init(_ pipeline: GesturePipeline) {
        pipeline.failureObserver = { [weak self] recognizer, reason, _ in self?.reasons.append("\(recognizer.name): \(reason)") }
    }
}
