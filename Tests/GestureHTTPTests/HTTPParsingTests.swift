@testable import GestureHTTP
import SystemLoop
import Testing

@Suite("HTTP and WebSocket parsing")
struct HTTPParsingTests {
    /// RFC 6455 §1.3's own example, and FIPS 180's "abc".
    @Test func theHandshakeAnswersTheRFCsExample() {
        #expect(WebSocketFrame.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let abc = SHA1.digest(Array("abc".utf8)).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
        #expect(abc == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(Base64.encode(Array("f".utf8)) == "Zg==")
        #expect(Base64.encode(Array("fo".utf8)) == "Zm8=")
        #expect(Base64.encode(Array("foo".utf8)) == "Zm9v")
    }

    @Test func aRequestHeadIsReadWithItsQueryAndHeaders() throws {
        let text = "GET /ws?token=ab%20c&x HTTP/1.1\r\nHost: 127.0.0.1:8\r\nUpgrade: websocket\r\nConnection: keep-alive, Upgrade\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: k==\r\nX-Twice: 1\r\nx-twice: 2\r\n\r\nextra"
        guard case .complete(let r, let consumed) = try HTTPRequest.parse(Array(text.utf8)) else {
            Issue.record("not complete")
            return
        }
        #expect(consumed == text.utf8.count - "extra".utf8.count)
        #expect(r.method == "GET")
        #expect(r.path == "/ws")
        #expect(r.query == ["token": "ab c", "x": ""])
        #expect(r.headers["x-twice"] == "1, 2")
        #expect(r.webSocketKey == "k==")
    }

    @Test func aPartHeadWaitsAndBadOnesAreRefused() throws {
        #expect(try HTTPRequest.parse(Array("GET / HTTP/1.1\r\nHost: x\r\n".utf8)) == .incomplete)
        #expect(throws: HTTPRequest.ParseError.badRequest("the request line is not METHOD /PATH HTTP/1.x")) {
            try HTTPRequest.parse(Array("GET http://x/ HTTP/1.1\r\n\r\n".utf8))
        }
        #expect(throws: HTTPRequest.ParseError.badRequest("a header line has no name: : x")) {
            try HTTPRequest.parse(Array("GET / HTTP/1.1\r\n: x\r\n\r\n".utf8))
        }
        #expect(throws: HTTPRequest.ParseError.headTooLarge) {
            try HTTPRequest.parse(Array(("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 9000)).utf8))
        }
        // A plain GET is not a WebSocket.
        guard case .complete(let r, _) = try HTTPRequest.parse(Array("GET / HTTP/1.1\r\n\r\n".utf8)) else { return }
        #expect(r.webSocketKey == nil)
    }

    /// A browser's frame is masked; lengths take 7, 16 or 64 bits.
    @Test func framesAreWrittenAndReadWithEveryLengthForm() throws {
        for n in [0, 125, 126, 65535, 65536] {
            var out: [UInt8] = []
            WebSocketFrame.encode(.text, [UInt8](repeating: 7, count: n), into: &out)
            let header = n < 126 ? 2 : n <= 65535 ? 4 : 10
            #expect(out.count == header + n)
            #expect(out[0] == 0x81)
        }
        let masked = Self.masked("play", mask: [1, 2, 3, 4])
        let (message, consumed) = try #require(try WebSocketFrame.read(masked[...], maximumPayload: 4096))
        #expect(message == WebSocketFrame.Message(opcode: .text, fin: true, payload: Array("play".utf8)))
        #expect(consumed == masked.count)
        #expect(try WebSocketFrame.read(masked.dropLast()[...], maximumPayload: 4096) == nil)
    }

    @Test func badFramesAreRefusedWithTheirCloseCode() {
        var unmasked: [UInt8] = []
        WebSocketFrame.encode(.text, Array("x".utf8), into: &unmasked)
        #expect(throws: WebSocketFrame.ReadError.protocolError("a client's frame must be masked")) {
            try WebSocketFrame.read(unmasked[...], maximumPayload: 10)
        }
        let big = Self.masked(String(repeating: "a", count: 200), mask: [9, 9, 9, 9])
        #expect(throws: WebSocketFrame.ReadError.tooBig(200)) { try WebSocketFrame.read(big[...], maximumPayload: 100) }
        #expect(WebSocketFrame.ReadError.tooBig(200).closeCode == 1009)
        #expect(throws: WebSocketFrame.ReadError.protocolError("unknown opcode 3")) {
            try WebSocketFrame.read([0x83, 0x80, 0, 0, 0, 0][...], maximumPayload: 10)
        }
        #expect(throws: WebSocketFrame.ReadError.protocolError("a control frame is fragmented or longer than 125 bytes")) {
            try WebSocketFrame.read([0x09, 0x80, 0, 0, 0, 0][...], maximumPayload: 10)
        }
    }

    @Test func listenAddressesAreNumericAndLoopbackIsKnown() throws {
        #expect(try ListenAddress.parse("8080").get() == ListenAddress(host: "127.0.0.1", port: 8080))
        #expect(try ListenAddress.parse("localhost:0").get().isLoopback)
        #expect(try ListenAddress.parse("[::1]:9").get().isLoopback)
        #expect(try ListenAddress.parse("[::1]:9").get().description == "[::1]:9")
        #expect(try !ListenAddress.parse("0.0.0.0:9100").get().isLoopback)
        #expect(try !ListenAddress.parse("192.168.1.5:9100").get().isLoopback)
        #expect(throws: ListenAddress.ParseError.self) { try ListenAddress.parse("kiosk.local:80").get() }
        #expect(throws: ListenAddress.ParseError.self) { try ListenAddress.parse("127.0.0.1:70000").get() }
        #expect(throws: ListenAddress.ParseError.self) { try ListenAddress.parse("[::1]9").get() }
        if case .failure(let e) = ListenAddress.parse("kiosk.local:80") {
            #expect(e.description == "kiosk.local:80: \"kiosk.local\" is not a numeric IPv4 or IPv6 address (host names are not looked up)")
        }
    }

    /// A client's frame: FIN, masked with `mask`.
    static func masked(_ text: String, opcode: UInt8 = 0x1, mask: [UInt8]) -> [UInt8] {
        let payload = Array(text.utf8)
        var out: [UInt8] = [0x80 | opcode]
        if payload.count < 126 {
            out.append(0x80 | UInt8(payload.count))
        } else {
            out += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        }
        out += mask
        for (i, b) in payload.enumerated() { out.append(b ^ mask[i % 4]) }
        return out
    }
}
