import Foundation
import GestureTesting
@testable import GestureService
import Gestures
import SystemLoop
import Testing
import TouchEvents
import TouchInput
import TouchInputTesting

/// Stands in for a virtual device: keeps every event written, by kernel name.
final class VirtualInputRecorder: VirtualInputWriter {
    var events: [String] = []

    func write(_ batch: [InputEvent]) throws(InputError) {
        for e in batch {
            events.append(e.type == EventType.syn ? "SYN" : "\(EventCodeNames.codeName(type: e.type, code: e.code)) \(e.value)")
        }
    }

    /// The events written since the last call.
    func take() -> [String] {
        defer { events = [] }
        return events
    }
}

/// A service whose virtual keyboard and pointer are recorders.
final class DesktopHarness {
    let keyboard = VirtualInputRecorder()
    let pointer = VirtualInputRecorder()
    let touchpad = VirtualInputRecorder()
    let h: Harness

    init(config: String, socket: Bool = false, environment: [String: String] = [:], folder: String? = nil) throws {
        let keyboard = keyboard, pointer = pointer, touchpad = touchpad
        h = try Harness(config: config, socket: socket, folder: folder, environment: environment, prepare: { service in
            service.makeVirtualInput = { kind in
                switch kind {
                case .keyboard: keyboard
                case .pointer: pointer
                case .touchpad: touchpad
                }
            }
        }, options: { $0.systemBusAddress = "unix:path=/nonexistent/gestured-test-bus" })
    }

    /// Two fingers 20 mm apart put down at `ms` and moved `steps` times by (dx, dy) mm, 10 ms
    /// apart; lifted after unless `lift` is false.
    func twoFingerPan(_ device: PipeTouchDevice, at ms: Double, dx: Double, dy: Double, steps: Int, lift: Bool = true) {
        var x = 800.0, y = 400.0
        h.frame(device, at: ms, [(0, Int32(x), Int32(y)), (1, Int32(x + 200), Int32(y))], begin: true)
        for step in 1...steps {
            x += dx * 10
            y += dy * 10
            h.frame(device, at: ms + Double(step) * 10, [(0, Int32(x), Int32(y)), (1, Int32(x + 200), Int32(y))])
        }
        if lift { h.frame(device, at: ms + Double(steps + 1) * 10, [(0, -1, 0), (1, -1, 0)]) }
    }
}

@Suite("Desktop actions: virtual keyboard and pointer, per-app rules", .serialized)
struct DesktopActionTests {
    static let keysAndButtons = """
        layout:
          id: root
          gestures:
            - kind: swipe
              directions: [left]
              action: {key: "leftmeta+right"}
            - kind: tap
              action: {button: middle}
        """

    @Test func aChordIsPressedInOrderAndReleasedInReverseAndAButtonClicks() throws {
        let d = try DesktopHarness(config: Self.keysAndButtons)
        let device = try d.h.plug()
        // One finger flicked 40 mm left in 80 ms.
        d.h.frame(device, at: 0, [(0, 1500, 500)], begin: true)
        for step in 1...8 { d.h.frame(device, at: Double(step) * 10, [(0, Int32(1500 - step * 50), 500)]) }
        d.h.frame(device, at: 90, [(0, -1, 0)])
        #expect(d.h.summary == ["swipe recognized root 1"])
        #expect(d.keyboard.take() == ["KEY_LEFTMETA 1", "SYN", "KEY_RIGHT 1", "SYN", "KEY_RIGHT 0", "SYN", "KEY_LEFTMETA 0", "SYN"])
        #expect(d.pointer.take() == [])
        d.h.tap(device, at: 1000)
        d.h.advance(to: 2000)
        #expect(d.h.summary.last == "tap recognized root 1")
        #expect(d.pointer.take() == ["BTN_MIDDLE 1", "SYN", "BTN_MIDDLE 0", "SYN"])
        #expect(d.keyboard.take() == [])
        #expect(d.h.service.heldKeys.isEmpty)
    }

    static let hold = """
        layout:
          id: root
          gestures:
            - kind: pan
              min-touches: 2
              max-touches: 2
              action: {hold: "leftalt", on: [began, ended]}
        """

    @Test func aHeldKeyIsPressedAtBeganAndReleasedAtEnded() throws {
        let d = try DesktopHarness(config: Self.hold)
        let device = try d.h.plug()
        d.twoFingerPan(device, at: 0, dx: 2, dy: 0, steps: 10, lift: false)
        #expect(d.h.summary.contains("pan began root 2"))
        #expect(d.keyboard.take() == ["KEY_LEFTALT 1", "SYN"])
        #expect(d.h.service.heldKeys == [KeyNames.code("leftalt")!])
        d.h.frame(device, at: 200, [(0, -1, 0), (1, -1, 0)])
        #expect(d.h.summary.last == "pan ended root 2")
        #expect(d.keyboard.take() == ["KEY_LEFTALT 0", "SYN"])
        #expect(d.h.service.heldKeys.isEmpty)
    }

    static let threeFingerHold = """
        layout:
          id: root
          gestures:
            - kind: long-press
              touches: 3
              action: {key: "leftmeta+s", on: [began]}
            - kind: pan
              min-touches: 1
              max-touches: 3
        """

    @Test func aTouchpadHoldFiresWhileHeldAndGivesWayToADrag() throws {
        let d = try DesktopHarness(config: Self.threeFingerHold)
        let device = try d.h.plug("/dev/input/event7", .testTouchpad)
        // Three fingers down 20 mm apart, held still: the key is pressed at 500 ms, while held.
        let fingers: [(slot: Int32, x: Int32, y: Int32)] = [(0, 600, 500), (1, 800, 500), (2, 1000, 500)]
        d.h.frame(device, at: 0, fingers, begin: true)
        d.h.advance(to: 499)
        #expect(d.h.summary == [])
        d.h.advance(to: 500)
        #expect(d.h.summary == ["long-press began root 3"])
        #expect(d.keyboard.take() == ["KEY_LEFTMETA 1", "SYN", "KEY_S 1", "SYN", "KEY_S 0", "SYN", "KEY_LEFTMETA 0", "SYN"])
        d.h.frame(device, at: 1000, fingers.map { ($0.slot, -1, 0) })
        #expect(d.h.summary == ["long-press began root 3", "long-press ended root 3"])
        // Rest 600 ms, then drag 2 mm a frame: the hold gives way, and the drag is a pan.
        d.h.gestures = []
        d.h.frame(device, at: 2000, fingers, begin: true)
        d.h.advance(to: 2600)
        #expect(d.keyboard.take().count == 8)
        for step in 1...6 {
            d.h.frame(device, at: 2600 + Double(step) * 10, fingers.map { ($0.slot, $0.x + Int32(step) * 20, $0.y) })
        }
        d.h.frame(device, at: 2700, fingers.map { ($0.slot, -1, 0) })
        #expect(d.h.summary == ["long-press began root 3", "long-press cancelled root 3", "pan began root 3", "pan changed root 3", "pan changed root 3",
                                "pan changed root 3", "pan ended root 3"])
        #expect(d.keyboard.take() == [])
    }

    @Test func aHeldKeyIsReleasedWhenTheDeviceGoesTheConfigurationIsReloadedOrTheServiceStops() throws {
        let d = try DesktopHarness(config: Self.hold)
        var device = try d.h.plug()
        // Unplugged mid-pan.
        d.twoFingerPan(device, at: 0, dx: 2, dy: 0, steps: 10, lift: false)
        #expect(d.keyboard.take() == ["KEY_LEFTALT 1", "SYN"])
        d.h.monitor.unplug(node: "/dev/input/event7")
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.summary.last == "pan cancelled root 2")
        #expect(d.keyboard.take() == ["KEY_LEFTALT 0", "SYN"])
        // Reloaded mid-pan.
        device = try d.h.plug()
        d.twoFingerPan(device, at: 1000, dx: 2, dy: 0, steps: 10, lift: false)
        #expect(d.keyboard.take() == ["KEY_LEFTALT 1", "SYN"])
        d.h.service.reload()
        #expect(d.keyboard.take() == ["KEY_LEFTALT 0", "SYN"])
        #expect(d.h.service.heldKeys.isEmpty)
        // Stopped mid-pan (the device was taken again after the reload: new fingers).
        d.h.frame(device, at: 2000, [(0, -1, 0), (1, -1, 0)])
        d.twoFingerPan(device, at: 3000, dx: 2, dy: 0, steps: 10, lift: false)
        #expect(d.keyboard.take() == ["KEY_LEFTALT 1", "SYN"])
        d.h.service.shutdown()
        #expect(d.keyboard.take() == ["KEY_LEFTALT 0", "SYN"])
    }

    @Test func scrollingTurnsTheHighResolutionWheelAndClicksTheClassicOneEvery120Units() throws {
        let d = try DesktopHarness(config: """
            layout:
              id: root
              gestures:
                - kind: pan
                  min-touches: 2
                  max-touches: 2
                  action: {scroll: both}
            """)
        let device = try d.h.plug()
        // Down 1 mm a frame: 24 high-resolution units (5 mm a click), the content following.
        d.twoFingerPan(device, at: 0, dx: 0, dy: 1, steps: 20)
        let events = d.pointer.take()
        #expect(!events.contains { $0.hasPrefix("REL_HWHEEL") })
        let hiRes = events.filter { $0.hasPrefix("REL_WHEEL_HI_RES") }
        #expect(Set(hiRes) == ["REL_WHEEL_HI_RES 24"])
        let clicks = events.filter { $0.hasPrefix("REL_WHEEL ") }
        #expect(clicks.count == hiRes.count * 24 / 120)
        #expect(Set(clicks) == ["REL_WHEEL 1"])
        // Every fifth frame clicks, in the same report as its high-resolution units.
        #expect(Array(events.prefix(11)) == [
            "REL_WHEEL_HI_RES 24", "SYN", "REL_WHEEL_HI_RES 24", "SYN", "REL_WHEEL_HI_RES 24", "SYN",
            "REL_WHEEL_HI_RES 24", "SYN", "REL_WHEEL_HI_RES 24", "REL_WHEEL 1", "SYN",
        ])
        // Left: fingers moving left scroll right (REL_HWHEEL positive).
        d.twoFingerPan(device, at: 1000, dx: -2.5, dy: 0, steps: 10)
        let left = d.pointer.take()
        #expect(Set(left.filter { $0.hasPrefix("REL_HWHEEL_HI_RES") }) == ["REL_HWHEEL_HI_RES 60"])
        #expect(Set(left.filter { $0.hasPrefix("REL_HWHEEL ") }) == ["REL_HWHEEL 1"])
        #expect(!left.contains { $0.hasPrefix("REL_WHEEL") })
        #expect(d.keyboard.take() == [])
    }

    @Test func withoutUinputTheServiceSaysSoAndRunsOn() throws {
        let h = try Harness(config: Self.keysAndButtons + "\n    - kind: long-press\n      action: {emit: true}\n") { service in
            service.makeVirtualInput = { _ throws(InputError) in
                throw InputError(path: "/dev/uinput", message: "cannot create a virtual device: Permission denied")
            }
        }
        #expect(h.log.lines.contains(
            "error no virtual keyboard: key and hold actions are off until uinput is writable (/dev/uinput: the gestured group, see docs/desktop.md) error=/dev/uinput: cannot create a virtual device: Permission denied"
                .replacingOccurrences(of: "error=/dev/uinput: ", with: "error=")))
        #expect(h.log.lines.contains { $0.hasPrefix("error no virtual pointer: button, scroll and pointer actions are off") })
        let device = try h.plug()
        h.tap(device, at: 0)
        h.advance(to: 1000)
        #expect(h.summary == ["tap recognized root 1"])
        #expect(h.log.lines.contains { $0.hasPrefix("warning action skipped: there is no virtual pointer") })
    }

    // MARK: - Per-app rules

    static let perApp = """
        layout:
          id: root
          gestures:
            - kind: tap
              action: {key: "leftctrl+t"}
              when: {app: ["firefox", "org.mozilla.firefox"]}
        """

    /// What a client says of where it runs (a window title, say) is not the operator's to keep:
    /// the log has its keys with their lengths and first characters, at debug, never the whole.
    @Test func aClientsContextIsNeverLoggedInFull() throws {
        let d = try DesktopHarness(config: Self.perApp, socket: true)
        let client = try RawClient(d.h)
        let title = "Inbox (3) — private mail of somebody — Mozilla Firefox"
        client.send(#"{"type": "context", "id": 1, "context": {"app": "firefox", "title": "\#(title)"}}"# + "\n")
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.service.focusedApp == "firefox")
        let lines = d.h.log.lines.filter { $0.contains("socket client context") }
        #expect(lines == [#"debug socket client context client=1 context=app: 7 chars "firefox", title: 54 chars "Inbox (3…""#])
        #expect(!d.h.log.lines.contains { $0.contains("private mail") })
        // The app a client names: at debug, cut at 32 characters.
        let app = "org.example." + String(repeating: "secret", count: 10)
        client.send(#"{"type": "context", "id": 2, "context": {"app": "\#(app)"}}"# + "\n")
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.service.focusedApp == app)
        #expect(d.h.log.lines.filter { $0.contains("focused app") } == [
            "debug focused app app=firefox from=client 1",
            "debug focused app app=org.example.secretsecretsecretse… (72 chars) from=client 1",
        ])
        #expect(!d.h.log.lines.contains { $0.hasPrefix("info") && $0.contains("focused") })
    }

    /// A storm of clients connecting and hanging up writes nothing at info level: each comes
    /// and goes at debug.
    @Test func clientsComingAndGoingAreLoggedAtDebugOnly() throws {
        let d = try DesktopHarness(config: Self.perApp, socket: true)
        for _ in 0..<50 {
            let client = try RawClient(d.h)
            client.hangUp()
            d.h.service.runOnce(timeout: 0)
        }
        let about = d.h.log.lines.filter { $0.contains("socket client connected") || $0.contains("socket client disconnected") }
        #expect(about.count >= 50)
        #expect(about.allSatisfy { $0.hasPrefix("debug ") })
    }

    @Test func aClientsContextDecidesWhichAppHasTheFocus() throws {
        let d = try DesktopHarness(config: Self.perApp, socket: true)
        let device = try d.h.plug()
        #expect(d.h.service.focusedApp == nil)
        d.h.tap(device, at: 0)
        d.h.advance(to: 1000)
        #expect(d.h.summary == [])
        let client = try RawClient(d.h)
        client.send(#"{"type": "context", "id": 1, "context": {"app": "Firefox"}}"# + "\n")
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.service.focusedApp == "Firefox")
        d.h.tap(device, at: 2000)
        d.h.advance(to: 3000)
        #expect(d.h.summary == ["tap recognized root 1"])
        #expect(d.keyboard.take() == ["KEY_LEFTCTRL 1", "SYN", "KEY_T 1", "SYN", "KEY_T 0", "SYN", "KEY_LEFTCTRL 0", "SYN"])
        client.send(#"{"type": "context", "id": 2, "context": {"app": "foot"}}"# + "\n")
        d.h.service.runOnce(timeout: 0)
        d.h.tap(device, at: 4000)
        d.h.advance(to: 5000)
        #expect(d.h.summary == ["tap recognized root 1"])
        // A client that goes takes what it said with it.
        client.send(#"{"type": "context", "id": 3, "context": {"app": "firefox"}}"# + "\n")
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.service.focusedApp == "firefox")
        client.hangUp()
        // The hangup is there at once; a turn that found nothing to do (seen once under load)
        // waits for it, up to 100 ms, instead of failing.
        d.h.service.runOnce(timeout: 0)
        for _ in 0..<10 where d.h.service.focusedApp != nil { d.h.service.runOnce(timeout: 100) }
        #expect(d.h.service.focusedApp == nil)
        #expect(d.keyboard.take() == [])
    }

    /// A compositor's socket: the test accepts the service's connection and speaks for sway or
    /// Hyprland.
    final class FakeCompositor {
        let listener: Int32
        var connection: Int32 = -1

        init(path: String) throws {
            listener = try UnixSocket.listen(at: path).fd
        }

        deinit {
            if connection >= 0 { close(connection) }
            close(listener)
        }

        /// Takes the waiting connection.
        func accept() -> Int32? {
            guard let fd = UnixSocket.accept(listener) else { return nil }
            connection = fd
            return fd
        }

        func received(_ fd: Int32) -> [UInt8] {
            var out: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while case .data(let n) = buffer.withUnsafeMutableBytes({ UnixSocket.read(fd, into: $0) }) { out += buffer[0..<n] }
            return out
        }

        func send(_ bytes: [UInt8], on fd: Int32? = nil) {
            bytes.withUnsafeBytes { _ = UnixSocket.send(fd ?? connection, $0) }
        }
    }

    static func swayTree(focused: String) -> String {
        """
        {"id": 1, "type": "root", "focused": false, "nodes": [
          {"id": 3, "type": "output", "name": "eDP-1", "focused": false, "nodes": [
            {"id": 4, "type": "workspace", "name": "1", "focused": false, "nodes": [
              {"id": 5, "type": "con", "focused": false, "app_id": "foot", "nodes": []},
              {"id": 6, "type": "con", "layout": "splitv", "focused": false, "nodes": [
                {"id": 7, "type": "con", "focused": false, "app_id": null, "window_properties": {"class": "Gimp"}, "nodes": []},
                {"id": 8, "type": "con", "focused": true, "app_id": "\(focused)", "nodes": []}]}],
             "floating_nodes": []}]}]}
        """
    }

    @Test func swaysFocusIsFollowedFromItsTreeAndWindowEventsAndItsLossIsSurvived() throws {
        let folder = NSTemporaryDirectory() + "gestured-sway-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let sway = try FakeCompositor(path: folder + "/sway-ipc.sock")
        let d = try DesktopHarness(config: Self.perApp, environment: ["SWAYSOCK": folder + "/sway-ipc.sock"], folder: folder)
        let fd = try #require(sway.accept())
        var decoder = SwayIPC.Decoder()
        let asked = try decoder.feed(sway.received(fd))
        #expect(asked.map(\.type) == [SwayIPC.subscribe, SwayIPC.getTree])
        #expect(String(decoding: asked[0].payload, as: UTF8.self) == #"["window","workspace"]"#)
        sway.send(SwayIPC.message(type: SwayIPC.subscribe, payload: #"{"success": true}"#))
        sway.send(SwayIPC.message(type: SwayIPC.getTree, payload: Self.swayTree(focused: "org.mozilla.firefox")))
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.service.focusedApp == "org.mozilla.firefox")
        let device = try d.h.plug()
        d.h.tap(device, at: 0)
        d.h.advance(to: 1000)
        #expect(d.h.summary == ["tap recognized root 1"])
        // Focus moves to a terminal, in two pieces: the tap is off.
        let event = SwayIPC.message(type: SwayIPC.windowEvent, payload: #"{"change": "focus", "container": {"id": 5, "app_id": "foot", "focused": true}}"#)
        sway.send(Array(event.prefix(9)))
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.service.focusedApp == "org.mozilla.firefox")
        sway.send(Array(event.dropFirst(9)))
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.service.focusedApp == "foot")
        d.h.tap(device, at: 2000)
        d.h.advance(to: 3000)
        #expect(d.h.summary == ["tap recognized root 1"])
        // A title change says nothing of the focus; an empty workspace has no app.
        sway.send(SwayIPC.message(type: SwayIPC.windowEvent, payload: #"{"change": "title", "container": {"id": 8, "app_id": "firefox"}}"#))
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.service.focusedApp == "foot")
        sway.send(SwayIPC.message(type: SwayIPC.workspaceEvent,
                                  payload: #"{"change": "focus", "current": {"type": "workspace", "focused": true, "nodes": []}}"#))
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.service.focusedApp == nil)
        // sway goes away: said, and tried again a second later.
        close(fd)
        sway.connection = -1
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.log.lines.contains { $0.hasPrefix("warning lost the compositor; trying again compositor=sway") })
        d.h.advance(to: 3500)
        #expect(sway.accept() == nil)
        d.h.advance(to: 4100)
        let again = try #require(sway.accept())
        var fresh = SwayIPC.Decoder()
        #expect(try fresh.feed(sway.received(again)).map(\.type) == [SwayIPC.subscribe, SwayIPC.getTree])
        sway.send(SwayIPC.message(type: SwayIPC.getTree, payload: Self.swayTree(focused: "firefox")))
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.service.focusedApp == "firefox")
    }

    @Test func hyprlandsFocusIsAskedOnceThenFollowedFromItsEvents() throws {
        let folder = NSTemporaryDirectory() + "gestured-hypr-" + UUID().uuidString
        let instance = folder + "/hypr/abc123"
        try FileManager.default.createDirectory(atPath: instance, withIntermediateDirectories: true)
        let events = try FakeCompositor(path: instance + "/.socket2.sock")
        let requests = try FakeCompositor(path: instance + "/.socket.sock")
        let d = try DesktopHarness(config: Self.perApp, environment: ["XDG_RUNTIME_DIR": folder, "HYPRLAND_INSTANCE_SIGNATURE": "abc123"],
                                   folder: folder)
        #expect(d.h.log.lines.contains("info following the compositor compositor=hyprland for=focus"))
        let request = try #require(requests.accept())
        #expect(String(decoding: requests.received(request), as: UTF8.self) == "j/activewindow")
        requests.send(Array(#"{"address": "0x1", "class": "firefox", "title": "Mozilla Firefox"}"#.utf8))
        close(request)
        requests.connection = -1
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.service.focusedApp == "firefox")
        _ = try #require(events.accept())
        events.send(Array("workspace>>2\nactivewindow>>foot,~/src, a title with commas\n".utf8))
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.service.focusedApp == "foot")
        events.send(Array("activewindow>>,\n".utf8))
        d.h.service.runOnce(timeout: 0)
        #expect(d.h.service.focusedApp == nil)
        #expect(d.h.log.lines.filter { $0.hasPrefix("debug focused app") } == [
            "debug focused app app=firefox from=hyprland", "debug focused app app=foot from=hyprland", "debug focused app app=none from=hyprland",
        ])
    }

    // MARK: - The compositors' protocols alone

    @Test func swayMessagesAreFramedAndSplitAcrossReads() throws {
        let a = SwayIPC.message(type: SwayIPC.getTree, payload: "")
        #expect(a == Array("i3-ipc".utf8) + [0, 0, 0, 0, 4, 0, 0, 0])
        let b = SwayIPC.message(type: SwayIPC.windowEvent, payload: "{}")
        var decoder = SwayIPC.Decoder()
        let bytes = a + b
        var got: [UInt32] = []
        for byte in bytes { got += try decoder.feed([byte]).map(\.type) }
        #expect(got == [SwayIPC.getTree, SwayIPC.windowEvent])
        var bad = SwayIPC.Decoder()
        #expect(throws: SwayIPC.Decoder.DecodeError.badMagic) { try bad.feed(Array("HTTP/1.1 200 OK".utf8)) }
    }

    @Test func whatSwaysMessagesSayOfTheFocus() {
        func focus(_ type: UInt32, _ json: String) -> String?? { SwayIPC.focus(type: type, payload: Array(json.utf8)) }
        #expect(focus(SwayIPC.getTree, Self.swayTree(focused: "firefox")) == .some("firefox"))
        #expect(focus(SwayIPC.windowEvent, #"{"change": "focus", "container": {"app_id": null, "window_properties": {"class": "Gimp"}}}"#) == .some("Gimp"))
        #expect(focus(SwayIPC.windowEvent, #"{"change": "close", "container": {"app_id": "foot", "focused": true}}"#) == .some(nil))
        #expect(focus(SwayIPC.windowEvent, #"{"change": "close", "container": {"app_id": "foot", "focused": false}}"#) == nil)
        #expect(focus(SwayIPC.windowEvent, #"{"change": "title", "container": {"app_id": "foot"}}"#) == nil)
        #expect(focus(SwayIPC.subscribe, #"{"success": true}"#) == nil)
        #expect(focus(SwayIPC.windowEvent, "not json") == nil)
        // A deep tree (nested splits) is read whole.
        var deep = #"{"focused": true, "app_id": "deep", "nodes": []}"#
        for _ in 0..<40 { deep = #"{"focused": false, "nodes": [\#(deep)]}"# }
        #expect(focus(SwayIPC.getTree, deep) == .some("deep"))
    }

    @Test func whatHyprlandsLinesSayOfTheFocus() {
        #expect(HyprlandIPC.focus(line: "activewindow>>kitty,~") == .some("kitty"))
        #expect(HyprlandIPC.focus(line: "activewindow>>,") == .some(nil))
        #expect(HyprlandIPC.focus(line: "activewindowv2>>55d2") == nil)
        #expect(HyprlandIPC.focus(line: "openwindow>>55d2,1,kitty,~") == nil)
        #expect(HyprlandIPC.focus(activeWindowReply: Array("{}".utf8)) == .some(nil))
        #expect(HyprlandIPC.directories(environment: ["HYPRLAND_INSTANCE_SIGNATURE": "s", "XDG_RUNTIME_DIR": "/run/user/1000"])
            == ["/run/user/1000/hypr/s", "/tmp/hypr/s"])
        #expect(HyprlandIPC.directories(environment: ["HYPRLAND_INSTANCE_SIGNATURE": "../x"]) == [])
        #expect(CompositorLink.detect(environment: ["SWAYSOCK": "/run/user/1000/sway-ipc.sock", "HYPRLAND_INSTANCE_SIGNATURE": "s"])
            == .sway(socket: "/run/user/1000/sway-ipc.sock"))
        #expect(CompositorLink.detect(environment: [:]) == nil)
    }
}
