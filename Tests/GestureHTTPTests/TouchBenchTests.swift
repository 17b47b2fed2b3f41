import Foundation
import GestureConfiguration
import GestureService
@testable import GestureHTTP
import GestureReplay
@testable import GestureView
import SystemLoop
import Testing
import TouchEvents

/// `gestured view --config FILE`: the page's touches go through the pipeline, the gestures and
/// the actions they would run come back, and what was drawn saves as a recording that replays
/// to the same gestures.
@Suite("touch bench")
struct TouchBenchTests {
    @Test func touchesFromThePageAreGesturesAndSaveAsARecording() throws {
        let configuration = try Configuration.load(path: repositoryRoot + "/examples/kiosk.yaml")
        let clock = TestClock()
        let loop = try SharedEventLoop(clock: clock)
        let view = try LiveView(options: .init(address: loopback, token: "t"), loop: loop, clock: clock, logger: quiet,
                                source: "bench", title: "kiosk")
        let bench = try TouchBench(configuration: configuration, kind: nil, size: nil, view: view, loop: loop, clock: clock)
        #expect(bench.device.name == "Synthetic Touchscreen")
        let peer = try TestPeer(view.address, loop: loop)
        _ = peer.upgrade(path: "/ws?token=t")
        var seen = peer.frames(waitingFor: 2).map(\.text)
        // 800 × 480 px over the rule's 154 × 86 mm: 5.19 and 5.58 px/mm, 5.38 on average.
        #expect(seen.last?.contains("\"units_per_mm\": 5.3846,") == true)
        // Each command, once the clock has moved on, answered before the next (every frame
        // read so far comes back each time).
        func send(_ text: String, after ms: Int64 = 0) {
            clock.now += .milliseconds(ms)
            peer.send(HTTPParsingTests.masked(text, mask: [9, 8, 7, 6]))
            seen = peer.frames(waitingFor: seen.count + 1).map(\.text)
        }
        // A tap on the play button (its centre is at 206, 420 in the kiosk's pixels) ...
        send("touch 1.0:down:206:420")
        send("touch 1.0:up:206:420", after: 50)
        seen = peer.frames(until: { $0.contains("\"type\": \"action\"") }).map(\.text)
        // ... and two fingers spreading on the photo: a pinch.
        send("touch 2.0:down:380:185 2.1:down:420:185", after: 600)
        for step in 1...10 {
            send("touch 2.0:move:\(380 - 8 * step):185 2.1:move:\(420 + 8 * step):185", after: 20)
        }
        send("touch 2.0:up:300:185 2.1:up:500:185", after: 20)
        send("touch 3:jump:1:1")
        seen = peer.frames(until: { $0.contains("\"type\": \"error\"") }).map(\.text)
        #expect(seen.last == #"{"type": "error", "reason": "a touch is ID:PHASE:X:Y (PHASE down, move, up or cancel), not 3:jump:1:1"}"#)
        send("save")
        seen = peer.frames(until: { $0.contains("\"type\": \"recording\"") }).map(\.text)

        let gestures = seen.filter { $0.hasPrefix("{\"type\": \"gesture\"") }
        #expect(gestures.first?.contains("\"kind\": \"tap\", \"state\": \"recognized\", \"region\": \"play\"") == true)
        #expect(gestures.contains { $0.contains("\"kind\": \"pinch\", \"state\": \"ended\", \"region\": \"photo\"") })
        let actions = seen.filter { $0.hasPrefix("{\"type\": \"action\"") }
        #expect(actions.first == #"{"type": "action", "time": 0.05, "recognizer": "tap(1 tap, 1 touch)@play", "action": "exec /usr/bin/playerctl play-pause", "run": false}"#)

        // The recording replays to the very gestures the page got.
        let message = try #require(seen.last { $0.hasPrefix("{\"type\": \"recording\"") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any])
        let yaml = try #require(object["yaml"] as? String)
        #expect(object["events"] as? Int == bench.events.count)
        let path = NSTemporaryDirectory() + "bench-\(UUID().uuidString).yaml"
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let replay = try RecordingReplay.run(path: path, rules: configuration)
        let replayed = replay.gestures.map { "\($0.kind) \($0.state) \($0.region)" }
        let shown = gestures.map { line -> String in
            let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return "\(o?["kind"] ?? "") \(o?["state"] ?? "") \(o?["region"] ?? "")"
        }
        #expect(replayed == shown)
        #expect(replayed.count >= 4)
    }

    /// `--run-actions`: the tap's program runs (as the service would run it), and the page is
    /// told it ran.
    @Test func withRunActionsTheActionsRun() throws {
        let dir = NSTemporaryDirectory() + "bench-run-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let ran = dir + "/ran"
        try """
            devices: [{match: {kind: touchscreen}, size: [100, 60]}]
            layout:
              id: screen
              frame: [0, 0, 100, 60]
              gestures:
                - kind: tap
                  action: {exec: ["/usr/bin/touch", "\(ran)"]}
            service:
              actions-as-root: true
            """.write(toFile: dir + "/bench.yaml", atomically: true, encoding: .utf8)
        let configuration = try Configuration.load(path: dir + "/bench.yaml")
        let clock = TestClock()
        let loop = try SharedEventLoop(clock: clock)
        let view = try LiveView(options: .init(address: loopback, token: "t"), loop: loop, clock: clock, logger: quiet,
                                source: "bench", title: "bench")
        let actions = ConfiguredActions(configuration: configuration, loop: loop, clock: clock, logger: quiet)
        let bench = try TouchBench(configuration: configuration, kind: nil, size: nil, view: view, loop: loop, clock: clock, actions: actions)
        let peer = try TestPeer(view.address, loop: loop)
        _ = peer.upgrade(path: "/ws?token=t")
        _ = peer.frames(waitingFor: 2)
        peer.send(HTTPParsingTests.masked("touch 1:down:50:30", mask: [1, 2, 3, 4]))
        _ = peer.frames(waitingFor: 3)
        clock.now += .milliseconds(60)
        peer.send(HTTPParsingTests.masked("touch 1:up:50:30", mask: [1, 2, 3, 4]))
        let told = peer.frames(until: { $0.contains("\"type\": \"action\"") }).map(\.text)
        #expect(told.first { $0.contains("\"type\": \"action\"") } == #"{"type": "action", "time": 0.06, "recognizer": "tap(1 tap, 1 touch)@screen", "action": "exec /usr/bin/touch \#(ran)", "run": true}"#)
        // The program runs on its own; the loop collects it.
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: ran) {
            _ = peer.pump(turns: 5) { _ in false }
            usleep(10_000)
        }
        #expect(FileManager.default.fileExists(atPath: ran))
        withExtendedLifetime((bench, actions)) {}
    }
}
