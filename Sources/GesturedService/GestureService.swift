import GestureProtocol
import GesturedConfiguration
import GesturedHTTP
import GesturedRuntime
import GesturedView
import Gestures
import Logging
import SystemLoop
import TouchEvents
import TouchInput

/// `gestured run`: touch devices in, gestures out — to actions, socket clients and stdout.
///
/// Built on ``GestureRuntime`` (the library product apps use for their own closures): the
/// runtime reads the devices, follows hotplug and fires the recognizers' deadlines; the two
/// share one loop (`SharedEventLoop`) on one thread, each registering its own; the service adds the configuration's actions, the client socket,
/// stdout and the signals (SIGHUP reloads, SIGTERM and SIGINT stop). With no finger down and
/// nothing waiting the process sleeps until the next event.
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
        /// Measure every frame's latency (``latency``), for `--latency-report`.
        public var measureLatency = false
        /// What all socket clients together may hold.
        public var budgets = ServiceBudgets()
        /// Serve the live view (`--view ADDRESS`): off when nil.
        public var view: LiveView.Options?
        /// Serve Prometheus metrics at `/metrics` (`--metrics ADDRESS`): off when nil.
        public var metricsAddress: ListenAddress?
        public var environment: [String: String] = [:]

        public init(configPath: String? = nil) {
            self.configPath = configPath
        }
    }

    public let options: Options
    public private(set) var configuration: Configuration?
    /// The loop the service shares with the runtime: each registers its own descriptors,
    /// signals and deadlines on it.
    let loop: SharedEventLoop
    package let runtime: GestureRuntime
    let clock: any TouchClock
    let logger: Logger
    private let output: ([UInt8]) -> Void
    /// The turn's `--json` lines, written at its end in one piece (one system call per turn,
    /// not per line); the capacity is kept from turn to turn.
    private var lines: [UInt8] = []
    private let actions: ActionRunner
    let desktop: DesktopActions
    let focus: FocusTracker
    /// The compositor followed for `when: {app: …}`, if one was found.
    private(set) var compositor: CompositorFocus?
    var server: ClientServer?
    /// The clients' regions in each device's layout (by the layout's identity), while its
    /// session lasts.
    var clientRegions: [ObjectIdentifier: ClientRegions] = [:]
    /// The same, in the order the sessions started (``clientLayers``).
    var clientLayerList: [ClientRegions] = []
    /// Warnings about clients let go for a budget: at most one a second.
    var budgetWarnings = WarningRateLimit()
    /// Warnings about clients sending too fast: at most one a second over all clients.
    var rateWarnings = WarningRateLimit()
    /// About how many bytes clients let go since the heap was last trimmed.
    var freedSinceTrim = 0
    /// When the heap is to be trimmed (at the end of the first turn from then on), if it is.
    var trimAt: Instant?
    /// Each client's share of the requests carried out in the loop's turn `turn`
    /// (``requestsPerTurn``).
    var turnShare: (turn: UInt64, share: Int) = (.max, 0)
    /// The last greeting sent, with its line.
    var greetingCache: (greeting: Greeting, line: String)?
    /// Clients with requests read and not yet carried out, in the order they fell behind.
    var backlogged: [ClientConnection] = []
    /// Tells which process a client's connection comes from (``ServiceBudgets``): the socket's
    /// `SO_PEERCRED`. Tests with every client in one process put another rule here.
    package var clientProcess: (Int32) -> Int32? = UnixSocket.peerProcess
    /// Makes the virtual keyboard and pointer (uinput); tests put recorders in its place.
    public var makeVirtualInput: (VirtualInputKind) throws(InputError) -> any VirtualInputWriter = { kind throws(InputError) in
        try UInputDevice(description: kind.description)
    }
    /// Called with every gesture event (tests, tools).
    public var observer: ((Gesture) -> Void)?
    /// The live view, when served (``Options/view``).
    public private(set) var view: LiveView?
    /// The metrics and their server, when served (``Options/metricsAddress``).
    var metrics: ServiceMetrics?
    private var metricsServer: WebServer?
    /// Where the metrics are served (with the port chosen, for port 0).
    public var metricsAddress: ListenAddress? { metricsServer?.address }

    /// Loads and checks the configuration (refusing one that others may write). `output`
    /// receives the `--json` lines of each turn of the loop, at its end, as UTF-8 (each with its newline; the buffer is reused after).
    public init(options: Options, monitor: any DeviceMonitor, clock: any TouchClock, logger: Logger,
                output: @escaping ([UInt8]) -> Void) throws(ServiceError) {
        self.options = options
        self.clock = clock
        self.logger = logger
        self.output = output
        if let path = options.configPath { configuration = try Self.loadConfiguration(path) }
        let settings = configuration?.service ?? ServiceSettings()
        actions = ActionRunner(timeout: settings.actionTimeout, maximum: settings.maxActions,
                               allowRoot: settings.actionsAsRoot, clock: clock, logger: logger)
        do throws(SystemError) {
            loop = try SharedEventLoop(clock: clock)
        } catch {
            throw .system(error)
        }
        do throws(GestureRuntime.RunError) {
            runtime = try GestureRuntime(source: configuration.map { .configuration($0) } ?? .standard, clock: clock,
                                         logger: logger, loop: loop) { monitor }
        } catch {
            throw ServiceError(error)
        }
        desktop = DesktopActions(logger: logger)
        focus = FocusTracker(logger: logger)
        runtime.onSessionStarted = { [weak self] session in
            self?.attachActions(session)
            self?.applyFocus(to: session)
            self?.installClientRegions(in: session)
            self?.watch(session)
        }
        runtime.onSessionEnded = { [weak self] session in
            self?.view?.remove(session)
            // Its gestures were cancelled, which released their keys; this makes sure.
            for recognizer in Self.configuredRecognizers(of: session.layout) { self?.desktop.release(ObjectIdentifier(recognizer)) }
            self?.clientRegions[ObjectIdentifier(session.layout)] = nil
            self?.clientLayerList.removeAll { $0.layout === session.layout }
        }
        if options.measureLatency { runtime.latency = LatencyMeter() }
        runtime.observer = { [weak self] g, session in self?.observe(g, session) }
        // What the service waits for besides its descriptors (the socket's, its clients', the
        // compositor's: watched as they open): its deadlines, the work of every turn once the
        // events are handled, and the messages to write at its end.
        loop.addTimer(next: { [weak self] in
            guard let self else { return nil }
            // Requests or messages waiting for a turn: the next turn comes at once.
            if !backlogged.isEmpty || server?.hasQueuedOutput == true { return clock.now }
            // The actions', the compositor's, and a trim waiting for clients to settle.
            return [actions.nextDeadline, compositor?.retryAt, trimAt].compactMap { $0 }.min()
        })
        loop.afterEvents { [weak self] in
            self?.serveBacklog()
            self?.tendActions()
            self?.compositor?.tend()
        }
        loop.endOfTurn { [weak self] in self?.flushQueued() }
        focus.onChange = { [weak self] in
            guard let self else { return }
            for session in runtime.sessions { applyFocus(to: session) }
        }
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
    public var devicesInUse: [String] { runtime.sessions.compactMap(\.node) }
    /// The app the `when: {app: …}` gestures compare with (nil: none known).
    public var focusedApp: String? { focus.app }
    /// Keys the virtual keyboard holds for `hold` actions now.
    public var heldKeys: [UInt16] { desktop.heldKeys }
    /// Connected socket clients.
    public var clientCount: Int { server?.clients.count ?? 0 }
    /// Actions running.
    public var runningActions: Int { actions.running.count }
    /// The socket's path, when there is one.
    public var socketPath: String? { server?.path }
    /// What the frames' latency has been so far (with ``Options/measureLatency``).
    public var latency: LatencyMeter? { runtime.latency }

    // MARK: - Running

    /// Sets up the signals and the socket, and takes the devices already present.
    public func start() throws(ServiceError) {
        do throws(SystemError) {
            try loop.handleSignals(Self.handledSignals) { [weak self] signal in self?.handle(signal) }
        } catch {
            throw .system(error)
        }
        Signal.brokenPipe.ignore()
        if !options.noSocket {
            let path = options.socketPath ?? configuration?.service.socket ?? ClientServer.defaultPath(environment: options.environment)
            let limit = UnixSocket.raiseDescriptorLimit()
            let server = try ClientServer(path: path, group: configuration?.service.socketGroup, logger: logger)
            server.peerProcess = clientProcess
            self.server = server
            watchListener()
            // The listener is watched again; the waiting client is accepted in the next turn,
            // on events of its own.
            server.onDescriptorFreed = { [weak self] in self?.watchListener() }
            logger.debug("descriptors", metadata: ["soft_limit": "\(limit)"])
            logger.info("listening for clients", metadata: ["socket": "\(path)"])
        }
        try startViewAndMetrics()
        openVirtualInput()
        followFocus()
        do throws(GestureRuntime.RunError) {
            try runtime.start()
        } catch .alreadyRunning {
            return
        } catch {
            throw ServiceError(error)
        }
    }

    /// Runs until SIGTERM or SIGINT, then shuts down cleanly.
    public func run() throws(ServiceError) {
        try start()
        loop.run()
        shutdown()
    }

    /// Waits up to `timeout` ms for something to happen and handles it; then fires every
    /// deadline that has passed by the service's clock. The loop's timer wakes it at the next
    /// deadline when the clock is one a system timer follows.
    public func runOnce(timeout: Int32) {
        loop.runOnce(timeout: timeout)
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
    public func stop() { loop.stop() }

    /// Cancels what is going on and closes everything.
    public func shutdown() {
        runtime.shutdown()
        writeLines()
        desktop.releaseAll(reason: "stopping")
        compositor?.close()
        server?.shutdown()
        server = nil
        view?.close()
        metricsServer?.close()
        logger.info("stopped")
    }

    private func handle(_ signal: Signal) {
        switch Self.response(to: signal) {
        case .reload: reload()
        case .reapActions: actions.reap()
        case .stop:
            logger.info("stopping", metadata: ["signal": "\(signal.number)"])
            loop.stop()
        case .ignore:
            logger.debug("signal ignored", metadata: ["signal": "\(signal.number)"])
        }
    }

    /// After every wakeup: finished actions are collected, overdue ones stopped.
    private func tendActions() {
        if !actions.running.isEmpty { actions.reap() }
        if let deadline = actions.nextDeadline, deadline <= clock.now { actions.fireDeadlines() }
    }

    // MARK: - Gestures

    private func observe(_ g: Gesture, _ session: DeviceSession) {
        // Gestures on clients' regions go to their clients. Of the service's own: without a
        // configuration every gesture goes to the clients; with one, those whose action says
        // `emit`.
        let owner = g.client.map { (client: $0, id: g.region) }
        let toClients = !(server?.clients.isEmpty ?? true) && (configuration == nil || owner != nil)
        if options.printJSON || toClients {
            let event = GestureEvent(g, origin: session.origin ?? g.startTime)
            if options.printJSON {
                if let owner {
                    // A client's region as the client calls it, and which client.
                    var own = event
                    own.region = owner.id
                    own.client = owner.client
                    own.appendJSONLine(to: &lines)
                } else {
                    event.appendJSONLine(to: &lines)
                }
            }
            if toClients { deliver(event, owner: owner) }
        }
        if let view { view.gesture(g, of: session) }
        if let metrics { metrics.gesture(g, device: session.node ?? session.description.name) }
        observer?(g)
    }

    /// The turn's `--json` lines go out.
    func writeLines() {
        guard !lines.isEmpty else { return }
        output(lines)
        lines.removeAll(keepingCapacity: true)
    }

    /// Each recognizer with an action gets a handler that runs it.
    private func attachActions(_ session: DeviceSession) {
        // Layout units to mm, for scroll and pointer ratios.
        let scale = session.mapping.scale
        let millimetresPerUnit = scale > 0 ? 1 / scale : 1
        for region in ClientRegions.configuredRegions(of: session.layout) {
            for recognizer in region.recognizers {
                guard let action = session.actions[ObjectIdentifier(recognizer)] else { continue }
                let label = "\(recognizer.name)@\(region.id)"
                let id = ObjectIdentifier(recognizer)
                recognizer.addHandler { [weak self, weak session] g in
                    guard let self else { return }
                    if action.usesKeyboard || action.usesPointer {
                        self.desktop.perform(action, g, recognizer: id, label: label, millimetresPerUnit: millimetresPerUnit)
                    }
                    let fires = g.kind.isDiscrete ? g.state == .recognized : action.on.contains(g.state)
                    guard fires else { return }
                    let origin = session?.origin ?? g.startTime
                    if let argv = action.exec {
                        self.actions.start(argv, environment: ActionRunner.environment(GestureEvent(g, origin: origin)), label: label)
                    }
                    if action.emit { self.deliver(GestureEvent(g, origin: origin), owner: nil) }
                }
            }
        }
    }

    // MARK: - The live view and the metrics

    /// Serves what the options ask for; the view's address is logged with its token.
    private func startViewAndMetrics() throws(ServiceError) {
        if let address = options.metricsAddress {
            let metrics = ServiceMetrics()
            self.metrics = metrics
            do throws(SystemError) {
                metricsServer = try WebServer(address: address, loop: loop, clock: clock, logger: logger) { [weak self] request in
                    guard request.path == "/metrics", let self else {
                        return .respond(.text(404, "no such page: the metrics are at /metrics"))
                    }
                    let body = metrics.exposition(devices: runtime.sessions.count, clients: clientCount)
                    return .respond(HTTPResponse(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: body))
                }
            } catch {
                throw .system(SystemError(path: error.path, message: "cannot serve the metrics: \(error.message)"))
            }
            runtime.onFrameHandled = { [unowned(unsafe) metrics] eventTime, handledAt in
                metrics.frameHandled(eventTime: eventTime, handledAt: handledAt)
            }
            runtime.onDeviceTrouble = { [unowned(unsafe) metrics] trouble, session in
                metrics.trouble(trouble, device: session.node ?? session.description.name)
            }
            actions.onOutcome = { [unowned(unsafe) metrics] outcome in metrics.action(outcome) }
            logger.info("serving metrics", metadata: ["address": "http://\(metricsServer!.address)/metrics"])
        }
        if let options = options.view {
            do throws(LiveView.SetupError) {
                view = try LiveView(options: options, loop: loop, clock: clock, logger: logger, source: "live",
                                    title: configuration?.path ?? "the built-in layout")
            } catch {
                throw .view(error)
            }
            logger.notice("serving the live view: open this address (it holds the token)", metadata: ["address": "\(view!.url)"])
        }
    }

    /// A session's frames and failures for the view and the metrics, when served.
    private func watch(_ session: DeviceSession) {
        guard view != nil || metrics != nil else { return }
        if let view {
            view.add(session)
            session.afterFrame = { [unowned(unsafe) view, unowned(unsafe) session] frame in view.frame(frame, of: session) }
        }
        let metrics = self.metrics
        let view = self.view
        session.pipeline.failureObserver = { [unowned(unsafe) session] recognizer, reason, time in
            metrics?.failure(kind: recognizer.kind, reason: reason)
            view?.failure(recognizer, reason: reason, at: time, of: session)
        }
    }

    // MARK: - Desktop actions and focus

    /// The virtual keyboard and pointer the configuration's actions need, made once (a reload
    /// may add one). Without uinput the service says so and runs on without those actions.
    private func openVirtualInput() {
        guard let configuration else { return }
        let specs = configuration.gestures.compactMap(\.action)
        let needed: [(VirtualInputKind, Bool)] = [(.keyboard, specs.contains { $0.usesKeyboard }), (.pointer, specs.contains { $0.usesPointer })]
        for (kind, needs) in needed where needs && (kind == .keyboard ? desktop.keyboard : desktop.pointer) == nil {
            do throws(InputError) {
                let device = try makeVirtualInput(kind)
                if kind == .keyboard { desktop.keyboard = device } else { desktop.pointer = device }
                logger.info("virtual \(kind.rawValue) ready", metadata: ["name": "\(kind.description.name)", "node": "\((device as? UInputDevice)?.node ?? "-")"])
            } catch {
                let what = kind == .keyboard ? "key and hold" : "button, scroll and pointer"
                logger.error("no virtual \(kind.rawValue): \(what) actions are off until uinput is writable (/dev/uinput: the gestured group, see docs/desktop.md)",
                             metadata: ["error": "\(error.message)"])
            }
        }
    }

    /// Starts following the compositor's focus when some gesture has `when: {app: …}`.
    private func followFocus() {
        guard let configuration, compositor == nil,
              configuration.gestures.contains(where: { $0.when != nil }) else { return }
        guard let found = CompositorFocus.detect(environment: options.environment) else {
            logger.notice("when: {app: …} gestures follow socket clients' context: no compositor found (SWAYSOCK, HYPRLAND_INSTANCE_SIGNATURE)")
            return
        }
        let c = CompositorFocus(found, focus: focus, clock: clock, logger: logger,
                                watch: { [weak self] fd, handler in self?.loop.watch(fd, handler) },
                                unwatch: { [weak self] fd in self?.loop.unwatch(fd) })
        compositor = c
        c.connect()
    }

    /// The recognizers of the configuration's regions (``ClientRegions/configuredRegions(of:)``).
    static func configuredRecognizers(of layout: Layout) -> [GestureRecognizer] {
        ClientRegions.configuredRegions(of: layout).flatMap(\.recognizers)
    }

    /// Enables the session's `when` gestures whose app has the focus, disables the others
    /// (a touch sequence already under way keeps what it began with).
    private func applyFocus(to session: DeviceSession) {
        guard !session.conditions.isEmpty else { return }
        for recognizer in Self.configuredRecognizers(of: session.layout) {
            guard let condition = session.conditions[ObjectIdentifier(recognizer)] else { continue }
            recognizer.isEnabled = condition.holds(focusedApp: focus.app)
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
        runtime.replaceSource(.configuration(fresh))
        desktop.releaseAll(reason: "reload")
        openVirtualInput()
        followFocus()
        logger.info("configuration reloaded", metadata: ["config": "\(path)", "devices_in_use": "\(devicesInUse.count)"])
    }
}
