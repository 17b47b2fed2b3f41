import GestureProtocol
import GestureConfiguration
import GestureRuntime
import GestureView
import Gestures
import Logging
import SystemBus
import SystemLoop
import TouchEvents
import TouchInput

/// `gestured run`: touch devices in, gestures out — to actions, socket clients, the system bus
/// and stdout.
///
/// The composition root of four users of one `SharedEventLoop` on one thread:
/// ``GestureRuntime`` (the library product apps use for their own closures: it reads the
/// devices, follows hotplug and fires the recognizers' deadlines), the ``ClientHub`` (the
/// socket), the ``ActionDispatcher`` (the configuration's actions and the focus) and
/// ``ServiceObservability`` (the live view and the metrics). The root wires them, routes each
/// gesture, prints `--json` and handles the signals (SIGHUP reloads, SIGTERM and SIGINT stop).
/// With no finger down and nothing waiting the process sleeps until the next event.
public final class GestureService {
    public let options: Options
    public internal(set) var configuration: Configuration?
    /// The loop the service's parts share with the runtime.
    let loop: SharedEventLoop
    package let runtime: GestureRuntime
    let clock: any TouchClock
    let logger: Logger
    let hub: ClientHub
    let dispatcher: ActionDispatcher
    let observability: ServiceObservability
    private let output: ([UInt8]) -> Void
    /// The turn's `--json` lines, written at its end in one piece (one system call per turn,
    /// not per line); the capacity is kept from turn to turn.
    private var lines: [UInt8] = []
    /// Tells which process a client's connection comes from (``ServiceBudgets``): the socket's
    /// `SO_PEERCRED`. Tests with every client in one process put another rule here.
    package var clientProcess: (Int32) -> Int32? = UnixSocket.peerProcess
    /// Called with every gesture event (tests, tools).
    public var observer: ((Gesture) -> Void)?
    /// The service on the system bus (``Options/dbus``), once connected.
    var bus: BusInterface?
    /// The system bus, for the service's own object (`--dbus`), the accelerometer and the
    /// machine's wakes (``openSystemBus()``).
    var systemBus: SystemBus?
    /// Whether connecting was tried (once: a bus that is not there is not looked for again).
    var triedSystemBus = false

    /// Loads and checks the configuration (refusing one that others may write). `output`
    /// receives the `--json` lines of each turn of the loop, at its end, as UTF-8 (each with its newline; the buffer is reused after).
    public init(options: Options, monitor: any DeviceMonitor, clock: any TouchClock, logger: Logger,
                output: @escaping ([UInt8]) -> Void) throws(ServiceError) {
        self.options = options
        self.clock = clock
        self.logger = logger
        self.output = output
        if let path = options.configPath { configuration = try Self.loadConfiguration(path) }
        do throws(SystemError) {
            loop = try SharedEventLoop(clock: clock)
        } catch {
            throw .system(error)
        }
        dispatcher = ActionDispatcher(settings: configuration?.service ?? ServiceSettings(), loop: loop, clock: clock, logger: logger)
        do throws(GestureRuntime.RunError) {
            runtime = try GestureRuntime(source: configuration.map { [dispatcher] in .rules(dispatcher.rules(of: $0)) } ?? .standard,
                                         clock: clock, logger: logger, loop: loop) { monitor }
        } catch {
            throw ServiceError(error)
        }
        observability = ServiceObservability()
        hub = ClientHub(loop: loop, logger: logger, budgets: options.budgets, focus: dispatcher.focus, observability: observability)
        wire()
        if options.measureLatency { runtime.latency = LatencyMeter() }
        if options.readsQuirks { runtime.readSystemQuirks() }
        if options.findsCompositor { runtime.findCompositor = RunningCompositor.finder() }
    }

    /// Each part hears what it needs of the others.
    private func wire() {
        runtime.onSessionStarted = { [weak self] session in
            self?.dispatcher.attach(session)
            self?.hub.install(in: session.layout)
            self?.observability.watch(session)
            self?.bus?.devicesChanged()
        }
        runtime.onSessionEnded = { [weak self] session in
            self?.observability.remove(session)
            self?.dispatcher.sessionEnded(session)
            self?.hub.remove(session.layout)
            self?.bus?.devicesChanged()
        }
        runtime.observer = { [weak self] g, session in self?.route(g, session) }
        hub.greeting = { [weak self] in self?.greeting ?? ClientHub.emptyGreeting }
        dispatcher.emit = { [weak self] event in
            guard let self else { return }
            hub.deliver(event, client: nil)
            bus?.emit(event, now: clock.now)
        }
        dispatcher.runner.onOutcome = { [weak self] outcome in self?.observability.action(outcome) }
        dispatcher.focus.onChange = { [weak self] in
            guard let self else { return }
            for session in runtime.sessions { dispatcher.applyFocus(to: session) }
        }
        dispatcher.screens.onChange = { [weak self] before in self?.screensChanged(from: before) }
        dispatcher.runningCompositor = { [weak self] in self?.runtime.findCompositor() }
        // What the service waits for besides its descriptors: its parts' deadlines, the work of
        // every turn once the events are handled, and the messages to write at its end. These
        // three run on every turn (every frame of a device): they hold the service unowned, and
        // the service takes them back when it goes (deinit), as the runtime does with its own;
        // a weak reference cost a load and a count on each call. (So the service must not be
        // let go from within a turn of its loop — an observer dropping the last reference —
        // which nothing here does.) The deadline is the earlier of two, compared, not arrays
        // made and searched on every turn.
        let me = ObjectIdentifier(self)
        loop.addTimer(owner: me, next: { [unowned(unsafe) self] in
            if hub.wantsTurnNow { return clock.now }
            return Instant.earliest(dispatcher.nextDeadline, hub.trimAt)
        })
        loop.afterEvents(owner: me) { [unowned(unsafe) self] in
            hub.serveBacklog()
            dispatcher.tend()
        }
        loop.endOfTurn(owner: me) { [unowned(unsafe) self] in
            writeLines()
            hub.flushQueued()
        }
    }

    deinit {
        loop.removeWork(of: ObjectIdentifier(self))
    }

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
            try hub.listen(path: path, group: configuration?.service.socketGroup, peerProcess: clientProcess)
        }
        try observability.start(metricsAddress: options.metricsAddress, viewOptions: options.view,
                                title: configuration?.path ?? "the built-in layout", runtime: runtime, loop: loop, clock: clock,
                                logger: logger, counts: { [weak self] in (self?.runtime.sessions.count ?? 0, self?.clientCount ?? 0) })
        if options.dbus { openSystemBus() }
        if options.dbus, let systemBus {
            do throws(SystemBusError) {
                bus = try BusInterface(bus: systemBus, logger: logger) { [weak self] in self?.greeting ?? ClientHub.emptyGreeting }
                logger.info("on the system bus", metadata: ["name": "\(BusInterface.name)"])
            } catch {
                logger.warning("not on the system bus: going on without it", metadata: ["error": "\(error)"])
            }
        }
        if let configuration { followTheDesktop(configuration) }
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

    /// Asks the loop to end (as SIGTERM does).
    public func stop() { loop.stop() }

    /// Cancels what is going on and closes everything.
    public func shutdown() {
        runtime.shutdown()
        writeLines()
        dispatcher.shutdown()
        hub.shutdown()
        observability.close()
        systemBus?.close()
        logger.info("stopped")
    }

    // MARK: - Gestures

    /// Each gesture: to stdout with `--json`; to the clients (gestures on a client's region to
    /// that client; of the service's own, every gesture without a configuration, with one none
    /// here: those whose action says `emit` go from the ``ActionDispatcher``); to the view and
    /// the metrics; to ``observer``.
    private func route(_ g: Gesture, _ session: DeviceSession) {
        let toClients = hub.clientCount > 0 && (configuration == nil || g.namespace != nil)
        // The bus has the service's own gestures a client subscribed to everything gets.
        let toBus = bus != nil && configuration == nil && g.namespace == nil
        if options.printJSON || toClients || toBus {
            let event = GestureEvent(g, origin: session.origin ?? g.startTime)
            if toBus { bus?.emit(event, now: g.time) }
            if options.printJSON {
                // A client's region (as the client calls it) says which client.
                var printed = event
                printed.client = g.namespace
                printed.appendJSONLine(to: &lines)
            }
            if toClients { hub.deliver(event, client: g.namespace) }
        }
        observability.gesture(g, of: session)
        observer?(g)
    }

    /// The turn's `--json` lines go out.
    func writeLines() {
        guard !lines.isEmpty else { return }
        output(lines)
        lines.removeAll(keepingCapacity: true)
    }
}
