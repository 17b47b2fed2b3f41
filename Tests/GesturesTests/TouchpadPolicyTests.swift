import Foundation
import GestureProtocol
import GestureTesting
import Gestures
import Logging
import Testing
import TouchEvents

/// A touchpad is read with libinput's conventions, a touchscreen with UIKit's (TouchPolicy):
/// each rule, both ways, on the same touches.
@Suite("Touchpad and touchscreen policies")
struct TouchpadPolicyTests {
    static let touchpad = TouchPolicy.touchpad.resolved(pressureRange: 0...255, surfaceHeight: 100)

    /// A layout with one pan of one to three fingers.
    func pan() -> Layout { layout { $0.add(PanRecognizer(minimumTouches: 1, maximumTouches: 3)) } }

    @Test func aClickEndsRecognitionOnATouchpadOnly() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 30)
        s.button(down: true, at: .milliseconds(30))
        s.button(down: false, at: .milliseconds(60))
        s.up(1, at: .milliseconds(80))
        let l = layout { $0.add(TapRecognizer()); $0.add(LongPressRecognizer()) }
        #expect(run(l, s, policy: .touchscreen) == ["80.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0"])
        #expect(run(l, s, policy: Self.touchpad) == [])
        let tap = l.root.recognizers[0]
        #expect(tap.failureReason == "a physical button was pressed: a click, not a gesture")
    }

    /// On a pad whose size is only assumed (no resolution, none given), a wobbly tap of 3.2 mm
    /// taps: the pad may be 30% smaller than assumed, so a press may move 1.43 times as far
    /// (4.3 mm). Where the size is known, 3 mm is the slop; a press of 4.5 mm taps on neither.
    @Test func aTapMayWobbleMoreOnASurfaceWhoseSizeIsAssumed() {
        func wobble(_ millimetres: Double) -> TouchScript {
            var s = TouchScript()
            // Its first report settles where it landed; then it rolls.
            s.down(1, at: .zero, x: 20, y: 30, pressure: 40)
            s.move(1, at: .milliseconds(10), x: 20, y: 30, pressure: 50)
            s.move(1, at: .milliseconds(30), x: 20 + millimetres / 2, y: 30, pressure: 50)
            s.move(1, at: .milliseconds(50), x: 20 + millimetres, y: 30, pressure: 50)
            s.move(1, at: .milliseconds(60), x: 20 + millimetres, y: 30, pressure: 20)
            s.up(1, at: .milliseconds(80))
            return s
        }
        let assumed = TouchPolicy.touchpad.resolved(pressureRange: 0...255, surfaceHeight: 50, sizeAssumed: true)
        #expect(assumed.movementAllowance == 1 / 0.7)
        let tap = { layout { $0.add(TapRecognizer()); $0.add(LongPressRecognizer()) } }
        #expect(run(tap(), wobble(3.2), policy: assumed) == ["80.0ms tap recognized pad touches=1 taps=1 at 23.2,30.0"])
        let known = tap()
        #expect(run(known, wobble(3.2), policy: Self.touchpad) == [])
        #expect(known.root.recognizers[0].failureReason == "moved 3.2 mm > 3.0 mm allowed")
        let far = tap()
        #expect(run(far, wobble(4.5), policy: assumed) == [])
        #expect(far.root.recognizers[0].failureReason == "moved 4.5 mm > 4.3 mm allowed")
    }

    /// A palm touching the pad's edge during a two-finger scroll, 400 ms in, and staying still:
    /// not one of the scroll's fingers — the pan of two goes on (it would end and a pan of three
    /// begin). A third finger landing as late that moves with the others joins them once it
    /// has moved 2 mm.
    @Test func aContactLandingStillBesideAScrollIsNotOneOfItsFingers() {
        func scroll(thirdMoves: Bool) -> TouchScript {
            var s = scrollBesideAThirdContact(steps: 60, thirdMoves: thirdMoves)
            for finger in 1...3 { s.up(finger, at: .milliseconds(610)) }
            return s
        }
        let l = { layout { $0.add(PanRecognizer(minimumTouches: 1, maximumTouches: 3)) } }
        #expect(run(l(), scroll(thirdMoves: false), policy: Self.touchpad).filter { !$0.contains(" changed ") } == [
            "120.0ms pan began pad touches=2 at 50.0,36.0 d=0.0,6.0",
            "610.0ms pan ended pad touches=2 at 50.0,60.0 d=0.0,30.0",
        ])
        #expect(run(l(), scroll(thirdMoves: true), policy: Self.touchpad).filter { !$0.contains(" changed ") } == [
            "120.0ms pan began pad touches=2 at 50.0,36.0 d=0.0,6.0",
            "450.0ms pan ended pad touches=2 at 34.7,52.5 d=0.0,22.5",
            "560.0ms pan began pad touches=3 at 34.7,58.0 d=0.0,6.0",
            "610.0ms pan ended pad touches=3 at 34.7,60.0 d=0.0,8.0",
        ])
    }

    @Test func aTouchpadHoldBeginsWhileHeldAndGivesWayToMotion() {
        var still = TouchScript()
        still.down(1, at: .zero, x: 20, y: 30)
        still.up(1, at: .milliseconds(700))
        let l = { layout { $0.add(LongPressRecognizer()); $0.add(PanRecognizer()) } }
        #expect(run(l(), still, policy: Self.touchpad) == [
            "500.0ms long-press began pad touches=1 at 20.0,30.0",
            "700.0ms long-press ended pad touches=1 at 20.0,30.0",
        ])
        // Rest 600 ms, then drag: the hold gives way (cancelled once the finger moved more than
        // 3 mm) and the drag is the pan's, from the rest on, with no second rest.
        var restThenMove = TouchScript()
        restThenMove.down(1, at: .zero, x: 20, y: 30)
        for step in 1...4 { restThenMove.move(1, at: .milliseconds(600 + Double(step) * 20), x: 20 + Double(step) * 5, y: 30) }
        restThenMove.up(1, at: .milliseconds(700))
        #expect(run(l(), restThenMove, policy: Self.touchpad) == [
            "500.0ms long-press began pad touches=1 at 20.0,30.0",
            "620.0ms long-press cancelled pad touches=1 at 25.0,30.0",
            "640.0ms pan began pad touches=1 at 30.0,30.0 d=10.0,0.0",
            "660.0ms pan changed pad touches=1 at 35.0,30.0 d=15.0,0.0",
            "680.0ms pan changed pad touches=1 at 40.0,30.0 d=20.0,0.0",
            "700.0ms pan ended pad touches=1 at 40.0,30.0 d=20.0,0.0",
        ])
        // On a touchscreen the press began at 500 ms and owns the touches: the drag that
        // follows is the long press's, as UIKit has it.
        #expect(run(l(), restThenMove, policy: .touchscreen) == [
            "500.0ms long-press began pad touches=1 at 20.0,30.0",
            "620.0ms long-press changed pad touches=1 at 25.0,30.0",
            "640.0ms long-press changed pad touches=1 at 30.0,30.0",
            "660.0ms long-press changed pad touches=1 at 35.0,30.0",
            "680.0ms long-press changed pad touches=1 at 40.0,30.0",
            "700.0ms long-press ended pad touches=1 at 40.0,30.0",
        ])
    }

    @Test func aThreeFingerTouchpadHoldSaysThreeFingersFromBeganToTheLift() {
        // Three fingers land 30 ms apart, hold still, and lift one by one after a second.
        var s = TouchScript()
        for finger in 1...3 { s.down(finger, at: .milliseconds(Double(finger - 1) * 30), x: 20 + Double(finger) * 15, y: 30) }
        for finger in 1...3 { s.up(finger, at: .milliseconds(1_060 + Double(finger - 1) * 20)) }
        let l = layout { r in
            for touches in 1...4 { r.add(LongPressRecognizer(touches: touches)) }
            r.add(PanRecognizer(minimumTouches: 1, maximumTouches: 4))
        }
        #expect(run(l, s, policy: Self.touchpad) == [
            "560.0ms long-press began pad touches=3 at 50.0,30.0",
            "1100.0ms long-press ended pad touches=3 at 65.0,30.0",
        ])
    }

    @Test func aTouchpadHoldEndsCancelledWhenAFingerJoinsOrTheFingersClick() {
        let l = { layout { $0.add(LongPressRecognizer()); $0.add(LongPressRecognizer(touches: 2)) } }
        // Held 600 ms, then a second finger lands: the one-finger hold is over, and the two
        // fingers hold again from there.
        var joined = TouchScript()
        joined.down(1, at: .zero, x: 20, y: 30)
        joined.down(2, at: .milliseconds(600), x: 40, y: 30)
        joined.up(1, at: .milliseconds(1_200))
        joined.up(2, at: .milliseconds(1_200))
        #expect(run(l(), joined, policy: Self.touchpad) == [
            "500.0ms long-press began pad touches=1 at 20.0,30.0",
            "600.0ms long-press cancelled pad touches=1 at 30.0,30.0",
            "1100.0ms long-press began pad touches=2 at 30.0,30.0",
            "1200.0ms long-press ended pad touches=2 at 30.0,30.0",
        ])
        // Held 600 ms, then pressed to click: a click, and the hold ends cancelled.
        var clicked = TouchScript()
        clicked.down(1, at: .zero, x: 20, y: 30)
        clicked.button(down: true, at: .milliseconds(600))
        clicked.button(down: false, at: .milliseconds(680))
        clicked.up(1, at: .milliseconds(700))
        #expect(run(l(), clicked, policy: Self.touchpad) == [
            "500.0ms long-press began pad touches=1 at 20.0,30.0",
            "600.0ms long-press cancelled pad touches=1 at 20.0,30.0",
        ])
    }

    @Test func fingersLandingApartStartOnePanOfAllOfThemOnATouchpad() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 30)
        s.down(2, at: .milliseconds(60), x: 40, y: 30)
        for step in 1...10 {
            let t = Duration.milliseconds(Double(step) * 20)
            s.move(1, at: t, x: 20, y: 30 + Double(step) * 2)
            if step >= 3 { s.move(2, at: t, x: 40, y: 30 + Double(step - 3) * 2) }
        }
        s.up(1, at: .milliseconds(220))
        s.up(2, at: .milliseconds(220))
        let pan = { layout { $0.add(PanRecognizer(minimumTouches: 1, maximumTouches: 2)) } }
        #expect(run(pan(), s, policy: .touchscreen).first == "40.0ms pan began pad touches=1 at 20.0,34.0 d=0.0,4.0")
        // Not before 100 ms after the second finger landed (at 60 ms): a pan of two.
        #expect(run(pan(), s, policy: Self.touchpad).first == "160.0ms pan began pad touches=2 at 30.0,43.0 d=0.0,16.0")
        // A quick flick lifted before 100 ms: the pan says why it never began.
        var flick = TouchScript()
        flick.drag(from: Point(x: 20, y: 30), to: Point(x: 30, y: 30), at: .zero, duration: .milliseconds(50), steps: 5)
        let quick = PanRecognizer()
        #expect(run(layout { $0.add(quick) }, flick, policy: Self.touchpad) == [])
        #expect(quick.failureReason == "lifted within 100.0 ms of a finger landing, before the finger count settled")
    }

    @Test func aContactPressingLikeAPalmCancelsWhatItWasPartOf() {
        #expect(Self.touchpad.palmPressure == 128)
        var finger = TouchScript()
        finger.down(1, at: .zero, x: 20, y: 30, pressure: 60)
        finger.up(1, at: .milliseconds(80))
        #expect(run(layout { $0.add(TapRecognizer()) }, finger, policy: Self.touchpad) == ["80.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0"])
        var palm = TouchScript()
        palm.down(1, at: .zero, x: 20, y: 30, pressure: 60)
        palm.move(1, at: .milliseconds(20), x: 20, y: 30, pressure: 180)
        palm.up(1, at: .milliseconds(80))
        let tap = TapRecognizer()
        #expect(run(layout { $0.add(tap) }, palm, policy: Self.touchpad) == [])
        #expect(tap.failureReason == "a touch was cancelled (palm, dropped events)")
        #expect(run(layout { $0.add(TapRecognizer()) }, palm, policy: .touchscreen) == ["80.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0"])
    }

    @Test func aPalmIsLeftOutAndFingersBesideItGoOn() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 50, pressure: 200)            // a palm, at once
        s.down(2, at: .milliseconds(20), x: 40, y: 55, pressure: 40)  // a fragment of it, 20 mm away
        s.up(2, at: .milliseconds(60))
        s.down(3, at: .milliseconds(200), x: 90, y: 20, pressure: 50) // a finger, 76 mm away
        s.up(3, at: .milliseconds(260))
        s.up(1, at: .milliseconds(400))
        #expect(run(layout { $0.add(TapRecognizer()) }, s, policy: Self.touchpad) == [
            "260.0ms tap recognized pad touches=1 taps=1 at 90.0,20.0",
        ])
        // A touchscreen has no palm by pressure: the palm and its fragment are two touches.
        #expect(run(layout { $0.add(TapRecognizer()) }, s, policy: .touchscreen) == [])
    }

    /// A thumb resting at the bottom of a touchpad is left out: two fingers scrolling above it are
    /// a two-finger pan. A finger that starts a stroke down there counts once it moves.
    @Test func aRestingThumbIsLeftOut() {
        #expect(Self.touchpad.thumbLine == 88)
        var s = TouchScript()
        s.down(1, at: .zero, x: 40, y: 95)  // the thumb, in the lower 12 mm
        s.down(2, at: .zero, x: 60, y: 40)
        s.down(3, at: .zero, x: 80, y: 40)
        for step in 1...10 {
            s.move(2, at: .milliseconds(100 + Double(step) * 10), x: 60, y: 40 - Double(step) * 2)
            s.move(3, at: .milliseconds(100 + Double(step) * 10), x: 80, y: 40 - Double(step) * 2)
        }
        s.up(2, at: .milliseconds(210))
        s.up(3, at: .milliseconds(210))
        s.up(1, at: .milliseconds(300))
        #expect(run(pan(), s, policy: Self.touchpad).first == "130.0ms pan began pad touches=2 at 70.0,34.0 d=0.0,-6.0")
        #expect(run(pan(), s, policy: .touchscreen).first == "130.0ms pan began pad touches=3 at 60.0,54.3 d=0.0,-4.0")
        var stroke = TouchScript()
        stroke.drag(from: Point(x: 50, y: 95), to: Point(x: 50, y: 45), at: .zero, duration: .milliseconds(200), steps: 20)
        // Alone, it counts once it is out of the area (1 mm above it), then pans after the
        // settle time.
        #expect(run(pan(), stroke, policy: Self.touchpad).first == "150.0ms pan began pad touches=1 at 50.0,57.5 d=0.0,-27.5")
    }

    /// A thumb resting alone in the thumb area may slide along it (hovering_thumb in
    /// fixtures/chromiumos: a thumb sweeps 60–100 mm along the pad's bottom edge). Alone, it
    /// counts as a finger only once it leaves the area; beside a finger that is down within a
    /// scroll's reach (35 × 25 mm), once it moves 2 mm (a finger that landed low, scrolling with
    /// another). Beside a finger farther off, it is still a thumb.
    @Test func aLoneThumbSlidingAlongTheThumbAreaIsNoPan() {
        var alone = TouchScript()
        alone.down(1, at: .zero, x: 10, y: 95)
        for step in 1...20 { alone.move(1, at: .milliseconds(Double(step) * 20), x: 10 + Double(step) * 4, y: 95) }
        alone.up(1, at: .milliseconds(500))
        #expect(run(pan(), alone, policy: Self.touchpad) == [])
        #expect(run(pan(), alone, policy: .touchscreen).first == "20.0ms pan began pad touches=1 at 14.0,95.0 d=4.0,0.0")
        var besideAFinger = alone
        besideAFinger.down(2, at: .zero, x: 30, y: 75)
        besideAFinger.up(2, at: .milliseconds(500))
        #expect(run(pan(), besideAFinger, policy: Self.touchpad).first == "140.0ms pan began pad touches=2 at 34.0,85.0 d=10.0,0.0")
        var farFromAFinger = alone
        farFromAFinger.down(2, at: .zero, x: 30, y: 65)
        farFromAFinger.up(2, at: .milliseconds(500))
        #expect(run(pan(), farFromAFinger, policy: Self.touchpad) == [])
    }

    /// A fingertip tapping alone low on the pad (issue 65, item 5: a 100 ms tap 92% of the way
    /// down, pressing 8–22%) taps, as libinput's jailed touch does: left out while it is down,
    /// it lands and lifts as it lifts, within 180 ms of landing. Resting 200 ms, beside a
    /// finger, or sliding 5 mm along the area (4 mm of it pressing), it taps nothing; nor does a long press come of
    /// it.
    @Test func aFingertipTappingAloneInTheThumbAreaTaps() {
        func script(lift: Double = 100, slide: Double = 0, beside: Bool = false) -> TouchScript {
            var s = TouchScript()
            if beside { s.down(2, at: .zero, x: 60, y: 40, pressure: 50) }
            let pressures: [Int32] = [20, 36, 51, 56, 54, 46, 36, 26]
            s.down(1, at: .zero, x: 40, y: 92, pressure: pressures[0])
            for (n, pressure) in pressures.enumerated().dropFirst() {
                let t = Double(n) * lift / Double(pressures.count)
                s.move(1, at: .milliseconds(t), x: 40 + slide * Double(n) / Double(pressures.count - 1), y: 92, pressure: pressure)
            }
            s.up(1, at: .milliseconds(lift))
            if beside { s.up(2, at: .milliseconds(lift + 10)) }
            return s
        }
        let taps = { layout { $0.add(TapRecognizer()); $0.add(LongPressRecognizer()); $0.add(PanRecognizer()) } }
        #expect(run(taps(), script(), policy: Self.touchpad) == ["100.0ms tap recognized pad touches=1 taps=1 at 40.0,92.0"])
        #expect(run(taps(), script(lift: 200), policy: Self.touchpad) == [])
        #expect(run(taps(), script(slide: 5), policy: Self.touchpad) == [])
        #expect(run(taps(), script(beside: true), policy: Self.touchpad) == ["110.0ms tap recognized pad touches=1 taps=1 at 60.0,40.0"])
    }

    /// A thumb resting in the thumb area creeps while a finger points beside it (link
    /// thumb_pointing.left: 11 mm in 3 s): it stays a thumb, and the stroke is a pan of one. The
    /// same 3 mm within 40 ms is a finger moving: the stroke becomes a pan of two. The finger
    /// points sideways, 15 mm above the thumb: within a scroll's reach of it all along.
    @Test func aThumbCreepingBesideAPointingFingerStaysAThumb() {
        func script(creepOver duration: Double) -> TouchScript {
            var s = TouchScript()
            s.down(1, at: .zero, x: 20, y: 95)
            s.down(2, at: .milliseconds(100), x: 40, y: 80)
            for step in 1...40 {
                let t = 100 + Double(step) * 20
                s.move(2, at: .milliseconds(t), x: 40 - Double(step) * 0.75, y: 80)
                let share = min(1, Double(step) * 20 / duration)
                s.move(1, at: .milliseconds(t), x: 20 + 3 * share, y: 95)
            }
            s.up(2, at: .milliseconds(1_000))
            s.up(1, at: .milliseconds(1_100))
            return s
        }
        let creeping = run(pan(), script(creepOver: 800), policy: Self.touchpad)
        #expect(creeping.filter { !$0.contains("changed") } == [
            "260.0ms pan began pad touches=1 at 34.0,80.0 d=-6.0,0.0",
            "1000.0ms pan ended pad touches=1 at 10.0,80.0 d=-30.0,0.0",
        ])
        #expect(run(pan(), script(creepOver: 40), policy: Self.touchpad).contains { $0.contains("pan began pad touches=2") })
    }

    /// A thumb that clicked the clickpad stays a thumb however hard it presses: a finger landing
    /// beside it after the click is a finger, not a piece of a palm.
    @Test func aThumbThatClickedStaysAThumb() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 40, y: 95, pressure: 70)
        s.button(down: true, at: .milliseconds(50))
        s.button(down: false, at: .milliseconds(100))
        s.move(1, at: .milliseconds(150), x: 40, y: 95, pressure: 200)
        s.down(2, at: .milliseconds(200), x: 60, y: 60, pressure: 60)
        for step in 1...10 { s.move(2, at: .milliseconds(200 + Double(step) * 20), x: 60, y: 60 - Double(step) * 2, pressure: 60) }
        s.up(2, at: .milliseconds(420))
        s.up(1, at: .milliseconds(500))
        #expect(run(pan(), s, policy: Self.touchpad).filter { !$0.contains("changed") } == [
            "300.0ms pan began pad touches=1 at 60.0,50.0 d=0.0,-10.0",
            "420.0ms pan ended pad touches=1 at 60.0,40.0 d=0.0,-20.0",
        ])
    }

    /// A resting thumb that comes to press like a palm is a palm, and as it never counted it
    /// cancels nothing: the finger pointing beside it goes on (alex palm_pointing.lower.right:
    /// the heel of the hand lands low, then presses 193 of 255 while the finger points).
    @Test func aThumbThatPressesLikeAPalmCancelsNothing() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 70, y: 95, pressure: 70)
        s.down(2, at: .milliseconds(100), x: 30, y: 40, pressure: 60)
        s.move(1, at: .milliseconds(150), x: 73, y: 95, pressure: 200)
        for step in 1...10 { s.move(2, at: .milliseconds(200 + Double(step) * 15), x: 30, y: 40 - Double(step) * 3, pressure: 60) }
        s.up(2, at: .milliseconds(350))
        s.up(1, at: .milliseconds(400))
        let log = run(pan(), s, policy: Self.touchpad)
        #expect(log.first == "230.0ms pan began pad touches=1 at 30.0,34.0 d=0.0,-6.0")
        #expect(log.last == "350.0ms pan ended pad touches=1 at 30.0,10.0 d=0.0,-30.0")
    }

    /// A thumb lands beside a finger that points, and its first report jumps 2.2 mm 14 ms later
    /// as its contact area grows (alex thumb_scroll.right.up's thumb jumps so; frames where only
    /// the finger moved come first). It settled: still a thumb, and the stroke is a one-finger
    /// pan. The same 2.2 mm 60 ms after landing is a quick move: the thumb counts as a finger
    /// from then, and the stroke is a pan of two. Alone, the same jumps are no move at all; and
    /// so they are beside a finger out of a scroll's reach (``GestureDefaults/withinScrollReach(_:_:)``,
    /// libinput's 35 × 25 mm), as link thumb_pointing.right's thumb rolls 2.3 mm in 64 ms 30 mm
    /// below and 70 mm beside the finger pointing.
    @Test func aThumbSettlingAsItLandsStaysAThumb() {
        func script(settlingAfter delay: Double, fingerDown: Bool = true, fingerFrom y: Double = 85) -> TouchScript {
            var s = TouchScript()
            if fingerDown { s.down(2, at: .zero, x: 60, y: y) }
            s.down(1, at: .milliseconds(100), x: 40, y: 93)
            for step in 1...20 {
                let t = 100 + Double(step) * 5
                if fingerDown { s.move(2, at: .milliseconds(t), x: 60, y: y - Double(step) * 1) }
                if t == 100 + delay { s.move(1, at: .milliseconds(t), x: 41.6, y: 94.5) }
            }
            if fingerDown { s.up(2, at: .milliseconds(250)) }
            s.up(1, at: .milliseconds(300))
            return s
        }
        let settling = run(pan(), script(settlingAfter: 15), policy: Self.touchpad)
        #expect(settling.first == "130.0ms pan began pad touches=1 at 60.0,79.0 d=0.0,-6.0")
        #expect(settling.last == "250.0ms pan ended pad touches=1 at 60.0,65.0 d=0.0,-20.0")
        let moving = run(pan(), script(settlingAfter: 60), policy: Self.touchpad)
        // The thumb lands as a finger at 160 ms: the finger count ends the pan of one (and the
        // finger lifts before a pan of two may begin).
        #expect(moving.filter { !$0.contains("changed") } == [
            "130.0ms pan began pad touches=1 at 60.0,79.0 d=0.0,-6.0",
            "160.0ms pan ended pad touches=1 at 50.8,83.8 d=0.0,-12.0",
        ])
        #expect(run(pan(), script(settlingAfter: 60, fingerDown: false), policy: Self.touchpad) == [])
        // The finger 40 mm and more above the thumb: out of reach, the thumb stays one.
        let far = run(pan(), script(settlingAfter: 60, fingerFrom: 53), policy: Self.touchpad)
        #expect(far.filter { !$0.contains("changed") } == [
            "130.0ms pan began pad touches=1 at 60.0,47.0 d=0.0,-6.0",
            "250.0ms pan ended pad touches=1 at 60.0,33.0 d=0.0,-20.0",
        ])
    }

    /// As a finger presses a touchpad, its contact area grows and the first report after landing
    /// jumps (the ALPS GlidePoint's single tap in fixtures/recordings: 3.4 mm in 10 ms). Where
    /// it landed is where that first report puts it, when it comes within 40 ms: the tap is a
    /// tap. The same 3.5 mm 50 ms after landing is a move, and so is a second report's. A frame
    /// where only another finger landed is no report of its own: a two-finger tap whose first
    /// finger jumps after the second landed is a tap. On a touchscreen the first report is
    /// motion.
    @Test func aTouchpadTapCountsItsMovementFromWhereItsFirstReportSettled() {
        func script(jumpAt jump: Double, firstReportAt first: Double? = nil) -> TouchScript {
            var s = TouchScript()
            s.down(1, at: .zero, x: 20, y: 30)
            if let first { s.move(1, at: .milliseconds(first), x: 20, y: 30) }
            s.move(1, at: .milliseconds(jump), x: 23.5, y: 30)
            s.move(1, at: .milliseconds(jump + 20), x: 23.8, y: 30.2)
            s.up(1, at: .milliseconds(jump + 60))
            return s
        }
        let tap = { layout { $0.add(TapRecognizer()) } }
        #expect(run(tap(), script(jumpAt: 10), policy: Self.touchpad) == [
            "70.0ms tap recognized pad touches=1 taps=1 at 23.8,30.2",
        ])
        let late = TapRecognizer()
        #expect(run(layout { $0.add(late) }, script(jumpAt: 50), policy: Self.touchpad) == [])
        #expect(late.failureReason == "moved 3.5 mm > 3.0 mm allowed")
        let second = TapRecognizer()
        #expect(run(layout { $0.add(second) }, script(jumpAt: 20, firstReportAt: 10), policy: Self.touchpad) == [])
        #expect(second.failureReason == "moved 3.5 mm > 3.0 mm allowed")
        let screen = TapRecognizer()
        #expect(run(layout { $0.add(screen) }, script(jumpAt: 10), policy: .touchscreen) == [])
        #expect(screen.failureReason == "moved 3.5 mm > 3.0 mm allowed")
        var two = TouchScript()
        two.down(1, at: .zero, x: 20, y: 30)
        two.down(2, at: .milliseconds(5), x: 40, y: 30)  // finger 1 stationary in this frame
        two.move(1, at: .milliseconds(10), x: 23.5, y: 30)
        two.up(1, at: .milliseconds(70))
        two.up(2, at: .milliseconds(70))
        #expect(run(layout { $0.add(TapRecognizer(touches: 2)) }, two, policy: Self.touchpad) == [
            "70.0ms tap recognized pad touches=2 taps=1 at 31.8,30.0",
        ])
    }

    /// A thumb rests at the bottom while a finger points; the finger lifts, and the thumb creeps
    /// out of the thumb area just before it lifts. Counted from then, it would be a 40 ms tap; it
    /// has been down for a second: no tap, no long press (fixtures/chromiumos thumb_pointing).
    /// Creeping along the area, alone, it never counts at all.
    @Test func aThumbThatCreptOutOfItsRestTapsNothing() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 40, y: 95)  // the thumb, in the lower 12 mm
        s.drag(from: Point(x: 60, y: 40), to: Point(x: 60, y: 20), at: .milliseconds(200), duration: .milliseconds(200), steps: 10)
        s.move(1, at: .milliseconds(1_000), x: 40, y: 88.5)
        s.move(1, at: .milliseconds(1_100), x: 40, y: 86.5)
        s.up(1, at: .milliseconds(1_140))
        let l = layout { $0.add(TapRecognizer()); $0.add(LongPressRecognizer()); $0.add(PanRecognizer()) }
        #expect(run(l, s, policy: Self.touchpad) == [
            "300.0ms pan began pad touches=1 at 60.0,30.0 d=0.0,-10.0",
            "320.0ms pan changed pad touches=1 at 60.0,28.0 d=0.0,-12.0",
            "340.0ms pan changed pad touches=1 at 60.0,26.0 d=0.0,-14.0",
            "360.0ms pan changed pad touches=1 at 60.0,24.0 d=0.0,-16.0",
            "380.0ms pan changed pad touches=1 at 60.0,22.0 d=0.0,-18.0",
            "400.0ms pan ended pad touches=1 at 60.0,20.0 d=0.0,-20.0",
        ])
        let tap = l.root.recognizers[0]
        #expect(tap.failureReason == "a contact had rested 1100.0 ms, left out (a thumb, a palm, a hover), before it counted: it taps and holds nothing")
        // Still for 700 ms after it crept, it is no long press either.
        var held = TouchScript()
        held.down(1, at: .zero, x: 40, y: 95)
        held.move(1, at: .milliseconds(1_100), x: 40, y: 86.5)
        held.up(1, at: .milliseconds(1_800))
        let l2 = layout { $0.add(LongPressRecognizer()) }
        #expect(run(l2, held, policy: Self.touchpad) == [])
        #expect(l2.root.recognizers[0].failureReason?.hasPrefix("a contact had rested 1100.0 ms") == true)
        // Creeping 2.2 mm along the thumb area, it stays a thumb: left out, so a finger tapping
        // meanwhile taps with one finger, not two, and the thumb's own lift taps nothing.
        var along = TouchScript()
        along.down(1, at: .zero, x: 40, y: 95)
        along.tap(at: .milliseconds(500), x: 40, y: 40)
        along.move(1, at: .milliseconds(1_100), x: 42.2, y: 95)
        along.up(1, at: .milliseconds(1_140))
        let l3 = layout { $0.add(TapRecognizer()) }
        #expect(run(l3, along, policy: Self.touchpad) == ["580.0ms tap recognized pad touches=1 taps=1 at 40.0,40.0"])
    }

    /// A firmware swaps tracking ids: the id of a touch resting 400 ms jumps 60 mm to a finger
    /// landing, and the resting touch goes on under a new id 12 ms later, 0.4 mm from where it
    /// was (link palm_scroll.upper.left.up, a Cypress pad). The jump is a landing, and the new id
    /// is the touch that rested: it rests while the two fingers scroll, and the stroke is a pan
    /// of two. Jumping 15 mm, the id is the same finger moving fast, and the new contact is a
    /// third finger landing; so it is landing after the bounce window, or 6 mm away.
    @Test func aTouchWhoseIdJumpedAwayRestsUnderItsNewId() {
        func script(jump: Double, newIdAfter delay: Double = 12, newIdAway offset: Double = 0.4) -> TouchScript {
            var s = TouchScript()
            s.down(1, at: .zero, x: 40, y: 20, pressure: 60)
            for step in 1...39 { s.move(1, at: .milliseconds(Double(step) * 10), x: 40, y: 20, pressure: 60) }
            s.move(1, at: .milliseconds(400), x: 40 + jump * 0.8, y: 20 + jump * 0.6, pressure: 60)
            s.down(2, at: .milliseconds(400 + delay), x: 40 + offset * 0.8, y: 20 + offset * 0.6, pressure: 60)
            s.down(3, at: .milliseconds(412), x: 65, y: 60, pressure: 60)
            for step in 1...20 {
                let t = Duration.milliseconds(412 + Double(step) * 10)
                s.move(1, at: t, x: 40 + jump * 0.8, y: 20 + jump * 0.6 - Double(step) * 2, pressure: 60)
                s.move(3, at: t, x: 65, y: 60 - Double(step) * 2, pressure: 60)
            }
            for id in 1...3 { s.up(id, at: .milliseconds(700)) }
            return s
        }
        let filtered = { (s: TouchScript) in run(self.pan(), s, policy: Self.touchpad).filter { !$0.contains("changed") } }
        #expect(filtered(script(jump: 60)) == [
            "512.0ms pan began pad touches=2 at 76.5,38.0 d=0.0,-19.3",
            "700.0ms pan ended pad touches=2 at 76.5,18.0 d=0.0,-39.3",
        ])
        let three = [
            "512.0ms pan began pad touches=3 at 52.4,23.1 d=0.0,-13.3",
            "700.0ms pan ended pad touches=3 at 52.4,9.7 d=0.0,-26.7",
        ]
        #expect(filtered(script(jump: 15)) == three)
        // The new id landing after the bounce window (50 ms), or 6 mm from where the jump left:
        // a third finger.
        #expect(filtered(script(jump: 60, newIdAfter: 60)).first?.contains("touches=3") == true)
        #expect(filtered(script(jump: 60, newIdAway: 6)).first?.contains("touches=3") == true)
    }

    /// A finger rests while two others scroll beside it (left out), and after they lift it moves
    /// 2.5 mm and lifts: it was down 850 ms, no tap.
    @Test func aRestingFingerThatMovesLaterTapsNothing() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 40)
        s.down(2, at: .milliseconds(400), x: 50, y: 40)
        s.down(3, at: .milliseconds(400), x: 70, y: 40)
        for step in 1...10 {
            s.move(2, at: .milliseconds(500 + Double(step) * 10), x: 50, y: 40 - Double(step) * 2)
            s.move(3, at: .milliseconds(500 + Double(step) * 10), x: 70, y: 40 - Double(step) * 2)
        }
        s.up(2, at: .milliseconds(620))
        s.up(3, at: .milliseconds(620))
        s.move(1, at: .milliseconds(800), x: 22.5, y: 40)
        s.up(1, at: .milliseconds(850))
        let l = layout { $0.add(TapRecognizer()); $0.add(PanRecognizer(minimumTouches: 1, maximumTouches: 3)) }
        let log = run(l, s, policy: Self.touchpad)
        #expect(log.first == "540.0ms pan began pad touches=2 at 60.0,32.0 d=0.0,-7.3")
        #expect(!log.contains { $0.contains("tap") }, "\(log)")
        #expect(l.root.recognizers[0].failureReason?.hasPrefix("a contact had rested 8") == true, "\(l.root.recognizers[0].failureReason ?? "-")")
    }

    /// Every event carries the gesture's fingers; the fingers down now go apart when they differ.
    @Test func aTwoFingerLongPressEndsAsTwoFingers() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 30)
        s.down(2, at: .zero, x: 40, y: 30)
        s.up(2, at: .milliseconds(600))
        s.up(1, at: .milliseconds(620))
        let pipeline = GesturePipeline(layout: layout { $0.add(LongPressRecognizer(touches: 2)) })
        let recorder = GestureRecorder(pipeline)
        ManualClock(pipeline: pipeline).play(s.frames)
        pipeline.finish()
        #expect(recorder.gestures.map { "\($0.state) \($0.touches) \($0.currentTouches.map(String.init) ?? "-")" } == [
            "began 2 -", "changed 2 1", "ended 2 1",
        ])
        #expect(recorder.gestures.last?.jsonLine(origin: .zero).contains("\"touches\": 2, \"current_touches\": 1,") == true)
    }

    /// Two fingers dragged side by side wobble: their angle changes more than 8° while they
    /// move far together. That is a pan, not a rotation beside it.
    @Test func aWobblingDragIsNoRotation() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 90, y: 20)
        s.down(2, at: .zero, x: 110, y: 20)
        for step in 1...10 {
            let wobble = (step % 2 == 0 ? 1.0 : -1.0) * Double(step) * 0.3  // up to ±3 mm
            s.move(1, at: .milliseconds(Double(step) * 10), x: 90, y: 20 + Double(step) * 5 + wobble)
            s.move(2, at: .milliseconds(Double(step) * 10), x: 110, y: 20 + Double(step) * 5 - wobble)
        }
        s.up(1, at: .milliseconds(120))
        s.up(2, at: .milliseconds(120))
        let l = layout { r in
            r.onPan { _ in }
            r.onRotate { _ in }
            r.onPinch { _ in }
            for recognizer in r.recognizers { recognizer.simultaneousKinds = [.pan, .rotate, .pinch] }
        }
        let log = run(l, s)
        #expect(log.first == "10.0ms pan began pad touches=2 at 100.0,25.0 d=0.0,5.0")
        #expect(!log.contains { $0.contains("rotate") || $0.contains("pinch") })
        #expect(log.last == "120.0ms pan ended pad touches=2 at 100.0,70.0 d=0.0,50.0")
    }

    /// On a touchpad a stroke is a translation or a transform, decided once.
    @Test func theTouchpadLayoutNeverPansAndPinchesAtOnce() {
        let pad = Layout.standard(size: (100, 60), touchscreen: false).root.recognizers
        let pan = pad.first { $0.kind == .pan }!
        let pinch = pad.first { $0.kind == .pinch }!
        #expect(pan.simultaneousKinds == [.swipe] && pinch.simultaneousKinds == [.rotate])
        let screen = Layout.standard(size: (100, 60), touchscreen: true).root.recognizers.first { $0.kind == .pan }!
        #expect(screen.simultaneousKinds == [.swipe, .pinch, .rotate])
    }

    /// A tap slides as the finger rolls off (alex `click-any_angle_click.tap`'s ninth tap): its
    /// last report presses 38 of a peak of 88 and is 1.1 mm on. Pressing less than half its
    /// peak, the contact is lifting, and that slide is no movement of the tap's: 2.3 mm, a
    /// tap. Pressing as hard as it did, the same slide is 3.4 mm: no tap.
    @Test func aTapsSlideAsItLiftsIsNoMovement() {
        func tap(lastPressure: Int32) -> TouchScript {
            var s = TouchScript()
            s.down(1, at: .zero, x: 20, y: 30, pressure: 47)
            s.move(1, at: .milliseconds(14), x: 20, y: 30, pressure: 74)
            s.move(1, at: .milliseconds(30), x: 20, y: 30, pressure: 88)
            s.move(1, at: .milliseconds(44), x: 19.2, y: 30, pressure: 83)
            s.move(1, at: .milliseconds(59), x: 17.7, y: 30, pressure: 73)
            s.move(1, at: .milliseconds(73), x: 16.6, y: 30, pressure: lastPressure)
            s.up(1, at: .milliseconds(88))
            return s
        }
        let l = { layout { $0.add(TapRecognizer()) } }
        #expect(run(l(), tap(lastPressure: 38), policy: Self.touchpad) == ["88.0ms tap recognized pad touches=1 taps=1 at 16.6,30.0"])
        let pressing = l()
        #expect(run(pressing, tap(lastPressure: 80), policy: Self.touchpad) == [])
        #expect(pressing.root.recognizers[0].failureReason == "moved 3.4 mm > 3.0 mm allowed")
        #expect(run(l(), tap(lastPressure: 38), policy: .touchscreen) == [])
    }

    /// One finger on a touchpad is the pointer (issue 65, item 1): a quick stroke, 20 mm in
    /// 150 ms at 133 mm/s, then resting, is a pan of one in the built-in touchpad layout, never
    /// a swipe — libinput and the ChromiumOS gestures library have no one-finger swipe. On a
    /// touchscreen the same stroke is a swipe.
    @Test func oneFingerOnATouchpadIsThePointerNotASwipe() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 30, y: 30, pressure: 60)
        for step in 1...15 { s.move(1, at: .milliseconds(Double(step) * 10), x: 30 + Double(step) * 20 / 15, y: 30, pressure: 60) }
        s.up(1, at: .milliseconds(450))
        let pad = Layout.standard(size: (100, 60), touchscreen: false)
        #expect(!pad.root.recognizers.contains { ($0 as? SwipeRecognizer)?.touches == 1 })
        #expect(run(pad, s, policy: Self.touchpad).filter { !$0.contains(" changed ") } == [
            "100.0ms pan began root touches=1 at 43.3,30.0 d=13.3,0.0",
            "450.0ms pan ended root touches=1 at 50.0,30.0 d=20.0,0.0",
        ])
        let screen = run(Layout.standard(size: (100, 60), touchscreen: true), s, policy: .touchscreen)
        #expect(screen.contains { $0.contains("swipe recognized root touches=1") })
    }

    /// One finger rests while another moves round it: the pair turns about their centroid about
    /// as far as the motion moves them. On a touchpad, where a finger often rests while another
    /// scrolls, that is a two-finger pan; on a touchscreen it is a rotation.
    @Test func aFingerMovingRoundARestingOneIsNoRotationOnATouchpad() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 30, y: 40)
        s.down(2, at: .milliseconds(300), x: 60, y: 40)
        for step in 1...10 {
            let angle = Double(step) * 9 * .pi / 180  // a quarter turn about finger 1, 30 mm away
            s.move(2, at: .milliseconds(300 + Double(step) * 20), x: 30 + 30 * cos(angle), y: 40 - 30 * sin(angle))
        }
        s.up(2, at: .milliseconds(520))
        s.up(1, at: .milliseconds(540))
        let l = {
            layout { r in
                r.onPan { _ in }
                r.onRotate { _ in }
                for recognizer in r.recognizers { recognizer.simultaneousKinds = [.pan, .rotate] }
            }
        }
        let pad = run(l(), s, policy: Self.touchpad)
        #expect(pad.first == "400.0ms pan began pad touches=2 at 40.6,29.4 d=-4.4,-10.6")
        #expect(!pad.contains { $0.contains("rotate") })
        #expect(run(l(), s, policy: .touchscreen).contains { $0.contains("rotate began") })
    }

    /// Two contacts that trade places in a frame — a firmware swapping its tracking of two
    /// pieces of a palm — turned half a circle about their centroid at once: on a touchpad that
    /// is a jump of both, no rotation. On a touchscreen it is one.
    @Test func twoContactsTradingPlacesIsNoRotationOnATouchpad() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 40, y: 50)
        s.down(2, at: .zero, x: 52, y: 50)
        for step in 1...9 {
            s.move(1, at: .milliseconds(Double(step) * 20), x: 40, y: 50)
            s.move(2, at: .milliseconds(Double(step) * 20), x: 52, y: 50)
        }
        s.move(1, at: .milliseconds(200), x: 51.5, y: 50.5)
        s.move(2, at: .milliseconds(200), x: 40.5, y: 49.5)
        s.up(1, at: .milliseconds(300))
        s.up(2, at: .milliseconds(300))
        let l = { layout { $0.onRotate { _ in } } }
        #expect(run(l(), s, policy: Self.touchpad) == [])
        #expect(run(l(), s, policy: .touchscreen).contains { $0.contains("rotate began") })
    }

    /// A thumb that leaves its rest has moved from where it rested. A thumb creeps up out of the
    /// thumb area, then turns a little about a palm that jitters 2 mm: counted from where it
    /// left the area, the thumb has moved so little that the palm's jitter is a finger moving
    /// beside it, and the pair rotates (a Cypress link palm and a thumb that joined a scroll in
    /// fixtures/chromiumos `palm_scroll.upper.left.up`: a 42° rotation). From its rest it has
    /// moved 10 mm: no rotation.
    @Test func aThumbLeavingItsRestHasMovedFromWhereItRested() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 50, y: 60)  // the palm
        s.down(2, at: .zero, x: 50, y: 96)  // a thumb, in the area from 88 mm
        for step in 1...19 {                // creeping out of it, 0.5 mm every 50 ms
            s.move(1, at: .milliseconds(Double(step) * 50), x: 50, y: 60)
            s.move(2, at: .milliseconds(Double(step) * 50), x: 50, y: 96 - Double(step) / 2)
        }
        for step in 1...3 {                 // then turning 9° a frame about the palm
            let angle = Double(step) * 9 * .pi / 180
            s.move(1, at: .milliseconds(950 + Double(step) * 20), x: 48, y: 60)
            s.move(2, at: .milliseconds(950 + Double(step) * 20), x: 50 + 26.5 * sin(angle), y: 60 + 26.5 * cos(angle))
        }
        s.up(1, at: .milliseconds(1100))
        s.up(2, at: .milliseconds(1100))
        let l = layout { r in r.onRotate { _ in } }
        #expect(run(l, s, policy: Self.touchpad) == [])
    }

    /// A finger (a thumb) resting since long before two others land, while they scroll beside it,
    /// is left out: a two-finger scroll. Fingers landing together for one stroke all count.
    @Test func aFingerRestingBesideATwoFingerScrollIsLeftOut() {
        func script(landing: Double) -> TouchScript {
            var s = TouchScript()
            s.down(1, at: .zero, x: 20, y: 40)
            s.down(2, at: .milliseconds(landing), x: 60, y: 40)
            s.down(3, at: .milliseconds(landing), x: 80, y: 40)
            for step in 1...10 {
                let t = Duration.milliseconds(landing + 100 + Double(step) * 10)
                s.move(2, at: t, x: 60, y: 40 - Double(step) * 2)
                s.move(3, at: t, x: 80, y: 40 - Double(step) * 2)
            }
            s.up(2, at: .milliseconds(landing + 210))
            s.up(3, at: .milliseconds(landing + 210))
            s.up(1, at: .milliseconds(landing + 300))
            return s
        }
        #expect(run(pan(), script(landing: 400), policy: Self.touchpad).first == "540.0ms pan began pad touches=2 at 70.0,32.0 d=0.0,-7.3")
        #expect(run(pan(), script(landing: 400), policy: .touchscreen).first == "530.0ms pan began pad touches=3 at 53.3,36.0 d=0.0,-4.0")
        // Landed 100 ms before the others: one stroke of three fingers.
        #expect(run(pan(), script(landing: 100), policy: Self.touchpad).first == "250.0ms pan began pad touches=3 at 53.3,33.3 d=0.0,-6.7")
    }

    /// A light contact landing near a palm is a piece of it, left out, until it moves 8 mm apart
    /// from the palm: then it is a finger of the other hand, pointing.
    @Test func aFingerBesideAPalmPointsOnceItMovesAway() {
        func script(palmMoves: Bool) -> TouchScript {
            var s = TouchScript()
            s.down(1, at: .zero, x: 20, y: 50, pressure: 200)            // a palm
            s.down(2, at: .milliseconds(100), x: 45, y: 50, pressure: 50) // 25 mm from it
            for step in 1...20 {
                let t = Duration.milliseconds(100 + Double(step) * 10)
                if palmMoves { s.move(1, at: t, x: 20 + Double(step), y: 50, pressure: 200) }
                s.move(2, at: t, x: 45 + Double(step), y: 50, pressure: 50)
            }
            s.up(2, at: .milliseconds(400))
            s.up(1, at: .milliseconds(500))
            return s
        }
        let pan = { layout { $0.add(PanRecognizer()) } }
        #expect(run(pan(), script(palmMoves: false), policy: Self.touchpad) == [
            "280.0ms pan began pad touches=1 at 63.0,50.0 d=10.0,0.0",
            "290.0ms pan changed pad touches=1 at 64.0,50.0 d=11.0,0.0",
            "300.0ms pan changed pad touches=1 at 65.0,50.0 d=12.0,0.0",
            "400.0ms pan ended pad touches=1 at 65.0,50.0 d=12.0,0.0",
        ])
        // A piece of a palm moving with it never points.
        #expect(run(pan(), script(palmMoves: true), policy: Self.touchpad) == [])
    }

    /// A script whose first 20 ms are a finger pressing (pressure 60) and lifting at 90, 10: the
    /// device has shown it reports pressure.
    static func pressedOnce() -> TouchScript {
        var s = TouchScript()
        s.down(9, at: .zero, x: 90, y: 10, pressure: 60)
        s.up(9, at: .milliseconds(20))
        return s
    }
    static let primingTap = "20.0ms tap recognized pad touches=1 taps=1 at 90.0,10.0"

    /// A contact landing with no pressure hovers (a link palm's pieces report pressure 0 all the
    /// time they are down): left out until it presses. Pressing 10 ms after it landed, it taps;
    /// pressing after hovering 300 ms, it was there all along and taps nothing. One that never
    /// presses pans nothing, on a touchpad; on a touchscreen pressure says nothing. Nothing
    /// hovers before some contact has pressed: a device may declare pressure and never send it.
    @Test func aContactWithNoPressureHovers() {
        func tap(hoveringFor hover: Double, primed: Bool = true) -> TouchScript {
            var s = primed ? Self.pressedOnce() : TouchScript()
            s.down(1, at: .milliseconds(100), x: 20, y: 30, pressure: 0)
            s.move(1, at: .milliseconds(100 + hover), x: 20, y: 30, pressure: 60)
            s.up(1, at: .milliseconds(160 + hover))
            return s
        }
        #expect(run(layout { $0.add(TapRecognizer()) }, tap(hoveringFor: 10), policy: Self.touchpad) == [
            Self.primingTap,
            "170.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0",
        ])
        let late = TapRecognizer()
        #expect(run(layout { $0.add(late) }, tap(hoveringFor: 300), policy: Self.touchpad) == [Self.primingTap])
        #expect(late.failureReason == "a contact had rested 300.0 ms, left out (a thumb, a palm, a hover), before it counted: it taps and holds nothing")
        func glide(primed: Bool) -> TouchScript {
            var s = primed ? Self.pressedOnce() : TouchScript()
            s.down(1, at: .milliseconds(100), x: 20, y: 30, pressure: 0)
            for step in 1...10 { s.move(1, at: .milliseconds(100 + Double(step) * 20), x: 20 + Double(step) * 2, y: 30, pressure: 0) }
            s.up(1, at: .milliseconds(320))
            return s
        }
        let pan = { layout { $0.add(PanRecognizer()) } }
        #expect(run(pan(), glide(primed: true), policy: Self.touchpad) == [])
        #expect(run(pan(), glide(primed: true), policy: .touchscreen).first == "140.0ms pan began pad touches=1 at 24.0,30.0 d=4.0,0.0")
        // No contact has pressed yet: pressure says nothing.
        #expect(run(pan(), glide(primed: false), policy: Self.touchpad).first == "200.0ms pan began pad touches=1 at 30.0,30.0 d=10.0,0.0")
    }

    /// A contact that hovers in the thumb area and then presses is a thumb that has been down
    /// since it landed: when it leaves the area it taps nothing, and says how long it rested.
    @Test func aHoverPressingInTheThumbAreaRestedSinceItLanded() {
        var s = Self.pressedOnce()
        s.down(1, at: .milliseconds(100), x: 40, y: 95, pressure: 0)
        s.move(1, at: .milliseconds(400), x: 40, y: 95, pressure: 60)
        s.move(1, at: .milliseconds(430), x: 40, y: 86, pressure: 60)
        s.up(1, at: .milliseconds(460))
        let tap = TapRecognizer()
        #expect(run(layout { $0.add(tap) }, s, policy: Self.touchpad) == [Self.primingTap])
        #expect(tap.failureReason == "a contact had rested 330.0 ms, left out (a thumb, a palm, a hover), before it counted: it taps and holds nothing")
    }

    /// A hovering contact lifts and a touch presses 1 mm away 12 ms later: the same touch
    /// bouncing, no tap. A piece of a palm with no pressure never points, however far it
    /// moves from the palm.
    @Test func aHoveringContactsLiftIsABounceAndAHoveringPalmPiecePointsNothing() {
        var bounce = Self.pressedOnce()
        bounce.down(1, at: .milliseconds(100), x: 20, y: 30, pressure: 0)
        bounce.up(1, at: .milliseconds(200))
        bounce.down(2, at: .milliseconds(212), x: 21, y: 30, pressure: 60)
        bounce.up(2, at: .milliseconds(260))
        let tap = TapRecognizer()
        #expect(run(layout { $0.add(tap) }, bounce, policy: Self.touchpad) == [Self.primingTap])
        #expect(tap.failureReason == "a contact landed again where one had just lifted: a bounce, not a new touch")
        var piece = TouchScript()
        piece.down(1, at: .zero, x: 20, y: 50, pressure: 200)            // a palm
        piece.down(2, at: .milliseconds(100), x: 45, y: 50, pressure: 0)  // 25 mm from it, no pressure
        for step in 1...20 {
            piece.move(2, at: .milliseconds(100 + Double(step) * 10), x: 45 + Double(step), y: 50, pressure: 0)
        }
        piece.up(2, at: .milliseconds(400))
        piece.up(1, at: .milliseconds(500))
        #expect(run(layout { $0.add(PanRecognizer()) }, piece, policy: Self.touchpad) == [])
    }

    /// A touchpad firmware sends a new contact's x first and its y 11 ms later: the contact seems
    /// to fly 33 mm. Faster than 1 m/s is a jump, not motion: the tap stays a tap.
    @Test func aJumpIsNoMotionOnATouchpad() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 7, y: 0)
        s.move(1, at: .milliseconds(11), x: 7, y: 33)
        s.move(1, at: .milliseconds(40), x: 7.5, y: 33)
        s.up(1, at: .milliseconds(90))
        let l = { layout { r in r.add(TapRecognizer()); r.add(PanRecognizer()) } }
        #expect(run(l(), s, policy: Self.touchpad) == ["90.0ms tap recognized pad touches=1 taps=1 at 7.5,33.0"])
        #expect(run(l(), s, policy: .touchscreen).first == "11.0ms pan began pad touches=1 at 7.0,33.0 d=0.0,33.0")
    }

    /// A robot's two fingers go 12.5 mm in each of two 12 ms reports (1.04 mm/ms, issue 65,
    /// item 6): the first step looks like a jump, but the next goes on the same way, so it was
    /// motion and is given back — a swipe down by the lift, 25 mm. A jump that lands and stays
    /// (above) is still no motion.
    @Test func aFastStrokeThatGoesOnIsMotionNotAJump() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 40, y: 12, pressure: 60)
        s.down(2, at: .zero, x: 60, y: 12, pressure: 60)
        for (n, ms) in [12.0, 24.0].enumerated() {
            s.move(1, at: .milliseconds(ms), x: 40, y: 12 + 12.5 * Double(n + 1), pressure: 60)
            s.move(2, at: .milliseconds(ms), x: 60, y: 12 + 12.5 * Double(n + 1), pressure: 60)
        }
        s.up(1, at: .milliseconds(33))
        s.up(2, at: .milliseconds(33))
        let l = layout { $0.add(SwipeRecognizer(touches: 2)) }
        #expect(run(l, s, policy: Self.touchpad) == ["24.0ms swipe recognized pad touches=2 down at 50.0,37.0 d=0.0,25.0"])
    }

    /// A semi-multitouch pad reports the new finger count first and the box's corners a report
    /// later (issue 65, item 3): a second finger lands 23 ms after the first, 17.5 mm to its
    /// left, and the first's id jumps there in the next report; on the lift the same, back.
    /// The two reports after each change are no motion: a tap of two. Without that, the jump
    /// is 17.5 mm of motion in 23 ms.
    @Test func aSemiMTPadsCornersSettleAReportAfterTheCountChanges() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 40, y: 25)
        s.down(2, at: .milliseconds(23), x: 40, y: 25)          // the count changes; slot 0 stays
        s.move(1, at: .milliseconds(46), x: 22.5, y: 25.5)      // then it jumps to the box's corner
        s.move(2, at: .milliseconds(46), x: 40, y: 25)
        s.move(1, at: .milliseconds(69), x: 22.5, y: 25.5)
        s.up(2, at: .milliseconds(92))                           // 2 -> 1: slot 0 stays at the corner
        s.move(1, at: .milliseconds(115), x: 40, y: 25)          // and jumps back
        s.up(1, at: .milliseconds(138))
        var box = Self.touchpad
        box.boundingBoxContacts = true
        let l = { layout { $0.add(TapRecognizer(touches: 2)); $0.add(PanRecognizer(minimumTouches: 1, maximumTouches: 2)) } }
        #expect(run(l(), s, policy: box) == ["138.0ms tap recognized pad touches=2 taps=1 at 40.0,25.0"])
    }

    /// Issue 65, item 2, on a two-slot pad with no pressure per contact: a palm lands in a
    /// corner, creeping 7 mm while its whole touch presses harder and grows wider; then two
    /// fingers land together on one slot (`BTN_TOOL_TRIPLETAP`) and scroll down 20 mm. Alone,
    /// the whole touch pressing 57% of its range and half its width is the palm's: it is left
    /// out before its creep moves the pointer, and the scroll is a pan of two.
    @Test func aPalmAloneIsFoundByItsWholeTouch() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 8, y: 45)
        s.toolFingers(1, at: .zero)
        for step in 0...10 {
            let k = Double(step) / 10
            s.wholeTouch(pressure: Int32(13 + 190 * k), width: Int32(4 + 8 * k), at: .milliseconds(Double(step) * 30))
            s.move(1, at: .milliseconds(Double(step) * 30), x: 8 + 7 * k, y: 45)
        }
        // 65 mm from the palm: farther than a piece of it lands.
        s.down(2, at: .milliseconds(1000), x: 60, y: 5)
        s.toolFingers(3, at: .milliseconds(1000))
        for step in 1...20 { s.move(2, at: .milliseconds(1000 + Double(step) * 15), x: 60, y: 5 + Double(step)) }
        s.toolFingers(1, at: .milliseconds(1330))
        s.up(2, at: .milliseconds(1350))
        s.up(1, at: .milliseconds(1600))
        var pad = Self.touchpad
        pad.wholeTouchPalm = WholeTouch(pressure: 149, width: 8)
        let l = { layout { $0.add(PanRecognizer(minimumTouches: 1, maximumTouches: 3)) } }
        let log = run(l(), s, policy: pad).filter { !$0.contains(" changed ") }
        #expect(log == [
            "1105.0ms pan began pad touches=2 at 60.0,12.0 d=0.0,7.0",
            "1350.0ms pan ended pad touches=2 at 60.0,25.0 d=0.0,20.0",
        ])
        // Without it, the palm creeping 7 mm as it lands moved the pointer (it rests, once two
        // fingers move beside it: the scroll is still a pan of two).
        let before = run(l(), s, policy: Self.touchpad).filter { !$0.contains(" changed ") }
        #expect(before.first == "270.0ms pan began pad touches=1 at 14.3,45.0 d=6.3,0.0")
    }

    /// Issue 65, item 2: a thumb rests 1 mm above the thumb area; then two fingers land together
    /// on one slot of a two-slot pad (`BTN_TOOL_TRIPLETAP`: three fingers, two contacts) and
    /// scroll. The one moving contact carries two fingers, so the thumb rests while two later
    /// fingers move: left out, a pan of two. On a pad showing every finger, one moving contact
    /// beside a resting one is a two-finger scroll.
    @Test func aContactCarryingTwoFingersMakesTheOneBesideItRest() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 30, y: 86, pressure: 60)
        s.toolFingers(1, at: .zero)
        s.down(2, at: .milliseconds(800), x: 40, y: 20, pressure: 60)
        s.toolFingers(3, at: .milliseconds(800))
        for step in 1...20 { s.move(2, at: .milliseconds(800 + Double(step) * 15), x: 40, y: 20 + Double(step), pressure: 60) }
        s.toolFingers(1, at: .milliseconds(1120))
        s.up(2, at: .milliseconds(1130))
        s.up(1, at: .milliseconds(1400))
        let l = { layout { $0.add(PanRecognizer(minimumTouches: 1, maximumTouches: 3)) } }
        let log = run(l(), s, policy: Self.touchpad).filter { !$0.contains(" changed ") }
        #expect(log == [
            "905.0ms pan began pad touches=2 at 40.0,27.0 d=0.0,6.0",
            "1130.0ms pan ended pad touches=2 at 40.0,40.0 d=0.0,19.0",
        ])
    }

    /// On a touchpad the finger count is the gesture: a finger landing ends the one-finger pan
    /// (the pointer), and the two fingers start a pan of their own 100 ms later (the scroll),
    /// with its own translation. A finger lifting at the end does not end it. On a touchscreen
    /// it is one pan all along.
    @Test func aFingerLandingDuringAPanStartsAPanOfTheNewCountOnATouchpad() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 30)
        for step in 1...5 { s.move(1, at: .milliseconds(Double(step) * 20), x: 20 + Double(step) * 2, y: 30) }
        s.down(2, at: .milliseconds(120), x: 50, y: 30)
        for step in 1...10 {
            let t = Duration.milliseconds(120 + Double(step) * 20)
            s.move(1, at: t, x: 30, y: 30 + Double(step) * 2)
            s.move(2, at: t, x: 50, y: 30 + Double(step) * 2)
        }
        s.up(2, at: .milliseconds(340))
        s.move(1, at: .milliseconds(360), x: 30, y: 52)
        s.up(1, at: .milliseconds(380))
        let pan = { layout { $0.add(PanRecognizer(minimumTouches: 1, maximumTouches: 2)) } }
        let pad = run(pan(), s, policy: Self.touchpad).filter { !$0.contains("changed") }
        #expect(pad == [
            "100.0ms pan began pad touches=1 at 30.0,30.0 d=10.0,0.0",
            "120.0ms pan ended pad touches=1 at 40.0,30.0 d=10.0,0.0",
            "220.0ms pan began pad touches=2 at 40.0,40.0 d=0.0,10.0",
            "380.0ms pan ended pad touches=2 at 30.0,52.0 d=0.0,22.0",
        ])
        let screen = run(pan(), s, policy: .touchscreen).filter { !$0.contains("changed") }
        #expect(screen == [
            "40.0ms pan began pad touches=1 at 24.0,30.0 d=4.0,0.0",
            "380.0ms pan ended pad touches=2 at 30.0,52.0 d=10.0,22.0",
        ])
    }

    /// A palm flickers: its contact lifts and lands again in place, pressing lightly. Landing
    /// within 10 mm of where a palm lifted, within 500 ms, it is the palm again — no tap. A tap
    /// farther away, or later, is a tap.
    @Test func aPalmLandingAgainInPlaceIsStillAPalm() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 50, pressure: 200)
        s.up(1, at: .milliseconds(300))
        s.down(2, at: .milliseconds(315), x: 21, y: 50, pressure: 10)  // the palm again
        s.up(2, at: .milliseconds(375))
        s.down(3, at: .milliseconds(400), x: 60, y: 50, pressure: 40)  // a finger, 39 mm away
        s.up(3, at: .milliseconds(460))
        s.down(4, at: .milliseconds(1400), x: 21, y: 50, pressure: 40) // a finger, a second later
        s.up(4, at: .milliseconds(1460))
        #expect(run(layout { $0.add(TapRecognizer()) }, s, policy: Self.touchpad) == [
            "460.0ms tap recognized pad touches=1 taps=1 at 60.0,50.0",
            "1460.0ms tap recognized pad touches=1 taps=1 at 21.0,50.0",
        ])
    }

    /// A contact landing again where one lifted 15 ms before is the touch bouncing (a palm's
    /// flicker): no tap, no double tap. A double tap 120 ms apart is one. On a touchscreen the
    /// bounce is a double tap.
    @Test func aContactBouncingIsNoTapOnATouchpad() {
        func script(gap: Double) -> TouchScript {
            var s = TouchScript()
            s.down(1, at: .zero, x: 20, y: 30)
            s.up(1, at: .milliseconds(60))
            s.down(2, at: .milliseconds(60 + gap), x: 21, y: 30)
            s.up(2, at: .milliseconds(120 + gap))
            return s
        }
        let taps = { layout { r in r.add(TapRecognizer(taps: 2)); r.add(TapRecognizer()) } }
        #expect(run(taps(), script(gap: 15), policy: Self.touchpad) == [])
        #expect(run(taps(), script(gap: 120), policy: Self.touchpad) == ["240.0ms tap recognized pad touches=1 taps=2 at 21.0,30.0"])
        #expect(run(taps(), script(gap: 15), policy: .touchscreen) == ["135.0ms tap recognized pad touches=1 taps=2 at 21.0,30.0"])
    }

    /// A bounce lasts longer on a device that reports slowly: reporting every 30 ms, a contact
    /// landing again in place 60 ms after it lifted — missed in one report — is the touch
    /// bouncing (an alex palm), also when frames come out of step (13 ms after one, as alex
    /// has them: the usual interval is the median); reporting every 10 ms, 60 ms later it is a
    /// new touch: with the first, a double tap.
    @Test func aBounceLastsTwoAndAHalfReportsOfASlowDevice() {
        func script(every interval: Double, outOfStep: [Double] = []) -> TouchScript {
            var s = TouchScript()
            s.down(1, at: .zero, x: 20, y: 30)
            for t in stride(from: interval, to: 240, by: interval) { s.move(1, at: .milliseconds(t), x: 20, y: 30) }
            for t in outOfStep { s.move(1, at: .milliseconds(t), x: 20, y: 30) }
            s.up(1, at: .milliseconds(240))
            s.down(2, at: .milliseconds(300), x: 21, y: 30)
            for t in stride(from: 300 + interval, to: 390, by: interval) { s.move(2, at: .milliseconds(t), x: 21, y: 30) }
            s.up(2, at: .milliseconds(390))
            return s
        }
        let taps = { layout { r in r.add(TapRecognizer(taps: 2)); r.add(TapRecognizer()) } }
        #expect(run(taps(), script(every: 30), policy: Self.touchpad) == [])
        #expect(run(taps(), script(every: 30, outOfStep: [43]), policy: Self.touchpad) == [])
        #expect(run(taps(), script(every: 10), policy: Self.touchpad) == ["390.0ms tap recognized pad touches=1 taps=2 at 21.0,30.0"])
    }

    /// A contact that vanishes pressing as hard as ever was lost by the sensor, not lifted: back
    /// in place 60 ms later it is the touch bouncing (a Cypress link palm). A finger that eases
    /// off as it lifts and lands again 60 ms later taps again: a double tap; so does one on a
    /// device that reports no pressure.
    @Test func aContactThatVanishedPressingIsBackWhenItLandsAgainSoon() {
        func script(lastPressure: Int32?) -> TouchScript {
            let pressing: Int32? = lastPressure == nil ? nil : 60
            var s = TouchScript()
            s.down(1, at: .zero, x: 20, y: 30, pressure: pressing.map { _ in 30 })
            for t in stride(from: 10.0, to: 80, by: 10) { s.move(1, at: .milliseconds(t), x: 20, y: 30, pressure: pressing) }
            s.move(1, at: .milliseconds(80), x: 20, y: 30, pressure: lastPressure)
            s.up(1, at: .milliseconds(90))
            s.down(2, at: .milliseconds(150), x: 21, y: 30, pressure: pressing.map { _ in 30 })
            for t in stride(from: 160.0, to: 230, by: 10) { s.move(2, at: .milliseconds(t), x: 21, y: 30, pressure: pressing) }
            // The second eases off as it lifts: it taps, unless it is the first bouncing.
            s.move(2, at: .milliseconds(230), x: 21, y: 30, pressure: pressing.map { _ in 30 })
            s.up(2, at: .milliseconds(240))
            return s
        }
        let taps = { layout { r in r.add(TapRecognizer(taps: 2)); r.add(TapRecognizer()) } }
        #expect(run(taps(), script(lastPressure: 60), policy: Self.touchpad) == [])
        // Easing off by 2 of 60 at its last report is a finger lifting (issue 65, item 5).
        #expect(run(taps(), script(lastPressure: 58), policy: Self.touchpad) == ["240.0ms tap recognized pad touches=1 taps=2 at 21.0,30.0"])
        #expect(run(taps(), script(lastPressure: 30), policy: Self.touchpad) == ["240.0ms tap recognized pad touches=1 taps=2 at 21.0,30.0"])
        // Without pressure nothing vanishes: a finger landing again 60 ms later taps again.
        #expect(run(taps(), script(lastPressure: nil), policy: Self.touchpad) == ["240.0ms tap recognized pad touches=1 taps=2 at 21.0,30.0"])
    }

    /// On a device reporting every 10 ms, a press whose contact lifts pressing as hard as ever
    /// vanished: the sensor lost it (a Cypress link palm flickering), no finger lifted, no tap.
    /// A finger that eases off as it lifts taps; so does one that vanishes on a device reporting
    /// every 30 ms (alex misses a finger easing off), and one on a touchscreen. Of two fingers,
    /// one easing off is enough.
    @Test func aPressThatVanishedTapsNothingOnADeviceThatReportsOften() {
        func script(every interval: Double, lastPressures: [Int32]) -> TouchScript {
            var s = TouchScript()
            for (n, _) in lastPressures.enumerated() { s.down(n + 1, at: .zero, x: 20 + Double(n) * 20, y: 30, pressure: 30) }
            for t in stride(from: interval, to: 90, by: interval) {
                for (n, _) in lastPressures.enumerated() { s.move(n + 1, at: .milliseconds(t), x: 20 + Double(n) * 20, y: 30, pressure: 60) }
            }
            for (n, last) in lastPressures.enumerated() { s.move(n + 1, at: .milliseconds(90), x: 20 + Double(n) * 20, y: 30, pressure: last) }
            for n in lastPressures.indices { s.up(n + 1, at: .milliseconds(90 + interval)) }
            return s
        }
        let tap = { layout { $0.add(TapRecognizer()) } }
        let vanished = tap()
        #expect(run(vanished, script(every: 10, lastPressures: [60]), policy: Self.touchpad) == [])
        #expect(vanished.root.recognizers[0].failureReason
            == "every contact lifted pressing as hard as it ever had: the sensor lost it (a palm flickering), no finger lifted")
        #expect(run(tap(), script(every: 10, lastPressures: [58]), policy: Self.touchpad) == ["100.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0"])
        #expect(run(tap(), script(every: 10, lastPressures: [30]), policy: Self.touchpad) == ["100.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0"])
        #expect(run(tap(), script(every: 30, lastPressures: [60]), policy: Self.touchpad) == ["120.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0"])
        #expect(run(tap(), script(every: 10, lastPressures: [60]), policy: .touchscreen) == ["100.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0"])
        let twoFingers = { layout { $0.add(TapRecognizer(touches: 2)) } }
        #expect(run(twoFingers(), script(every: 10, lastPressures: [30, 60]), policy: Self.touchpad)
            == ["100.0ms tap recognized pad touches=2 taps=1 at 30.0,30.0"])
        #expect(run(twoFingers(), script(every: 10, lastPressures: [60, 60]), policy: Self.touchpad) == [])
        // One finger lifting a report before the other: the one that eased off counts whichever
        // lifts first.
        for easedFirst in [true, false] {
            var apart = TouchScript()
            for finger in 1...2 { apart.down(finger, at: .zero, x: 20 * Double(finger), y: 30, pressure: 30) }
            for t in stride(from: 10.0, to: 90, by: 10) {
                for finger in 1...2 { apart.move(finger, at: .milliseconds(t), x: 20 * Double(finger), y: 30, pressure: 60) }
            }
            apart.move(1, at: .milliseconds(90), x: 20, y: 30, pressure: 30)
            apart.up(easedFirst ? 1 : 2, at: .milliseconds(100))
            apart.up(easedFirst ? 2 : 1, at: .milliseconds(110))
            // At the last finger up.
            let at = easedFirst ? "40.0,30.0" : "20.0,30.0"
            #expect(run(twoFingers(), apart, policy: Self.touchpad) == ["110.0ms tap recognized pad touches=2 taps=1 at \(at)"])
        }
    }

    /// Firmware that reports a contact's pressure as it lands and never again (a Cypress PS/2
    /// trackpad: a report every 15.7 ms, six frames, three contacts at constant pressure until
    /// they lift) shows no finger easing off: its fast three-finger tap is a tap, not three
    /// contacts the sensor lost. Once the device has reported a contact pressing differently
    /// while down, the same tap vanished.
    @Test func aTapOnFirmwareThatNeverReportsPressureChangesStillTaps() {
        func threeFingerTap(at start: Double) -> (inout TouchScript) -> Void {
            { s in
                for finger in 1...3 { s.down(start == 0 ? finger : finger + 10, at: .milliseconds(start), x: 20 + Double(finger) * 15, y: 30, pressure: 60) }
                for frame in 1...4 {
                    for finger in 1...3 {
                        s.move(start == 0 ? finger : finger + 10, at: .milliseconds(start + Double(frame) * 15.7),
                               x: 20 + Double(finger) * 15 + Double(frame) * 0.1, y: 30, pressure: 60)
                    }
                }
                for finger in 1...3 { s.up(start == 0 ? finger : finger + 10, at: .milliseconds(start + 5 * 15.7)) }
            }
        }
        let tap = { layout { $0.add(TapRecognizer(touches: 3)) } }
        var flat = TouchScript()
        threeFingerTap(at: 0)(&flat)
        #expect(run(tap(), flat, policy: Self.touchpad) == ["78.5ms tap recognized pad touches=3 taps=1 at 50.4,30.0"])
        // The same firmware's fingers, pressing differently while down (a pan of one finger
        // first): now a contact lifting as hard as ever says the sensor lost it.
        var afterAChange = TouchScript()
        afterAChange.down(9, at: .zero, x: 120, y: 60, pressure: 30)
        for frame in 1...5 { afterAChange.move(9, at: .milliseconds(Double(frame) * 15.7), x: 120 + Double(frame) * 3, y: 60, pressure: 40) }
        afterAChange.move(9, at: .milliseconds(6 * 15.7), x: 138, y: 60, pressure: 20)
        afterAChange.up(9, at: .milliseconds(7 * 15.7))
        threeFingerTap(at: 400)(&afterAChange)
        let lost = tap()
        #expect(run(lost, afterAChange, policy: Self.touchpad) == [])
        #expect(lost.root.recognizers[0].failureReason
            == "every contact lifted pressing as hard as it ever had: the sensor lost it (a palm flickering), no finger lifted")
    }

    /// A quick tap lifts while its press is still building up: the pressure rising at every
    /// report until the lift (issue 45, item 1: a Cypress PS/2 pad's three-finger tap, six
    /// reports 15.7 ms apart but the last gap 42 ms, pressing 65, 77, 85, 89, 91 and then
    /// lifting) is no contact the sensor lost, on a device that has shown contacts pressing
    /// differently. The same press settled — its last two reports alike, at its hardest —
    /// vanished.
    @Test func aQuickTapWhosePressureIsStillRisingTaps() {
        func session(lastPressures: [Int32]) -> TouchScript {
            var s = TouchScript()
            // A finger that eased off first: the device's pressure changes while down.
            s.down(9, at: .zero, x: 120, y: 60, pressure: 30)
            for frame in 1...5 { s.move(9, at: .milliseconds(Double(frame) * 15.7), x: 120 + Double(frame) * 3, y: 60, pressure: 40) }
            s.move(9, at: .milliseconds(6 * 15.7), x: 138, y: 60, pressure: 20)
            s.up(9, at: .milliseconds(7 * 15.7))
            let pressures: [Int32] = [65, 77, 85] + lastPressures
            for finger in 1...3 { s.down(finger, at: .milliseconds(400), x: 20 + Double(finger) * 15, y: 30, pressure: pressures[0]) }
            for (frame, pressure) in pressures.enumerated().dropFirst() {
                for finger in 1...3 {
                    s.move(finger, at: .milliseconds(400 + Double(frame) * 15.7), x: 20 + Double(finger) * 15 + (finger == 1 && frame == 2 ? 0.1 : 0),
                           y: 30, pressure: pressure)
                }
            }
            // The sixth report, 42 ms after the fifth: every finger lifts.
            for finger in 1...3 { s.up(finger, at: .milliseconds(400 + 4 * 15.7 + 42)) }
            return s
        }
        let tap = { layout { $0.add(TapRecognizer(touches: 3)) } }
        #expect(run(tap(), session(lastPressures: [89, 91]), policy: Self.touchpad) == ["504.8ms tap recognized pad touches=3 taps=1 at 50.0,30.0"])
        let settled = tap()
        #expect(run(settled, session(lastPressures: [91, 91]), policy: Self.touchpad) == [])
        #expect(settled.root.recognizers[0].failureReason
            == "every contact lifted pressing as hard as it ever had: the sensor lost it (a palm flickering), no finger lifted")
    }

    /// A finger easing off at its last report lifted, however little it eased: issue 65's item
    /// 5, a 55 ms tap whose last of four 14 ms reports presses 96% of its peak, after a heavier
    /// one, is a tap. The same press whose last report presses as the one before (a palm the
    /// sensor lost, at a plateau) vanished: no tap.
    @Test func aTapEasingOffAtItsLastReportTapsHoweverLittleItEased() {
        func script(pressures: [Int32]) -> TouchScript {
            var s = TouchScript()
            s.down(1, at: .zero, x: 40, y: 30, pressure: pressures[0])
            for (n, pressure) in pressures.enumerated().dropFirst() {
                s.move(1, at: .milliseconds(Double(n) * 14), x: 40, y: 30, pressure: pressure)
            }
            s.up(1, at: .milliseconds(55))
            return s
        }
        let tap = { layout { $0.add(TapRecognizer()) } }
        #expect(run(tap(), script(pressures: [30, 44, 50, 48]), policy: Self.touchpad) == ["55.0ms tap recognized pad touches=1 taps=1 at 40.0,30.0"])
        let plateau = tap()
        #expect(run(plateau, script(pressures: [30, 44, 50, 50]), policy: Self.touchpad) == [])
        #expect(plateau.root.recognizers[0].failureReason
            == "every contact lifted pressing as hard as it ever had: the sensor lost it (a palm flickering), no finger lifted")
    }

    /// Where the device's pressure says nothing about palms (libinput's quirks turn palms by
    /// pressure off: ``TouchPolicy/pressureTellsPalms``), a press lifting as hard as it ever
    /// pressed vanished nowhere: it taps.
    @Test func aDeviceWhosePressureTellsNoPalmHasNothingVanish() {
        var s = TouchScript()
        s.down(9, at: .zero, x: 120, y: 60, pressure: 30)
        for frame in 1...5 { s.move(9, at: .milliseconds(Double(frame) * 15.7), x: 120 + Double(frame) * 3, y: 60, pressure: 40) }
        s.move(9, at: .milliseconds(6 * 15.7), x: 138, y: 60, pressure: 20)
        s.up(9, at: .milliseconds(7 * 15.7))
        s.down(1, at: .milliseconds(400), x: 20, y: 30, pressure: 90)
        for frame in 1...4 { s.move(1, at: .milliseconds(400 + Double(frame) * 15.7), x: 20, y: 30, pressure: frame == 1 ? 95 : 91) }
        s.up(1, at: .milliseconds(400 + 5 * 15.7))
        let tap = { layout { $0.add(TapRecognizer()) } }
        #expect(run(tap(), s, policy: Self.touchpad) == [])
        var quiet = Self.touchpad
        quiet.pressureTellsPalms = false
        #expect(run(tap(), s, policy: quiet) == ["478.5ms tap recognized pad touches=1 taps=1 at 20.0,30.0"])
    }

    /// Each press of a double tap is judged on its own: a first press that eased off does not
    /// make a second that vanished a tap.
    @Test func eachPressOfADoubleTapIsJudgedOnItsOwn() {
        func script(secondLastPressure: Int32) -> TouchScript {
            var s = TouchScript()
            for (finger, press, last) in [(1, 0.0, Int32(30)), (2, 200, secondLastPressure)] {
                s.down(finger, at: .milliseconds(press), x: 20, y: 30, pressure: 30)
                for t in stride(from: 10.0, to: 80, by: 10) { s.move(finger, at: .milliseconds(press + t), x: 20, y: 30, pressure: 60) }
                s.move(finger, at: .milliseconds(press + 80), x: 20, y: 30, pressure: last)
                s.up(finger, at: .milliseconds(press + 90))
            }
            return s
        }
        let doubleTap = layout { $0.add(TapRecognizer(taps: 2)) }
        #expect(run(doubleTap, script(secondLastPressure: 60), policy: Self.touchpad) == [])
        #expect(doubleTap.root.recognizers[0].failureReason
            == "every contact lifted pressing as hard as it ever had: the sensor lost it (a palm flickering), no finger lifted")
        #expect(run(layout { $0.add(TapRecognizer(taps: 2)) }, script(secondLastPressure: 30), policy: Self.touchpad)
            == ["290.0ms tap recognized pad touches=1 taps=2 at 20.0,30.0"])
    }

    /// A contact reported once vanished when it was gone by the next report, seen in one scan:
    /// no tap. One that stayed still 30 ms without a report says nothing of how it lifted: it
    /// taps (a light drumroll tap). Until the device has reported three intervals, nothing tells.
    @Test func aContactReportedOnceVanishedOnlyWhenItWasGoneByTheNextReport() {
        func script(secondLiftsAfter lift: Double) -> TouchScript {
            var s = TouchScript()
            s.down(1, at: .zero, x: 20, y: 30, pressure: 30)
            for t in stride(from: 10.0, to: 80, by: 10) { s.move(1, at: .milliseconds(t), x: 20, y: 30, pressure: 60) }
            s.move(1, at: .milliseconds(80), x: 20, y: 30, pressure: 30)
            s.up(1, at: .milliseconds(90))
            s.down(2, at: .milliseconds(400), x: 60, y: 30, pressure: 40)
            s.up(2, at: .milliseconds(400 + lift))
            return s
        }
        let tap = { layout { $0.add(TapRecognizer()) } }
        #expect(run(tap(), script(secondLiftsAfter: 10), policy: Self.touchpad) == ["90.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0"])
        #expect(run(tap(), script(secondLiftsAfter: 30), policy: Self.touchpad) == [
            "90.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0",
            "430.0ms tap recognized pad touches=1 taps=1 at 60.0,30.0",
        ])
        // A still contact's report is its own: frames where only a finger in another region
        // moved are not its reports. Reported once, down 30 ms, it taps.
        var beside = script(secondLiftsAfter: 30)
        beside.down(3, at: .milliseconds(380), x: 150, y: 30, pressure: 40)
        for t in stride(from: 390.0, to: 440, by: 10) { beside.move(3, at: .milliseconds(t), x: 150 + (t - 380) / 5, y: 30, pressure: 40) }
        beside.up(3, at: .milliseconds(440))
        let twoRegions = layout { _ in }
        let left = Region(id: "left", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        left.add(TapRecognizer())
        let right = Region(id: "right", frame: Rect(x: 100, y: 0, width: 100, height: 100))
        right.add(LongPressRecognizer())
        twoRegions.root.addChild(left)
        twoRegions.root.addChild(right)
        #expect(run(twoRegions, beside, policy: Self.touchpad) == [
            "90.0ms tap recognized left touches=1 taps=1 at 20.0,30.0",
            "430.0ms tap recognized left touches=1 taps=1 at 60.0,30.0",
        ])
        var first = TouchScript()
        first.down(1, at: .zero, x: 20, y: 30, pressure: 40)
        first.up(1, at: .milliseconds(10))
        #expect(run(tap(), first, policy: Self.touchpad) == ["10.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0"])
    }

    /// A bounce after a gesture ended is still a bounce: a double tap is recognized at its second
    /// lift, its sequence ends, and the touch lands again 25 ms later in a new sequence (a link
    /// palm flickering, fixtures/chromiumos palm_pointing). That press taps nothing.
    @Test func aBounceAfterAGestureEndedTapsNothing() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 20, y: 30)
        s.up(1, at: .milliseconds(60))
        s.down(2, at: .milliseconds(180), x: 21, y: 30)
        s.up(2, at: .milliseconds(240))
        s.down(3, at: .milliseconds(265), x: 22, y: 31)
        s.up(3, at: .milliseconds(280))
        let taps = layout { r in r.add(TapRecognizer(taps: 2)); r.add(TapRecognizer()) }
        #expect(run(taps, s, policy: Self.touchpad) == ["240.0ms tap recognized pad touches=1 taps=2 at 21.0,30.0"])
        #expect(taps.root.recognizers[1].failureReason == "a contact landed again where one had just lifted: a bounce, not a new touch")
    }

    /// Once a pan has begun, a pinch beside it must be twice as clear: fingers that moved 4 mm
    /// together and then 6 mm apart pinch when nothing panned, not beside a pan.
    @Test func aPinchBesideAPanMustBeTwiceAsClear() {
        var s = TouchScript()
        s.down(1, at: .zero, x: 40, y: 50)
        s.down(2, at: .zero, x: 60, y: 50)
        for step in 1...4 {
            s.move(1, at: .milliseconds(Double(step) * 10), x: 40, y: 50 + Double(step))
            s.move(2, at: .milliseconds(Double(step) * 10), x: 60, y: 50 + Double(step))
        }
        for step in 1...6 {
            s.move(1, at: .milliseconds(40 + Double(step) * 10), x: 40 - Double(step), y: 54)
            s.move(2, at: .milliseconds(40 + Double(step) * 10), x: 60 + Double(step), y: 54)
        }
        s.up(1, at: .milliseconds(120))
        s.up(2, at: .milliseconds(120))
        let both = layout { r in
            r.onPan { _ in }
            r.onPinch { _ in }
            for recognizer in r.recognizers { recognizer.simultaneousKinds = [.pan, .pinch] }
        }
        let log = run(both, s, policy: .touchscreen)
        #expect(!log.contains { $0.contains("pinch") }, "\(log)")
        #expect(run(layout { $0.add(PinchRecognizer()) }, s, policy: .touchscreen).first == "90.0ms pinch began pad touches=2 at 50.0,54.0 scale=1.50")
    }
}
