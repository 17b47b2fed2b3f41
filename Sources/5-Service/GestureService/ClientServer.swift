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
    /// The process that connected (`SO_PEERCRED`), or minus ``number`` when the kernel does not
    /// say: budgets count clients by process (``ServiceBudgets``).
    let process: Int32
    var output: [UInt8] = []
    /// What it sent, cut into lines.
    var input = LineFramer(maximumBytes: ProtocolLimits.maximumMessageBytes)
    /// Which of the service's own gestures it wants; nil: none (after `unsubscribe`).
    var filter: EventFilter? = EventFilter()
    var context: [String: String] = [:]
    /// Its regions, in the order they were registered.
    var regions: [RegionRequest] = []
    /// It closed its side: once the requests it sent are answered, it is forgotten.
    var closing = false
    /// Output was queued for it without being written (``ClientServer/flushQueued(between:)``).
    var awaitsFlush = false
    /// The loop's turn in which its requests were last carried out (its share of them).
    var servedTurn: UInt64 = .max
    /// Requests it may still send now (refilled at ``ProtocolLimits/requestsPerSecond``).
    var budget = ProtocolLimits.requestBurst
    var budgetTime: Instant
    /// Its requests refused for the rate, logged at most once a second.
    var rateWarnings = WarningRateLimit()

    init(fd: Int32, number: Int, process: Int32? = nil, now: Instant) {
        self.fd = fd
        self.number = number
        self.process = process ?? -Int32(truncatingIfNeeded: number)
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
    /// again. Each client ready in the turn gets its share (at least 4 KiB, so a small request
    /// is always read): a flood from some never starves the others. What is not read in a turn
    /// is read in the next (the socket stays readable).
    static let turnBudgetBytes = 8 * readBudgetBytes
    /// The least a ready client may read in a turn.
    static let minimumShareBytes = 4 * 1024
    /// The loop turn of the last read, and the bytes read from clients in it.
    private var turnRead: (turn: UInt64, bytes: Int) = (0, 0)
    /// What a read fills, kept from read to read.
    private var readBuffer = [UInt8](repeating: 0, count: 16 * 1024)
    /// Clients with output queued by ``send(_:to:now:flushNow:)`` and not yet written.
    private(set) var awaitingFlush: [ClientConnection] = []

    /// Writes what was queued without being written, for every client queued when called
    /// (`between` is called after every 32: the caller's chance to read its devices; what that
    /// queues waits for the next call). Returns the clients whose sockets did not take it all.
    func flushQueued(between: () -> Void) -> [ClientConnection] {
        guard !awaitingFlush.isEmpty else { return [] }
        let list = awaitingFlush
        awaitingFlush.removeAll(keepingCapacity: true)
        var behind: [ClientConnection] = []
        for (i, c) in list.enumerated() {
            c.awaitsFlush = false
            guard clients[c.fd] === c else { continue }
            flush(c)
            if !c.output.isEmpty { behind.append(c) }
            if i % 32 == 31 && i + 1 < list.count { between() }
        }
        return behind
    }

    /// Some client has output queued and not yet written.
    var hasQueuedOutput: Bool { !awaitingFlush.isEmpty }

    /// Which process a connection comes from.
    var peerProcess: (Int32) -> Int32? = UnixSocket.peerProcess
    /// Bytes queued for all clients and not yet sent.
    private(set) var queuedBytes = 0
    /// Bytes of unfinished lines held for all clients.
    private(set) var pendingInputBytes = 0
    /// Warnings about dropping clients that stopped reading: at most one a second.
    private var stoppedReadingWarnings = WarningRateLimit()

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

    /// Connections accepted in one wakeup at most: the rest wait for the next turn (the
    /// listener stays readable), so a storm of connections never holds the loop.
    static let acceptsPerWakeup = 64

    /// Accepts the waiting clients, up to ``acceptsPerWakeup``; stops, setting
    /// ``outOfDescriptors``, when none can be.
    func acceptClients(now: Instant) -> [ClientConnection] {
        var accepted: [ClientConnection] = []
        while accepted.count < Self.acceptsPerWakeup {
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
            let client = ClientConnection(fd: fd, number: nextNumber, process: peerProcess(fd), now: now)
            nextNumber += 1
            clients[fd] = client
            accepted.append(client)
            logger.debug("socket client connected", metadata: ["client": "\(client.number)", "clients": "\(clients.count)"])
        }
        return accepted
    }

    /// Called when a client leaves while the process had no descriptor left: the caller
    /// watches the listener again.
    var onDescriptorFreed: (() -> Void)?

    /// Queues `line` for `client` and sends what the socket takes. Returns false when the
    /// client fell too far behind and was dropped (the caller forgets it).
    func send(_ line: String, to client: ClientConnection, now: Instant, flushNow: Bool = true) -> Bool {
        let before = client.output.count
        client.output.append(contentsOf: line.utf8)
        queuedBytes += client.output.count - before
        if flushNow {
            flush(client)
        } else if !client.awaitsFlush {
            client.awaitsFlush = true
            awaitingFlush.append(client)
        }
        guard client.output.count <= ProtocolLimits.maximumBacklogBytes else {
            if let suppressed = stoppedReadingWarnings.allow(at: now) {
                logger.warning("socket client dropped: it stopped reading", metadata: [
                    "client": "\(client.number)", "backlog_bytes": "\(client.output.count)", "limit": "\(ProtocolLimits.maximumBacklogBytes)",
                    "more_since_last_warning": "\(suppressed)",
                ])
            }
            remove(client.fd, reason: nil)
            return false
        }
        return true
    }

    /// Writes `line` to `client` if the socket takes it now, without queueing, and closes the
    /// connection: the last word to a client being let go.
    func sayAndClose(_ client: ClientConnection, _ line: String) {
        // Not after an unsent message: it would land inside it.
        if client.output.isEmpty { _ = Array(line.utf8).withUnsafeBytes { UnixSocket.send(client.fd, $0) } }
        remove(client.fd, reason: nil)
    }

    /// The connection to give up past a budget: of the process holding the most by `weight`,
    /// its connection holding the most (the newest among equals). `requester`'s process counts
    /// with `extra` (what it asks for): when that holds as much as any, `requester` itself is
    /// the one — the process holding the most is refused, never a newcomer. A requester already
    /// gone is never the one.
    func victim(requester: ClientConnection, extra: Int = 0, weight: (ClientConnection) -> Int) -> ClientConnection {
        var totals: [Int32: Int] = [:]
        for c in clients.values { totals[c.process, default: 0] += weight(c) }
        totals[requester.process, default: 0] += extra
        let mine = totals[requester.process] ?? 0
        let present = clients[requester.fd] === requester
        guard let heaviest = totals.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }),
              heaviest.value > mine || !present else { return requester }
        return clients.values.filter { $0.process == heaviest.key }
            .max { (weight($0), $0.number) < (weight($1), $1.number) } ?? requester
    }

    /// The client can take more output.
    func writable(_ fd: Int32) {
        if let c = clients[fd] { flush(c) }
    }

    /// Reads what the client sent into its ``ClientConnection/input``, up to
    /// ``readBudgetBytes`` and its share of this loop `turn`'s ``turnBudgetBytes`` among the
    /// `ready` clients; nothing while it holds ``readBudgetBytes`` not yet taken as requests.
    /// A client that closed its side is marked ``ClientConnection/closing``.
    func read(_ client: ClientConnection, turn: UInt64, ready: Int) {
        if turnRead.turn != turn { turnRead = (turn, 0) }
        let share = max(Self.minimumShareBytes, Self.turnBudgetBytes / max(1, ready))
        let allowed = min(Self.readBudgetBytes - client.input.pendingBytes, share,
                          Self.turnBudgetBytes + Self.minimumShareBytes - turnRead.bytes)
        guard allowed > 0 else { return }
        var total = 0
        let pendingBefore = client.input.pendingBytes
        defer {
            turnRead.bytes += total
            pendingInputBytes += client.input.pendingBytes - pendingBefore
        }
        while total < allowed {
            let n = readBuffer.withUnsafeMutableBytes { buffer in
                UnixSocket.read(client.fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(buffer.count, allowed - total)]))
            }
            switch n {
            case .data(let n):
                total += n
                client.input.append(readBuffer[0..<n])
            case .wouldBlock:
                return
            case .closed:
                client.closing = true
                return
            }
        }
    }

    /// The client's next request read (parsed, or what is wrong with it), blank lines
    /// skipped; nil when none is whole yet. After the client closed its side, what is left
    /// after its last newline is a request too (a last line without one), and gets its reply.
    func nextRequest(_ client: ClientConnection) -> Result<ClientMessage, ProtocolError>? {
        let before = client.input.pendingBytes
        defer { pendingInputBytes += client.input.pendingBytes - before }
        while true {
            var line = client.input.next()
            if line == nil && client.closing { line = client.input.finish() }
            switch line {
            case nil:
                return nil
            case .tooLarge?:
                return .failure(Self.tooLarge)
            case .line(let bytes)? where bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }):
                continue  // blank lines are skipped
            case .line(let bytes)?:
                do throws(ProtocolError) {
                    return .success(try ClientMessage.parse(bytes))
                } catch {
                    return .failure(error)
                }
            }
        }
    }

    static let tooLarge = ProtocolError(
        .tooLarge, "a request longer than \(ProtocolLimits.maximumMessageBytes) bytes was skipped up to its newline")

    /// Closes the client; `reason`, when given, is logged as a warning.
    func remove(_ fd: Int32, reason: String?) {
        guard let client = clients.removeValue(forKey: fd) else { return }
        queuedBytes -= client.output.count
        pendingInputBytes -= client.input.pendingBytes
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
                queuedBytes -= n
            } else {
                return  // EAGAIN (full) or an error the read side will report
            }
        }
    }
}

/// Lets a warning that a crowd of clients could repeat through at most once a second, and says
/// how many were held back since.
struct WarningRateLimit {
    private var last: Instant?
    private var heldBack = 0

    /// Nil: hold this one back. Otherwise log it, with the number held back since the last.
    mutating func allow(at now: Instant) -> Int? {
        if let last, now - last < .seconds(1) {
            heldBack += 1
            return nil
        }
        last = now
        defer { heldBack = 0 }
        return heldBack
    }
}
