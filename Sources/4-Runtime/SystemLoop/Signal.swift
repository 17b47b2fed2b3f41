#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// A POSIX signal, as the event loop delivers it.
public struct Signal: Hashable, Sendable, CustomStringConvertible {
    public let number: Int32

    public init(number: Int32) {
        self.number = number
    }

    /// SIGHUP: reload.
    public static let hangup = Signal(number: SIGHUP)
    /// SIGTERM: stop.
    public static let terminate = Signal(number: SIGTERM)
    /// SIGINT (Ctrl-C): stop.
    public static let interrupt = Signal(number: SIGINT)
    /// SIGCHLD: a child process ended.
    public static let child = Signal(number: SIGCHLD)
    /// SIGPIPE: a write to a pipe nobody reads.
    public static let brokenPipe = Signal(number: SIGPIPE)
    public static let kill = Signal(number: SIGKILL)

    /// Makes the process ignore this signal (SIGPIPE: a closed stdout is an error to handle,
    /// not a reason to die).
    /// Unblocks every signal of the process (a program started by one that blocked, say,
    /// SIGTERM inherits that): SIGTERM and SIGINT then stop it as they should.
    public static func unblockAll() {
        _ = gestured_unblock_all_signals()
    }

    public func ignore() {
        _ = Glibc.signal(number, SIG_IGN)
    }

    /// `SIGHUP`, or the number for one without a name here.
    public var description: String {
        switch self {
        case .hangup: "SIGHUP"
        case .terminate: "SIGTERM"
        case .interrupt: "SIGINT"
        case .child: "SIGCHLD"
        case .brokenPipe: "SIGPIPE"
        case .kill: "SIGKILL"
        default: "signal \(number)"
        }
    }
}
