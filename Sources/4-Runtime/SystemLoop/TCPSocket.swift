#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// Where a TCP listener binds: a numeric IPv4 or IPv6 address and a port (0: any free port).
///
/// Written `PORT` (loopback: `127.0.0.1`), `HOST:PORT` or `[IPV6]:PORT`; `localhost` is
/// `127.0.0.1`. Host names are not looked up: a listener's address is a decision, not a guess.
public struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: UInt16
    /// The host is an IPv6 address.
    public var isIPv6: Bool { host.contains(":") }

    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `PORT`, `HOST:PORT` or `[IPV6]:PORT`; nil with why when it is not one.
    public static func parse(_ text: String) -> Result<ListenAddress, ParseError> {
        var host = "127.0.0.1"
        var portText = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(ParseError("\(text): an IPv6 address is written [ADDRESS]:PORT"))
            }
            host = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        if host == "localhost" { host = "127.0.0.1" }
        guard let port = UInt16(portText) else {
            return .failure(ParseError("\(text): the port must be a number from 0 to 65535 (HOST:PORT, or PORT for 127.0.0.1)"))
        }
        let address = ListenAddress(host: host, port: port)
        guard address.socketAddress() != nil else {
            return .failure(ParseError("\(text): \"\(host)\" is not a numeric IPv4 or IPv6 address (host names are not looked up)"))
        }
        return .success(address)
    }

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Only this machine can reach it (`127.0.0.0/8` or `::1`).
    public var isLoopback: Bool {
        isIPv6 ? host == "::1" || host == "0:0:0:0:0:0:0:1" : host.hasPrefix("127.")
    }

    /// `HOST:PORT` (`[HOST]:PORT` for IPv6), as a URL writes it.
    public var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The `sockaddr_in`/`sockaddr_in6` bytes, or nil when the host is not numeric.
    func socketAddress() -> [UInt8]? {
        if isIPv6 {
            var a = sockaddr_in6()
            a.sin6_family = sa_family_t(AF_INET6)
            a.sin6_port = port.bigEndian
            guard inet_pton(AF_INET6, host, &a.sin6_addr) == 1 else { return nil }
            return withUnsafeBytes(of: &a) { Array($0) }
        }
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host, &a.sin_addr) == 1 else { return nil }
        return withUnsafeBytes(of: &a) { Array($0) }
    }
}

/// TCP listeners (the live view's and the metrics' HTTP). Connections are accepted with
/// ``UnixSocket/acceptOne(_:)`` and read and written like the Unix socket's.
public enum TCPSocket {
    /// A non-blocking socket listening at `address`, and the port it has (the one given, or
    /// the one the kernel chose for port 0).
    public static func listen(at address: ListenAddress, backlog: Int32 = 64) throws(SystemError) -> (fd: Int32, port: UInt16) {
        guard var bytes = address.socketAddress() else {
            throw SystemError(path: address.description, message: "not a numeric address")
        }
        let family = address.isIPv6 ? AF_INET6 : AF_INET
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError(path: address.description, message: "socket: \(String(cString: strerror(errno)))") }
        var on: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        let bound = bytes.withUnsafeMutableBytes {
            bind(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SystemError(path: address.description, message: reason)
        }
        var length = socklen_t(bytes.count)
        let named = bytes.withUnsafeMutableBytes {
            getsockname(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), &length)
        }
        // sin_port and sin6_port are at the same offset (2), in network order.
        let port = named == 0 ? UInt16(bigEndian: UInt16(bytes[2]) | UInt16(bytes[3]) << 8) : address.port
        return (fd, port)
    }

    /// A blocking connection to `address` (tests, tools).
    public static func connect(to address: ListenAddress) throws(SystemError) -> Int32 {
        guard var bytes = address.socketAddress() else {
            throw SystemError(path: address.description, message: "not a numeric address")
        }
        let fd = socket(address.isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError(path: address.description, message: "socket: \(String(cString: strerror(errno)))") }
        let connected = bytes.withUnsafeMutableBytes {
            Glibc.connect(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t($0.count))
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SystemError(path: address.description, message: reason)
        }
        return fd
    }

    /// `count` random bytes from the kernel (`getrandom`), for secrets such as the view's token.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { getrandom($0.baseAddress! + filled, count - filled, 0) }
            if n > 0 { filled += n } else if errno != EINTR { fatalError("getrandom failed: \(String(cString: strerror(errno)))") }
        }
        return bytes
    }
}
