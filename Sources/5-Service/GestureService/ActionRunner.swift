import GestureProtocol
import Gestures
import Logging
import SystemLoop
import TouchEvents

/// Runs `exec` actions: a program and its arguments without a shell, the gesture's values in
/// its environment (never in its arguments), stdin from /dev/null. A slow or hung program never
/// delays recognition: it runs on its own, is stopped (SIGTERM to its process group, SIGKILL a
/// second later) when it outlives the timeout, and when `maximum` are running a new one is
/// skipped with a warning.
final class ActionRunner {
    struct Running {
        var child: ChildProcess
        var pid: Int32 { child.pid }
        var label: String
        var deadline: Instant
        var terminated = false
    }

    /// What became of an action (the metrics count them).
    enum Outcome: String, Sendable {
        case started
        /// It could not start: refused as root, too many running, or the program failed to start.
        case notStarted = "not_started"
        case failed = "exit_status"
        case killed = "signal"
        case timedOut = "timeout"
    }

    private(set) var running: [Running] = []
    /// Told of every action's start and of every one that failed.
    var onOutcome: ((Outcome) -> Void)?
    var timeout: Duration
    var maximum: Int
    var allowRoot: Bool
    private let clock: any TouchClock
    private let logger: Logger
    private var warnedRoot = false
    /// Grace between SIGTERM and SIGKILL.
    static let killGrace = Duration.seconds(1)

    init(timeout: Duration, maximum: Int, allowRoot: Bool, clock: any TouchClock, logger: Logger) {
        self.timeout = timeout
        self.maximum = maximum
        self.allowRoot = allowRoot
        self.clock = clock
        self.logger = logger
    }

    /// The variables an action sees for `event`: its every field (``GestureEvent/environment``)
    /// and a plain `PATH`.
    static func environment(_ event: GestureEvent) -> [String: String] {
        var env = event.environment
        env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
        return env
    }

    /// Starts `argv` with `environment`; returns the pid, or nil if it was not started.
    @discardableResult
    func start(_ argv: [String], environment: [String: String], label: String) -> Int32? {
        if FileStatus.effectiveUserID == 0 && !allowRoot {
            if !warnedRoot {
                logger.error("refusing to run actions as root; run gestured as its own user, or set service.actions-as-root: true")
                warnedRoot = true
            }
            onOutcome?(.notStarted)
            return nil
        }
        if running.count >= maximum {
            logger.warning("action skipped: \(running.count) still running (service.max-actions)", metadata: ["action": "\(label)"])
            onOutcome?(.notStarted)
            return nil
        }
        let child: ChildProcess
        do throws(SystemError) {
            child = try ChildProcess.spawn(argv, environment: environment)
        } catch {
            logger.error("action failed to start: \(error.message)", metadata: ["action": "\(label)"])
            onOutcome?(.notStarted)
            return nil
        }
        let pid = child.pid
        running.append(Running(child: child, label: label, deadline: clock.now + timeout))
        onOutcome?(.started)
        logger.debug("action started", metadata: ["action": "\(label)", "pid": "\(pid)"])
        return pid
    }

    /// The next timeout or kill, if any action runs.
    var nextDeadline: Instant? {
        var earliest: Instant?
        for action in running { earliest = Instant.earliest(earliest, action.deadline) }
        return earliest
    }

    /// Stops actions whose time is up.
    func fireDeadlines() {
        let now = clock.now
        for i in running.indices where running[i].deadline <= now {
            if !running[i].terminated {
                logger.warning("action timed out: stopping it", metadata: [
                    "action": "\(running[i].label)", "pid": "\(running[i].pid)", "timeout_ms": "\(timeout.inMicroseconds / 1000)",
                ])
                running[i].child.signalGroup(.terminate)
                running[i].terminated = true
                onOutcome?(.timedOut)
                running[i].deadline = now + Self.killGrace
            } else {
                running[i].child.signalGroup(.kill)
                running[i].deadline = now + Self.killGrace
            }
        }
    }

    /// Collects finished actions (after SIGCHLD, and on every turn of the loop while any runs):
    /// only its own children, one by one, never `waitpid(-1)`.
    func reap() {
        for action in running {
            guard let exit = action.child.exitIfEnded() else { continue }
            running.removeAll { $0.pid == action.pid }
            switch exit {
            case .exited(let status) where status != 0:
                logger.warning("action failed", metadata: ["action": "\(action.label)", "exit_status": "\(status)"])
                onOutcome?(.failed)
            case .signalled(let signal) where !action.terminated:
                logger.warning("action killed by a signal", metadata: ["action": "\(action.label)", "signal": "\(signal.number)"])
                onOutcome?(.killed)
            case .exited, .signalled:
                logger.debug("action finished", metadata: ["action": "\(action.label)"])
            }
        }
    }
}

extension Instant {
    /// The earlier of two optional deadlines (nil: none). The loop asks for the service's
    /// next deadline on every turn: two values compared, where
    /// `[a, b].compactMap { $0 }.min()` made two arrays each time (on the stack, but filled,
    /// searched and released: about 1,000 instructions a turn with the weak references).
    @inline(__always)
    static func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
        guard let a else { return b }
        guard let b else { return a }
        return min(a, b)
    }
}
