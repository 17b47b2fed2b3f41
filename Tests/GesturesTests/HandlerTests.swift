import Foundation
import GestureTesting
import Gestures
import Logging
import Testing
import TouchEvents

final class Owner {}

@Suite("Handlers")
struct HandlerTests {
    func tapTwice() -> [TouchFrame] {
        var s = TouchScript()
        s.tap(at: .zero, x: 10, y: 10)
        s.tap(at: .milliseconds(1000), x: 10, y: 10)
        return s.frames
    }

    @Test func handlersReceiveTheirRecognizersGestures() {
        let region = Region(id: "button", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        var calls: [String] = []
        region.onTap { calls.append("tap \($0.taps) at \($0.time)") }
        region.onLongPress { calls.append("long-press \($0.state)") }
        let pipeline = GesturePipeline(layout: Layout(root: region))
        var s = TouchScript()
        s.tap(at: .zero, x: 10, y: 10)
        s.down(1, at: .milliseconds(1000), x: 10, y: 10)
        s.up(1, at: .milliseconds(1600))
        ManualClock(pipeline: pipeline).play(s.frames)
        #expect(calls == ["tap 1 at 0.080000s", "long-press began", "long-press ended"])
    }

    @Test func aHandlerBoundToAnOwnerIsReleasedWithIt() {
        let region = Region(id: "button", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let pipeline = GesturePipeline(layout: Layout(root: region))
        var calls = 0
        weak var weakOwner: Owner?
        weak var weakCaptured: Owner?
        var token: GestureToken?
        do {
            let owner = Owner()
            let captured = Owner()
            weakOwner = owner
            weakCaptured = captured
            token = region.onTap(owner: owner) { (o: Owner, _) in
                _ = captured
                calls += 1
            }
            ManualClock(pipeline: pipeline).play(Array(tapTwice().prefix(2)))
            #expect(calls == 1)
        }
        #expect(weakOwner == nil, "the region must not keep the owner alive")
        #expect(token?.isActive == false)
        ManualClock(pipeline: pipeline).play(Array(tapTwice().suffix(2)))
        #expect(calls == 1, "never called after the owner is gone")
        #expect(weakCaptured == nil, "the closure is released, and what it captured with it")
        #expect(region.recognizers.isEmpty, "the recognizer made for the handler goes too")
    }

    @Test func cancellingATokenRemovesTheHandlerAndItsRecognizer() {
        let region = Region(id: "r", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        var singles = 0
        region.onTap { _ in singles += 1 }
        let double = region.onDoubleTap { _ in }
        #expect(region.recognizers.count == 2)
        double.cancel()
        #expect(region.recognizers.count == 1)
        // With the double tap gone, a single tap no longer waits for it.
        let pipeline = GesturePipeline(layout: Layout(root: region))
        let recorder = GestureRecorder(pipeline)
        var s = TouchScript()
        s.tap(at: .zero, x: 10, y: 10)
        ManualClock(pipeline: pipeline).play(s.frames)
        #expect(recorder.lines == ["80.0ms tap recognized r touches=1 taps=1 at 10.0,10.0"])
        #expect(singles == 1)
    }

    @Test func aDelayedHandlerFiresAfterItsDelay() {
        let region = Region(id: "r", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        var calls: [Instant] = []
        region.onTap(delay: .milliseconds(200)) { calls.append($0.time) }
        let pipeline = GesturePipeline(layout: Layout(root: region))
        let clock = ManualClock(pipeline: pipeline)
        var s = TouchScript()
        s.tap(at: .zero, x: 10, y: 10)
        clock.play(s.frames)
        #expect(calls.isEmpty)
        #expect(pipeline.nextDeadline == ms(280))
        clock.advance(to: ms(279))
        #expect(calls.isEmpty)
        clock.advance(to: ms(280))
        #expect(calls == [ms(80)])
    }

    @Test func aDelayedCallIsSupersededByTheNextRecognitionAndDroppedOnCancel() {
        let region = Region(id: "r", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        var taps: [Instant] = []
        region.onTap(delay: .milliseconds(200)) { taps.append($0.time) }
        var pans: [GestureState] = []
        region.onPan(delay: .milliseconds(50)) { pans.append($0.state) }
        let pipeline = GesturePipeline(layout: Layout(root: region))
        let clock = ManualClock(pipeline: pipeline)
        var s = TouchScript()
        s.tap(at: .zero, x: 10, y: 10)
        s.tap(at: .milliseconds(150), x: 10, y: 10)  // before the first call's deadline (280 ms)
        clock.play(s.frames)
        clock.advance(by: .milliseconds(1000))
        #expect(taps == [ms(230)], "only the second tap calls its handler")

        var p = TouchScript()
        p.drag(from: Point(x: 10, y: 50), to: Point(x: 30, y: 50), at: .milliseconds(2000), duration: .milliseconds(40), steps: 4)
        clock.play(Array(p.frames.dropLast()))
        pipeline.cancelAll(time: clock.now + .milliseconds(10))
        clock.advance(by: .milliseconds(1000))
        #expect(pans.isEmpty, "a pan cancelled before its delayed call never calls it")
    }

    @Test func aThrowingHandlerIsLoggedAndThePipelineGoesOn() {
        struct Boom: Error {}
        let capture = LogRecorder()
        let logger = Logger(label: "test") { _ in capture }
        let region = Region(id: "r", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        var after = 0
        region.onTap { _ in throw Boom() }
        region.onLongPress { _ in after += 1 }
        let pipeline = GesturePipeline(layout: Layout(root: region), logger: logger)
        var s = TouchScript()
        s.tap(at: .zero, x: 10, y: 10)
        s.down(1, at: .milliseconds(1000), x: 10, y: 10)
        s.up(1, at: .milliseconds(1600))
        ManualClock(pipeline: pipeline).play(s.frames)
        #expect(after == 2)
        let errors = capture.lines.filter { $0.hasPrefix("error") }
        #expect(errors == ["error a gesture handler threw error=Boom() gesture=tap recognized in r with 1 touch at 0.080000s recognizer=tap(1 tap, 1 touch)"])
    }

    @Test func configureClosuresAdjustTheRecognizer() {
        let region = Region(id: "r", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        var seen: [Int] = []
        region.onTap(configure: { $0.maximumMovement = 10 }) { seen.append($0.taps) }
        var s = TouchScript()
        s.down(1, at: .zero, x: 10, y: 10)
        s.move(1, at: .milliseconds(30), x: 16, y: 10)
        s.up(1, at: .milliseconds(60))
        let pipeline = GesturePipeline(layout: Layout(root: region))
        ManualClock(pipeline: pipeline).play(s.frames)
        #expect(seen == [1])
    }
}

@Suite("Handlers on configured regions")
struct ConfiguredRegionHandlerTests {
    @Test func aHandlerJoinsAnEqualRecognizerAlreadyThere() {
        // As after loading a configuration: the region has its tap recognizer already.
        let region = Region(id: "play", frame: Rect(x: 0, y: 0, width: 40, height: 40))
        region.add(TapRecognizer())
        var calls = 0
        let token = region.onTap { _ in calls += 1 }
        #expect(region.recognizers.count == 1, "no second, competing tap recognizer")
        var s = TouchScript()
        s.tap(at: .zero, x: 10, y: 10)
        ManualClock(pipeline: GesturePipeline(layout: Layout(root: region))).play(s.frames)
        #expect(calls == 1)
        token.cancel()
        #expect(region.recognizers.count == 1, "the configured recognizer stays")
        // A configure closure asks for a recognizer of its own.
        region.onTap(configure: { $0.maximumMovement = 8 }) { _ in }
        #expect(region.recognizers.count == 2)
    }
}

@Suite("Typed gesture values")
struct TypedGestureTests {
    func format(_ v: Double) -> String { formatDecimal(v, places: 1, trailingZeros: .keep) }

    @Test func eachKindsHandlerGetsItsOwnValuesWithUnits() {
        let region = Region(id: "photo", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        var seen: [String] = []
        region.onPinch { pinch in
            guard pinch.state == .ended else { return }
            seen.append("pinch scale \(format(pinch.scale)) span \(format(pinch.spanMillimetres)) mm at \(format(pinch.scalePerSecond))/s")
        }
        region.onRotate { rotate in
            guard rotate.state == .ended else { return }
            seen.append("rotate \(format(rotate.degrees))° = \(formatDecimal(rotate.radians, places: 3)) rad")
        }
        region.onTap(taps: 2) { tap in seen.append("tap \(tap.taps) in \(tap.region) at \(format(tap.localLocation.x))") }
        let pipeline = GesturePipeline(layout: Layout(root: region))
        var s = TouchScript()
        // Two fingers 40 mm apart spread to 80 mm in 10 steps over 200 ms: a pinch to 2.
        s.down(1, at: .zero, x: 80, y: 50)
        s.down(2, at: .zero, x: 120, y: 50)
        for step in 1...10 {
            let d = Double(step) * 2
            s.move(1, at: .milliseconds(Double(step) * 20), x: 80 - d, y: 50)
            s.move(2, at: .milliseconds(Double(step) * 20), x: 120 + d, y: 50)
        }
        s.up(1, at: .milliseconds(220))
        s.up(2, at: .milliseconds(220))
        s.tap(at: .milliseconds(1000), x: 30, y: 30)
        s.tap(at: .milliseconds(1150), x: 30, y: 30)
        // Two fingers 40 mm apart turned 60° clockwise around (100, 50) in 10 steps.
        s.down(3, at: .milliseconds(2000), x: 120, y: 50)
        s.down(4, at: .milliseconds(2000), x: 80, y: 50)
        for step in 1...10 {
            let radians = Double(step) * 6 * .pi / 180
            let t = Duration.milliseconds(2000 + Double(step) * 20)
            s.move(3, at: t, x: 100 + 20 * cos(radians), y: 50 + 20 * sin(radians))
            s.move(4, at: t, x: 100 - 20 * cos(radians), y: 50 - 20 * sin(radians))
        }
        s.up(3, at: .milliseconds(2220))
        s.up(4, at: .milliseconds(2220))
        ManualClock(pipeline: pipeline).play(s.frames)
        pipeline.finish()
        #expect(seen == ["pinch scale 2.0 span 40.0 mm at 4.3/s", "tap 2 in photo at 30.0", "rotate 60.0° = 1.047 rad"])
    }
}
