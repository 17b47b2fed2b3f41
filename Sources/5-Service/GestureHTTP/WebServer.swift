import Logging
import SystemLoop
import TouchEvents

/// A small HTTP/1.1 and WebSocket server on the program's loop (``SharedEventLoop``): the live
/// view's page and feed, and the metrics. No thread of its own, no timer while nobody is half
/// way through sending a request: an idle server costs no wakeup.
///
/// Every answer closes its connection (`Connection: close`), except a WebSocket's. What a peer
/// can do to the service is bounded: ``Limits`` caps connections, a request's head, the time to
/// send it, a message's size and what may wait to be written to a peer that stops reading.
public final class WebServer {
    public struct Limits: Sendable {
        /// Connections open at once; one more is answered 503 and closed.
        public var connections = 16
        /// From accepting a connection to having its request's head (slow-sending peers).
        public var headTimeout = Duration.seconds(10)
        /// Bytes waiting to be written to one WebSocket before its peer is let go (it stopped
        /// reading): a few seconds of a busy view.
        public var backlogBytes = 4 * 1024 * 1024
        /// The longest message a WebSocket peer may send (the view's commands are a few bytes).
        public var messageBytes = 4 * 1024

        public init() {}
    }

    /// How to answer a request.
    public enum Route {
        case respond(HTTPResponse)
        /// Become a WebSocket: the handshake is answered, then the closure gets the peer.
        case upgrade((WebSocketPeer) -> Void)
    }

    /// Where it listens (with the port the kernel chose, when 0 was asked for).
    public let address: ListenAddress
    public let limits: Limits
    private let listener: Int32
    private let loop: SharedEventLoop
    private let clock: any TouchClock
    private let logger: Logger
    private let route: (HTTPRequest) -> Route
    private var connections: [Int32: Connection] = [:]
    private var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    /// Connections with output queued in this turn, written at its end.
    private var awaitingFlush: [Connection] = []
    private var closed = false

    /// Listens at `address` on `loop`; `route` answers each request.
    public init(address: ListenAddress, loop: SharedEventLoop, clock: any TouchClock, logger: Logger, limits: Limits = Limits(),
                route: @escaping (HTTPRequest) -> Route) throws(SystemError) {
        let (fd, port) = try TCPSocket.listen(at: address)
        self.address = ListenAddress(host: address.host, port: port)
        self.listener = fd
        self.loop = loop
        self.clock = clock
        self.logger = logger
        self.limits = limits
        self.route = route
        let owner = ObjectIdentifier(self)
        loop.watch(fd) { [unowned self] _ in acceptAll() }
        loop.addTimer(owner: owner, next: { [unowned self] in nextHeadDeadline() },
                      fire: { [unowned self] now in closeSlowHeads(now: now) })
        loop.endOfTurn(owner: owner) { [unowned self] in flushQueued() }
    }

    deinit { close() }

    /// Connections open now (WebSockets among them).
    public var connectionCount: Int { connections.count }

    /// Stops listening and closes every connection (WebSocket peers get a close frame).
    public func close() {
        guard !closed else { return }
        closed = true
        for c in Array(connections.values) {
            if case .webSocket(let peer) = c.state {
                c.output += WebSocketFrame.close(code: 1001, reason: "the service is stopping")
                _ = write(c)
                drop(c, peer: peer)
            } else {
                drop(c, peer: nil)
            }
        }
        loop.unwatch(listener)
        UnixSocket.close(listener)
        loop.removeWork(of: ObjectIdentifier(self))
    }

    // MARK: - Connections

    final class Connection {
        enum State {
            case head(deadline: Instant)
            /// Answered; closes once written.
            case answered
            case webSocket(WebSocketPeer)
        }

        let fd: Int32
        var state: State
        var input: [UInt8] = []
        var output: [UInt8] = []
        /// A fragmented message's parts so far.
        var fragments: [UInt8] = []
        var fragmentOpcode: WebSocketFrame.Opcode?
        var queued = false
        var waitsWritable = false

        init(fd: Int32, state: State) {
            self.fd = fd
            self.state = state
        }
    }

    private func acceptAll() {
        while case .accepted(let fd) = UnixSocket.acceptOne(listener) {
            let c = Connection(fd: fd, state: .head(deadline: clock.now + limits.headTimeout))
            guard connections.count < limits.connections else {
                // Told why, best effort, and let go.
                let answer = HTTPResponse.text(503, "too many connections (at most \(limits.connections))").bytes
                _ = answer.withUnsafeBytes { UnixSocket.send(fd, $0) }
                UnixSocket.close(fd)
                logger.warning("web connection refused: too many open", metadata: ["address": "\(address)", "limit": "\(limits.connections)"])
                continue
            }
            connections[fd] = c
            loop.watch(fd) { [unowned self] event in handle(event, fd: fd) }
        }
    }

    private func handle(_ event: EventLoop.Event, fd: Int32) {
        guard let c = connections[fd] else { return }
        switch event {
        case .readable:
            readFrom(c)
        case .writable:
            if write(c) { finishWrite(c) }
        case .hangup:
            drop(c, peer: peer(of: c))
        default:
            break
        }
    }

    private func peer(of c: Connection) -> WebSocketPeer? {
        if case .webSocket(let p) = c.state { return p }
        return nil
    }

    private func readFrom(_ c: Connection) {
        // Bounded per wakeup; a peer that sends more is read in the next turn.
        var budget = 4 * readBuffer.count
        while budget > 0 {
            let result = readBuffer.withUnsafeMutableBytes { UnixSocket.read(c.fd, into: $0) }
            switch result {
            case .data(let n):
                budget -= n
                if case .answered = c.state { continue }  // an answered request's extra bytes: ignored
                c.input.append(contentsOf: readBuffer[0..<n])
                guard process(c) else { return }
            case .wouldBlock:
                return
            case .closed:
                drop(c, peer: peer(of: c))
                return
            }
        }
    }

    /// Handles what `c` sent; false when `c` is gone.
    private func process(_ c: Connection) -> Bool {
        switch c.state {
        case .head:
            let parsed: HTTPRequest.ParseResult
            do throws(HTTPRequest.ParseError) {
                parsed = try HTTPRequest.parse(c.input)
            } catch {
                switch error {
                case .headTooLarge: answer(c, .text(431, "the request's head is longer than \(HTTPRequest.maximumHeadBytes) bytes"))
                case .badRequest(let why): answer(c, .text(400, why))
                }
                return true
            }
            guard case .complete(let request, let consumed) = parsed else { return true }
            c.input.removeFirst(consumed)
            guard request.method == "GET" else {
                answer(c, HTTPResponse(status: 405, body: Array("only GET is served\n".utf8), headers: [("Allow", "GET")]))
                return true
            }
            switch route(request) {
            case .respond(let response):
                answer(c, response)
                return true
            case .upgrade(let start):
                guard let key = request.webSocketKey else {
                    answer(c, .text(400, "this address is a WebSocket: connect with a WebSocket (Upgrade: websocket, version 13)"))
                    return true
                }
                let head = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Accept: \(WebSocketFrame.acceptValue(for: key))\r\n\r\n"
                let peer = WebSocketPeer(server: self, connection: c)
                c.state = .webSocket(peer)
                queue(c, Array(head.utf8))
                start(peer)
                guard connections[c.fd] === c else { return false }
                return readFrames(c, peer)
            }
        case .answered:
            c.input.removeAll()
            return true
        case .webSocket(let peer):
            return readFrames(c, peer)
        }
    }

    private func readFrames(_ c: Connection, _ peer: WebSocketPeer) -> Bool {
        var offset = 0
        defer { if connections[c.fd] === c, offset > 0 { c.input.removeFirst(min(offset, c.input.count)) } }
        while true {
            let frame: (WebSocketFrame.Message, consumed: Int)?
            do throws(WebSocketFrame.ReadError) {
                frame = try WebSocketFrame.read(c.input[offset...], maximumPayload: limits.messageBytes)
            } catch {
                peer.close(code: error.closeCode, reason: "\(error)")
                return false
            }
            guard let (message, consumed) = frame else { return true }
            offset += consumed
            switch message.opcode {
            case .ping:
                var pong: [UInt8] = []
                WebSocketFrame.encode(.pong, message.payload, into: &pong)
                queue(c, pong)
            case .pong:
                break
            case .close:
                peer.close(code: 1000, reason: "")
                return false
            case .text, .binary, .continuation:
                if message.opcode != .continuation { c.fragmentOpcode = message.opcode; c.fragments = [] }
                guard c.fragmentOpcode != nil else {
                    peer.close(code: 1002, reason: "a continuation with nothing to continue")
                    return false
                }
                c.fragments += message.payload
                guard c.fragments.count <= limits.messageBytes else {
                    peer.close(code: 1009, reason: "a message is at most \(limits.messageBytes) bytes")
                    return false
                }
                if message.fin {
                    let text = String(decoding: c.fragments, as: UTF8.self)
                    c.fragments = []
                    c.fragmentOpcode = nil
                    peer.onText?(text)
                    guard connections[c.fd] === c, peer.isOpen else { return false }
                }
            }
        }
    }

    private func answer(_ c: Connection, _ response: HTTPResponse) {
        c.state = .answered
        c.input = []
        queue(c, response.bytes)
    }

    func queue(_ c: Connection, _ bytes: [UInt8]) {
        c.output += bytes
        if c.output.count > limits.backlogBytes, let peer = peer(of: c) {
            logger.warning("web viewer let go: it stopped reading", metadata: ["address": "\(address)", "backlog_bytes": "\(c.output.count)"])
            drop(c, peer: peer)
            return
        }
        if !c.queued {
            c.queued = true
            awaitingFlush.append(c)
        }
    }

    private func flushQueued() {
        guard !awaitingFlush.isEmpty else { return }
        let list = awaitingFlush
        awaitingFlush.removeAll(keepingCapacity: true)
        for c in list {
            c.queued = false
            guard connections[c.fd] === c else { continue }
            if write(c) { finishWrite(c) }
        }
    }

    /// Writes what the socket takes; true when all is written.
    private func write(_ c: Connection) -> Bool {
        while !c.output.isEmpty {
            let n = c.output.withUnsafeBytes { UnixSocket.send(c.fd, $0) }
            guard n > 0 else {
                if !c.waitsWritable {
                    c.waitsWritable = true
                    loop.setWritable(c.fd, true)
                }
                return false
            }
            c.output.removeFirst(n)
        }
        if c.waitsWritable {
            c.waitsWritable = false
            loop.setWritable(c.fd, false)
        }
        return true
    }

    private func finishWrite(_ c: Connection) {
        switch c.state {
        case .answered:
            drop(c, peer: nil)
        case .webSocket(let peer) where !peer.isOpen:
            drop(c, peer: nil)
        default:
            break
        }
    }

    func drop(_ c: Connection, peer: WebSocketPeer?) {
        guard connections[c.fd] === c else { return }
        connections[c.fd] = nil
        loop.unwatch(c.fd)
        UnixSocket.close(c.fd)
        if let peer, peer.isOpen {
            peer.isOpen = false
            peer.onClose?()
            peer.forgetHandlers()
        }
    }

    /// A peer closes: its close frame goes out, then the connection.
    func close(_ peer: WebSocketPeer, code: UInt16, reason: String) {
        guard let c = peer.connection, connections[c.fd] === c, peer.isOpen else { return }
        peer.isOpen = false
        queue(c, WebSocketFrame.close(code: code, reason: reason))
        peer.onClose?()
        peer.forgetHandlers()
    }

    // MARK: - Slow peers

    private func nextHeadDeadline() -> Instant? {
        var earliest: Instant?
        for c in connections.values {
            if case .head(let d) = c.state, d < earliest ?? .distantFuture { earliest = d }
        }
        return earliest
    }

    private func closeSlowHeads(now: Instant) {
        for c in Array(connections.values) {
            if case .head(let d) = c.state, d <= now {
                answer(c, .text(408, "the request took too long"))
            }
        }
    }
}

/// One WebSocket peer of a ``WebServer``: send it text; hear what it sends and when it goes.
public final class WebSocketPeer {
    /// A text (or binary, read as UTF-8) message from the peer.
    public var onText: ((String) -> Void)?
    /// The connection ended (the peer closed it or went, or ``close(code:reason:)``).
    public var onClose: (() -> Void)?
    /// Until it closes.
    public internal(set) var isOpen = true
    private unowned let server: WebServer
    weak var connection: WebServer.Connection?

    init(server: WebServer, connection: WebServer.Connection) {
        self.server = server
        self.connection = connection
    }

    /// Queues one text message; it is written at the end of the loop's turn.
    public func send(text: String) {
        guard isOpen, let c = connection else { return }
        var frame: [UInt8] = []
        WebSocketFrame.encode(.text, text.utf8, into: &frame)
        server.queue(c, frame)
    }

    /// Once closed, its handlers go: what they hold (their owner, the peer itself) is let go
    /// even if they hold it strongly.
    func forgetHandlers() {
        onText = nil
        onClose = nil
    }

    /// Bytes queued and not yet written.
    public var backlogBytes: Int { connection?.output.count ?? 0 }

    /// Closes with `code` (1000: normal) and a short reason.
    public func close(code: UInt16 = 1000, reason: String = "") {
        server.close(self, code: code, reason: reason)
    }
}
