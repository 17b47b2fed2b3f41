import Foundation
import GestureProtocol
import GestureTesting
import Gestures
import Testing
import TouchEvents

/// A swipe fires only when its direction is decisive: the whole stroke and its recent motion
/// both clear of the diagonal.
@Suite("Decisive swipes")
struct DecisiveSwipeTests {
    /// A slow drift right (80 mm/s, 12 mm), then a fast stroke at 51° up from it: the stroke is
    /// still within 30° of right when the fingers reach 100 mm/s along it, but its recent motion
    /// is not — no swipe right (it would have fired at 190 ms).
    @Test func aStrokeThatTurnsDiagonalIsNoSwipe() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 50, y: 50)
        var x = 50.0, y = 50.0
        for step in 1...15 {
            x += 0.8
            s.move(1, at: .milliseconds(Double(step) * 10), x: x, y: y)
        }
        for step in 16...30 {
            x += 1.2
            y -= 1.5
            s.move(1, at: .milliseconds(Double(step) * 10), x: x, y: y)
        }
        s.up(1, at: .milliseconds(310))
        let swipe = SwipeRecognizer()
        #expect(run(layout { $0.add(swipe) }, s) == [])
        #expect(swipe.failureReason == "lifted after 37.5 mm (needs 10.0 mm at 100.0 mm/s)")
    }

    @Test func aStraightFlickSaysWhenItWasDecided() {
        var s = TouchScript()
        s.drag(from: Point(x: 50, y: 80), to: Point(x: 50, y: 20), at: .zero, duration: .milliseconds(100), steps: 10)
        let pipeline = GesturePipeline(layout: layout { $0.add(SwipeRecognizer()) })
        let recorder = GestureRecorder(pipeline)
        ManualClock(pipeline: pipeline).play(s.frames)
        pipeline.finish()
        #expect(recorder.lines == ["20.0ms swipe recognized pad touches=1 up at 50.0,68.0 d=0.0,-12.0"])
        let swipe = recorder.gestures[0]
        #expect(swipe.decidedAfterDistance == 12 && swipe.decidedAfterTime == .milliseconds(20))
        #expect(swipe.jsonLine(origin: .zero).contains("\"direction\": \"up\", \"decided_mm\": 12.0, \"decided_ms\": 20.0}"))
    }

    /// Given a diagonal, a swipe recognizer tells eight directions apart: a flick up and to the
    /// right at 45° is `up-right`; one 10° off right is still `right`; one 25° off right is near
    /// neither (more than 15° from both): no swipe. Without diagonals the 45° flick is none.
    @Test func eightDirectionsWhenADiagonalIsAskedFor() {
        func flick(degrees: Double) -> TouchScript {
            var s = TouchScript()
            let radians = degrees * .pi / 180
            s.drag(from: Point(x: 50, y: 50), to: Point(x: 50 + 40 * cos(radians), y: 50 - 40 * sin(radians)),
                   at: .zero, duration: .milliseconds(100), steps: 10)
            return s
        }
        let eight = { layout { $0.add(SwipeRecognizer(directions: SwipeDirection.straight.union([.upRight, .downLeft]))) } }
        #expect(run(eight(), flick(degrees: 45)) == ["30.0ms swipe recognized pad touches=1 up-right at 58.5,41.5 d=8.5,-8.5"])
        #expect(run(eight(), flick(degrees: 10)) == ["30.0ms swipe recognized pad touches=1 right at 61.8,47.9 d=11.8,-2.1"])
        #expect(run(eight(), flick(degrees: 25)) == [])
        #expect(run(layout { $0.add(SwipeRecognizer()) }, flick(degrees: 45)) == [])
        #expect(run(layout { $0.add(SwipeRecognizer()) }, flick(degrees: 25)) == ["30.0ms swipe recognized pad touches=1 right at 60.9,44.9 d=10.9,-5.1"])
    }
}
