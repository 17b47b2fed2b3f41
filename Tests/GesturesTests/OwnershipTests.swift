import GestureTesting
import Gestures
import Testing
import TouchEvents

/// Which touches a gesture owns (``GestureRecognizer/ownsTouches``): the pipeline tells each
/// once, in order with the gestures, so a runtime can take them from the apps.
@Suite("Touches a gesture owns")
struct OwnershipTests {
    /// Plays `script`; the log of gestures and of owned touches (`own slot 2`), in order.
    /// With `ids`, each touch's contact id follows its slot (`own slot 0 #2`).
    func log(_ layout: Layout, _ script: TouchScript, policy: TouchPolicy = .touchscreen, until: Double? = nil, ids: Bool = false) -> [String] {
        let pipeline = GesturePipeline(layout: layout, policy: policy)
        var log: [String] = []
        pipeline.observer = { g in log.append("\(g.kind) \(g.state)") }
        pipeline.onTouchClaim = { claim in
            func touch(_ slot: Int, _ contact: Int) -> String { ids ? "slot \(slot) #\(contact)" : "slot \(slot)" }
            switch claim {
            case .landed: break
            case .owned(let slot, let contact): log.append("own \(touch(slot, contact))")
            case .liftUndecided(let slot, let contact): log.append("lift undecided \(touch(slot, contact))")
            case .settled(let slot, let contact): log.append("settled \(touch(slot, contact))")
            }
        }
        let clock = ManualClock(pipeline: pipeline)
        clock.play(script.frames.filter { until == nil || $0.time <= .zero + .milliseconds(until!) })
        if until == nil { pipeline.finish() }
        return log
    }

    /// Four fingers landing 10 ms apart and swiping left 40 mm in 100 ms; the fourth lands
    /// late (`lateFourth`: after the swipe of three began, a pan of three).
    func fourFingers(lateFourth: Bool = false) -> TouchScript {
        var s = TouchScript()
        for f in 1...3 { s.down(f, at: .milliseconds(Double(f) * 10), x: 150, y: Double(f) * 15) }
        if !lateFourth { s.down(4, at: .milliseconds(40), x: 150, y: 60) }
        for step in 1...10 {
            let t = Duration.milliseconds(40 + Double(step) * 10)
            for f in 1...3 { s.move(f, at: t, x: 150 - Double(step) * 4, y: Double(f) * 15) }
            if !lateFourth { s.move(4, at: t, x: 150 - Double(step) * 4, y: 60) }
            if lateFourth && step == 6 { s.down(4, at: t, x: 130, y: 60) }
        }
        for f in 1...4 { s.up(f, at: .milliseconds(160)) }
        return s
    }

    @Test func aGestureThatOwnsItsTouchesOwnsEachOnceWhenItIsRecognized() {
        let l = layout { pad in
            let swipe = SwipeRecognizer(directions: [.left], touches: 4)
            swipe.ownsTouches = true
            pad.add(swipe)
        }
        #expect(log(l, fourFingers()) == [
            "own slot 0", "own slot 1", "own slot 2", "own slot 3",
            "swipe recognized",
        ])
    }

    @Test func aGestureThatSharesItsTouchesOwnsNone() {
        let l = layout { $0.add(SwipeRecognizer(directions: [.left], touches: 4)) }
        // Each touch is settled in the frame it lands: no gesture will own it.
        #expect(log(l, fourFingers()) == ["settled slot 0", "settled slot 1", "settled slot 2", "settled slot 3", "swipe recognized"])
    }

    @Test func aTouchJoiningAnOwnedSequenceIsOwnedAsItLands() {
        let l = layout { pad in
            let pan = PanRecognizer(minimumTouches: 3, maximumTouches: 4)
            pan.ownsTouches = true
            pad.add(pan)
        }
        let lines = log(l, fourFingers(lateFourth: true)).filter { $0 != "pan changed" }
        #expect(lines == [
            "own slot 0", "own slot 1", "own slot 2",
            "pan began",
            "own slot 3",
            "pan ended",
        ])
    }

    @Test func onATouchpadTheThirdFingerOwnsTheSequenceBeforeAnyGestureBegins() {
        let l = { layout { pad in
            let swipe = SwipeRecognizer(directions: [.left], touches: 3)
            swipe.ownsTouches = true
            pad.add(swipe)
        } }
        func fingers(_ n: Int) -> TouchScript {
            var s = TouchScript()
            for f in 1...n { s.down(f, at: .milliseconds(Double(f) * 10), x: 150, y: Double(f) * 15, pressure: 50) }
            for step in 1...10 {
                for f in 1...n { s.move(f, at: .milliseconds(30 + Double(step) * 10), x: 150 - Double(step) * 4, y: Double(f) * 15, pressure: 50) }
            }
            for f in 1...n { s.up(f, at: .milliseconds(140)) }
            return s
        }
        let touchpad = TouchPolicy.touchpad.resolved(pressureRange: 0...255, surfaceHeight: 100)
        // In the frame the third finger lands (30 ms), before libinput's swipe could begin.
        #expect(log(l(), fingers(3), policy: touchpad, until: 30) == ["own slot 0", "own slot 1", "own slot 2"])
        #expect(log(l(), fingers(3), policy: touchpad) == ["own slot 0", "own slot 1", "own slot 2", "swipe recognized"])
        // A touchscreen's are owned only once the swipe is recognized.
        #expect(log(l(), fingers(3), until: 30) == [])
        #expect(log(l(), fingers(3)) == ["own slot 0", "own slot 1", "own slot 2", "swipe recognized"])
        // Two fingers (scrolling) are never owned by a gesture of three.
        #expect(log(l(), fingers(2), policy: touchpad) == [])
    }

    /// Two fingers scroll (a pan that shares its touches begins); a third lands: the pan ends
    /// with the count and the arena starts over — the three fingers are owned in that frame.
    @Test func onATouchpadTheThirdFingerOwnsTheSequenceAfterAScrollToo() {
        let l = layout { pad in
            pad.add(PanRecognizer(minimumTouches: 1, maximumTouches: 2))
            let swipe = SwipeRecognizer(directions: [.left], touches: 3)
            swipe.ownsTouches = true
            pad.add(swipe)
        }
        var s = TouchScript()
        for f in 1...2 { s.down(f, at: .zero, x: 100 + Double(f) * 15, y: 30, pressure: 50) }
        for step in 1...20 {
            for f in 1...2 { s.move(f, at: .milliseconds(Double(step) * 10), x: 100 + Double(f) * 15, y: 30 + Double(step), pressure: 50) }
        }
        s.down(3, at: .milliseconds(210), x: 145, y: 50, pressure: 50)
        let touchpad = TouchPolicy.touchpad.resolved(pressureRange: 0...255, surfaceHeight: 100)
        let lines = log(l, s, policy: touchpad, until: 210).filter { $0 != "pan changed" }
        #expect(lines == ["pan began", "pan ended", "own slot 0", "own slot 1", "own slot 2"])
    }

    /// A tap bound to an action that waits for a double tap bound to one (both own their
    /// touches): 60 ms taps, 100 ms apart; with `secondTap` false, only the first.
    func taps(secondTap: Bool) -> TouchScript {
        var s = TouchScript()
        s.tap(at: .zero, x: 50, y: 50, duration: .milliseconds(60))
        if secondTap { s.tap(at: .milliseconds(160), x: 52, y: 50, duration: .milliseconds(60)) }
        return s
    }

    func tapAndDoubleTap(tapOwns: Bool) -> Layout {
        layout { pad in
            let double = TapRecognizer(taps: 2)
            double.ownsTouches = true
            let single = TapRecognizer()
            single.ownsTouches = tapOwns
            single.require(toFail: double)
            pad.add(double)
            pad.add(single)
        }
    }

    /// The first tap's lift waits: the double tap may still take it. Recognized at the second
    /// lift, the double tap owns both taps' touches, the first (whose lift waited) too.
    @Test func aDoubleTapOwnsItsFirstTapWhoseLiftWaitedForIt() {
        #expect(log(tapAndDoubleTap(tapOwns: false), taps(secondTap: true), ids: true) == [
            "lift undecided slot 0 #1",
            "own slot 0 #1", "own slot 0 #2",
            "tap recognized",
        ])
    }

    /// No second tap: the double tap fails at its deadline. A tap that shares its touches
    /// settles the first lift then; one that owns them owns it.
    @Test func aLiftWaitingForADoubleTapThatFailsIsSettledOrOwnedByTheTap() {
        #expect(log(tapAndDoubleTap(tapOwns: false), taps(secondTap: false)) == [
            "lift undecided slot 0",
            "tap recognized",
            "settled slot 0",
        ])
        #expect(log(tapAndDoubleTap(tapOwns: true), taps(secondTap: false)) == [
            "lift undecided slot 0",
            "own slot 0",
            "tap recognized",
        ])
    }

    /// A two-finger tap: the first finger lifts 20 ms before the second; its lift waits, and
    /// the tap, recognized at the second lift, owns both.
    @Test func aTwoFingerTapOwnsTheFingerThatLiftedFirst() {
        let l = layout { pad in
            let tap = TapRecognizer(touches: 2)
            tap.ownsTouches = true
            pad.add(tap)
        }
        var s = TouchScript()
        s.down(1, at: .zero, x: 50, y: 50)
        s.down(2, at: .milliseconds(10), x: 80, y: 50)
        s.up(1, at: .milliseconds(60))
        s.up(2, at: .milliseconds(80))
        #expect(log(l, s, ids: true) == [
            "lift undecided slot 0 #1",
            "own slot 0 #1", "own slot 1 #2",
            "tap recognized",
        ])
    }

    /// A touch whose sequence has no recognizer owning touches still deciding lifts at once:
    /// nothing waits (a tap that shares its touches, beside a pan that owns them: the pan
    /// fails at the lift, which settles the touch in that frame).
    @Test func aLiftNoOwningRecognizerCanTakeIsNotUndecided() {
        let l = layout { pad in
            let pan = PanRecognizer()
            pan.ownsTouches = true
            pad.add(pan)
            pad.add(TapRecognizer())
        }
        var s = TouchScript()
        s.tap(at: .zero, x: 50, y: 50, duration: .milliseconds(60))
        #expect(log(l, s) == ["tap recognized", "settled slot 0"])
    }

    /// A corner whose long press owns its touches, beside a pad whose tap shares them: a touch
    /// on the pad is settled in the frame it lands (nothing could own it), one on the corner
    /// only once the long press fails (it moved away).
    @Test func aTouchNoOwningGestureCanTakeIsSettledAsItLands() {
        let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let pad = Region(id: "pad", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        pad.add(TapRecognizer())
        let corner = Region(id: "corner", frame: Rect(x: 150, y: 0, width: 50, height: 50))
        let press = LongPressRecognizer()
        press.ownsTouches = true
        corner.add(press)
        root.addChild(pad)
        root.addChild(corner)
        var s = TouchScript()
        s.tap(at: .zero, x: 50, y: 50, duration: .milliseconds(60))
        s.down(9, at: .milliseconds(200), x: 170, y: 20)
        for step in 1...5 { s.move(9, at: .milliseconds(200 + Double(step) * 10), x: 170 - Double(step) * 4, y: 20) }
        s.up(9, at: .milliseconds(300))
        #expect(log(Layout(root: root), s, until: 0) == ["settled slot 0"])
        #expect(log(Layout(root: root), s, until: 200) == ["settled slot 0", "tap recognized"])
        #expect(log(Layout(root: root), s) == ["settled slot 0", "tap recognized", "settled slot 0"])
    }

    /// The first tap's lift waits for the double tap; the second press lands too far for one:
    /// the tap is recognized, the arena starts over for the second press, and the first lift
    /// is settled then (it waits no longer for a double tap of later presses).
    @Test func aLiftWaitingForAnArenaThatStartsOverIsSettled() {
        var s = TouchScript()
        s.tap(at: .zero, x: 20, y: 50, duration: .milliseconds(60))
        s.tap(at: .milliseconds(160), x: 180, y: 50, duration: .milliseconds(60))
        #expect(log(tapAndDoubleTap(tapOwns: false), s, until: 160, ids: true) == [
            "lift undecided slot 0 #1",
            "tap recognized",
            "settled slot 0 #1",
        ])
    }

    /// A touch that hits no region (far beyond the root) is settled as it lands.
    @Test func aTouchThatHitsNoRegionIsSettledAsItLands() {
        var s = TouchScript()
        s.tap(at: .zero, x: 1000, y: 50, duration: .milliseconds(60))
        #expect(log(tapAndDoubleTap(tapOwns: true), s, until: 0) == ["settled slot 0"])
    }
}
