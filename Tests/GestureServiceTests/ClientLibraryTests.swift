import Foundation
import GestureProtocol
import GestureClient
import GestureService
import Gestures
import Testing
import TouchEvents

/// What the client's thread saw, read from the test's thread.
final class ClientLog: Sendable {
    let lines = Lock<[String]>([])
    func add(_ s: String) { lines.withLock { $0.append(s) } }
    var all: [String] { lines.withLock { $0 } }
}

final class Screen {
    let log: ClientLog
    init(_ log: ClientLog) { self.log = log }
}

/// The Swift client against a real service on a real socket (the service driven by the test,
/// the client on its own thread: each wait is bounded by a count of loop turns, not a sleep).
@Suite("GestureClient", .serialized)
struct ClientLibraryTests {
    static let button = RegionRequest(id: "ok", frame: Rect(x: 90, y: 40, width: 20, height: 20), gestures: [GestureRequest(kind: .tap)])

    func client(_ h: Harness, _ log: ClientLog) throws -> GestureClient {
        var options = GestureClient.Options(socketPath: h.folder + "/gestured.sock", filter: nil)
        options.minimumBackoff = .milliseconds(20)
        let client = try GestureClient(options: options)
        client.onEvent = { event in
            switch event {
            case .connected(let g): log.add("connected \(g.version) \(g.devices.map(\.name))")
            case .gesture(let e): log.add("event \(e.kind) \(e.region)")
            case .error(let e): log.add("error \(e.code.rawValue)")
            case .disconnected: log.add("disconnected")
            }
        }
        return client
    }

    @Test func regionsGetTheirClosuresUntilTheOwnerGoesAndComeBackAfterARestart() throws {
        var h = try Harness(socket: true)
        let device = try h.plug()
        let log = ClientLog()
        let client = try client(h, log)
        defer { client.stop() }
        var screen: Screen? = Screen(log)
        try client.register(Self.button, owner: screen!) { screen, tap in screen.log.add("closure \(tap.kind) \(tap.region) \(tap.x)") }
        #expect(throws: ProtocolError(.duplicateID, field: "region.id", "this client already has a region \"ok\"")) {
            try client.register(Self.button) { _ in }
        }
        try client.start()
        h.runUntil { h.service.clientRegionCount == 1 }
        #expect(h.service.clientRegionCount == 1)
        h.tap(device, at: 0, x: 1000, y: 500)
        h.advance(to: 500)
        h.runUntil { log.all.count >= 3 }
        #expect(log.all == ["connected 1 [\"Test Panel\"]", "closure tap ok 100.0", "event tap ok"])

        // The service restarts: the client connects again and registers the button again.
        h.service.shutdown()
        let folder = h.folder
        h = try Harness(socket: true, folder: folder)
        let again = try h.plug()
        h.runUntil { h.service.clientRegionCount == 1 }
        #expect(h.service.clientRegionCount == 1, "re-registered after reconnecting")
        h.tap(again, at: 1000, x: 1000, y: 500)
        h.advance(to: 1500)
        h.runUntil { log.all.count >= 7 }
        #expect(log.all.suffix(4) == ["disconnected", "connected 1 [\"Test Panel\"]", "closure tap ok 100.0", "event tap ok"])

        // The owner goes: the next gesture on the button is not handed to the closure, and
        // the region is unregistered.
        screen = nil
        h.tap(again, at: 2000, x: 1000, y: 500)
        h.advance(to: 2500)
        h.runUntil { h.service.clientRegionCount == 0 }
        #expect(h.service.clientRegionCount == 0)
        #expect(client.regions.isEmpty)
        #expect(!log.all.suffix(2).contains { $0.hasPrefix("closure") }, "never called after its owner is gone")
        h.tap(again, at: 3000, x: 1000, y: 500)
        h.advance(to: 3500)
        #expect(h.summary.suffix(2) == ["tap recognized ok of client 1 1", "tap recognized root 1"], "the new service numbers its clients anew")
    }

    @Test func aTokenCancelsAndTheServiceRefusalsArriveAsEvents() throws {
        let h = try Harness(socket: true)
        _ = try h.plug()
        let log = ClientLog()
        let client = try client(h, log)
        defer { client.stop() }
        try client.start()
        h.runUntil { client.isConnected }
        let token = try client.register(Self.button) { _ in }
        var huge = Self.button
        huge.id = "huge"
        huge.frame = Rect(x: 0, y: 0, width: 5e7, height: 1)
        try client.register(huge) { _ in }
        h.runUntil { log.all.contains("error invalid-field") }
        #expect(h.service.clientRegionCount == 1)
        #expect(token.isActive)
        token.cancel()
        #expect(!token.isActive)
        h.runUntil { h.service.clientRegionCount == 0 }
        #expect(h.service.clientRegionCount == 0)
        #expect(log.all == ["connected 1 [\"Test Panel\"]", "error invalid-field"])
    }
}
