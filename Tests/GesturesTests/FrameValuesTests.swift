import Foundation
import GestureTesting
@testable import Gestures
import Testing
import TouchEvents

/// Records what it reads of every frame: the rotation and the spread change, with the
/// values it says it reads (``GestureRecognizer/readsFrameValues``); fails at `failAfter` frames.
final class FrameValueProbe: GestureRecognizer {
    let reads: TouchTracker.FrameValues
    let failAfter: Int?
    private(set) var log: [String] = []
    private var frames = 0

    init(reads: TouchTracker.FrameValues, failAfter: Int? = nil) {
        self.reads = reads
        self.failAfter = failAfter
        super.init(kind: .custom)
    }

    override var readsFrameValues: TouchTracker.FrameValues { reads }

    override func handle(_ touches: TouchTracker) -> RecognizerUpdate {
        frames += 1
        log.append("\(touches.time) rotation \(formatDecimal(touches.rotationDelta, places: 2, trailingZeros: .keep)) spread ×\(formatDecimal(touches.spreadFactor, places: 3, trailingZeros: .keep))")
        if let failAfter, frames >= failAfter { return .fail(.tooManyTouches(touches.touches, limit: 0, required: true)) }
        return .none
    }
}

@Suite("A frame computes what its recognizers read")
struct FrameValuesTests {
    /// Two fingers 20 mm apart turning 10° and spreading 10% a frame, every 10 ms, for 4 frames.
    func turningAndSpreading() -> TouchScript {
        var s = TouchScript()
        var angle = 0.0, distance = 10.0
        s.down(1, at: .zero, x: 50 + distance, y: 50)
        s.down(2, at: .zero, x: 50 - distance, y: 50)
        for step in 1...4 {
            angle += 10 * .pi / 180
            distance *= 1.1
            let dx = distance * cos(angle), dy = distance * sin(angle)
            s.move(1, at: .milliseconds(10 * step), x: 50 + dx, y: 50 + dy)
            s.move(2, at: .milliseconds(10 * step), x: 50 - dx, y: 50 - dy)
        }
        return s
    }

    func play(_ probes: [FrameValueProbe]) {
        let region = Region(id: "pad", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        for probe in probes { region.add(probe) }
        let pipeline = GesturePipeline(layout: Layout(root: region))
        ManualClock(pipeline: pipeline).play(turningAndSpreading().frames)
    }

    @Test func aRecognizerThatReadsThemGetsTheRotationAndTheSpreadChange() {
        let probe = FrameValueProbe(reads: .all)
        play([probe])
        #expect(probe.log == [
            "0.000000s rotation 0.00 spread ×1.000",
            "0.010000s rotation 10.00 spread ×1.100",
            "0.020000s rotation 10.00 spread ×1.100",
            "0.030000s rotation 10.00 spread ×1.100",
            "0.040000s rotation 10.00 spread ×1.100",
        ])
    }

    @Test func noRecognizerReadsThemAndTheyAreNotComputed() {
        let probe = FrameValueProbe(reads: [])
        play([probe])
        #expect(probe.log == [
            "0.000000s rotation 0.00 spread ×1.000",
            "0.010000s rotation 0.00 spread ×1.000",
            "0.020000s rotation 0.00 spread ×1.000",
            "0.030000s rotation 0.00 spread ×1.000",
            "0.040000s rotation 0.00 spread ×1.000",
        ])
    }

    @Test func eachIsComputedWhileARecognizerThatReadsItIsUndecided() {
        // The rotation's reader fails at its second frame, the spread's at its fourth: a
        // recognizer that reads nothing sees each until then.
        let rotation = FrameValueProbe(reads: .rotation, failAfter: 2)
        let spread = FrameValueProbe(reads: .spreadChange, failAfter: 4)
        let onlooker = FrameValueProbe(reads: [])
        play([rotation, spread, onlooker])
        #expect(onlooker.log == [
            "0.000000s rotation 0.00 spread ×1.000",
            "0.010000s rotation 10.00 spread ×1.100",
            "0.020000s rotation 0.00 spread ×1.100",
            "0.030000s rotation 0.00 spread ×1.100",
            "0.040000s rotation 0.00 spread ×1.000",
        ])
    }

    @Test func aValueAskedForLateInAFrameIsComputedOverThatFramesTouches() {
        // As when an arena starts over mid-frame with recognizers that read more: the tracker
        // catches up over the same touches, the one that lifted in the frame included.
        func tracker(computing values: TouchTracker.FrameValues) -> TouchTracker {
            let tracker = TouchTracker()
            tracker.computes = values
            let filter = ContactFilter(policy: .touchscreen)
            var s = TouchScript()
            s.down(1, at: .zero, x: 60, y: 50)
            s.down(2, at: .zero, x: 40, y: 50)
            s.down(3, at: .zero, x: 50, y: 60)
            s.move(1, at: .milliseconds(10), x: 60, y: 53)
            s.move(2, at: .milliseconds(10), x: 40, y: 47)
            s.move(3, at: .milliseconds(10), x: 47, y: 60)
            s.up(3, at: .milliseconds(20))
            s.move(1, at: .milliseconds(20), x: 59, y: 56)
            s.move(2, at: .milliseconds(20), x: 41, y: 44)
            for frame in s.frames {
                let filtered = filter.filter(frame, notBefore: .distantPast)
                tracker.update(filtered.fingers, filtered)
            }
            return tracker
        }
        let full = tracker(computing: .all)
        let late = tracker(computing: [])
        #expect(late.rotationDelta == 0 && late.spreadFactor == 1)
        late.computes = .all
        late.catchUp()
        #expect(full.rotationDelta != 0 && full.spreadFactor != 1)
        #expect(late.rotationDelta == full.rotationDelta)
        #expect(late.spreadFactor == full.spreadFactor)
        #expect(late.spreadDelta == full.spreadDelta)
    }
}
