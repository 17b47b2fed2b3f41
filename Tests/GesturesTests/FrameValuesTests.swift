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

    @Test func aRecognizerThatFailedReadsNoFrameAfter() {
        // The arena drops a failed member from those in play: it is not asked again, and the
        // ones beside it go on as before.
        let early = FrameValueProbe(reads: [], failAfter: 2)
        let late = FrameValueProbe(reads: [], failAfter: 4)
        let onlooker = FrameValueProbe(reads: [])
        play([early, late, onlooker])
        #expect(early.log == ["0.000000s rotation 0.00 spread ×1.000", "0.010000s rotation 0.00 spread ×1.000"])
        #expect(late.log.count == 4)
        #expect(onlooker.log.count == 5)
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
                let fingers = filter.filter(frame, notBefore: .distantPast) ?? frame
                let filtered = FilteredFrame(filter: filter)
                tracker.update(fingers, filtered)
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

    @Test func anAngleKeptFromTheLastFrameIsUsedOnlyForTheSameVector() {
        // Three fingers turning 5° a frame about (50, 50); one lifts at the fourth frame and
        // another lands at the seventh, which moves the centroid: the rotation of every frame
        // is what two fresh `atan2` per touch make of it (the tracker keeps each touch's last
        // angle and uses it only when the touch's vector from the centroid is the same).
        var s = TouchScript()
        let radii: [Int: Double] = [1: 10, 2: 14, 3: 18, 4: 12]
        let phase: [Int: Double] = [1: 0, 2: 2.1, 3: 4.2, 4: 1.0]
        func at(_ id: Int, _ step: Int) -> (x: Double, y: Double) {
            let angle = phase[id]! + Double(step) * 5 * .pi / 180
            return (50 + radii[id]! * cos(angle), 50 + radii[id]! * sin(angle))
        }
        for id in 1...3 { s.down(id, at: .zero, x: at(id, 0).x, y: at(id, 0).y) }
        for step in 1...10 {
            let time = Duration.milliseconds(10 * step)
            for id in [1, 2] { s.move(id, at: time, x: at(id, step).x, y: at(id, step).y) }
            if step < 4 { s.move(3, at: time, x: at(3, step).x, y: at(3, step).y) }
            if step == 4 { s.up(3, at: time) }
            if step == 7 { s.down(4, at: time, x: at(4, step).x, y: at(4, step).y) }
            if step > 7 { s.move(4, at: time, x: at(4, step).x, y: at(4, step).y) }
        }
        let tracker = TouchTracker()
        tracker.computes = .rotation
        let filter = ContactFilter(policy: .touchscreen)
        var last: [Int: Point] = [:]
        var rotations: [String] = []
        for frame in s.frames {
            let fingers = filter.filter(frame, notBefore: .distantPast) ?? frame
            let filtered = FilteredFrame(filter: filter)
            tracker.update(fingers, filtered)
            // The same rotation, worked out afresh from the frame's positions.
            let persisting = fingers.contacts.filter { $0.phase != .began && $0.phase != .cancelled && last[$0.id] != nil }
            var turn = 0.0, turning = 0.0
            if persisting.count >= 2 {
                let n = Double(persisting.count)
                var before = Point.zero, after = Point.zero
                for c in persisting {
                    before += last[c.id]!
                    after += Point(x: c.x, y: c.y)
                }
                before = before * (1 / n)
                after = after * (1 / n)
                for c in persisting {
                    let a = last[c.id]! - before, b = Point(x: c.x, y: c.y) - after
                    guard a.length > 0.5 && b.length > 0.5 else { continue }
                    turn += normalizedDegrees((atan2(b.y, b.x) - atan2(a.y, a.x)) * 180 / .pi)
                    turning += 1
                }
            }
            let expected = turning > 0 ? turn / turning : 0
            #expect(abs(tracker.rotationDelta - expected) < 1e-9, "at \(frame.time)")
            rotations.append(formatDecimal(tracker.rotationDelta, places: 2, trailingZeros: .keep))
            for c in fingers.contacts {
                if c.phase.isFinal { last[c.id] = nil } else { last[c.id] = Point(x: c.x, y: c.y) }
            }
        }
        // Every frame after the first turned (the check above compared real rotations).
        #expect(rotations.count == 11)
        #expect(rotations.dropFirst().allSatisfy { $0 != "0.00" }, "\(rotations)")
    }

    @Test func aTurnIsNormalizedIntoTheHalfOpenRangeAndOneAlreadyInItIsLeftAsItIs() {
        let cases: [(degrees: Double, normalized: Double)] = [
            (0, 0), (179.9, 179.9), (180, 180), (-179.9, -179.9), (-180, 180), (180.5, -179.5),
            (-180.5, 179.5), (359.5, -0.5), (540, 180), (-540, 180), (725, 5),
        ]
        for c in cases { #expect(normalizedDegrees(c.degrees) == c.normalized, "\(c.degrees)") }
        #expect(normalizedDegrees(-0.0).sign == .minus)
        #expect(normalizedDegrees(.nan).isNaN)
    }

    /// What a tracker that only counts (``TouchTracker/tracksMotion`` off: a region with no
    /// gesture and no press handler) says, frame by frame, against one that tracks everything.
    func counts(_ tracker: TouchTracker) -> String {
        "\(tracker.time) down \(tracker.touches) (was \(tracker.previousTouches)) +\(tracker.beganCount) -\(tracker.endedCount)"
            + "\(tracker.cancelled ? " cancelled" : "") press \(tracker.pressIndex) from \(tracker.pressStartTime)"
            + " most \(tracker.pressMaxTouches) landed \(tracker.lastLandingTime)\(tracker.buttonDown ? " button" : "")"
            + "\(tracker.buttonPressed ? " pressed" : "")"
    }

    @Test func aTrackerThatOnlyCountsAgreesOnEveryCountAndKeepsNoContact() {
        // Two presses: two fingers, a third landing, a click, the BTN_TOOL count above the
        // contacts, one lifting, all lifting; then one finger whose contact is cancelled.
        var s = TouchScript()
        s.down(1, at: .zero, x: 40, y: 50)
        s.down(2, at: .zero, x: 60, y: 50)
        s.move(1, at: .milliseconds(10), x: 42, y: 50)
        s.down(3, at: .milliseconds(20), x: 50, y: 70)
        s.button(down: true, at: .milliseconds(30))
        s.toolFingers(4, at: .milliseconds(30))
        s.move(2, at: .milliseconds(30), x: 61, y: 50)
        s.button(down: false, at: .milliseconds(40))
        s.toolFingers(0, at: .milliseconds(40))
        s.up(1, at: .milliseconds(40))
        s.move(2, at: .milliseconds(50), x: 62, y: 50)
        s.up(2, at: .milliseconds(60))
        s.up(3, at: .milliseconds(60))
        s.down(1, at: .milliseconds(200), x: 30, y: 30)
        s.move(1, at: .milliseconds(210), x: 31, y: 30)
        var frames = s.frames
        var cancel = frames[frames.count - 1]
        cancel.time = .zero + .milliseconds(220)
        for i in cancel.contacts.indices { cancel.contacts[i].phase = .cancelled }
        frames.append(cancel)
        let tracking = TouchTracker()
        let counting = TouchTracker()
        counting.tracksMotion = false
        var tracked: [String] = []
        var counted: [String] = []
        let filter = ContactFilter(policy: .touchscreen)
        for frame in frames {
            // As the pipeline has them: a contact that did not move in a frame is stationary.
            let fingers = filter.filter(frame, notBefore: .distantPast) ?? frame
            let filtered = FilteredFrame(filter: filter)
            tracking.update(fingers, filtered)
            counting.update(fingers, filtered)
            tracked.append(counts(tracking))
            counted.append(counts(counting))
            #expect(counting.contacts.isEmpty)
        }
        #expect(counted == tracked)
        #expect(counted == [
            "0.000000s down 2 (was 0) +2 -0 press 1 from 0.000000s most 2 landed 0.000000s",
            "0.010000s down 2 (was 2) +0 -0 press 1 from 0.000000s most 2 landed 0.000000s",
            "0.020000s down 3 (was 2) +1 -0 press 1 from 0.000000s most 3 landed 0.020000s",
            "0.030000s down 4 (was 3) +0 -0 press 1 from 0.000000s most 4 landed 0.020000s button pressed",
            "0.040000s down 2 (was 4) +0 -1 press 1 from 0.000000s most 4 landed 0.020000s",
            "0.050000s down 2 (was 2) +0 -0 press 1 from 0.000000s most 4 landed 0.020000s",
            "0.060000s down 0 (was 2) +0 -2 press 1 from 0.000000s most 4 landed 0.020000s",
            "0.200000s down 1 (was 0) +1 -0 press 2 from 0.200000s most 1 landed 0.200000s",
            "0.210000s down 1 (was 1) +0 -0 press 2 from 0.200000s most 1 landed 0.200000s",
            "0.220000s down 0 (was 1) +0 -0 cancelled press 2 from 0.200000s most 1 landed 0.200000s",
        ])
    }

    @Test func aRegionWithNoGestureBesideOneWithAGestureEndsItsSequenceWithItsLastLift() {
        // A sequence that only counts (no gesture or press handler on its path) and one that
        // tracks, side by side: each frame's contacts split between them.
        let root = Region(id: "root", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let pad = Region(id: "pad", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let plain = Region(id: "plain", frame: Rect(x: 100, y: 0, width: 100, height: 100))
        root.addChild(pad)
        root.addChild(plain)
        let probe = FrameValueProbe(reads: .all)
        pad.add(probe)
        let pipeline = GesturePipeline(layout: Layout(root: root))
        var reports: [String] = []
        pipeline.sequenceObserver = { r in
            reports.append("\(r.region ?? "-") \(r.began)-\(r.ended) fingers \(r.fingers) recognizers \(r.recognizers)")
        }
        var s = turningAndSpreading()
        s.up(1, at: .milliseconds(50))
        s.up(2, at: .milliseconds(50))
        s.down(11, at: .zero, x: 150, y: 50)
        s.down(12, at: .milliseconds(10), x: 160, y: 50)
        s.down(13, at: .milliseconds(20), x: 170, y: 50)
        s.move(11, at: .milliseconds(30), x: 151, y: 51)
        s.up(12, at: .milliseconds(30))
        s.up(11, at: .milliseconds(40))
        s.up(13, at: .milliseconds(45))
        ManualClock(pipeline: pipeline).play(s.frames)
        #expect(probe.log == [
            "0.000000s rotation 0.00 spread ×1.000",
            "0.010000s rotation 10.00 spread ×1.100",
            "0.020000s rotation 10.00 spread ×1.100",
            "0.030000s rotation 10.00 spread ×1.100",
            "0.040000s rotation 10.00 spread ×1.100",
            "0.045000s rotation 0.00 spread ×1.000",  // the other sequence's last lift: no motion here
            "0.050000s rotation 0.00 spread ×1.000",
        ])
        #expect(reports == [
            "plain 0.000000s-0.045000s fingers 3 recognizers 0",
            "pad 0.000000s-0.050000s fingers 2 recognizers 1",
        ])
    }
}
