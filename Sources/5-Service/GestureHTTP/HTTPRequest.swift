/// One HTTP/1.x request's head, as the view and the metrics need it: a method, a path, its
/// query, and headers (names in lower case). Bodies are not read: every route is a `GET`.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    /// The target's path, without its query (`/ws`).
    public var path: String
    /// The query's parameters, percent-decoded (`token` → `3f9a…`).
    public var query: [String: String]
    /// By lower-case name; a repeated header's values are joined with ", ".
    public var headers: [String: String]

    /// The most a request's head may be: a browser's is well under 2 KiB.
    public static let maximumHeadBytes = 8 * 1024

    /// Why a head cannot be taken, as the status to answer with.
    public enum ParseError: Error, Sendable, Equatable {
        /// Malformed: 400.
        case badRequest(String)
        /// Longer than ``maximumHeadBytes``: 431.
        case headTooLarge
    }

    /// What the bytes read so far hold.
    public enum ParseResult: Sendable, Equatable {
        /// The head is not complete yet.
        case incomplete
        /// A head, and how many bytes of the input it took.
        case complete(HTTPRequest, consumed: Int)
    }

    /// Looks for a complete head at the start of `bytes` (lines end with CRLF or LF).
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> ParseResult {
        guard let end = headEnd(bytes) else {
            if bytes.count > maximumHeadBytes { throw .headTooLarge }
            return .incomplete
        }
        guard end <= maximumHeadBytes else { throw .headTooLarge }
        let lines = bytes[..<end].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { line -> String in
            var l = line
            if l.last == UInt8(ascii: "\r") { l = l.dropLast() }
            return String(decoding: l, as: UTF8.self)
        }
        let requestLine = lines.first ?? ""
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[1].hasPrefix("/"), parts[2].hasPrefix("HTTP/1.") else {
            throw .badRequest("the request line is not METHOD /PATH HTTP/1.x")
        }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw .badRequest("a header line has no name: \(line.prefix(40))")
            }
            let name = line[..<colon].lowercased()
            guard !name.contains(" ") && !name.contains("\t") else { throw .badRequest("a header name has a space") }
            let value = line[line.index(after: colon)...].trimmingSpaces()
            if let old = headers[name] { headers[name] = old + ", " + value } else { headers[name] = value }
        }
        let target = parts[1]
        var path = String(target)
        var query: [String: String] = [:]
        if let q = target.firstIndex(of: "?") {
            path = String(target[..<q])
            for pair in target[target.index(after: q)...].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[percentDecoded(kv[0])] = kv.count > 1 ? percentDecoded(kv[1]) : ""
            }
        }
        return .complete(HTTPRequest(method: String(parts[0]), path: path, query: query, headers: headers), consumed: end)
    }

    /// The index just past the blank line that ends the head, if there is one.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\n") {
                if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\n") { return i + 2 }
                if i + 2 < bytes.count && bytes[i + 1] == UInt8(ascii: "\r") && bytes[i + 2] == UInt8(ascii: "\n") { return i + 3 }
            }
            i += 1
        }
        return nil
    }

    static func percentDecoded(_ s: Substring) -> String {
        var out: [UInt8] = []
        var bytes = Array(s.utf8)[...]
        while let b = bytes.popFirst() {
            if b == UInt8(ascii: "+") {
                out.append(UInt8(ascii: " "))
            } else if b == UInt8(ascii: "%"), bytes.count >= 2,
                      let v = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16) {
                out.append(v)
                bytes = bytes.dropFirst(2)
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether this asks to become a WebSocket (RFC 6455 §4.2.1), and its key if so.
    public var webSocketKey: String? {
        guard method == "GET", headers["upgrade"]?.lowercased() == "websocket",
              headers["connection"]?.lowercased().contains("upgrade") == true,
              headers["sec-websocket-version"] == "13",
              let key = headers["sec-websocket-key"], !key.isEmpty else { return nil }
        return key
    }
}

extension Substring {
    func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}

/// A response to send: a status, headers, a body; the connection closes after it.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, contentType: String = "text/plain; charset=utf-8", body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
    }

    /// A plain-text answer (an error's reason, with its newline).
    public static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, body: Array((text + "\n").utf8))
    }

    public static func == (a: HTTPResponse, b: HTTPResponse) -> Bool {
        a.status == b.status && a.body == b.body && a.headers.map { $0.0 + ":" + $0.1 } == b.headers.map { $0.0 + ":" + $0.1 }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 431: return "Request Header Fields Too Large"
        case 503: return "Service Unavailable"
        default: return "Status"
        }
    }

    /// The bytes on the wire (HTTP/1.1, `Connection: close`, `Cache-Control: no-store`).
    public var bytes: [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reason(status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }
}
