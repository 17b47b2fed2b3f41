#if canImport(Glibc)
import Glibc
#endif
import Gestures
import Logging
import TouchEvents

/// Runs `exec` actions: a program and its arguments without a shell, the gesture's values in
/// its environment (never in its arguments), stdin from /dev/null. A slow or hung program never
/// delays recognition: it runs on its own, is stopped (SIGTERM to its process group, SIGKILL a
/// second later) when it outlives the timeout, and when `maximum` are running a new one is
/// skipped with a warning.
final class ActionRunner {
    struct Running {
        var pid: pid_t
        var label: String
        var deadline: Instant
        var terminated = false
    }

    private(set) var running: [Running] = []
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

    /// The variables an action sees for `g`.
    static func environment(_ g: Gesture, origin: Instant) -> [String: String] {
        var env: [String: String] = [
            "PATH": "/usr/local/bin:/usr/bin:/bin",
            "GESTURE_KIND": g.kind.rawValue, "GESTURE_STATE": g.state.rawValue, "GESTURE_REGION": g.region,
            "GESTURE_TOUCHES": String(g.touches), "GESTURE_X": formatDecimal(g.location.x, places: 2),
            "GESTURE_Y": formatDecimal(g.location.y, places: 2), "GESTURE_TIME": formatSeconds(g.time - origin),
        ]
        if let d = g.device { env["GESTURE_DEVICE"] = d }
        if let t = g.taps { env["GESTURE_TAPS"] = String(t) }
        if let t = g.translation {
            env["GESTURE_DX"] = formatDecimal(t.x, places: 2)
            env["GESTURE_DY"] = formatDecimal(t.y, places: 2)
        }
        if let v = g.velocity, g.kind == .pan || g.kind == .swipe || g.kind == .edgePan {
            env["GESTURE_VX"] = formatDecimal(v.x, places: 2)
            env["GESTURE_VY"] = formatDecimal(v.y, places: 2)
        }
        if let s = g.scale { env["GESTURE_SCALE"] = formatDecimal(s, places: 4) }
        if let r = g.rotation { env["GESTURE_ROTATION"] = formatDecimal(r, places: 2) }
        if let d = g.direction { env["GESTURE_DIRECTION"] = d.rawValue }
        if let e = g.edge { env["GESTURE_EDGE"] = e.rawValue }
        return env
    }

    /// Starts `argv` with `environment`; returns the pid, or nil if it was not started.
    @discardableResult
    func start(_ argv: [String], environment: [String: String], label: String) -> pid_t? {
        if geteuid() == 0 && !allowRoot {
            if !warnedRoot {
                logger.error("refusing to run actions as root; run gestured as its own user, or set service.actions-as-root: true")
                warnedRoot = true
            }
            return nil
        }
        if running.count >= maximum {
            logger.warning("action skipped: \(running.count) still running (service.max-actions)", metadata: ["action": "\(label)"])
            return nil
        }
        var fileActions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&fileActions)
        defer { posix_spawn_file_actions_destroy(&fileActions) }
        posix_spawn_file_actions_addopen(&fileActions, 0, "/dev/null", O_RDONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The service blocks the signals it reads through a signalfd; the child gets them back,
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

        let args = argv.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in args { free(p) }
            for p in envp { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], &fileActions, &attributes, args, envp)
        guard rc == 0 else {
            logger.error("action failed to start: \(String(cString: strerror(rc)))", metadata: ["action": "\(label)"])
            return nil
        }
        running.append(Running(pid: pid, label: label, deadline: clock.now + timeout))
        logger.debug("action started", metadata: ["action": "\(label)", "pid": "\(pid)"])
        return pid
    }

    /// The next timeout or kill, if any action runs.
    var nextDeadline: Instant? { running.map(\.deadline).min() }

    /// Stops actions whose time is up.
    func fireDeadlines() {
        let now = clock.now
        for i in running.indices where running[i].deadline <= now {
            if !running[i].terminated {
                logger.warning("action timed out: stopping it", metadata: [
                    "action": "\(running[i].label)", "pid": "\(running[i].pid)", "timeout_ms": "\(timeout.inMicroseconds / 1000)",
                ])
                kill(-running[i].pid, SIGTERM)
                running[i].terminated = true
                running[i].deadline = now + Self.killGrace
            } else {
                kill(-running[i].pid, SIGKILL)
                running[i].deadline = now + Self.killGrace
            }
        }
    }

    /// Collects finished actions (after SIGCHLD, and on every turn of the loop while any runs):
    /// only its own children, one by one, never `waitpid(-1)`.
    func reap() {
        for action in running {
            var status: Int32 = 0
            guard waitpid(action.pid, &status, WNOHANG) == action.pid else { continue }
            running.removeAll { $0.pid == action.pid }
            let exited = status & 0x7f == 0
            let code = (status >> 8) & 0xff
            if exited && code != 0 {
                logger.warning("action failed", metadata: ["action": "\(action.label)", "exit_status": "\(code)"])
            } else if !exited && !action.terminated {
                logger.warning("action killed by a signal", metadata: ["action": "\(action.label)", "signal": "\(status & 0x7f)"])
            } else {
                logger.debug("action finished", metadata: ["action": "\(action.label)"])
            }
        }
    }
}
