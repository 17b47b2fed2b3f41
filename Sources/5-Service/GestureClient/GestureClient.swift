import GestureProtocol
import GestureVocabulary
import Logging
import SystemLoop
import TouchEvents

/// Another process's side of gestured's socket (protocol v1, docs/protocol.md): gestures as an
/// `AsyncSequence` of typed events, and regions of your own — registered with the service,
/// hit-tested above its layout — whose gestures come to closures, with the same lifetime rules
/// as in-process handlers.
///
/// ```swift
/// let client = GestureClient()
/// let ok = RegionRequest(id: "ok", frame: Rect(x: 20, y: 20, width: 40, height: 20),
///                        gestures: [GestureRequest(kind: .tap)])
/// try client.register(ok, owner: screen) { screen, tap in screen.confirm() }
/// try client.start()
/// for await event in client.events { print(event) }
/// ```
///
/// The client runs its own thread with its own event loop: closures are called there, one at a
/// time, in the order the service sent the gestures; hop to the main actor yourself where you
/// need it. The `register`, `update`, `unregister`, `subscribe` and `setContext` calls are safe
/// from any thread.
///
/// **Lifetimes.** A region registered with an owner is unregistered once the owner is gone —
/// noticed at the client's next message in or out, without polling — and its closure is never
/// called after that; ``ClientRegionToken/cancel()`` unregisters at once.
///
/// **Reconnecting.** When the service goes away (its socket closes) the client tries again after
/// ``Options/minimumBackoff``, doubling up to ``Options/maximumBackoff``; once connected it
/// subscribes, sets its context and registers every live region again, so the app never has
/// to.
public final class GestureClient: @unchecked Sendable {
    public struct Options: Sendable {
        /// The service's socket.
        public var socketPath: String
        /// Which of the service's own gestures to receive; nil: none, only your regions'.
        public var filter: EventFilter?
        /// Told to the service on every connection (`app`: the focused app, for per-app rules).
        public var context: [String: String] = [:]
        public var minimumBackoff = Duration.milliseconds(100)
        public var maximumBackoff = Duration.seconds(5)
        /// Try again when the connection fails or breaks; false: the client ends instead.
        public var reconnect = true

        public init(socketPath: String = GestureClient.defaultSocketPath(), filter: EventFilter? = EventFilter()) {
            self.socketPath = socketPath
            self.filter = filter
        }
    }

    /// What the client tells you, in order.
    public enum Event: Sendable, Equatable {
        /// Connected: the service's greeting (its devices, layouts and gesture kinds).
        case connected(Greeting)
        /// A gesture: on one of your regions (`region` is your id) or on the service's layout.
        case gesture(GestureEvent)
        /// The service refused a request (its code, field and message).
        case error(ProtocolError)
        /// The connection ended or could not be made; why.
        case disconnected(String)
    }

    /// `$GESTURED_SOCKET`, else `/run/gestured/gestured.sock` — where `gestured run` listens
    /// under its systemd unit.
    public static func defaultSocketPath(environment: [String: String] = ProcessEnvironment.current) -> String {
        environment["GESTURED_SOCKET"] ?? "/run/gestured/gestured.sock"
    }

    public let options: Options
    private let loop: EventLoop
    private let logger: Logger
    private let shared: Lock<Shared>
    /// Only the client's thread touches this.
    private var connection = Connection()

    public init(options: Options = Options(), logger: Logger = Logger(label: "gestured.client")) throws(SystemError) {
        self.options = options
        self.logger = logger
        loop = try EventLoop()
        shared = Lock(Shared(filter: options.filter, context: options.context))
    }

    // MARK: - Regions

    /// Registers `region`; `handler` gets its gestures (on the client's thread) until the token
    /// is cancelled. Refused at once, as the service would refuse it, when this client already
    /// has a region with that id, the parent is not one of its regions, or it has as many
    /// regions as it may.
    @discardableResult
    public func register(_ region: RegionRequest, handler: @escaping (GestureEvent) -> Void) throws(ProtocolError) -> ClientRegionToken {
        try add(region, owner: nil) { _, event in handler(event) }
    }

    /// Registers `region` for as long as `owner` lives; `handler` gets the owner (never
    /// captured, so never kept alive) and each gesture.
    @discardableResult
    public func register<Owner: AnyObject>(_ region: RegionRequest, owner: Owner,
                                           handler: @escaping (Owner, GestureEvent) -> Void) throws(ProtocolError) -> ClientRegionToken {
        try add(region, owner: owner) { owner, event in
            if let owner = owner as? Owner { handler(owner, event) }
        }
    }

    private func add(_ region: RegionRequest, owner: AnyObject?,
                     _ body: @escaping (AnyObject?, GestureEvent) -> Void) throws(ProtocolError) -> ClientRegionToken {
        let registration = Registration(spec: region, owner: owner, body: body)
        try shared.withLock { s throws(ProtocolError) in
            s.sweep()
            guard !s.registrations.contains(where: { $0.spec.id == region.id }) else {
                throw ProtocolError(.duplicateID, field: "region.id", "this client already has a region \"\(region.id)\"")
            }
            if let parent = region.parent, !s.registrations.contains(where: { $0.spec.id == parent }) {
                throw ProtocolError(.unknownRegion, field: "region.parent", "this client has no region \"\(parent)\"")
            }
            guard s.registrations.count < ProtocolLimits.maximumRegions else {
                throw ProtocolError(.tooManyRegions, field: "region", "this client has \(s.registrations.count) regions, as many as it may")
            }
            s.registrations.append(registration)
            s.enqueue(.register(region))
        }
        loop.wakeUp()
        return ClientRegionToken(client: self, id: region.id)
    }

    /// Changes one of your regions (frame, hit insets, hidden, enabled).
    public func update(_ change: RegionUpdate) {
        shared.withLock { s in
            s.sweep()
            guard let r = s.registrations.first(where: { $0.spec.id == change.id }) else { return }
            if let f = change.frame { r.spec.frame = f }
            if let h = change.hitInsets { r.spec.hitInsets = h }
            if let h = change.hidden { r.spec.hidden = h }
            if let e = change.enabled { r.spec.enabled = e }
            s.enqueue(.update(change))
        }
        loop.wakeUp()
    }

    /// Unregisters one of your regions and its children.
    public func unregister(_ id: String) {
        shared.withLock { s in
            s.sweep()
            s.remove(id)
        }
        loop.wakeUp()
    }

    /// The ids of your live regions, in the order they were registered.
    public var regions: [String] { shared.withLock { s in s.sweep(); return s.registrations.map(\.spec.id) } }

    /// Which of the service's own gestures to receive (nil: none).
    public func subscribe(_ filter: EventFilter?) {
        shared.withLock { s in
            s.filter = filter
            s.enqueue(filter.map { .subscribe($0) } ?? .unsubscribe)
        }
        loop.wakeUp()
    }

    /// Tells the service where the app runs (`["app": "org.example.kiosk"]`).
    public func setContext(_ context: [String: String]) {
        shared.withLock { s in
            s.context = context
            s.enqueue(.context(context))
        }
        loop.wakeUp()
    }

    // MARK: - Events

    /// Every event from now on, buffered up to `buffer` (the oldest dropped past that). Each
    /// call makes a new sequence; all of them end when the client stops.
    public func events(buffer: Int = 1024) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(buffer))
        let id = shared.withLock { s in
            s.nextStream += 1
            s.streams[s.nextStream] = continuation
            return s.nextStream
        }
        continuation.onTermination = { [weak self] _ in self?.shared.withLock { s in _ = s.streams.removeValue(forKey: id) } }
        return stream
    }

    public var events: AsyncStream<Event> { events() }

    /// Called with every event on the client's thread (before the sequences get it).
    public var onEvent: ((Event) -> Void)? {
        get { shared.withLock { $0.onEvent } }
        set { shared.withLock { $0.onEvent = newValue } }
    }

    // MARK: - Running

    /// Starts the client's thread: it connects (and keeps reconnecting) until ``stop()``.
    public func start() throws(SystemError) {
        guard claimStart() else { return }
        try startThread { [self] in serve() }
    }

    /// Runs the client on the calling thread until ``stop()`` (called from a closure or
    /// another thread), or until the connection ends when ``Options/reconnect`` is false.
    public func run() {
        guard claimStart() else { return }
        serve()
    }

    /// True for the first caller of ``start()`` or ``run()``: the one that runs the client.
    private func claimStart() -> Bool {
        shared.withLock { s in
            defer { s.started = true }
            return !s.started
        }
    }

    /// Closes the connection and ends the thread and every event sequence.
    public func stop() {
        shared.withLock { $0.stopping = true }
        loop.wakeUp()
    }

    /// True while connected and greeted.
    public var isConnected: Bool { shared.withLock { $0.connected } }

    private func serve() {
        var backoff = options.minimumBackoff
        while !shared.withLock({ $0.stopping }) {
            if connection.fd < 0, MonotonicClock.now >= connection.nextAttempt {
                if !connect() {
                    if !options.reconnect { break }
                    connection.nextAttempt = MonotonicClock.now + backoff
                    backoff = min(backoff * 2, options.maximumBackoff)
                }
            }
            loop.setDeadline(connection.fd < 0 ? connection.nextAttempt : nil)
            for event in loop.wait(timeout: -1) {
                switch event {
                case .readable(let fd) where fd == connection.fd:
                    if read() { backoff = options.minimumBackoff }
                case .hangup(let fd) where fd == connection.fd:
                    disconnect("the service closed the connection")
                case .writable(let fd) where fd == connection.fd:
                    flush()
                case .wakeUp, .timer, .readable, .writable, .hangup, .signal:
                    break
                }
            }
            if connection.fd >= 0 { sendQueued() }
            if connection.fd < 0, !options.reconnect, connection.everConnected { break }
        }
        if connection.fd >= 0 { disconnect("the client stopped") }
        let streams = shared.withLock { s in
            defer { s.streams.removeAll() }
            return Array(s.streams.values)
        }
        for c in streams { c.finish() }
    }

    /// Connects; false (after telling why) when the service is not there.
    private func connect() -> Bool {
        let fd: Int32
        do throws(SystemError) {
            fd = try UnixSocket.connect(to: options.socketPath)
        } catch {
            if connection.lastFailure != error.message {
                connection.lastFailure = error.message
                publish(.disconnected("cannot connect to \(options.socketPath): \(error.message)"))
            }
            return false
        }
        UnixSocket.setNonBlocking(fd)
        let everConnected = connection.everConnected
        connection = Connection()
        connection.everConnected = everConnected
        connection.fd = fd
        loop.watch(fd)
        // Everything the service must know, taken with the queue emptied in one step: a
        // request made meanwhile is either in this or queued after it, never both.
        let lines = shared.withLock { s in
            s.sweep()
            s.outbox.removeAll()
            var lines: [String] = []
            func add(_ r: ClientRequest) {
                s.nextID += 1
                lines.append(ClientMessage(id: .number(Double(s.nextID)), r).jsonLine)
            }
            add(s.filter.map { .subscribe($0) } ?? .unsubscribe)
            if !s.context.isEmpty { add(.context(s.context)) }
            for r in s.registrations { add(.register(r.spec)) }
            return lines
        }
        for line in lines { connection.output.append(contentsOf: line.utf8) }
        flush()
        return true
    }

    private func disconnect(_ reason: String) {
        loop.unwatch(connection.fd)
        UnixSocket.close(connection.fd)
        connection.fd = -1
        connection.nextAttempt = MonotonicClock.now + options.minimumBackoff
        shared.withLock { $0.connected = false }
        logger.info("disconnected from gestured", metadata: ["reason": "\(reason)"])
        publish(.disconnected(reason))
    }

    /// Reads what came; true once greeted.
    private func read() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        var greeted = false
        while connection.fd >= 0 {
            switch buffer.withUnsafeMutableBytes({ UnixSocket.read(connection.fd, into: $0) }) {
            case .data(let n):
                for case .line(let line) in connection.input.feed(buffer[0..<n]) {
                    if handle(line) { greeted = true }
                    if connection.fd < 0 { return greeted }
                }
            case .wouldBlock:
                return greeted
            case .closed:
                disconnect("the service closed the connection")
                return greeted
            }
        }
        return greeted
    }

    /// One line from the service; true when it was the greeting.
    private func handle(_ line: [UInt8]) -> Bool {
        let message: ServiceMessage
        do throws(ProtocolError) {
            message = try ServiceMessage.parse(line)
        } catch {
            logger.warning("unreadable line from gestured", metadata: ["error": "\(error)"])
            return false
        }
        switch message {
        case .greeting(let greeting):
            guard greeting.version == ProtocolLimits.version else {
                disconnect("the service speaks protocol \(greeting.version); this client speaks \(ProtocolLimits.version)")
                return false
            }
            connection.everConnected = true
            shared.withLock { $0.connected = true }
            publish(.connected(greeting))
            return true
        case .gesture(let event):
            let target = shared.withLock { s -> (body: (AnyObject?, GestureEvent) -> Void, owner: AnyObject?)? in
                s.sweep()
                guard let r = s.registrations.first(where: { $0.spec.id == event.region }), r.isLive else { return nil }
                return (r.body, r.owner)
            }
            if let target { target.body(target.owner, event) }
            publish(.gesture(event))
        case .error(let error):
            publish(.error(error))
        case .reply, .pong, .other:
            break
        }
        return false
    }

    private func publish(_ event: Event) {
        let (observer, streams) = shared.withLock { s in (s.onEvent, Array(s.streams.values)) }
        observer?(event)
        for c in streams { c.yield(event) }
    }

    private func sendQueued() {
        let lines = shared.withLock { s in
            s.sweep()
            defer { s.outbox.removeAll() }
            return s.outbox
        }
        guard !lines.isEmpty else { return }
        for line in lines { connection.output.append(contentsOf: line.utf8) }
        flush()
    }

    private func flush() {
        while !connection.output.isEmpty {
            let n = connection.output.withUnsafeBytes { UnixSocket.send(connection.fd, $0) }
            guard n > 0 else { break }
            connection.output.removeFirst(n)
        }
        loop.watch(connection.fd, writable: !connection.output.isEmpty)
    }

    fileprivate func cancel(_ id: String) { unregister(id) }
    fileprivate func isLive(_ id: String) -> Bool {
        shared.withLock { s in s.sweep(); return s.registrations.contains { $0.spec.id == id } }
    }
}

/// Returned by ``GestureClient/register(_:handler:)``: `cancel()` unregisters the region. Dropping
/// the token does not; the owner's lifetime or `cancel()` does.
public final class ClientRegionToken: Sendable {
    private let client: GestureClient
    public let id: String

    init(client: GestureClient, id: String) {
        self.client = client
        self.id = id
    }

    /// True until cancelled or until the owner is gone.
    public var isActive: Bool { client.isLive(id) }

    /// Unregisters the region (and its children); its closure is not called again.
    public func cancel() { client.cancel(id) }
}

/// A registered region: what was asked and who it belongs to.
private final class Registration: @unchecked Sendable {
    var spec: RegionRequest
    let hasOwner: Bool
    weak var owner: AnyObject?
    let body: (AnyObject?, GestureEvent) -> Void

    init(spec: RegionRequest, owner: AnyObject?, body: @escaping (AnyObject?, GestureEvent) -> Void) {
        self.spec = spec
        hasOwner = owner != nil
        self.owner = owner
        self.body = body
    }

    var isLive: Bool { !hasOwner || owner != nil }
}

/// What the caller's threads and the client's thread share (under the lock).
private struct Shared: @unchecked Sendable {
    var registrations: [Registration] = []
    var filter: EventFilter?
    var context: [String: String]
    /// Requests to send when connected (dropped while not: connecting sends everything anew).
    var outbox: [String] = []
    var nextID = 0
    var streams: [Int: AsyncStream<GestureClient.Event>.Continuation] = [:]
    var nextStream = 0
    var onEvent: ((GestureClient.Event) -> Void)?
    var started = false
    var stopping = false
    var connected = false

    init(filter: EventFilter?, context: [String: String]) {
        self.filter = filter
        self.context = context
    }

    mutating func enqueue(_ request: ClientRequest) {
        nextID += 1
        outbox.append(ClientMessage(id: .number(Double(nextID)), request).jsonLine)
    }

    /// Regions whose owner is gone are unregistered.
    mutating func sweep() {
        guard registrations.contains(where: { !$0.isLive }) else { return }
        for r in registrations where !r.isLive { remove(r.spec.id) }
    }

    /// Removes `id` and its children, telling the service once (it removes the children too).
    mutating func remove(_ id: String) {
        guard registrations.contains(where: { $0.spec.id == id }) else { return }
        let gone = RegionRequest.subtree(of: id, in: registrations.map(\.spec))
        registrations.removeAll { gone.contains($0.spec.id) }
        enqueue(.unregister(id))
    }
}

/// The connection, as only the client's thread sees it.
private struct Connection {
    var fd: Int32 = -1
    /// The service is trusted with its line length: no bound.
    var input = LineFramer(maximumBytes: .max)
    var output: [UInt8] = []
    var nextAttempt = Instant(microseconds: 0)
    var everConnected = false
    var lastFailure: String?
}
