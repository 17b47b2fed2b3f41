/// A system call that failed: what was being done, to what, and the system's reason.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, socket or program concerned (`/run/gestured/gestured.sock`, `epoll`).
    public var path: String
    /// What went wrong, with what to do about it where there is something.
    public var message: String
    /// The `errno` value, when the system gave one.
    public var code: Int32?

    public init(path: String, message: String, code: Int32? = nil) {
        self.path = path
        self.message = message
        self.code = code
    }

    public var description: String { "\(path): \(message)" }
}
