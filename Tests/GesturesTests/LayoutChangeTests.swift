import GestureTesting
import Gestures
import Testing
import TouchEvents

/// Layouts change while touches come in (a popup opens, a button is disabled, a panel
/// moves): the change applies between frames, sequences on a region that went end
/// `cancelled`, and new sequences see the layout as it is.
@Suite("Layout changes while running")
struct LayoutChangeTests {
    /// A root with a "panel" (a pan) at the left and room on the right.
    private func setUp() -> (Layout, Region, GesturePipeline, GestureRecorder, ManualClock) {
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        root.onTap { _ in }
        let panel = Region(id: "panel", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        panel.onPan { _ in }
        root.addChild(panel)
        let layout = Layout(root: root)
        let pipeline = GesturePipeline(layout: layout)
        let recorder = GestureRecorder(pipeline)
        return (layout, panel, pipeline, recorder, ManualClock(pipeline: pipeline))
    }

    /// A drag on the panel: the first two frames, then (after a change) the rest.
    private func drag() -> (start: [TouchFrame], end: [TouchFrame]) {
        var s = TouchScript()
        s.down(1, at: .zero, x: 10, y: 50)
        s.move(1, at: .milliseconds(50), x: 30, y: 50)
        s.move(1, at: .milliseconds(100), x: 40, y: 50)
        s.up(1, at: .milliseconds(150))
        return (Array(s.frames.prefix(2)), Array(s.frames.dropFirst(2)))
    }

    @Test func disablingARegionCancelsItsGestureInProgress() {
        let (_, panel, _, recorder, clock) = setUp()
        clock.play(drag().start)
        panel.isEnabled = false
        clock.play(drag().end)
        #expect(recorder.lines == [
            "50.0ms pan began panel touches=1 at 30.0,50.0 d=20.0,0.0",
            "100.0ms pan cancelled panel touches=1 at 30.0,50.0 d=20.0,0.0",
        ])
    }

    @Test func hidingAnAncestorCancelsTheGestureOfARegionInside() {
        let (layout, panel, _, recorder, clock) = setUp()
        let knob = Region(id: "knob", frame: Rect(x: 0, y: 0, width: 50, height: 100))
        knob.onPan { _ in }
        panel.addChild(knob)
        _ = layout
        clock.play(drag().start)
        panel.isHidden = true
        clock.play(drag().end)
        #expect(recorder.lines == [
            "50.0ms pan began knob touches=1 at 30.0,50.0 d=20.0,0.0",
            "100.0ms pan cancelled knob touches=1 at 30.0,50.0 d=20.0,0.0",
        ])
    }

    @Test func aRecognizerTakenOffItsRegionIsCancelledAndTheOthersGoOn() {
        let (_, panel, _, recorder, clock) = setUp()
        let second = PanRecognizer(minimumTouches: 1, maximumTouches: 1)
        second.recognizeSimultaneously(with: .pan)
        panel.add(second)
        clock.play(drag().start)
        panel.remove(second)
        clock.play(drag().end)
        #expect(recorder.lines == [
            "50.0ms pan began panel touches=1 at 30.0,50.0 d=20.0,0.0",
            "50.0ms pan began panel touches=1 at 30.0,50.0 d=20.0,0.0",
            "100.0ms pan cancelled panel touches=1 at 30.0,50.0 d=20.0,0.0",
            "100.0ms pan changed panel touches=1 at 40.0,50.0 d=30.0,0.0",
            "150.0ms pan ended panel touches=1 at 40.0,50.0 d=30.0,0.0",
        ])
    }

    @Test func regionsAddedMovedAndReEnabledApplyToTheNextSequence() {
        let (layout, panel, _, recorder, clock) = setUp()
        let button = Region(id: "button", frame: Rect(x: 150, y: 0, width: 50, height: 50))
        button.onTap { _ in }
        layout.root.addChild(button)
        panel.isEnabled = false
        var s = TouchScript()
        s.tap(at: .zero, x: 160, y: 10)   // the new button
        s.tap(at: .milliseconds(1000), x: 10, y: 50)  // the disabled panel: the root's tap
        s.tap(at: .milliseconds(2000), x: 10, y: 70)  // the moved button, now over the panel
        s.tap(at: .milliseconds(3000), x: 160, y: 10)  // where the button was: the root
        clock.play(Array(s.frames.prefix(4)))
        button.frame = Rect(x: 0, y: 60, width: 50, height: 40)
        panel.isEnabled = true
        clock.play(Array(s.frames.dropFirst(4)))
        #expect(recorder.lines == [
            "80.0ms tap recognized button touches=1 taps=1 at 160.0,10.0",
            "1080.0ms tap recognized root touches=1 taps=1 at 10.0,50.0",
            "2080.0ms tap recognized button touches=1 taps=1 at 10.0,70.0",
            "3080.0ms tap recognized root touches=1 taps=1 at 160.0,10.0",
        ])
    }

    @Test func aSecondPressOnARemovedRegionStartsNothing() {
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let button = Region(id: "button", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        button.onDoubleTap { _ in }
        button.onTap { _ in }
        root.addChild(button)
        let pipeline = GesturePipeline(layout: Layout(root: root))
        let recorder = GestureRecorder(pipeline)
        let clock = ManualClock(pipeline: pipeline)
        var s = TouchScript()
        s.tap(at: .zero, x: 10, y: 10)
        s.tap(at: .milliseconds(150), x: 10, y: 10)
        clock.play(Array(s.frames.prefix(2)))
        button.removeFromParent()
        clock.play(Array(s.frames.dropFirst(2)))
        pipeline.finish()
        #expect(recorder.lines == [], "neither the double tap nor the single tap of a removed button")
    }

    /// `probe` on "left" (the left half of a 200 × 100 root; "right" the other half), a finger
    /// on the left at `left` (x at 0, 10, 20 and 30 ms), a second on the right from 20 ms at
    /// `right` (x at 20 and 30 ms), both lifting at 40 ms; `probe` moved to "right" once the
    /// first `movedAfter` frames are played.
    private func moveMidSequence(_ probe: GestureRecognizer, left: [Double], right: [Double], movedAfter: Int) {
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let leftRegion = Region(id: "left", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let rightRegion = Region(id: "right", frame: Rect(x: 100, y: 0, width: 100, height: 100))
        root.addChild(leftRegion)
        root.addChild(rightRegion)
        leftRegion.add(probe)
        let pipeline = GesturePipeline(layout: Layout(root: root))
        var s = TouchScript()
        s.down(1, at: .zero, x: left[0], y: 50)
        s.move(1, at: .milliseconds(10), x: left[1], y: 50)
        s.move(1, at: .milliseconds(20), x: left[2], y: 50)
        s.down(2, at: .milliseconds(20), x: right[0], y: 50)
        s.move(1, at: .milliseconds(30), x: left[3], y: 50)
        s.move(2, at: .milliseconds(30), x: right[1], y: 50)
        s.up(1, at: .milliseconds(40))
        s.up(2, at: .milliseconds(40))
        let clock = ManualClock(pipeline: pipeline)
        clock.play(Array(s.frames.prefix(movedAfter)))
        rightRegion.add(probe)
        clock.play(Array(s.frames.dropFirst(movedAfter)))
    }

    @Test func aRecognizerMovedToAnotherRegionIsDrivenByItsNewSequenceOnly() {
        // A recognizer moved from "left" to "right" while a finger is down on the left: the
        // left sequence ends it (its region is no longer on that path) and, at its next frame,
        // lets it go; a finger landing on the right later starts it anew, and only that
        // sequence's frames reach it — not the left sequence's too, though that one goes on.
        let probe = FrameValueProbe(reads: [])
        moveMidSequence(probe, left: [20, 21, 22, 23], right: [150, 151], movedAfter: 1)
        #expect(probe.log == [
            "0.000000s rotation 0.00 spread ×1.000",
            "0.020000s rotation 0.00 spread ×1.000",
            "0.030000s rotation 0.00 spread ×1.000",
            "0.040000s rotation 0.00 spread ×1.000",
        ])
    }

    @Test func aRecognizerThatFinishedAndWasMovedIsNotDrivenByItsOldSequenceAgain() {
        // The probe fails in the left sequence's second frame, and is then moved to the right.
        // A finger landing there starts it anew; the left sequence, whose fingers go on, let it
        // go once the frame it finished in was over, so only the right sequence's frames reach
        // it from then on (at x = 150, not x = 20).
        let probe = PositionProbe(failsAtFrame: 2)
        moveMidSequence(probe, left: [20, 20, 20, 20], right: [150, 150], movedAfter: 2)
        #expect(probe.log == [
            "0.000000s at 20.0",
            "0.010000s at 20.0 (fails)",
            "0.020000s at 150.0",
            "0.030000s at 150.0",
            "0.040000s at 150.0",
        ])
    }
}

/// Logs where the touches it reads are, frame by frame, and fails once, at its `failsAtFrame`th
/// frame.
private final class PositionProbe: GestureRecognizer {
    let failsAtFrame: Int
    private(set) var log: [String] = []
    private var frames = 0

    init(failsAtFrame: Int) {
        self.failsAtFrame = failsAtFrame
        super.init(kind: .custom)
    }

    override func handle(_ touches: TouchTracker) -> RecognizerUpdate {
        frames += 1
        let line = "\(touches.time) at \(formatDecimal(touches.centroid.x, places: 1, trailingZeros: .keep))"
        guard frames == failsAtFrame else {
            log.append(line)
            return .none
        }
        log.append(line + " (fails)")
        return .fail(.tooManyTouches(touches.touches, limit: 0, required: true))
    }
}
