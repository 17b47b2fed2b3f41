import GestureProtocol
import Logging
import SystemLoop
import TouchEvents

/// One connected client: what it sent and has not been read as lines yet, what waits to be
/// sent, its subscription, context, regions and request budget.
final class ClientConnection {
    let fd: Int32
    /// Counts clients from 1 in the order they came; names the client in logs and in its
    /// regions' ids inside the service (`@3/ok`).
    let number: Int
    var output: [UInt8] = []
    /// What it sent, cut into lines.
    var input = LineFramer(maximumBytes: ProtocolLimits.maximumMessageBytes)
    /// Which of the service's own gestures it wants; nil: none (after `unsubscribe`).
    var filter: EventFilter? = EventFilter()
    var context: [String: String] = [:]
    /// Its regions, in the order they were registered.
    var regions: [RegionRequest] = []
    /// Requests it may still send now (refilled at ``ProtocolLimits/requestsPerSecond``).
    var budget = ProtocolLimits.requestBurst
    var budgetTime: Instant
    /// Requests refused for the rate since the last time the log said so.
    var refusedForRate = 0
    var lastRateReport: Instant?

    init(fd: Int32, number: Int, now: Instant) {
        self.fd = fd
        self.number = number
        budgetTime = now
    }

    /// Takes one request from the budget; false when there is none left.
    func spend(now: Instant) -> Bool {
        let elapsed = Double((now - budgetTime).inMicroseconds) / 1_000_000
        budget = min(ProtocolLimits.requestBurst, budget + max(0, elapsed) * ProtocolLimits.requestsPerSecond)
        budgetTime = now
        guard budget >= 1 else { return false }
        budget -= 1
        return true
    }
}

/// The client socket: a Unix stream socket (mode 0660, with an optional group) speaking
/// protocol v1 (docs/protocol.md) as JSON lines. Nothing a client does can block the
/// service: writes go through each client's own buffer and a client that stops reading is
/// dropped, with a warning, once its backlog passes ``ProtocolLimits/maximumBacklogBytes``;
/// reads take a bounded amount per wakeup.
final class ClientServer {
    let path: String
    let listener: Int32
    private(set) var clients: [Int32: ClientConnection] = [:]
    private var nextNumber = 1
    private let logger: Logger
    /// Bytes read from one client per wakeup at most; the rest waits for the next wakeup, so a
    /// flood never holds recognition up.
    static let readBudgetBytes = 2 * ProtocolLimits.maximumMessageBytes
    /// Bytes read from all clients in one turn of the loop at most (eight clients' worth):
    /// with many clients flooding at once a turn still ends soon, and the devices are read
    /// again. A client not read in a turn is read in the next (its socket stays readable).
    static let turnBudgetBytes = 8 * readBudgetBytes
    /// The loop turn of the last read, and the bytes read from clients in it.
    private var turnRead: (turn: UInt64, bytes: Int) = (0, 0)

    /// `/run/gestured/gestured.sock`, or `$RUNTIME_DIRECTORY/gestured.sock` under systemd.
    static func defaultPath(environment: [String: String]) -> String {
        if let dir = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first { return "\(dir)/gestured.sock" }
        return "/run/gestured/gestured.sock"
    }

    init(path: String, group: String?, logger: Logger) throws(ServiceError) {
        self.path = path
        self.logger = logger
        try Self.removeStale(path)
        if let group, UnixSocket.groupID(group) == nil { throw .socketGroupMissing(group) }
        // Its mode and group are set between bind and listen: nobody can connect before.
        let socket: (fd: Int32, groupWarning: String?)
        do throws(SystemError) {
            socket = try UnixSocket.listen(at: path, mode: 0o660, group: group)
        } catch {
            throw .socketUnavailable(path: path, reason: error.message)
        }
        listener = socket.fd
        if let warning = socket.groupWarning {
            logger.warning("cannot give the socket to its group", metadata: ["socket": "\(path)", "error": "\(warning)"])
        }
    }

    /// A socket file left by a process that is gone is removed; a live one is an error.
    private static func removeStale(_ path: String) throws(ServiceError) {
        let file = UnixSocket.fileKind(path)
        guard file.exists else { return }
        guard file.isSocket else { throw .notASocket(path: path) }
        if let probe = try? UnixSocket.connect(to: path) {
            UnixSocket.close(probe)
            throw .socketInUse(path: path)
        }
        UnixSocket.unlink(path)
    }

    func shutdown() {
        for c in clients.values { UnixSocket.close(c.fd) }
        clients.removeAll()
        UnixSocket.close(listener)
        UnixSocket.unlink(path)
    }

    /// True while the process has no descriptor left for a client: the listener is not watched
    /// (it would stay readable and the loop would spin) until a client leaves.
    private(set) var outOfDescriptors = false
    /// When running out of descriptors was last logged: at most once a minute.
    private var lastOutOfDescriptorsReport: Instant?

    /// Accepts every waiting client; stops, setting ``outOfDescriptors``, when none can be.
    func acceptClients(now: Instant) -> [ClientConnection] {
        var accepted: [ClientConnection] = []
        while true {
            let fd: Int32
            switch UnixSocket.acceptOne(listener) {
            case .accepted(let accepted): fd = accepted
            case .none: return accepted
            case .outOfDescriptors:
                // (accept asks for a descriptor before it looks for a connection: with the table
                // full it says so even when nobody waits, right after the last one was taken.)
                outOfDescriptors = true
                if lastOutOfDescriptorsReport.map({ now - $0 >= .seconds(60) }) ?? true {
                    logger.error("no descriptor left for a socket client: not accepting until one leaves", metadata: [
                        "clients": "\(clients.count)", "limit": "\(UnixSocket.descriptorLimit())",
                    ])
                    lastOutOfDescriptorsReport = now
                }
                return accepted
            }
            let client = ClientConnection(fd: fd, number: nextNumber, now: now)
            nextNumber += 1
            clients[fd] = client
            accepted.append(client)
            logger.debug("socket client connected", metadata: ["client": "\(client.number)", "clients": "\(clients.count)"])
        }
    }

    /// Called when a client leaves while the process had no descriptor left: the caller
    /// watches the listener again.
    var onDescriptorFreed: (() -> Void)?

    /// Queues `line` for `client` and sends what the socket takes. Returns false when the
    /// client fell too far behind and was dropped (the caller forgets it).
    func send(_ line: String, to client: ClientConnection) -> Bool {
        client.output.append(contentsOf: line.utf8)
        flush(client)
        guard client.output.count <= ProtocolLimits.maximumBacklogBytes else {
            logger.warning("socket client dropped: it stopped reading", metadata: [
                "client": "\(client.number)", "backlog_bytes": "\(client.output.count)", "limit": "\(ProtocolLimits.maximumBacklogBytes)",
            ])
            remove(client.fd, reason: nil)
            return false
        }
        return true
    }

    /// The client can take more output.
    func writable(_ fd: Int32) {
        if let c = clients[fd] { flush(c) }
    }

    enum ReadOutcome {
        /// Whole lines read (each parsed, or what is wrong with it); input past the read budget
        /// waits for the next wakeup.
        case lines([Result<ClientMessage, ProtocolError>])
        /// The client hung up (after these lines).
        case closed([Result<ClientMessage, ProtocolError>])
    }

    /// Reads what the client sent, up to ``readBudgetBytes`` and what is left of this loop
    /// `turn`'s ``turnBudgetBytes``, and splits it into lines.
    func read(_ client: ClientConnection, turn: UInt64) -> ReadOutcome {
        if turnRead.turn != turn { turnRead = (turn, 0) }
        let allowed = min(Self.readBudgetBytes, Self.turnBudgetBytes - turnRead.bytes)
        guard allowed > 0 else { return .lines([]) }
        var results: [Result<ClientMessage, ProtocolError>] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var total = 0
        defer { turnRead.bytes += total }
        var closed = false
        func take(_ line: LineFramer.Line) {
            switch line {
            case .tooLarge:
                results.append(.failure(Self.tooLarge))
            case .line(let bytes) where bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }):
                break  // blank lines are skipped
            case .line(let bytes):
                do throws(ProtocolError) {
                    results.append(.success(try ClientMessage.parse(bytes)))
                } catch {
                    results.append(.failure(error))
                }
            }
        }
        reading: while total < allowed {
            switch buffer.withUnsafeMutableBytes({ UnixSocket.read(client.fd, into: $0) }) {
            case .data(let n):
                total += n
                for line in client.input.feed(buffer[0..<n]) { take(line) }
            case .wouldBlock:
                break reading
            case .closed:
                // A last request without its newline, then the client closed its side: it is
                // a request all the same, and gets its reply.
                if let last = client.input.finish() { take(last) }
                closed = true
                break reading
            }
        }
        return closed ? .closed(results) : .lines(results)
    }

    static let tooLarge = ProtocolError(
        .tooLarge, "a request longer than \(ProtocolLimits.maximumMessageBytes) bytes was skipped up to its newline")

    /// Closes the client; `reason`, when given, is logged as a warning.
    func remove(_ fd: Int32, reason: String?) {
        guard let client = clients.removeValue(forKey: fd) else { return }
        UnixSocket.close(fd)
        if outOfDescriptors {
            outOfDescriptors = false
            logger.debug("a descriptor is free again: accepting socket clients", metadata: ["clients": "\(clients.count)"])
            onDescriptorFreed?()
        }
        if let reason {
            logger.warning("socket client dropped: \(reason)", metadata: ["client": "\(client.number)"])
        } else {
            logger.debug("socket client disconnected", metadata: ["client": "\(client.number)", "clients": "\(clients.count)"])
        }
    }

    private func flush(_ c: ClientConnection) {
        while !c.output.isEmpty {
            let n = c.output.withUnsafeBytes { UnixSocket.send(c.fd, $0) }
            if n > 0 {
                c.output.removeFirst(n)
            } else {
                return  // EAGAIN (full) or an error the read side will report
            }
        }
    }
}
