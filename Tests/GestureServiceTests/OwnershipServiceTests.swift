import Foundation
import GestureProtocol
import GestureRuntime
import GestureService
import Gestures
import Testing
import TouchEvents
import TouchInput
import TouchInputTesting

/// `own: true` in the service: the configuration's owning gestures take their touches from the
/// apps, and a client's exclusion region keeps them for its app (issue 48's examples).
@Suite("Owned devices in the service", .serialized)
struct OwnershipServiceTests {
    static let config = """
        devices:
          - own: true
        layout:
          id: root
          gestures:
            - {kind: edge-pan, edges: [left], action: {emit: true}, pass-through: false}
        """

    /// A service owning the test panel, its twin a recorder.
    func harness(twin: RecordingTwin, config: String = Self.config) throws -> Harness {
        try Harness(config: config, socket: true, prepare: { service in
            service.runtime.makeTwin = { _, _ throws(InputError) in twin }
        })
    }

    /// A drag in from the left edge at `y` mm: lands 1 mm in, moves 30 mm right in 100 ms.
    func dragFromTheLeftEdge(_ h: Harness, _ device: PipeTouchDevice, at ms: Double, y: Int32) {
        h.frame(device, at: ms, [(0, 10, y * 10)], begin: true)
        for step in 1...5 { h.frame(device, at: ms + Double(step) * 20, [(0, 10 + Int32(step) * 60, y * 10)]) }
        h.frame(device, at: ms + 120, [(0, -1, 0)])
    }

    @Test func anEdgePanBoundToAnActionIsCancelledOnTheTwinAndOneInAnExclusionRegionPassesUntouched() throws {
        let twin = RecordingTwin()
        let h = try harness(twin: twin)
        let device = try h.plug()
        #expect(device.isGrabbed)
        #expect(h.log.lines.contains { $0.hasPrefix("info touch device owned: its twin stands in for it") && $0.contains("twin=/dev/input/event99") })
        let client = try RawClient(h)
        client.send(#"{"type": "register", "id": 1, "region": {"id": "drawer", "frame": [0, 40, 20, 40], "exclusion": true, "gestures": []}}"# + "\n")
        h.service.runOnce(timeout: 0)
        #expect(client.summary() == ["greeting", "reply register 1"])

        // In the client's exclusion region: no edge pan, and the app gets the whole touch.
        dragFromTheLeftEdge(h, device, at: 0, y: 60)
        #expect(h.gestures.isEmpty)
        #expect(twin.lines == [
            "slot 0, id 1, x 10, y 600, touch 1",
            // (y is written once: the twin has it already, and the kernel would drop it)
            "x 70", "x 130", "x 190", "x 250", "x 310",
            "id -1, touch 0",
        ])
        // Above it: the edge pan, and the touch is cancelled on the twin once it began.
        dragFromTheLeftEdge(h, device, at: 1000, y: 20)
        #expect(h.gestures.map { "\($0.kind) \($0.state)" }.filter { !$0.hasSuffix("changed") } == ["edge-pan began", "edge-pan ended"])
        let second = Array(twin.lines.dropFirst(7))
        #expect(second.first == "id 2, x 10, y 200, touch 1")
        #expect(second.suffix(2) == ["palm", "id -1, touch 0"])
        #expect(!second.dropLast(2).contains { $0.contains("id -1") })
        client.hangUp()
    }

    @Test func aReloadThatKeepsOwnKeepsTheTwinAndOneThatDropsItLetsTheDeviceGo() throws {
        final class Made { var twins = 0 }
        let made = Made()
        let h = try Harness(config: Self.config, socket: false, prepare: { service in
            service.runtime.makeTwin = { _, _ throws(InputError) in
                made.twins += 1
                return RecordingTwin()
            }
        })
        let device = try h.plug()
        #expect(device.isGrabbed && made.twins == 1)
        // The same file again, and one with another gesture: the compositor sees no device come and go.
        h.service.reload()
        try (Self.config + "\n    - {kind: tap, taps: 2}\n").write(toFile: h.folder + "/gestured.yaml", atomically: true, encoding: .utf8)
        h.service.reload()
        #expect(device.isGrabbed && made.twins == 1)
        try "layout: {id: root, gestures: [{kind: tap}]}\n".write(toFile: h.folder + "/gestured.yaml", atomically: true, encoding: .utf8)
        h.service.reload()
        #expect(!device.isGrabbed)
        #expect(h.log.lines.filter { $0.hasPrefix("info touch device no longer owned") }.count == 1)
    }

    @Test func theConfigurationSaysWhichGesturesOwn() throws {
        // An emit-only gesture shares its touches: the twin gets them whole.
        let twin = RecordingTwin()
        let h = try harness(twin: twin, config: """
            devices: [{own: true}]
            layout: {id: root, gestures: [{kind: edge-pan, edges: [left], action: {emit: true}}]}
            """)
        let device = try h.plug()
        dragFromTheLeftEdge(h, device, at: 0, y: 20)
        #expect(h.gestures.map { "\($0.kind) \($0.state)" }.filter { !$0.hasSuffix("changed") } == ["edge-pan began", "edge-pan ended"])
        #expect(twin.lines.last == "id -1, touch 0")
        #expect(!twin.lines.contains("palm"))
    }

    // MARK: - The desktop's own gestures

    /// `fingers` fingers 15 mm apart down at `ms`, moved 40 mm right in 100 ms, then lifted.
    func drag(_ h: Harness, _ device: PipeTouchDevice, fingers: Int, at ms: Double) {
        let slots = (0..<Int32(fingers)).map { (slot: $0, y: 250 + 150 * $0) }
        h.frame(device, at: ms, slots.map { ($0.slot, 500, $0.y) }, begin: true)
        for step in 1...5 { h.frame(device, at: ms + Double(step) * 20, slots.map { ($0.slot, 500 + Int32(step) * 80, $0.y) }) }
        h.frame(device, at: ms + 120, slots.map { ($0.slot, -1, 0) })
        h.advance(to: ms + 1000)
    }

    /// Whether the twin cancelled the touches of the last drag (the apps lost them: owned).
    func cancelled(_ twin: RecordingTwin, since line: Int) -> Bool { twin.lines.dropFirst(line).contains { $0.contains("palm") } }

    @Test func onGNOMEAnOwnedTouchscreenLeavesTheShellTheThreeFingerSwipesNoGestureBinds() throws {
        let config = """
            devices:
              - own: true
            layout:
              id: root
              gestures:
                - {kind: pan, action: {emit: true}, pass-through: false}
            """
        let twin = RecordingTwin()
        let h = try Harness(config: config, prepare: { service in
            service.runtime.makeTwin = { _, _ throws(InputError) in twin }
            service.runtime.findCompositor = { RunningCompositor(name: "gnome-shell", pid: 900) }
        })
        let device = try h.plug()
        #expect(h.log.lines.contains("info GNOME animates its own touchscreen swipes: the owned device leaves them to it "
            + "device=Test Panel fingers=3 hint=a gesture that binds the count (touches: 3) takes them"), "\(h.log.lines)")
        // Two fingers: the pan takes them from the apps. Three: the pan is still recognized, and
        // GNOME gets every touch of it for its workspace swipe.
        var mark = twin.lines.count
        drag(h, device, fingers: 2, at: 0)
        #expect(cancelled(twin, since: mark))
        mark = twin.lines.count
        drag(h, device, fingers: 3, at: 2000)
        #expect(!cancelled(twin, since: mark), "\(twin.lines.dropFirst(mark))")
        #expect(h.gestures.filter { $0.state == .began }.map(\.touches) == [2, 3])

        // A three-finger swipe bound in the configuration takes them.
        try (config + "\n    - {kind: swipe, touches: 3, directions: [right], action: {emit: true}}\n")
            .write(toFile: h.folder + "/gestured.yaml", atomically: true, encoding: .utf8)
        h.service.reload()
        mark = twin.lines.count
        drag(h, device, fingers: 3, at: 4000)
        #expect(cancelled(twin, since: mark), "\(h.log.lines.suffix(12))")
    }

    @Test func aShellThatStartsAfterTheServiceIsFoundAsTouchesCome() throws {
        let config = "devices:\n  - own: true\nlayout:\n  id: root\n  gestures:\n    - {kind: pan, action: {emit: true}, pass-through: false}\n"
        final class Running { var compositor: RunningCompositor? }
        let running = Running()
        let twin = RecordingTwin()
        let h = try Harness(config: config, prepare: { service in
            service.runtime.makeTwin = { _, _ throws(InputError) in twin }
            service.runtime.findCompositor = { running.compositor }
        })
        let device = try h.plug()
        // At boot: no shell yet, the pan takes three fingers.
        drag(h, device, fingers: 3, at: 0)
        #expect(cancelled(twin, since: 0))
        // GNOME starts; five seconds on, the next touches find it.
        running.compositor = RunningCompositor(name: "gnome-shell", pid: 900)
        var mark = twin.lines.count
        drag(h, device, fingers: 3, at: 6000)
        drag(h, device, fingers: 3, at: 8000)
        #expect(h.log.lines.filter { $0.hasPrefix("info GNOME animates its own touchscreen swipes") }.count == 1)
        mark = twin.lines.count
        drag(h, device, fingers: 3, at: 10000)
        #expect(!cancelled(twin, since: mark))
        // The user leaves GNOME for sway: three fingers are the pan's again.
        running.compositor = RunningCompositor(name: "sway", pid: 901, version: .init(1, 10))
        drag(h, device, fingers: 3, at: 16000)
        mark = twin.lines.count
        drag(h, device, fingers: 3, at: 18000)
        #expect(cancelled(twin, since: mark))
        #expect(h.log.lines.contains("info the owned device's gestures take every finger count again: no shell animating its own swipes runs device=Test Panel"))
    }

    @Test func elsewhereAnOwnedTouchscreenTakesThreeFingersAsBefore() throws {
        let config = "devices:\n  - own: true\nlayout:\n  id: root\n  gestures:\n    - {kind: pan, action: {emit: true}, pass-through: false}\n"
        let twin = RecordingTwin()
        let h = try Harness(config: config, prepare: { service in
            service.runtime.makeTwin = { _, _ throws(InputError) in twin }
            service.runtime.findCompositor = { RunningCompositor(name: "sway", pid: 900, version: .init(1, 10)) }
        })
        let device = try h.plug()
        drag(h, device, fingers: 3, at: 0)
        #expect(cancelled(twin, since: 0), "\(twin.lines)")
        #expect(!h.log.lines.contains { $0.contains("animates its own") })
        #expect(RunningCompositor(name: "kwin_wayland", pid: 1).animatedSwipeFingers(on: .touchscreen) == [3])
        #expect(RunningCompositor(name: "kwin_wayland", pid: 1).animatedSwipeFingers(on: .touchpad) == [3, 4])
        #expect(RunningCompositor(name: "sway", pid: 1).animatedSwipeFingers(on: .touchpad).isEmpty)
    }
}
