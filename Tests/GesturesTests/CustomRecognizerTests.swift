import GestureTesting
import Gestures
import Testing
import TouchEvents

/// A recognizer written outside the library, on its public API only: two fingers held still
/// for a second is a "two-finger hold" — recognised at the deadline, failing if they move,
/// lift early, or a third finger lands.
final class TwoFingerHoldRecognizer: GestureRecognizer {
    var holdFor = Duration.seconds(1)
    var maximumMovementMillimetres = 3.0
    private var moved = 0.0
    private var deadline: Instant?

    init() { super.init(kind: .custom) }

    override var name: String { "two-finger-hold" }

    override func reset() {
        super.reset()
        moved = 0
        deadline = nil
    }

    override func handle(_ touches: TouchTracker) -> RecognizerUpdate {
        moved += touches.centroidDelta.length
        if touches.touches > 2 { return .fail(.tooManyTouches(touches.touches, limit: 2, required: true)) }
        if moved > maximumMovementMillimetres { return .fail(.moved(millimetres: moved, allowed: maximumMovementMillimetres)) }
        if !touches.isDown { return .fail(.liftedTooSoon(touches.time - touches.pressStartTime, required: holdFor)) }
        if touches.touches == 2 && deadline == nil { deadline = touches.time + holdFor }
        return deadline.map { .wait(until: $0) } ?? .none
    }

    override func deadlinePassed(_ now: Instant, _ touches: TouchTracker) -> RecognizerUpdate { .recognize }
}

@Suite("A recognizer of your own")
struct CustomRecognizerTests {
    @Test func aCustomRecognizerTakesPartInTheArenaLikeTheBuiltInOnes() {
        let region = Region(id: "pad", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let hold = TwoFingerHoldRecognizer()
        region.add(hold)
        var held: [String] = []
        hold.addHandler { g in held.append("\(g.recognizer) \(g.state) at \(g.time)") }
        let twoFingerTap = TapRecognizer(taps: 1, touches: 2)
        region.add(twoFingerTap)
        let pan = PanRecognizer(minimumTouches: 2, maximumTouches: 2)
        region.add(pan)
        let pipeline = GesturePipeline(layout: Layout(root: region))
        let recorder = GestureRecorder(pipeline)
        let failures = FailureLog(pipeline)
        var s = TouchScript()
        s.tap(at: .zero, x: 50, y: 50, touches: 2)                         // a tap: the hold fails (lifted too soon)
        s.down(1, at: .milliseconds(1000), x: 50, y: 50)                   // held: the hold wins at 2.0 s
        s.down(2, at: .milliseconds(1000), x: 70, y: 50)
        s.up(1, at: .milliseconds(2500))
        s.up(2, at: .milliseconds(2500))
        s.drag(from: Point(x: 50, y: 50), to: Point(x: 90, y: 50), at: .milliseconds(4000), duration: .milliseconds(200),
               touches: 2)                                                 // a drag: the pan wins, the hold fails
        ManualClock(pipeline: pipeline).play(s.frames)
        pipeline.finish()
        #expect(held == ["two-finger-hold recognized at 2.000000s"])
        #expect(recorder.lines == [
            "80.0ms tap recognized pad touches=2 taps=1 at 55.0,50.0",
            "2000.0ms custom recognized pad touches=2 at 60.0,50.0",
            "4020.0ms pan began pad touches=2 at 59.0,50.0 d=4.0,0.0",
            "4040.0ms pan changed pad touches=2 at 63.0,50.0 d=8.0,0.0",
            "4060.0ms pan changed pad touches=2 at 67.0,50.0 d=12.0,0.0",
            "4080.0ms pan changed pad touches=2 at 71.0,50.0 d=16.0,0.0",
            "4100.0ms pan changed pad touches=2 at 75.0,50.0 d=20.0,0.0",
            "4120.0ms pan changed pad touches=2 at 79.0,50.0 d=24.0,0.0",
            "4140.0ms pan changed pad touches=2 at 83.0,50.0 d=28.0,0.0",
            "4160.0ms pan changed pad touches=2 at 87.0,50.0 d=32.0,0.0",
            "4180.0ms pan changed pad touches=2 at 91.0,50.0 d=36.0,0.0",
            "4200.0ms pan ended pad touches=2 at 95.0,50.0 d=40.0,0.0",
        ])
        #expect(failures.reasons.filter { $0.hasPrefix("two-finger-hold") } == [
            "two-finger-hold: lifted after 80.0 ms < 1000.0 ms required",
            "two-finger-hold: moved 4.0 mm > 3.0 mm allowed",
        ])
    }
}
