import Foundation
import GestureProtocol
import GestureService
import Gestures
import SystemLoop
import Testing
import TouchEvents

/// A client speaking the protocol by hand, as a program in any language would.
final class RawClient {
    /// -1 once hung up.
    private(set) var fd: Int32
    private var pending: [UInt8] = []

    init(_ h: Harness) throws {
        fd = try UnixSocket.connect(to: h.folder + "/gestured.sock")
        UnixSocket.setNonBlocking(fd)
        h.service.runOnce(timeout: 0)
    }

    deinit { hangUp() }

    /// Closes the connection, once: after a close the number may be another test's descriptor
    /// (tests run in parallel), and closing it again would close that one.
    func hangUp() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    func send(_ text: String) {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { UnixSocket.send(fd, $0) }
            if n <= 0 { return }
            bytes.removeFirst(n)
        }
    }

    /// Every whole line waiting, without their newlines.
    func lines() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while case .data(let n) = buffer.withUnsafeMutableBytes({ UnixSocket.read(fd, into: $0) }) {
            pending += buffer[0..<n]
        }
        var out: [String] = []
        while let i = pending.firstIndex(of: UInt8(ascii: "\n")) {
            out.append(String(decoding: pending[..<i], as: UTF8.self))
            pending.removeFirst(i + 1)
        }
        return out
    }

    /// Each waiting message in short: `reply register 1`, `gesture tap recognized ok 0.06`,
    /// `error too-large`.
    func summary() -> [String] {
        lines().map { line in
            guard let o = try? JSONValue.parse(line).objectValue else { return "not JSON: \(line)" }
            func v(_ k: String) -> String {
                switch o[k] {
                case .string(let s)?: s
                case .number(let n)?: JSONValue.number(n).text
                default: "-"
                }
            }
            switch v("type") {
            case "reply": return "reply \(v("request")) \(v("id"))"
            case "gesture": return "gesture \(v("kind")) \(v("state")) \(v("region")) \(v("time"))"
            case "error": return "error \(v("code")) \(v("id"))"
            default: return v("type")
            }
        }
    }

    /// True once the service closed the connection.
    var isClosed: Bool {
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }
}

@Suite("protocol v1 on the service's socket", .serialized)
struct ProtocolTests {
    static let button = #"{"type": "register", "id": 1, "region": {"id": "ok", "frame": [90, 40, 20, 20], "gestures": [{"kind": "tap"}]}}"# + "\n"

    @Test func theGreetingComesFirstAndRequestsAreAnswered() throws {
        let h = try Harness(socket: true)
        _ = try h.plug()
        let c = try RawClient(h)
        c.send("{\"type\": \"ping\", \"id\": \"p1\"}\n{\"type\": \"context\", \"id\": 2, \"context\": {\"app\": \"org.mozilla.firefox\"}, \"later\": 1}\n")
        h.service.runOnce(timeout: 0)
        #expect(c.lines() == [
            #"{"protocol": "gestured", "version": 1, "type": "greeting", "minor": 1, "service": "\#(GestureService.version)", "devices": [{"name": "Test Panel", "kind": "touchscreen", "node": "/dev/input/event7"}], "layouts": ["root"], "kinds": ["tap", "long-press", "pan", "swipe", "pinch", "rotate", "edge-pan"], "limits": {"message_bytes": 65536, "regions": 256, "gestures_per_region": 16, "requests_per_second": 100, "request_burst": 200, "backlog_bytes": 262144}}"#,
            #"{"type": "pong", "id": "p1"}"#,
            #"{"type": "reply", "id": 2, "request": "context", "ok": true, "ignored": ["later"]}"#,
        ])
        #expect(h.service.clientContexts.values.first == ["app": "org.mozilla.firefox"])
    }

    /// The greeting tells the devices there when the client connects: one before a device is
    /// plugged in hears of none, one after of it.
    @Test func theGreetingTellsTheDevicesOfTheMoment() throws {
        let h = try Harness(socket: true)
        func devices(_ c: RawClient) -> [String] {
            let greeting = c.lines().first.flatMap { try? JSONValue.parse($0).objectValue }
            return greeting?["devices"]?.arrayValue?.compactMap { $0.objectValue?["node"]?.stringValue } ?? ["no greeting"]
        }
        let before = try RawClient(h)
        #expect(devices(before) == [])
        _ = try h.plug()
        let after = try RawClient(h)
        #expect(devices(after) == ["/dev/input/event7"])
    }

    @Test func aClientsRegionGetsItsTapsAndOnlyThatClientDoes() throws {
        let h = try Harness(socket: true)
        let device = try h.plug()
        let owner = try RawClient(h)
        let other = try RawClient(h)
        owner.send(Self.button)
        h.service.runOnce(timeout: 0)
        _ = other.lines()
        #expect(owner.lines().dropFirst() == [#"{"type": "reply", "id": 1, "request": "register", "ok": true}"#])
        h.tap(device, at: 0, x: 1000, y: 500)   // (100, 50) mm: on the button
        h.tap(device, at: 1000, x: 300, y: 200)  // (30, 20) mm: the service's root
        h.advance(to: 2000)
        #expect(owner.lines() == [
            #"{"type": "gesture", "time": 0.06, "device": "Test Panel", "kind": "tap", "state": "recognized", "region": "ok", "touches": 1, "x": 100.0, "y": 50.0, "local_x": 10.0, "local_y": 10.0, "taps": 1}"#,
            #"{"type": "gesture", "time": 1.36, "device": "Test Panel", "kind": "tap", "state": "recognized", "region": "root", "touches": 1, "x": 30.0, "y": 20.0, "taps": 1}"#,
        ])
        #expect(other.lines() == [
            #"{"type": "gesture", "time": 1.36, "device": "Test Panel", "kind": "tap", "state": "recognized", "region": "root", "touches": 1, "x": 30.0, "y": 20.0, "taps": 1}"#,
        ], "another client never sees the button's gestures")
        #expect(h.summary == ["tap recognized ok of client 1 1", "tap recognized root 1"])
        // gestured run --json names the client's region as the client does, and the client.
        #expect(h.printed == [
            #"{"time": 0.06, "device": "Test Panel", "kind": "tap", "state": "recognized", "region": "ok", "client": 1, "touches": 1, "x": 100.0, "y": 50.0, "local_x": 10.0, "local_y": 10.0, "taps": 1}"#,
            #"{"time": 1.36, "device": "Test Panel", "kind": "tap", "state": "recognized", "region": "root", "touches": 1, "x": 30.0, "y": 20.0, "taps": 1}"#,
        ])
    }

    /// A client's region carries its client as a field, with the client's own id: two clients
    /// may both call a region `root`, as the service's own layout does, and none is taken for
    /// another — in hit testing, in delivery, in the layout's id lookup or when one goes.
    @Test func clientsRegionsMayShareAnIdWithEachOtherAndTheServicesRegions() throws {
        let h = try Harness(socket: true)
        let device = try h.plug()
        let first = try RawClient(h)
        let second = try RawClient(h)
        first.send(#"{"type": "register", "id": 1, "region": {"id": "root", "frame": [90, 40, 20, 20], "gestures": [{"kind": "tap"}]}}"# + "\n")
        second.send(#"{"type": "register", "id": 1, "region": {"id": "root", "frame": [10, 40, 20, 20], "gestures": [{"kind": "tap"}]}}"# + "\n")
        h.service.runOnce(timeout: 0)
        _ = first.lines()
        _ = second.lines()
        let layout = try #require(h.service.runtime.sessions.first?.layout)
        #expect(layout.region("root") === layout.root, "the layout's own root, not a client's")
        h.tap(device, at: 0, x: 1000, y: 500)   // (100, 50) mm: the first client's
        h.tap(device, at: 1000, x: 200, y: 500)  // (20, 50) mm: the second client's
        first.send(#"{"type": "unregister", "id": 2, "region": "root"}"# + "\n")
        h.service.runOnce(timeout: 0)
        h.tap(device, at: 2000, x: 1000, y: 500)  // the first client's is gone: the service's root
        h.tap(device, at: 3000, x: 200, y: 500)   // the second client's is still there
        h.advance(to: 4000)
        #expect(h.summary == [
            "tap recognized root of client 1 1", "tap recognized root of client 2 1", "tap recognized root 1",
            "tap recognized root of client 2 1",
        ])
        #expect(first.lines().filter { $0.contains("gesture") }.map { $0.contains(#""x": 100.0"#) } == [true, true],
                "its own tap, then the service's root's")
        #expect(second.lines().filter { $0.contains("gesture") }.map { $0.contains(#""x": 20.0"#) } == [true, false, true])
        #expect(h.printed.map { $0.contains(#""client": "#) } == [true, true, false, true])
        #expect(layout.region("root") === layout.root)
    }

    /// A pan under way on a client's region that the client unregisters ends `cancelled` — to
    /// that client, under its id, though the region is gone by then.
    @Test func aGestureOnARegionTheClientTakesAwayEndsCancelledToThatClient() throws {
        let h = try Harness(socket: true)
        let device = try h.plug()
        let owner = try RawClient(h)
        let other = try RawClient(h)
        owner.send(#"{"type": "register", "id": 1, "region": {"id": "slider", "frame": [40, 40, 120, 20], "gestures": [{"kind": "pan"}]}}"# + "\n")
        h.service.runOnce(timeout: 0)
        _ = owner.lines()
        _ = other.lines()
        h.frame(device, at: 0, [(0, 500, 500)], begin: true)
        for step in 1...6 { h.frame(device, at: Double(step) * 40, [(0, 500 + Int32(step) * 20, 500)]) }  // 50 mm/s: no swipe
        owner.send(#"{"type": "unregister", "id": 2, "region": "slider"}"# + "\n")
        h.service.runOnce(timeout: 0)
        h.frame(device, at: 280, [(0, -1, 0)])
        h.advance(to: 1000)
        #expect(h.summary == ["pan began slider of client 1 1"] + Array(repeating: "pan changed slider of client 1 1", count: 4)
            + ["pan cancelled slider of client 1 1"])
        let gestures = owner.lines().filter { $0.contains(#""type": "gesture""#) }
        #expect(gestures.count == 6)
        #expect(gestures.last?.contains(#""state": "cancelled", "region": "slider""#) == true)
        #expect(other.lines() == [], "another client never sees them")
    }

    /// A device's frame and a client's request ready in the same turn of the loop: the frame
    /// is read first, though the request came first — recognition never waits behind
    /// clients. The touch lands before the client's button is there.
    @Test func devicesAreReadBeforeClientsInATurn() throws {
        let h = try Harness(socket: true)
        let device = try h.plug()
        let c = try RawClient(h)
        _ = c.lines()
        c.send(Self.button)
        h.frame(device, at: 0, [(0, 1000, 500)], begin: true, run: false)  // (100, 50) mm: on the button
        h.service.runOnce(timeout: 0)
        h.frame(device, at: 60, [(0, -1, 0)])
        h.tap(device, at: 1000, x: 1000, y: 500)
        h.advance(to: 2000)
        #expect(h.summary == ["tap recognized root 1", "tap recognized ok of client 1 1"])
        #expect(c.summary() == ["reply register 1", "gesture tap recognized root 0.36", "gesture tap recognized ok 1.06"])
    }

    /// Ten clients each send 120 KB at once (two pings padded with a field the service
    /// ignores): one turn of the loop reads at most 1 MB of it, each client its share (a
    /// tenth: its first ping and part of the second), the next turns the rest, and every ping
    /// is answered.
    @Test func aTurnReadsABoundedAmountFromAllClients() throws {
        let h = try Harness(socket: true)
        let clients = try (0..<10).map { _ in try RawClient(h) }
        for c in clients { _ = c.lines() }
        let padding = String(repeating: "x", count: 60 * 1024)
        for c in clients { c.send(#"{"type": "ping", "id": 1, "pad": "\#(padding)"}"# + "\n" + #"{"type": "ping", "id": 2, "pad": "\#(padding)"}"# + "\n") }
        h.service.runOnce(timeout: 0)
        let first = clients.map { $0.summary().count }
        #expect(first == Array(repeating: 1, count: 10), "1 MB a turn, shared: each client's first ping")
        for _ in 0..<3 { h.service.runOnce(timeout: 0) }
        #expect(clients.map { $0.summary().count } == Array(repeating: 1, count: 10))
    }

    /// One client sends 1,000 pings at once, another one ping: a turn carries out at most 128
    /// requests, shared among the clients ready, the lone ping among them; the flood's rest
    /// waits for the next turns, and every request is answered (200 pongs, then rate-limited
    /// errors), in order.
    @Test func aTurnCarriesOutABoundedNumberOfRequestsSharedAmongClients() throws {
        let h = try Harness(socket: true)
        let flood = try RawClient(h), lone = try RawClient(h)
        _ = flood.lines() + lone.lines()
        flood.send(String(repeating: #"{"type": "ping", "id": 1}"# + "\n", count: 1000))
        lone.send(#"{"type": "ping", "id": 2}"# + "\n")
        h.service.runOnce(timeout: 0)
        #expect(lone.summary() == ["pong"])
        var answers = flood.summary()
        #expect(answers.count > 0 && answers.count <= 64, "128 a turn, shared by the two")
        var turns = 1
        while answers.count < 1000 && turns < 50 {
            h.service.runOnce(timeout: 0)
            answers += flood.summary()
            turns += 1
        }
        #expect(answers == Array(repeating: "pong", count: 200) + Array(repeating: "error rate-limited 1", count: 800))
        #expect(turns >= 4)
    }

    /// A hundred clients flood at once (20 pings each, read as they are reported), and one
    /// more, the last the kernel reports, sends one ping: a turn carries out at most 128
    /// requests, and from the turn in which all are reported on, every client with requests
    /// waiting gets one each turn (128 shared by 100), the lone ping among them, until all are
    /// answered. (The kernel reports 64 descriptors a turn: the first turn serves 64 clients
    /// two each.)
    @Test func everyClientWithRequestsWaitingIsServedInEveryTurn() throws {
        let h = try Harness(socket: true)
        let flood = try (0..<100).map { _ in try RawClient(h) }
        let lone = try RawClient(h)
        for c in flood + [lone] { _ = c.lines() }
        for c in flood { c.send(String(repeating: #"{"type": "ping", "id": 1}"# + "\n", count: 20)) }
        lone.send(#"{"type": "ping", "id": 2}"# + "\n")
        var answered = Array(repeating: 0, count: 100)
        var loneAnsweredInTurn: Int?
        var turns = 0
        while answered.contains(where: { $0 < 20 }) && turns < 40 {
            h.service.runOnce(timeout: 0)
            turns += 1
            let now = flood.map { $0.summary().count }
            if loneAnsweredInTurn == nil, lone.summary() == ["pong"] { loneAnsweredInTurn = turns }
            #expect(now.reduce(0, +) <= 128, "turn \(turns): \(now.reduce(0, +)) requests")
            if turns >= 2 {
                #expect(now == answered.map { $0 < 20 ? 1 : 0 }, "turn \(turns): one each still waiting")
            }
            answered = zip(answered, now).map { $0 + $1 }
        }
        #expect(answered == Array(repeating: 20, count: 100))
        #expect(loneAnsweredInTurn != nil && loneAnsweredInTurn! <= 2)
        #expect(turns <= 21, "those reported in the second turn answered 20 turns on")
    }

    @Test func aClientsRegionsGoWhenItDisconnectsOrUnregisters() throws {
        let h = try Harness(socket: true)
        let device = try h.plug()
        do {
            let owner = try RawClient(h)
            owner.send(Self.button)
            h.service.runOnce(timeout: 0)
            #expect(h.service.clientRegionCount == 1)
        }
        h.service.runOnce(timeout: 0)
        #expect(h.service.clientRegionCount == 0)
        h.tap(device, at: 0, x: 1000, y: 500)
        h.advance(to: 1000)
        #expect(h.summary == ["tap recognized root 1"], "the button went with its client")

        let c = try RawClient(h)
        c.send(#"{"type": "register", "id": 1, "region": {"id": "panel", "frame": [50, 20, 100, 60], "gestures": [{"kind": "tap", "taps": 2}]}}"# + "\n"
            + #"{"type": "register", "id": 2, "region": {"id": "ok", "parent": "panel", "frame": [40, 20, 20, 20], "gestures": [{"kind": "tap"}]}}"# + "\n")
        h.service.runOnce(timeout: 0)
        #expect(h.service.clientRegionCount == 2)
        h.tap(device, at: 2000, x: 1000, y: 500)
        h.advance(to: 3000)
        c.send(#"{"type": "unregister", "id": 3, "region": "panel"}"# + "\n")
        h.service.runOnce(timeout: 0)
        #expect(h.service.clientRegionCount == 0, "the child goes with its parent")
        h.tap(device, at: 4000, x: 1000, y: 500)
        h.advance(to: 5000)
        #expect(h.summary == ["tap recognized root 1", "tap recognized ok of client 2 1", "tap recognized root 1"])
        #expect(c.summary() == [
            "greeting", "reply register 1", "reply register 2", "gesture tap recognized ok 2.06", "reply unregister 3",
            "gesture tap recognized root 4.36",
        ])
    }

    @Test func anUpdateMovesTheRegionAndANewDeviceGetsIt() throws {
        let h = try Harness(socket: true)
        let c = try RawClient(h)
        c.send(Self.button + #"{"type": "update", "id": 2, "region": {"id": "ok", "frame": [10, 10, 20, 20]}}"# + "\n")
        h.service.runOnce(timeout: 0)
        let device = try h.plug()  // plugged after the registration: the region is added to its layout
        h.tap(device, at: 0, x: 1000, y: 500)
        h.tap(device, at: 1000, x: 200, y: 200)
        h.advance(to: 2000)
        #expect(h.summary == ["tap recognized root 1", "tap recognized ok of client 1 1"])
    }

    @Test func aReloadKeepsTheClientsRegions() throws {
        let h = try Harness(config: "layout:\n  id: screen\n  gestures:\n    - kind: tap\n      action: {emit: true}\n", socket: true)
        let device = try h.plug()
        let c = try RawClient(h)
        c.send(Self.button)
        h.service.runOnce(timeout: 0)
        h.tap(device, at: 0, x: 1000, y: 500)
        h.service.reload()
        h.tap(device, at: 1000, x: 1000, y: 500)
        h.tap(device, at: 2000, x: 300, y: 200)
        h.advance(to: 3000)
        #expect(h.summary == ["tap recognized ok of client 1 1", "tap recognized ok of client 1 1", "tap recognized screen 1"])
        #expect(c.summary() == [
            "greeting", "reply register 1", "gesture tap recognized ok 0.06", "gesture tap recognized ok 0.06",
            "gesture tap recognized screen 1.06",
        ], "times count from each session's first event: the reload began a new one")
    }

    @Test func subscriptionsFilterTheServicesGestures() throws {
        let h = try Harness(socket: true)
        let device = try h.plug()
        let c = try RawClient(h)
        c.send(#"{"type": "subscribe", "id": 1, "filter": {"kinds": ["pan"], "states": ["began", "ended"]}}"# + "\n")
        h.service.runOnce(timeout: 0)
        h.tap(device, at: 0)
        h.advance(to: 500)
        h.frame(device, at: 1000, [(0, 500, 500)], begin: true)
        for step in 1...10 { h.frame(device, at: 1000 + Double(step) * 16, [(0, Int32(500 + step * 30), 500)]) }
        h.frame(device, at: 1200, [(0, -1, 0)])
        c.send(#"{"type": "unsubscribe", "id": 2}"# + "\n")
        h.service.runOnce(timeout: 0)
        h.tap(device, at: 2000)
        h.advance(to: 3000)
        #expect(c.summary() == [
            "greeting", "reply subscribe 1", "gesture pan began root 1.016", "gesture pan ended root 1.2", "reply unsubscribe 2",
        ], "no tap, no pan changes, nothing after unsubscribing")
    }

    /// A last request without its newline, then the client closes its side (shutdown): the
    /// request is answered all the same before the service closes.
    @Test func aLastLineWithoutANewlineBeforeAHalfCloseIsAnswered() throws {
        let h = try Harness(socket: true)
        let c = try RawClient(h)
        c.send(#"{"type": "ping", "id": 7}"#)
        shutdown(c.fd, Int32(SHUT_WR))
        h.service.runOnce(timeout: 0)
        h.service.runOnce(timeout: 0)
        #expect(Array(c.lines().dropFirst()) == [#"{"type": "pong", "id": 7}"#])
    }

    /// Every request gets one reply, past the rate limit too (an error saying so): 300 pings
    /// sent at once, 300 answers.
    @Test func everyRequestIsAnsweredPastTheRateLimitToo() throws {
        let h = try Harness(socket: true)
        let c = try RawClient(h)
        var burst = ""
        for id in 1...300 { burst += #"{"type": "ping", "id": \#(id)}"# + "\n" }
        c.send(burst)
        var answers: [String] = []
        for _ in 0..<20 {
            h.service.runOnce(timeout: 0)
            answers += c.lines()
        }
        let replies = answers.dropFirst()
        #expect(replies.count == 300)
        let ids = replies.compactMap { try? JSONValue.parse($0).objectValue?["id"]?.numberValue }
        #expect(ids == (1...300).map(Double.init))
        #expect(replies.contains { $0.contains("rate-limited") })
    }

    /// A null context value is left out, as a null is for every optional field: no app.
    @Test func aNullContextValueIsLeftOut() throws {
        let h = try Harness(socket: true)
        let c = try RawClient(h)
        c.send(#"{"type": "context", "id": 1, "context": {"app": "foot"}}"# + "\n")
        h.service.runOnce(timeout: 0)
        #expect(h.service.focusedApp == "foot")
        c.send(#"{"type": "context", "id": 2, "context": {"app": null}}"# + "\n")
        h.service.runOnce(timeout: 0)
        #expect(Array(c.lines().dropFirst()) == [
            #"{"type": "reply", "id": 1, "request": "context", "ok": true}"#, #"{"type": "reply", "id": 2, "request": "context", "ok": true}"#,
        ])
        #expect(h.service.focusedApp == nil)
    }

    /// A number id comes back exactly as sent, however large, up to the largest whole number a
    /// double holds exactly (9007199254740991); text ids too.
    @Test func idsComeBackExactlyAsSent() throws {
        let h = try Harness(socket: true)
        let c = try RawClient(h)
        c.send(#"{"type": "ping", "id": 1000000000000000}"# + "\n" + #"{"type": "ping", "id": 9007199254740991}"# + "\n"
            + #"{"type": "ping", "id": -42}"# + "\n" + #"{"type": "ping", "id": "a-1"}"# + "\n")
        h.service.runOnce(timeout: 0)
        #expect(Array(c.lines().dropFirst()) == [
            #"{"type": "pong", "id": 1000000000000000}"#, #"{"type": "pong", "id": 9007199254740991}"#,
            #"{"type": "pong", "id": -42}"#, #"{"type": "pong", "id": "a-1"}"#,
        ])
    }

    @Test(arguments: [
        ("{\"type\": \"ping\"", "malformed", nil as String?, "not JSON: byte 16: the text ends inside an object"),
        ("[1, 2]", "not-an-object", nil, "a request must be a JSON object with a type, not a list"),
        ("{\"id\": 4}", "missing-field", "type", "type is missing: it must be text"),
        ("{\"type\": \"teleport\", \"id\": 4}", "unknown-type", "type",
         "unknown request type \"teleport\" (protocol 1 knows: subscribe, unsubscribe, register, update, unregister, context, ping)"),
        ("{\"type\": \"ping\", \"id\": [1]}", "invalid-field", "id", "id must be a number or text, not a list"),
        ("{\"type\": \"register\", \"id\": 4, \"region\": {\"id\": \"a\", \"frame\": [0, 0, 1e999, 1], \"gestures\": []}}", "malformed", nil,
         "not JSON: byte 69: the number 1e999 is out of range"),
        ("{\"type\": \"register\", \"id\": 4, \"region\": {\"id\": \"a\", \"frame\": [0, 0, 5e7, 1], \"gestures\": []}}", "invalid-field",
         "region.frame[2]", "region.frame[2] is 50000000; coordinates go up to 1000000"),
        ("{\"type\": \"register\", \"id\": 4, \"region\": {\"id\": \"a\", \"frame\": [0, \"0\", 5, 1], \"gestures\": []}}", "invalid-field",
         "region.frame[1]", "region.frame[1] must be a number, not text"),
        ("{\"type\": \"register\", \"id\": 4, \"region\": {\"id\": \"a\", \"frame\": [0, 0, 5, 1]}}", "missing-field",
         "region.gestures", "region.gestures is missing: it must be a list of gestures, e.g. [{\"kind\": \"tap\"}]"),
        ("{\"type\": \"register\", \"id\": 4, \"region\": {\"id\": \"a\", \"frame\": [0, 0, 5, 1], \"gestures\": [{\"kind\": \"wave\"}]}}",
         "invalid-field", "region.gestures[0].kind",
         "region.gestures[0].kind is \"wave\", which is not one of: tap, long-press, pan, swipe, pinch, rotate, edge-pan"),
        ("{\"type\": \"register\", \"id\": 4, \"region\": {\"id\": \"a\", \"frame\": [0, 0, 5, 1], \"gestures\": [{\"kind\": \"swipe\", \"directions\": [\"sideways\"]}]}}",
         "invalid-field", "region.gestures[0].directions[0]",
         "region.gestures[0].directions[0] is \"sideways\", which is not one of: left, right, up, down, up-left, up-right, down-left, down-right"),
        ("{\"type\": \"register\", \"id\": 4, \"region\": {\"id\": \"a\", \"parent\": \"nope\", \"frame\": [0, 0, 5, 1], \"gestures\": []}}",
         "unknown-region", "region.parent", "this client has no region \"nope\" to put \"a\" in"),
        ("{\"type\": \"update\", \"id\": 4, \"region\": {\"id\": \"nope\", \"hidden\": true}}", "unknown-region", "region.id",
         "this client has no region \"nope\""),
        ("{\"type\": \"update\", \"id\": 4, \"region\": {\"id\": \"x\", \"hidden\": \"yes\"}}", "invalid-field", "region.hidden",
         "region.hidden must be true or false, not text"),
        ("{\"type\": \"context\", \"id\": 4, \"context\": {\"app\": 3}}", "invalid-field", "context.app", "context.app must be text, not a number"),
        ("{\"type\": \"subscribe\", \"id\": 4, \"filter\": {\"states\": [\"done\"]}}", "invalid-field", "filter.states[0]",
         "filter.states[0] is \"done\", which is not one of: began, changed, ended, cancelled, recognized"),
        ("{\"type\": null, \"id\": 4}", "invalid-field", "type", "type is null: it must be text"),
        ("{\"type\": \"ping\", \"id\": 12345678901234567890}", "invalid-field", "id",
         "id must be text or a whole number below 2^53 (at most 9007199254740991), not 1.2345678901234567e+19"),
        // 2^53 + 1 reads as 2^53: it could not come back as sent.
        ("{\"type\": \"ping\", \"id\": 9007199254740993}", "invalid-field", "id",
         "id must be text or a whole number below 2^53 (at most 9007199254740991), not 9007199254740992.0"),
        ("{\"type\": \"register\", \"id\": 4, \"region\": {\"id\": \"a\", \"frame\": [0, 0, -5, 1], \"gestures\": []}}", "invalid-field",
         "region.frame[2]", "region.frame[2] is -5: the width must be 0 or more"),
        ("{\"type\": \"register\", \"id\": 4, \"region\": {\"id\": \"a\", \"frame\": [0, 0, 5, -1.5], \"gestures\": []}}", "invalid-field",
         "region.frame[3]", "region.frame[3] is -1.5: the height must be 0 or more"),
    ])
    func badRequestsGetAnErrorNamingTheFieldAndTheConnectionGoesOn(_ line: String, _ code: String, _ field: String?, _ message: String) throws {
        let h = try Harness(socket: true)
        let c = try RawClient(h)
        c.send(line + "\n{\"type\": \"ping\", \"id\": 9}\n")
        h.service.runOnce(timeout: 0)
        let replies = c.lines().dropFirst().map { try! JSONValue.parse($0).objectValue! }
        #expect(replies.count == 2)
        #expect(replies.first?["code"]?.stringValue == code)
        #expect(replies.first?["field"]?.stringValue == field)
        #expect(replies.first?["message"]?.stringValue == message)
        #expect(replies.last == ["type": "pong", "id": .number(9)], "the connection goes on")
    }

    @Test func anOversizedLineIsSkippedAndTheNextOneRead() throws {
        let h = try Harness(socket: true)
        let c = try RawClient(h)
        _ = c.lines()
        let huge = "{\"type\": \"ping\", \"pad\": \"" + String(repeating: "x", count: ProtocolLimits.maximumMessageBytes + 10) + "\"}\n"
        c.send(huge)
        for _ in 0..<4 { h.service.runOnce(timeout: 0) }
        c.send("{\"type\": \"ping\", \"id\": 2}\n")
        h.service.runOnce(timeout: 0)
        #expect(c.lines() == [
            #"{"type": "error", "id": null, "code": "too-large", "message": "a request longer than 65536 bytes was skipped up to its newline"}"#,
            #"{"type": "pong", "id": 2}"#,
        ])
    }

    @Test func aFloodIsRateLimitedAndRecognitionGoesOn() throws {
        let h = try Harness(socket: true)
        let device = try h.plug()
        let c = try RawClient(h)
        _ = c.lines()
        c.send(String(repeating: "{\"type\": \"ping\"}\n", count: 300))
        var replies: [String] = []
        for _ in 0..<10 {  // the replies may fill the socket: the service sends the rest as it drains
            h.service.runOnce(timeout: 0)
            replies += c.lines()
        }
        #expect(replies.count == 300, "every request answered: 200 pongs (the burst), then 100 errors")
        #expect(replies.filter { $0.contains("pong") }.count == 200)
        #expect(replies.last == #"{"type": "error", "id": null, "code": "rate-limited", "message": "more than 100 requests a second (bursts of 200): not carried out"}"#)
        #expect(h.log.lines.contains("warning socket client rate-limited client=1 other_clients_since_last_warning=0 refused=1"))
        // Another client flooding within the same second: no second warning (one a second
        // over all clients), though it is refused as well.
        let other = try RawClient(h)
        _ = other.lines()
        other.send(String(repeating: "{\"type\": \"ping\"}\n", count: 300))
        var otherReplies: [String] = []
        for _ in 0..<10 {
            h.service.runOnce(timeout: 0)
            otherReplies += other.lines()
        }
        #expect(otherReplies.filter { $0.contains("rate-limited") }.count == 100)
        #expect(h.log.lines.filter { $0.contains("socket client rate-limited") }.count == 1)
        h.tap(device, at: 100)
        h.advance(to: 600)
        #expect(h.summary == ["tap recognized root 1"])
        // A second later the budget is back.
        h.clock.advance(to: Harness.start + .milliseconds(1600))
        c.send("{\"type\": \"ping\", \"id\": 1}\n")
        h.service.runOnce(timeout: 0)
        #expect(c.lines().last == #"{"type": "pong", "id": 1}"#)
    }

    @Test func aClientMayNotHaveMoreRegionsThanTheLimit() throws {
        let h = try Harness(socket: true)
        let c = try RawClient(h)
        _ = c.lines()
        // In two batches a few seconds apart: within the request rate.
        for batch in [0..<150, 150..<(ProtocolLimits.maximumRegions + 1)] {
            var requests = ""
            for i in batch {
                requests += #"{"type": "register", "id": \#(i), "region": {"id": "r\#(i)", "frame": [0, 0, 1, 1], "gestures": []}}"# + "\n"
            }
            c.send(requests)
            for _ in 0..<4 { h.service.runOnce(timeout: 0) }
            h.clock.advance(by: .seconds(3))
        }
        let replies = c.lines()
        #expect(replies.count == ProtocolLimits.maximumRegions + 1)
        #expect(replies.last == #"{"type": "error", "id": 256, "code": "too-many-regions", "field": "region", "message": "this client has 256 regions, as many as it may"}"#)
        #expect(h.service.clientRegionCount == ProtocolLimits.maximumRegions)
    }

    /// A configuration's region id may not start with `@`, as a client's regions do: the file's
    /// line and column name it.
    @Test func configurationRegionIdsCannotLookLikeAClients() throws {
        let error = #expect(throws: (any Error).self) {
            try Harness(config: "layout:\n  id: root\n  children:\n    - id: \"@1/ok\"\n      frame: [0, 0, 1, 1]\n")
        }
        let text = "\(error.map { "\($0)" } ?? "")"
        #expect(text.hasSuffix("gestured.yaml:4:11: region ids starting with @ are kept for the regions socket clients register: rename \"@1/ok\""))
    }
}
