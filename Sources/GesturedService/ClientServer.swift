import Logging
import SystemLoop

/// The client socket: a Unix stream socket streaming gesture events as JSON lines to every
/// client that connects (mode 0660, with an optional group). Writes never block: each client
/// has its own buffer, and a client that stops reading is dropped, with a warning, once its
/// backlog passes ``maximumBacklog`` bytes.
final class ClientServer {
    struct Client {
        var fd: Int32
        var output: [UInt8] = []
    }

    /// Bytes a client may fall behind before it is dropped: some seconds of busy gestures.
    static let maximumBacklog = 256 * 1024

    let path: String
    let listener: Int32
    private(set) var clients: [Client] = []
    private let logger: Logger

    /// `/run/gestured/gestured.sock`, or `$RUNTIME_DIRECTORY/gestured.sock` under systemd.
    static func defaultPath(environment: [String: String]) -> String {
        if let dir = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first { return "\(dir)/gestured.sock" }
        return "/run/gestured/gestured.sock"
    }

    init(path: String, group: String?, logger: Logger) throws(ServiceError) {
        self.path = path
        self.logger = logger
        try Self.removeStale(path)
        let fd: Int32
        do throws(SystemError) {
            fd = try UnixSocket.listen(at: path)
        } catch {
            throw .socketUnavailable(path: path, reason: error.message)
        }
        listener = fd
        do throws(SystemError) {
            if let warning = try UnixSocket.setAccess(path, mode: 0o660, group: group) {
                logger.warning("cannot give the socket to its group", metadata: ["socket": "\(path)", "error": "\(warning)"])
            }
        } catch {
            UnixSocket.close(fd)
            UnixSocket.unlink(path)
            throw .socketGroupMissing(group ?? "")
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
        for c in clients { UnixSocket.close(c.fd) }
        clients.removeAll()
        UnixSocket.close(listener)
        UnixSocket.unlink(path)
    }

    /// Accepts every waiting client; returns their descriptors.
    func acceptClients() -> [Int32] {
        var accepted: [Int32] = []
        while let fd = UnixSocket.accept(listener) {
            clients.append(Client(fd: fd))
            accepted.append(fd)
            logger.info("socket client connected", metadata: ["clients": "\(clients.count)"])
        }
        return accepted
    }

    /// Sends `line` to every client; returns the descriptors of clients dropped for falling
    /// behind (the caller stops watching them) and of those with output left to send (the
    /// caller waits for them to become writable).
    func broadcast(_ line: String) -> (dropped: [Int32], backlogged: [Int32]) {
        var dropped: [Int32] = []
        var backlogged: [Int32] = []
        for i in clients.indices.reversed() {
            clients[i].output.append(contentsOf: line.utf8)
            flush(i)
            if clients[i].output.count > Self.maximumBacklog {
                logger.warning("socket client dropped: it stopped reading", metadata: [
                    "backlog_bytes": "\(clients[i].output.count)", "limit": "\(Self.maximumBacklog)",
                ])
                dropped.append(clients[i].fd)
                UnixSocket.close(clients[i].fd)
                clients.remove(at: i)
            } else if !clients[i].output.isEmpty {
                backlogged.append(clients[i].fd)
            }
        }
        return (dropped, backlogged)
    }

    /// True while the client has output waiting.
    func isBacklogged(_ fd: Int32) -> Bool { clients.contains { $0.fd == fd && !$0.output.isEmpty } }

    /// The client can take more output.
    func writable(_ fd: Int32) {
        if let i = clients.firstIndex(where: { $0.fd == fd }) { flush(i) }
    }

    /// The client sent something (ignored) or hung up; returns true if it is gone.
    func readable(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            switch buffer.withUnsafeMutableBytes({ UnixSocket.read(fd, into: $0) }) {
            case .data: continue
            case .wouldBlock: return false
            case .closed:
                remove(fd)
                return true
            }
        }
    }

    func remove(_ fd: Int32) {
        guard let i = clients.firstIndex(where: { $0.fd == fd }) else { return }
        UnixSocket.close(fd)
        clients.remove(at: i)
        logger.info("socket client disconnected", metadata: ["clients": "\(clients.count)"])
    }

    private func flush(_ i: Int) {
        while !clients[i].output.isEmpty {
            let n = clients[i].output.withUnsafeBytes { UnixSocket.send(clients[i].fd, $0) }
            if n > 0 {
                clients[i].output.removeFirst(n)
            } else {
                return  // EAGAIN (full) or an error the read side will report
            }
        }
    }
}
