import Foundation
import GestureProtocol
import GestureReplay
import GestureRuntime
@testable import GestureService
import GestureView
import Gestures
import SystemLoop
import Testing
import TouchEvents
import TouchRecordings

/// `gestured run --metrics` and `--view`.
@Suite("gestured run: the live view and the metrics", .serialized)
struct ViewAndMetricsTests {
    static let loopback = ListenAddress(host: "127.0.0.1", port: 0)

    /// One GET answered by the service's loop: the status and the body.
    static func get(_ path: String, from address: ListenAddress, _ h: Harness) throws -> (status: Int, body: String) {
        let fd = try TCPSocket.connect(to: address)
        defer { UnixSocket.close(fd) }
        let request = Array("GET \(path) HTTP/1.1\r\nHost: test\r\n\r\n".utf8)
        _ = request.withUnsafeBytes { UnixSocket.send(fd, $0) }
        UnixSocket.setNonBlocking(fd)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        loop: for _ in 0..<500 {
            h.service.runOnce(timeout: 5)
            while true {
                switch buffer.withUnsafeMutableBytes({ UnixSocket.read(fd, into: $0) }) {
                case .data(let n): received += buffer[0..<n]
                case .wouldBlock: continue loop
                case .closed: break loop
                }
            }
        }
        let text = String(decoding: received, as: UTF8.self)
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? "")
    }

    /// The metrics of a recording played into a device count what replaying it gives: each
    /// gesture once by device, kind and region; every frame's latency; the device present.
    @Test func theGestureCountersAreTheReplaysGestures() throws {
        let path = repositoryRoot + "/fixtures/recordings/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"
        let replayed = try RecordingReplay.run(path: path)
        let recording = try Recording.load(path: path).devices[0]
        let h = try Harness(start: recording.firstEventTime, options: { $0.metricsAddress = Self.loopback })
        let address = try #require(h.service.metricsAddress)
        let device = try h.plug("/dev/input/event9", recording.description)
        h.play(recording.events, into: device)
        var expected: [String: Int] = [:]
        for g in replayed.gestures where g.state == .recognized || g.state == .began {
            expected["gestured_gestures_total{device=\"/dev/input/event9\",kind=\"\(g.kind.rawValue)\",region=\"\(g.region)\"}", default: 0] += 1
        }
        #expect(!expected.isEmpty)
        let (status, body) = try Self.get("/metrics", from: address, h)
        #expect(status == 200)
        var counted: [String: Int] = [:]
        for line in body.split(separator: "\n") where line.hasPrefix("gestured_gestures_total{") {
            let parts = line.split(separator: " ")
            counted[String(parts[0])] = Int(parts[1])
        }
        #expect(counted == expected)
        let frames = recording.events.filter(\.isReport).count
        #expect(body.contains("gestured_frame_latency_seconds_count \(frames)\n"))
        #expect(body.contains("gestured_devices 1"))
        #expect(body.contains("gestured_clients 0"))
        // What failed, by kind and reason, never with a position.
        #expect(body.contains("gestured_recognizer_failures_total{kind=\"tap\",reason=\"too_many_touches\"}"))
        #expect(!body.contains(" x=") && !body.contains("x=\""))
        #expect(try Self.get("/", from: address, h).status == 404)
    }

    /// Refused requests and actions are counted.
    @Test func refusedMessagesAndActionsAreCounted() throws {
        let h = try Harness(config: """
            service: {actions-as-root: true}
            layout:
              id: root
              gestures:
                - kind: tap
                  action: {exec: ["/bin/false"]}
            """, socket: true, options: { $0.metricsAddress = Self.loopback })
        let address = try #require(h.service.metricsAddress)
        let client = try UnixSocket.connect(to: h.folder + "/gestured.sock")
        defer { UnixSocket.close(client) }
        let junk = Array("{\"type\": \"nonsense\"}\n".utf8)
        _ = junk.withUnsafeBytes { UnixSocket.send(client, $0) }
        h.runUntil(limit: 1000) { (try? Self.get("/metrics", from: address, h).body.contains("gestured_client_messages_refused_total")) == true }
        let device = try h.plug()
        h.tap(device, at: 100)
        h.runUntil { h.service.runningActions == 0 && h.log.lines.contains { $0.contains("action failed") } }
        let body = try Self.get("/metrics", from: address, h).body
        #expect(body.contains("gestured_client_messages_refused_total{code=\"unknown-type\"} 1"))
        #expect(body.contains("gestured_actions_total{outcome=\"started\"} 1"))
        #expect(body.contains("gestured_actions_total{outcome=\"exit_status\"} 1"))
        #expect(body.contains("gestured_clients 1"))
    }

    /// `--view` on a non-loopback address without leave: refused before anything is served.
    @Test func aViewOnANonLoopbackAddressIsRefused() throws {
        #expect {
            _ = try Harness(options: { $0.view = LiveView.Options(address: ListenAddress(host: "0.0.0.0", port: 0)) })
        } throws: { error in
            "\(error)".hasPrefix("0.0.0.0:0: the view shows raw touch positions")
        }
        let h = try Harness(options: { $0.view = LiveView.Options(address: Self.loopback, token: "t") })
        let view = try #require(h.service.view)
        #expect(try Self.get("/?token=x", from: view.address, h).status == 403)
        #expect(try Self.get("/?token=t", from: view.address, h).status == 200)
        #expect(h.log.lines.contains { $0.contains("serving the live view") })
    }

    /// The metrics the docs list, the ones the service makes and the ones the Grafana dashboard
    /// asks for are the same names.
    @Test func theDocsTheServiceAndTheDashboardNameTheSameMetrics() throws {
        let docs = try String(contentsOfFile: repositoryRoot + "/docs/view.md", encoding: .utf8)
        let table = docs.split(separator: "\n").filter { $0.hasPrefix("| `gestured_") }.map { line in
            String(line.dropFirst(3).prefix { $0 != "`" })
        }
        #expect(table == ServiceMetrics.names)
        let dashboard = try String(contentsOfFile: repositoryRoot + "/examples/grafana-dashboard.json", encoding: .utf8)
        let used = Set(dashboard.matches(of: /gestured_[a-z_]+/).map { String($0.output) }.map { name in
            name.hasSuffix("_bucket") ? String(name.dropLast("_bucket".count)) : name
        })
        #expect(used.subtracting(ServiceMetrics.names).isEmpty, "the dashboard asks for \(used.subtracting(ServiceMetrics.names))")
        #expect(used.count >= 8)
    }
}
