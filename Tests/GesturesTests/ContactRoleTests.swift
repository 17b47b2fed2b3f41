import GestureTesting
import Gestures
import Logging
import Testing
import TouchEvents

/// The contact filter keeps one role per contact, as libinput's palm and thumb code does: each
/// change of role is logged at debug level with its numbers, and told to whoever listens
/// (`replay --explain`, the live view) with a ``LeftOutReason``.
@Suite("The contact filter's roles")
struct ContactRoleTests {
    static let touchpad = TouchPolicy.touchpad.resolved(pressureRange: 0...255, surfaceHeight: 100)

    /// Plays `script` on a touchpad with one tap, logging at debug level; returns the filter's
    /// log lines (`contact …`) and every contact left out, as the observer heard them.
    func play(_ script: TouchScript) -> (log: [String], leftOut: [String], pipeline: GesturePipeline) {
        let capture = LogRecorder(level: .debug)
        var logger = Logger(label: "test") { _ in capture }
        logger.logLevel = .debug
        let pipeline = GesturePipeline(layout: layout { $0.add(TapRecognizer()) }, policy: Self.touchpad, logger: logger)
        var leftOut: [String] = []
        pipeline.leftOutObserver = { contact, reason, why, time in
            leftOut.append("\((time - .zero).inMicroseconds / 1000)ms contact \(contact): \(reason) (\(why))")
        }
        ManualClock(pipeline: pipeline).play(script.frames)
        return (capture.lines.filter { $0.hasPrefix("debug contact ") }, leftOut, pipeline)
    }

    /// A finger that comes to press like a palm: finger → palm, with the pressure it pressed.
    @Test func aFingerPressingLikeAPalmIsLoggedAndTold() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 30, pressure: 60)
        s.move(1, at: .milliseconds(20), x: 20, y: 30, pressure: 180)
        s.up(1, at: .milliseconds(80))
        let (log, leftOut, _) = play(s)
        #expect(log == ["debug contact 1: finger → palm (pressure 180 ≥ 128)"])
        #expect(leftOut == ["20ms contact 1: palm (pressure 180 ≥ 128)"])
    }

    /// A palm, a contact landing beside it (a fragment), and a finger far away: the fragment is
    /// a palm because of where it landed; the finger is never left out.
    @Test func aContactLandingBesideAPalmIsOne() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 50, pressure: 200)
        s.down(2, at: .milliseconds(20), x: 40, y: 55, pressure: 40)
        s.up(2, at: .milliseconds(60))
        s.down(3, at: .milliseconds(200), x: 90, y: 20, pressure: 50)
        s.up(3, at: .milliseconds(260))
        s.up(1, at: .milliseconds(400))
        let (log, leftOut, _) = play(s)
        #expect(log == [
            "debug contact 1: new → palm (pressure 200 ≥ 128)",
            "debug contact 2: new → palm (landed beside palm 1)",
        ])
        #expect(leftOut == [
            "0ms contact 1: palm (pressure 200 ≥ 128)",
            "20ms contact 2: palm (landed beside palm 1)",
        ])
    }

    /// Two fingers land together beside a resting palm and scroll (link palm_scroll.lower.left.up:
    /// the palm presses 141 of 255; the fingers land 21 mm across and 10 mm apart, one 40 mm
    /// from the palm, and go 45 mm up). The one near the palm is no piece of it: another finger
    /// lands, or is down already, within a scroll's reach of it
    /// (``GestureDefaults/withinScrollReach(_:_:)``: ChromiumOS's finger pointing because it is
    /// close to another, libinput's two touches that scroll together), and the stroke is a pan
    /// of two from the start. With the other finger 40 mm across, the same contact is a piece
    /// of the palm until it points 8 mm away; and so it is beside another landing near the palm
    /// too.
    @Test func aContactLandingNearAPalmBesideAFingerIsAFinger() {
        func script(otherAt x: Double, otherLandsAt landing: Double = 100) -> TouchScript {
            var s = TouchScript()
            s.down(1, at: .zero, x: 20, y: 50, pressure: 200)              // the palm
            s.down(2, at: .milliseconds(landing), x: x, y: 50, pressure: 50)
            s.down(3, at: .milliseconds(100), x: 60, y: 62, pressure: 50) // 42 mm from the palm
            for step in 1...30 {
                let t = Duration.milliseconds(100 + Double(step) * 10)
                s.move(2, at: t, x: x, y: 50 - Double(step), pressure: 50)
                s.move(3, at: t, x: 60, y: 62 - Double(step), pressure: 50)
            }
            s.up(2, at: .milliseconds(410))
            s.up(3, at: .milliseconds(410))
            s.up(1, at: .milliseconds(500))
            return s
        }
        #expect(play(script(otherAt: 80)).log == ["debug contact 1: new → palm (pressure 200 ≥ 128)"])
        // The finger down already, since 50 ms: it vouches as well.
        #expect(play(script(otherAt: 80, otherLandsAt: 50)).log == ["debug contact 1: new → palm (pressure 200 ≥ 128)"])
        #expect(play(script(otherAt: 100)).log == [
            "debug contact 1: new → palm (pressure 200 ≥ 128)",
            "debug contact 3: new → palm (landed beside palm 1)",
            "debug contact 3: palm → finger (pointed 8.0 mm away from palm 1)",
        ])
        // Both landing near the palm: two pieces of it breaking off together vouch for nothing.
        #expect(play(script(otherAt: 45)).log == [
            "debug contact 1: new → palm (pressure 200 ≥ 128)",
            "debug contact 2: new → palm (landed beside palm 1)",
            "debug contact 3: new → palm (landed beside palm 1)",
            "debug contact 2: palm → finger (pointed 8.0 mm away from palm 1)",
            "debug contact 3: palm → finger (pointed 8.0 mm away from palm 1)",
        ])
        let pan = { layout { $0.add(PanRecognizer(minimumTouches: 1, maximumTouches: 3)) } }
        #expect(run(pan(), script(otherAt: 80), policy: Self.touchpad).filter { !$0.contains("changed") } == [
            "200.0ms pan began pad touches=2 at 70.0,46.0 d=0.0,-10.0",
            "410.0ms pan ended pad touches=2 at 70.0,26.0 d=0.0,-30.0",
        ])
    }

    /// A thumb resting in the thumb area, then leaving it: new → thumb, thumb → finger; while
    /// it rests, the pipeline says why it is left out (``LeftOutReason/thumb``), and once it is
    /// a finger, nothing.
    @Test func aThumbLeavingTheAreaBecomesAFinger() {
        #expect(Self.touchpad.thumbLine == 88)
        var s = TouchScript()
        s.down(1, at: .zero, x: 40, y: 95)
        s.move(1, at: .milliseconds(20), x: 40, y: 95)
        #expect(play(s).pipeline.leftOutReason(contact: 1) == .thumb)
        s.move(1, at: .milliseconds(40), x: 40, y: 80)
        s.move(1, at: .milliseconds(60), x: 40, y: 70)
        let (log, leftOut, pipeline) = play(s)
        #expect(log == [
            "debug contact 1: new → thumb (landed in the thumb area)",
            "debug contact 1: thumb → finger (left the thumb area)",
        ])
        #expect(leftOut == ["0ms contact 1: thumb (landed in the thumb area)"])
        #expect(pipeline.leftOutReason(contact: 1) == nil)
    }

    /// A fingertip tapping alone in the thumb area: new → thumb as it lands, thumb → finger as
    /// it lifts 100 ms later, with why; it taps.
    @Test func aThumbTappingAloneIsLoggedAsItLifts() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 40, y: 95, pressure: 20)
        s.move(1, at: .milliseconds(50), x: 40, y: 95, pressure: 56)
        s.move(1, at: .milliseconds(90), x: 40, y: 95, pressure: 30)
        s.up(1, at: .milliseconds(100))
        let (log, leftOut, _) = play(s)
        #expect(log == [
            "debug contact 1: new → thumb (landed in the thumb area)",
            "debug contact 1: thumb → finger (lifted alone 100.0 ms after landing in the thumb area: it may tap)",
        ])
        #expect(leftOut == ["0ms contact 1: thumb (landed in the thumb area)"])
    }

    /// A policy that can leave nothing out is known when it is set (the filter then skips its
    /// checks): a palm pressure given to the pipeline while it runs is used from the next frame,
    /// and taken away again, nothing more is left out.
    @Test func aPalmPressureSetWhileRunningIsUsedFromTheNextFrame() {
        var policy = TouchPolicy.touchscreen
        policy.palmPressure = nil
        policy.palmSize = nil
        policy.hoverPressure = nil
        policy.touchSizeRange = nil
        policy.restingFingerTime = nil
        #expect(policy.thumbLine == nil)
        let pipeline = GesturePipeline(layout: layout { $0.add(TapRecognizer()) }, policy: policy)
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 30, pressure: 200)
        s.up(1, at: .milliseconds(40))
        s.down(2, at: .milliseconds(300), x: 20, y: 30, pressure: 200)
        s.up(2, at: .milliseconds(340))
        s.down(3, at: .milliseconds(600), x: 20, y: 30, pressure: 200)
        let frames = s.frames
        #expect(frames.count == 5)
        pipeline.process(frames[0])
        #expect(pipeline.leftOutReason(contact: 1) == nil)
        pipeline.process(frames[1])
        pipeline.policy.palmPressure = 128
        pipeline.process(frames[2])
        #expect(pipeline.leftOutReason(contact: 2) == .palm)
        pipeline.process(frames[3])
        pipeline.policy.palmPressure = nil
        pipeline.process(frames[4])
        #expect(pipeline.leftOutReason(contact: 3) == nil)
    }

    /// A contact landing still beside two fingers that have been scrolling is a resting finger
    /// (``LeftOutReason/resting``, no longer called a thumb), until it moves away.
    @Test func aContactLandingBesideAScrollRests() {
        let (log, leftOut, pipeline) = play(scrollBesideAThirdContact(steps: 45, thirdMoves: false))
        #expect(log == ["debug contact 3: new → resting (landed beside fingers that have been scrolling)"])
        #expect(leftOut == ["400ms contact 3: resting (landed beside fingers that have been scrolling)"])
        #expect(pipeline.leftOutReason(contact: 3) == .resting)
        #expect(pipeline.leftOutReason(contact: 1) == nil)
    }
}
