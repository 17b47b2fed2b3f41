#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Unix stream sockets (the fixed-size `sockaddr_un` needs C): listening, connecting,
/// accepting and non-blocking sends and reads, and the socket file's owner and mode.
public enum UnixSocket {
    /// The longest path a socket can have.
    public static var maximumPathLength: Int { gestured_sun_path_max() }

    /// How many connections may wait to be accepted: the kernel's most (`SOMAXCONN`, capped
    /// by `net.core.somaxconn`), so a burst of clients connecting at once is not refused.
    public static let defaultBacklog = Int32(SOMAXCONN)

    /// A non-blocking socket listening at `path`; the caller has removed any stale file.
    /// `mode` and `group` (nil: unchanged) are given to the socket file after it is bound and
    /// before it listens: nobody can connect while it has the mode the umask gave it
    /// (`beforeListening` runs then, for tests). Returns the socket and, when the group could
    /// not be set, why.
    public static func listen(at path: String, backlog: Int32 = defaultBacklog, mode: UInt32? = nil, group: String? = nil,
                              beforeListening: (() -> Void)? = nil) throws(SystemError) -> (fd: Int32, groupWarning: String?) {
        guard path.utf8.count <= maximumPathLength else {
            throw SystemError(path: path, message: "a socket path is at most \(maximumPathLength) bytes")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError(path: path, message: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        let length = gestured_sockaddr_un(&address, path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SystemError(path: path, message: reason)
        }
        var warning: String?
        if let mode {
            do throws(SystemError) {
                warning = try setAccess(path, mode: mode, group: group)
            } catch {
                close(fd)
                unlink(path)
                throw error
            }
        }
        beforeListening?()
        guard Glibc.listen(fd, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlink(path)
            throw SystemError(path: path, message: reason)
        }
        return (fd, warning)
    }

    /// The id of the group named `name`, or nil when there is none.
    public static func groupID(_ name: String) -> UInt32? {
        getgrnam(name).map { $0.pointee.gr_gid }
    }

    /// Raises this process's soft limit on open descriptors to its hard limit (systemd's
    /// default soft limit is 1,024, its hard one 524,288): a service with many clients. Returns
    /// the soft limit now in force.
    @discardableResult
    public static func raiseDescriptorLimit() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return UInt64(raised.rlim_cur) }
        }
        return UInt64(limit.rlim_cur)
    }

    /// This process's soft limit on open descriptors (0 when it cannot be read).
    public static func descriptorLimit() -> UInt64 {
        var limit = rlimit()
        return getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 ? UInt64(limit.rlim_cur) : 0
    }

    /// A blocking socket connected to `path`.
    public static func connect(to path: String) throws(SystemError) -> Int32 {
        guard path.utf8.count <= maximumPathLength else {
            throw SystemError(path: path, message: "a socket path is at most \(maximumPathLength) bytes")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError(path: path, message: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        let length = gestured_sockaddr_un(&address, path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SystemError(path: path, message: reason)
        }
        return fd
    }

    /// The process id at the other end of a connected socket (`SO_PEERCRED`: the process that
    /// connected), or nil when the kernel does not say.
    public static func peerProcess(_ fd: Int32) -> Int32? {
        let pid = gestured_peer_pid(fd)
        return pid > 0 ? pid : nil
    }

    /// Makes `fd` non-blocking (a client's connection, once connected).
    public static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    /// Accepts one waiting connection, made non-blocking and close-on-exec in the same call
    /// (`accept4`): a child spawned by another thread meanwhile (an `exec` action) never
    /// inherits it, as it could between `accept` and a later `fcntl`; nil when none waits.
    public static func accept(_ listener: Int32) -> Int32? {
        if case .accepted(let fd) = acceptOne(listener) { return fd }
        return nil
    }

    /// What an accept found.
    public enum Acceptance: Equatable, Sendable {
        case accepted(Int32)
        /// Nobody is waiting.
        case none
        /// The process (`EMFILE`) or the system (`ENFILE`) has no descriptor left: the
        /// connection waits in the backlog, and the listener stays readable.
        case outOfDescriptors
    }

    /// Accepts one waiting connection (as ``accept(_:)``), telling apart nobody waiting and no
    /// descriptor left.
    public static func acceptOne(_ listener: Int32) -> Acceptance {
        let fd = gestured_accept(listener)
        if fd >= 0 { return .accepted(fd) }
        return errno == EMFILE || errno == ENFILE ? .outOfDescriptors : .none
    }

    /// Sends what the socket takes without blocking (never raising SIGPIPE); returns how many
    /// bytes went, 0 when it is full or broken (a read then reports the hang-up).
    public static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        let n = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        return max(n, 0)
    }

    /// What a read of a non-blocking socket found.
    public enum ReadResult: Equatable {
        /// `count` bytes were read into the buffer.
        case data(count: Int)
        /// Nothing waiting now.
        case wouldBlock
        /// The other end closed, or the connection broke.
        case closed
    }

    /// Reads what is waiting into `buffer`.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n > 0 { return .data(count: n) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && errno == EAGAIN { return .wouldBlock }
            return .closed
        }
    }

    public static func close(_ fd: Int32) {
        _ = Glibc.close(fd)
    }

    /// Whether a file exists at `path`, and whether it is a socket.
    public static func fileKind(_ path: String) -> (exists: Bool, isSocket: Bool) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return (false, false) }
        return (true, st.st_mode & S_IFMT == S_IFSOCK)
    }

    /// Removes the socket file.
    public static func unlink(_ path: String) {
        _ = Glibc.unlink(path)
    }

    /// Gives the socket file `mode` and, with `group`, that group. A group that does not exist
    /// is an error; a group that cannot be given (not our own, not root) is returned as a
    /// warning to log.
    public static func setAccess(_ path: String, mode: UInt32, group: String?) throws(SystemError) -> String? {
        var gid = gid_t.max
        if let group {
            guard let id = groupID(group) else {
                throw SystemError(path: path, message: "socket group \"\(group)\" does not exist (create it: groupadd --system \(group))")
            }
            gid = id
        }
        var warning: String?
        if chown(path, uid_t.max, gid) != 0 && group != nil { warning = String(cString: strerror(errno)) }
        chmod(path, mode_t(mode))
        return warning
    }
}
