import GesturedConfiguration
import GesturedRuntime
import Gestures
import Logging
import SystemLoop
import TouchEvents
import TouchInput

/// `gestured run`: touch devices in, gestures out — to actions, socket clients and stdout.
///
/// Everything happens on one thread in one ``EventLoop``: device descriptors, the device
/// monitor (hotplug), one timer at the earliest deadline of any recognizer or action, signals
/// and socket clients. With no finger down and nothing waiting the process sleeps until the
/// next event. Live touches go through the same decoder and gesture pipeline as
/// `gestured replay`.
public final class GestureService {
    public struct Options: Sendable {
        public var configPath: String?
        /// Overrides the configuration's socket path.
        public var socketPath: String?
        /// Overrides the configuration's seat.
        public var seat: String?
        /// No client socket at all.
        public var noSocket = false
        /// Print every gesture event to stdout as a JSON line.
        public var printJSON = false
        public var environment: [String: String] = [:]

        public init(configPath: String? = nil) {
            self.configPath = configPath
        }
    }

    /// A device the service reads, with its session (decoder, layout, pipeline).
    final class LiveDevice {
        let device: any TouchDevice
        let session: DeviceSession

        init(device: any TouchDevice, session: DeviceSession) {
            self.device = device
            self.session = session
        }
    }

    public let options: Options
    public private(set) var configuration: Configuration?
    private let monitor: any DeviceMonitor
    private let clock: any TouchClock
    private let logger: Logger
    private let output: (String) -> Void
    /// Every touch device the monitor reported (used or not), by node.
    private var known: [String: any TouchDevice] = [:]
    /// The devices in use.
    private var live: [String: LiveDevice] = [:]
    private let actions: ActionRunner
    private var server: ClientServer?
    private var loop: EventLoop?
    private var stopping = false
    private var saidNoDevices = false
    /// Called with every gesture event (tests, tools).
    public var observer: ((Gesture) -> Void)?

    /// Loads and checks the configuration (refusing one that others may write). `output`
    /// receives the `--json` lines.
    public init(options: Options, monitor: any DeviceMonitor, clock: any TouchClock, logger: Logger,
                output: @escaping (String) -> Void) throws(ServiceError) {
        self.options = options
        self.monitor = monitor
        self.clock = clock
        self.logger = logger
        self.output = output
        if let path = options.configPath { configuration = try Self.loadConfiguration(path) }
        let settings = configuration?.service ?? ServiceSettings()
        actions = ActionRunner(timeout: settings.actionTimeout, maximum: settings.maxActions,
                               allowRoot: settings.actionsAsRoot, clock: clock, logger: logger)
    }

    /// The seat a configuration names (seat0 without one).
    public static func configuredSeat(_ path: String?) throws(ServiceError) -> String {
        guard let path else { return "seat0" }
        return try loadConfiguration(path).service.seat
    }

    /// Where the socket is when nothing says otherwise.
    public static func defaultSocketPath(environment: [String: String]) -> String {
        ClientServer.defaultPath(environment: environment)
    }

    static func loadConfiguration(_ path: String) throws(ServiceError) -> Configuration {
        try ConfigurationGuard.check(path)
        do throws(ConfigurationError) {
            return try Configuration.load(path: path)
        } catch {
            throw .configurationInvalid(error)
        }
    }

    /// Devices in use, by node.
    public var devicesInUse: [String] { live.keys.sorted() }
    /// Connected socket clients.
    public var clientCount: Int { server?.clients.count ?? 0 }
    /// Actions running.
    public var runningActions: Int { actions.running.count }
    /// The socket's path, when there is one.
    public var socketPath: String? { server?.path }

    // MARK: - Running

    /// Sets up the loop, the socket and the signals, and takes the devices already present.
    public func start() throws(ServiceError) {
        let loop: EventLoop
        do throws(SystemError) {
            loop = try EventLoop()
            try loop.handleSignals(Self.handledSignals)
        } catch {
            throw .system(error)
        }
        Signal.brokenPipe.ignore()
        self.loop = loop
        if !options.noSocket {
            let path = options.socketPath ?? configuration?.service.socket ?? ClientServer.defaultPath(environment: options.environment)
            let server = try ClientServer(path: path, group: configuration?.service.socketGroup, logger: logger)
            loop.watch(server.listener)
            self.server = server
            logger.info("listening for clients", metadata: ["socket": "\(path)"])
        }
        loop.watch(monitor.fileDescriptor)
        apply(monitor.changes())
        if live.isEmpty && !saidNoDevices {
            logger.notice("no touch devices yet: waiting for one to be plugged in")
            saidNoDevices = true
        }
    }

    /// Runs until SIGTERM or SIGINT, then shuts down cleanly.
    public func run() throws(ServiceError) {
        try start()
        while !stopping { runOnce(timeout: -1) }
        shutdown()
    }

    /// Waits up to `timeout` ms for something to happen and handles it; then fires every
    /// deadline that has passed by the service's clock. The loop's timer wakes it at the next
    /// deadline when the clock is one a system timer follows.
    public func runOnce(timeout: Int32) {
        guard let loop else { return }
        loop.setDeadline(nextDeadline.flatMap(clock.monotonicInstant))
        if let server {
            for fd in server.clients.map(\.fd) { loop.watch(fd, writable: server.backlogged.contains(fd)) }
        }
        for event in loop.wait(timeout: timeout) { dispatch(event) }
        if !actions.running.isEmpty { actions.reap() }
        fireDeadlines()
    }

    /// What the service does on a signal.
    public enum SignalResponse: Equatable, Sendable {
        case reload, reapActions, stop, ignore
    }

    /// The signals the service handles; the loop is asked for these only.
    public static let handledSignals: [Signal] = [.hangup, .terminate, .interrupt, .child]

    /// SIGHUP reloads, SIGCHLD collects finished actions, SIGTERM and SIGINT stop; any other
    /// signal is not the service's to act on and is ignored.
    public static func response(to signal: Signal) -> SignalResponse {
        switch signal {
        case .hangup: .reload
        case .child: .reapActions
        case .terminate, .interrupt: .stop
        default: .ignore
        }
    }

    /// Asks the loop to end (as SIGTERM does).
    public func stop() { stopping = true }

    /// Cancels what is going on and closes everything.
    public func shutdown() {
        let now = clock.now
        for d in live.values { d.session.cancel(at: now) }
        live.removeAll()
        known.removeAll()
        server?.shutdown()
        server = nil
        logger.info("stopped")
    }

    private var nextDeadline: Instant? {
        var earliest = actions.nextDeadline
        for d in live.values {
            if let t = d.session.pipeline.nextDeadline, t < earliest ?? .distantFuture { earliest = t }
        }
        return earliest
    }

    private func fireDeadlines() {
        let now = clock.now
        for d in live.values where (d.session.pipeline.nextDeadline ?? .distantFuture) <= now { d.session.pipeline.advance(to: now) }
        if (actions.nextDeadline ?? .distantFuture) <= now { actions.fireDeadlines() }
    }

    private func dispatch(_ event: EventLoop.Event) {
        switch event {
        case .timer:
            break
        case .signal(let signal):
            switch Self.response(to: signal) {
            case .reload: reload()
            case .reapActions: actions.reap()
            case .stop:
                logger.info("stopping", metadata: ["signal": "\(signal.number)"])
                stopping = true
            case .ignore:
                logger.debug("signal ignored", metadata: ["signal": "\(signal.number)"])
            }
        case .readable(let fd), .hangup(let fd):
            if fd == monitor.fileDescriptor {
                apply(monitor.changes())
            } else if let server, fd == server.listener {
                for client in server.acceptClients() { loop?.watch(client) }
            } else if let device = known.values.first(where: { $0.fileDescriptor == fd }) {
                read(device)
            } else if let server, server.clients.contains(where: { $0.fd == fd }) {
                if case .hangup = event {
                    loop?.unwatch(fd)
                    server.remove(fd)
                } else if server.readable(fd) {
                    loop?.unwatch(fd)
                }
            }
        case .writable(let fd):
            server?.writable(fd)
        }
    }

    // MARK: - Devices

    private func apply(_ changes: [DeviceChange]) {
        for change in changes {
            switch change {
            case .added(let device):
                known[device.node] = device
                loop?.watch(device.fileDescriptor)
                use(device)
            case .removed(let node):
                remove(node, reason: "removed")
            }
        }
    }

    /// Starts using `device` if the configuration has a rule for it.
    private func use(_ device: any TouchDevice) {
        let d = device.description
        let session: DeviceSession
        do throws(DeviceSession.SetupError) {
            session = try DeviceSession(device: d, node: device.node, configuration: configuration,
                                        dropPolicy: device.resynchronizesAfterDrops ? .resynchronize : .cancelUnknown, logger: logger)
        } catch .noRule {
            logger.info("touch device not used by the configuration", metadata: ["device": "\(d.name)", "node": "\(device.node)"])
            return
        } catch {
            return
        }
        attachActions(session.actions, layout: session.layout, node: device.node)
        let state = LiveDevice(device: device, session: session)
        session.pipeline.observer = { [unowned self, unowned state] g in self.observe(g, state) }
        live[device.node] = state
        saidNoDevices = false
        let surface = session.surface
        var details: Logger.Metadata = [
            "device": "\(d.name)", "node": "\(device.node)", "kind": "\(d.kind)", "size_mm": "\(surface.size)",
            "size_from": "\(surface.sizeSource.rawValue)", "touch": "\(d.touchProtocol)",
        ]
        if surface.sizeSource == .assumed { details["hint"] = "the device reports no resolution: give its size in the configuration (devices: size: [w, h])" }
        logger.info("touch device added", metadata: details)
    }

    private func remove(_ node: String, reason: String) {
        if let state = live.removeValue(forKey: node) {
            // Its gestures end `cancelled`; handlers and clients see it.
            state.session.cancel(at: clock.now)
            logger.info("touch device \(reason)", metadata: ["device": "\(state.device.description.name)", "node": "\(node)"])
        }
        if let device = known.removeValue(forKey: node) { loop?.unwatch(device.fileDescriptor) }
        if live.isEmpty && !saidNoDevices {
            logger.notice("no touch devices left: waiting for one to be plugged in")
            saidNoDevices = true
        }
    }

    private func read(_ device: any TouchDevice) {
        let session = live[device.node]?.session
        do throws(InputError) {
            let present = try device.readPending { event in
                guard let session else { return }  // not used: drained and dropped
                do throws(DecodeError) {
                    try session.process(event)
                } catch {
                    logger.warning("device sent what no device should: contacts reset", metadata: [
                        "device": "\(device.node)", "error": "\(error)",
                    ])
                    session.recover(at: event.time)
                }
            }
            if !present { remove(device.node, reason: "gone") }
        } catch {
            logger.error("cannot read a touch device", metadata: ["device": "\(device.node)", "error": "\(error.message)"])
            remove(device.node, reason: "failed")
        }
    }

    // MARK: - Gestures

    private func observe(_ g: Gesture, _ state: LiveDevice) {
        let line = g.jsonLine(origin: state.session.origin ?? g.startTime)
        if options.printJSON { output(line) }
        // Without a configuration every gesture goes to the clients; with one, those whose
        // action says `emit`.
        if configuration == nil { broadcast(line) }
        observer?(g)
    }

    private func broadcast(_ line: String) {
        guard let server else { return }
        for fd in server.broadcast(line) { loop?.unwatch(fd) }
    }

    /// Each recognizer with an action gets a handler that runs it.
    private func attachActions(_ specs: [ObjectIdentifier: ActionSpec], layout: Layout, node: String) {
        for region in layout.regions {
            for recognizer in region.recognizers {
                guard let action = specs[ObjectIdentifier(recognizer)] else { continue }
                let label = "\(recognizer.name)@\(region.id)"
                recognizer.addHandler { [unowned self] g in
                    let fires = g.kind.isDiscrete ? g.state == .recognized : action.on.contains(g.state)
                    guard fires else { return }
                    let origin = self.live[node]?.session.origin ?? g.startTime
                    if let argv = action.exec {
                        self.actions.start(argv, environment: ActionRunner.environment(g, origin: origin), label: label)
                    }
                    if action.emit { self.broadcast(g.jsonLine(origin: origin)) }
                }
            }
        }
    }

    // MARK: - Reload

    /// Reads the configuration again (SIGHUP). A broken file is reported and the old one stays.
    public func reload() {
        guard let path = options.configPath else {
            logger.notice("reload: no configuration file; the built-in layout stays")
            return
        }
        let fresh: Configuration
        do throws(ServiceError) {
            fresh = try Self.loadConfiguration(path)
        } catch {
            logger.error("configuration not reloaded; the previous one stays", metadata: ["error": "\(error.description)"])
            return
        }
        configuration = fresh
        actions.timeout = fresh.service.actionTimeout
        actions.maximum = fresh.service.maxActions
        actions.allowRoot = fresh.service.actionsAsRoot
        let now = clock.now
        for (node, state) in live {
            state.session.cancel(at: now)
            live[node] = nil
        }
        for device in known.values { use(device) }
        logger.info("configuration reloaded", metadata: ["config": "\(path)", "devices_in_use": "\(live.count)"])
    }
}
