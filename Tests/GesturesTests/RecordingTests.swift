import Foundation
import GestureTesting
import GestureReplay
import GestureRuntime
import Gestures
import Testing

let fixtures: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path + "/fixtures/recordings/"
}()

/// The recordings in fixtures/ give what their names say, with the built-in layout.
@Suite("Gestures in real recordings")
struct RecordingTests {
    func gestures(_ name: String) throws -> [Gesture] {
        try RecordingReplay.run(path: fixtures + name).gestures
    }

    /// Gestures that happened (not their later changes).
    func started(_ gs: [Gesture]) -> [Gesture] { gs.filter { $0.state == .recognized || $0.state == .began } }

    @Test func fourFingerDragDownIsAFourTouchPanAndASwipeDown() throws {
        let gs = try gestures("evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events")
        #expect(Set(gs.map(\.kind)) == [.pan, .swipe])
        let swipe = try #require(gs.first { $0.kind == .swipe })
        #expect(swipe.touches == 4 && SwipeGesture(swipe)?.direction == .down && swipe.state == .recognized)
        let pans = gs.filter { $0.kind == .pan }
        #expect(pans.filter { $0.state == .began }.count == 1)
        #expect(pans.map(\.touches).max() == 4)
        // While all four fingers are down the pan reports four, and it goes down.
        let fourFinger = pans.filter { $0.touches == 4 }
        #expect(fourFinger.count >= 20)
        #expect(fourFinger.compactMap(PanGesture.init).allSatisfy { $0.translation.y > abs($0.translation.x) })
        #expect(fourFinger.compactMap(PanGesture.init).count == fourFinger.count)
        #expect(pans.last?.state == .ended)
    }

    @Test func fastTapsAreTapsWhoseCountsAddUpToTheTouches() throws {
        let gs = try gestures("evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events")
        #expect(gs.allSatisfy { $0.kind == .tap && $0.state == .recognized && $0.touches == 1 })
        let taps = gs.compactMap(TapGesture.init).map(\.taps)
        #expect(taps.reduce(0, +) == 9)  // 9 touches in the recording
        #expect(taps == [2, 2, 2, 2, 1])  // pairs within 300 ms are double taps
    }

    @Test(arguments: [
        ("xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-down.events", true),
        ("xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.two-finger-scroll-up.events", false),
        ("xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad.two-finger-scroll-down.events", true),
        ("xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad.two-finger-scroll-up.events", false),
    ])
    func twoFingerScrollsAreTwoTouchPansThatWay(_ name: String, down: Bool) throws {
        let gs = try gestures(name)
        let pans = gs.filter { $0.kind == .pan }
        #expect(started(gs).map(\.kind) == [.pan])
        #expect(pans.first?.touches == 2)
        // Two fingers throughout, but for the last frames when one lifts a moment before the other.
        let lifting = pans.drop { $0.touches == 2 }
        #expect(lifting.count <= 2 && lifting.allSatisfy { $0.touches == 1 })
        let end = try #require(pans.last.flatMap(PanGesture.init))
        #expect(end.state == .ended)
        #expect(down ? end.translation.y > 10 : end.translation.y < -10)
        #expect(abs(end.translation.y) > 3 * abs(end.translation.x))
    }

    @Test func aTwoFingerTapIsOneTapWithTwoTouches() throws {
        let gs = try gestures("evemu-devices/touchpads/CyPS2 Cypress Trackpad.two_finger_tap.events")
        #expect(gs.count == 1)
        #expect(gs.first?.kind == .tap && gs.first?.touches == 2 && gs.first.flatMap(TapGesture.init)?.taps == 1)
    }

    /// A semi-multitouch pad reports two fingers as the corners of their bounding box, which jump
    /// when the second lands and jitter while both rest: with the box's hysteresis the
    /// two-finger tap is a tap, not a pan.
    @Test func aSemiMultitouchTwoFingerTapIsATap() throws {
        let gs = try gestures("evemu-devices/touchpads/AlpsPS2 ALPS GlidePoint.2-finger-tap.events")
        #expect(started(gs).map { "\($0.kind) \($0.touches) \(TapGesture($0)?.taps ?? 0)" } == ["tap 2 1"])
    }

    @Test func theClickpadTapIsOneTap() throws {
        let gs = try gestures("xorg-integration-tests/touchpads/SynPS2-Synaptics-TouchPad-Clickpad.tap.events")
        let taps = gs.compactMap(TapGesture.init)
        #expect(taps.count == 1 && taps[0].touches == 1 && taps[0].taps == 1)
        // The recording's second touch is the "slight move" xorg needed for its timeout:
        // 4.7 mm on this (assumed 69 x 50 mm) pad, under a touchpad's 6 mm pan slop: nothing.
        #expect(started(gs).map(\.kind) == [.tap])
    }

    /// Three fingers held and pressed (a physical click) on a pad with two slots: the third
    /// finger counts (BTN_TOOL_TRIPLETAP), and the click ends recognition — a click is not a
    /// long press.
    @Test func threeFingersOnATwoSlotPadAreThreeTouchesAndTheirClickIsNoGesture() throws {
        let result = try RecordingReplay.run(path: fixtures + "evemu-devices/touchpads/CyPS2 Cypress Trackpad.three_finger_press.events")
        #expect(result.gestures.isEmpty)
        let reasons = Dictionary(result.failures.map { ($0.recognizer, $0.reason.description) }) { first, _ in first }
        #expect(reasons["tap(1 tap, 2 touches)"] == "3 touches > 2 required")
        #expect(reasons["long-press(3 touches)"] == "a physical button was pressed: a click, not a gesture")
        #expect(reasons["long-press(2 touches)"] == "3 touches > 2 required")
    }

    @Test func everyRecordingReplaysAndEveryGestureEnds() throws {
        let names = FileManager.default.enumerator(atPath: fixtures)!.compactMap { $0 as? String }.filter { $0.hasSuffix(".events") }
        #expect(names.count > 40)
        for name in names {
            let gs = try gestures(name)
            for kind in GestureKind.allCases where !kind.isDiscrete {
                let begun = gs.filter { $0.kind == kind && $0.state == .began }.count
                let over = gs.filter { $0.kind == kind && ($0.state == .ended || $0.state == .cancelled) }.count
                #expect(begun == over, "\(name): \(kind) began \(begun) times, finished \(over)")
            }
        }
    }
}
