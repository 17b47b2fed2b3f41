import Foundation
import GestureProtocol
@testable import GestureHTTP
import GestureReplay
import GestureRuntime
@testable import GestureView
import Logging
import SystemLoop
import Testing
import TouchEvents

let repositoryRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
let loopback = ListenAddress(host: "127.0.0.1", port: 0)

@Suite("live view")
struct LiveViewTests {
    /// The page and its feed ask for the token; the script and style carry no data.
    @Test func aWrongOrMissingTokenIsRefused() throws {
        let clock = TestClock()
        let loop = try SharedEventLoop(clock: clock)
        let view = try LiveView(options: .init(address: loopback, token: "s3cret"), loop: loop, clock: clock, logger: quiet,
                                source: "live", title: "test")
        func get(_ path: String) throws -> (status: Int, body: String) {
            let peer = try TestPeer(view.address, loop: loop)
            peer.send("GET \(path) HTTP/1.1\r\nHost: test\r\n\r\n")
            return peer.response()
        }
        #expect(try get("/") == (403, "wrong or missing token: open the address gestured printed when it started (http://HOST:PORT/?token=…)\n"))
        #expect(try get("/?token=s3cre").status == 403)
        #expect(try get("/?token=s3cretX").status == 403)
        let page = try get("/?token=s3cret")
        #expect(page.status == 200)
        #expect(page.body.contains("<script src=\"view.js\" defer></script>"))
        #expect(try get("/view.js").status == 200)
        #expect(try get("/nowhere?token=s3cret").status == 404)
        // The feed too: no upgrade without the token.
        let peer = try TestPeer(view.address, loop: loop)
        #expect(peer.upgrade(path: "/ws?token=wrong") == "HTTP/1.1 403 Forbidden")
        #expect(view.url == "http://\(view.address)/?token=s3cret")
    }

    @Test func aNonLoopbackAddressIsRefusedUnlessAllowed() throws {
        let clock = TestClock()
        let loop = try SharedEventLoop(clock: clock)
        let anywhere = ListenAddress(host: "0.0.0.0", port: 0)
        var refusal: LiveView.SetupError?
        do throws(LiveView.SetupError) {
            _ = try LiveView(options: .init(address: anywhere), loop: loop, clock: clock, logger: quiet, source: "live", title: "t")
        } catch {
            refusal = error
        }
        guard case .remoteNotAllowed(let a) = refusal else {
            Issue.record("a non-loopback address was served")
            return
        }
        #expect(a == anywhere)
        #expect("\(refusal!)".hasPrefix("0.0.0.0:0: the view shows raw touch positions"))
        #expect("\(refusal!)".contains("add --view-allow-remote"))
        let view = try LiveView(options: .init(address: anywhere, allowRemote: true), loop: loop, clock: clock, logger: quiet,
                                source: "live", title: "t")
        #expect(view.address.port != 0)
        // A random token each start: 128 bits in hex.
        #expect(view.token.count == 32)
        #expect(view.token.allSatisfy { $0.isHexDigit })
    }

    /// One viewer at a time: the second is told why and let go; the first goes on.
    @Test func aSecondViewerIsToldAnotherIsWatchingAndLetGo() throws {
        let clock = TestClock()
        let loop = try SharedEventLoop(clock: clock)
        let view = try LiveView(options: .init(address: loopback, token: "t"), loop: loop, clock: clock, logger: quiet,
                                source: "live", title: "kiosk")
        var commands: [String] = []
        view.onCommand = { commands.append($0) }
        let first = try TestPeer(view.address, loop: loop)
        #expect(first.upgrade(path: "/ws?token=t") == "HTTP/1.1 101 Switching Protocols")
        #expect(first.frames(waitingFor: 1).map(\.text) == [#"{"type": "hello", "version": 1, "source": "live", "title": "kiosk", "paused": false}"#])
        #expect(view.isWatched)
        let second = try TestPeer(view.address, loop: loop)
        #expect(second.upgrade(path: "/ws?token=t") == "HTTP/1.1 101 Switching Protocols")
        let told = second.frames(waitingFor: 2)
        #expect(told.map(\.opcode) == [1, 8])
        #expect(told.map(\.text) == [#"{"type": "refused", "reason": "another viewer is connected: the view serves one at a time"}"#,
                                     "1008 another viewer is connected"])
        // The first still commands.
        first.send(HTTPParsingTests.masked("pause", mask: [5, 6, 7, 8]))
        first.send(HTTPParsingTests.masked("jump", mask: [5, 6, 7, 8]))
        let errors = first.frames(waitingFor: 2)
        #expect(commands == ["pause"])
        #expect(errors.last?.text == #"{"type": "error", "reason": "unknown command: jump (play, pause, step, restart)"}"#)
        // It leaves; the next one is welcome.
        first.send(HTTPParsingTests.masked("", opcode: 0x8, mask: [1, 1, 1, 1]))
        first.pump { _ in false }
        #expect(!view.isWatched)
        let third = try TestPeer(view.address, loop: loop)
        _ = third.upgrade(path: "/ws?token=t")
        #expect(third.frames(waitingFor: 1).first?.text.contains("\"hello\"") == true)
    }

    /// `gestured view RECORDING`: the viewer sees the device's layout, then the recording's
    /// frames and, in replay's order, every gesture event replay prints.
    @Test func aRecordingPlaysToTheViewerAsReplayHasIt() throws {
        let path = repositoryRoot + "/fixtures/synthetic/pinch-rotate.yaml"
        let replay = try RecordingReplay.run(path: path)
        #expect(!replay.gestures.isEmpty)
        let expected = replay.gestures.map { GestureEvent($0, origin: replay.device.firstEventTime).jsonLine() }
        let clock = TestClock()
        let loop = try SharedEventLoop(clock: clock)
        let view = try LiveView(options: .init(address: loopback, token: "t"), loop: loop, clock: clock, logger: quiet,
                                source: "recording", title: "pinch")
        let player = try RecordingPlayer(source: .init(path: path), view: view, loop: loop, clock: clock, speed: 1)
        let peer = try TestPeer(view.address, loop: loop)
        _ = peer.upgrade(path: "/ws?token=t")
        var messages: [String] = []
        for _ in 0..<2000 where !player.hasEnded {
            clock.now += .milliseconds(20)
            messages = peer.frames(waitingFor: messages.count + 1, turns: 3).map(\.text)
        }
        messages = peer.frames(until: { $0.contains("\"ended\": true") }).map(\.text)
        #expect(player.hasEnded)
        #expect(messages.first?.contains("\"type\": \"hello\"") == true)
        #expect(messages.dropFirst().first?.hasPrefix("{\"type\": \"device\", \"device\": \"") == true)
        let prefix = "\"type\": \"gesture\", \"source_device\": "
        let gestures = messages.filter { $0.hasPrefix("{" + prefix) }.map { line -> String in
            let rest = line.dropFirst(1 + prefix.count)
            let afterKey = rest[rest.index(after: rest.firstIndex(of: ",")!)...].dropFirst()
            return "{" + afterKey + "\n"
        }
        #expect(gestures == expected)
        let frames = messages.filter { $0.hasPrefix("{\"type\": \"frame\"") }
        #expect(frames.count == player.frameCount)
        #expect(messages.last == #"{"type": "state", "paused": true, "frame": \#(player.frameCount), "frames": \#(player.frameCount), "ended": true}"#)
        // The counter keeps up: a state after each turn of the loop that played frames.
        let states = messages.filter { $0.hasPrefix("{\"type\": \"state\"") }
        #expect(states.count == 33)  // 62 frames 10 ms apart, the clock stepping 20 ms

        // A viewer connecting late gets the gestures so far, where the contacts are, the
        // latest touches' failures and the play state.
        peer.send(HTTPParsingTests.masked("", opcode: 0x8, mask: [1, 1, 1, 1]))
        peer.pump { _ in false }
        let late = try TestPeer(view.address, loop: loop)
        _ = late.upgrade(path: "/ws?token=t")
        let caughtUp = late.frames(until: { $0.contains("\"type\": \"state\"") }).map(\.text)
        #expect(caughtUp.filter { $0.hasPrefix("{" + prefix) }.count == expected.count)
        #expect(caughtUp.filter { $0.hasPrefix("{\"type\": \"frame\"") } == [frames.last])
        // The failures since touches last landed with none down, as the first viewer got them:
        // those of the landing frame itself too (the pipeline reports them before the frame).
        func time(_ m: String) -> Double {
            let o = try? JSONSerialization.jsonObject(with: Data(m.utf8)) as? [String: Any]
            return (o?["time"] as? NSNumber)?.doubleValue ?? -1
        }
        var latest: [String] = []
        var down = false
        for m in messages {
            if m.hasPrefix("{\"type\": \"frame\"") {
                if !down && m.contains("\"phase\": \"began\"") { latest.removeAll { time($0) < time(m) } }
                down = m.contains("\"phase\": \"began\"") || m.contains("\"phase\": \"moved\"") || m.contains("\"phase\": \"stationary\"")
            } else if m.hasPrefix("{\"type\": \"failure\"") {
                latest.append(m)
            }
        }
        #expect(latest.contains { time($0) == 0 })  // the landing frame's: 2 touches > 1 required
        #expect(caughtUp.filter { $0.hasPrefix("{\"type\": \"failure\"") } == latest)
        #expect(caughtUp.last == messages.last)
    }

    /// Paused, a step plays one frame.
    @Test func pausedTheViewerStepsAFrameAtATime() throws {
        let path = repositoryRoot + "/fixtures/synthetic/pinch-rotate.yaml"
        let clock = TestClock()
        let loop = try SharedEventLoop(clock: clock)
        let view = try LiveView(options: .init(address: loopback, token: "t"), loop: loop, clock: clock, logger: quiet,
                                source: "recording", title: "pinch")
        let player = try RecordingPlayer(source: .init(path: path), view: view, loop: loop, clock: clock, paused: true)
        let peer = try TestPeer(view.address, loop: loop)
        _ = peer.upgrade(path: "/ws?token=t")
        let greeting = peer.frames(waitingFor: 3).map(\.text)
        #expect(greeting.last == #"{"type": "state", "paused": true, "frame": 0, "frames": \#(player.frameCount), "ended": false}"#)
        clock.now += .seconds(10)
        loop.runOnce(timeout: 0)
        #expect(player.framesPlayed == 0)
        peer.send(HTTPParsingTests.masked("step", mask: [1, 2, 3, 4]))
        let after = Array(peer.frames(until: { $0.contains("\"frame\": 1,") }).map(\.text).dropFirst(greeting.count))
        // The first frame: two fingers land; what cannot be a one-finger gesture fails, as
        // `replay --explain` says it, then the frame, then where the play is.
        #expect(after.filter { $0.hasPrefix("{\"type\": \"frame\"") }.count == 1)
        #expect(after.contains { $0.contains(#""text": "tap(1 tap, 1 touch)@root failed: 2 touches > 1 required""#) })
        #expect(after.dropLast().last?.hasPrefix(#"{"type": "frame", "device": "/dev/input/event9", "time": 0, "contacts": [{"id": "#) == true)
        #expect(after.last == #"{"type": "state", "paused": true, "frame": 1, "frames": \#(player.frameCount), "ended": false}"#)
        #expect(player.framesPlayed == 1)
    }
}

@Suite("web server limits")
struct WebServerLimitTests {
    /// A peer that never finishes its request is answered 408 once the head timeout passes.
    @Test func aRequestThatNeverEndsIsTimedOut() throws {
        let clock = TestClock()
        let loop = try SharedEventLoop(clock: clock)
        let server = try WebServer(address: loopback, loop: loop, clock: clock, logger: quiet) { _ in .respond(.text(200, "ok")) }
        let peer = try TestPeer(server.address, loop: loop)
        peer.send("GET / HTTP/1.1\r\nHost: x\r\n")
        peer.pump(turns: 3) { _ in false }
        #expect(server.connectionCount == 1)
        clock.now += server.limits.headTimeout
        #expect(peer.response() == (408, "the request took too long\n"))
        #expect(server.connectionCount == 0)
    }

    @Test func aHugeHeadAndAWrongMethodAreAnswered() throws {
        let clock = TestClock()
        let loop = try SharedEventLoop(clock: clock)
        let server = try WebServer(address: loopback, loop: loop, clock: clock, logger: quiet) { _ in .respond(.text(200, "ok")) }
        let huge = try TestPeer(server.address, loop: loop)
        huge.send("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 10_000) + "\r\n\r\n")
        #expect(huge.response().status == 431)
        let post = try TestPeer(server.address, loop: loop)
        post.send("POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n")
        #expect(post.response() == (405, "only GET is served\n"))
        let junk = try TestPeer(server.address, loop: loop)
        junk.send("\u{1}\u{2}\r\n\r\n")
        #expect(junk.response().status == 400)
    }

    /// Past the connection limit, one more is answered 503 at once.
    @Test func oneConnectionTooManyIsAnswered503() throws {
        let clock = TestClock()
        let loop = try SharedEventLoop(clock: clock)
        var limits = WebServer.Limits()
        limits.connections = 2
        let server = try WebServer(address: loopback, loop: loop, clock: clock, logger: quiet, limits: limits) { _ in .respond(.text(200, "ok")) }
        let a = try TestPeer(server.address, loop: loop), b = try TestPeer(server.address, loop: loop)
        a.pump(turns: 3) { _ in false }
        b.pump(turns: 3) { _ in false }
        let c = try TestPeer(server.address, loop: loop)
        #expect(c.response() == (503, "too many connections (at most 2)\n"))
        #expect(server.connectionCount == 2)
    }

    /// A viewer that stops reading is let go once its backlog passes the limit; the server goes on.
    @Test func aPeerThatStopsReadingIsLetGo() throws {
        let clock = TestClock()
        let loop = try SharedEventLoop(clock: clock)
        var limits = WebServer.Limits()
        limits.backlogBytes = 64 * 1024
        var peers: [WebSocketPeer] = []
        var closed = 0
        let server = try WebServer(address: loopback, loop: loop, clock: clock, logger: quiet, limits: limits) { _ in
            .upgrade { peer in
                peer.onClose = { closed += 1 }
                peers.append(peer)
            }
        }
        let reader = try TestPeer(server.address, loop: loop)
        _ = reader.upgrade(path: "/ws")
        let line = String(repeating: "x", count: 60_000)
        for _ in 0..<400 where closed == 0 {
            peers.first?.send(text: line)
            loop.runOnce(timeout: 0)
        }
        #expect(closed == 1)
        #expect(server.connectionCount == 0)
        let next = try TestPeer(server.address, loop: loop)
        #expect(next.upgrade(path: "/ws") == "HTTP/1.1 101 Switching Protocols")
    }
}
