import GestureTesting
import Gestures
import Logging
import Testing
import TouchEvents

/// Records, on every frame, whether the arena has recorded a translation in the press; never
/// claims anything, and may go on beside a pan.
final class TranslationProbe: GestureRecognizer {
    var seen: [Bool] = []

    init() {
        super.init(kind: .custom)
        simultaneousKinds = [.pan]
    }

    override var name: String { "probe" }

    override func handle(_ touches: TouchTracker) -> RecognizerUpdate {
        seen.append(touches.translatedInPress)
        return touches.isDown ? .none : .fail(.touchesLifted)
    }
}

/// Begins at once with the fingers down; when more land, ends and asks the arena to start over
/// (a gesture of the new count follows), as a touchpad's pan does in libinput.
final class StartOverRecognizer: GestureRecognizer {
    private var fingers = 0

    init() { super.init(kind: .custom) }

    override var name: String { "start-over" }

    override func reset() {
        super.reset()
        fingers = 0
    }

    override func handle(_ touches: TouchTracker) -> RecognizerUpdate {
        if state == .possible {
            fingers = touches.touches
            return touches.isDown ? .begin : .fail(.touchesLifted)
        }
        if !touches.isDown { return .end }
        return touches.touches > fingers ? .endAndStartOver : .none
    }
}

/// Recognizers meet only in the arena: what one's win means for the others (a translation
/// established in the press) is recorded by the arena, and a recognizer asks the arena, not the
/// router, to start the touches over.
@Suite("Recognizers meet only in the arena")
struct MeetingInTheArenaTests {
    /// A recognizer's values only read: asking a pan for its values twice, in any state,
    /// records nothing on the tracker.
    @Test func aRecognizersValuesChangeNothing() {
        let tracker = TouchTracker()
        let pan = PanRecognizer()
        _ = pan.values(.began, time: .zero, tracker)
        _ = pan.values(.recognized, time: .zero, tracker)
        #expect(tracker.translatedInPress == false)
    }

    /// The arena records the translation when it grants the pan's claim (from the frame the
    /// pan began, 3 mm in), and a new press starts without one.
    @Test func theArenaRecordsATranslationWhenItGrantsAPan() {
        let probe = TranslationProbe()
        let l = layout {
            $0.add(PanRecognizer())
            $0.add(probe)
        }
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 30)
        for step in 1...4 { s.move(1, at: .milliseconds(Double(step) * 10), x: 20 + Double(step) * 1.5, y: 30) }
        s.up(1, at: .milliseconds(50))
        #expect(run(l, s) == [
            "20.0ms pan began pad touches=1 at 23.0,30.0 d=3.0,0.0",
            "30.0ms pan changed pad touches=1 at 24.5,30.0 d=4.5,0.0",
            "40.0ms pan changed pad touches=1 at 26.0,30.0 d=6.0,0.0",
            "50.0ms pan ended pad touches=1 at 26.0,30.0 d=6.0,0.0",
        ])
        // The probe reads each frame after the pan (added first): from 20 ms on, a translation.
        #expect(probe.seen == [false, false, true, true, true, true])
        var again = TouchScript()
        again.down(1, at: .zero, x: 20, y: 30)
        again.up(1, at: .milliseconds(50))
        _ = run(l, again)
        #expect(probe.seen.suffix(2) == [false, false])
    }

    /// A recognizer of one's own that answers `endAndStartOver` when a finger lands: the arena
    /// ends it, and the touches start over as a gesture of two fingers — on a touchscreen too.
    @Test func aRecognizerAsksTheArenaToStartOver() {
        let l = layout { $0.add(StartOverRecognizer()) }
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 30)
        s.down(2, at: .milliseconds(100), x: 40, y: 30)
        for finger in 1...2 { s.up(finger, at: .milliseconds(200)) }
        #expect(run(l, s) == [
            "0.0ms custom began pad touches=1 at 20.0,30.0",
            "100.0ms custom ended pad touches=1 at 30.0,30.0",
            "100.0ms custom began pad touches=2 at 30.0,30.0",
            "200.0ms custom ended pad touches=2 at 30.0,30.0",
        ])
    }
}
