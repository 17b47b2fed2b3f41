import Foundation
import GestureConfiguration
@testable import GestureService
import Gestures
import Testing
import TouchEvents
import TouchInputTesting

/// The `touchpad` action: a touchscreen gesture replayed on gestured's virtual touchpad, as the
/// frames a real touchpad sends, for the compositor's libinput to report as a touchpad gesture.
@Suite("The virtual touchpad", .serialized)
struct VirtualTouchpadTests {
    static let config = """
        devices:
          - match: {kind: touchscreen}
            output: [2000, 1000]
        layout:
          id: screen
          gestures:
            - kind: pan
              min-touches: 4
              max-touches: 4
              action: {touchpad: {swipe: 3}}
            - kind: pinch
              action: {touchpad: {pinch: 2}}
        """

    // MARK: - The frames

    @Test func aSwipesFingersLandTogetherFollowThePanAtTheDocumentedScaleAndLift() {
        var s = TouchpadStroke(action: TouchpadAction(kind: .swipe(fingers: 3)), screen: SurfaceSize(width: 2000, height: 1000), firstID: 7)
        // Two slots 15 mm apart at the centre of 100 × 70 mm (40 units a mm), three fingers by the tool.
        #expect(names(s.began()) == [
            "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID 7", "ABS_MT_POSITION_X 1700", "ABS_MT_POSITION_Y 1400",
            "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID 8", "ABS_MT_POSITION_X 2300", "ABS_MT_POSITION_Y 1400",
            "BTN_TOUCH 1", "BTN_TOOL_TRIPLETAP 1", "ABS_X 1700", "ABS_Y 1400", "SYN",
        ])
        // The first movement is the origin (the pan's slop); a stroke across the whole screen
        // from there is GNOME's page, 400 × 300 of libinput's units at 10.52 a mm: 38.03 mm
        // across (1521 of the pad's units), 28.52 mm down (1141).
        #expect(s.moved(translation: Point(x: 30, y: 0)).isEmpty)
        #expect(names(s.moved(translation: Point(x: 2030, y: 0))) == [
            "ABS_MT_SLOT 0", "ABS_MT_POSITION_X 3221", "ABS_MT_SLOT 1", "ABS_MT_POSITION_X 3821", "ABS_X 3221", "ABS_Y 1400", "SYN",
        ])
        #expect(names(s.moved(translation: Point(x: 2030, y: 1000))) == [
            "ABS_MT_SLOT 0", "ABS_MT_POSITION_Y 2541", "ABS_MT_SLOT 1", "ABS_MT_POSITION_Y 2541", "ABS_X 3221", "ABS_Y 2541", "SYN",
        ])
        #expect(names(s.ended()) == [
            "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "BTN_TOOL_TRIPLETAP 0", "SYN",
        ])
    }

    @Test func aCancelChangesTheFingerCountThenLifts() {
        let three = TouchpadStroke(action: TouchpadAction(kind: .swipe(fingers: 3)), screen: SurfaceSize(width: 800, height: 480), firstID: 1)
        #expect(names(three.cancelled().change) == ["BTN_TOOL_TRIPLETAP 0", "BTN_TOOL_QUADTAP 1", "SYN"])
        #expect(names(three.cancelled().lift) == [
            "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "BTN_TOOL_QUADTAP 0", "SYN",
        ])
        let four = TouchpadStroke(action: TouchpadAction(kind: .swipe(fingers: 4)), screen: SurfaceSize(width: 800, height: 480), firstID: 1)
        #expect(names(four.cancelled().change) == ["BTN_TOOL_QUADTAP 0", "BTN_TOOL_TRIPLETAP 1", "SYN"])
    }

    @Test func aPinchsFingersSpreadAsThePinchScalesAndStayOnThePad() {
        var s = TouchpadStroke(action: TouchpadAction(kind: .pinch), screen: SurfaceSize(width: 800, height: 480), firstID: 3)
        #expect(names(s.began()).contains("BTN_TOOL_DOUBLETAP 1"))
        #expect(s.positions == [Point(x: 30, y: 35), Point(x: 70, y: 35)])
        // 1.5 times 40 mm apart: 60 mm, about the centre.
        #expect(names(s.pinched(scale: 1.5)) == [
            "ABS_MT_SLOT 0", "ABS_MT_POSITION_X 800", "ABS_MT_SLOT 1", "ABS_MT_POSITION_X 3200", "ABS_X 800", "ABS_Y 1400", "SYN",
        ])
        // 4 times would be 160 mm: the pad is 100 mm wide.
        _ = s.pinched(scale: 4)
        #expect(s.positions == [Point(x: 0, y: 35), Point(x: 100, y: 35)])
        #expect(names(s.cancelled().change) == ["BTN_TOOL_DOUBLETAP 0", "BTN_TOOL_TRIPLETAP 1", "SYN"])
    }

    // MARK: - In the service

    /// Four fingers 15 mm apart at `y`, moved right `steps` times by 5 mm, 10 ms apart; lifted
    /// unless not `lift`.
    func fourFingerDrag(_ h: Harness, _ device: PipeTouchDevice, at ms: Double, steps: Int, lift: Bool = true) {
        let slots: [Int32] = [0, 1, 2, 3]
        h.frame(device, at: ms, slots.map { ($0, 200 + 150 * $0, 500) }, begin: true)
        for step in 1...steps { h.frame(device, at: ms + Double(step) * 10, slots.map { ($0, 200 + 150 * $0 + 50 * Int32(step), 500) }) }
        if lift { h.frame(device, at: ms + Double(steps + 1) * 10, slots.map { ($0, -1, 0) }) }
    }

    @Test func aFourFingerPanDrivesAThreeFingerTouchpadSwipeFromBeganToEnded() throws {
        let d = try DesktopHarness(config: Self.config)
        #expect(d.h.log.lines.contains("info virtual touchpad ready name=gestured virtual touchpad node=-"))
        let device = try d.h.plug()
        fourFingerDrag(d.h, device, at: 0, steps: 10)
        d.h.advance(to: 1000)
        #expect(d.h.summary.first == "pan began screen 4" && d.h.summary.last == "pan ended screen 4")
        let written = d.touchpad.take()
        // Down once, up once; in between, the two slots moved right together, never down.
        #expect(written.prefix(12) == ["ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID 1", "ABS_MT_POSITION_X 1700", "ABS_MT_POSITION_Y 1400",
                                       "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID 2", "ABS_MT_POSITION_X 2300", "ABS_MT_POSITION_Y 1400",
                                       "BTN_TOUCH 1", "BTN_TOOL_TRIPLETAP 1", "ABS_X 1700", "ABS_Y 1400"])
        #expect(written.suffix(7) == ["ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "BTN_TOOL_TRIPLETAP 0", "SYN"])
        #expect(!written.contains { $0.hasPrefix("ABS_MT_POSITION_Y") && $0 != "ABS_MT_POSITION_Y 1400" })
        // The pan moved 50 mm of the 200 mm screen after its slop: a quarter of the page, less the slop's share.
        let lastX = try #require(written.last { $0.hasPrefix("ABS_MT_POSITION_X") }).split(separator: " ").last.flatMap { Int($0) }
        let pan = try #require(d.h.gestures.last { $0.kind == .pan })
        let began = try #require(d.h.gestures.first { $0.kind == .pan })
        guard case .pan(let end) = pan.values, case .pan(let start) = began.values else { Issue.record("no pan values"); return }
        let expected = 2300 + Int(((end.translation.x - start.translation.x) / 2000 * TouchpadAction.defaultStroke.width * 40).rounded())
        #expect(lastX == expected, "\(written)")
    }

    @Test func aPanCancelledMidwayEndsTheTouchpadSwipeCancelledAndAReloadLiftsWhatIsDown() throws {
        let d = try DesktopHarness(config: Self.config)
        let device = try d.h.plug()
        fourFingerDrag(d.h, device, at: 0, steps: 6, lift: false)
        _ = d.touchpad.take()
        d.h.monitor.unplug(node: device.node)
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.summary.last == "pan cancelled screen 4")
        // Four fingers on the pad now; libinput ends the swipe cancelled 100 ms later, and at 150 ms they lift.
        #expect(d.touchpad.take() == ["BTN_TOOL_TRIPLETAP 0", "BTN_TOOL_QUADTAP 1", "SYN"])
        d.h.advance(to: 60 + 140)
        #expect(d.touchpad.take() == [])
        d.h.advance(to: 60 + 160)
        #expect(d.touchpad.take() == [
            "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "BTN_TOOL_QUADTAP 0", "SYN",
        ])
        let again = try d.h.plug("/dev/input/event8")
        fourFingerDrag(d.h, again, at: 2000, steps: 6, lift: false)
        #expect(d.touchpad.take().contains("ABS_MT_TRACKING_ID 3"))
        // Down again on a new device, then the configuration is reloaded: cancelled, as an
        // unplug is, the fingers lifting once libinput has ended the swipe.
        d.h.service.reload()
        #expect(d.touchpad.take() == ["BTN_TOOL_TRIPLETAP 0", "BTN_TOOL_QUADTAP 1", "SYN"])
        d.h.advance(to: 2060 + 160)
        let lifted = d.touchpad.take()
        #expect(lifted.contains("ABS_MT_TRACKING_ID -1") && lifted.last == "SYN")
    }

    @Test func theTouchpadIsMadeAgainWhenTheMachineWakesItsFingersLiftedFirst() throws {
        let d = try DesktopHarness(config: Self.config)
        #expect(d.h.log.lines.contains("info no system bus: the virtual touchpad is not made again after a suspend (GNOME 46 and Plasma 6.1 stop reading it then)"))
        let device = try d.h.plug()
        fourFingerDrag(d.h, device, at: 0, steps: 6, lift: false)
        _ = d.touchpad.take()
        d.h.service.dispatcher.remakeTouchpad(reason: "the machine woke up")
        #expect(d.touchpad.take() == [
            "BTN_TOOL_TRIPLETAP 0", "BTN_TOOL_QUADTAP 1", "SYN",
            "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "BTN_TOOL_QUADTAP 0", "SYN",
        ])
        #expect(d.h.log.lines.contains("info virtual touchpad made again node=- reason=the machine woke up"), "\(d.h.log.lines.suffix(3))")
    }

    @Test func aPanThatNeverMovedThePadKeepsItsFingersPastLibinputsTapTime() throws {
        let d = try DesktopHarness(config: Self.config)
        let device = try d.h.plug()
        // Four fingers moved 5 mm once (the pan begins), then lifted: the pad never moved.
        fourFingerDrag(d.h, device, at: 0, steps: 1)
        #expect(d.h.summary.last == "pan ended screen 4")
        let landed = d.touchpad.take()
        #expect(landed.contains("BTN_TOOL_TRIPLETAP 1") && !landed.contains("ABS_MT_TRACKING_ID -1"))
        d.h.advance(to: 20 + 240)
        #expect(d.touchpad.take() == [])
        d.h.advance(to: 20 + 260)
        #expect(d.touchpad.take().contains("BTN_TOOL_TRIPLETAP 0"))
    }

    /// Two touchscreens; on the first, four fingers have dragged 60 ms and stay down: a
    /// touchpad swipe under way (what it wrote taken).
    func twoScreensOneSwipingOnThePad() throws -> (DesktopHarness, PipeTouchDevice, PipeTouchDevice) {
        let d = try DesktopHarness(config: Self.config)
        let one = try d.h.plug()
        let two = try d.h.plug("/dev/input/event8")
        fourFingerDrag(d.h, one, at: 0, steps: 6, lift: false)
        _ = d.touchpad.take()
        return (d, one, two)
    }

    /// One pad, one gesture: a second touchpad gesture cancels the first, whose finger count
    /// changes at once. libinput ends a gesture cancelled only once a changed count has lasted
    /// 100 ms, so the second's frames wait until the first's fingers lift, 150 ms later; then
    /// they go, in order, after the lift.
    @Test func aSecondTouchpadGestureCancelsTheFirstAndWaitsForItsFingersToLift() throws {
        let (d, _, two) = try twoScreensOneSwipingOnThePad()
        fourFingerDrag(d.h, two, at: 100, steps: 6, lift: false)
        #expect(d.touchpad.take() == ["BTN_TOOL_TRIPLETAP 0", "BTN_TOOL_QUADTAP 1", "SYN"])
        let second = try #require(d.h.gestures.last { $0.kind == .pan && $0.state == .began })
        let began = (second.time - Harness.start).inMilliseconds
        d.h.advance(to: began + 149)
        #expect(d.touchpad.take() == [])
        d.h.advance(to: began + 150)
        let written = d.touchpad.take()
        #expect(Array(written.prefix(9)) == [
            "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "BTN_TOOL_QUADTAP 0", "SYN",
            "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID 3",
        ], "\(written)")
        #expect(!written.contains("BTN_TOOL_QUADTAP 1"))
    }

    /// A touchpad gesture beginning 10 ms after another was cancelled (its device unplugged) and
    /// ending before that one's fingers lift: nothing of it reaches the pad until they have
    /// lifted, 150 ms after the cancel; then all of it, landing, moving and lifting, in order.
    @Test func aTouchpadGestureWhileACancelledOnesFingersAreDownWaitsForThem() throws {
        let (d, one, two) = try twoScreensOneSwipingOnThePad()
        d.h.monitor.unplug(node: one.node)
        d.h.service.runOnce(timeout: 0)
        #expect(d.touchpad.take() == ["BTN_TOOL_TRIPLETAP 0", "BTN_TOOL_QUADTAP 1", "SYN"])
        fourFingerDrag(d.h, two, at: 70, steps: 6)
        #expect(d.h.summary.suffix(1) == ["pan ended screen 4"])
        #expect(d.touchpad.take() == [])
        d.h.advance(to: 60 + 149)
        #expect(d.touchpad.take() == [])
        d.h.advance(to: 60 + 150)
        let written = d.touchpad.take()
        let firstLift = try #require(written.firstIndex(of: "ABS_MT_TRACKING_ID -1"))
        let landing = try #require(written.firstIndex(of: "ABS_MT_TRACKING_ID 3"))
        let moves = written.indices.filter { written[$0].hasPrefix("ABS_MT_POSITION_X") && $0 > landing }
        #expect(firstLift < landing && moves.count >= 2)
        #expect(written.suffix(7) == ["ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "BTN_TOOL_TRIPLETAP 0", "SYN"])
    }

    /// Held frames keep their order and an unmoved gesture its tap time. A swipe is cancelled at
    /// 60 ms (its fingers lift at 210); a gesture that begins and ends unmoved meanwhile lands
    /// at 210, and lifts 250 ms after landing, not after its end; a third, beginning before that,
    /// is held until the lift, and its fingers land after it.
    @Test func heldFramesKeepTheirOrderAndAnUnmovedGestureItsTapTime() throws {
        let (d, one, two) = try twoScreensOneSwipingOnThePad()
        let three = try d.h.plug("/dev/input/event9")
        d.h.monitor.unplug(node: one.node)
        d.h.service.runOnce(timeout: 0)
        _ = d.touchpad.take()
        fourFingerDrag(d.h, two, at: 70, steps: 1)
        #expect(d.h.summary.suffix(1) == ["pan ended screen 4"])
        #expect(d.touchpad.take() == [])
        d.h.advance(to: 209)
        #expect(d.touchpad.take() == [])
        d.h.advance(to: 210)
        let landed = d.touchpad.take()
        #expect(landed.firstIndex(of: "ABS_MT_TRACKING_ID -1") == 1 && landed.contains("ABS_MT_TRACKING_ID 3"), "\(landed)")
        #expect(landed.filter { $0 == "ABS_MT_TRACKING_ID -1" }.count == 2, "only the cancelled swipe's fingers lift: \(landed)")
        fourFingerDrag(d.h, three, at: 300, steps: 6, lift: false)
        #expect(d.touchpad.take() == [])
        d.h.advance(to: 459)
        #expect(d.touchpad.take() == [])
        d.h.advance(to: 460)
        let written = d.touchpad.take()
        #expect(Array(written.prefix(9)) == [
            "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0", "BTN_TOOL_TRIPLETAP 0", "SYN",
            "ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID 5",
        ], "\(written)")
    }

    /// Held frames that never reach the pad: a gesture cancelled while held (its device
    /// unplugged) writes nothing, and the cancelled swipe's fingers lift alone; a whole gesture
    /// held (it ended while an unmoved one's fingers stayed down) when the touchpad is made
    /// again is dropped, and only what is on the pad lifts.
    @Test func heldFramesOfAGestureCancelledOrOfAPadMadeAgainNeverReachIt() throws {
        let (d, one, two) = try twoScreensOneSwipingOnThePad()
        let lift = ["ABS_MT_SLOT 0", "ABS_MT_TRACKING_ID -1", "ABS_MT_SLOT 1", "ABS_MT_TRACKING_ID -1", "BTN_TOUCH 0"]
        d.h.monitor.unplug(node: one.node)
        d.h.service.runOnce(timeout: 0)
        _ = d.touchpad.take()
        fourFingerDrag(d.h, two, at: 70, steps: 6, lift: false)
        d.h.monitor.unplug(node: two.node)
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.summary.suffix(1) == ["pan cancelled screen 4"])
        #expect(d.touchpad.take() == [])
        d.h.advance(to: 210)
        #expect(d.touchpad.take() == lift + ["BTN_TOOL_QUADTAP 0", "SYN"])
        let three = try d.h.plug("/dev/input/event9")
        let four = try d.h.plug("/dev/input/event10")
        fourFingerDrag(d.h, three, at: 300, steps: 1)
        #expect(d.touchpad.take().contains("ABS_MT_TRACKING_ID 5"))
        fourFingerDrag(d.h, four, at: 400, steps: 6)
        #expect(d.h.summary.suffix(1) == ["pan ended screen 4"])
        #expect(d.touchpad.take() == [])
        d.h.service.dispatcher.remakeTouchpad(reason: "the machine woke up")
        #expect(d.touchpad.take() == lift + ["BTN_TOOL_TRIPLETAP 0", "SYN"])
        d.h.advance(to: 1000)
        #expect(d.touchpad.take() == [])
    }

    /// Two gestures of one recognizer held in turn: the first ends, the second is cancelled
    /// while held. The second is dropped; the first still reaches the pad, whole, once the
    /// cancelled swipe's fingers have lifted.
    @Test func aHeldGestureCancelledDropsOnlyItself() throws {
        let (d, one, two) = try twoScreensOneSwipingOnThePad()
        d.h.monitor.unplug(node: one.node)
        d.h.service.runOnce(timeout: 0)
        _ = d.touchpad.take()
        fourFingerDrag(d.h, two, at: 70, steps: 6)
        fourFingerDrag(d.h, two, at: 150, steps: 3, lift: false)
        d.h.monitor.unplug(node: two.node)
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.summary.filter { !$0.contains("changed") }.suffix(4) == [
            "pan began screen 4", "pan ended screen 4", "pan began screen 4", "pan cancelled screen 4",
        ])
        #expect(d.touchpad.take() == [])
        d.h.advance(to: 210)
        let written = d.touchpad.take()
        #expect(written.contains("ABS_MT_TRACKING_ID 3") && !written.contains("ABS_MT_TRACKING_ID 5"), "\(written)")
        #expect(written.filter { $0 == "ABS_MT_TRACKING_ID -1" }.count == 4 && written.last == "SYN")
    }

    @Test func aNegativeStrokeRunsThatAxisTheOtherWay() {
        var s = TouchpadStroke(action: TouchpadAction(kind: .swipe(fingers: 4), stroke: SurfaceSize(width: -38, height: 28.5)),
                               screen: SurfaceSize(width: 1000, height: 500), firstID: 1)
        _ = s.began()
        _ = s.moved(translation: .zero)
        _ = s.moved(translation: Point(x: 500, y: 250))
        #expect(s.positions == [Point(x: 42.5 - 19, y: 35 + 14.25), Point(x: 57.5 - 19, y: 35 + 14.25)])
    }

    @Test func aPinchDrivesATwoFingerTouchpadPinch() throws {
        let d = try DesktopHarness(config: Self.config)
        let device = try d.h.plug()
        // Two fingers 40 mm apart spreading to 80 mm.
        d.h.frame(device, at: 0, [(0, 800, 500), (1, 1200, 500)], begin: true)
        for step in 1...8 { d.h.frame(device, at: Double(step) * 10, [(0, 800 - 25 * Int32(step), 500), (1, 1200 + 25 * Int32(step), 500)]) }
        d.h.frame(device, at: 90, [(0, -1, 0), (1, -1, 0)])
        d.h.advance(to: 1000)
        let pinch = try #require(d.h.gestures.last { $0.kind == .pinch && $0.state == .changed })
        guard case .pinch(let values) = pinch.values else { Issue.record("no pinch values"); return }
        let written = d.touchpad.take()
        #expect(written.contains("BTN_TOOL_DOUBLETAP 1") && written.contains("BTN_TOOL_DOUBLETAP 0"))
        // The last spread is the pinch's last scale times 40 mm.
        let xs = written.filter { $0.hasPrefix("ABS_MT_POSITION_X") }.suffix(2).compactMap { $0.split(separator: " ").last.flatMap { Double($0) } }
        #expect(xs.count == 2 && abs((xs[1] - xs[0]) / 40 - 40 * values.scale) < 0.05, "\(xs), scale \(values.scale)")
    }

    @Test func theActionIsCheckedWhereItIsWritten() {
        func error(_ action: String, kind: String = "pan") -> String? {
            do throws(ConfigurationError) {
                _ = try Configuration.parse(yaml: "layout: {id: root, gestures: [{kind: \(kind), action: {touchpad: \(action)}}]}\n", path: "c.yaml")
                return nil
            } catch {
                return error.description
            }
        }
        #expect(error("{swipe: 3}") == nil)
        #expect(error("{swipe: 4, stroke: [60, 40]}") == nil)
        #expect(error("{pinch: 2}", kind: "pinch") == nil)
        #expect(error("{swipe: 2}") == "c.yaml:1:70: a touchpad swipe has 3 or 4 fingers (libinput scrolls with two), not \"2\"")
        #expect(error("{swipe: 3}", kind: "swipe") == "c.yaml:1:64: a swipe is recognized once, at its end: drive the touchpad swipe from a pan (kind: pan, min-touches and max-touches), which follows the fingers")
        #expect(error("{pinch: 3}", kind: "pinch") == "c.yaml:1:72: a touchpad pinch has 2 fingers (the virtual touchpad has two slots: more fingers are a swipe), not \"3\"")
        #expect(error("{pinch: 2}") == "c.yaml:1:62: touchpad: {pinch: 2} follows a pinch's spread: it goes on a pinch, not a pan")
        #expect(error("{swipe: 3, pinch: 2}") == "c.yaml:1:62: touchpad is a swipe or a pinch, not both")
        #expect(error("{}") == "c.yaml:1:62: touchpad needs swipe (3 or 4 fingers, on a pan) or pinch (2, on a pinch)")
        #expect(error("{swipe: 3, stroke: [0, 5]}") == "c.yaml:1:81: stroke is the mm the touchpad's fingers move for a stroke across the whole screen, not 0 and at most 1000 either way (negative runs it the other way), not 0.0 x 5.0")
        #expect(error("{swipe: 3, stroke: [-38, 28.5]}") == nil)
    }
}

/// Events as their kernel names, `SYN` for a report.
func names(_ events: [InputEvent]) -> [String] {
    events.map { $0.type == EventType.syn ? "SYN" : "\(EventCodeNames.codeName(type: $0.type, code: $0.code)) \($0.value)" }
}
