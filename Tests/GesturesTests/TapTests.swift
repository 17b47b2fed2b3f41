import GestureTesting
import Gestures
import Testing

@Suite("Tap recognizer")
struct TapTests {
    /// A single-tap and a double-tap recognizer, added in either order.
    func singleAndDouble(singleFirst: Bool) -> Layout {
        layout { r in
            if singleFirst { r.add(TapRecognizer(taps: 1)) }
            r.add(TapRecognizer(taps: 2))
            if !singleFirst { r.add(TapRecognizer(taps: 1)) }
        }
    }

    @Test func aSingleTapWithNoCompetingMultiTapFiresAtTheLift() {
        var s = TouchScript()
        s.tap(at: .zero, x: 20, y: 30, duration: .milliseconds(80))
        let log = run(layout { $0.add(TapRecognizer()) }, s, until: 80)
        #expect(log == ["80.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0"])
    }

    @Test func aDoubleTapNeverAlsoFiresTheSingleTap() {
        for singleFirst in [true, false] {
            let l = singleAndDouble(singleFirst: singleFirst)
            var s = TouchScript()
            s.tap(at: .zero, x: 20, y: 30, duration: .milliseconds(80))
            s.tap(at: .milliseconds(200), x: 21, y: 30, duration: .milliseconds(80))
            #expect(run(l, s) == ["280.0ms tap recognized pad touches=1 taps=2 at 21.0,30.0"], "single added first: \(singleFirst)")
        }
    }

    @Test func aLoneTapWaitsForTheDoubleTapToFailBothWays() {
        for singleFirst in [true, false] {
            let l = singleAndDouble(singleFirst: singleFirst)
            var s = TouchScript()
            s.tap(at: .zero, x: 20, y: 30, duration: .milliseconds(80))
            // Nothing at the lift; the single tap when the 300 ms window closes.
            #expect(run(l, s, until: 379) == [], "single added first: \(singleFirst)")
            #expect(run(l, s, until: 380) == ["380.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0"])
        }
    }

    @Test func tapsThatAreTooFarApartAreTwoSingleTaps() {
        let l = layout { $0.add(TapRecognizer(taps: 1)); $0.add(TapRecognizer(taps: 2)) }
        var s = TouchScript()
        s.tap(at: .zero, x: 20, y: 30)
        s.tap(at: .milliseconds(150), x: 60, y: 30)  // 40 mm away > 16 mm
        #expect(run(l, s) == [
            "150.0ms tap recognized pad touches=1 taps=1 at 20.0,30.0",
            "530.0ms tap recognized pad touches=1 taps=1 at 60.0,30.0",
        ])
    }

    @Test func failureReasonsCarryNumbers() {
        let moved = TapRecognizer()
        var s = TouchScript()
        s.down(1, at: .zero, x: 10, y: 10)
        s.move(1, at: .milliseconds(20), x: 14.2, y: 10)
        s.up(1, at: .milliseconds(40))
        #expect(run(layout { $0.add(moved) }, s) == [])
        #expect(moved.state == .failed)
        #expect(moved.failureReason == "moved 4.2 mm > 3.0 mm allowed")

        let held = TapRecognizer()
        var h = TouchScript()
        h.down(1, at: .zero, x: 10, y: 10)
        h.up(1, at: .milliseconds(900))
        // The deadline decides at 500 ms, with no frame in between.
        #expect(run(layout { $0.add(held) }, h, until: 600) == [])
        #expect(held.failureReason == "held 500.0 ms without lifting (500.0 ms allowed)")

        let two = TapRecognizer(touches: 1)
        var t = TouchScript()
        t.tap(at: .zero, x: 10, y: 10, touches: 2)
        #expect(run(layout { $0.add(two) }, t) == [])
        #expect(two.failureReason == "2 touches > 1 required")
    }

    @Test func multiFingerTapsAndTheToolCount() {
        // A two-slot touchpad: two contacts, and BTN_TOOL_TRIPLETAP says three fingers.
        let l = layout { r in for n in 1...3 { r.add(TapRecognizer(touches: n)) } }
        var s = TouchScript()
        s.down(1, at: .zero, x: 10, y: 10)
        s.down(2, at: .milliseconds(10), x: 30, y: 10)
        s.toolFingers(3, at: .milliseconds(10))
        s.up(1, at: .milliseconds(90))
        s.up(2, at: .milliseconds(90))
        #expect(run(l, s) == ["90.0ms tap recognized pad touches=3 taps=1 at 20.0,10.0"])
    }
}
