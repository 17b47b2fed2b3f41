import Foundation
import GestureConfiguration
@testable import GestureService
import Gestures
import Testing
import TouchEvents
import TouchInputTesting

/// Screens that turn, told by a fake sway and a fake Hyprland: the next touch is mapped as the
/// user sees the screen, the touch in flight is cancelled, and an edge pan from the user's left
/// edge is one in every orientation.
@Suite("Screens that turn: the compositor's outputs", .serialized)
struct ScreenRotationTests {
    typealias FakeCompositor = DesktopActionTests.FakeCompositor

    static let config = """
        devices:
          - match: {kind: touchscreen}
            output-name: eDP-1
        layout:
          id: screen
          gestures:
            - kind: edge-pan
              edges: [left]
            - kind: pan
            - kind: tap
        """

    /// sway's answer to `GET_OUTPUTS`: eDP-1 (the 200 x 100 mm test panel, 2000 x 1000 pixels
    /// unturned) under `transform`, and an HDMI screen beside it.
    static func swayOutputs(_ transform: String) -> [UInt8] {
        let turned = ["90", "270", "flipped-90", "flipped-270"].contains(transform)
        let (w, h) = turned ? (1000, 2000) : (2000, 1000)
        return SwayIPC.message(type: SwayIPC.getOutputs, payload: """
            [{"name": "HDMI-A-1", "active": true, "transform": "normal", "rect": {"x": 0, "y": 0, "width": 1920, "height": 1080}},
             {"name": "eDP-1", "active": true, "transform": "\(transform)", "scale": 1.0, "rect": {"x": 1920, "y": 0, "width": \(w), "height": \(h)}},
             {"name": "DP-2", "active": false, "transform": "normal", "rect": {"x": 0, "y": 0, "width": 0, "height": 0}}]
            """)
    }

    /// A service following a fake sway, with the test panel plugged in.
    func swayService() throws -> (h: Harness, sway: FakeCompositor, device: PipeTouchDevice) {
        let folder = NSTemporaryDirectory() + "gestured-turn-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let sway = try FakeCompositor(path: folder + "/sway-ipc.sock")
        let h = try Harness(config: Self.config, folder: folder, environment: ["SWAYSOCK": folder + "/sway-ipc.sock"])
        let fd = try #require(sway.accept())
        var decoder = SwayIPC.Decoder()
        let asked = try decoder.feed(sway.received(fd))
        // Only the outputs: no gesture here follows the focus.
        #expect(asked.map(\.type) == [SwayIPC.subscribe, SwayIPC.getOutputs])
        #expect(String(decoding: asked[0].payload, as: UTF8.self) == #"["output"]"#)
        sway.send(SwayIPC.message(type: SwayIPC.subscribe, payload: #"{"success": true}"#))
        sway.send(Self.swayOutputs("normal"))
        h.service.runOnce(timeout: 0)
        return (h, sway, try h.plug())
    }

    /// sway says the output changed, and answers the question that follows with `transform`.
    func turn(_ sway: FakeCompositor, _ h: Harness, to transform: String) throws {
        sway.send(SwayIPC.message(type: SwayIPC.outputEvent, payload: #"{"change": "unspecified"}"#))
        h.service.runOnce(timeout: 0)
        var decoder = SwayIPC.Decoder()
        #expect(try decoder.feed(sway.received(sway.connection)).map(\.type) == [SwayIPC.getOutputs])
        sway.send(Self.swayOutputs(transform))
        h.service.runOnce(timeout: 0)
    }

    /// One finger from (x, y) device units moved 10 times by (dx, dy), 10 ms apart, then lifted.
    func stroke(_ h: Harness, _ device: PipeTouchDevice, at ms: Double, from x: Int32, _ y: Int32, by dx: Int32, _ dy: Int32) {
        h.frame(device, at: ms, [(0, x, y)], begin: true)
        for step in 1...10 { h.frame(device, at: ms + Double(step) * 10, [(0, x + dx * Int32(step), y + dy * Int32(step))]) }
        h.frame(device, at: ms + 110, [(0, -1, 0)])
        h.advance(to: ms + 1000)
    }

    @Test func anEdgePanFromTheUsersLeftEdgeIsOneInAllFourOrientations() throws {
        let (h, sway, device) = try swayService()
        // Where the user's left edge is on the panel (200 x 100 mm, 10 units/mm), and which way
        // is the user's right: worked out from wlroots' maps, not from gestured's.
        let strokes: [(transform: String, x: Int32, y: Int32, dx: Int32, dy: Int32)] = [
            ("normal", 10, 500, 60, 0),   // the panel's left edge, rightwards
            ("90", 1000, 990, 0, -60),    // (x, y) → (1 − y, x): its bottom edge, upwards
            ("180", 1990, 500, -60, 0),   // its right edge, leftwards
            ("270", 1000, 10, 0, 60),     // (x, y) → (y, 1 − x): its top edge, downwards
        ]
        var ms = 0.0
        for s in strokes {
            if s.transform != "normal" { try turn(sway, h, to: s.transform) }
            h.gestures = []
            stroke(h, device, at: ms, from: s.x, s.y, by: s.dx, s.dy)
            ms += 2000
            let edgePans = h.gestures.compactMap { g -> String? in
                guard case .edgePan(let e) = g.values else { return nil }
                return "\(g.state) \(e.edge)"
            }
            #expect(edgePans.first == "began left" && edgePans.last == "ended left", "transform \(s.transform): \(h.summary)")
            #expect(!h.gestures.contains { $0.kind == .pan }, "transform \(s.transform): \(h.summary)")
            // The movement is the user's rightwards, 60 mm of the screen's units.
            let end = try #require(h.gestures.last { $0.kind == .edgePan })
            if case .edgePan(let e) = end.values { #expect(e.translation.x > 500 && abs(e.translation.y) < 1, "\(s.transform): \(e.translation)") }
        }
        #expect(h.log.lines.filter { $0.hasPrefix("info the screen turned") }.count == 3)
    }

    @Test func aTouchInFlightIsCancelledAndTheNextTapIsMappedAsTheScreenNowStands() throws {
        let (h, sway, device) = try swayService()
        h.tap(device, at: 0, x: 500, y: 200)
        h.advance(to: 1000)
        #expect(h.printed.last?.contains(#""x": 500.0, "y": 200.0"#) == true, "\(h.printed)")
        // A pan under way when the screen turns ends cancelled: its next move never comes as
        // one of the turned screen.
        h.gestures = []
        h.frame(device, at: 2000, [(0, 1000, 500)], begin: true)
        for step in 1...6 { h.frame(device, at: 2000 + Double(step) * 10, [(0, 1000 + 50 * Int32(step), 500)]) }
        try turn(sway, h, to: "90")
        h.frame(device, at: 2100, [(0, 1400, 500)])
        h.frame(device, at: 2110, [(0, -1, 0)])
        h.advance(to: 3000)
        #expect(h.summary == ["pan began screen 1"] + Array(repeating: "pan changed screen 1", count: 5) + ["pan cancelled screen 1"], "\(h.summary)")
        // The same spot of the panel is now (1 − y, x) of 1000 x 2000.
        h.tap(device, at: 4000, x: 500, y: 200)
        h.advance(to: 5000)
        #expect(h.printed.last?.contains(#""x": 800.0, "y": 500.0"#) == true, "\(h.printed.last ?? "")")
        #expect(h.log.lines.contains("info the screen turned: the device starts over, its touches in flight cancelled "
            + "device=Test Panel from=compositor output eDP-1 node=/dev/input/event7 size=1000x2000 transform=90"), "\(h.log.lines)")
        // The same outputs again: nothing starts over.
        try turn(sway, h, to: "90")
        #expect(h.log.lines.filter { $0.hasPrefix("info the screen turned") }.count == 1)
        #expect(h.log.lines.contains("debug pan(1-5 touches)@screen: changed → cancelled (its layout was replaced (a reload, a screen turned))"))
    }

    @Test func hyprlandsMonitorsAreAskedAtStartAndAgainWhenOneIsAdded() throws {
        let folder = NSTemporaryDirectory() + "gestured-hyprturn-" + UUID().uuidString
        let instance = folder + "/hypr/sig"
        try FileManager.default.createDirectory(atPath: instance, withIntermediateDirectories: true)
        let events = try FakeCompositor(path: instance + "/.socket2.sock")
        let requests = try FakeCompositor(path: instance + "/.socket.sock")
        let h = try Harness(config: Self.config, folder: folder, environment: ["XDG_RUNTIME_DIR": folder, "HYPRLAND_INSTANCE_SIGNATURE": "sig"])
        _ = try #require(events.accept())
        func answer(_ reply: String) throws -> String {
            let fd = try #require(requests.accept())
            let asked = String(decoding: requests.received(fd), as: UTF8.self)
            requests.send(Array(reply.utf8), on: fd)
            close(fd)
            requests.connection = -1
            return asked
        }
        // Pixels 4000 x 2000 at scale 2, turned 90: 1000 x 2000 as the user sees it.
        let turned = #"[{"name": "eDP-1", "width": 4000, "height": 2000, "scale": 2.0, "transform": 1, "disabled": false}]"#
        #expect(try answer(turned) == "j/monitors")
        #expect(try answer(#"{"option": "input:touchdevice:output", "str": "[[Auto]]", "set": false}"#) == "j/getoption input:touchdevice:output")
        h.service.runOnce(timeout: 0)
        let device = try h.plug()
        h.tap(device, at: 0, x: 500, y: 200)
        h.advance(to: 1000)
        #expect(h.printed.last?.contains(#""x": 800.0, "y": 500.0"#) == true, "\(h.printed)")
        // Another screen comes: the monitors are asked again; eDP-1 is upright now.
        events.send(Array("workspace>>2\nmonitoradded>>HDMI-A-1\n".utf8))
        h.service.runOnce(timeout: 0)
        #expect(try answer(#"[{"name": "eDP-1", "width": 4000, "height": 2000, "scale": 2.0, "transform": 0}, {"name": "HDMI-A-1", "width": 1920, "height": 1080, "scale": 1.0, "transform": 0}]"#) == "j/monitors")
        h.service.runOnce(timeout: 0)
        h.tap(device, at: 2000, x: 500, y: 200)
        h.advance(to: 3000)
        #expect(h.printed.last?.contains(#""x": 500.0, "y": 200.0"#) == true, "\(h.printed)")
        #expect(h.log.lines.contains("info screens from=hyprland outputs=eDP-1 normal 2000x1000; HDMI-A-1 normal 1920x1080"), "\(h.log.lines)")
    }

    @Test func withNoSourceOfRotationNothingChangesAndItIsSaidOnce() throws {
        let config = """
            devices:
              - match: {kind: touchscreen}
                rotation: auto
                output: [2000, 1000]
            layout: {id: screen, gestures: [{kind: tap}]}
            """
        let h = try Harness(config: config, options: { $0.systemBusAddress = "unix:path=/nonexistent/gestured-test-bus" })
        let device = try h.plug()
        h.tap(device, at: 0, x: 500, y: 200)
        h.advance(to: 1000)
        #expect(h.printed.last?.contains(#""x": 500.0, "y": 200.0"#) == true)
        h.service.reload()
        h.tap(device, at: 2000, x: 500, y: 200)
        h.advance(to: 3000)
        #expect(h.printed.last?.contains(#""x": 500.0, "y": 200.0"#) == true)
        let said = h.log.lines.filter { $0.contains("accelerometer") || $0.contains("system bus") || $0.contains("turned") }
        #expect(said == ["info no accelerometer: rotation: auto keeps the screen as it is reason=no system bus"], "\(said)")
    }

    @Test func whatSwayAndHyprlandSayOfTheirOutputs() {
        let sway = Self.swayOutputs("flipped-270")
        var decoder = SwayIPC.Decoder()
        let payload = (try? decoder.feed(sway))?.first?.payload ?? []
        #expect(SwayIPC.outputs(payload) == [
            ScreenOutput(name: "HDMI-A-1", transform: .normal, size: SurfaceSize(width: 1920, height: 1080)),
            ScreenOutput(name: "eDP-1", transform: .flipped270, size: SurfaceSize(width: 1000, height: 2000)),
        ])
        #expect(SwayIPC.outputs(Array(#"{"success": true}"#.utf8)) == nil)
        #expect(SwayIPC.outputs(Array(#"[{"name": "X", "transform": "sideways", "rect": {"width": 10, "height": 10}}]"#.utf8)) == [])
        #expect(HyprlandIPC.outputs(monitorsReply: Array(#"[{"name": "DSI-1", "width": 800, "height": 1280, "scale": 1, "transform": 3}, {"name": "off", "width": 1, "height": 1, "disabled": true}]"#.utf8))
            == [ScreenOutput(name: "DSI-1", transform: .rotated270, size: SurfaceSize(width: 1280, height: 800))])
        // A transform that is no whole number of 0 to 7 leaves the monitor out (never a trap).
        #expect(HyprlandIPC.outputs(monitorsReply: Array(#"[{"name": "X", "width": 10, "height": 10, "transform": 1e300}, {"name": "Y", "width": 10, "height": 10, "transform": 1.5}, {"name": "Z", "width": 10, "height": 10, "transform": 9}]"#.utf8)) == [])
        #expect(HyprlandIPC.touchOutput(optionReply: Array(#"{"str": "eDP-1"}"#.utf8)) == .some("eDP-1"))
        #expect(HyprlandIPC.touchOutput(optionReply: Array(#"{"str": ""}"#.utf8)) == .some(nil))
        #expect(HyprlandIPC.touchOutput(optionReply: Array("ok".utf8)) == nil)
        #expect(HyprlandIPC.outputsChanged(line: "monitorremoved>>HDMI-A-1") && !HyprlandIPC.outputsChanged(line: "activewindow>>foot,x"))
    }
}
