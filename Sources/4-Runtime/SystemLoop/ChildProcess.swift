#if canImport(Glibc)
import Glibc
#endif
import CLinux

/// A program started without a shell, the way the service runs actions: its arguments as given,
/// only the environment it is handed, stdin from /dev/null, in a process group of its own (so
/// stopping it stops what it started), with the signals the loop reads through its signalfd
/// unblocked and back at their default actions.
public struct ChildProcess: Sendable, Equatable {
    public let pid: pid_t

    /// How a child ended.
    public enum Exit: Sendable, Equatable {
        case exited(status: Int32)
        case signalled(Signal)
    }

    /// Starts `arguments[0]` (an absolute path) with `arguments` and `environment`.
    public static func spawn(_ arguments: [String], environment: [String: String]) throws(SystemError) -> ChildProcess {
        guard let program = arguments.first else { throw SystemError(path: "", message: "no program to run") }
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The loop blocks the signals it reads through a signalfd; the child gets them back,
        // with their default actions, in a process group of its own.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for s in [SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGPIPE] { sigaddset(&defaults, s) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in argv { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, program, &fileActions, &attributes, argv, envp)
        guard rc == 0 else { throw SystemError(path: program, message: String(cString: strerror(rc)), code: rc) }
        return ChildProcess(pid: pid)
    }

    /// Sends `signal` to the child's whole process group.
    public func signalGroup(_ signal: Signal) {
        _ = kill(-pid, signal.number)
    }

    /// How the child ended, once it has (collecting it); nil while it runs. Only this child
    /// is waited for, never any other.
    public func exitIfEnded() -> Exit? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        return Self.exit(status)
    }

    /// Waits for the child to end.
    public func waitForExit() -> Exit {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return .exited(status: -1) }
        }
        return Self.exit(status)
    }

    private static func exit(_ status: Int32) -> Exit {
        gestured_signalled(status) != 0
            ? .signalled(Signal(number: gestured_term_signal(status)))
            : .exited(status: gestured_exit_status(status))
    }
}
