import Foundation
import GestureHTTP
import SystemLoop
import TouchEvents

/// A clock only the test moves (no system timer follows it).
final class TestClock: TouchClock {
    var now = Instant(microseconds: 1_000_000)
    func monotonicInstant(at instant: Instant) -> Instant? { nil }
}

/// A browser's side of one connection, pumped together with the server's loop: nothing
/// sleeps; each step runs the loop's turns until the answer is there.
final class TestPeer {
    let fd: Int32
    let loop: SharedEventLoop
    private var received: [UInt8] = []

    init(_ address: ListenAddress, loop: SharedEventLoop) throws {
        fd = try TCPSocket.connect(to: address)
        UnixSocket.setNonBlocking(fd)
        self.loop = loop
    }

    deinit { UnixSocket.close(fd) }

    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { UnixSocket.send(fd, $0) }
            if n == 0 { loop.runOnce(timeout: 0) }
            sent += n
        }
    }

    func send(_ text: String) { send(Array(text.utf8)) }

    /// Runs the loop and reads, until `done` says the bytes so far are enough (or the
    /// connection closed); at most `turns` turns of the loop.
    @discardableResult
    func pump(turns: Int = 200, until done: ([UInt8]) -> Bool) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<turns {
            if done(received) { break }
            loop.runOnce(timeout: 5)
            var closed = false
            while true {
                let r = buffer.withUnsafeMutableBytes { UnixSocket.read(fd, into: $0) }
                if case .data(let n) = r { received += buffer[0..<n]; continue }
                if case .closed = r { closed = true }
                break
            }
            if closed { break }
        }
        return received
    }

    /// Reads a whole HTTP answer (the server closes after it).
    func response() -> (status: Int, body: String) {
        let all = pump { _ in false }
        let text = String(decoding: all, as: UTF8.self)
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, body)
    }

    /// Does the handshake; returns the status line.
    func upgrade(path: String) -> String {
        send("GET \(path) HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
             + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        let head = pump { Self.headEnd($0) != nil }
        guard let end = Self.headEnd(head) else { return String(decoding: head, as: UTF8.self) }
        received = Array(head[end...])
        let text = String(decoding: head[..<end], as: UTF8.self)
        return String(text.split(separator: "\r\n").first ?? "")
    }

    /// Just past the first blank line, in bytes (frames after it are not text).
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i + 4
        }
        return nil
    }

    /// Server frames read so far, whole: (opcode, text).
    func frames(waitingFor count: Int, turns: Int = 400) -> [(opcode: UInt8, text: String)] {
        var out: [(UInt8, String)] = []
        pump(turns: turns) { bytes in
            out = Self.decode(bytes)
            return out.count >= count
        }
        return out
    }

    /// Frames until one satisfies `last`.
    func frames(until last: (String) -> Bool, turns: Int = 2000) -> [(opcode: UInt8, text: String)] {
        var out: [(UInt8, String)] = []
        pump(turns: turns) { bytes in
            out = Self.decode(bytes)
            return out.contains { last($0.1) }
        }
        return out
    }

    static func decode(_ bytes: [UInt8]) -> [(UInt8, String)] {
        var out: [(UInt8, String)] = []
        var i = 0
        while i + 2 <= bytes.count {
            var n = Int(bytes[i + 1] & 0x7F)
            var h = 2
            if n == 126 {
                guard i + 4 <= bytes.count else { break }
                n = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]); h = 4
            } else if n == 127 {
                guard i + 10 <= bytes.count else { break }
                n = 0
                for k in 0..<8 { n = n << 8 | Int(bytes[i + 2 + k]) }
                h = 10
            }
            guard i + h + n <= bytes.count else { break }
            let payload = Array(bytes[(i + h)..<(i + h + n)])
            let opcode = bytes[i] & 0x0F
            out.append((opcode, opcode == 8 && payload.count >= 2
                        ? "\(Int(payload[0]) << 8 | Int(payload[1])) " + String(decoding: payload.dropFirst(2), as: UTF8.self)
                        : String(decoding: payload, as: UTF8.self)))
            i += h + n
        }
        return out
    }
}
