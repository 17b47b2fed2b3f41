import GestureProtocol
import Gestures
import Logging
import SystemLoop
import TouchEvents

/// The socket's side of the service (protocol v1, docs/protocol.md): connections, greeting,
/// requests and replies, subscriptions, the budgets all clients share, and clients' own regions
/// — added to every device's layout above the service's regions, their gestures sent only to
/// the client that registered them, and removed when it goes.
///
/// One user of the service's `SharedEventLoop`: it watches the listener and each client's
/// descriptor; the service's composition root (``GestureService``) calls
/// ``serveBacklog()`` after each turn's events and ``flushQueued()`` at its end.
final class ClientHub {
    let loop: SharedEventLoop
    let logger: Logger
    /// What all clients together may hold.
    let budgets: ServiceBudgets
    /// Clients' `context` reports say which app has the focus.
    let focus: FocusTracker
    /// Refused requests and clients' regions changing, for the view and the metrics.
    let observability: ServiceObservability
    /// The greeting as it stands (the devices and layouts of the moment).
    var greeting: () -> Greeting = { ClientHub.emptyGreeting }
    /// The greeting of a service with no device and no layout yet.
    static let emptyGreeting = Greeting(service: GestureService.version, devices: [], layouts: [])
    /// The socket and its clients, once ``listen(path:group:)`` made it.
    private(set) var server: ClientServer?
    /// The clients' regions in each device's layout, in the order the devices' sessions
    /// started (kept as they start and end: a request does not walk the device table).
    private(set) var clientLayers: [ClientRegions] = []
    /// Warnings about clients let go for a budget: at most one a second.
    private var budgetWarnings = WarningRateLimit()
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
    private var greetingCache: (greeting: Greeting, line: String)?
    /// Clients with requests read and not yet carried out, in the order they fell behind.
    var backlogged: [ClientConnection] = []

    init(loop: SharedEventLoop, logger: Logger, budgets: ServiceBudgets, focus: FocusTracker, observability: ServiceObservability) {
        self.loop = loop
        self.logger = logger
        self.budgets = budgets
        self.focus = focus
        self.observability = observability
    }

    /// Listens on the socket at `path` (its group `group`); `peerProcess` tells which process
    /// a connection comes from (``ServiceBudgets``).
    func listen(path: String, group: String?, peerProcess: @escaping (Int32) -> Int32?) throws(ServiceError) {
        let limit = UnixSocket.raiseDescriptorLimit()
        let server = try ClientServer(path: path, group: group, logger: logger)
        server.peerProcess = peerProcess
        self.server = server
        watchListener()
        // The listener is watched again; the waiting client is accepted in the next turn,
        // on events of its own.
        server.onDescriptorFreed = { [weak self] in self?.watchListener() }
        logger.debug("descriptors", metadata: ["soft_limit": "\(limit)"])
        logger.info("listening for clients", metadata: ["socket": "\(path)"])
    }

    /// The loop's clock.
    var clock: any TouchClock { loop.clock }

    /// Requests or messages wait for a turn: the next turn must come at once.
    var wantsTurnNow: Bool { !backlogged.isEmpty || server?.hasQueuedOutput == true }

    /// Connected clients.
    var clientCount: Int { server?.clients.count ?? 0 }

    /// Every connected client's context (`app` and whatever else clients say), by client.
    var clientContexts: [Int: [String: String]] {
        var out: [Int: [String: String]] = [:]
        for c in server?.clients.values ?? [:].values { out[c.number] = c.context }
        return out
    }

    /// Regions registered by clients, over all clients.
    var clientRegionCount: Int { server?.clients.values.reduce(0) { $0 + $1.regions.count } ?? 0 }

    /// Closes every connection and the socket.
    func shutdown() {
        server?.shutdown()
        server = nil
    }

    // MARK: - Connections

    /// Waits for clients on the socket.
    func watchListener() {
        guard let server else { return }
        loop.watch(server.listener) { [weak self] _ in self?.acceptClients() }
    }

    func acceptClients() {
        guard let server else { return }
        for client in server.acceptClients(now: clock.now) {
            loop.pollUrgentIfDue()
            if server.clients.count > budgets.clients {
                let victim = server.victim(requester: client) { _ in 1 }
                letGo(victim, "the service has \(budgets.clients) connections, as many as it takes, and this client's process has the most")
                if victim === client { continue }
            }
            loop.watch(client.fd) { [weak self] event in self?.clientEvent(client, event) }
            send(line: greetingLine(), to: client)
        }
        // Out of descriptors the listener stays readable: not watched until a client leaves.
        if server.outOfDescriptors { loop.unwatch(server.listener) }
    }

    /// The greeting's line, made again only when what it says has changed (a connection
    /// storm costs no JSON per connection).
    private func greetingLine() -> String {
        let now = greeting()
        if let cached = greetingCache, cached.greeting == now { return cached.line }
        let line = ServiceMessage.greeting(now).jsonLine
        greetingCache = (now, line)
        return line
    }

    private func clientEvent(_ client: ClientConnection, _ event: EventLoop.Event) {
        guard let server, server.clients[client.fd] === client else { return }
        switch event {
        case .hangup:
            forget(client, reason: nil)
        case .readable:
            // A client holding what it sent before is read no further until that is taken:
            // its socket stays readable, and the kernel holds the rest.
            loop.pollUrgentIfDue()
            if !client.closing {
                server.read(client, turn: loop.turn, ready: loop.deferredEventCount)
                keepInputWithinBudget(reading: client)
            }
            serve(client)
        case .writable:
            server.writable(client.fd)
            if client.output.isEmpty { loop.setWritable(client.fd, false) }
        case .timer, .signal, .wakeUp:
            break
        }
    }

    /// The client is gone (or dropped): its regions leave every layout.
    func forget(_ client: ClientConnection, reason: String?) {
        release(client)
        server?.remove(client.fd, reason: reason)
        giveMemoryBack()
    }

    /// Lets `client` go for a budget: a `service-full` error saying `why` (if its socket takes
    /// it now), then the connection closes; the warning is logged at most once a second.
    func letGo(_ client: ClientConnection, _ why: String) {
        guard let server, server.clients[client.fd] === client else { return }
        if let heldBack = budgetWarnings.allow(at: clock.now) {
            logger.warning("socket client let go: the service is full", metadata: [
                "client": "\(client.number)", "why": "\(why)", "more_since_last_warning": "\(heldBack)",
            ])
        }
        release(client)
        observability.refused(code: ProtocolError.Code.serviceFull.rawValue)
        server.sayAndClose(client, ServiceMessage.error(ProtocolError(.serviceFull, why)).jsonLine)
        giveMemoryBack()
    }

    /// What the client held in the service goes: its focus report, its regions in every
    /// layout, the loop's watch.
    private func release(_ client: ClientConnection) {
        focus.forget("client \(client.number)")
        if !client.regions.isEmpty {
            for layer in clientLayers { layer.removeAll(client: client.number) }
            observability.clientLayoutsChanged(clientLayers.map(\.layout))
        }
        // About what a region costs in each layout (the region, its recognizers, the index).
        freedSinceTrim += client.regions.count * 4096 * max(1, clientLayers.count)
            + client.output.capacity + client.input.pendingBytes
        client.regions.removeAll()
        loop.unwatch(client.fd)
    }

    /// Asks for the heap's free memory to go back to the system once clients let 4 MiB or
    /// more go, or the last one has gone: a crowd that leaves does not leave the service
    /// holding what it took. The trim (it walks the heap) comes at the end of a turn
    /// (``flushQueued()``), never in the middle of a frame's handling, and only once clients
    /// have let nothing go for a quarter of a second (at once when none is left): not again
    /// and again while a crowd comes and goes.
    private func giveMemoryBack() {
        let now = clock.now
        if server?.clients.isEmpty ?? true {
            trimAt = now
        } else if trimAt != nil || freedSinceTrim >= 4 * 1024 * 1024 {
            trimAt = now + .milliseconds(250)
        }
    }

    /// Unfinished lines of all clients past their budget: the process holding the most lets
    /// its connection holding the most go, until they fit.
    private func keepInputWithinBudget(reading client: ClientConnection) {
        while let server, server.pendingInputBytes > budgets.inputBytes {
            let victim = server.victim(requester: client) { $0.input.pendingBytes }
            guard server.clients[victim.fd] === victim else { break }
            letGo(victim, "unfinished lines of all clients take more than \(budgets.inputBytes) bytes, and this client's process holds the most")
        }
    }

    /// Output queued for all clients past its budget: the same, by queued bytes.
    private func keepOutputWithinBudget(sending client: ClientConnection) {
        while let server, server.queuedBytes > budgets.outputBytes {
            let victim = server.victim(requester: client) { $0.output.count }
            guard server.clients[victim.fd] === victim else { break }
            letGo(victim, "messages waiting for all clients take more than \(budgets.outputBytes) bytes, and this client's process has the most not read")
        }
    }

    /// Sends `message` to `client`; a client too far behind is dropped.
    @discardableResult
    func send(_ message: ServiceMessage, to client: ClientConnection) -> Bool {
        send(line: message.jsonLine, to: client)
    }

    /// Sends a line already made (one gesture to many clients is encoded once). Unless
    /// `flushNow`, it is only queued, and written once the turn's devices are read: a gesture
    /// for many clients costs its frame no system call.
    @discardableResult
    func send(line: String, to client: ClientConnection, flushNow: Bool = true) -> Bool {
        guard let server else { return false }
        guard server.send(line, to: client, now: clock.now, flushNow: flushNow) else {
            forget(client, reason: nil)
            return false
        }
        if !client.output.isEmpty { loop.setWritable(client.fd, true) }
        if server.queuedBytes > budgets.outputBytes {
            keepOutputWithinBudget(sending: client)
            return server.clients[client.fd] === client
        }
        return true
    }

    // MARK: - Regions in the layouts

    /// Adds every client's regions to a new device's layout.
    func install(in layout: Layout) {
        let layer = ClientRegions(layout: layout)
        clientLayers.append(layer)
        guard let server else { return }
        for client in server.clients.values.sorted(by: { $0.number < $1.number }) {
            for region in client.regions { layer.install(region, client: client.number) }
        }
    }

    /// A device's layout is gone with its session: its clients' regions too.
    func remove(_ layout: Layout) {
        clientLayers.removeAll { $0.layout === layout }
    }

    // MARK: - Gestures to clients

    /// A gesture on a client's region goes to that client only (its region is the client's
    /// own id for it); any other to every client whose subscription takes it.
    /// `client`: the client whose region it is (``Gesture/namespace``).
    func deliver(_ event: GestureEvent, client owner: Int?) {
        guard let server else { return }
        if let owner {
            guard let client = server.clients.values.first(where: { $0.number == owner }) else { return }
            send(line: ServiceMessage.gesture(event).jsonLine, to: client, flushNow: false)
            return
        }
        var line: String?
        for client in Array(server.clients.values) {
            guard let filter = client.filter, filter.matches(event) else { continue }
            if line == nil { line = ServiceMessage.gesture(event).jsonLine }
            send(line: line!, to: client, flushNow: false)
        }
    }
}
