import GestureProtocol
import GesturedConfiguration
import GesturedRuntime
import Gestures
import SystemLoop
import TouchEvents

/// The socket's side of the service (protocol v1, docs/protocol.md): greeting, requests and
/// replies, subscriptions, and clients' own regions — added to every device's layout above the
/// service's regions, their gestures sent only to the client that registered them, and removed
/// when it goes.
extension GestureService {
    /// The service's version, as the greeting tells it (`gestured --version` says the same).
    public static let version = "0.1.0"

    /// Every connected client's context (`app` and whatever else clients say), by client.
    public var clientContexts: [Int: [String: String]] {
        var out: [Int: [String: String]] = [:]
        for c in server?.clients.values ?? [:].values { out[c.number] = c.context }
        return out
    }

    /// Regions registered by clients, over all clients.
    public var clientRegionCount: Int { server?.clients.values.reduce(0) { $0 + $1.regions.count } ?? 0 }

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
            if server.clients.count > options.budgets.clients {
                let victim = server.victim(requester: client) { _ in 1 }
                letGo(victim, "the service has \(options.budgets.clients) connections, as many as it takes, and this client's process has the most")
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
        let now = greeting
        if let cached = greetingCache, cached.greeting == now { return cached.line }
        let line = ServiceMessage.greeting(now).jsonLine
        greetingCache = (now, line)
        return line
    }

    var greeting: Greeting {
        let devices = runtime.sessions.map { s in
            Greeting.Device(name: s.description.name, kind: s.description.kind == .touchpad ? "touchpad" : "touchscreen", node: s.node)
        }
        let layouts = configuration.map { $0.layouts.map(\.id) } ?? ["root"]
        return Greeting(service: Self.version, devices: devices, layouts: layouts)
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
        metrics?.refused(code: ProtocolError.Code.serviceFull.rawValue)
        server.sayAndClose(client, ServiceMessage.error(ProtocolError(.serviceFull, why)).jsonLine)
        giveMemoryBack()
    }

    /// What the client held in the service goes: its focus report, its regions in every
    /// layout, the loop's watch.
    private func release(_ client: ClientConnection) {
        focus.forget("client \(client.number)")
        if !client.regions.isEmpty {
            for layer in clientLayers { layer.removeAll(client: client.number) }
            view?.layoutChanged(clientLayers.map(\.layout))
        }
        // About what a region costs in each layout (the region, its recognizers, the index).
        freedSinceTrim += client.regions.count * 4096 * max(1, clientLayerList.count)
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
        while let server, server.pendingInputBytes > options.budgets.inputBytes {
            let victim = server.victim(requester: client) { $0.input.pendingBytes }
            guard server.clients[victim.fd] === victim else { break }
            letGo(victim, "unfinished lines of all clients take more than \(options.budgets.inputBytes) bytes, and this client's process holds the most")
        }
    }

    /// Output queued for all clients past its budget: the same, by queued bytes.
    private func keepOutputWithinBudget(sending client: ClientConnection) {
        while let server, server.queuedBytes > options.budgets.outputBytes {
            let victim = server.victim(requester: client) { $0.output.count }
            guard server.clients[victim.fd] === victim else { break }
            letGo(victim, "messages waiting for all clients take more than \(options.budgets.outputBytes) bytes, and this client's process has the most not read")
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
        if server.queuedBytes > options.budgets.outputBytes {
            keepOutputWithinBudget(sending: client)
            return server.clients[client.fd] === client
        }
        return true
    }

    // MARK: - Requests

    /// Requests carried out in one turn of the loop, over all clients: each client with
    /// requests waiting gets its share of them (at least 1), and what it sent beyond waits for
    /// the next turns, which come at once. Bytes read bound what a turn reads; this bounds what
    /// it does (a flood of small requests, each answered, costs per request), so a turn ends
    /// soon and a client's next request waits for at most about one request of each other
    /// client's: with 100 clients flooding, a ping is answered within two turns of about 100
    /// requests each.
    static let requestsPerTurn = 128

    /// Carries out `client`'s queued requests, up to its share of this turn's; a client with
    /// requests left waits in ``backlogged``; one that closed its side is forgotten once
    /// answered.
    func serve(_ client: ClientConnection) {
        guard let server, server.clients[client.fd] === client else { return }
        client.servedTurn = loop.turn
        var allowed = requestShare()
        var drained = false
        while allowed > 0 {
            guard let request = server.nextRequest(client) else {
                drained = true
                break
            }
            allowed -= 1
            handle(request, from: client)
            loop.pollUrgentIfDue()
            guard server.clients[client.fd] === client else { return }
        }
        if drained {
            if client.closing { forget(client, reason: nil) }
        } else if !backlogged.contains(where: { $0 === client }) {
            backlogged.append(client)
        }
    }

    /// Each client's share of this turn's requests: ``requestsPerTurn`` divided among the
    /// clients that may be served in it, those reported ready in it and those that fell behind
    /// before (worked out at the turn's first request, before anyone falls behind in it; the
    /// count is of all the turn's ready descriptors, so the share errs small).
    private func requestShare() -> Int {
        if turnShare.turn != loop.turn {
            let contenders = loop.deferredEventCount + backlogged.count
            turnShare = (loop.turn, max(1, Self.requestsPerTurn / max(1, contenders)))
        }
        return turnShare.share
    }

    /// At the end of each turn: the gestures queued for clients are written, and the heap
    /// trimmed when its time has come (``giveMemoryBack()``).
    func flushQueued() {
        writeLines()
        for client in server?.flushQueued(between: { loop.pollUrgentIfDue() }) ?? [] {
            loop.setWritable(client.fd, true)  // the rest when its socket takes more
        }
        if let at = trimAt, clock.now >= at {
            FreedMemory.release()
            trimAt = nil
            freedSinceTrim = 0
        }
    }

    /// After each turn's events: the clients that fell behind and were not reported ready in
    /// this turn (all they sent is read, waiting in their line framers) get their share of it.
    func serveBacklog() {
        guard !backlogged.isEmpty else { return }
        _ = requestShare()  // counting those behind, before they are taken from the list
        let waiting = backlogged
        backlogged.removeAll()
        for client in waiting {
            if client.servedTurn == loop.turn {
                backlogged.append(client)
            } else {
                serve(client)
            }
        }
    }

    private func handle(_ result: Result<ClientMessage, ProtocolError>, from client: ClientConnection) {
        do {
            guard client.spend(now: clock.now) else {
                refuseForRate(client, id: try? result.get().id)
                return
            }
            switch result {
            case .failure(let error):
                logger.debug("socket client request refused", metadata: ["client": "\(client.number)", "error": "\(error)"])
                metrics?.refused(code: error.code.rawValue)
                send(.error(error), to: client)
            case .success(let message):
                do throws(ProtocolError) {
                    try carryOut(message.request, for: client)
                    send(message.request == .ping ? .pong(id: message.id)
                        : .reply(id: message.id, request: message.request.type, ignored: message.ignored), to: client)
                } catch {
                    var e = error
                    e.id = message.id
                    logger.debug("socket client request refused", metadata: ["client": "\(client.number)", "error": "\(e)"])
                    metrics?.refused(code: e.code.rawValue)
                    send(.error(e), to: client)
                }
            }
        }
    }

    /// A flood: the request is not carried out and its reply says so (a client that sends
    /// without reading is dropped by its backlog); the log says it at most once a second for
    /// the client, with the count since, and once a second over all clients.
    private func refuseForRate(_ client: ClientConnection, id: JSONValue?) {
        let now = clock.now
        // Once a second for the client, and once a second for all clients together: a crowd of
        // flooding clients writes one line a second.
        if let heldBack = client.rateWarnings.allow(at: now), let othersHeldBack = rateWarnings.allow(at: now) {
            logger.warning("socket client rate-limited", metadata: [
                "client": "\(client.number)", "refused": "\(heldBack + 1)", "other_clients_since_last_warning": "\(othersHeldBack)",
            ])
        }
        let message = "more than \(Int(ProtocolLimits.requestsPerSecond)) requests a second (bursts of \(Int(ProtocolLimits.requestBurst))): not carried out"
        metrics?.refused(code: ProtocolError.Code.rateLimited.rawValue)
        send(.error(ProtocolError(.rateLimited, message, id: id)), to: client)
    }

    /// What a log may say of a client's context: each key (at most 10, each cut to 16
    /// characters) with its value's length and first 8 characters.
    static func summary(of context: [String: String]) -> String {
        let keys = context.keys.sorted()
        var parts = keys.prefix(10).map { key in
            let value = context[key] ?? ""
            let prefix = value.count > 8 ? String(value.prefix(8)) + "…" : value
            return "\(key.prefix(16)): \(value.count) chars \"\(prefix)\""
        }
        if keys.count > 10 { parts.append("… \(keys.count - 10) more") }
        return parts.joined(separator: ", ")
    }

    private func carryOut(_ request: ClientRequest, for client: ClientConnection) throws(ProtocolError) {
        switch request {
        case .ping:
            break
        case .subscribe(let filter):
            client.filter = filter
        case .unsubscribe:
            client.filter = nil
        case .context(let context):
            client.context = context
            // A client's words are not the operator's to keep (window titles): at debug, the
            // keys with their lengths and a short prefix, never the whole.
            logger.debug("socket client context", metadata: ["client": "\(client.number)", "context": "\(Self.summary(of: context))"])
            if let app = context["app"] {
                focus.report(app.isEmpty ? nil : app, from: "client \(client.number)")
            } else {
                focus.forget("client \(client.number)")
            }
        case .register(let region):
            guard !client.regions.contains(where: { $0.id == region.id }) else {
                throw ProtocolError(.duplicateID, field: "region.id", "this client already has a region \"\(region.id)\": update or unregister it")
            }
            if let parent = region.parent, !client.regions.contains(where: { $0.id == parent }) {
                throw ProtocolError(.unknownRegion, field: "region.parent", "this client has no region \"\(parent)\" to put \"\(region.id)\" in")
            }
            guard client.regions.count < ProtocolLimits.maximumRegions else {
                throw ProtocolError(.tooManyRegions, field: "region", "this client has \(client.regions.count) regions, as many as it may")
            }
            if let server, clientRegionCount >= options.budgets.regions {
                let victim = server.victim(requester: client, extra: 1) { $0.regions.count }
                let why = "the service holds \(options.budgets.regions) regions of all clients, as many as it takes, and this client's process holds the most"
                if victim === client { throw ProtocolError(.serviceFull, field: "region", why) }
                letGo(victim, why)
            }
            client.regions.append(region)
            for layer in clientLayers { layer.install(region, client: client.number) }
            view?.layoutChanged(clientLayers.map(\.layout))
        case .update(let update):
            guard let i = client.regions.firstIndex(where: { $0.id == update.id }) else {
                throw ProtocolError(.unknownRegion, field: "region.id", "this client has no region \"\(update.id)\"")
            }
            if let f = update.frame { client.regions[i].frame = f }
            if let h = update.hitInsets { client.regions[i].hitInsets = h }
            if let h = update.hidden { client.regions[i].hidden = h }
            if let e = update.enabled { client.regions[i].enabled = e }
            for layer in clientLayers { layer.update(client.regions[i], client: client.number) }
            view?.layoutChanged(clientLayers.map(\.layout))
        case .unregister(let id):
            guard client.regions.contains(where: { $0.id == id }) else {
                throw ProtocolError(.unknownRegion, field: "region", "this client has no region \"\(id)\"")
            }
            for layer in clientLayers { layer.remove(id, client: client.number) }
            view?.layoutChanged(clientLayers.map(\.layout))
            let gone = RegionRequest.subtree(of: id, in: client.regions)  // its children go with it
            client.regions.removeAll { gone.contains($0.id) }
        }
    }

    // MARK: - Regions in the layouts

    /// The clients' regions in each device's layout, in the order the devices' sessions
    /// started (kept as they start and end: a request does not walk the device table).
    var clientLayers: [ClientRegions] { clientLayerList }

    /// Adds every client's regions to a new device's layout.
    func installClientRegions(in session: DeviceSession) {
        let layer = ClientRegions(layout: session.layout)
        clientRegions[ObjectIdentifier(session.layout)] = layer
        clientLayerList.append(layer)
        guard let server else { return }
        for client in server.clients.values.sorted(by: { $0.number < $1.number }) {
            for region in client.regions { layer.install(region, client: client.number) }
        }
    }

    // MARK: - Gestures to clients

    /// A gesture on a client's region goes to that client only, under its own id; any other to
    /// every client whose subscription takes it.
    /// `owner`: the client whose region it is and its own id for it (``Gesture/client``).
    func deliver(_ event: GestureEvent, owner: (client: Int, id: String)?) {
        guard let server else { return }
        if let owner {
            guard let client = server.clients.values.first(where: { $0.number == owner.client }) else { return }
            var own = event
            own.region = owner.id
            send(line: ServiceMessage.gesture(own).jsonLine, to: client, flushNow: false)
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
