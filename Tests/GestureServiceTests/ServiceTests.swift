import Foundation
import GestureTesting
import GestureProtocol
import GestureReplay
import GestureRuntime
import GestureConfiguration
import GestureService
import Gestures
import Logging
import SystemLoop
import Testing
import TouchEvents
import TouchInput
import TouchInputTesting
import TouchRecordings

let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// The fake touchscreen of these tests (200 x 100 mm at 10 units/mm).
let touchscreen = DeviceDescription.testTouchscreen

/// A service on a manual clock with fake devices; every gesture and log line is kept.
final class Harness {
    let monitor = ManualDeviceMonitor()
    /// Where the clock starts: 1000 s, as a machine up for a while.
    static let start = Instant(microseconds: 1_000_000_000)
    let clock: ManualClock
    let log = LogRecorder(level: .debug)
    let folder: String
    /// What the service printed (`--json` lines), each without its newline.
    var printed: [String] { output.lines }
    private let output = PrintedLines()
    /// How many pieces the service wrote them in (one per turn of the loop that printed).
    var printedWrites: Int { output.writes }
    final class PrintedLines: @unchecked Sendable {
        var lines: [String] = []
        var writes = 0
    }
    var gestures: [Gesture] = []
    let service: GestureService
    private var nextTrackingID: Int32 = 1

    /// `prepare` runs before the service starts (to put recorders in place of virtual devices).
    init(config: String? = nil, socket: Bool = false, json: Bool = true, start: Instant = Harness.start, folder: String? = nil,
         environment: [String: String] = [:], budgets: ServiceBudgets = ServiceBudgets(),
         prepare: ((GestureService) -> Void)? = nil,
         options change: ((inout GestureService.Options) -> Void)? = nil) throws {
        clock = ManualClock(start: start)
        let folder = folder ?? NSTemporaryDirectory() + "gestured-svc-" + UUID().uuidString
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var options = GestureService.Options()
        if let config {
            try config.write(toFile: folder + "/gestured.yaml", atomically: true, encoding: .utf8)
            options.configPath = folder + "/gestured.yaml"
        }
        options.noSocket = !socket
        options.socketPath = folder + "/gestured.sock"
        options.printJSON = json
        options.environment = environment
        options.budgets = budgets
        change?(&options)
        let recorder = log
        service = try GestureService(options: options, monitor: monitor, clock: clock,
                                     logger: Logger(label: "test") { _ in recorder }) { [output] bytes in
            // A turn's lines in one piece, each with its newline.
            output.lines += String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            output.writes += 1
        }
        service.observer = { [unowned self] g in self.gestures.append(g) }
        prepare?(service)
        try service.start()
    }

    func plug(_ node: String = "/dev/input/event7", _ description: DeviceDescription = touchscreen) throws -> PipeTouchDevice {
        let device = try PipeTouchDevice(node: node, description: description)
        monitor.plugIn(device)
        service.runOnce(timeout: 0)
        return device
    }

    /// Writes one frame at `ms` after the start (fingers: (slot, x, y) in device units, or a
    /// lift with x < 0) and lets the service handle it (unless not `run`).
    func frame(_ device: PipeTouchDevice, at ms: Double, _ fingers: [(slot: Int32, x: Int32, y: Int32)], begin: Bool = false, run: Bool = true) {
        clock.advance(to: Self.start + .milliseconds(ms))
        var events: [InputEvent] = []
        func add(_ code: UInt16, _ value: Int32, _ type: UInt16 = EventType.abs) {
            events.append(InputEvent(time: clock.now, type: type, code: code, value: value))
        }
        for f in fingers {
            add(AbsCode.mtSlot, f.slot)
            if f.x < 0 {
                add(AbsCode.mtTrackingID, -1)
                continue
            }
            if begin {
                add(AbsCode.mtTrackingID, nextTrackingID)
                nextTrackingID += 1
            }
            add(AbsCode.mtPositionX, f.x)
            add(AbsCode.mtPositionY, f.y)
        }
        add(SynCode.report, 0, EventType.syn)
        device.write(events)
        if run { service.runOnce(timeout: 0) }
    }

    /// A one-finger tap at (x, y) device units.
    func tap(_ device: PipeTouchDevice, at ms: Double, x: Int32 = 1000, y: Int32 = 500) {
        frame(device, at: ms, [(0, x, y)], begin: true)
        frame(device, at: ms + 60, [(0, -1, 0)])
    }

    /// Writes `events` into `device` a frame at a time, each at its time and handled in a turn
    /// of its own, then lets 2 s pass.
    func play(_ events: [InputEvent], into device: PipeTouchDevice) {
        var frame: [InputEvent] = []
        for e in events {
            frame.append(e)
            guard e.isReport else { continue }
            clock.advance(to: e.time)
            device.write(frame)
            frame.removeAll()
            service.runOnce(timeout: 0)
        }
        clock.advance(to: (events.last?.time ?? clock.now) + .seconds(2))
        service.runOnce(timeout: 0)
    }

    /// Moves the clock and fires what is due.
    func advance(to ms: Double) {
        clock.advance(to: Self.start + .milliseconds(ms))
        service.runOnce(timeout: 0)
    }

    /// Runs the loop (real time, for child processes) until `done` or about `limit` ms.
    func runUntil(limit: Int = 5000, _ done: () -> Bool) {
        var waited = 0
        while !done() && waited < limit {
            service.runOnce(timeout: 20)
            waited += 20
        }
    }

    var summary: [String] { gestures.map { "\($0.kind) \($0.state) \($0.region)\($0.namespace.map { " of client \($0)" } ?? "") \($0.touches)" } }
}

@Suite("gestured run with fake devices", .serialized)
struct ServiceTests {
    @Test func signalsReloadReapOrStopAndOthersAreIgnored() {
        #expect(GestureService.handledSignals.map { GestureService.response(to: $0) } == [.reload, .stop, .stop, .reapActions])
        #expect(GestureService.response(to: Signal(number: SIGUSR1)) == .ignore)
        #expect(GestureService.response(to: .brokenPipe) == .ignore)
    }

    @Test func hotplugMidGestureCancelsAndTheServiceGoesOn() throws {
        let h = try Harness()
        let device = try h.plug()
        #expect(h.service.devicesInUse == ["/dev/input/event7"])
        h.frame(device, at: 0, [(0, 1000, 500)], begin: true)
        for step in 1...8 { h.frame(device, at: Double(step) * 10, [(0, Int32(1000 + step * 20), 500)]) }
        h.monitor.unplug(node: "/dev/input/event7")
        h.service.runOnce(timeout: 0)
        #expect(h.summary.first == "pan began root 1")
        #expect(h.summary.last == "pan cancelled root 1")
        #expect(h.service.devicesInUse.isEmpty)
        #expect(h.log.lines.contains { $0.hasPrefix("notice no touch devices left") })
        // It comes back and is used again.
        let again = try h.plug()
        h.tap(again, at: 1000)
        h.advance(to: 2000)
        #expect(h.summary.last == "tap recognized root 1")
    }

    @Test func aDeviceThatDisappearsMidPinchCancelsIt() throws {
        let h = try Harness()
        let device = try h.plug()
        h.frame(device, at: 0, [(0, 900, 500), (1, 1100, 500)], begin: true)
        for step in 1...8 {
            h.frame(device, at: Double(step) * 10, [(0, Int32(900 - step * 20), 500), (1, Int32(1100 + step * 20), 500)])
        }
        device.closeWriter()  // read() sees end of file: the device is gone
        h.service.runOnce(timeout: 0)
        #expect(h.summary.contains("pinch began root 2"))
        #expect(h.summary.last == "pinch cancelled root 2")
        #expect(h.log.lines.contains { $0.hasPrefix("info touch device gone") })
    }

    @Test func aDeviceWhoseTimeGoesBackwardsIsResetAndUsedOn() throws {
        let h = try Harness()
        let device = try h.plug()
        h.frame(device, at: 0, [(0, 1000, 500)], begin: true)
        for step in 1...8 { h.frame(device, at: Double(step) * 10, [(0, Int32(1000 + step * 20), 500)]) }
        // A frame stamped a second before the one before it: no device should, so its contacts
        // are reset; gestures in progress end cancelled, with time standing still.
        let earlier = h.clock.now - .seconds(1)
        device.write([
            InputEvent(time: earlier, type: EventType.abs, code: AbsCode.mtPositionX, value: 1120),
            InputEvent(time: earlier, type: EventType.syn, code: SynCode.report, value: 0),
        ])
        h.service.runOnce(timeout: 0)
        #expect(h.log.lines.contains { $0.hasPrefix("warning device sent what no device should: contacts reset") })
        #expect(h.gestures.map(\.time) == h.gestures.map(\.time).sorted())
        // The finger lifts; the next tap is recognised as ever.
        h.frame(device, at: 100, [(0, -1, 0)])
        h.tap(device, at: 1000)
        h.advance(to: 2000)
        #expect(h.summary == ["pan began root 1"] + Array(repeating: "pan changed root 1", count: 6)
                + ["swipe recognized root 1", "pan cancelled root 1", "tap recognized root 1"])
        #expect(h.service.devicesInUse == ["/dev/input/event7"])
    }

    @Test func liveGesturesAreTheReplaysGestures() throws {
        // A real recording played into a (fake) device gives what replaying the file gives.
        for name in ["Atmel maXTouch Touchscreen.1-finger-fast-taps.events", "Atmel maXTouch Touchscreen.4-finger-drag-down.events"] {
            let path = repositoryRoot + "/fixtures/recordings/evemu-devices/touchscreens/" + name
            let replayed = try RecordingReplay.run(path: path)
            let recording = try Recording.load(path: path).devices[0]
            let h = try Harness(start: recording.firstEventTime)
            var printed: [String] = []
            h.service.observer = { printed.append($0.jsonLine(origin: recording.firstEventTime)) }
            let device = try h.plug("/dev/input/event9", recording.description)
            h.play(recording.events, into: device)
            #expect(printed == replayed.gestures.map { $0.jsonLine(origin: recording.firstEventTime) }, "\(name)")
            #expect(!printed.isEmpty)
        }
    }

    /// `--json`: the lines of one turn of the loop go out in one write (a system call per
    /// turn, not per line), at the turn's end.
    @Test func theJSONLinesOfATurnGoOutInOneWrite() throws {
        let path = repositoryRoot + "/fixtures/recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"
        let replayed = try RecordingReplay.run(path: path)
        let recording = try Recording.load(path: path).devices[0]
        let h = try Harness(start: recording.firstEventTime)
        let device = try h.plug("/dev/input/event9", recording.description)
        h.play(recording.events, into: device)
        #expect(h.printed.count == replayed.gestures.count)
        let times = h.printed.map { try? JSONValue.parse($0).objectValue?["time"]?.numberValue }
        #expect(!times.contains(nil), "every line whole")
        #expect(h.printedWrites == Set(times).count, "one write per turn that printed: \(h.printed.count) lines")
        #expect(h.printedWrites < h.printed.count, "some turns printed several lines")
    }

    @Test func reloadKeepsTheOldConfigurationWhenTheNewOneIsBroken() throws {
        let h = try Harness(config: "layout:\n  id: first\n  gestures:\n    - kind: tap\n")
        let device = try h.plug()
        h.tap(device, at: 0)
        #expect(h.summary.last == "tap recognized first 1")
        let path = h.folder + "/gestured.yaml"
        try "layout:\n  id: second\n  gestures:\n    - kind: tapp\n".write(toFile: path, atomically: true, encoding: .utf8)
        h.service.reload()
        #expect(h.log.lines.contains { $0 == "error configuration not reloaded; the previous one stays error=\(path):4:13: unknown gesture kind \"tapp\" (known: tap, long-press, pan, swipe, pinch, rotate, edge-pan)" })
        h.tap(device, at: 1000)
        #expect(h.summary.last == "tap recognized first 1")
        try "layout:\n  id: second\n  gestures:\n    - kind: tap\n".write(toFile: path, atomically: true, encoding: .utf8)
        h.service.reload()
        #expect(h.log.lines.contains { $0.hasPrefix("info configuration reloaded") })
        h.tap(device, at: 2000)
        #expect(h.summary.last == "tap recognized second 1")
    }

    @Test func aHungActionIsStoppedAndRecognitionGoesOn() throws {
        let h = try Harness(config: """
            service: {action-timeout: 200, actions-as-root: true}
            layout:
              id: root
              gestures:
                - kind: tap
                  action: {exec: ["/bin/sleep", "60"]}
            """)
        let device = try h.plug()
        h.tap(device, at: 0)
        #expect(h.service.runningActions == 1)
        // Recognition goes on while it hangs.
        h.tap(device, at: 100)
        #expect(h.summary == ["tap recognized root 1", "tap recognized root 1"])
        h.advance(to: 300)  // past the first one's 200 ms
        #expect(h.log.lines.contains { $0.hasPrefix("warning action timed out: stopping it action=tap(1 tap, 1 touch)@root") })
        h.advance(to: 500)
        h.runUntil { h.service.runningActions == 0 }
        #expect(h.service.runningActions == 0)
    }

    @Test func actionsSeeTheGestureInTheirEnvironmentNotTheirArguments() throws {
        let out = NSTemporaryDirectory() + "gestured-env-" + UUID().uuidString + ".txt"
        let h = try Harness(config: """
            service: {actions-as-root: true}
            layout:
              id: root
              gestures:
                - kind: swipe
                  action: {exec: ["/bin/sh", "-c", "env | sort > \(out)", "$GESTURE_KIND"]}
            """)
        let device = try h.plug()
        h.frame(device, at: 0, [(0, 500, 500)], begin: true)
        for step in 1...4 { h.frame(device, at: Double(step) * 10, [(0, Int32(500 + step * 60), 500)]) }
        h.frame(device, at: 50, [(0, -1, 0)])
        h.runUntil { h.service.runningActions == 0 }
        let env = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(env.contains("GESTURE_KIND=swipe"))
        #expect(env.contains("GESTURE_DIRECTION=right"))
        #expect(env.contains("GESTURE_REGION=root"))
        #expect(env.contains("GESTURE_TOUCHES=1"))
        #expect(env.contains("GESTURE_DEVICE=Test Panel"))
        #expect(env.contains { $0.hasPrefix("GESTURE_X=") } && env.contains { $0.hasPrefix("GESTURE_VX=") })
        #expect(env.contains("PATH=/usr/local/bin:/usr/bin:/bin"))
        #expect(!env.contains { $0.hasPrefix("HOME=") }, "nothing of the service's own environment")
    }

    @Test func actionsAsRootMustBeAskedFor() throws {
        guard geteuid() == 0 else { return }  // only meaningful as root
        let h = try Harness(config: "layout:\n  id: root\n  gestures:\n    - kind: tap\n      action: {exec: [\"/bin/true\"]}\n")
        let device = try h.plug()
        h.tap(device, at: 0)
        #expect(h.service.runningActions == 0)
        #expect(h.log.lines.contains("error refusing to run actions as root; run gestured as its own user, or set service.actions-as-root: true"))
    }

    @Test func socketClientsReceiveTheEventsAndASlowOneIsDropped() throws {
        let h = try Harness(socket: true)
        let device = try h.plug()
        let reader = try UnixSocket.connect(to: h.folder + "/gestured.sock")
        let idle = try UnixSocket.connect(to: h.folder + "/gestured.sock")
        defer {
            close(reader)
            close(idle)
        }
        var small: Int32 = 4096
        setsockopt(idle, SOL_SOCKET, SO_RCVBUF, &small, 4)
        h.service.runOnce(timeout: 0)
        #expect(h.service.clientCount == 2)
        h.tap(device, at: 0)
        h.advance(to: 500)  // the built-in layout's lone tap waits 300 ms for a second one
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = recv(reader, &buffer, buffer.count, 0)
        #expect(String(decoding: buffer[0..<max(0, n)], as: UTF8.self).split(separator: "\n").last.map { $0 + "\n" }
            == #"{"type": "gesture", "time": 0.36, "device": "Test Panel", "kind": "tap", "state": "recognized", "region": "root", "touches": 1, "x": 100.0, "y": 50.0, "taps": 1}"# + "\n")
        // A long pan: thousands of lines the idle client never reads.
        h.frame(device, at: 1000, [(0, 100, 500)], begin: true)
        var step: Int32 = 0
        while h.service.clientCount == 2 && step < 20000 {
            step += 1
            h.frame(device, at: 1000 + Double(step), [(0, 100 + (step % 1000), 500)])
            while recv(reader, &buffer, buffer.count, Int32(MSG_DONTWAIT)) > 0 {}
        }
        #expect(h.service.clientCount == 1, "the idle client is dropped, the reading one stays")
        #expect(h.log.lines.contains { $0.hasPrefix("warning socket client dropped: it stopped reading") })
        #expect(h.gestures.last?.kind == .pan, "recognition goes on")
    }

    @Test func aConfigurationOthersCanWriteIsRefused() throws {
        let folder = NSTemporaryDirectory() + "gestured-perm-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = folder + "/gestured.yaml"
        try "layout: {id: root}\n".write(toFile: path, atomically: true, encoding: .utf8)
        var options = GestureService.Options(configPath: path)
        options.noSocket = true
        func refusal() -> String? {
            do {
                _ = try GestureService(options: options, monitor: ManualDeviceMonitor(), clock: ManualClock(),
                                       logger: Logger(label: "t")) { _ in }
                return nil
            } catch {
                return error.description
            }
        }
        chmod(path, 0o644)
        #expect(refusal() == nil)
        chmod(path, 0o666)
        #expect(refusal() == "\(path): refusing a configuration writable by everyone (mode 666); it runs commands: chmod go-w \(path)")
        chmod(path, 0o664)
        #expect(refusal() == "\(path): refusing a configuration writable by its group (mode 664); it runs commands: chmod go-w \(path)")
        chmod(path, 0o644)
        chmod(folder, 0o777)
        #expect(refusal() == "\(path): refusing a configuration in a directory anyone may write to (\(folder), mode 777)")
        chmod(folder, 0o755)
        if geteuid() == 0 {
            chown(path, 4321, 4321)
            #expect(refusal() == "\(path): refusing a configuration owned by uid 4321 (it runs commands): it must belong to root or to the service's user")
        }
    }

    @Test func devicesTheConfigurationDoesNotNameAreNotUsed() throws {
        let h = try Harness(config: "devices:\n  - match: {kind: touchpad}\nlayout: {id: root}\n")
        _ = try h.plug()
        #expect(h.service.devicesInUse.isEmpty)
        #expect(h.log.lines.contains("info touch device not used by the device rules device=Test Panel node=/dev/input/event7"))
    }

    @Test func jsonLinesGoToTheOutput() throws {
        var printed: [String] = []
        let monitor = ManualDeviceMonitor()
        let clock = ManualClock(start: Instant(microseconds: 5_000_000))
        var options = GestureService.Options()
        options.noSocket = true
        options.printJSON = true
        let service = try GestureService(options: options, monitor: monitor, clock: clock, logger: Logger(label: "t")) { printed.append(String(decoding: $0, as: UTF8.self)) }
        try service.start()
        let device = try PipeTouchDevice(node: "/dev/input/event3", description: touchscreen)
        monitor.plugIn(device)
        service.runOnce(timeout: 0)
        device.write([InputEvent(time: Instant(microseconds: 5_000_000), type: 3, code: AbsCode.mtTrackingID, value: 1),
                      InputEvent(time: Instant(microseconds: 5_000_000), type: 3, code: AbsCode.mtPositionX, value: 100),
                      InputEvent(time: Instant(microseconds: 5_000_000), type: 3, code: AbsCode.mtPositionY, value: 100),
                      InputEvent(time: Instant(microseconds: 5_000_000), type: 0, code: 0, value: 0),
                      InputEvent(time: Instant(microseconds: 5_050_000), type: 3, code: AbsCode.mtTrackingID, value: -1),
                      InputEvent(time: Instant(microseconds: 5_050_000), type: 0, code: 0, value: 0)])
        clock.advance(to: Instant(microseconds: 5_050_000))
        service.runOnce(timeout: 0)
        #expect(printed.isEmpty, "a lone tap waits for the double tap's window")
        clock.advance(to: Instant(microseconds: 5_400_000))
        service.runOnce(timeout: 0)
        #expect(printed == [#"{"time": 0.35, "device": "Test Panel", "kind": "tap", "state": "recognized", "region": "root", "touches": 1, "x": 10.0, "y": 10.0, "taps": 1}"# + "\n"])
        service.shutdown()
    }
}
