import GestureRuntime
import GestureTesting
import Gestures
import Logging
import Testing
import TouchEvents
import TouchInput
import TouchInputTesting

/// A runtime that owns its device: the device grabbed, a twin standing in for it, what no
/// owning gesture takes passed on, what one takes cancelled there (pipe devices, a manual clock).
@Suite("Owned devices", .serialized)
struct OwnedDeviceTests {
    let monitor = ManualDeviceMonitor()
    let clock = ManualClock(start: .zero)
    let logs = LogRecorder()
    /// Every twin made, in order.
    final class Twins { var made: [RecordingTwin] = [] }
    let twins = Twins()

    /// A layout of the whole panel with a tap that shares its touches and a four-finger
    /// swipe left that owns them (as a configuration's swipe bound to a program does).
    func kiosk(log: @escaping (String) -> Void) -> Layout {
        let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let swipe = SwipeRecognizer(directions: [.left], touches: 4)
        swipe.ownsTouches = true
        root.add(swipe)
        root.onTap { _ in log("tap") }
        swipe.addHandler { g in log("swipe \(g.state)") }
        return Layout(root: root)
    }

    func runtime(_ layout: Layout, ownership: TouchOwnership? = TouchOwnership()) throws -> GestureRuntime {
        let monitor = self.monitor
        let logs = self.logs
        let runtime = try GestureRuntime(source: .shared(layout), clock: clock, logger: Logger(label: "test") { _ in logs }) {
            monitor
        }
        runtime.ownership = ownership
        let twins = self.twins
        runtime.makeTwin = { _, _ throws(InputError) in
            let twin = RecordingTwin()
            twins.made.append(twin)
            return twin
        }
        try runtime.start()
        return runtime
    }

    /// A pipe touchscreen plugged in; with `slotValues`, one touched before (what its slots hold).
    func plug(_ runtime: GestureRuntime, refuseGrab: Bool = false, slotValues: [[UInt16: Int32]] = []) throws -> PipeTouchDevice {
        let device = try PipeTouchDevice(node: "/dev/input/event7", description: .testTouchscreen)
        device.currentSlotValues = slotValues
        if refuseGrab { device.grabRefusal = InputError(path: device.node, message: "cannot grab: another program holds the device (Device or resource busy)") }
        monitor.plugIn(device)
        runtime.runOnce(timeout: 0)
        return device
    }

    func play(_ frames: KernelFrames, into device: PipeTouchDevice, _ runtime: GestureRuntime) {
        var frame: [InputEvent] = []
        for e in frames.events {
            frame.append(e)
            guard e.isReport else { continue }
            device.write(frame)
            frame = []
            clock.advance(to: e.time)
            runtime.runOnce(timeout: 0)
        }
    }

    /// A tap at (50, 50) mm, then four fingers swiping left 40 mm in 100 ms (landing 10 ms
    /// apart), or, `quick`, 64 mm in 80 ms (landing together).
    func tapThenFourFingerSwipe(quick: Bool = false) -> KernelFrames {
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 500, y: 500) }
        f.frame(60) { $0.up(0) }
        for n in 0..<4 {
            f.frame(1000 + (quick ? 0 : Double(n) * 10)) { $0.down(Int32(n), id: Int32(10 + n), x: 1500, y: 200 + Int32(n) * 150) }
        }
        for step in 1...(quick ? 8 : 10) {
            f.frame(1030 + Double(step) * 10) { for n in 0..<4 { $0.move(Int32(n), x: 1500 - Int32(step) * (quick ? 80 : 40)) } }
        }
        f.frame(1200) { for n in 0..<4 { $0.up(Int32(n)) } }
        return f
    }

    @Test func aSharedTapPassesToTheTwinAndAnOwnedSwipeIsCancelledThere() throws {
        var log: [String] = []
        let runtime = try runtime(kiosk { log.append($0) })
        let device = try plug(runtime)
        #expect(device.isGrabbed)
        #expect(twins.made.count == 1)
        play(tapThenFourFingerSwipe(), into: device, runtime)
        // Each kernel frame the twin gets comes in one write.
        let lines = twinLines(twins.made[0].events)
        #expect(log == ["tap", "swipe recognized"])
        // The tap as the device sent it; the swipe's fingers land, move, and are cancelled
        // (palm, then lifted) in the frame the swipe is recognized; nothing of them follows.
        let swipeRecognizedAt = lines.firstIndex(of: "slot 0, palm, slot 1, palm, slot 2, palm, slot 3, palm")
        #expect(swipeRecognizedAt != nil)
        #expect(Array(lines.prefix(6)) == [
            "slot 0, id 1, x 500, y 500, touch 1",
            "id -1, touch 0",
            "id 10, x 1500, y 200, touch 1",
            "slot 1, id 11, x 1500, y 350",
            "slot 2, id 12, x 1500, y 500",
            "slot 3, id 13, x 1500, y 650",
        ])
        if let i = swipeRecognizedAt {
            #expect(Array(lines[(i + 1)...]) == ["slot 0, id -1, slot 1, id -1, slot 2, id -1, slot 3, id -1, touch 0"])
            #expect(!lines[..<i].contains { $0.contains("id -1") && $0 != "id -1, touch 0" })
        }
        runtime.shutdown()
        #expect(!device.isGrabbed)
    }

    @Test func withAHoldBackTheOwnedSwipeNeverReachesTheTwinAndTheTapComesLate() throws {
        var log: [String] = []
        let runtime = try runtime(kiosk { log.append($0) }, ownership: TouchOwnership(holdBack: .milliseconds(60)))
        let device = try plug(runtime)
        play(tapThenFourFingerSwipe(quick: true), into: device, runtime)
        #expect(log == ["tap", "swipe recognized"])
        // The tap (60 ms long) goes whole at its lift; no touch of the swipe at all.
        #expect(twinLines(twins.made[0].events) == [
            "slot 0, id 1, x 500, y 500, touch 1",
            "id -1, touch 0",
        ])
        runtime.shutdown()
    }

    /// A tap that shares its touches, waiting for a double tap that owns them (as a double tap
    /// bound to a program does); taps 60 ms long, the second 100 ms after the first.
    func tapAndOwnedDoubleTap(log: @escaping (String) -> Void) -> Layout {
        let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        root.onDoubleTap(configure: { $0.ownsTouches = true }) { _ in log("double tap") }
        root.onTap { _ in log("tap") }
        return Layout(root: root)
    }

    func taps(_ count: Int) -> KernelFrames {
        var f = KernelFrames()
        for n in 0..<count {
            f.frame(Double(n) * 160) { $0.down(0, id: Int32(1 + n), x: 500 + Int32(n) * 10, y: 500) }
            f.frame(Double(n) * 160 + 60) { $0.up(0) }
        }
        return f
    }

    /// The double tap owns the first tap's touch too, though it lifted before the double tap
    /// was recognized: its lift waited on the twin, and both taps end cancelled, none lifted.
    @Test func aDoubleTapThatOwnsItsTouchesHasBothTapsCancelledOnTheTwin() throws {
        var log: [String] = []
        let runtime = try runtime(tapAndOwnedDoubleTap { log.append($0) })
        let device = try plug(runtime)
        play(taps(2), into: device, runtime)
        #expect(log == ["double tap"])
        #expect(twinLines(twins.made[0].events) == [
            "slot 0, id 1, x 500, y 500, touch 1",
            "slot 1, id 2, x 510, y 500",
            "slot 0, palm, slot 1, palm",
            "slot 0, id -1, slot 1, id -1, touch 0",
        ])
        // A tap afterwards is the app's again.
        var later = KernelFrames()
        later.frame(1000) { $0.down(0, id: 3, x: 500, y: 500) }
        later.frame(1060) { $0.up(0) }
        play(later, into: device, runtime)
        clock.advance(to: .zero + .milliseconds(2000))
        runtime.runOnce(timeout: 0)
        #expect(log == ["double tap", "tap"])
        #expect(Array(twinLines(twins.made[0].events).dropFirst(4)) == ["slot 0, finger, id 3, touch 1", "id -1, touch 0"])
        runtime.shutdown()
    }

    /// A single tap: its lift waits for the double tap, and reaches the twin when the double
    /// tap fails at its deadline (the app reads its tap then).
    @Test func aSingleTapsLiftReachesTheTwinWhenTheDoubleTapFails() throws {
        var log: [String] = []
        let runtime = try runtime(tapAndOwnedDoubleTap { log.append($0) })
        let device = try plug(runtime)
        play(taps(1), into: device, runtime)
        #expect(twinLines(twins.made[0].events) == ["slot 0, id 1, x 500, y 500, touch 1"])
        clock.advance(to: .zero + .milliseconds(1000))  // past the double tap's deadline
        runtime.runOnce(timeout: 0)
        #expect(log == ["tap"])
        #expect(twinLines(twins.made[0].events) == ["slot 0, id 1, x 500, y 500, touch 1", "id -1, touch 0"])
        runtime.shutdown()
    }

    /// With a hold-back, a touch where no gesture owns its touches (a button whose tap shares
    /// them; the owning swipe belongs to a panel of its own) reaches the twin at once, frame
    /// by frame; one on the panel is held back.
    @Test func withAHoldBackATouchNoGestureCanOwnIsNotHeld() throws {
        let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let button = Region(id: "button", frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let panel = Region(id: "panel", frame: Rect(x: 100, y: 0, width: 100, height: 100))
        let swipe = SwipeRecognizer(directions: [.left], touches: 4)
        swipe.ownsTouches = true
        panel.add(swipe)
        root.addChild(button)
        root.addChild(panel)
        button.onTap { _ in }
        let runtime = try runtime(Layout(root: root), ownership: TouchOwnership(holdBack: .milliseconds(60)))
        let device = try plug(runtime)
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 500, y: 500) }   // 50 mm: the button
        f.frame(20) { $0.move(0, x: 502) }
        f.frame(40) { $0.down(1, id: 2, x: 1500, y: 500) }  // 150 mm: the panel
        play(f, into: device, runtime)
        #expect(twinLines(twins.made[0].events) == ["slot 0, id 1, x 500, y 500, touch 1", "x 502"])
        runtime.shutdown()
    }

    @Test func aStopInTheMiddleOfATouchCancelsItOnTheTwinAndLetsTheDeviceGo() throws {
        let runtime = try runtime(kiosk { _ in })
        let device = try plug(runtime)
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 500, y: 500) }
        play(f, into: device, runtime)
        runtime.shutdown()
        #expect(twinLines(twins.made[0].events) == [
            "slot 0, id 1, x 500, y 500, touch 1",
            "palm",
            "id -1, touch 0",
        ])
        #expect(!device.isGrabbed)
        #expect(logs.lines.contains("info touch device no longer owned: the compositor reads it again device=Test Panel node=/dev/input/event7"))
    }

    /// A device that cannot be owned (`refuseGrab`, or `twinFails`): not grabbed, no twin, the
    /// log line that says why (`logged`: its start, and a part of its error), and its gestures
    /// as unowned.
    func expectReadWithoutOwning(refuseGrab: Bool = false, twinFails: Bool = false, logged: (String, String)) throws {
        var log: [String] = []
        let runtime = try runtime(kiosk { log.append($0) })
        if twinFails {
            runtime.makeTwin = { _, _ throws(InputError) in
                throw InputError(path: "/dev/uinput", message: "cannot create a virtual device: Permission denied")
            }
        }
        let device = try plug(runtime, refuseGrab: refuseGrab)
        #expect(twins.made.isEmpty)
        #expect(!device.isGrabbed)
        #expect(logs.lines.contains { $0.hasPrefix(logged.0) && $0.contains(logged.1) })
        // Its gestures still work.
        play(tapThenFourFingerSwipe(), into: device, runtime)
        #expect(log == ["tap", "swipe recognized"])
        runtime.shutdown()
    }

    @Test func aDeviceAnotherProgramHoldsIsReadWithoutOwningIt() throws {
        try expectReadWithoutOwning(refuseGrab: true, logged: (
            "error cannot own the device: it is read without owning it device=Test Panel", "another program holds the device"))
    }

    @Test func withoutATwinTheDeviceIsLetGoAndReadWithoutOwningIt() throws {
        try expectReadWithoutOwning(twinFails: true, logged: (
            "error cannot own the device: no twin could be made for it; it is read without owning it device=Test Panel",
            "error=cannot create a virtual device: Permission denied"))
    }

    @Test func aReplacedSourceThatStillOwnsKeepsTheTwinAndOneThatDoesNotLetsGo() throws {
        let runtime = try runtime(kiosk { _ in })
        let device = try plug(runtime)
        runtime.replaceSource(.shared(kiosk { _ in }))
        #expect(twins.made.count == 1)
        #expect(device.isGrabbed)
        runtime.ownership = nil
        runtime.replaceSource(.shared(kiosk { _ in }))
        #expect(!device.isGrabbed)
        runtime.shutdown()
    }

    /// A reload while a lift waits for a double tap: the ended session's gestures are over,
    /// so the lift reaches the twin at once, not stuck down until the next touch.
    @Test func aReloadLetsALiftThatWaitedForTheOldLayoutGo() throws {
        let runtime = try runtime(tapAndOwnedDoubleTap { _ in })
        let device = try plug(runtime)
        play(taps(1), into: device, runtime)
        #expect(twinLines(twins.made[0].events) == ["slot 0, id 1, x 500, y 500, touch 1"])
        runtime.replaceSource(.shared(tapAndOwnedDoubleTap { _ in }))
        #expect(twins.made.count == 1)
        #expect(twinLines(twins.made[0].events) == ["slot 0, id 1, x 500, y 500, touch 1", "id -1, touch 0"])
        runtime.shutdown()
    }

    /// An owned device unplugged mid-touch: its touch ends on the twin, and the twin goes
    /// ``GestureRuntime/twinLinger`` later, not before (a compositor reading the removal first
    /// would leave the touch down in its app).
    @Test func anUnpluggedDeviceCancelsItsTouchesOnTheTwinAndTheTwinGoes() throws {
        let runtime = try runtime(kiosk { _ in })
        let device = try plug(runtime)
        var f = KernelFrames()
        f.frame(0) { $0.down(0, id: 1, x: 500, y: 500) }
        play(f, into: device, runtime)
        weak let twin = twins.made.first
        clock.advance(to: .zero + .seconds(1))
        monitor.unplug(node: device.node)
        runtime.runOnce(timeout: 0)
        #expect(twinLines(twins.made[0].events).suffix(2) == ["palm", "id -1, touch 0"])
        twins.made.removeAll()
        // It stays until the compositor has had time to read the lift: a uinput device's
        // readers lose what they had not read when it goes.
        #expect(twin != nil)
        clock.advance(to: .zero + .seconds(1) + GestureRuntime.twinLinger - .milliseconds(1))
        runtime.runOnce(timeout: 0)
        #expect(twin != nil)
        clock.advance(to: .zero + .seconds(1) + GestureRuntime.twinLinger)
        runtime.runOnce(timeout: 0)
        #expect(twin == nil)
        runtime.shutdown()
    }

    /// `end-owned-touches: auto` (issue 64): the running compositor decides, looked at as the
    /// device is owned and again once ``GestureRuntime/compositorRecheck`` has passed — a
    /// kiosk's cage starts after the service.
    @Test func automaticEndingFollowsTheCompositorRunning() throws {
        var log: [String] = []
        let runtime = try runtime(kiosk { log.append($0) })
        final class Running { var compositor: RunningCompositor? }
        let running = Running()
        runtime.findCompositor = { running.compositor }
        let device = try plug(runtime)
        // No compositor yet: the swipe's touches are cancelled (palm, then lifted).
        play(tapThenFourFingerSwipe(), into: device, runtime)
        #expect(twinLines(twins.made[0].events).contains("slot 0, palm, slot 1, palm, slot 2, palm, slot 3, palm"))
        // cage starts: within the recheck time nothing changes; after it, the next swipe's
        // touches lift where they are.
        running.compositor = RunningCompositor(name: "cage", pid: 300)
        let before = twins.made[0].events.count
        clock.advance(to: .zero + .seconds(10))
        var later = KernelFrames()
        for event in tapThenFourFingerSwipe().events {
            later.add(event.type, event.code, event.value, at: event.time + .seconds(10))
        }
        play(later, into: device, runtime)
        let lines = twinLines(Array(twins.made[0].events[before...]))
        #expect(log == ["tap", "swipe recognized", "tap", "swipe recognized"])
        #expect(!lines.contains { $0.contains("palm") })
        #expect(lines.last == "slot 0, id -1, slot 1, id -1, slot 2, id -1, slot 3, id -1, touch 0")
        #expect(logs.lines.contains { $0.contains("owned touches the apps had end with a lift") && $0.contains("cage drops libinput's touch cancel") })
        runtime.shutdown()
    }

    /// A tap in slot 0 that brings no position (the kernel's, where the slot's did not change).
    static let tapWithoutPosition = {
        var f = KernelFrames()
        f.frame(0) { $0.add(EventType.abs, AbsCode.mtSlot, 0); $0.add(EventType.abs, AbsCode.mtTrackingID, 9) }
        f.frame(60) { $0.up(0) }
        return f
    }()

    /// Issue 64, the tap "at the screen's corner": a device touched before the service owned it
    /// keeps its slots' values, and the kernel leaves a value out where it does not change. A
    /// tap where the last touch in its slot was brings no position; the twin, made since, must
    /// still put it there.
    @Test func aTouchThatBringsNoPositionLandsOnTheTwinWhereTheDeviceHasIt() throws {
        let runtime = try runtime(kiosk { _ in })
        let device = try plug(runtime, slotValues: [[AbsCode.mtPositionX: 500, AbsCode.mtPositionY: 700, AbsCode.mtTrackingID: -1]])
        play(Self.tapWithoutPosition, into: device, runtime)
        #expect(twinLines(twins.made[0].events) == ["slot 0, id 9, x 500, y 700, touch 1", "id -1, touch 0"])
        runtime.shutdown()
    }

    /// The same, for gestured's own gestures (owned or not): a tap that brings no position
    /// lands where the device's slot has it, not at 0 (a region at the screen's corner).
    @Test func aTapThatBringsNoPositionIsRecognizedWhereTheDeviceHasIt() throws {
        var log: [String] = []
        let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        root.onTap { g in log.append("tap at \(g.location.x), \(g.location.y)") }
        let runtime = try runtime(Layout(root: root), ownership: nil)
        let device = try plug(runtime, slotValues: [[AbsCode.mtPositionX: 500, AbsCode.mtPositionY: 700, AbsCode.mtTrackingID: -1]])
        play(Self.tapWithoutPosition, into: device, runtime)
        clock.advance(to: .zero + .seconds(1))
        runtime.runOnce(timeout: 0)
        #expect(log == ["tap at 50.0, 70.0"])
        runtime.shutdown()
    }
}
