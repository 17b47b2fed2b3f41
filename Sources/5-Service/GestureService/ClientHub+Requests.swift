import GestureProtocol
import Gestures
import SystemLoop
import TouchEvents

/// Clients' requests: each client's share of a turn, the rate limit, and what each request does.
extension ClientHub {
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

    /// At the end of each turn (after the service's `--json` lines): the gestures queued for
    /// clients are written, and the heap
    /// trimmed when its time has come (``giveMemoryBack()``).
    func flushQueued() {
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
                observability.refused(code: error.code.rawValue)
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
                    observability.refused(code: e.code.rawValue)
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
        observability.refused(code: ProtocolError.Code.rateLimited.rawValue)
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
            if let server, clientRegionCount >= budgets.regions {
                let victim = server.victim(requester: client, extra: 1) { $0.regions.count }
                let why = "the service holds \(budgets.regions) regions of all clients, as many as it takes, and this client's process holds the most"
                if victim === client { throw ProtocolError(.serviceFull, field: "region", why) }
                letGo(victim, why)
            }
            client.regions.append(region)
            for layer in clientLayers { layer.install(region, client: client.number) }
            observability.clientLayoutsChanged(clientLayers.map(\.layout))
        case .update(let update):
            guard let i = client.regions.firstIndex(where: { $0.id == update.id }) else {
                throw ProtocolError(.unknownRegion, field: "region.id", "this client has no region \"\(update.id)\"")
            }
            if let f = update.frame { client.regions[i].frame = f }
            if let h = update.hitInsets { client.regions[i].hitInsets = h }
            if let h = update.hidden { client.regions[i].hidden = h }
            if let e = update.enabled { client.regions[i].enabled = e }
            if let x = update.exclusion { client.regions[i].exclusion = x }
            for layer in clientLayers { layer.update(client.regions[i], client: client.number) }
            observability.clientLayoutsChanged(clientLayers.map(\.layout))
        case .unregister(let id):
            guard client.regions.contains(where: { $0.id == id }) else {
                throw ProtocolError(.unknownRegion, field: "region", "this client has no region \"\(id)\"")
            }
            for layer in clientLayers { layer.remove(id, client: client.number) }
            observability.clientLayoutsChanged(clientLayers.map(\.layout))
            let gone = RegionRequest.subtree(of: id, in: client.regions)  // its children go with it
            client.regions.removeAll { gone.contains($0.id) }
        }
    }
}
