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
}
