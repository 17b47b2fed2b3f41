import GestureTesting
import GestureRuntime
import Gestures
import Logging
import ServiceLifecycle
import SystemLoop
import Testing
import TouchEvents
import TouchInput
import TouchInputTesting

/// The fake touchscreen of these tests (200 x 100 mm at 10 units/mm).
let panel = DeviceDescription.testTouchscreen

/// Kernel events for one-finger frames on ``panel``: positions in millimetres, times in ms.
struct Events {
    private(set) var events: [InputEvent] = []
    private var trackingID: Int32 = 0

    mutating func down(at ms: Double, x: Double, y: Double) {
        trackingID += 1
        add(ms, EventType.abs, AbsCode.mtSlot, 0)
        add(ms, EventType.abs, AbsCode.mtTrackingID, trackingID)
        move(at: ms, x: x, y: y, slot: false)
    }

    mutating func move(at ms: Double, x: Double, y: Double, slot: Bool = true) {
        if slot { add(ms, EventType.abs, AbsCode.mtSlot, 0) }
        add(ms, EventType.abs, AbsCode.mtPositionX, Int32(x * 10))
        add(ms, EventType.abs, AbsCode.mtPositionY, Int32(y * 10))
        add(ms, EventType.syn, SynCode.report, 0)
    }

    mutating func up(at ms: Double) {
        add(ms, EventType.abs, AbsCode.mtSlot, 0)
        add(ms, EventType.abs, AbsCode.mtTrackingID, -1)
        add(ms, EventType.syn, SynCode.report, 0)
    }

    mutating func tap(at ms: Double, x: Double, y: Double) {
        down(at: ms, x: x, y: y)
        up(at: ms + 60)
    }

    private mutating func add(_ ms: Double, _ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: .zero + .milliseconds(ms), type: type, code: code, value: value))
    }
}

/// Hands a value to another thread in a test that knows it is safe.
struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// A layout of two buttons with closures that log what they receive.
final class Kiosk {
    var log: [String] = []
    let layout: Layout

    init() {
        let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let play = Region(id: "play", frame: Rect(x: 10, y: 10, width: 40, height: 40))
        let slider = Region(id: "slider", frame: Rect(x: 60, y: 10, width: 100, height: 40))
        root.addChild(play)
        root.addChild(slider)
        layout = Layout(root: root)
        play.onTap(owner: self) { kiosk, tap in kiosk.log.append("play tapped at \(tap.localLocation.x),\(tap.localLocation.y)") }
        slider.onPan(owner: self) { kiosk, pan in kiosk.log.append("slider \(pan.state) at \(pan.localLocation.x)") }
    }
}

@Suite("GestureRuntime on fake devices", .serialized)
struct GestureRuntimeTests {
    let monitor = ManualDeviceMonitor()
    let clock = ManualClock(start: .zero)

    func runtime(_ source: GestureRuntime.LayoutSource) throws -> GestureRuntime {
        let monitor = self.monitor
        return try GestureRuntime(source: source, clock: clock, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) {
            monitor
        }
    }

    /// Plugs in a fake device at `node` and lets the runtime take it.
    @discardableResult
    func plug(_ node: String, _ description: DeviceDescription = panel, into runtime: GestureRuntime) throws -> PipeTouchDevice {
        let device = try PipeTouchDevice(node: node, description: description)
        monitor.plugIn(device)
        runtime.runOnce(timeout: 0)
        return device
    }

    /// Plays `events` into `device` and lets the runtime handle them, moving the clock with them.
    func play(_ events: [InputEvent], into device: PipeTouchDevice, _ runtime: GestureRuntime) {
        for event in events {
            device.write([event])
            if event.type == EventType.syn {
                clock.advance(to: event.time)
                runtime.runOnce(timeout: 0)
            }
        }
    }

    @Test func closuresRunOnALiveDeviceAsInAReplayAndAnUnpluggedDeviceCancelsItsGesture() throws {
        let kiosk = Kiosk()
        let runtime = try runtime(.shared(kiosk.layout))
        try runtime.start()
        let device = try plug("/dev/input/event7", into: runtime)
        #expect(runtime.sessions.map(\.node) == ["/dev/input/event7"])

        var e = Events()
        e.tap(at: 0, x: 20, y: 30)
        e.down(at: 1000, x: 70, y: 30)
        e.move(at: 1050, x: 90, y: 30)
        play(e.events, into: device, runtime)
        // Unplugged mid-drag: the pan ends cancelled.
        monitor.unplug(node: "/dev/input/event7")
        runtime.runOnce(timeout: 0)
        #expect(runtime.sessions.isEmpty)

        // Plugged back: the same closures, a fresh session.
        let again = try plug("/dev/input/event8", into: runtime)
        var f = Events()
        f.tap(at: 2000, x: 30, y: 20)
        play(f.events, into: again, runtime)
        runtime.shutdown()
        #expect(kiosk.log == [
            "play tapped at 10.0,20.0",
            "slider began at 30.0",
            "slider cancelled at 30.0",
            "play tapped at 20.0,10.0",
        ])
    }

    /// A layout in the app's pixels: with `screen:` the panel's 200 x 100 mm map onto its
    /// 1000 x 500; without, the mismatch is a warning when the device starts.
    @Test func aScreenMapsALiveTouchscreenOntoTheLayoutAndAMismatchIsLogged() throws {
        var log: [String] = []
        let root = Region(id: "screen", frame: Rect(x: 0, y: 0, width: 1000, height: 500))
        root.onTap { tap in log.append("tap at \(tap.location.x),\(tap.location.y)") }
        let layout = Layout(root: root)
        let monitor = self.monitor
        let runtime = try GestureRuntime(source: .shared(layout), screen: .rootFrame, clock: clock,
                                         logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) { monitor }
        try runtime.start()
        // A touchpad first: not on the screen, it is left alone and the touchscreen drives the layout.
        try plug("/dev/input/event6", .testTouchpad, into: runtime)
        #expect(runtime.sessions.isEmpty)
        let device = try plug("/dev/input/event7", into: runtime)
        #expect(runtime.sessions.map(\.node) == ["/dev/input/event7"])
        var e = Events()
        e.tap(at: 0, x: 20, y: 30)
        play(e.events, into: device, runtime)
        runtime.shutdown()
        #expect(log == ["tap at 100.0,150.0"])

        let recorder = LogRecorder()
        let unmapped = try GestureRuntime(source: .shared(Layout(root: Region(id: "r", frame: Rect(x: 0, y: 0, width: 1000, height: 500)))),
                                          clock: clock, logger: Logger(label: "test") { _ in recorder }) { monitor }
        try unmapped.start()
        try plug("/dev/input/event8", into: unmapped)
        unmapped.shutdown()
        #expect(recorder.lines.filter { $0.contains("does not fit") } == [
            "warning the layout does not fit the device device=\(panel.name) node=/dev/input/event8 problem=the layout's root is 1000 × 500 "
                + "but the touchscreen maps onto 200 × 100 mm (its own millimetres: no screen) of it: most of the layout cannot be touched; "
                + "give the layout's screen (GestureRuntime(layout:screen:), replay's screen:), or a configuration's output",
        ])
    }

    /// Work that shares the loop (the service's clients) asks for the devices between its
    /// pieces: they are read once ``SharedEventLoop/urgentPollInterval`` has passed since that
    /// work began or they last were, not before — a frame waits behind such work no longer.
    @Test func devicesAreReadBetweenOtherWorkOnceTheIntervalHasPassed() throws {
        let kiosk = Kiosk()
        let runtime = try runtime(.shared(kiosk.layout))
        try runtime.start()
        let device = try plug("/dev/input/event7", into: runtime)
        runtime.runOnce(timeout: 0)  // the turn reads the devices
        runtime.loop.pollUrgentIfDue()  // other work begins: the interval starts now
        var e = Events()
        e.tap(at: 0, x: 20, y: 30)
        device.write(e.events)  // arrives while the loop is busy with other work
        clock.advance(to: clock.now + .microseconds(499))
        runtime.loop.pollUrgentIfDue()
        #expect(kiosk.log == [], "read 0.499 ms ago: not yet")
        clock.advance(to: clock.now + .microseconds(1))
        runtime.loop.pollUrgentIfDue()
        #expect(kiosk.log == ["play tapped at 10.0,20.0"], "0.5 ms: read, in the middle of the other work")
        runtime.shutdown()
    }

    /// The runtime is one user of a loop it may share (the service is another): it registers
    /// its devices and deadlines there, and takes them back when it goes, even unstopped — the
    /// loop goes on for its other users, and a frame the gone runtime's device sends reaches
    /// no one.
    @Test func aRuntimeSharingALoopTakesBackWhatItRegisteredWhenItGoes() throws {
        let loop = try SharedEventLoop(clock: clock)
        var turns: [String] = []
        loop.endOfTurn { turns.append("the other user's work") }
        let kiosk = Kiosk()
        var runtime: GestureRuntime? = try GestureRuntime(source: .shared(kiosk.layout), clock: clock,
                                                          logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
                                                          loop: loop) { [monitor] in monitor }
        try runtime?.start()
        let device = try PipeTouchDevice(node: "/dev/input/event7", description: panel)
        monitor.plugIn(device)
        loop.runOnce(timeout: 0)  // the runtime takes the device, on the shared loop
        var e = Events()
        e.tap(at: 0, x: 20, y: 30)
        device.write(Array(e.events.prefix(3)))
        loop.runOnce(timeout: 0)
        #expect(runtime?.sessions.count == 1)
        weak let gone = runtime
        runtime = nil
        #expect(gone == nil, "nothing the loop holds keeps the runtime")
        device.write(Array(e.events.dropFirst(3)))
        loop.runOnce(timeout: 0)
        #expect(kiosk.log == [], "the tap's end reached no one")
        #expect(turns == ["the other user's work", "the other user's work", "the other user's work"])
    }

    @Test func aSharedLayoutIsDrivenByOneDeviceAtATimeAndPassesToTheNext() throws {
        let kiosk = Kiosk()
        let runtime = try runtime(.shared(kiosk.layout))
        try runtime.start()
        let first = try PipeTouchDevice(node: "/dev/input/event3", description: panel)
        let second = try PipeTouchDevice(node: "/dev/input/event4", description: panel)
        monitor.plugIn(first)
        monitor.plugIn(second)
        runtime.runOnce(timeout: 0)
        #expect(runtime.sessions.map(\.node) == ["/dev/input/event3"])
        monitor.unplug(node: "/dev/input/event3")
        runtime.runOnce(timeout: 0)
        #expect(runtime.sessions.map(\.node) == ["/dev/input/event4"])
        var e = Events()
        e.tap(at: 0, x: 20, y: 30)
        play(e.events, into: second, runtime)
        #expect(kiosk.log == ["play tapped at 10.0,20.0"])
        runtime.shutdown()
    }

    @Test func aNodeReportedAgainReplacesItsDeviceAndTheOldOneIsNeverReadAgain() throws {
        let kiosk = Kiosk()
        let runtime = try runtime(.shared(kiosk.layout))
        try runtime.start()
        let old = try plug("/dev/input/event5", into: runtime)
        let new = try plug("/dev/input/event5", into: runtime)  // no removal in between
        #expect(runtime.sessions.count == 1)
        var e = Events()
        e.tap(at: 0, x: 20, y: 30)
        play(e.events, into: old, runtime)
        #expect(kiosk.log.isEmpty, "the replaced device is not read")
        var f = Events()
        f.tap(at: 1000, x: 30, y: 20)
        play(f.events, into: new, runtime)
        old.closeWriter()  // its end of file must not reach the loop either
        runtime.runOnce(timeout: 0)
        #expect(runtime.sessions.map(\.node) == ["/dev/input/event5"])
        runtime.shutdown()
        #expect(kiosk.log == ["play tapped at 20.0,10.0"])
    }

    @Test func eachDeviceCanHaveALayoutOfItsOwnOrBeLeftAlone() throws {
        var made: [String] = []
        let runtime = try runtime(.perDevice { description in
            made.append(description.name)
            guard description.kind == .touchscreen else { return nil }
            return Layout.standard(size: (200, 100), touchscreen: true)
        })
        var pad = panel
        pad.properties = [InputProperty.pointer]  // not direct: a touchpad
        pad.name = "Test Pad"
        try runtime.start()
        monitor.plugIn(try PipeTouchDevice(node: "/dev/input/event1", description: pad))
        monitor.plugIn(try PipeTouchDevice(node: "/dev/input/event2", description: panel))
        runtime.runOnce(timeout: 0)
        #expect(made == ["Test Pad", "Test Panel"])
        #expect(runtime.sessions.map(\.description.name) == ["Test Panel"])
        runtime.shutdown()
    }

    @Test func aLayoutChangeHandedFromAnotherThreadRunsBetweenFrames() async throws {
        let kiosk = Kiosk()
        let runtime = try runtime(.shared(kiosk.layout))
        try runtime.start()
        let device = try plug("/dev/input/event7", into: runtime)
        var before = Events()
        before.tap(at: 0, x: 20, y: 30)
        play(before.events, into: device, runtime)
        let layout = Unchecked(kiosk.layout)
        await Task.detached {
            runtime.perform { layout.value.region("play")?.isEnabled = false }
        }.value
        runtime.runOnce(timeout: 0)  // woken by perform: the change is made
        var after = Events()
        after.tap(at: 1000, x: 25, y: 30)
        after.tap(at: 2000, x: 80, y: 30)  // the slider, still enabled: the device is still read
        after.down(at: 3000, x: 80, y: 30)
        after.move(at: 3050, x: 95, y: 30)
        after.up(at: 3100)
        play(after.events, into: device, runtime)
        runtime.shutdown()
        // The first tap reached the button; the one after the change did not (it is disabled).
        #expect(kiosk.log == ["play tapped at 10.0,20.0", "slider began at 35.0", "slider ended at 35.0"])
    }

    @Test func garbageFromADeviceResetsItAndTheLayoutGoesOn() throws {
        let kiosk = Kiosk()
        let runtime = try runtime(.shared(kiosk.layout))
        try runtime.start()
        let device = try plug("/dev/input/event7", into: runtime)
        var e = Events()
        e.down(at: 0, x: 70, y: 30)
        e.move(at: 50, x: 90, y: 30)
        play(e.events, into: device, runtime)
        // A slot no device has: the decoder is reset, the drag cancelled.
        play([InputEvent(time: .zero + .milliseconds(60), type: EventType.abs, code: AbsCode.mtSlot, value: 99),
              InputEvent(time: .zero + .milliseconds(60), type: EventType.syn, code: SynCode.report, value: 0)],
             into: device, runtime)
        var f = Events()
        f.tap(at: 500, x: 20, y: 30)
        play(f.events, into: device, runtime)
        #expect(runtime.sessions.count == 1)
        #expect(kiosk.log == ["slider began at 30.0", "slider cancelled at 30.0", "play tapped at 10.0,20.0"])
        runtime.shutdown()
    }

    /// What an app may watch and change on a running runtime: each frame's handling (its
    /// kernel time and when it was handled), a device's trouble (a reset for garbage), and a new
    /// source of layouts, which starts every device over (a drag under way ends cancelled).
    @Test func anAppWatchesFramesAndTroubleAndReplacesTheLayouts() throws {
        let kiosk = Kiosk()
        let runtime = try runtime(.shared(kiosk.layout))
        var handled: [String] = []
        var trouble: [String] = []
        runtime.onFrameHandled = { eventTime, handledAt in handled.append("\(eventTime) at \(handledAt)") }
        runtime.onDeviceTrouble = { what, session in trouble.append("\(what) \(session.node ?? "-")") }
        try runtime.start()
        let device = try plug("/dev/input/event7", into: runtime)
        var e = Events()
        e.down(at: 0, x: 70, y: 30)
        e.move(at: 50, x: 90, y: 30)
        play(e.events, into: device, runtime)
        #expect(handled == ["0.000000s at 0.000000s", "0.050000s at 0.050000s"])
        play([InputEvent(time: .zero + .milliseconds(60), type: EventType.abs, code: AbsCode.mtSlot, value: 99),
              InputEvent(time: .zero + .milliseconds(60), type: EventType.syn, code: SynCode.report, value: 0)],
             into: device, runtime)
        #expect(trouble == ["reset /dev/input/event7"])
        var f = Events()
        f.down(at: 500, x: 70, y: 30)
        f.move(at: 550, x: 90, y: 30)
        play(f.events, into: device, runtime)
        let other = Kiosk()
        runtime.replaceSource(.shared(other.layout))
        var g = Events()
        g.tap(at: 1000, x: 20, y: 30)
        play(g.events, into: device, runtime)
        runtime.shutdown()
        #expect(kiosk.log == ["slider began at 30.0", "slider cancelled at 30.0", "slider began at 30.0", "slider cancelled at 30.0"])
        #expect(other.log == ["play tapped at 10.0,20.0"])
    }

    @Test func aSeatThatCannotBeOpenedIsATypedErrorNamingIt() throws {
        let runtime = try GestureRuntime(source: .standard, clock: clock, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) {
            () throws(InputError) -> any DeviceMonitor in
            throw InputError(path: "seat9", message: "no such seat")
        }
        #expect(throws: GestureRuntime.RunError.self) { try runtime.start() }
        do throws(GestureRuntime.RunError) {
            try runtime.start()
        } catch {
            #expect(error.description == "cannot open the seat: seat9: no such seat")
        }
        // A failed start leaves the runtime able to start again (it is not "running").
        let working = try self.runtime(.standard)
        try working.start()
        #expect(throws: GestureRuntime.RunError.self) { try working.start() }
        working.shutdown()
    }

    @Test func itRunsAsAServiceWithGestureSequenceAndStopsOnGracefulShutdown() async throws {
        let kiosk = Kiosk()
        let runtime = try runtime(.shared(kiosk.layout))
        let device = try PipeTouchDevice(node: "/dev/input/event7", description: panel)
        monitor.plugIn(device)
        var e = Events()
        e.tap(at: 0, x: 20, y: 30)
        e.tap(at: 1000, x: 25, y: 35)
        device.write(e.events)
        let gestures = runtime.gestures
        let group = ServiceGroup(configuration: .init(services: [runtime], logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }))
        async let finished: Void = group.run()
        var seen: [String] = []
        for await g in gestures {
            seen.append("\(g.kind) \(g.state) \(g.region) \(g.location.x),\(g.location.y)")
            if seen.count == 2 { break }
        }
        await group.triggerGracefulShutdown()
        try await finished
        #expect(seen == ["tap recognized play 20.0,30.0", "tap recognized play 25.0,35.0"])
    }
}
