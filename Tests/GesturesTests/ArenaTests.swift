import GestureTesting
import Gestures
import Testing
import TouchEvents

@Suite("Arena")
struct ArenaTests {
    @Test func theFirstToSucceedWinsAndTheOthersFail() {
        // A long press that began keeps later movement from becoming a pan.
        let pan = PanRecognizer()
        let l = layout { $0.add(LongPressRecognizer()); $0.add(pan) }
        var s = TouchScript()
        s.down(1, at: .zero, x: 50, y: 50)
        s.move(1, at: .milliseconds(600), x: 70, y: 50)
        s.up(1, at: .milliseconds(700))
        #expect(run(l, s) == [
            "500.0ms long-press began pad touches=1 at 50.0,50.0",
            "600.0ms long-press changed pad touches=1 at 70.0,50.0",
            "700.0ms long-press ended pad touches=1 at 70.0,50.0",
        ])
        #expect(pan.failureReason == "lost to long-press(1 touch)")
    }

    @Test func requireToFailMakesARecognizerWait() {
        // A pan that must wait for a swipe: a quick stroke is a swipe only; a slow drag pans
        // from the moment the swipe gives up (its deadline).
        let swipe = SwipeRecognizer()
        let pan = PanRecognizer()
        pan.require(toFail: swipe)
        let l = layout { $0.add(swipe); $0.add(pan) }
        var quick = TouchScript()
        quick.drag(from: Point(x: 10, y: 50), to: Point(x: 60, y: 50), at: .zero, duration: .milliseconds(100))
        #expect(run(l, quick) == ["30.0ms swipe recognized pad touches=1 right at 25.0,50.0 d=15.0,0.0"])
        #expect(pan.failureReason == "lost to swipe(1 touch, left/right/up/down)")

        var slow = TouchScript()
        slow.drag(from: Point(x: 10, y: 50), to: Point(x: 16, y: 50), at: .zero, duration: .milliseconds(600), steps: 6)
        // The swipe gives up at its 500 ms deadline, before the 500 ms frame is seen.
        #expect(run(l, slow) == [
            "500.0ms pan began pad touches=1 at 14.0,50.0 d=4.0,0.0",
            "500.0ms pan changed pad touches=1 at 15.0,50.0 d=5.0,0.0",
            "600.0ms pan ended pad touches=1 at 16.0,50.0 d=6.0,0.0",
        ])
    }

    @Test func shouldBeginCanRefuse() {
        let tap = TapRecognizer()
        tap.shouldBegin = { _ in false }
        var s = TouchScript()
        s.tap(at: .zero, x: 10, y: 10)
        #expect(run(layout { $0.add(tap) }, s) == [])
        #expect(tap.failureReason == "shouldBegin returned false")
    }

    @Test func shouldRecognizeSimultaneouslyByClosure() {
        var s = TouchScript()
        s.drag(from: Point(x: 10, y: 50), to: Point(x: 60, y: 50), at: .zero, duration: .milliseconds(100))
        // Without it the pan, which begins first, is the only gesture: no swipe at 20 ms.
        let exclusive = run(layout { $0.add(PanRecognizer()); $0.add(SwipeRecognizer()) }, s)
        #expect(exclusive == [
            "10.0ms pan began pad touches=1 at 15.0,50.0 d=5.0,0.0",
            "20.0ms pan changed pad touches=1 at 20.0,50.0 d=10.0,0.0",
            "30.0ms pan changed pad touches=1 at 25.0,50.0 d=15.0,0.0",
            "40.0ms pan changed pad touches=1 at 30.0,50.0 d=20.0,0.0",
            "50.0ms pan changed pad touches=1 at 35.0,50.0 d=25.0,0.0",
            "60.0ms pan changed pad touches=1 at 40.0,50.0 d=30.0,0.0",
            "70.0ms pan changed pad touches=1 at 45.0,50.0 d=35.0,0.0",
            "80.0ms pan changed pad touches=1 at 50.0,50.0 d=40.0,0.0",
            "90.0ms pan changed pad touches=1 at 55.0,50.0 d=45.0,0.0",
            "100.0ms pan ended pad touches=1 at 60.0,50.0 d=50.0,0.0",
        ])
        let pan = PanRecognizer()
        pan.shouldRecognizeSimultaneously = { _, other in other.kind == .swipe }
        let together = run(layout { $0.add(pan); $0.add(SwipeRecognizer()) }, s)
        #expect(together.prefix(4) == [
            "10.0ms pan began pad touches=1 at 15.0,50.0 d=5.0,0.0",
            "20.0ms pan changed pad touches=1 at 20.0,50.0 d=10.0,0.0",
            "30.0ms pan changed pad touches=1 at 25.0,50.0 d=15.0,0.0",
            "30.0ms swipe recognized pad touches=1 right at 25.0,50.0 d=15.0,0.0",
        ])
    }

    @Test func aCancelledTouchCancelsBegunGestures() {
        let pipeline = GesturePipeline(layout: layout { $0.add(PanRecognizer()) })
        let recorder = GestureRecorder(pipeline)
        var s = TouchScript()
        s.drag(from: Point(x: 10, y: 50), to: Point(x: 30, y: 50), at: .zero, duration: .milliseconds(40), steps: 4)
        var frames = s.frames
        frames.removeLast()  // instead of the lift, the firmware calls it a palm
        let last = frames.last!.contacts[0]
        frames.append(TouchFrame(time: ms(50), contacts: [TouchContact(
            id: last.id, slot: 0, phase: .cancelled, deviceX: last.deviceX, deviceY: last.deviceY, x: last.x, y: last.y)]))
        ManualClock(pipeline: pipeline).play(frames)
        #expect(recorder.lines.last == "50.0ms pan cancelled pad touches=1 at 25.0,50.0 d=15.0,0.0")
        #expect(!pipeline.isTracking)
    }

    @Test func aDeviceRemovedMidPinchCancelsIt() {
        let pipeline = GesturePipeline(layout: layout { $0.onPinch { _ in } })
        let recorder = GestureRecorder(pipeline)
        var s = TouchScript()
        s.down(1, at: .zero, x: 90, y: 50)
        s.down(2, at: .zero, x: 110, y: 50)
        for step in 1...6 {
            s.move(1, at: .milliseconds(Double(step) * 10), x: 90 - Double(step) * 2, y: 50)
            s.move(2, at: .milliseconds(Double(step) * 10), x: 110 + Double(step) * 2, y: 50)
        }
        ManualClock(pipeline: pipeline).play(s.frames)
        pipeline.cancelAll(time: ms(70))
        #expect(recorder.lines.suffix(2) == [
            "60.0ms pinch changed pad touches=2 at 100.0,50.0 scale=2.20",  // spread 10 → 22 mm
            "70.0ms pinch cancelled pad touches=2 at 100.0,50.0 scale=2.20",
        ])
        #expect(pipeline.nextDeadline == nil && !pipeline.isTracking)
    }

    @Test func nothingIsScheduledWhenNoFingerIsDownAndNothingWaits() {
        let pipeline = GesturePipeline(layout: layout { $0.add(TapRecognizer(taps: 1)); $0.add(TapRecognizer(taps: 2)) })
        #expect(pipeline.nextDeadline == nil && !pipeline.isTracking)
        var s = TouchScript()
        s.tap(at: .zero, x: 10, y: 10)
        let clock = ManualClock(pipeline: pipeline)
        clock.play([s.frames[0]])
        #expect(pipeline.nextDeadline == ms(500))  // the press may last 500 ms
        clock.play([s.frames[1]])
        #expect(pipeline.nextDeadline == ms(380))  // the double tap's window
        clock.advance(to: ms(380))
        #expect(pipeline.nextDeadline == nil && !pipeline.isTracking)
    }
}
