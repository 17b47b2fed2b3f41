#if canImport(Glibc)
import Glibc
#endif
import CEvdev

/// Unix stream sockets for the service's clients (the fixed-size `sockaddr_un` needs C).
public enum UnixSocket {
    /// The longest path a socket can have.
    public static var maximumPathLength: Int { gestured_sun_path_max() }

    /// A non-blocking socket listening at `path`; the caller has removed any stale file.
    public static func listen(at path: String, backlog: Int32 = 16) throws(InputError) -> Int32 {
        guard path.utf8.count <= maximumPathLength else {
            throw InputError(path: path, message: "a socket path is at most \(maximumPathLength) bytes")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw InputError(path: path, message: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        let length = gestured_sockaddr_un(&address, path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw InputError(path: path, message: reason)
        }
        return fd
    }

    /// A blocking socket connected to `path`.
    public static func connect(to path: String) throws(InputError) -> Int32 {
        guard path.utf8.count <= maximumPathLength else {
            throw InputError(path: path, message: "a socket path is at most \(maximumPathLength) bytes")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw InputError(path: path, message: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        let length = gestured_sockaddr_un(&address, path)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, length) }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw InputError(path: path, message: reason)
        }
        return fd
    }
}
