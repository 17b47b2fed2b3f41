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

    @Test func aStraightFlickSaysWhenItWasDecided() throws {
        var s = TouchScript()
        s.drag(from: Point(x: 50, y: 80), to: Point(x: 50, y: 20), at: .zero, duration: .milliseconds(100), steps: 10)
        let pipeline = GesturePipeline(layout: layout { $0.add(SwipeRecognizer()) })
        let recorder = GestureRecorder(pipeline)
        ManualClock(pipeline: pipeline).play(s.frames)
        pipeline.finish()
        // 6 mm per 10 ms: 10 mm passed at 20 ms, decided once it has gone 15 mm the same way.
        #expect(recorder.lines == ["30.0ms swipe recognized pad touches=1 up at 50.0,62.0 d=0.0,-18.0"])
        let swipe = recorder.gestures[0]
        let decided = try #require(SwipeGesture(swipe))
        #expect(decided.decidedAfterMillimetres == 18 && decided.decidedAfter == .milliseconds(30))
        #expect(swipe.jsonLine(origin: .zero).contains("\"direction\": \"up\", \"decided_mm\": 18.0, \"decided_ms\": 30.0}"))
    }

    /// A flick that drifts 10 mm right as the finger lands (40 ms) and then goes up (and a
    /// little left: −49, −95 mm overall in 200 ms) is judged on where it goes: a swipe up, not
    /// right. A stroke that lifts before it has gone 15 mm is judged at the lift, whole.
    @Test func aStrokeThatTurnsIsJudgedOnWhereItGoes() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 60, y: 100)
        for step in 1...4 { s.move(1, at: .milliseconds(Double(step) * 10), x: 60 + Double(step) * 2.5, y: 100) }
        for step in 1...16 {
            s.move(1, at: .milliseconds(40 + Double(step) * 10), x: 70 - Double(step) * 59.0 / 16, y: 100 - Double(step) * 95.0 / 16)
        }
        s.up(1, at: .milliseconds(210))
        let swipe = { layout { $0.add(SwipeRecognizer()) } }
        // Its second leg goes 32° off up: nearer up than any other way, so it is decided once
        // the stroke has gone 15 mm within 30° of up, at 70 ms (until issue 65 the recent motion
        // had to be within 30° too, and it was decided at the lift). Without the stable stretch
        // it was `right` at 10 mm.
        #expect(run(swipe(), s) == ["70.0ms swipe recognized pad touches=1 up at 58.9,82.2 d=-1.1,-17.8"])
        // 12 mm right in 30 ms, lifted: judged at the lift.
        var short = TouchScript()
        short.drag(from: Point(x: 50, y: 50), to: Point(x: 62, y: 50), at: .zero, duration: .milliseconds(30), steps: 3)
        #expect(run(swipe(), short) == ["30.0ms swipe recognized pad touches=1 right at 62.0,50.0 d=12.0,0.0"])
        // 12 mm right in 300 ms: too slow, at the lift as before.
        var slow = TouchScript()
        slow.drag(from: Point(x: 50, y: 50), to: Point(x: 62, y: 50), at: .zero, duration: .milliseconds(300), steps: 6)
        let slowSwipe = swipe()
        #expect(run(slowSwipe, slow) == [])
        #expect(slowSwipe.root.recognizers[0].failureReason == "lifted after 12.0 mm (needs 10.0 mm at 100.0 mm/s)")
    }

    /// Issue 65, item 8: a flick hooks right and up for 20 mm (its heading turning from 18° to
    /// 74° above +x in 83 ms), then runs straight 40° left of up, accelerating, and lifts at
    /// 208 ms: 27° left of up whole. Its recent motion is never within 30° of up, so with the
    /// recent tests at 30° it was decided only at the lift; within 45° (nearer up than left) it
    /// is decided as it goes — a swipe up, by 110 ms. A stroke that runs on 50° left of up
    /// (nearer left) is no swipe up until its whole stroke says so, and then is none at all.
    @Test func aHookedFlickIsDecidedAsItRuns() {
        func flick(lean degrees: Double) -> TouchScript {
            var s = TouchScript()
            var x = 80.0, y = 190.0
            s.down(1, at: .zero, x: x, y: y)
            var t = 0.0
            var n = 0
            while t < 208 {
                let dt = n % 2 == 0 ? 7.5 : 9.1
                let next = min(208, t + dt)
                // Heading (degrees above +x, y up) and speed (mm/ms) over this report.
                let heading: Double
                let speed: Double
                if next <= 83 {
                    heading = 18 + (74 - 18) * next / 83
                    speed = 20.0 / 83
                } else {
                    heading = 90 + degrees
                    speed = 0.241 + (1.0 - 0.241) * (next - 83) / 125
                }
                let step = speed * (next - t)
                x += step * cos(heading * .pi / 180)
                y -= step * sin(heading * .pi / 180)
                s.move(1, at: .milliseconds(next), x: x, y: y)
                t = next
                n += 1
            }
            s.up(1, at: .milliseconds(215.5))
            return s
        }
        // The portrait panel of the issue, 145 x 233 mm.
        let swipe = {
            let panel = Region(id: "pad", frame: Rect(x: 0, y: 0, width: 145, height: 233))
            panel.add(SwipeRecognizer())
            return Layout(root: panel)
        }
        let hooked = run(swipe(), flick(lean: 40))
        #expect(hooked.count == 1 && hooked.first?.contains("swipe recognized pad touches=1 up") == true, "\(hooked)")
        #expect(hooked.first?.hasPrefix("99.6ms") == true, "\(hooked)")
        // Running on 50° left of up: the recent motion is nearer left; the whole stroke is
        // then no swipe of any way (more than 30° from up and from left).
        let leaning = run(swipe(), flick(lean: 50))
        #expect(leaning == [], "\(leaning)")
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
        #expect(run(eight(), flick(degrees: 45)) == ["40.0ms swipe recognized pad touches=1 up-right at 61.3,38.7 d=11.3,-11.3"])
        #expect(run(eight(), flick(degrees: 10)) == ["40.0ms swipe recognized pad touches=1 right at 65.8,47.2 d=15.8,-2.8"])
        #expect(run(eight(), flick(degrees: 25)) == [])
        #expect(run(layout { $0.add(SwipeRecognizer()) }, flick(degrees: 45)) == [])
        #expect(run(layout { $0.add(SwipeRecognizer()) }, flick(degrees: 25)) == ["40.0ms swipe recognized pad touches=1 right at 64.5,43.2 d=14.5,-6.8"])
    }
}
